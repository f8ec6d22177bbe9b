//! `talisman.combat`, one Talisman combat: the exact table of d6 + a
//! against d6 + b against Monte Carlo, and `barsoom exact` on the bundled
//! combat.

use barsoom::engine::{Model, RunConfig, run};
use barsoom::games::talisman::combat::{TalismanCombat, combat_table, odds};

use crate::common;

#[test]
fn the_exact_combat_table_matches_monte_carlo() {
    // d6 + a against d6 + b for a, b in 1..=15: every entry's win and
    // stand-off rates within 4 standard errors over 20,000 combats.
    let table = combat_table(15);
    assert_eq!(table.len(), 15);
    // Hand-worked: equal Strength: win 15/36, stand-off 6/36.
    assert!((table[4][4][0] - 15.0 / 36.0).abs() < 1e-12);
    assert!((table[4][4][1] - 6.0 / 36.0).abs() < 1e-12);
    // Six or more ahead always wins.
    assert_eq!(table[14][0], [1.0, 0.0, 0.0]);
    let n = 20_000u64;
    for a in [1, 3, 5, 8, 15] {
        for b in [1, 2, 5, 6, 9, 15] {
            let model = TalismanCombat::new(a, b, false);
            let tally = run(&model, &RunConfig::new(7, n), None).expect("run");
            for (k, p) in table[(a - 1) as usize][(b - 1) as usize]
                .iter()
                .enumerate()
                .take(2)
            {
                let rate = tally.outcomes[k] as f64 / n as f64;
                let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
                assert!(
                    (rate - p).abs() <= 4.0 * se + 1e-12,
                    "{a} vs {b}: {rate} vs {p}"
                );
            }
        }
    }
    // The best of two dice (the Warrior's ability) at equal Strength:
    // P(max(x, y) > z) = sum over z of (1 - (z/6)^2) / 6 = 1 - 91/216.
    let best = odds(0, true);
    assert!((best[0] - (1.0 - 91.0 / 216.0)).abs() < 1e-12);
    let exact = TalismanCombat::new(5, 4, true).exact().expect("exact");
    assert!((exact.outcome_probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn the_cli_solves_a_combat() {
    let out = common::barsoom_ok(
        &["exact", "scenarios/talisman/combat-5-vs-4.toml"],
        &common::root(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // 5 vs 4: win 21/36 = 0.583333.
    assert!(text.contains("0.583333"), "{text}");
}
