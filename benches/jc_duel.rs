//! Criterion benchmarks of `jc.duel` (Ambush, 3 against 2 on the open
//! display) and `jc.swordsman` (a grand-master hero against a grand
//! master), one thread and all threads, reported as duels per second.
//!
//! Run with `cargo bench --bench jc_duel`.

use std::hint::black_box;
use std::path::Path;

use barsoom::engine::{Dice, Model, NoTrace, RunConfig, run};
use barsoom::games::jc::duel::model::JcDuel;
use barsoom::games::jc::swordsman::JcSwordsman;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BATCH: u64 = 5_000;

fn scenario(relative: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/jc")
        .join(relative)
}

fn measure<M: Model + Send>(c: &mut Criterion, name: &str, model: &M, batch: u64) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(batch));
    group.bench_function("duels, 1 thread", |b| {
        b.iter(|| {
            for i in 0..batch {
                let mut d = Dice::for_trial(1, i);
                black_box(model.run_trial(&mut d, &mut NoTrace));
            }
        })
    });
    let parallel = batch * 10;
    group.throughput(Throughput::Elements(parallel));
    group.bench_function("duels, all threads (runner)", |b| {
        b.iter(|| black_box(run(model, &RunConfig::new(1, parallel), None)))
    });
    group.finish();
}

fn duels(c: &mut Criterion) {
    let ambush = match JcDuel::load(&scenario("duel/ambush.toml")) {
        Ok((m, _)) => m,
        Err(e) => panic!("benchmark scenario: {e}"),
    };
    measure(c, "jc.duel ambush", &ambush, BATCH);
    let bout = match JcSwordsman::load(&scenario(
        "swordsman/grand-master-hero-vs-grand-master.toml",
    )) {
        Ok((m, _)) => m,
        Err(e) => panic!("benchmark scenario: {e}"),
    };
    measure(c, "jc.swordsman grand masters", &bout, BATCH * 20);
}

criterion_group!(benches, duels);
criterion_main!(benches);
