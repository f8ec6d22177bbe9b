//! Criterion benchmarks of `wom.air`: six-against-six fleet actions (line
//! of battle against concentrated fire, and against First Born boarders),
//! one thread and all threads.
//!
//! Run with `cargo bench --bench air`.

use barsoom::games::ScenarioModel;
mod common;

use barsoom::games::wom::air::battle::WomAir;
use criterion::{Criterion, criterion_group, criterion_main};

fn actions(c: &mut Criterion) {
    for name in ["six-against-six", "six-against-six-black-pirate-boarders"] {
        let model = common::load(&format!("wom/air/{name}.toml"), WomAir::load);
        common::measure(
            c,
            &format!("wom.air {name}"),
            "actions",
            &model,
            2_000,
            Some(20_000),
        );
    }
}

criterion_group!(benches, actions);
criterion_main!(benches);
