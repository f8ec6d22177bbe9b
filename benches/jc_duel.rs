//! Criterion benchmarks of `jc.duel` (Ambush, 3 against 2 on the open
//! display; Rescuing the Princess on the palace, with discovery, the
//! dungeon and the tower) and `jc.swordsman` (a grand-master hero against a
//! grand master), one thread and all threads, reported as duels per second.
//!
//! Run with `cargo bench --bench jc_duel`.

use barsoom::games::ScenarioModel;
mod common;

use barsoom::games::jc::duel::model::JcDuel;
use barsoom::games::jc::swordsman::JcSwordsman;
use criterion::{Criterion, criterion_group, criterion_main};

const BATCH: u64 = 5_000;

fn duels(c: &mut Criterion) {
    let ambush = common::load("jc/duel/ambush.toml", JcDuel::load);
    common::measure(
        c,
        "jc.duel ambush",
        "duels",
        &ambush,
        BATCH,
        Some(BATCH * 10),
    );
    let rescue = common::load("jc/duel/rescuing-the-princess.toml", JcDuel::load);
    common::measure(
        c,
        "jc.duel rescuing the princess",
        "duels",
        &rescue,
        BATCH / 25,
        Some(BATCH / 5),
    );
    let bout = common::load(
        "jc/swordsman/grand-master-hero-vs-grand-master.toml",
        JcSwordsman::load,
    );
    common::measure(
        c,
        "jc.swordsman grand masters",
        "duels",
        &bout,
        BATCH * 20,
        Some(BATCH * 200),
    );
}

criterion_group!(benches, duels);
criterion_main!(benches);
