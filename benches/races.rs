//! Criterion benchmarks of the six races of Mars hex wargame: full
//! `races.game` games (2-player greedy, 2-player random, 4-player greedy)
//! and single `races.battle` battles, one thread and all threads, reported
//! as games (battles) per second.
//!
//! Run with `cargo bench --bench races`.

use barsoom::games::ScenarioModel;
mod common;

use barsoom::games::races::battle::RacesBattle;
use barsoom::games::races::game::RacesGame;
use criterion::{Criterion, criterion_group, criterion_main};

fn games(c: &mut Criterion) {
    for (name, batch) in [
        ("two-player", 5_000),
        ("two-player-random", 1_000),
        ("four-player", 2_000),
    ] {
        let model = common::load(&format!("races/game/{name}.toml"), RacesGame::load);
        common::measure(
            c,
            &format!("races.game {name}"),
            "games",
            &model,
            batch,
            Some(batch * 4),
        );
    }
    let battle = common::load(
        "races/battle/red-storms-fortified-green.toml",
        RacesBattle::load,
    );
    common::measure(
        c,
        "races.battle red-storms-fortified-green",
        "battles",
        &battle,
        1_000_000,
        Some(4_000_000),
    );
}

criterion_group!(benches, games);
criterion_main!(benches);
