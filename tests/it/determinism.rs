//! Results depend on the seed and the trial indices only: not on the
//! thread count, the block size or how the trial range is split.

use barsoom::engine::{RunConfig, Tally, run};
use barsoom::games::ScenarioModel;
use barsoom::games::wom::duel::WomDuel;

use crate::common;

fn model(name: &str) -> WomDuel {
    WomDuel::load(&common::bundled(name))
        .expect("bundled scenario loads")
        .0
}

fn tally(m: &WomDuel, trials: std::ops::Range<u64>, threads: usize, chunk: u64) -> Tally {
    common::tally(m, 99, trials, threads, chunk)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn identical_for_one_two_and_seven_threads() {
    for name in [
        "wom/padwar-vs-regular.toml",
        "wom/three-green-warriors-vs-john-carter.toml",
        "wom/calot-vs-white-ape.toml",
    ] {
        let m = model(name);
        let one = tally(&m, 0..200_000, 1, 4096);
        assert_eq!(one, tally(&m, 0..200_000, 2, 4096), "{name}: 2 threads");
        assert_eq!(one, tally(&m, 0..200_000, 7, 4096), "{name}: 7 threads");
        assert_eq!(
            one,
            tally(&m, 0..200_000, 7, 1000),
            "{name}: another block size"
        );
        assert_eq!(one.trials(), 200_000);
    }
}

#[test]
fn split_ranges_merge_to_the_whole() {
    let m = model("wom/john-carter-vs-green-chieftain.toml");
    let whole = tally(&m, 0..100_000, 2, 4096);
    for cuts in [
        vec![1, 50_000],
        vec![33_333, 33_334, 77_777],
        vec![4096, 8192, 99_999],
    ] {
        let mut edges = vec![0];
        edges.extend(cuts.iter().copied());
        edges.push(100_000);
        let mut merged = Tally::new(whole.outcomes.len(), whole.metrics.len());
        for pair in edges.windows(2) {
            merged.merge(&tally(&m, pair[0]..pair[1], 3, 4096));
        }
        assert_eq!(merged, whole, "split at {cuts:?}");
    }
}

#[test]
fn a_replayed_trial_matches_the_bulk_run() {
    let m = model("wom/three-green-warriors-vs-john-carter.toml");
    common::assert_replays_match_bulk(&m, 5, 3000, 512, &[0, 1, 511, 512, 2999], "");
}

#[test]
fn different_seeds_differ() {
    let m = model("wom/padwar-vs-padwar.toml");
    let a = run(&m, &RunConfig::new(1, 50_000), None).expect("run");
    let b = run(&m, &RunConfig::new(2, 50_000), None).expect("run");
    assert_ne!(a, b);
}
