//! `jc.fleet`: hand-worked rules cases, the minimax mix, determinism,
//! exact against Monte Carlo, and one-line errors for impossible set-ups.
//!
//! Table values used below are those of the reconstructed
//! `scenarios/jc/data/fleet-tables.toml`: results = max(0, floor((roll +
//! differential + 1) / 4)) with rolls clamped to -1..13 and differentials
//! to -5..+5. Leadership: John Carter 3, Kantos Kan 2, Nutus 2, Gahan 2,
//! Astok 1, Tul Axtar 1, Mors Kajak 1.

use barsoom::games::ScenarioModel;
use barsoom::scenario::Load;
use std::path::{Path, PathBuf};

use barsoom::engine::{Model, RunConfig, Tally, run};
use barsoom::games::jc::fleet::{
    Battle, BattleState, End, FORCED_REVERSE, JcFleet, MIX_RESOLUTION, NEUTRAL_LEFT,
    NEUTRAL_REVERTED, OUT_AGREED, OUT_FIRST_ELIMINATES, OUT_FIRST_REVERSES, OUT_SECOND_ELIMINATES,
    OUT_SECOND_REVERSES, OUT_UNDECIDED, RoundPlay,
};
use barsoom::games::jc::fleet_tables::{FleetTables, JcData};
use barsoom::math::matrix_game::{expected_payoff, solve_zero_sum};

use crate::common;
use crate::common::{barsoom, barsoom_ok, jc_data};

// Maneuver indices in the data's order.
const CLOSE_ASSAULT: usize = 0;
const BROADSIDE: usize = 1;
const CLIMB: usize = 4;
const CIRCLE: usize = 6;
const REVERSE: usize = 8;

/// Writes a `jc.fleet` scenario: `top` is TOML for the top-level fields,
/// `sides` for the two `[[sides]]` tables.
fn write(dir: &Path, name: &str, top: &str, sides: &str) -> PathBuf {
    common::write_scenario(
        dir,
        name,
        "jc.fleet",
        &jc_data(),
        &format!("{top}\n{sides}"),
    )
}

fn side(nation: &str, strength: u8, commanders: &str, extra: &str) -> String {
    format!(
        "[[sides]]\nnation = \"{nation}\"\nstrength = {strength}\ncommanders = [{commanders}]\n{extra}\n"
    )
}

fn load(path: &Path) -> JcFleet {
    match JcFleet::load(path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

fn battle_of(top: &str, sides: &str) -> Battle {
    let dir = tempfile::tempdir().expect("tempdir");
    load(&write(dir.path(), "b", top, sides)).battle().clone()
}

fn play(maneuvers: [usize; 2], rolls: [u32; 2]) -> RoundPlay {
    RoundPlay { maneuvers, rolls }
}

fn bundled(name: &str) -> JcFleet {
    load(&common::bundled(&format!("jc/fleet/{name}.toml")))
}

// ---------------------------------------------------------------- tables

#[test]
fn results_table_reads_by_differential_and_clamps_at_the_edges() {
    let tables = FleetTables::load(&jc_data().join("fleet-tables.toml")).expect("loads");
    let r = &tables.results;
    // Even differential: roll 6 -> floor(7/4) = 1, roll 7 -> floor(8/4) = 2.
    assert_eq!(r.destroyed(0, 6), 1);
    assert_eq!(r.destroyed(0, 7), 2);
    // +3 column, roll 0: floor((0 + 3 + 1) / 4) = 1.
    assert_eq!(r.destroyed(3, 0), 1);
    // -3 column, roll 9: floor(7/4) = 1; roll 5: floor(3/4) = 0.
    assert_eq!(r.destroyed(-3, 9), 1);
    assert_eq!(r.destroyed(-3, 5), 0);
    // Corners: +5 and 13 -> floor(19/4) = 4; -5 and -1 -> 0.
    assert_eq!(r.destroyed(5, 13), 4);
    assert_eq!(r.destroyed(-5, -1), 0);
    // Beyond the edges reads the edge: +9 and roll 20 is the (+5, 13)
    // cell; -7 and 12 the (-5, 12) cell = floor(8/4) = 2; roll -4 at +5 the
    // (+5, -1) cell = floor(5/4) = 1.
    assert_eq!(r.destroyed(9, 20), 4);
    assert_eq!(r.destroyed(-7, 12), 2);
    assert_eq!(r.destroyed(5, -4), 1);
    assert_eq!(r.destroyed(-40, -40), 0);
}

#[test]
fn matrix_and_leadership_arithmetic() {
    // Dusar 10 under Astok (1) attacks Helium 7 under John Carter (3):
    // Close Assault against Broadside is -2 on the matrix; the defender's
    // leader is better by 2, so 2 is subtracted [23.33]: modifier -4, and the
    // defender uses +4 [23.23].
    let b = battle_of(
        "",
        &(side("dusar", 10, "\"astok\"", "") + &side("helium", 7, "\"john-carter\"", "")),
    );
    assert_eq!(b.attacker_side(), 0);
    let s = b.start();
    let out = b.round(&s, &play([CLOSE_ASSAULT, BROADSIDE], [7, 5]));
    assert_eq!((out.modifier, out.leadership), (-4, -2));
    // Attacker: 7 - 4 = 3 on +3: floor(7/4) = 1. Defender: 5 + 4 = 9 on -3:
    // floor(7/4) = 1.
    assert_eq!(out.differentials, [3, -3]);
    assert_eq!(out.destroyed, [1, 1]);
    assert_eq!(out.next.home, [9, 6]);
    assert_eq!(out.end, None);

    // The attacker's better leader adds: Helium 8 under John Carter (3)
    // attacks Dusar 7 under Nutus and Astok, who use Nutus (2) [23.31]:
    // Climb against Circle is +1, leadership +1: modifier +2.
    let b = battle_of(
        "",
        &(side("helium", 8, "\"john-carter\"", "") + &side("dusar", 7, "\"astok\", \"nutus\"", "")),
    );
    let out = b.round(&b.start(), &play([CLIMB, CIRCLE], [10, 1]));
    assert_eq!((out.modifier, out.leadership), (2, 1));
    // 10 + 2 = 12 on +1: floor(14/4) = 3; 1 - 2 = -1 on -1: 0.
    assert_eq!(out.destroyed, [3, 0]);
    assert_eq!(out.next.home, [8, 4]);

    // No commander leads at 0 [23.32]; equal leaders change nothing.
    let b = battle_of(
        "",
        &(side("helium", 8, "", "") + &side("dusar", 7, "\"astok\"", "")),
    );
    assert_eq!(b.modifier(&b.start(), [CLIMB, CIRCLE]), (1 - 1, -1));
    let b = battle_of(
        "",
        &(side("helium", 8, "\"kantos-kan\"", "") + &side("dusar", 7, "\"nutus\"", "")),
    );
    assert_eq!(b.modifier(&b.start(), [CLIMB, CIRCLE]), (1, 0));
}

#[test]
fn the_attacker_is_the_stronger_side_or_the_phasing_one() {
    let b = battle_of("", &(side("helium", 6, "", "") + &side("dusar", 9, "", "")));
    assert_eq!(b.attacker_side(), 1);
    let b = battle_of(
        "phasing = \"Dusar\"",
        &(side("helium", 7, "", "") + &side("dusar", 7, "", "")),
    );
    assert_eq!(b.attacker_side(), 1);
    let b = battle_of("", &(side("helium", 7, "", "") + &side("dusar", 7, "", "")));
    assert_eq!(b.attacker_side(), 0, "the first side phases by default");
}

#[test]
fn intrinsic_defense_counts_only_in_the_attackers_half() {
    // Dusar 10 attacks Helium 8 in Greater Helium (intrinsic defense 2):
    // attacker's differential 10 - (8 + 2) = 0, defender's 8 - 10 = -2.
    let b = battle_of(
        "capital = \"greater-helium\"",
        &(side("dusar", 10, "", "") + &side("helium", 8, "", "")),
    );
    let out = b.round(&b.start(), &play([CLOSE_ASSAULT, CLOSE_ASSAULT], [7, 7]));
    assert_eq!(out.differentials, [0, -2]);
    // 7 on 0: 2 destroyed; 7 on -2: floor(6/4) = 1.
    assert_eq!(out.destroyed, [2, 1]);
    // A conqueror gets nothing from a captured capital [23.44]: Helium
    // defending Dusar's capital.
    let b = battle_of(
        "capital = \"dusar\"",
        &(side("dusar", 10, "", "") + &side("helium", 8, "", "")),
    );
    assert_eq!(
        b.round(&b.start(), &play([0, 0], [1, 1])).differentials,
        [2, -2]
    );
    // The capital's own nation attacking gains nothing either: it only
    // ever adds to the defender.
    let b = battle_of(
        "capital = \"greater-helium\"",
        &(side("helium", 10, "", "") + &side("dusar", 8, "", "")),
    );
    assert_eq!(
        b.round(&b.start(), &play([0, 0], [1, 1])).differentials,
        [2, -2]
    );
    // Lesser Helium's is 1.
    let b = battle_of(
        "capital = \"lesser-helium\"",
        &(side("dusar", 10, "", "") + &side("helium", 8, "", "")),
    );
    assert_eq!(
        b.round(&b.start(), &play([0, 0], [1, 1])).differentials,
        [1, -2]
    );
}

#[test]
fn two_consecutive_reverses_break_off_and_the_enemy_holds() {
    let b = battle_of(
        "capital = \"greater-helium\"\nholder = \"Helium\"",
        &(side("dusar", 10, "", "") + &side("helium", 8, "", "")),
    );
    // Rolls of 1 keep losses small: attacker 1 + 3 (Close Assault against a
    // Reverse) = 4 on 0 -> 1; defender 1 - 3 = -2 on -2 -> 0.
    let s0 = b.start();
    let r1 = b.round(&s0, &play([CLOSE_ASSAULT, REVERSE], [1, 1]));
    assert_eq!(r1.destroyed, [1, 0]);
    assert_eq!(r1.next.reverses, [0, 1]);
    assert_eq!(r1.end, None);
    // A fighting maneuver in between resets the count.
    let r2 = b.round(&r1.next, &play([CLOSE_ASSAULT, CIRCLE], [1, 1]));
    assert_eq!((r2.next.reverses, r2.end), ([0, 0], None));
    let r3 = b.round(&r2.next, &play([CLOSE_ASSAULT, REVERSE], [1, 1]));
    let r4 = b.round(&r3.next, &play([CLOSE_ASSAULT, REVERSE], [1, 1]));
    assert_eq!(r4.end, Some(End::Reversed(1)));
    let t = b.terminal(&r4.next, End::Reversed(1));
    assert_eq!(
        t.outcome, OUT_SECOND_REVERSES,
        "Helium (second side) broke off"
    );
    assert_eq!(b.city_holder(t.outcome), Some(0), "Dusar holds the city");
    assert_eq!(t.captured, [0, 0]);
    // An always-Reverse fleet leaves after exactly two rounds unless
    // destroyed first.
    let m = load(&write(
        tempfile::tempdir().expect("tempdir").path(),
        "runaway",
        "",
        &(side("helium", 9, "", "policy = { maneuver = \"reverse\" }") + &side("dusar", 9, "", "")),
    ));
    let exact = m.exact().expect("solvable");
    // Nine points cannot be destroyed in two rounds (at most 4 a round), so
    // Helium always leaves after round 2, alone unless Dusar's random play
    // also Reversed in both rounds (1/9 * 1/9 = 1/81: both break off).
    let p = &exact.outcome_probabilities;
    assert!(
        (p[usize::from(OUT_FIRST_REVERSES)] - 80.0 / 81.0).abs() < 1e-12,
        "{p:?}"
    );
    assert!(
        (p[usize::from(OUT_AGREED)] - 1.0 / 81.0).abs() < 1e-12,
        "{p:?}"
    );
    assert!((exact.metric_means[0].1 - 2.0).abs() < 1e-12, "two rounds");
}

#[test]
fn eliminated_commanders_are_captured() {
    // Helium 1 under John Carter and Mors Kajak against Dusar 9: a 10 on the
    // +8 (clamped +5) column with Close Assault vs Circle (+2) and leadership
    // 1 - 3 = -2 reads row 10: floor(16/4) = 4, enough for Helium's 1.
    let b = battle_of(
        "",
        &(side("helium", 1, "\"john-carter\", \"mors-kajak\"", "")
            + &side("dusar", 9, "\"astok\"", "")),
    );
    assert_eq!(b.side_of_role(0), 1);
    let out = b.round(&b.start(), &play([CLOSE_ASSAULT, CIRCLE], [10, 1]));
    assert_eq!(out.end, Some(End::Eliminated(1)));
    let t = b.terminal(&out.next, End::Eliminated(1));
    assert_eq!(t.outcome, OUT_SECOND_ELIMINATES);
    assert_eq!(t.captured, [2, 0]);
    assert_eq!(t.left, [0, 9]);
}

#[test]
fn influenced_neutrals_follow_24_4() {
    // Helium 1 (John Carter) with Gathol 4 (Gahan) against Dusar 6 (Astok).
    let sides = side(
        "helium",
        1,
        "\"john-carter\"",
        "neutral = { nation = \"gathol\", strength = 4, commanders = [\"gahan\"] }",
    ) + &side("dusar", 6, "\"astok\"", "");
    let b = battle_of("", &sides);
    assert_eq!(b.side_of_role(1), 0, "Helium and Gathol (5) defend");
    // While a Heliumite fleet is present John Carter leads (3 vs 1)
    // [24.46]: the attacker's modifier carries -2.
    let s = b.start();
    assert_eq!(b.modifier(&s, [CIRCLE, CIRCLE]).1, -2);
    // Dusar rolls 10 - 2 = 8 (Circle vs Circle 0, leadership -2) on +1:
    // floor(10/4) = 2 destroyed: Helium's 1 first, then 1 of Gathol's.
    // Helium and Gathol roll 1 + 2 = 3 on -1: floor(3/4) = 0.
    let out = b.round(&s, &play([CIRCLE, CIRCLE], [10, 1]));
    assert_eq!(out.destroyed, [2, 0]);
    assert_eq!((out.next.home[1], out.next.neutral[1]), (0, 3));
    // Losses forced onto the neutral: it reverts [24.42] and must Reverse
    // [24.44]; John Carter no longer commands it, Gahan (2) does [24.45].
    assert_eq!(out.next.flags[1], FORCED_REVERSE | NEUTRAL_REVERTED);
    assert_eq!(out.end, None);
    let (_, wants) = b.opening(&out.next);
    assert!(b.forced_reverse(&out.next, 1, wants));
    assert_eq!(b.modifier(&out.next, [CIRCLE, CIRCLE]).1, -1);
    // Two Reverses later combat is broken off; nobody is captured. (Dusar
    // rolls 1 - 1 = 0 on +3, then on +4: 1 destroyed each time.)
    let r2 = b.round(&out.next, &play([CIRCLE, REVERSE], [1, 1]));
    let r3 = b.round(&r2.next, &play([CIRCLE, REVERSE], [1, 1]));
    assert_eq!(r3.end, Some(End::Reversed(1)));
    let t = b.terminal(&r3.next, End::Reversed(1));
    assert_eq!(t.outcome, OUT_FIRST_REVERSES);
    assert_eq!((t.captured, t.neutral_lost), ([0, 0], [1, 0]));

    // Electing to lose the neutral's fleets instead of one's own [24.43]:
    // they leave as the next round begins, with their commander.
    let sides = side(
        "helium",
        3,
        "\"john-carter\"",
        "neutral = { nation = \"gathol\", strength = 4, commanders = [\"gahan\"] }\npolicy = { losses = \"neutral-first\" }",
    ) + &side("dusar", 9, "\"astok\"", "");
    let b = battle_of("", &sides);
    let out = b.round(&b.start(), &play([CIRCLE, CIRCLE], [10, 1]));
    // 10 - 2 on +2: floor(11/4) = 2, both from Gathol, which then leaves.
    assert_eq!(out.destroyed[0], 2);
    assert_eq!((out.next.home[1], out.next.neutral[1]), (3, 0));
    assert_eq!(out.next.flags[1], NEUTRAL_REVERTED | NEUTRAL_LEFT);
    // Later eliminated, Helium loses only John Carter.
    let mut s: BattleState = out.next;
    s.home[1] = 0;
    assert_eq!(b.terminal(&s, End::Eliminated(1)).captured[0], 1);
}

#[test]
fn break_off_by_agreement_keeps_the_city_for_its_holder() {
    // Jahar outnumbered 9 to 5 with a 1.5 rule proposes at once, Helium
    // accepts: no round is fought and Helium keeps the city.
    let m = load(&write(
        tempfile::tempdir().expect("tempdir").path(),
        "agree2",
        "capital = \"lesser-helium\"\nholder = \"Helium\"",
        &(side("helium", 9, "", "policy = { accept_break_off = true }")
            + &side("jahar", 5, "", "policy = { break_off_behind = 1.5 }")),
    ));
    let exact = m.exact().expect("solvable");
    assert_eq!(exact.outcome_probabilities[usize::from(OUT_AGREED)], 1.0);
    assert_eq!(exact.metric_means[0].1, 0.0);
    assert_eq!(m.battle().city_holder(OUT_AGREED), Some(0));
    assert!(m.spec().outcomes[usize::from(OUT_AGREED)].contains("Helium keeps Lesser Helium"));
    // Without an accepting enemy the same rule Reverses out [23.22].
    let m = load(&write(
        tempfile::tempdir().expect("tempdir").path(),
        "agree3",
        "",
        &(side("helium", 9, "", "") + &side("jahar", 5, "", "policy = { break_off_behind = 1.5 }")),
    ));
    let exact = m.exact().expect("solvable");
    // It Reverses from the first round, so it is out after two rounds
    // unless destroyed first (or Helium's random play also Reverses twice).
    let p = &exact.outcome_probabilities;
    assert!(p[usize::from(OUT_SECOND_REVERSES)] > 0.2, "{p:?}");
    let two_rounds_at_most = p[usize::from(OUT_SECOND_REVERSES)]
        + p[usize::from(OUT_FIRST_ELIMINATES)]
        + p[usize::from(OUT_AGREED)];
    assert!((two_rounds_at_most - 1.0).abs() < 1e-12, "{p:?}");
    assert!(exact.metric_means[0].1 <= 2.0 + 1e-9);
}

// ---------------------------------------------------------------- minimax

#[test]
fn the_minimax_mix_is_an_equilibrium_of_the_bundled_matrix() {
    let data = JcData::load(&jc_data()).expect("loads");
    let matrix: Vec<Vec<f64>> = data
        .tables
        .matrix
        .iter()
        .map(|r| r.iter().map(|v| f64::from(*v)).collect())
        .collect();
    let s = solve_zero_sum(&matrix).expect("solvable");
    // The matrix is skew-symmetric, so the value is 0 and a Reverse is
    // never part of an optimal mix.
    assert!(s.value.abs() < 1e-9, "{}", s.value);
    assert_eq!(s.row_strategy[REVERSE], 0.0);
    for j in 0..9 {
        let mut pure = vec![0.0; 9];
        pure[j] = 1.0;
        assert!(expected_payoff(&matrix, &s.row_strategy, &pure) >= -1e-9);
        assert!(expected_payoff(&matrix, &pure, &s.column_strategy) <= 1e-9);
    }
    let expected = [0.25, 0.25, 0.375, 0.125, 0.0, 0.0, 0.0, 0.0, 0.0];
    for (p, e) in s.row_strategy.iter().zip(expected) {
        assert!((p - e).abs() < 1e-12, "{:?}", s.row_strategy);
    }
    // The battle plays it quantised to 1/MIX_RESOLUTION. (For this matrix
    // the LP's vertex is Close Assault 1/4, Broadside 1/4, Envelop Left 3/8,
    // Envelop Right 1/8, which the quantisation keeps exactly.)
    let m = bundled("ten-vs-seven-open-sky");
    let mix = m.battle().mix(0);
    for (i, p) in s.row_strategy.iter().enumerate() {
        assert!(
            (mix.probability(i) - p).abs() <= 1.0 / f64::from(MIX_RESOLUTION),
            "{i}"
        );
    }
}

// ---------------------------------------------------------------- runs

fn tally(m: &JcFleet, trials: std::ops::Range<u64>, threads: usize) -> Tally {
    common::tally(m, 41, trials, threads, 4096)
}

#[test]
fn identical_for_one_two_and_three_threads() {
    for name in [
        "ten-vs-seven-open-sky",
        "helium-and-gathol-hold-gathol",
        "break-off-when-behind",
    ] {
        let m = bundled(name);
        let one = tally(&m, 0..150_000, 1);
        assert_eq!(one, tally(&m, 0..150_000, 2), "{name}");
        assert_eq!(one, tally(&m, 0..150_000, 3), "{name}");
        assert_eq!(one.trials(), 150_000);
    }
}

#[test]
fn a_replayed_battle_matches_the_bulk_run() {
    let m = bundled("helium-and-gathol-hold-gathol");
    common::assert_replays_match_bulk(&m, 8, 2000, 512, &[0, 1, 700, 1999], "23.23");
}

fn check_exact(name: &str, m: &JcFleet, trials: u64) {
    let exact = m.exact().unwrap_or_else(|e| panic!("{name}: {e}"));
    let sum: f64 = exact.outcome_probabilities.iter().sum();
    assert!((sum - 1.0).abs() < 1e-9, "{name}: {sum}");
    let t = run(
        m,
        &RunConfig {
            threads: 0,
            ..RunConfig::new(2026, trials)
        },
        None,
    )
    .expect("run");
    common::assert_rates_near_exact(name, m, &exact, &t);
    let n = t.trials() as f64;
    assert_eq!(exact.metric_means.len(), 7, "{name}: every metric");
    for (metric, mean) in &exact.metric_means {
        let h = &t.metrics[*metric];
        let observed = h.mean().unwrap_or(f64::NAN);
        let se = h.standard_error().unwrap_or(0.0).max(1.0 / n);
        assert!(
            (observed - mean).abs() <= 4.0 * se,
            "{name}: {} MC {observed:.4} exact {mean:.4} (se {se:.2e})",
            m.spec().metrics[*metric].name
        );
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "statistical check: run in release (cargo test --release)"
)]
fn monte_carlo_agrees_with_the_exact_chain() {
    for name in [
        "ten-vs-seven-open-sky",
        "helium-defends-greater-helium",
        "even-fight",
        "helium-and-gathol-hold-gathol",
        "minimax-vs-uniform",
        "favourite-vs-minimax",
        "break-off-when-behind",
    ] {
        check_exact(name, &bundled(name), 1_000_000);
    }
    // A neutral that is lost first by choice [24.43], with uniform play.
    let dir = tempfile::tempdir().expect("tempdir");
    let m = load(&write(
        dir.path(),
        "neutral-first",
        "capital = \"ptarth\"",
        &(side(
            "helium",
            4,
            "\"kantos-kan\"",
            "neutral = { nation = \"ptarth\", strength = 4, commanders = [\"thuvan-dihn\"] }\npolicy = { losses = \"neutral-first\" }",
        ) + &side("dusar", 9, "\"nutus\"", "")),
    ));
    check_exact("neutral-first", &m, 1_000_000);
}

#[test]
fn the_even_fight_is_exactly_even_and_the_bigger_fleet_usually_wins() {
    let exact = bundled("even-fight").exact().expect("solvable");
    let p = &exact.outcome_probabilities;
    assert!(
        (p[usize::from(OUT_FIRST_ELIMINATES)] - p[usize::from(OUT_SECOND_ELIMINATES)]).abs()
            < 1e-12
    );
    assert!(
        (p[usize::from(OUT_FIRST_REVERSES)] - p[usize::from(OUT_SECOND_REVERSES)]).abs() < 1e-12
    );
    // 10 against 7 with leaders 1 and 2: the ten usually, not always, win.
    let exact = bundled("ten-vs-seven-open-sky").exact().expect("solvable");
    let big = exact.outcome_probabilities[usize::from(OUT_FIRST_ELIMINATES)];
    assert!(big > 0.9 && big < 0.99, "{big}");
    // John Carter in Greater Helium turns 8 against 10 into a near-even
    // battle.
    let exact = bundled("helium-defends-greater-helium")
        .exact()
        .expect("solvable");
    let helium = exact.outcome_probabilities[usize::from(OUT_SECOND_ELIMINATES)];
    assert!(helium > 0.4, "{helium}");
}

// ---------------------------------------------------------------- errors

#[test]
fn impossible_set_ups_get_one_line_and_exit_code_two() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let ok = side("dusar", 9, "", "");
    let bad = |name: &str, top: &str, first: &str| write(d, name, top, &(first.to_string() + &ok));
    common::assert_invalid(
        &bad(
            "m",
            "",
            &side("helium", 7, "", "policy = { maneuver = \"barrel-roll\" }"),
        ),
        &[
            "sides[0].policy.maneuver",
            "barrel-roll",
            "close-assault",
            "minimax",
        ],
    );
    common::assert_invalid(
        &bad("c", "", &side("helium", 7, "\"dejah-thoris\"", "")),
        &["sides[0].commanders[0]", "dejah-thoris", "john-carter"],
    );
    common::assert_invalid(
        &bad("w", "", &side("helium", 7, "\"astok\"", "")),
        &["sides[0].commanders[0]", "Astok", "22.23"],
    );
    common::assert_invalid(
        &bad("k", "capital = \"kaol\"", &side("helium", 7, "", "")),
        &["capital", "kaol", "greater-helium"],
    );
    common::assert_invalid(
        &bad("n", "", "[[sides]]\nnation = \"helium\"\nstrength = -3\n"),
        &["sides[0].strength", "-3"],
    );
    common::assert_invalid(
        &bad("z", "", "[[sides]]\nnation = \"helium\"\nstrength = 0\n"),
        &["sides[0].strength", "found 0"],
    );
    common::assert_invalid(
        &bad("x", "", &side("okar", 7, "", "")),
        &["sides[0].nation", "okar"],
    );
    common::assert_invalid(
        &bad("h", "holder = \"Zodanga\"", &side("helium", 7, "", "")),
        &["holder", "Zodanga"],
    );
    common::assert_invalid(
        &bad(
            "r",
            "",
            &side("helium", 7, "", "policy = { break_off_behind = 0.5 }"),
        ),
        &["break_off_behind", "0.5"],
    );
    common::assert_invalid(
        &bad(
            "l",
            "",
            &side("helium", 7, "", "policy = { losses = \"random\" }"),
        ),
        &["losses", "random"],
    );
    common::assert_invalid(
        &bad(
            "d",
            "",
            &side("helium", 7, "\"john-carter\", \"john-carter\"", ""),
        ),
        &["commanders[1]", "once"],
    );

    // A data folder whose matrix is not 9x9, or with eight maneuvers.
    let tables = std::fs::read_to_string(jc_data().join("fleet-tables.toml")).expect("read");
    for (name, broken, needles) in [
        (
            "eight-columns",
            tables.replacen(
                "[   0, -2,  1,  1, -1,  2,  2, -2,  3]",
                "[0, -2, 1, 1, -1, 2, 2, -2]",
                1,
            ),
            vec!["matrix.rows", "9x9"],
        ),
        (
            "eight-maneuvers",
            tables.replacen("[[maneuvers]]\nid = \"feint\"\nname = \"Feint\"\n", "", 1),
            vec!["maneuvers", "expected 9"],
        ),
    ] {
        let data = d.join(name);
        std::fs::create_dir_all(&data).expect("mkdir");
        assert_ne!(broken, tables, "{name}: the edit applies");
        std::fs::write(data.join("fleet-tables.toml"), broken).expect("write");
        for f in ["nations.toml", "commanders.toml"] {
            std::fs::copy(jc_data().join(f), data.join(f)).expect("copy");
        }
        let path = d.join(format!("{name}.toml"));
        std::fs::write(
            &path,
            format!(
                "model = \"jc.fleet\"\ndescription = \"t\"\ndata = {:?}\n{}{}",
                data.display().to_string(),
                side("helium", 7, "", ""),
                ok
            ),
        )
        .expect("write");
        let mut all = vec!["fleet-tables.toml"];
        all.extend(needles);
        common::assert_invalid(&path, &all);
    }
}

#[test]
fn a_round_limit_is_monte_carlo_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(
        dir.path(),
        "short",
        "max_rounds = 2",
        &(side("helium", 7, "", "") + &side("dusar", 7, "", "")),
    );
    let why = load(&path)
        .exact()
        .expect_err("a capped battle is not solved");
    assert!(why.contains("max_rounds = 2"), "{why}");
    let o = barsoom(&["exact", &path.display().to_string()], &common::root());
    assert_eq!(o.status.code(), Some(2));
    // In Monte Carlo the cap ends battles as undecided after two rounds.
    let t = tally(&load(&path), 0..20_000, 2);
    assert!(t.outcomes[usize::from(OUT_UNDECIDED)] > 0);
    assert_eq!(t.metrics[0].max(), Some(2));
}

#[test]
fn exact_and_run_work_from_the_command_line() {
    let scenario = common::bundled("jc/fleet/ten-vs-seven-open-sky.toml");
    let o = barsoom_ok(
        &["exact", &scenario.display().to_string(), "--json"],
        &common::root(),
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(json["model"], "jc.fleet");
    assert_eq!(json["exact"], true);
    assert_eq!(json["outcomes"][0]["label"], "Dusar eliminates Helium");
    let dir = tempfile::tempdir().expect("tempdir");
    let o = barsoom_ok(
        &[
            "run",
            &scenario.display().to_string(),
            "-n",
            "5000",
            "--quiet",
            "--json",
            "--out",
            &dir.path().join("r").display().to_string(),
        ],
        &common::root(),
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(json["trials"], 5000);
    assert!(json["metrics"]["left_a"]["mean"].as_f64().unwrap_or(0.0) > 5.0);
}

#[test]
fn the_generated_fleet_tables_are_what_their_provenance_says() {
    // [23.6] every cell of the reconstructed results table is the formula
    // its provenance gives; [23.5] the eight fighting maneuvers are exactly
    // skew-symmetric. Each provenance says so, with the text's fixed
    // points, so a designer sees which numbers are the book's.
    let data = common::jc_data_toml("fleet-tables.toml");
    let results = &data["results"];
    let span = |key: &str| {
        let ends = results[key].as_array().expect("a span");
        let end = |i: usize| ends[i].as_integer().expect("an integer");
        end(0)..=end(1)
    };
    let destroyed = common::toml_grid(&results["destroyed"]);
    for (i, roll) in span("rolls").enumerate() {
        for (j, diff) in span("differentials").enumerate() {
            let formula = ((roll + diff + 1).div_euclid(4)).max(0);
            assert_eq!(destroyed[i][j], formula, "roll {roll}, differential {diff}");
        }
    }
    common::assert_provenance_states(
        &data,
        "results",
        &[
            "max(0, floor((roll + differential + 1) / 4))",
            "[23.25]",
            "23.33",
        ],
    );
    let matrix = common::toml_grid(&data["matrix"]["rows"]);
    for (a, row) in matrix.iter().enumerate().take(8) {
        for (b, &cell) in row.iter().enumerate().take(8) {
            assert_eq!(cell, -matrix[b][a], "maneuvers {a} and {b}");
        }
    }
    common::assert_provenance_states(
        &data,
        "matrix",
        &[
            "skew-symmetric",
            "[23.23]",
            "[23.22]",
            "--set matrix.rows[i][j]=n",
        ],
    );
}
