//! Criterion benchmark of Warriors of Mars mass battles (`wom.battle`): whole
//! battles of the bundled scenarios (three one-axis, one on a field), one
//! thread and all threads,
//! reported as battles per second.
//!
//! Run with `cargo bench --bench battle`.

use barsoom::games::ScenarioModel;
mod common;

use barsoom::games::wom::battle::battle::WomBattle;
use criterion::{Criterion, criterion_group, criterion_main};

fn battles(c: &mut Criterion) {
    for name in [
        "thark-horde-against-heliumite-rifles",
        "zodangan-levies-receive-green-cavalry",
        "first-born-against-holy-therns",
        "heliumite-horse-turns-the-zodangan-flank",
    ] {
        let model = common::load(&format!("wom/battle/{name}.toml"), WomBattle::load);
        common::measure(
            c,
            &format!("wom.battle {name}"),
            "battles",
            &model,
            20_000,
            Some(80_000),
        );
    }
}

criterion_group!(benches, battles);
criterion_main!(benches);
