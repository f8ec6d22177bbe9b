//! Criterion benchmark of Warriors of Mars mass battles (`wom.battle`): whole
//! battles of the three bundled scenarios, one thread and all threads,
//! reported as battles per second.
//!
//! Run with `cargo bench --bench battle`.

use std::hint::black_box;
use std::path::Path;

use barsoom::engine::{Dice, Model, NoTrace, RunConfig, run};
use barsoom::games::wom::battle::battle::WomBattle;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn battles(c: &mut Criterion) {
    for (name, batch) in [
        ("thark-horde-against-heliumite-rifles", 20_000),
        ("zodangan-levies-receive-green-cavalry", 20_000),
        ("first-born-against-holy-therns", 20_000),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/wom/battle")
            .join(format!("{name}.toml"));
        let model = match WomBattle::load(&path) {
            Ok((m, _)) => m,
            Err(e) => panic!("benchmark scenario: {e}"),
        };
        let mut group = c.benchmark_group(format!("wom.battle {name}"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(batch));
        group.bench_function("battles, 1 thread", |b| {
            b.iter(|| {
                for i in 0..batch {
                    let mut d = Dice::for_trial(1, i);
                    black_box(model.run_trial(&mut d, &mut NoTrace));
                }
            })
        });
        let parallel = batch * 4;
        group.throughput(Throughput::Elements(parallel));
        group.bench_function("battles, all threads (runner)", |b| {
            b.iter(|| black_box(run(&model, &RunConfig::new(1, parallel), None)))
        });
        group.finish();
    }
}

criterion_group!(benches, battles);
criterion_main!(benches);
