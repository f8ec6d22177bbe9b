//! Criterion benchmarks of `jc.fleet`: the 10-vs-7 strength-point battle
//! (both sides on the minimax maneuver mix), one thread and all threads,
//! reported as battles per second.
//!
//! Run with `cargo bench --bench fleet`.

use barsoom::games::ScenarioModel;
mod common;

use barsoom::games::jc::fleet::JcFleet;
use criterion::{Criterion, criterion_group, criterion_main};

fn battles(c: &mut Criterion) {
    for name in ["ten-vs-seven-open-sky", "even-fight"] {
        let model = common::load(&format!("jc/fleet/{name}.toml"), JcFleet::load);
        common::measure(
            c,
            &format!("jc.fleet {name}"),
            "battles",
            &model,
            50_000,
            Some(2_000_000),
        );
    }
}

criterion_group!(benches, battles);
criterion_main!(benches);
