//! Criterion benchmarks of `talisman.game`: full 4-player games (sensible
//! players, random deals, any ending), one thread and all threads, reported
//! as games per second.
//!
//! Run with `cargo bench --bench talisman`.

use barsoom::games::ScenarioModel;
mod common;

use barsoom::games::talisman::game::TalismanGame;
use criterion::{Criterion, criterion_group, criterion_main};

fn games(c: &mut Criterion) {
    for name in ["four-player-random-deal", "two-player-random-deal"] {
        let model = common::load(&format!("talisman/{name}.toml"), TalismanGame::load);
        common::measure(
            c,
            &format!("talisman.game {name}"),
            "games",
            &model,
            1_000,
            Some(4_000),
        );
    }
}

criterion_group!(benches, games);
criterion_main!(benches);
