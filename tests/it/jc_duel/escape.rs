//! `jc.duel` beyond the open display: exits and escapes [5.18, 5.56,
//! 7.22-7.25], prisoners and their escape odds [7.7], the dungeon [5.55],
//! carrying [5.4], the flier staging area [5.51], secret passageways
//! [5.54], disguise and the straight line of [6.23, 6.25], the attacker
//! movement and melee phases [4.0 C, D],
//! the policies' use of all of it, and bad set-ups.

use barsoom::games::ScenarioModel;
use barsoom::scenario::Load;

use barsoom::engine::{Dice, NoTrace, Tally};
use barsoom::games::jc::duel::escape::escape_chance;
use barsoom::games::jc::duel::geometry::{Display, NORTH, SOUTH};
use barsoom::games::jc::duel::model::{JcDuel, OUT_FIRST_LEFT, OUT_FIRST_WINS};
use barsoom::games::jc::duel::policy::{Policy, Task};
use barsoom::games::jc::duel::sequence::{Duel, State, Status};

use super::{assert_bad_display, bundled, display, specials, write_display};
use crate::common;
use crate::common::write_jc_duel as write;

/// A side with extra lines (entrance, goal, cards) and characters.
pub(super) fn side(extra: &str, characters: &str) -> String {
    format!("[[sides]]\n{extra}\ncharacters = [{characters}]\n")
}

pub(super) fn duel(top: &str, a: &str, b: &str) -> JcDuel {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "d", top, &format!("{a}{b}"));
    match JcDuel::load(&path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

pub(super) fn tally(m: &JcDuel, trials: u64, threads: usize) -> Tally {
    common::tally(m, 7, 0..trials, threads, 512)
}

/// The index of a fighter by roster id.
pub(super) fn who(d: &Duel, id: &str) -> usize {
    d.fighters
        .iter()
        .position(|f| f.id == id)
        .unwrap_or_else(|| panic!("{id}"))
}

pub(super) const POLICIES: [Policy; 2] = [Policy::Aggressive, Policy::Aggressive];

// ------------------------------------------------------------------ exits

#[test]
fn exits_are_open_to_the_sides_the_rules_name() {
    // [7.22] The street: only the entering side leaves, and by the other
    // end. North end rows 0-7, south end rows 72-79.
    let street = duel(
        "display = \"street\"",
        &side("entrance = \"north end\"", "\"tars-tarkas\""),
        &side("", "\"red-warrior\""),
    );
    let d = street.duel();
    assert_eq!(d.exit_at(0, (9, 0)), None, "not by the end he came in at");
    assert!(d.exit_at(0, (9, 76)).is_some(), "by the other end");
    assert_eq!(d.exit_at(1, (9, 76)), None, "the defenders never leave");
    // [7.24] The house: both sides; the intruders not by their entrance.
    let house = duel(
        "display = \"house\"\ndiscovered = true",
        &side("entrance = \"west entrance\"", "\"carthoris\""),
        &side("", "\"red-warrior\""),
    );
    let d = house.duel();
    assert_eq!(d.exit_at(0, (0, 14)), None);
    assert!(d.exit_at(0, (44, 14)).is_some());
    assert!(d.exit_at(1, (0, 14)).is_some() && d.exit_at(1, (44, 14)).is_some());
    // [7.25] The palace: no escape by the gates; the tower moorings and the
    // secret passageway's end lead off.
    let palace = duel(
        "display = \"palace\"\ndiscovered = true",
        &side("", "\"john-carter\""),
        &side("", "\"red-warrior\""),
    );
    let d = palace.duel();
    assert_eq!(d.exit_at(0, (28, 52)), None, "main gate");
    assert_eq!(d.exit_at(0, (0, 38)), None, "side entrance");
    let tower = d.exit_at(0, (49, 0)).expect("tower moorings");
    assert_eq!(d.display.areas[tower].wait, 1);
    let passage = d.exit_at(0, (0, 3)).expect("secret passageway");
    assert!(d.display.areas[passage].secret);
}

#[test]
fn leaving_by_an_exit_ends_the_duel_for_that_side() {
    // Carthoris (alertness A) stands on the east entrance of the house and
    // means to escape: he acts first and is gone [5.18, 7.24].
    let m = duel(
        "display = \"house\"\ndiscovered = true",
        &side(
            "entrance = \"west entrance\"\ngoal = \"escape\"",
            "{ id = \"carthoris\", at = [40, 14] }",
        ),
        &side("", "\"red-warrior\""),
    );
    let t = tally(&m, 50, 1);
    assert!(m.duel().special.may_leave);
    assert_eq!(
        t.outcomes[usize::from(OUT_FIRST_LEFT)],
        50,
        "{:?}",
        t.outcomes
    );
    let d = m.duel();
    let mut s = d.start();
    let mut dice = Dice::for_trial(1, 0);
    let action = Policy::Aggressive.choose(d, &s, 0, &mut dice);
    assert_eq!(action.task, Task::Leave);
    assert!(d.perform(&mut s, 0, action, &mut dice, &mut NoTrace));
    assert_eq!(s.status[0], Status::Escaped);
    assert_eq!(s.x.left, Some(0));
}

#[test]
fn the_tower_asks_a_whole_turn_with_no_enemy_beside() {
    let m = duel(
        "display = \"palace\"\ndiscovered = true",
        &side(
            "goal = \"escape\"",
            "{ id = \"tars-tarkas\", at = [49, 0] }",
        ),
        &side("", "{ id = \"red-warrior\", at = [30, 40] }"),
    );
    let d = m.duel();
    let trace = &mut NoTrace;
    let mut dice = Dice::for_trial(1, 0);
    let mut s = d.start();
    // Turn 1: he stays to leave; at its end he is ready, not gone [5.56].
    assert!(!d.perform_task(&mut s, 0, Task::Leave, false, trace));
    assert!(!d.turn_end(&mut s, &POLICIES, &mut dice, trace));
    assert_eq!(s.status[0], Status::Fighting);
    // Turn 2, an enemy beside him at its end: still here, no longer ready.
    let mut beside = s;
    beside.pos[1] = (53, 0);
    d.perform_task(&mut beside, 0, Task::Leave, false, trace);
    assert!(!d.turn_end(&mut beside, &POLICIES, &mut dice, trace));
    assert_eq!(beside.status[0], Status::Fighting);
    // Turn 2 alone: gone, and with him the side [4.0 H].
    d.perform_task(&mut s, 0, Task::Leave, false, trace);
    assert!(d.turn_end(&mut s, &POLICIES, &mut dice, trace));
    assert_eq!(s.status[0], Status::Escaped);
}

// -------------------------------------------------------------- prisoners

#[test]
fn escape_odds_worked_by_hand() {
    let r = specials();
    // [7.71] strength 3, two guards: a d10 of 1-3 escapes.
    assert_eq!(escape_chance(&r, 3, 2, false), 0.3);
    // [7.72] none: gone; one: two off the roll, 1-5 escapes.
    assert_eq!(escape_chance(&r, 3, 0, false), 1.0);
    assert_eq!(escape_chance(&r, 3, 1, false), 0.5);
    // [7.73] three guards: one on the roll, 1-2; four: 1; five: never.
    assert_eq!(escape_chance(&r, 3, 3, false), 0.2);
    assert_eq!(escape_chance(&r, 3, 4, false), 0.1);
    assert_eq!(escape_chance(&r, 3, 5, false), 0.0);
    // [7.75] a hero always on a 1; Dejah Thoris (no strength) never past
    // two guards, 2 in 10 past one.
    assert_eq!(escape_chance(&r, 0, 5, true), 0.1);
    assert_eq!(escape_chance(&r, 0, 2, false), 0.0);
    assert_eq!(escape_chance(&r, 0, 1, false), 0.2);
}

#[test]
fn a_guarded_prisoner_escapes_at_the_rate_of_the_closed_form() {
    // Tars Tarkas (level 3, strength 6) held in the throne room, his
    // guards Matai Shang and Thurid beside him.
    let m = duel(
        "display = \"palace\"\ndiscovered = true",
        &side(
            "",
            "\"john-carter\", { id = \"tars-tarkas\", prisoner = true, held = \"throne room\", at = [28, 10] }",
        ),
        &side(
            "",
            "{ id = \"matai-shang\", at = [24, 10] }, { id = \"thurid\", at = [32, 10] }",
        ),
    );
    let d = m.duel();
    let tt = who(d, "tars-tarkas");
    let start = d.start();
    assert_eq!(start.status[tt], Status::Captive);
    assert!(
        !d.may_target(&start, who(d, "matai-shang"), tt),
        "not meleed"
    );
    assert_eq!(d.guards(&start, tt), 2);
    let strength = d.fighters[tt].at(start.level[tt]).strength;
    assert_eq!(strength, 6);
    // [7.74] a guard beside an enemy is engaged and does not count: John
    // Carter next to Thurid leaves one guard (then 8 in 10).
    let mut engaged = start;
    engaged.pos[0] = (36, 10);
    assert_eq!(d.guards(&engaged, tt), 1);
    for (s, guards) in [(start, 2u8), (engaged, 1)] {
        let p = escape_chance(&d.special.rules, strength, guards, true);
        let n = 20_000u64;
        let mut free = 0u64;
        for i in 0..n {
            let mut t = s;
            let mut dice = Dice::for_trial(3, i);
            d.escape_roll(&mut t, tt, &mut dice, &mut NoTrace);
            if t.status[tt] != Status::Captive {
                free += 1;
                assert_eq!(t.status[tt], Status::Fighting);
                assert!(t.unarmed & (1 << tt) != 0, "unarmed [7.76]");
            }
        }
        let rate = free as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!(
            (rate - p).abs() < 4.0 * se,
            "{guards} guards: {rate} vs {p}"
        );
    }
    // Rolls only once melee is joined [7.7]; an escapee next to a friend
    // who was never a prisoner gets a sword at the turn's end [7.76].
    let mut s = start;
    let mut dice = Dice::for_trial(3, 0);
    d.turn_end(&mut s, &POLICIES, &mut dice, &mut NoTrace);
    assert_eq!(dice.rolled(), 0);
    let mut s = start;
    s.status[tt] = Status::Fighting;
    s.x.freed |= 1 << tt;
    s.unarmed |= 1 << tt;
    s.pos[0] = (28, 14);
    d.turn_end(&mut s, &POLICIES, &mut dice, &mut NoTrace);
    assert_eq!(s.unarmed & (1 << tt), 0);
}

#[test]
fn the_dungeon_door_takes_a_turn_and_the_chains_four() {
    let m = duel(
        "display = \"palace\"\ndiscovered = true",
        &side(
            "goal = \"rescue\"\nentrance = \"tower\"",
            "{ id = \"john-carter\", at = [6, 20] }, { id = \"dejah-thoris\", prisoner = true }",
        ),
        &side("", "{ id = \"red-warrior\", at = [40, 40] }"),
    );
    let d = m.duel();
    let dejah = who(d, "dejah-thoris");
    assert!(d.fighters[dejah].in_dungeon);
    assert_eq!(
        d.fighters[dejah].start,
        (1, 14),
        "chained at the manacles [5.55]"
    );
    let trace = &mut NoTrace;
    let mut dice = Dice::for_trial(1, 0);
    let mut s = d.start();
    assert_eq!(s.status[dejah], Status::CaptivePersonage);
    // The door is shut: the dungeon cannot be entered.
    assert!(!d.movement_display(&s, 0).open(6, 17));
    assert_eq!(d.job_of(&s, 0), 1, "beside the door");
    // The turn he arrives does not count; the next whole one does.
    d.turn_end(&mut s, &POLICIES, &mut dice, trace);
    assert!(!s.x.door_open);
    d.turn_end(&mut s, &POLICIES, &mut dice, trace);
    assert!(s.x.door_open);
    assert!(d.movement_display(&s, 0).open(6, 17));
    // Beside her: four whole turns, none with a melee of his.
    s.pos[0] = (5, 14);
    d.turn_end(&mut s, &POLICIES, &mut dice, trace);
    for turn in 1..=4u8 {
        if turn == 3 {
            // A melee that turn: it does not count [5.55].
            s.meleed |= 1;
            d.turn_end(&mut s, &POLICIES, &mut dice, trace);
            assert_eq!(s.x.chains[dejah], 2);
        }
        assert_eq!(s.status[dejah], Status::CaptivePersonage);
        d.turn_end(&mut s, &POLICIES, &mut dice, trace);
        assert_eq!(s.x.chains[dejah], turn);
    }
    assert_eq!(s.status[dejah], Status::Bystander, "free");
    assert!(s.unarmed & (1 << dejah) != 0, "and unarmed [5.55]");
    assert!(s.x.freed & (1 << dejah) != 0);
}

// ------------------------------------------------------------- carrying

#[test]
fn carrying_takes_a_phase_costs_movement_and_a_point_in_melee() {
    let m = duel(
        "display = \"arena\"",
        &side(
            "",
            "{ id = \"tars-tarkas\", at = [16, 16] }, { id = \"john-carter\", at = [20, 16] }, { id = \"carthoris\", at = [24, 16] }",
        ),
        &side("", "{ id = \"red-warrior\", at = [16, 28] }"),
    );
    let d = m.duel();
    let (tt, jc, carthoris, warrior) = (0, 1, 2, 3);
    let trace = &mut NoTrace;
    let mut dice = Dice::for_trial(1, 0);
    let mut s = d.start();
    s.status[jc] = Status::Unconscious;
    s.level[jc] = 1;
    assert!(d.may_pick_up(&s, tt, jc) && d.may_pick_up(&s, carthoris, jc));
    // [5.41] Picking up is the phase's action; at its end he carries.
    let pick = barsoom::games::jc::duel::policy::Action::stay(&s, carthoris, Task::PickUp(1));
    assert!(!d.perform(&mut s, carthoris, pick, &mut dice, trace));
    assert_eq!(
        s.status[jc],
        Status::Unconscious,
        "not before the phase ends"
    );
    assert!(!d.may_pick_up(&s, tt, jc), "one pick-up of him at a time");
    d.turn_end(&mut s, &POLICIES, &mut dice, trace);
    assert_eq!((s.carrying[carthoris], s.status[jc]), (2, Status::Carried));
    // [5.42] Carthoris carrying has no extra movement; [7.35] -1 in melee:
    // 4A10 against a red warrior's agility 6 needs 2, carrying 3.
    assert_eq!(d.movements(&s, carthoris), (1, None));
    let (_, carrying) = d.needed(&s, carthoris, warrior, s.pos[carthoris], false);
    let mut free = s;
    free.carrying[carthoris] = 0;
    let (_, not) = d.needed(&free, carthoris, warrior, s.pos[carthoris], false);
    assert_eq!((not, carrying), (2, 3));
    // Tars Tarkas carrying: one movement; John Carter two and no jump.
    let mut t = d.start();
    t.carrying[tt] = 3;
    assert_eq!(d.movements(&t, tt), (1, None));
    let mut j = d.start();
    j.pos[tt] = (20, 12);
    assert!(
        d.reach(&j, jc, 2).jump_steps(20, 8).is_some(),
        "he jumps Tars Tarkas"
    );
    j.carrying[jc] = 3;
    assert_eq!(d.movements(&j, jc), (2, None));
    assert_eq!(
        d.reach(&j, jc, 2).jump_steps(20, 8),
        None,
        "not carrying [5.42]"
    );
    // A carrier who falls drops his load beside him.
    s.status[carthoris] = Status::Dead;
    d.after_action(&mut s, warrior, true, &POLICIES, &mut dice, trace);
    assert_eq!(
        (s.carrying[carthoris], s.status[jc]),
        (0, Status::Unconscious)
    );
}

#[test]
fn a_fighting_side_lifts_a_fallen_hero_out_of_a_shut_doorway() {
    // Carthoris lies unconscious [3.26] across the south-middle doorway of
    // the house (columns 22-25, row 22), two warriors just inside the room
    // behind him. The one box from which the corridor side reaches the
    // pair, (22, 19), is his; the exact positions [7.41] round them are
    // walls or inside the room.
    let m = duel(
        "display = \"house\"\ndiscovered = true",
        &side("", "\"carthoris\", \"red-warrior\""),
        &side("", "{ id = \"red-warrior\", count = 2 }"),
    );
    let d = m.duel();
    assert!(
        d.extras,
        "a hero may fall where walls are: pick-ups in play"
    );
    let (carthoris, friend) = (0, 1);
    let trace = &mut NoTrace;
    let mut dice = Dice::for_trial(1, 0);
    let mut s = d.start();
    s.status[carthoris] = Status::Unconscious;
    s.level[carthoris] = 1;
    s.pos[carthoris] = (22, 19);
    s.pos[friend] = (12, 14);
    (s.pos[2], s.pos[3]) = ((20, 23), (24, 23));
    (s.facing[2], s.facing[3]) = (NORTH, NORTH);
    // No walk leads him to the pair: he walks over to Carthoris, a full
    // movement nearer.
    let gap = |(x, y): (i16, i16)| (x - 22).abs().max((y - 19).abs());
    let walk = Policy::Aggressive.choose(d, &s, friend, &mut dice);
    assert_eq!(gap(walk.to), gap(s.pos[friend]) - 4, "{walk:?}");
    // Beside him, he picks him up [5.41].
    s.pos[friend] = (18, 15);
    let lift = Policy::Aggressive.choose(d, &s, friend, &mut dice);
    assert_eq!(
        (lift.to, lift.task),
        ((18, 15), Task::PickUp(carthoris as u8)),
        "{lift:?}"
    );
    assert!(!d.perform(&mut s, friend, lift, &mut dice, trace));
    d.turn_end(&mut s, &POLICIES, &mut dice, trace);
    assert_eq!(s.carrying[friend], 1);
    // A side that fights does not carry him off: the carrier steps into
    // the doorway, now open, towards the enemy...
    let step = Policy::Aggressive.choose(d, &s, friend, &mut dice);
    assert_eq!((step.to, step.task), ((22, 19), Task::None), "{step:?}");
    // ...and there puts him down to strike.
    s.pos[friend] = (22, 19);
    let strike = Policy::Aggressive.choose(d, &s, friend, &mut dice);
    assert_eq!(strike.task, Task::PutDown, "{strike:?}");
    assert!(strike.target.is_some(), "{strike:?}");
}

#[test]
fn a_carrier_leaving_takes_his_load_with_him() {
    let m = duel(
        "display = \"house\"\ndiscovered = true",
        &side(
            "entrance = \"west entrance\"\ngoal = \"escape\"",
            "{ id = \"tars-tarkas\", at = [40, 14] }, { id = \"carthoris\", at = [40, 18] }",
        ),
        &side("", "{ id = \"red-warrior\", at = [20, 14] }"),
    );
    let d = m.duel();
    let mut s = d.start();
    s.status[1] = Status::Carried;
    s.carrying[0] = 2;
    assert!(d.perform_task(&mut s, 0, Task::Leave, false, &mut NoTrace));
    assert_eq!(
        (s.status[0], s.status[1]),
        (Status::Escaped, Status::Escaped)
    );
}

// ------------------------------------------------------------- displays

#[test]
fn the_staging_area_of_an_acquisition() {
    let m = duel(
        "display = \"flier\"\nacquisition = true",
        &side("", "\"tan-hadron\", \"red-warrior\""),
        &side("", "{ id = \"black-pirate\", count = 2 }"),
    );
    let d = m.duel();
    let flier = &d.display;
    for f in &d.fighters {
        assert_eq!(
            flier.in_staging(f.start.0, f.start.1),
            f.side == 0,
            "{} at {:?}",
            f.name,
            f.start
        );
    }
    // [7.34] from the staging area onto the flier: -1; [5.52] grounded,
    // no fall crossing between the fliers.
    assert!(flier.obstructed((36, 12), (32, 12)));
    let mut s = d.start();
    s.pos[1] = (22, 12);
    let mut dice = Dice::for_trial(1, 0);
    assert!(!d.after_move(&mut s, 1, (18, 12), false, &mut dice, &mut NoTrace));
    assert_eq!(dice.rolled(), 0);
    // [5.51] once no defender stands on his flier, it is acquired.
    let mut s = d.start();
    s.status[2] = Status::Dead;
    s.pos[3] = (12, 12);
    assert!(d.after_action(&mut s, 0, false, &POLICIES, &mut dice, &mut NoTrace));
    assert!(s.x.acquired);
    // Without an acquisition the staging area is sky.
    let air = duel(
        "display = \"flier\"",
        &side("", "\"tan-hadron\""),
        &side("", "\"black-pirate\""),
    );
    assert!(!air.duel().display.open(36, 12));
    assert!(m.duel().display.open(36, 12));
    let t = tally(&m, 400, 2);
    assert!(
        t.outcomes[usize::from(OUT_FIRST_WINS)] > 0,
        "{:?}",
        t.outcomes
    );
}

#[test]
fn secret_passageways_open_to_the_card_then_to_all() {
    let m = duel(
        "display = \"palace\"\ndiscovered = true",
        &side(
            "secret_passage = true",
            "{ id = \"john-carter\", at = [16, 3] }",
        ),
        &side("", "{ id = \"matai-shang\", at = [24, 3] }"),
    );
    let d = m.duel();
    let mut s = d.start();
    // The hidden door in the throne room's west wall (column 15).
    assert!(
        d.movement_display(&s, 0).open(12, 3),
        "the card's side [5.54]"
    );
    assert!(!d.movement_display(&s, 1).open(12, 3), "not yet the other");
    assert!(!d.display.open(12, 3), "nor in the display as drawn");
    s.pos[0] = (12, 3);
    d.after_action(
        &mut s,
        0,
        false,
        &POLICIES,
        &mut Dice::for_trial(1, 0),
        &mut NoTrace,
    );
    assert!(s.x.passages_open);
    assert!(
        d.movement_display(&s, 1).open(12, 3),
        "used once: open to all"
    );
    // Its end leads off the display [5.54].
    s.pos[0] = (0, 3);
    assert!(d.perform_task(&mut s, 0, Task::Leave, false, &mut NoTrace));
    assert_eq!(s.status[0], Status::Escaped);
}

// ------------------------------------------------------------- discovery

#[test]
fn a_disguise_holds_until_a_melee_or_the_throne_room() {
    let m = duel(
        "display = \"palace\"",
        &side(
            "disguise = true\nentrance = \"main gate\"",
            "{ id = \"carthoris\", at = [30, 36] }",
        ),
        &side(
            "",
            "\"matai-shang\", { id = \"red-warrior\", at = [30, 40] }",
        ),
    );
    let d = m.duel();
    let trace = &mut NoTrace;
    let mut s = d.start();
    assert!(s.x.disguised && !s.discovered);
    // [6.25] no discovery check is made; within four boxes of a guard, he
    // is not found out either (our reading).
    let mut dice = Dice::for_trial(1, 0);
    d.discovery_check(&mut s, &mut dice, trace);
    assert_eq!((dice.rolled(), s.discoverers), (0, 0));
    // Into the throne room: the disguise is off.
    let mut throne = s;
    throne.pos[0] = (24, 5);
    d.after_action(&mut throne, 0, false, &POLICIES, &mut dice, trace);
    assert!(!throne.x.disguised);
    // A melee on a defender: off too.
    let mut struck = s;
    d.after_action(&mut struck, 0, true, &POLICIES, &mut dice, trace);
    assert!(!struck.x.disguised);
}

#[test]
fn in_a_corridor_the_in_room_matrix_needs_a_straight_line() {
    // An L-shaped corridor: an arm along the top (rows 1-5) and one down the
    // west side (columns 1-5); 'a' and 'b' only give both sides a set-up
    // square.
    let dir = tempfile::tempdir().expect("tempdir");
    let mut rows = vec!["#".repeat(24)];
    for _ in 1..=5 {
        rows.push(format!("#{}aaaa#", ".".repeat(18)));
    }
    for _ in 6..=18 {
        rows.push(format!("#.....{}", "#".repeat(18)));
    }
    for _ in 19..=22 {
        rows.push(format!("#bbbb.{}", "#".repeat(18)));
    }
    rows.push("#".repeat(24));
    let text = format!(
        "name = \"ell\"\nkind = \"house\"\nprovenance = \"reconstructed: test\"\nrows = [{}]\n",
        rows.iter()
            .map(|r| format!("{r:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    std::fs::write(dir.path().join("ell.toml"), text).expect("write");
    let ell = Display::load(&dir.path().join("ell.toml")).expect("loads");
    let (corner, east, south) = ((1, 1), (18, 1), (1, 17));
    let region = ell.region_of(east.0, east.1);
    assert_eq!(region, ell.region_of(south.0, south.1), "one corridor");
    assert!(!ell.is_room(region));
    assert!(ell.straight_line(corner, east) && ell.straight_line(corner, south));
    assert!(
        !ell.straight_line(east, south),
        "round the corner: Outside Room [6.23]"
    );
    // The house's rooms are rooms: there the same four walls suffice.
    let house = display("house");
    assert!(house.is_room(house.region_of(1, 1)));
    assert!(!house.is_room(house.region_of(16, 14)));
}

#[test]
fn the_attackers_move_before_they_strike_in_phases_c_and_d() {
    // [4.0 D] strikes come from where the attacker stands and as he faces;
    // [7.33] -2 when he moved in the movement phase.
    let m = duel(
        "display = \"arena\"",
        &side(
            "",
            "{ id = \"red-warrior\", at = [16, 16], facing = \"N\" }",
        ),
        &side(
            "",
            "{ id = \"red-warrior\", at = [16, 12], facing = \"S\" }",
        ),
    );
    let d = m.duel();
    let mut s: State = d.start();
    let mut dice = Dice::for_trial(1, 0);
    assert_eq!(
        Policy::Aggressive.strike_from_here(d, &s, 0, false, &mut dice),
        Some(1)
    );
    let (_, still) = d.needed(&s, 0, 1, s.pos[0], false);
    let (_, moved) = d.needed(&s, 0, 1, s.pos[0], true);
    assert_eq!(moved, still + 2);
    // Facing away he may not turn in the melee phase.
    s.facing[0] = SOUTH;
    assert_eq!(
        Policy::Aggressive.strike_from_here(d, &s, 0, false, &mut dice),
        None
    );
    // Patient does not strike after moving unless from behind.
    s.facing[0] = NORTH;
    assert_eq!(
        Policy::Patient.strike_from_here(d, &s, 0, true, &mut dice),
        None
    );
    assert_eq!(
        Policy::Patient.strike_from_here(d, &s, 0, false, &mut dice),
        Some(1)
    );
}

// -------------------------------------------------------------- policies

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn policies_free_the_princess_and_get_her_out() {
    let m = bundled("rescuing-the-princess");
    let d = m.duel();
    assert!(d.surprise && d.extras);
    for (a, b) in [
        (Policy::Aggressive, Policy::Aggressive),
        (Policy::Patient, Policy::Aggressive),
        (Policy::Random, Policy::Random),
    ] {
        let mut freed = 0;
        let mut rescued = 0;
        // Freed from her chains in about one duel in two hundred: the
        // defenders, walking to any box touching an intruder, seldom leave
        // the worker alone at the dungeon for long.
        let trials = if a == Policy::Random { 120 } else { 1_500 };
        for i in 0..trials {
            let mut dice = Dice::for_trial(5, i);
            let r = d.resolve(&[a, b], &mut dice, &mut NoTrace);
            freed += u32::from(r.prisoners_freed);
            rescued += u32::from(r.rescued);
            assert!(r.rescued <= 1 && r.prisoners_freed <= 1);
        }
        if a != Policy::Random {
            assert!(
                freed > 0 && rescued > 0,
                "{a:?}: freed {freed}, rescued {rescued}"
            );
        }
    }
}

#[test]
fn new_scenarios_are_identical_for_any_thread_count() {
    for name in [
        "rescuing-the-princess",
        "john-carter-and-woola-vs-6-warriors-in-the-arena",
    ] {
        let m = bundled(name);
        let one = tally(&m, 600, 1);
        let two = tally(&m, 600, 2);
        assert_eq!(one, two, "{name}");
    }
}

#[test]
fn the_trace_names_the_new_cases() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        ("rescuing-the-princess", "JC 5.55"),
        (
            "john-carter-and-woola-vs-6-warriors-in-the-arena",
            "JC 19.12 Woola",
        ),
    ];
    for (name, case) in cases {
        let path = common::bundled(&format!("jc/duel/{name}.toml"));
        let found = (0..40).any(|trial| common::trace_of(&path, trial, dir.path()).contains(case));
        assert!(found, "{name}: no {case} in 40 traces");
    }
}

// -------------------------------------------------------------- bad input

#[test]
fn bad_set_ups_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cwd = dir.path();
    let arena = "display = \"arena\"";
    let house = "display = \"house\"\ndiscovered = true";
    let palace = "display = \"palace\"";
    let cases: [(&str, &str, String, String, &[&str]); 16] = [
        (
            "no-dungeon",
            house,
            side(
                "",
                "\"carthoris\", { id = \"dejah-thoris\", prisoner = true, held = \"dungeon\" }",
            ),
            side("", "\"red-warrior\""),
            &["sides[0].characters[1].held", "\"dungeon\"", "none"],
        ),
        (
            "no-prison",
            arena,
            side(
                "",
                "\"carthoris\", { id = \"dejah-thoris\", prisoner = true }",
            ),
            side("", "\"red-warrior\""),
            &["sides[0].characters[1].prisoner", "hold prisoners"],
        ),
        (
            "defender-prisoner",
            palace,
            side("", "\"carthoris\""),
            side(
                "",
                "\"red-warrior\", { id = \"dejah-thoris\", prisoner = true }",
            ),
            &["sides[1].characters[1].prisoner", "first side"],
        ),
        (
            "unconscious-warrior",
            palace,
            side(
                "",
                "\"carthoris\", { id = \"red-warrior\", prisoner = true, unconscious = true }",
            ),
            side("", "\"red-warrior\""),
            &["sides[0].characters[1].unconscious", "hero"],
        ),
        (
            "loves-warrior",
            arena,
            side(
                "",
                "\"carthoris\", { id = \"tavia\", loves = \"red-warrior\" }",
            ),
            side("", "\"red-warrior\""),
            &["sides[0].characters[1].loves", "\"red-warrior\""],
        ),
        (
            "loves-on-dejah",
            arena,
            side(
                "",
                "\"carthoris\", { id = \"dejah-thoris\", loves = \"carthoris\" }",
            ),
            side("", "\"red-warrior\""),
            &["sides[0].characters[1].loves", "Tavia"],
        ),
        (
            "phantoms",
            arena,
            side("", "{ id = \"kar-komak\", phantoms = 3 }"),
            side("", "\"red-warrior\""),
            &["sides[0].characters[0].phantoms", "0 to 2"],
        ),
        (
            "too-many-phantoms",
            arena,
            side(
                "",
                "{ id = \"kar-komak\", phantoms = 2 }, { id = \"red-warrior\", count = 5 }",
            ),
            side("", "\"red-warrior\""),
            &["phantoms", "at most 16"],
        ),
        (
            "goal",
            arena,
            side("goal = \"flee\"", "\"carthoris\""),
            side("", "\"red-warrior\""),
            &["sides[0].goal", "\"flee\""],
        ),
        (
            "escape-arena",
            arena,
            side("goal = \"escape\"", "\"carthoris\""),
            side("", "\"red-warrior\""),
            &["sides[0].goal", "exit", "none"],
        ),
        (
            "rescue-nobody",
            house,
            side(
                "goal = \"rescue\"\nentrance = \"west entrance\"",
                "\"carthoris\"",
            ),
            side("", "\"red-warrior\""),
            &["sides[0].goal", "prisoners"],
        ),
        (
            "acquisition-arena",
            "display = \"arena\"\nacquisition = true",
            side("", "\"carthoris\""),
            side("", "\"red-warrior\""),
            &["acquisition", "staging area"],
        ),
        (
            "acquisition-crowd",
            "display = \"flier\"\nacquisition = true",
            side("", "\"carthoris\", { id = \"red-warrior\", count = 2 }"),
            side("", "\"black-pirate\""),
            &["sides[0].characters", "at most 2", "found 3"],
        ),
        (
            "disguise-arena",
            arena,
            side("disguise = true", "\"carthoris\""),
            side("", "\"red-warrior\""),
            &["sides[0].disguise", "discovered"],
        ),
        (
            "passage-house",
            house,
            side(
                "secret_passage = true\nentrance = \"west entrance\"",
                "\"carthoris\"",
            ),
            side("", "\"red-warrior\""),
            &["sides[0].secret_passage", "secret passageways"],
        ),
        (
            "woola-placed",
            arena,
            side("", "\"john-carter\", { id = \"woola\", at = [4, 4] }"),
            side("", "\"red-warrior\""),
            &["sides[0].characters[1].at", "Woola"],
        ),
    ];
    for (name, top, a, b, expected) in cases {
        let path = write(cwd, name, top, &format!("{a}{b}"));
        common::assert_bad_input(
            &["run", path.to_str().expect("utf8"), "-n", "10"],
            cwd,
            expected,
        );
    }
}

/// A bad display: file name, kind, rows, areas, what the error names.
type LayoutCase<'a> = (&'a str, &'a str, Vec<&'a str>, &'a str, &'a [&'a str]);

#[test]
fn bad_special_layouts_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pit = [
        "aaaa", "aaaa", "aaaa", "aaaa", "....", "bbbb", "bbbb", "bbbb", "bbbb",
    ];
    let cases: [LayoutCase; 5] = [
        (
            "open-exit",
            "open",
            vec![
                "aaaa", "aaaa", "aaaa", "aaaa", "x...", "bbbb", "bbbb", "bbbb", "bbbb",
            ],
            "[[areas]]\nmark = \"x\"\nname = \"gate\"\nexit = true\n",
            &["areas[0].exit", "no one escapes"],
        ),
        (
            "staging",
            "open",
            pit.to_vec(),
            "[[areas]]\nmark = \"a\"\nname = \"ground\"\nside = 1\nstaging = true\n",
            &["areas[0].staging", "flier"],
        ),
        (
            "doorless",
            "palace",
            vec![
                "aaaa", "aaaa", "aaaa", "aaaa", "JJJJ", "bbbb", "bbbb", "bbbb", "bbbb",
            ],
            "[[areas]]\nmark = \"J\"\nname = \"dungeon\"\ndungeon = true\n",
            &["areas[0].dungeon", "door"],
        ),
        (
            "dead-end",
            "palace",
            vec![
                "aaaa", "aaaa", "aaaa", "aaaa", ":..#", "bbbb", "bbbb", "bbbb", "bbbb",
            ],
            "",
            &["areas", "secret = true"],
        ),
        (
            "wait",
            "house",
            pit.to_vec(),
            "[[areas]]\nmark = \"a\"\nname = \"stairs\"\nside = 1\nwait = 1\n",
            &["areas[0].wait", "exit"],
        ),
    ];
    for (name, kind, rows, areas, expected) in cases {
        let file = write_display(dir.path(), name, kind, &rows, areas);
        assert_bad_display(&file, name, expected);
    }
}
