//! `jc.duel`: the special characters of [19] (Woola, Tavia, Kar Komak,
//! Ghek), master swordsmen [7.81], personages led away [5.72], loads put
//! down [5.4] and villains withdrawing [10.22]. Split from `escape`,
//! whose helpers it shares.

use barsoom::games::ScenarioModel;
use std::path::Path;

use barsoom::engine::{Dice, NoTrace, Tally};
use barsoom::games::jc::duel::geometry::NORTH;
use barsoom::games::jc::duel::melee::{Blow, Fate, apply_blow};
use barsoom::games::jc::duel::model::JcDuel;
use barsoom::games::jc::duel::policy::{Policy, Task};
use barsoom::games::jc::duel::sequence::Status;

use super::escape::{POLICIES, duel, side, tally, who};
use super::{PLAIN, duel_on, entry, roster, specials};
use crate::common;
use crate::common::write_jc_duel as write;

// ------------------------------------------------------- special characters

#[test]
fn woola_appears_behind_john_carter_and_turns_ferocious() {
    let m = duel(
        "display = \"arena\"",
        &side(
            "",
            "{ id = \"john-carter\", at = [16, 12], facing = \"S\" }, \"woola\"",
        ),
        &side(
            "",
            "{ id = \"red-warrior\", at = [16, 16] }, { id = \"red-warrior\", at = [30, 28] }",
        ),
    );
    let d = m.duel();
    let (jc, woola) = (who(d, "john-carter"), who(d, "woola"));
    let trace = &mut NoTrace;
    let mut dice = Dice::for_trial(1, 0);
    let mut s = d.start();
    assert_eq!(s.status[woola], Status::Absent);
    // At level 3 nothing; at level 2 he bounds in straight behind John
    // Carter (north of him, as he faces south) [19.11, 19.12].
    s.level[jc] = 3;
    d.after_action(&mut s, 2, true, &POLICIES, &mut dice, trace);
    assert_eq!(s.status[woola], Status::Absent);
    let mut t = s;
    t.level[jc] = 2;
    assert!(d.woola_appears(&mut t, trace));
    assert_eq!(t.status[woola], Status::Fighting);
    assert_eq!(t.pos[woola], (16, 8));
    // Through the action step he appears and acts at once: he is no longer
    // where he was placed, or he has struck.
    let mut acted = s;
    acted.level[jc] = 2;
    d.after_action(&mut acted, 2, true, &POLICIES, &mut dice, trace);
    assert_eq!(acted.status[woola], Status::Fighting);
    assert!(acted.pos[woola] != (16, 8) || acted.melee_joined);
    // With John Carter's back to the edge, 9 to 12 boxes away.
    let mut u = s;
    u.level[jc] = 2;
    u.pos[jc] = (16, 0);
    u.pos[2] = (16, 4);
    assert!(d.woola_appears(&mut u, trace));
    let (dx, dy) = (u.pos[woola].0 - 16, u.pos[woola].1);
    assert!(
        (9..=12).contains(&dx.abs().max(dy.abs())),
        "{:?}",
        u.pos[woola]
    );
    // [19.16] John Carter unconscious: strength +1 and a level more.
    let mut v = t;
    v.status[jc] = Status::Unconscious;
    v.level[jc] = 1;
    let (_, before) = d.needed(&v, woola, 2, v.pos[woola], false);
    d.woola_ferocity(&mut v, trace);
    assert_eq!(v.level[woola], 3);
    let (_, after) = d.needed(&v, woola, 2, v.pos[woola], false);
    assert_eq!(after, before - 1);
    // Struck twice before he falls unconscious [19.15, 19.16].
    assert_eq!(apply_blow(3, true, Blow::Level), Fate::Fighting(2));
    assert_eq!(apply_blow(2, true, Blow::Level), Fate::Unconscious);
}

#[test]
fn woola_keeps_to_john_carters_flier() {
    let m = duel(
        "display = \"flier\"",
        &side("", "{ id = \"john-carter\", at = [16, 12] }, \"woola\""),
        &side("", "{ id = \"black-pirate\", at = [24, 12] }"),
    );
    let d = m.duel();
    let woola = who(d, "woola");
    let mut s = d.start();
    s.status[woola] = Status::Fighting;
    s.pos[woola] = (16, 16);
    // He may not step into the gap or onto the other deck [19.13]...
    assert!(!d.movement_display(&s, woola).open(18, 16));
    assert!(d.movement_display(&s, 0).open(18, 16));
    // ...nor melee across: a pirate bridging the gap onto deck 2 beside a
    // counter on deck 1 may be struck by John Carter, not by Woola.
    s.pos[2] = (22, 20);
    s.pos[woola] = (18, 20);
    assert_eq!(d.display.decks(18, 20), 1);
    assert_eq!(d.display.decks(22, 20), 2);
    assert!(!d.may_target(&s, woola, 2) && !d.may_target(&s, 2, woola));
    let mut jc = s;
    jc.pos[0] = (18, 20);
    jc.pos[woola] = (12, 12);
    assert!(d.may_target(&jc, 0, 2));
}

#[test]
fn tavia_takes_up_a_sword_when_her_hero_falls() {
    let m = duel(
        "display = \"arena\"",
        &side(
            "",
            "{ id = \"tan-hadron\", at = [16, 12] }, { id = \"tavia\", loves = \"tan-hadron\", at = [20, 8] }",
        ),
        &side("", "{ id = \"red-warrior\", at = [20, 12] }"),
    );
    let d = m.duel();
    let (hero, tavia) = (0, 1);
    let trace = &mut NoTrace;
    let mut s = d.start();
    assert_eq!(s.status[tavia], Status::Bystander);
    assert!(
        !d.may_target(&s, 2, tavia),
        "personages are not meleed [7.16]"
    );
    assert!(!d.side_standing(
        &{
            let mut t = s;
            t.status[hero] = Status::Unconscious;
            t
        },
        0
    ));
    // [19.23] her hero at level 2: her values come into play.
    s.level[hero] = 2;
    d.personages_take_up_swords(&mut s, trace);
    assert_eq!(s.status[tavia], Status::Fighting);
    assert!(d.side_standing(&s, 0));
    assert!(!d.may_target(&s, 2, tavia), "not until she strikes first");
    d.note_personage_blow(&mut s, tavia);
    assert!(d.may_target(&s, 2, tavia));
    // She falls unconscious rather than die.
    assert!(d.fighters[tavia].unconscious_at_level_1);
    assert_eq!(apply_blow(2, true, Blow::Kill), Fate::Unconscious);
    // Standing on another counter, she steps clear first [5.74].
    let mut crowded = d.start();
    crowded.pos[tavia] = (20, 12);
    crowded.status[hero] = Status::Unconscious;
    d.personages_take_up_swords(&mut crowded, trace);
    assert_eq!(crowded.status[tavia], Status::Fighting);
    assert_ne!(crowded.pos[tavia], (20, 12));
}

#[test]
fn kar_komak_materialises_five_phantoms_once() {
    let m = duel(
        "display = \"arena\"",
        &side("", "{ id = \"kar-komak\", at = [16, 12] }"),
        &side("", "{ id = \"red-warrior\", at = [16, 24] }"),
    );
    let d = m.duel();
    assert_eq!(d.fighters.len(), 2 + 5, "five phantom slots [19.41]");
    let trace = &mut NoTrace;
    let mut s = d.start();
    assert!(d.may_use_power(&s, 0));
    d.perform_task(&mut s, 0, Task::Summon, false, trace);
    let phantoms: Vec<usize> = (2..7).filter(|&p| s.fighting(p)).collect();
    assert_eq!(phantoms.len(), 5);
    for &p in &phantoms {
        assert_eq!(d.fighters[p].side, 0);
        assert_eq!(d.fighters[p].id, "phantom-warrior");
        let (dx, dy) = (s.pos[p].0 - 16, s.pos[p].1 - 12);
        assert!(dx.abs().max(dy.abs()) <= 8, "near him: {:?}", s.pos[p]);
    }
    assert!(!d.may_use_power(&s, 0), "the duel's one materialisation");
    // Engaged in melee, never [19.43].
    let mut engaged = d.start();
    engaged.pos[1] = (16, 16);
    assert!(!d.may_use_power(&engaged, 0));
    // None granted: no slots.
    let none = duel(
        "display = \"arena\"",
        &side("", "{ id = \"kar-komak\", phantoms = 0 }"),
        &side("", "\"red-warrior\""),
    );
    assert_eq!(none.duel().fighters.len(), 2);
}

#[test]
fn ghek_holds_one_enemy_until_he_is_struck() {
    let m = duel(
        "display = \"arena\"",
        &side(
            "",
            "{ id = \"ghek\", at = [16, 4] }, { id = \"red-warrior\", at = [20, 20] }",
        ),
        &side("", "{ id = \"green-warrior\", at = [16, 24] }"),
    );
    let d = m.duel();
    let trace = &mut NoTrace;
    let mut s = d.start();
    assert!(d.may_immobilise(&s, 0, 2) && !d.may_immobilise(&s, 0, 1));
    d.perform_task(&mut s, 0, Task::Immobilise(2), false, trace);
    assert_eq!(s.held, 1 << 2);
    assert!(!d.may_use_power(&s, 0), "once per duel [19.42]");
    // A blow that lands frees him.
    let mut hit = s;
    for i in 0..200 {
        let mut dice = Dice::for_trial(9, i);
        let mut t = s;
        t.pos[1] = (16, 20);
        t.facing[1] = NORTH;
        let before = t.level[2];
        d.melee(&mut t, 1, 2, false, &mut dice, trace);
        if t.level[2] < before || t.status[2] != Status::Fighting {
            hit = t;
            break;
        }
        assert_eq!(t.held, 1 << 2, "a miss does not free him");
    }
    assert_eq!(hit.held, 0);
    // Not while Ghek is engaged [19.43].
    let mut engaged = d.start();
    engaged.pos[2] = (16, 8);
    assert!(!d.may_use_power(&engaged, 0));
    // In play: Ghek (alertness B) holds the green warrior (C) before he
    // acts, and he never acts again (one blow that lands kills him).
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(
        dir.path(),
        "ghek",
        "display = \"arena\"",
        &format!(
            "{}{}",
            side("", "\"ghek\", \"red-warrior\""),
            side("", "\"green-warrior\"")
        ),
    );
    for trial in 0..6 {
        let text = common::trace_of(&path, trial, dir.path());
        let (before, after) = text.split_once("JC 19.42").expect("Ghek uses his power");
        assert!(!before.contains("Green warrior of Mars moves"), "{text}");
        assert!(
            !after.lines().any(|l| l.contains("] Green warrior of Mars")),
            "trial {trial}: the held warrior acts: {text}"
        );
    }
}

// ------------------------------------------------ master swordsmen [7.81]

#[test]
fn a_hero_meets_a_master_swordsman_by_maneuver_cards() {
    let m = duel(
        "display = \"street\"",
        &side(
            "entrance = \"north end\"",
            "{ id = \"john-carter\", at = [8, 30] }, { id = \"red-warrior\", at = [14, 30] }",
        ),
        &side("", "{ id = \"master-at-arms\", at = [8, 34] }"),
    );
    let d = m.duel();
    let (jc, warrior, master) = (0, 1, 2);
    // [7.86] levels: the Warlord 4, a master-at-arms 1; a hero who has lost
    // a level on the display brings one fewer.
    let bout = super::warlord_against_master_at_arms();
    let s = d.start();
    assert_eq!(d.bout_levels(&s, jc, &bout, 0), 4);
    assert_eq!(d.bout_levels(&s, master, &bout, 1), 1);
    let mut wounded = s;
    wounded.level[jc] = 3;
    assert_eq!(d.bout_levels(&wounded, jc, &bout, 0), 3);
    // The melee is the bout of jc.swordsman itself, from those levels, on
    // the same dice: the hero's hits are the master's levels, and the
    // reverse; the loser falls (a master swordsman dies), the winner keeps
    // his feet [7.86].
    let trace = &mut NoTrace;
    let (mut won, mut lost) = (0, 0);
    for i in 0..200 {
        let mut t = wounded;
        let mut dice = Dice::for_trial(3, i);
        let over = d.melee(&mut t, master, jc, false, &mut dice, trace);
        let mut hands = bout.start();
        hands[0].levels = 3;
        let mut same = Dice::for_trial(3, i);
        let r = bout.resolve_from(hands, &mut same, trace);
        assert_eq!(dice.rolled(), 0, "no melee die is rolled");
        assert_eq!(
            dice.next_u64(),
            same.next_u64(),
            "no draw beyond the bout's"
        );
        // Each side's fall or wounds, from the bout's levels and hits (both
        // may fall in the same round [7.84]).
        if r.levels[1] == 0 {
            assert_eq!((t.status[master], t.level[master]), (Status::Dead, 0));
            assert_eq!(t.kills[jc], 1);
            assert!(over, "the master was the last of his side");
        } else {
            assert_eq!(t.status[master], Status::Fighting);
        }
        if r.levels[0] == 0 {
            lost += 1;
            assert_eq!((t.status[jc], t.level[jc]), (Status::Unconscious, 1));
            assert_eq!(t.kills[master], 1);
        } else {
            won += u32::from(r.levels[1] == 0);
            assert_eq!(t.status[jc], Status::Fighting);
            assert_eq!(t.level[jc], (3 - r.hits[1] as u8).max(2));
        }
        if r.levels[1] != 0 {
            assert!(!over, "the red warrior still stands");
        }
        assert!(t.engaged[jc] && t.engaged[master] && t.melee_joined);
        assert_eq!(t.meleed, 1 << master, "the master initiated it");
    }
    assert!(won > 100 && lost > 0, "{won} won, {lost} lost");
    // Others meet him by the die; an unarmed hero too [7.36].
    let mut t = s;
    let mut dice = Dice::for_trial(3, 0);
    d.melee(&mut t, warrior, master, false, &mut dice, trace);
    assert!(dice.rolled() >= 1, "a melee roll");
    let mut t = s;
    t.unarmed |= 1 << jc;
    let mut dice = Dice::for_trial(3, 0);
    d.melee(&mut t, jc, master, false, &mut dice, trace);
    assert!(dice.rolled() >= 1, "unarmed: by the die");
}

#[test]
fn the_arena_alternative_keeps_the_die_and_the_bout_decides_a_lone_meeting() {
    let counters = duel(
        "display = \"arena\"\nmaster_swordsmen = \"counters\"",
        &side("", "\"carthoris\""),
        &side("", "\"grand-master\""),
    );
    assert!(counters.duel().special.swordplay.is_none(), "[7.87]");
    let cards = duel(
        "display = \"arena\"",
        &side("", "\"carthoris\""),
        &side("", "\"grand-master\""),
    );
    assert!(cards.duel().special.swordplay.is_some(), "[7.81]");
    // Alone on the arena, the first blow is the whole bout: Carthoris wins
    // as often as jc.swordsman's grand-master hero against a grand master.
    let t = tally(&cards, 20_000, 2);
    let bout = barsoom::games::jc::swordsman::JcSwordsman::load(&common::bundled(
        "jc/swordsman/grand-master-hero-vs-grand-master.toml",
    ))
    .expect("bout scenario")
    .0;
    let b = tally_of(&bout, 20_000);
    let p = |x: u64, n: u64| x as f64 / n as f64;
    let (pd, pb) = (p(t.outcomes[0], t.trials()), p(b.outcomes[0], b.trials()));
    let se = (pd * (1.0 - pd) / 20_000.0 + pb * (1.0 - pb) / 20_000.0).sqrt();
    assert!((pd - pb).abs() < 4.0 * se, "duel {pd} vs bout {pb}");
    assert!(pd > 0.6, "{pd}");
    // The trace names the case.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(
        dir.path(),
        "bout",
        "display = \"arena\"",
        &format!(
            "{}{}",
            side("", "\"carthoris\""),
            side("", "\"grand-master\"")
        ),
    );
    let text = common::trace_of(&path, 0, dir.path());
    assert!(
        text.contains("JC 7.81") && text.contains("JC 7.84 matrix"),
        "{text}"
    );
    assert!(!text.contains("JC 7.61 melee"), "{text}");
}

fn tally_of<M: barsoom::engine::Model>(m: &M, trials: u64) -> Tally {
    common::tally(m, 7, 0..trials, 2, 512)
}

#[test]
fn bad_master_swordsman_settings_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(
        dir.path(),
        "bad",
        "display = \"arena\"\nmaster_swordsmen = \"cards\"",
        &format!(
            "{}{}",
            side("", "\"carthoris\""),
            side("", "\"grand-master\"")
        ),
    );
    let e = JcDuel::load(&path).expect_err("bad option").to_string();
    assert!(
        e.contains("master_swordsmen") && e.contains("\"counters\"") && !e.contains('\n'),
        "{e}"
    );
    let roster = "provenance = \"reconstructed: test\"\n[[characters]]\nid = \"x\"\nname = \"X\"\ncode = 5\nclass = \"minor\"\nrace = \"red\"\nlevels = [\"3B7\"]\nswordsman = \"champion\"\nprovenance = \"reconstructed: test\"\n";
    let e = barsoom::games::jc::duel::roster::Roster::parse(Path::new("c.toml"), roster)
        .expect_err("bad rank")
        .to_string();
    assert!(
        e.contains("c.toml") && e.contains("characters[0].swordsman") && e.contains("warlord"),
        "{e}"
    );
}

// --------------------------------------------- leading a personage [5.72]

#[test]
fn an_enemy_leads_a_personage_away() {
    let m = duel(
        "display = \"house\"\ndiscovered = true",
        &side(
            "entrance = \"west entrance\"",
            "{ id = \"john-carter\", at = [40, 14] }, { id = \"dejah-thoris\", at = [24, 14] }",
        ),
        &side(
            "goal = \"escape\"",
            "{ id = \"red-warrior\", at = [20, 14] }",
        ),
    );
    let d = m.duel();
    let (jc, dejah, warrior) = (0, 1, 2);
    assert_eq!(d.special.personages, 1 << dejah);
    let trace = &mut NoTrace;
    let mut dice = Dice::for_trial(1, 0);
    // [5.72] He steps four boxes west: she keeps her place beside him, at
    // his alertness, though John Carter (her friend) is on the display.
    let mut s = d.start();
    let step = barsoom::games::jc::duel::policy::Action {
        to: (16, 14),
        ..barsoom::games::jc::duel::policy::Action::stay(&s, warrior, Task::None)
    };
    d.perform(&mut s, warrior, step, &mut dice, trace);
    assert_eq!(s.pos[dejah], (20, 14));
    assert_eq!(s.x.leader[dejah], warrior as u8 + 1);
    // [5.74] Her own side does not move her in a turn an enemy has.
    assert_eq!(s.x.led, 1 << dejah);
    // Nobody leads a personage he does not stand beside.
    let mut far = d.start();
    far.pos[dejah] = (32, 14);
    d.perform(&mut far, warrior, step, &mut dice, trace);
    assert_eq!(far.pos[dejah], (32, 14));
    // He leaves by an exit with her: she is taken, not escaped.
    let x = (0..d.display.width)
        .find(|&x| d.exit_at(warrior, (x, 14)).is_some())
        .expect("an exit on the corridor's row");
    let mut t = d.start();
    t.pos[warrior] = (x, 14);
    t.pos[dejah] = (x + 4, 14);
    t.x.leader[dejah] = warrior as u8 + 1;
    assert!(d.perform_task(&mut t, warrior, Task::Leave, false, trace));
    assert_eq!(t.status[dejah], Status::Escaped);
    assert_eq!(t.x.taken, 1 << dejah);
    let (escaped, _, _) = d.count_escapes(&t, Some(0));
    assert_eq!(escaped, [0, 1], "she did not get away; he did");
    // A side that fights keeps a captive personage with her guard as he
    // falls back from John Carter, but does not lead her towards him.
    let fight = duel(
        "display = \"house\"\ndiscovered = true",
        &side(
            "entrance = \"west entrance\"",
            "{ id = \"john-carter\", at = [40, 14] }, { id = \"dejah-thoris\", at = [24, 14] }",
        ),
        &side("", "{ id = \"red-warrior\", at = [20, 14] }"),
    );
    let d = fight.duel();
    let mut s = d.start();
    s.status[dejah] = Status::CaptivePersonage;
    d.perform(&mut s, warrior, step, &mut dice, trace);
    assert_eq!(s.pos[dejah], (20, 14), "falling back, he takes her");
    let mut s = d.start();
    s.status[dejah] = Status::CaptivePersonage;
    s.pos[warrior] = (16, 14);
    s.pos[dejah] = (20, 14);
    let forward = barsoom::games::jc::duel::policy::Action {
        to: (20, 18),
        ..barsoom::games::jc::duel::policy::Action::stay(&s, warrior, Task::None)
    };
    d.perform(&mut s, warrior, forward, &mut dice, trace);
    assert_eq!(s.pos[dejah], (20, 14), "towards John Carter he leaves her");
    let mut s = d.start();
    d.perform(&mut s, warrior, step, &mut dice, trace);
    assert_eq!(s.pos[dejah], (24, 14), "a free personage is left be");
    assert_eq!(s.pos[jc], (40, 14));
}

// ------------------------------------------- putting a load down [5.4]

#[test]
fn a_carrier_puts_his_load_down_to_fight() {
    use barsoom::games::jc::duel::policy::Action;
    let m = duel(
        "display = \"house\"\ndiscovered = true",
        &side(
            "entrance = \"west entrance\"\ngoal = \"escape\"",
            "{ id = \"tars-tarkas\", at = [24, 14] }, { id = \"john-carter\", at = [24, 18] }",
        ),
        &side(
            "",
            "{ id = \"red-warrior\", at = [28, 14], facing = \"W\" }",
        ),
    );
    let d = m.duel();
    let (tt, jc, warrior) = (0, 1, 2);
    let trace = &mut NoTrace;
    let mut dice = Dice::for_trial(1, 0);
    let mut s = d.start();
    s.status[jc] = Status::Carried;
    s.level[jc] = 1;
    s.pos[jc] = s.pos[tt];
    s.carrying[tt] = jc as u8 + 1;
    s.facing[tt] = barsoom::games::jc::duel::geometry::EAST;
    // With the warrior beside him, both policies put John Carter down and
    // strike; the aggressive one anywhere in reach, the patient one from
    // where he stands (he does here).
    for policy in [Policy::Aggressive, Policy::Patient] {
        let action = policy.choose(d, &s, tt, &mut dice);
        assert_eq!(
            (action.task, action.target),
            (Task::PutDown, Some(warrior)),
            "{policy:?}"
        );
    }
    // Putting down is free: he is laid beside Tars Tarkas, unconscious,
    // and the blow goes without the carrier's -1 [7.35].
    let (_, carrying) = d.needed(&s, tt, warrior, s.pos[tt], false);
    let mut t = s;
    let strike = Action {
        task: Task::PutDown,
        target: None,
        ..Action::stay(&s, tt, Task::None)
    };
    d.perform(&mut t, tt, strike, &mut dice, trace);
    assert_eq!((t.carrying[tt], t.status[jc]), (0, Status::Unconscious));
    let (dx, dy) = (t.pos[jc].0 - t.pos[tt].0, t.pos[jc].1 - t.pos[tt].1);
    assert!(dx.abs().max(dy.abs()) >= 4, "beside him, not under him");
    // Tars Tarkas needs the floor of 1 either way against a red warrior;
    // the -1 is gone with the load ([7.35] reads `carrying`).
    let (_, free) = d.needed(&t, tt, warrior, t.pos[tt], false);
    assert_eq!((carrying, free), (1, 1));
    // With no enemy beside him he keeps his load and heads out.
    let mut away = s;
    away.pos[warrior] = (40, 14);
    let action = Policy::Aggressive.choose(d, &away, tt, &mut dice);
    assert_ne!(action.task, Task::PutDown);
}

#[test]
fn set_up_gives_ghek_his_hold_for_the_strategic_game() {
    let roster = roster();
    let ours = [entry(&roster, "gahan"), entry(&roster, "ghek")];
    let theirs = [entry(&roster, "red-warrior")];
    let d = duel_on("arena", &ours, &theirs, PLAIN);
    assert!(d.extras);
    assert_eq!(d.special.powers[1], specials().immobilise_uses);
    assert_eq!(d.special.powers[0], 0);
    // Without Ghek, nothing beyond the open-display rules runs.
    let plain = duel_on("arena", &ours[..1], &theirs, PLAIN);
    assert!(!plain.extras);
}

#[test]
fn a_losing_villain_withdraws_by_the_house_exit_10_22() {
    use barsoom::games::jc::duel::escape::Goal;
    use barsoom::games::jc::duel::model::SetUpOptions;
    let roster = roster();
    let ours = [entry(&roster, "john-carter")];
    let theirs = [entry(&roster, "gar-nal"), entry(&roster, "red-warrior")];
    let build = |name: &str, withdraw: bool| {
        duel_on(name, &ours, &theirs, SetUpOptions { withdraw, ..PLAIN })
    };
    // The house lets the defenders out by either entrance [7.24], the
    // palace by the tower moorings [5.56]; the arena, the flier and the
    // street (only the entering side leaves it [7.22]) have no way out for
    // them, so their villains fight on.
    for (name, goal) in [
        ("house", Goal::Withdraw),
        ("palace", Goal::Withdraw),
        ("arena", Goal::Fight),
        ("street", Goal::Fight),
        ("flier", Goal::Fight),
    ] {
        assert_eq!(build(name, true).special.goals[1], goal, "{name}");
    }
    assert_eq!(build("house", false).special.goals[1], Goal::Fight);
    let d = build("house", true);
    assert!(d.extras && d.special.may_leave);
    // Fighters: John Carter 0, Gar Nal 1, the red warrior 2.
    let (gar_nal, warrior) = (1, 2);
    let mut s = d.start();
    s.discovered = true;
    // John Carter in the south-east room, out of everyone's way.
    s.pos[0] = (36, 27);
    // Not losing at the start; losing once his guard is down, or once he
    // has lost a level himself.
    assert!(!d.losing(&s, 1));
    let mut hurt = s;
    hurt.level[gar_nal] -= 1;
    assert!(d.losing(&hurt, 1));
    s.status[warrior] = Status::Dead;
    assert!(d.losing(&s, 1));
    // He walks towards the nearest exit, striking no blow.
    let field = d.fields(&s, gar_nal).expect("fields").exits[1].clone();
    let at = |p: (i16, i16)| field[d.display.index(p.0, p.1)];
    let mut dice = Dice::for_trial(1, 0);
    let action = Policy::Aggressive.choose(&d, &s, gar_nal, &mut dice);
    assert_eq!(action.target, None);
    assert!(at(action.to) < at(s.pos[gar_nal]));
    // Standing on an exit he leaves; with no one else of his side on his
    // feet that ends the duel, his side having left the display [5.18].
    let exit = field.iter().position(|&v| v == 0).expect("an exit square");
    let width = d.display.width as usize;
    s.pos[gar_nal] = ((exit % width) as i16, (exit / width) as i16);
    assert!(d.exit_at(gar_nal, s.pos[gar_nal]).is_some());
    let action = Policy::Aggressive.choose(&d, &s, gar_nal, &mut dice);
    assert_eq!(action.task, Task::Leave);
    assert!(d.perform(&mut s, gar_nal, action, &mut dice, &mut NoTrace));
    assert_eq!(s.status[gar_nal], Status::Escaped);
    assert_eq!(s.x.left, Some(1));
}

#[test]
fn a_losing_villain_with_no_walk_to_an_exit_fights_on_10_22() {
    use barsoom::games::jc::duel::model::SetUpOptions;
    let roster = roster();
    let ours = [entry(&roster, "john-carter")];
    let theirs = [entry(&roster, "gar-nal"), entry(&roster, "red-warrior")];
    let d = duel_on(
        "house",
        &ours,
        &theirs,
        SetUpOptions {
            withdraw: true,
            ..PLAIN
        },
    );
    let (jc, gar_nal, warrior) = (0, 1, 2);
    let mut s = d.start();
    s.discovered = true;
    s.melee_joined = true;
    // Gar Nal, hurt (his side is losing), in the north-middle room; John
    // Carter stands in its west doorway and Gar Nal's own warrior across
    // its south one: no walk round the counters leads him to an exit. Steering
    // by the walls alone he made for the west door, found it shut, turned
    // to fight, and made for it again, to the turn limit; now he fights:
    // he steps up to John Carter and strikes.
    s.level[gar_nal] -= 1;
    assert!(d.losing(&s, 1));
    s.pos[jc] = (12, 4);
    s.pos[gar_nal] = (20, 8);
    s.pos[warrior] = (22, 12);
    let mut dice = Dice::for_trial(1, 0);
    let action = Policy::Aggressive.choose(&d, &s, gar_nal, &mut dice);
    assert_eq!(action.target, Some(jc), "{action:?}");
    // With the south door open, he walks out by it, striking no blow.
    s.pos[warrior] = (40, 27);
    let action = Policy::Aggressive.choose(&d, &s, gar_nal, &mut dice);
    assert_eq!(action.target, None, "{action:?}");
}
