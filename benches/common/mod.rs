//! What every criterion benchmark of a model does: load a bundled scenario,
//! then time whole trials on one thread (the model's `run_trial` in a loop)
//! and on all threads (the engine's runner), reported as trials per second.

use std::hint::black_box;
use std::path::Path;

use barsoom::engine::{Dice, Model, NoTrace, RunConfig, run};
use barsoom::scenario::ScenarioError;
use criterion::{Criterion, Throughput};

/// Loads the bundled scenario `scenarios/<relative>` with a model's `load`;
/// a benchmark cannot run without it, so an error stops it.
pub fn load<M>(relative: &str, load: fn(&Path) -> Result<(M, String), ScenarioError>) -> M {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(relative);
    match load(&path) {
        Ok((model, _)) => model,
        Err(e) => panic!("benchmark scenario: {e}"),
    }
}

/// Times `model` in the group `group`: `batch` trials on one thread, then
/// `runner_batch` trials through the runner on all threads (if given), as
/// `unit` (games, battles...) per second.
pub fn measure<M: Model + Send>(
    c: &mut Criterion,
    group: &str,
    unit: &str,
    model: &M,
    batch: u64,
    runner_batch: Option<u64>,
) {
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    group.throughput(Throughput::Elements(batch));
    group.bench_function(format!("{unit}, 1 thread"), |b| {
        b.iter(|| {
            for i in 0..batch {
                let mut d = Dice::for_trial(1, i);
                black_box(model.run_trial(&mut d, &mut NoTrace));
            }
        })
    });
    if let Some(parallel) = runner_batch {
        group.throughput(Throughput::Elements(parallel));
        group.bench_function(format!("{unit}, all threads (runner)"), |b| {
            b.iter(|| black_box(run(model, &RunConfig::new(1, parallel), None)))
        });
    }
    group.finish();
}
