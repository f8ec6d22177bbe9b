//! `jc.swordsman` [7.8]: ranks and levels, the advantage rule, the
//! commitment queue, the exploiter's use of spent cards, the minimax value
//! against brute force, determinism and bad input.

use barsoom::games::ScenarioModel;
use barsoom::scenario::Load;
use std::path::{Path, PathBuf};

use barsoom::engine::{Dice, Tally};
use barsoom::games::jc::swordsman::{
    BoutResult, Effect, JcSwordsman, MANEUVERS, Rank, SwordsmanTables, apply_effect,
};
use barsoom::math::matrix_game::solve_zero_sum;

use crate::common;
use crate::common::jc_data;

fn tables() -> SwordsmanTables {
    SwordsmanTables::load(&jc_data().join("swordsman.toml")).expect("tables load")
}

fn write(dir: &Path, name: &str, a: (&str, bool, &str), b: (&str, &str)) -> PathBuf {
    let sides = format!(
        "[[sides]]\nlabel = \"A\"\nrank = \"{}\"\nhero = {}\npolicy = \"{}\"\n[[sides]]\nlabel = \"B\"\nrank = \"{}\"\npolicy = \"{}\"\n",
        a.0, a.1, a.2, b.0, b.1
    );
    common::write_scenario(dir, name, "jc.swordsman", &jc_data(), &sides)
}

/// A bout's result before its first round, the sides at `levels`.
fn fresh_result(levels: [u8; 2]) -> BoutResult {
    BoutResult {
        outcome: 3,
        rounds: 0,
        levels,
        hits: [0; 2],
        advantages: [0; 2],
    }
}

fn load(path: &Path) -> JcSwordsman {
    match JcSwordsman::load(path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn ranks_commit_and_levels() {
    let t = tables();
    // [7.85] one, two, three cards ahead.
    assert_eq!(t.commit(Rank::Warlord), 1);
    assert_eq!(t.commit(Rank::GrandMaster), 2);
    assert_eq!(t.commit(Rank::MasterAtArms), 3);
    // [7.86] 4, 2, 1 levels; heroes other than John Carter one more.
    assert_eq!(t.levels(Rank::Warlord, true), 4);
    assert_eq!(t.levels(Rank::GrandMaster, true), 3);
    assert_eq!(t.levels(Rank::GrandMaster, false), 2);
    assert_eq!(t.levels(Rank::MasterAtArms, false), 1);
    // [7.81] two decks of card numbers 136-155, each number once.
    let mut all: Vec<u16> = t.cards.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(all, (136..=155).collect::<Vec<u16>>());
}

#[test]
fn two_consecutive_advantages_make_a_hit() {
    // [7.84] A then A: a hit on the second; A, M, A: none; A, A, A: a hit
    // and a fresh streak of one; H always hits.
    let run = |effects: &[Effect]| {
        let mut streak = 0;
        effects
            .iter()
            .map(|e| {
                let (hit, s) = apply_effect(streak, *e);
                streak = s;
                hit
            })
            .collect::<Vec<bool>>()
    };
    use Effect::{Advantage as A, Hit as H, Miss as M};
    assert_eq!(run(&[A, A]), [false, true]);
    assert_eq!(run(&[A, M, A]), [false, false, false]);
    assert_eq!(run(&[A, A, A]), [false, true, false]);
    assert_eq!(run(&[A, A, A, A]), [false, true, false, true]);
    assert_eq!(run(&[H, A, H]), [true, false, true]);
    assert_eq!(run(&[A, H, A]), [false, true, false]);
}

#[test]
fn the_commitment_queue_plays_in_order_and_recommits_when_spent() {
    let dir = tempfile::tempdir().expect("tempdir");
    let m = load(&write(
        dir.path(),
        "q",
        ("warlord", true, "random"),
        ("master-at-arms", "random"),
    ));
    let bout = m.bout();
    let mut hands = bout.start();
    let mut result = fresh_result([4, 1]);
    // Give the master-at-arms plenty of levels so the bout runs on.
    hands[1].levels = 99;
    hands[0].levels = 99;
    let mut dice = Dice::for_trial(5, 0);
    let mut trace = barsoom::engine::TraceLog::default();
    bout.round(&mut hands, &mut result, &mut dice, &mut trace);
    // The master-at-arms laid three distinct cards and played the first.
    assert_eq!((hands[1].laid, hands[1].played), (3, 1));
    let laid = hands[1].queue;
    let distinct: std::collections::BTreeSet<u8> = laid[..3].iter().copied().collect();
    assert_eq!(distinct.len(), 3);
    // The Warlord lays one card every round.
    assert_eq!((hands[0].laid, hands[0].played), (1, 1));
    bout.round(&mut hands, &mut result, &mut dice, &mut trace);
    bout.round(&mut hands, &mut result, &mut dice, &mut trace);
    assert_eq!(hands[1].queue[..3], laid[..3], "no change once laid down");
    assert_eq!(hands[1].played, 3);
    bout.round(&mut hands, &mut result, &mut dice, &mut trace);
    assert_eq!(
        (hands[1].laid, hands[1].played),
        (3, 1),
        "picked up and laid anew"
    );
    let commits = |who: &str| {
        trace
            .events
            .iter()
            .filter(|e| e.case == "JC 7.85 commit" && e.text.starts_with(who))
            .count()
    };
    assert_eq!(commits("A "), 4);
    assert_eq!(commits("B "), 2);
}

#[test]
fn the_exploiter_answers_the_cards_the_opponent_can_still_play() {
    let dir = tempfile::tempdir().expect("tempdir");
    let m = load(&write(
        dir.path(),
        "x",
        ("warlord", true, "exploiter"),
        ("master-at-arms", "random"),
    ));
    let bout = m.bout();
    let t = tables();
    let payoff = t.payoff();
    let expect = |excluded: &[usize]| {
        let mut best = (f64::NEG_INFINITY, 0);
        for (x, row) in payoff.iter().enumerate() {
            let v: f64 = (0..MANEUVERS)
                .filter(|y| !excluded.contains(y))
                .map(|y| row[y])
                .sum();
            if v > best.0 + 1e-12 {
                best = (v, x);
            }
        }
        best.1
    };
    // A pair of shown cards that changes the best answer (there must be
    // one, or the information would be worthless).
    let (a, b) = (0..MANEUVERS)
        .flat_map(|a| (a + 1..MANEUVERS).map(move |b| (a, b)))
        .find(|&(a, b)| expect(&[a, b]) != expect(&[]))
        .expect("some shown cards change the answer");
    let mut hands = bout.start();
    // The master-at-arms laid a, b and a third card and has shown a and b:
    // his next card is any card but those two.
    let third = (0..MANEUVERS)
        .find(|c| *c != a && *c != b)
        .expect("a third");
    hands[1].queue[..3].copy_from_slice(&[a as u8, b as u8, third as u8]);
    hands[1].laid = 3;
    hands[1].played = 2;
    let mut dice = Dice::for_trial(1, 1);
    bout.commit(&mut hands, 0, &mut dice);
    assert_eq!(usize::from(hands[0].queue[0]), expect(&[a, b]));
    // At the start of the opponent's cycle nothing is known.
    hands[1].played = 3;
    bout.commit(&mut hands, 0, &mut dice);
    assert_eq!(usize::from(hands[0].queue[0]), expect(&[]));
}

#[test]
#[allow(clippy::needless_range_loop)] // strategies and matrix read side by side
fn the_minimax_value_matches_brute_force() {
    let payoff = tables().payoff();
    let s = solve_zero_sum(&payoff).expect("solves");
    // Both decks hold the same maneuvers and the matrix reads the same from
    // either side: the game is symmetric, its value 0.
    assert!(s.value.abs() < 1e-9, "{}", s.value);
    // The strategies certify the value: the row mix earns at least it
    // against every column, the column mix concedes at most it to every row.
    for y in 0..MANEUVERS {
        let v: f64 = (0..MANEUVERS)
            .map(|x| s.row_strategy[x] * payoff[x][y])
            .sum();
        assert!(v >= s.value - 1e-9, "column {y}: {v}");
    }
    for x in 0..MANEUVERS {
        let v: f64 = (0..MANEUVERS)
            .map(|y| s.column_strategy[y] * payoff[x][y])
            .sum();
        assert!(v <= s.value + 1e-9, "row {x}: {v}");
    }
    // Brute force on the 3x3 game of the first three maneuvers: the best
    // row mix on a grid of step 1/120 against the worst column.
    let sub: Vec<Vec<f64>> = (0..3).map(|x| payoff[x][..3].to_vec()).collect();
    let lp = solve_zero_sum(&sub).expect("solves").value;
    let n = 120;
    let mut best = f64::NEG_INFINITY;
    for i in 0..=n {
        for j in 0..=n - i {
            let p = [
                i as f64 / n as f64,
                j as f64 / n as f64,
                (n - i - j) as f64 / n as f64,
            ];
            let worst = (0..3)
                .map(|y| (0..3).map(|x| p[x] * sub[x][y]).sum::<f64>())
                .fold(f64::INFINITY, f64::min);
            best = best.max(worst);
        }
    }
    assert!(
        best <= lp + 1e-9 && best >= lp - 0.02,
        "grid {best} lp {lp}"
    );
}

fn tally(m: &JcSwordsman, trials: u64, threads: usize) -> Tally {
    common::tally(m, 3, 0..trials, threads, 4096)
}

#[test]
fn play_quality_shows_and_runs_are_deterministic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let exploiter = load(&write(
        dir.path(),
        "e",
        ("grand-master", true, "exploiter"),
        ("master-at-arms", "random"),
    ));
    let random = load(&write(
        dir.path(),
        "r",
        ("grand-master", true, "random"),
        ("master-at-arms", "random"),
    ));
    let a = tally(&exploiter, 40_000, 2);
    let b = tally(&random, 40_000, 2);
    let rate = |t: &Tally| t.outcomes[0] as f64 / t.trials() as f64;
    assert!(rate(&a) > rate(&b) + 0.02, "{} vs {}", rate(&a), rate(&b));
    assert_eq!(b, tally(&random, 40_000, 1));
    assert_eq!(b, tally(&random, 40_000, 3));
    let bundled = load(&common::bundled(
        "jc/swordsman/warlord-vs-grand-master.toml",
    ));
    common::assert_replays_match_bulk(&bundled, 4, 2000, 256, &[0, 1999], "7.84");
}

#[test]
fn bad_input_is_one_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cwd = dir.path();
    let bad_rank = write(
        cwd,
        "rank",
        ("emperor", true, "random"),
        ("master-at-arms", "random"),
    );
    common::assert_bad_input(
        &["run", bad_rank.to_str().expect("utf8"), "-n", "10"],
        cwd,
        &["rank.toml", "sides[0].rank", "grand-master"],
    );
    let bad_policy = write(
        cwd,
        "policy",
        ("warlord", true, "psychic"),
        ("master-at-arms", "random"),
    );
    common::assert_bad_input(
        &["run", bad_policy.to_str().expect("utf8"), "-n", "10"],
        cwd,
        &["sides[0].policy", "exploiter"],
    );
    // A matrix cell that is not two results.
    let text = std::fs::read_to_string(jc_data().join("swordsman.toml")).expect("read");
    let broken = text.replacen("\"A/A\"", "\"A/Z\"", 1);
    let file = cwd.join("swordsman.toml");
    std::fs::write(&file, broken).expect("write");
    let e = SwordsmanTables::load(&file).expect_err("bad cell");
    assert!(e.to_string().contains("matrix.rows[0][0]"), "{e}");
}

#[test]
fn a_berserk_hand_loses_a_level_only_on_every_second_hit_13_43() {
    use barsoom::games::jc::swordsman::{Bout, CardPolicy, Swordsman};
    // Cut High against Thrust reads M/H: the second player hits the first
    // [7.83]. Three such rounds laid down ahead: a berserk hero of four
    // levels keeps them on the first hit, loses one on the second, keeps
    // them on the third [13.43]; without berserk each hit costs one.
    let t = tables();
    let cut_high = t
        .maneuvers
        .iter()
        .position(|m| m.0 == "cut-high")
        .expect("cut-high");
    let thrust = t
        .maneuvers
        .iter()
        .position(|m| m.0 == "thrust")
        .expect("thrust");
    assert_eq!(t.effect[cut_high][thrust], [Effect::Miss, Effect::Hit]);
    let side = |label: &str, rank, hero| Swordsman {
        label: label.into(),
        rank,
        hero,
        policy: CardPolicy::Minimax,
    };
    let bout = Bout::new(
        t.clone(),
        [
            side("hero", Rank::Warlord, true),
            side("master", Rank::MasterAtArms, false),
        ],
        100,
    )
    .expect("bout");
    for (berserk, expected) in [(true, [4, 3, 3]), (false, [3, 2, 1])] {
        let mut hands = bout.start();
        hands[0].berserk = berserk;
        hands[0].queue[..3].copy_from_slice(&[cut_high as u8; 3]);
        hands[1].queue[..3].copy_from_slice(&[thrust as u8; 3]);
        hands[0].laid = 3;
        hands[1].laid = 3;
        let mut result = fresh_result([4, 1]);
        let mut dice = Dice::for_trial(1, 0);
        for want in expected {
            bout.round(
                &mut hands,
                &mut result,
                &mut dice,
                &mut barsoom::engine::NoTrace,
            );
            assert_eq!(hands[0].levels, want, "berserk {berserk}");
        }
        assert_eq!(result.hits[1], 3, "every hit counts as scored");
    }
}

#[test]
fn the_maneuver_matrix_is_symmetric_and_its_provenance_says_so() {
    // [7.88] reconstructed: the cell of (a, b) reads x/y exactly when the
    // cell of (b, a) reads y/x, so the First Player's deck has no edge of
    // its own; the provenance says so, with the fixed points of [7.81,
    // 7.83, 7.84].
    let t = tables();
    for a in 0..MANEUVERS {
        for b in 0..MANEUVERS {
            let [x, y] = t.effect[a][b];
            assert_eq!(t.effect[b][a], [y, x], "maneuvers {a} and {b}");
        }
    }
    let data = common::jc_data_toml("swordsman.toml");
    common::assert_provenance_states(
        &data,
        "matrix",
        &[
            "symmetric",
            "[7.83]",
            "[7.84]",
            "[7.81]",
            "--set matrix.rows[i][j]='x/y'",
        ],
    );
}
