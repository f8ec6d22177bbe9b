//! The exact Markov-chain solution cross-checks the Monte Carlo: at a
//! million trials every outcome rate, and the mean fight length, must lie
//! within four standard errors of the exact value.

use barsoom::engine::{Model, RunConfig, run};
use barsoom::games::ScenarioModel;
use barsoom::games::wom::duel::WomDuel;

use crate::common;

fn check(label: &str, model: &WomDuel, trials: u64, seed: u64) {
    let exact = model.exact().unwrap_or_else(|e| panic!("{label}: {e}"));
    let sum: f64 = exact.outcome_probabilities.iter().sum();
    assert!(
        (sum - 1.0).abs() < 1e-9,
        "{label}: probabilities sum to {sum}"
    );
    let tally = run(
        model,
        &RunConfig {
            threads: 0,
            ..RunConfig::new(seed, trials)
        },
        None,
    )
    .expect("run");
    common::assert_rates_near_exact(label, model, &exact, &tally);
    for (metric, mean) in &exact.metric_means {
        let h = &tally.metrics[*metric];
        let observed = h.mean().unwrap_or(f64::NAN);
        let se = h.standard_error().unwrap_or(f64::NAN);
        assert!(
            (observed - mean).abs() <= 4.0 * se,
            "{label}: mean {} {observed:.4} vs exact {mean:.4} (se {se:.2e})",
            model.spec().metrics[*metric].name
        );
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "statistical check: run in release (cargo test --release)"
)]
fn men_against_men_level_grid() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pairs = [
        (6, 6),
        (6, 5),
        (13, 10),
        (12, 12),
        (8, 3),
        (3, 8),
        (13, 6),
        (1, 13),
        (10, 7),
        (5, 9),
        (2, 4),
        (11, 11),
    ];
    for (k, (a, b)) in pairs.iter().enumerate() {
        let path = common::one_on_one(
            dir.path(),
            &format!("grid{k}"),
            "padwar",
            &format!("level = {a}"),
            "regular",
            &format!("level = {b}"),
        );
        let model = WomDuel::load(&path).expect("loads").0;
        check(
            &format!("level {a} vs {b}"),
            &model,
            1_000_000,
            1000 + k as u64,
        );
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "statistical check: run in release (cargo test --release)"
)]
fn bundled_one_on_one_scenarios() {
    for name in [
        "okarian-vs-red-dwar",
        "red-warrior-vs-banth",
        "calot-vs-white-ape",
        "tars-tarkas-vs-sith",
        "hunter-shoots-charging-thoat",
        "lancer-vs-sith",
        "woola-vs-white-ape",
        "john-carter-vs-green-chieftain",
    ] {
        let model = WomDuel::load(&common::bundled(&format!("wom/{name}.toml")))
            .expect("loads")
            .0;
        check(name, &model, 1_000_000, 77);
    }
}

#[test]
fn several_opponents_are_refused_with_a_reason() {
    let model = WomDuel::load(&common::bundled(
        "wom/three-green-warriors-vs-john-carter.toml",
    ))
    .expect("loads")
    .0;
    let why = model
        .exact()
        .expect_err("three against one is not solved exactly");
    assert!(
        why.contains("one figure against one") && why.contains("3 against 1"),
        "{why}"
    );
}

#[test]
fn an_even_duel_is_even() {
    // Carthoris against Tars Tarkas: same level, same weapon, a fair
    // roll-off for the first strike, so each wins exactly half the time.
    let model = WomDuel::load(&common::bundled("wom/carthoris-vs-tars-tarkas.toml"))
        .expect("loads")
        .0;
    let exact = model.exact().expect("solvable");
    assert!((exact.outcome_probabilities[0] - 0.5).abs() < 1e-12);
    assert!((exact.outcome_probabilities[1] - 0.5).abs() < 1e-12);
}
