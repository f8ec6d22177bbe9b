//! `jc.duel`: the Strategic Game's rules played inside a duel, worked by
//! hand with dice whose next rolls are known (a trial stream found by
//! rolling a twin stream first): berserk [13.43] (every other hit costs a
//! level; a natural 10's knock-out only on a hit that costs one), the
//! deadline to reach the villain [13.43], invisibility [18.2 card 27]
//! (agility 10 or 10/6 [7.39], the free blow at first contact) and the
//! break-off [18.2 card 24] (where it may be played, each enemy beside the
//! hero striking once).

use barsoom::engine::{Dice, NoTrace};
use barsoom::games::jc::duel::cards::TEN_SIX_AGILITY;
use barsoom::games::jc::duel::geometry::NORTH;
use barsoom::games::jc::duel::model::{Entry, SetUpOptions};
use barsoom::games::jc::duel::policy::{Action, Policy, Task};
use barsoom::games::jc::duel::sequence::{Duel, State, Status};
use barsoom::scenario::Load;

use super::{PLAIN, duel_on, entry, roster};
use crate::common::jc_data;

/// John Carter, with or without the berserk rule and the pills, against
/// `greens` green warriors (3C5).
pub(super) fn jc_vs_greens(
    on: &str,
    (berserk, invisible): (bool, bool),
    greens: usize,
    options: SetUpOptions,
) -> Duel {
    let ro = roster();
    let jc = Entry {
        berserk,
        invisible,
        ..entry(&ro, "john-carter")
    };
    duel_on(
        on,
        &[jc],
        &vec![entry(&ro, "green-warrior"); greens],
        options,
    )
}

/// Dice whose next d10 rolls are `rolls` (the first trial of seed 1 whose
/// stream starts so).
pub(super) fn dice_rolling(rolls: &[u32]) -> Dice {
    for i in 0..2_000_000 {
        let mut peek = Dice::for_trial(1, i);
        if rolls.iter().all(|&r| peek.d10() == r) {
            return Dice::for_trial(1, i);
        }
    }
    panic!("no stream starts with {rolls:?}");
}

/// `a` at `at` facing north; `t` in the box in front of him, facing him
/// (or facing away when `from_behind`, so `a` stands behind him).
pub(super) fn face_off(
    d: &Duel,
    s: &mut State,
    a: usize,
    t: usize,
    at: (i16, i16),
    from_behind: bool,
) {
    s.pos[a] = at;
    s.facing[a] = NORTH;
    s.pos[t] = Duel::step_counters(at, NORTH, 1);
    s.facing[t] = if from_behind { NORTH } else { (NORTH + 2) & 3 };
    assert!(d.next_to_enemy(s, a));
}

/// Everyone else of the duel far out of the way.
pub(super) fn park(s: &mut State, who: &[usize]) {
    for (k, &i) in who.iter().enumerate() {
        s.pos[i] = (1 + 5 * k as i16, 27);
    }
}

pub(super) fn melee(d: &Duel, s: &mut State, a: usize, t: usize, rolls: &[u32]) {
    let mut dice = dice_rolling(rolls);
    d.melee(s, a, t, false, &mut dice, &mut NoTrace);
    assert_eq!(dice.rolled(), rolls.len() as u32, "the rolls {rolls:?}");
}

// ---------------------------------------------------------------- berserk

#[test]
fn a_berserk_hero_loses_a_level_only_on_every_second_hit() {
    let d = jc_vs_greens("arena", (true, false), 2, PLAIN);
    assert!(d.extras);
    assert_eq!(d.special.cards.berserk, 1);
    let mut s = d.start();
    face_off(&d, &mut s, 0, 1, (18, 12), false);
    park(&mut s, &[2]);
    // John Carter at his top level 4 (5A11) against a green warrior (3C5)
    // in front: 8 or more hits [7.61].
    assert_eq!(s.level[0], 4);
    assert_eq!(d.fighters[0].at(4).agility, 11);
    assert_eq!(d.needed(&s, 1, 0, s.pos[1], false), (false, 8));
    // First hit (8): no level, the counter is at one.
    melee(&d, &mut s, 1, 0, &[8]);
    assert_eq!((s.level[0], s.x.berserk_hit), (4, 1));
    // A miss (3) counts nothing.
    melee(&d, &mut s, 1, 0, &[3]);
    assert_eq!((s.level[0], s.x.berserk_hit), (4, 1));
    // Second hit (9): the level goes, the count starts again.
    melee(&d, &mut s, 1, 0, &[9]);
    assert_eq!((s.level[0], s.x.berserk_hit), (3, 0));
    assert_eq!(s.status[0], Status::Fighting);
    // A natural 10 whose second roll (10) is a warrior's kill [7.53] on a
    // first hit: shrugged off whole, no level and no knock-out.
    melee(&d, &mut s, 1, 0, &[10, 10]);
    assert_eq!(
        (s.level[0], s.status[0], s.x.berserk_hit),
        (3, Status::Fighting, 1)
    );
    // The same on a second hit acts in full: knocked unconscious [7.53].
    melee(&d, &mut s, 1, 0, &[10, 10]);
    assert_eq!((s.level[0], s.status[0]), (1, Status::Unconscious));
}

#[test]
fn without_berserk_the_same_blows_take_a_level_each() {
    let d = jc_vs_greens("arena", (false, false), 2, PLAIN);
    assert!(!d.extras, "nothing beyond the open-display rules");
    let mut s = d.start();
    face_off(&d, &mut s, 0, 1, (18, 12), false);
    park(&mut s, &[2]);
    melee(&d, &mut s, 1, 0, &[8]);
    assert_eq!(s.level[0], 3);
    melee(&d, &mut s, 1, 0, &[10, 10]);
    assert_eq!(s.status[0], Status::Unconscious);
}

// ---------------------------------------------------------------- deadline

#[test]
fn the_hero_has_ten_turns_from_the_joining_of_melee_to_get_to_the_villain() {
    let ro = roster();
    let options = SetUpOptions {
        deadline: true,
        ..PLAIN
    };
    let d = duel_on(
        "arena",
        &[entry(&ro, "john-carter")],
        &[entry(&ro, "matai-shang"), entry(&ro, "red-warrior")],
        options,
    );
    assert_eq!(d.special.cards.deadline, Some((0, 10)));
    let mut s = d.start();
    s.pos[0] = (18, 12);
    s.pos[1] = (2, 2);
    s.pos[2] = (30, 25);
    // No melee yet: the count has not started.
    s.turn = 2;
    d.watch_deadline(&mut s, &mut NoTrace);
    assert_eq!((s.x.joined_in, s.x.late), (0, false));
    // Melee joined in turn 3: turns 4 to 13 are the ten after it.
    s.melee_joined = true;
    s.turn = 3;
    d.watch_deadline(&mut s, &mut NoTrace);
    assert_eq!(s.x.joined_in, 3);
    let mut t = s;
    t.turn = 12;
    d.watch_deadline(&mut t, &mut NoTrace);
    assert!(!t.x.late);
    t.turn = 13;
    d.watch_deadline(&mut t, &mut NoTrace);
    assert!(t.x.late);
    // Beside the villain in turn 8: in time for good.
    let mut t = s;
    t.turn = 8;
    t.pos[0] = Duel::step_counters(t.pos[1], NORTH, -1);
    d.watch_deadline(&mut t, &mut NoTrace);
    assert!(t.x.reached);
    t.pos[0] = (18, 12);
    t.turn = 30;
    d.watch_deadline(&mut t, &mut NoTrace);
    assert!(!t.x.late);
    // The villain down before the hero gets there: nothing left to stop.
    let mut t = s;
    t.status[1] = Status::Dead;
    t.turn = 20;
    d.watch_deadline(&mut t, &mut NoTrace);
    assert!(t.x.reached && !t.x.late);
}

// ------------------------------------------------------------ invisibility

#[test]
fn the_pills_give_agility_10_and_10_6_to_john_carter_and_carthoris() {
    let ro = roster();
    let pills = |id: &str| Entry {
        invisible: true,
        ..entry(&ro, id)
    };
    let d = duel_on(
        "arena",
        &[pills("john-carter"), pills("gahan")],
        &[pills("red-warrior"), entry(&ro, "green-warrior")],
        PLAIN,
    );
    assert_eq!(d.special.cards.invisible, 0b111);
    for level in 1..=3 {
        assert_eq!(d.fighters[0].at(level).agility, TEN_SIX_AGILITY);
    }
    for level in 1..=2 {
        assert_eq!(d.fighters[1].at(level).agility, 10, "Gahan: agility 10");
    }
    assert_eq!(d.fighters[2].at(1).agility, 10, "a red warrior (2B6)");
    assert_eq!(d.fighters[3].at(1).agility, 5, "no pills: 3C5 as printed");
    // A green warrior (strength 3) striking John Carter from behind (+3)
    // would need 4 against agility 10; with the pills only a 10 followed by
    // a 6 or more hits [7.39], and never kills.
    let mut s = d.start();
    face_off(&d, &mut s, 3, 0, (18, 12), true);
    let (behind, needed) = d.needed(&s, 3, 0, s.pos[3], false);
    assert!(behind);
    assert!(needed >= d.rules.ten_six_from);
    let [miss, level, kill] = d.rules.odds(d.fighters[3].class, needed);
    assert!((level - 0.05).abs() < 1e-12 && kill == 0.0 && (miss - 0.95).abs() < 1e-12);
    // Against Gahan at agility 10 the same blow needs 10 - 3 - 3 = 4.
    face_off(&d, &mut s, 3, 1, (18, 12), true);
    assert_eq!(d.needed(&s, 3, 1, s.pos[3], false), (true, 4));
}

#[test]
fn the_invisible_strike_a_free_blow_on_first_coming_beside_an_enemy() {
    let d = jc_vs_greens("arena", (false, true), 3, PLAIN);
    let mut s = d.start();
    assert_eq!(s.x.unseen, 1);
    face_off(&d, &mut s, 0, 1, (18, 12), false);
    park(&mut s, &[2, 3]);
    // He stands in front of the warrior, not behind: his action (here only
    // to stand) brings the free blow, John Carter (4A10) against 3C5
    // needing the floor of 1: a 5 takes the warrior's only level.
    let mut dice = dice_rolling(&[5]);
    let stay = Action::stay(&s, 0, Task::None);
    assert!(!d.perform(&mut s, 0, stay, &mut dice, &mut NoTrace));
    assert_eq!(
        (dice.rolled(), s.status[1], s.x.unseen),
        (1, Status::Dead, 0)
    );
    // Only the first time: beside another warrior no die is rolled.
    face_off(&d, &mut s, 0, 2, (18, 12), false);
    let mut dice = dice_rolling(&[5]);
    d.perform(&mut s, 0, stay, &mut dice, &mut NoTrace);
    assert_eq!((dice.rolled(), s.status[2]), (0, Status::Fighting));
}

#[test]
fn no_free_blow_for_one_already_behind_his_enemy() {
    let d = jc_vs_greens("arena", (false, true), 2, PLAIN);
    let mut s = d.start();
    face_off(&d, &mut s, 0, 1, (18, 12), true);
    park(&mut s, &[2]);
    assert!(d.needed(&s, 0, 1, s.pos[0], false).0, "behind the warrior");
    let mut dice = dice_rolling(&[5]);
    let stay = Action::stay(&s, 0, Task::None);
    d.perform(&mut s, 0, stay, &mut dice, &mut NoTrace);
    // The pills are spent on this first contact; the blow from behind is
    // his own action's, by the ordinary rules.
    assert_eq!(
        (dice.rolled(), s.status[1], s.x.unseen),
        (0, Status::Fighting, 0)
    );
}

// --------------------------------------------------------------- break-off

fn break_off_duel(on: &str) -> Duel {
    let options = SetUpOptions {
        break_off: true,
        ..PLAIN
    };
    jc_vs_greens(on, (false, false), 3, options)
}

#[test]
fn card_24_each_enemy_beside_the_hero_strikes_once_then_his_side_leaves() {
    let d = break_off_duel("arena");
    assert_eq!(d.special.cards.break_off, Some(0));
    let mut s = d.start();
    // Two warriors beside him (in front and on his right), one far away.
    face_off(&d, &mut s, 0, 1, (18, 12), false);
    s.pos[2] = (22, 12);
    s.pos[3] = (2, 27);
    assert_eq!(d.parting_blows(&s, 0), 0b110);
    // Played: the two beside him strike once each (1 and 2, short of the 7
    // a green warrior needs against agility 10 at level 3), then he leaves.
    s.level[0] = 3;
    let mut t = s;
    let mut dice = dice_rolling(&[1, 2]);
    assert!(d.leave_melee(&mut t, 0, &mut dice, &mut NoTrace));
    assert_eq!(dice.rolled(), 2, "one melee by each enemy beside him");
    assert_eq!((t.status[0], t.x.left), (Status::Escaped, Some(0)));
    assert_eq!(t.status[3], Status::Fighting);
    // Two parting hits (8, 9) fell him at level 3: he does not get away.
    let mut t = s;
    let mut dice = dice_rolling(&[8, 9]);
    assert!(d.leave_melee(&mut t, 0, &mut dice, &mut NoTrace));
    assert_eq!(
        (dice.rolled(), t.status[0], t.x.left),
        (2, Status::Unconscious, None)
    );
}

#[test]
fn card_24_is_played_when_losing_and_he_more_likely_gets_away_than_not() {
    let d = break_off_duel("arena");
    let mut s = d.start();
    face_off(&d, &mut s, 0, 1, (18, 12), false);
    s.pos[2] = (22, 12);
    s.pos[3] = (2, 27);
    let stay = Action::stay(&s, 0, Task::None);
    let plays = |s: &State| d.wants_to_break_off(s, 0);
    let chance = |s: &State| d.chance_to_get_away(s, 0);
    // At his top level (4) he fights on.
    assert!(!plays(&s));
    // Each green warrior against agility 10 (levels 3 and 2): 7, 8, 9 a
    // level (0.3), the 10 a level (0.09) or a knock-out on a second 10
    // (0.01) [7.53]; a miss 0.6.
    // Level 3, two beside him: on his feet unless both land or one kills:
    // 0.99^2 - 0.39^2 = 0.828.
    s.level[0] = 3;
    assert!((chance(&s) - 0.828).abs() < 1e-9, "{}", chance(&s));
    assert!(plays(&s));
    // Level 3, three beside him: 0.6^3 + 3 * 0.6^2 * 0.39 = 0.6372, and
    // four: 0.6^4 + 4 * 0.6^3 * 0.39 = 0.4666: no.
    let mut three = s;
    three.pos[3] = (14, 12);
    assert!((chance(&three) - 0.6372).abs() < 1e-9, "{}", chance(&three));
    assert!(plays(&three));
    // Level 2, one beside him: 0.6; two: 0.36, he fights on.
    s.level[0] = 2;
    assert!(!plays(&s));
    let mut one = s;
    one.pos[2] = (30, 27);
    assert!((chance(&one) - 0.6).abs() < 1e-9);
    assert!(plays(&one));
    // Through `perform`: the one beside him strikes once (a 1), he leaves.
    let mut dice = dice_rolling(&[1]);
    assert!(d.perform(&mut one, 0, stay, &mut dice, &mut NoTrace));
    assert_eq!(
        (dice.rolled(), one.status[0], one.x.left),
        (1, Status::Escaped, Some(0))
    );
    // No one beside him: he leaves without a blow.
    let mut free = s;
    free.pos[1] = (2, 20);
    free.pos[2] = (30, 27);
    assert_eq!(chance(&free), 1.0);
    let mut dice = dice_rolling(&[1]);
    assert!(d.perform(&mut free, 0, stay, &mut dice, &mut NoTrace));
    assert_eq!((dice.rolled(), free.status[0]), (0, Status::Escaped));
    // Not outnumbered (two of the three warriors down): he fights on.
    let mut even = s;
    even.pos[2] = (30, 27);
    even.status[2] = Status::Dead;
    even.status[3] = Status::Dead;
    assert!(!plays(&even));
}

#[test]
fn card_24_only_on_the_open_and_street_displays_or_by_an_exterior_wall() {
    let s_of = |d: &Duel, at: (i16, i16)| {
        let mut s = d.start();
        s.pos[0] = at;
        s
    };
    let open = break_off_duel("arena");
    assert!(open.may_break_off_here(&s_of(&open, (18, 12)), 0));
    let street = break_off_duel("street");
    assert!(street.may_break_off_here(&s_of(&street, (9, 40)), 0));
    // The house: a room corner beside the outer wall, yes; the middle of
    // the corridor between the rooms, and its open entrance at the edge
    // (no wall there), no.
    let house = break_off_duel("house");
    assert!(house.beside_exterior_wall((1, 1)));
    assert!(house.may_break_off_here(&s_of(&house, (1, 1)), 0));
    assert!(!house.may_break_off_here(&s_of(&house, (20, 15)), 0));
    assert!(!house.beside_exterior_wall((0, 15)));
    // Never on the fliers.
    let flier = break_off_duel("flier");
    let mut s = flier.start();
    s.level[0] = 2;
    assert!(!flier.may_break_off_here(&s, 0));
    assert!(!flier.wants_to_break_off(&s, 0));
}

#[test]
fn a_hero_holding_card_24_gets_away_from_a_lost_fight() {
    // John Carter alone against six green warriors: without the card he
    // falls in most duels; with it, some duels end with him off the
    // display, and he falls less often.
    let options = SetUpOptions {
        break_off: true,
        ..PLAIN
    };
    let with = jc_vs_greens("arena", (false, false), 6, options);
    let without = jc_vs_greens("arena", (false, false), 6, PLAIN);
    let policies = [Policy::Aggressive, Policy::Aggressive];
    let (mut left, mut fell_with, mut fell_without) = (0, 0, 0);
    for i in 0..2000 {
        let r = with.resolve(&policies, &mut Dice::for_trial(7, i), &mut NoTrace);
        if r.left == Some(0) {
            left += 1;
            assert_eq!(r.status[0], Status::Escaped);
            assert_eq!(r.winner, Some(1));
        }
        fell_with += u32::from(r.heroes_unconscious[0] > 0);
        let r = without.resolve(&policies, &mut Dice::for_trial(7, i), &mut NoTrace);
        fell_without += u32::from(r.heroes_unconscious[0] > 0);
    }
    assert!(left > 20, "{left} break-offs in 2000");
    assert!(fell_with < fell_without, "{fell_with} vs {fell_without}");
}

// --------------------------------------------------------------- bad input

#[test]
fn bad_numbers_for_these_rules_are_one_line_errors() {
    use barsoom::games::jc::duel::model::DuelData;
    let dir = tempfile::tempdir().expect("tempdir");
    for f in ["characters.toml", "duel-rules.toml"] {
        std::fs::copy(jc_data().join(f), dir.path().join(f)).expect("copy");
    }
    let specials = std::fs::read_to_string(jc_data().join("duel-specials.toml")).expect("read");
    let cases = [
        (
            "invisible_agility = 10",
            "invisible_agility = 0",
            "strategic.invisible_agility",
            "expected 1 to 20, found 0",
        ),
        (
            "invisible_ten_six = [\"john-carter\", \"carthoris\"]",
            "invisible_ten_six = [\"john-carter\", \"nobody\"]",
            "strategic.invisible_ten_six[1]",
            "\"nobody\"",
        ),
        (
            "deadline_turns = 10",
            "deadline_turns = 0",
            "strategic.deadline_turns",
            "expected 1 to 200, found 0",
        ),
    ];
    for (from, to, field, message) in cases {
        assert!(specials.contains(from), "{from}");
        std::fs::write(
            dir.path().join("duel-specials.toml"),
            specials.replace(from, to),
        )
        .expect("write");
        let err = DuelData::load(dir.path()).expect_err(to).to_string();
        assert!(!err.contains('\n'), "{err}");
        for part in ["duel-specials.toml", field, message] {
            assert!(err.contains(part), "{err} lacks {part}");
        }
    }
}

// ------------------------------------------------- in a scenario file

/// A `jc.duel` scenario on `display` with the two sides' characters (TOML
/// array items) and the top-level `extra` lines.
fn scenario(
    dir: &tempfile::TempDir,
    display: &str,
    extra: &str,
    a: &str,
    b: &str,
) -> std::path::PathBuf {
    crate::common::write_jc_duel(
        dir.path(),
        "options",
        &format!("display = \"{display}\"\n{extra}"),
        &format!("[[sides]]\ncharacters = [{a}]\n[[sides]]\ncharacters = [{b}]\n"),
    )
}

#[test]
fn a_duel_scenario_switches_on_every_option_of_the_strategic_game() {
    let dir = tempfile::tempdir().expect("tempdir");
    use barsoom::games::ScenarioModel;
    use barsoom::games::jc::duel::model::JcDuel;
    // John Carter berserk [13.43], on the pills [18.2 card 27], holding
    // card 24 [18.2 card 24], with ten turns to reach Gar Nal [13.43], at
    // his level 3 [17.34]; a green warrior one stronger [17.44].
    let path = scenario(
        &dir,
        "arena",
        "",
        "{ id = \"john-carter\", berserk = true, invisible = true, break_off = true, deadline = true, level = 3 }",
        "\"gar-nal\", { id = \"green-warrior\", strength_bonus = 1 }",
    );
    let m = JcDuel::load(&path).map(|(m, _)| m).expect("loads");
    let d = m.duel();
    let cards = d.special.cards;
    assert_eq!((cards.berserk, cards.invisible), (1, 1));
    assert_eq!(cards.break_off, Some(0));
    assert_eq!(cards.deadline, Some((0, 10)));
    assert!(d.extras, "the rules run only with the extras");
    assert_eq!(d.fighters[0].top_level, 3);
    assert!(
        d.fighters[0]
            .levels
            .iter()
            .all(|r| r.agility == TEN_SIX_AGILITY)
    );
    let green = roster().get("green-warrior").expect("green").at(1);
    assert_eq!(d.fighters[2].at(1).strength, green.strength + 1);
    assert_eq!(d.start().level[0], 3);
    // The fliers on the ground: no falls [14.25].
    let path = scenario(
        &dir,
        "flier",
        "grounded = true",
        "\"kantos-kan\"",
        "\"black-pirate\"",
    );
    let m = JcDuel::load(&path).map(|(m, _)| m).expect("loads");
    assert!(m.duel().grounded);
    // Withdrawal and the master swordsmen's cards were there already
    // (`goal = "withdraw"`, `master_swordsmen`); every bundled scenario
    // still loads with none of these set.
    let plain = scenario(&dir, "arena", "", "\"john-carter\"", "\"gar-nal\"");
    let m = JcDuel::load(&plain).map(|(m, _)| m).expect("loads");
    assert!(!m.duel().special.cards.any() && !m.duel().grounded);
}

#[test]
fn bad_strategic_options_in_a_duel_scenario_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    use barsoom::games::ScenarioModel;
    use barsoom::games::jc::duel::model::JcDuel;
    let cases = [
        (
            "arena",
            "",
            "{ id = \"red-warrior\", berserk = true }",
            "\"gar-nal\"",
            "sides[0].characters[0].berserk",
            "expected `berserk` only on a hero [13.43], found it on Red warrior of Mars",
        ),
        (
            "arena",
            "",
            "{ id = \"john-carter\", level = 5 }",
            "\"gar-nal\"",
            "sides[0].characters[0].level",
            "expected 1 to 4 (the levels of John Carter) [7.6], found 5",
        ),
        (
            "arena",
            "",
            "\"john-carter\"",
            "{ id = \"green-warrior\", strength_bonus = 12 }",
            "sides[1].characters[0].strength_bonus",
            "expected 0 to 9 [17.44], found 12",
        ),
        (
            "arena",
            "",
            "{ id = \"john-carter\", deadline = true }",
            "\"green-warrior\"",
            "sides",
            "expected a villain on the other side for John Carter to reach in time [13.43], found none",
        ),
        (
            "arena",
            "",
            "{ id = \"john-carter\", break_off = true }, { id = \"carthoris\", break_off = true }",
            "\"gar-nal\"",
            "sides[0].characters[1].break_off",
            "expected `break_off` on one character of the duel, found it on more",
        ),
        (
            "arena",
            "",
            "{ id = \"red-warrior\", count = 2, break_off = true }",
            "\"gar-nal\"",
            "sides[0].characters[0].break_off",
            "expected `break_off` on a single character (count 1), found count 2",
        ),
        (
            "arena",
            "grounded = true",
            "\"john-carter\"",
            "\"gar-nal\"",
            "grounded",
            "expected a flier display for fliers on the ground [14.25], found Open / arena",
        ),
    ];
    for (display, extra, a, b, field, message) in cases {
        let path = scenario(&dir, display, extra, a, b);
        let err = JcDuel::load(&path)
            .map(|_| ())
            .expect_err(message)
            .to_string();
        assert!(!err.contains('\n'), "{err}");
        for part in [field, message] {
            assert!(err.contains(part), "{err} lacks {part}");
        }
    }
}

#[test]
fn a_berserk_hero_shrugs_off_every_other_hit_of_a_bout_inside_the_duel() {
    let dir = tempfile::tempdir().expect("tempdir");
    use barsoom::games::ScenarioModel;
    use barsoom::games::jc::duel::model::JcDuel;
    // [13.43] with [7.81]: John Carter, berserk, meets a master-at-arms in
    // the street; the blow is the bout of jc.swordsman, in which only every
    // second hit he takes costs him a level, the count running on from the
    // duel (he has shrugged off one hit already in half the trials).
    let path = scenario(
        &dir,
        "street",
        "",
        "{ id = \"john-carter\", berserk = true, at = [8, 30] }",
        "{ id = \"master-at-arms\", at = [8, 34] }",
    );
    let m = JcDuel::load(&path).map(|(m, _)| m).expect("loads");
    let d = m.duel();
    let (jc, master) = (0, 1);
    let bout = super::warlord_against_master_at_arms();
    let mut kept_his_level = 0;
    for i in 0..400 {
        let mut s = d.start();
        s.discovered = true;
        let shrugged = i % 2 == 1;
        if shrugged {
            s.x.berserk_hit = 1 << jc;
        }
        let mut dice = Dice::for_trial(9, i);
        d.melee(&mut s, master, jc, false, &mut dice, &mut NoTrace);
        let mut hands = bout.start();
        hands[0].berserk = true;
        hands[0].shrugged = shrugged;
        let r = bout.resolve_from(hands, &mut Dice::for_trial(9, i), &mut NoTrace);
        // Of the master's hits the first is shrugged off unless one was
        // already, then every other one.
        let taken = r.hits[1] as u8;
        let lost = if shrugged {
            taken.div_ceil(2)
        } else {
            taken / 2
        };
        assert_eq!(r.levels[0], 4u8.saturating_sub(lost), "trial {i}");
        if r.levels[0] > 0 {
            assert_eq!(s.status[jc], Status::Fighting);
            assert_eq!(s.level[jc], (4 - lost).max(2), "trial {i}");
            kept_his_level += u32::from(taken == 1 && !shrugged);
        } else {
            assert_eq!(s.status[jc], Status::Unconscious);
        }
        // The count runs on: an odd number of hits turns it over.
        let odd = taken % 2 == 1;
        assert_eq!(s.x.berserk_hit & 1 != 0, shrugged != odd, "trial {i}");
    }
    assert!(
        kept_his_level > 0,
        "a single hit on a fresh berserk hero costs him nothing"
    );
}
