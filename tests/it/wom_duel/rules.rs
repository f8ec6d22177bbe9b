//! Rules cases with hand-worked expected values, read from the bundled
//! Warriors of Mars data through the model's own profiles.

use barsoom::engine::{Model, replay};
use barsoom::games::ScenarioModel;
use barsoom::games::wom::duel::{
    Blow, CompiledShot, FirstStrike, MissileEffect, WomDuel, next_holder,
};
use barsoom::games::wom::tables::{Score, WomData};
use barsoom::scenario::Load;

use crate::common::*;

fn duel(a: &str, a_extra: &str, b: &str, b_extra: &str) -> WomDuel {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = one_on_one(dir.path(), "case", a, a_extra, b, b_extra);
    WomDuel::load(&path).expect("scenario loads").0
}

fn men(level_a: i64, level_b: i64) -> WomDuel {
    duel(
        "padwar",
        &format!("level = {level_a}"),
        "regular",
        &format!("level = {level_b}"),
    )
}

#[test]
fn men_vs_men_table_lookups_by_level_difference() {
    // +3 (13 vs 10): wound 7, kill 12; -3: wound 13, kill 17.
    let d = men(13, 10);
    assert_eq!(
        (d.attack(0, 1, 2).wound, d.attack(0, 1, 2).kill),
        (Score::AtLeast(7), Score::AtLeast(12))
    );
    assert_eq!(
        (d.attack(1, 0, 2).wound, d.attack(1, 0, 2).kill),
        (Score::AtLeast(13), Score::AtLeast(17))
    );
    // 0: wound 10, kill 15.
    let d = men(6, 6);
    assert_eq!(
        (d.attack(0, 1, 2).wound, d.attack(0, 1, 2).kill),
        (Score::AtLeast(10), Score::AtLeast(15))
    );
    // +1 / -1 (padwar 6 vs regular 5): 9/14 and 11/16.
    let d = men(6, 5);
    assert_eq!(
        (d.attack(0, 1, 2).wound, d.attack(0, 1, 2).kill),
        (Score::AtLeast(9), Score::AtLeast(14))
    );
    assert_eq!(
        (d.attack(1, 0, 2).wound, d.attack(1, 0, 2).kill),
        (Score::AtLeast(11), Score::AtLeast(16))
    );
    // -7 and below: no kill is possible; -12 still wounds on 18.
    let d = men(12, 1);
    assert_eq!(d.attack(1, 0, 2).kill, Score::Never);
    assert_eq!(d.attack(1, 0, 2).wound, Score::AtLeast(18));
    // -6: wound 16, kill 18 (the last column with a kill).
    let d = men(3, 9);
    assert_eq!(
        (d.attack(0, 1, 2).wound, d.attack(0, 1, 2).kill),
        (Score::AtLeast(16), Score::AtLeast(18))
    );
}

#[test]
fn automatic_columns_wound_without_a_roll_and_still_roll_to_kill() {
    // +7: automatic wound, kill on 9 or more.
    let d = men(13, 6);
    let p = d.attack(0, 1, 2);
    assert_eq!(p.wound, Score::Automatic);
    assert_eq!(p.kill, Score::AtLeast(9));
    assert_eq!(p.classify(3), Blow::Wound, "even the lowest roll wounds");
    assert_eq!(p.classify(8), Blow::Wound);
    assert_eq!(p.classify(9), Blow::Kill);
    // +12 (13 vs 1): kill on 8; the defender at -12 seizes the initiative only on 18.
    let d = men(13, 1);
    assert_eq!(d.attack(0, 1, 2).kill, Score::AtLeast(8));
    assert_eq!(d.initiative(1, 0).score, Score::AtLeast(18));
    // A defender 7 or more levels above his attacker takes the initiative automatically.
    let d = men(6, 13);
    assert_eq!(d.initiative(1, 0).score, Score::Automatic);
    assert!(d.initiative(1, 0).seized(3));
}

#[test]
fn differences_beyond_twelve_clamp_to_the_table_edge() {
    // The table stops at +-12; levels 1-13 never exceed it, but the lookup clamps.
    assert_eq!(barsoom::games::wom::tables::difference_column(15), 0);
    assert_eq!(barsoom::games::wom::tables::difference_column(-15), 24);
    assert_eq!(barsoom::games::wom::tables::difference_column(0), 12);
}

#[test]
fn initiative_passes_after_three_successive_attacks() {
    // Unit rule: the third attack in succession hands the initiative over
    // whatever the roll; before that it stays unless seized.
    assert_eq!(next_holder(0, 1, false, 3, false), (0, 1));
    assert_eq!(next_holder(0, 2, false, 3, false), (0, 2));
    assert_eq!(next_holder(0, 3, false, 3, false), (1, 0));
    assert_eq!(next_holder(1, 2, false, 3, true), (0, 0));
    // With animals the initiative always alternates.
    assert_eq!(next_holder(0, 1, true, 3, false), (1, 0));

    // In play: level 8 against level 6, the defender seizes the initiative
    // only on 12 or more (3 chances in 8), so runs of three attacks are
    // common; each must end in a forced pass and no run is ever longer.
    let d = men(8, 6);
    assert_eq!(d.initiative(1, 0).score, Score::AtLeast(12));
    let mut forced = 0;
    for trial in 0..300 {
        let (_, log) = replay(&d, 7, trial);
        let mut run = 0;
        let mut last = String::new();
        for e in &log.events {
            if e.text.contains(" attacks ") {
                // "round N: NAME attacks ..."
                let who = e
                    .text
                    .split(" attacks ")
                    .next()
                    .and_then(|s| s.split(": ").nth(1))
                    .unwrap_or("")
                    .to_string();
                run = if who == last { run + 1 } else { 1 };
                last = who;
                assert!(
                    run <= 3,
                    "trial {trial}: more than three attacks in succession"
                );
            }
            if e.case == "WoM men-vs-men 4b" {
                forced += 1;
                assert_eq!(run, 3, "a forced pass comes after exactly three attacks");
            }
        }
    }
    assert!(forced > 0, "the forced pass must occur");
}

#[test]
fn okarian_kit_gives_plus_one_attack_and_minus_one_to_be_hit() {
    let d = duel("okarian-noble", "okarian = true", "red-dwar", "");
    // Level 8 against 8: wound 10, kill 15.
    assert_eq!(d.attack(0, 1, 2).modifier, 1, "Okarian's attack bonus");
    assert_eq!(d.attack(1, 0, 2).modifier, -1, "Okarian's defence");
    assert_eq!(
        d.attack(0, 1, 2).classify(9),
        Blow::Wound,
        "9 + 1 meets the wound score of 10"
    );
    assert_eq!(d.attack(1, 0, 2).classify(10), Blow::Miss, "10 - 1 misses");
    // A left-hand weapon counters the hook sword: the attack bonus goes, the defence stays.
    let d = duel(
        "okarian-noble",
        "okarian = true",
        "red-dwar",
        "off_hand = true",
    );
    assert_eq!(d.attack(0, 1, 2).modifier, 0);
    assert_eq!(d.attack(1, 0, 2).modifier, -1);
}

#[test]
fn greater_weapon_adds_one_to_attack_and_initiative() {
    let d = duel(
        "padwar",
        "weapon = \"long-sword\"",
        "regular",
        "level = 6, weapon = \"short-sword\"",
    );
    assert_eq!(d.attack(0, 1, 2).modifier, 1);
    assert_eq!(d.attack(1, 0, 2).modifier, 0);
    assert_eq!(
        d.initiative(0, 1).modifier,
        1,
        "the long sword's holder defends his initiative roll with +1"
    );
    assert_eq!(d.initiative(1, 0).modifier, 0);
}

#[test]
fn animal_special_abilities() {
    // Club-armed white ape: +1 to wound and kill.
    assert_eq!(
        duel("white-ape", "club = true", "calot", "")
            .attack(0, 1, 2)
            .modifier,
        1
    );
    assert_eq!(
        duel("white-ape", "", "calot", "").attack(0, 1, 2).modifier,
        0
    );
    // Charging banth: +1 in the first turn (rounds 1 and 2) only.
    let d = duel("banth", "charging = true", "red-warrior", "");
    assert_eq!(
        [
            d.attack(0, 1, 0).modifier,
            d.attack(0, 1, 1).modifier,
            d.attack(0, 1, 2).modifier
        ],
        [1, 1, 0]
    );
    // Charging thoat: +2 on the kill roll only, first turn.
    let d = duel("thoat", "charging = true", "padwar", "");
    let p = d.attack(0, 1, 0);
    assert_eq!((p.modifier, p.kill_modifier), (0, 2));
    // Thoat vs men of 4-6: wound 11, kill 14; a 12 kills when charging.
    assert_eq!((p.wound, p.kill), (Score::AtLeast(11), Score::AtLeast(14)));
    assert_eq!(p.classify(12), Blow::Kill);
    assert_eq!(d.attack(0, 1, 2).classify(12), Blow::Wound);
    // Plant man that cannot leap: -2 on all attacks.
    assert_eq!(
        duel("plant-man", "cannot_leap = true", "padwar", "")
            .attack(0, 1, 2)
            .modifier,
        -2
    );
    // The sith's stinger against Tars Tarkas (band 10-12): kills on 16.
    let d = duel("tars-tarkas", "", "sith", "");
    assert_eq!(d.attack(1, 0, 2).stinger, Score::AtLeast(16));
    assert_eq!(
        (d.attack(1, 0, 2).wound, d.attack(1, 0, 2).kill),
        (Score::AtLeast(11), Score::AtLeast(18))
    );
    // Woola: +1 on every roll.
    assert_eq!(
        duel("woola", "", "white-ape", "").attack(0, 1, 2).modifier,
        1
    );
}

#[test]
fn men_against_animals_weapons_mounts_and_lances() {
    // Level 8 against a sith: 11 to wound, no kill.
    let d = duel("red-dwar", "", "sith", "");
    assert_eq!(
        (d.attack(0, 1, 2).wound, d.attack(0, 1, 2).kill),
        (Score::AtLeast(11), Score::Never)
    );
    assert_eq!(
        d.attack(0, 1, 2).modifier,
        0,
        "the table assumes a long sword"
    );
    assert_eq!(
        duel("red-dwar", "weapon = \"dagger\"", "sith", "")
            .attack(0, 1, 2)
            .modifier,
        -1
    );
    assert_eq!(
        duel("red-dwar", "mounted = true", "sith", "")
            .attack(0, 1, 2)
            .modifier,
        1
    );
    // Mounted charge: +2 during the first turn, +1 (mounted) after.
    let d = duel("red-dwar", "mounted = true, charging = true", "sith", "");
    assert_eq!(
        [
            d.attack(0, 1, 0).modifier,
            d.attack(0, 1, 1).modifier,
            d.attack(0, 1, 2).modifier
        ],
        [2, 2, 1]
    );
    // Poisoned lance charge: +3 in the first round and any wound kills.
    let d = duel(
        "red-dwar",
        "weapon = \"lance-40\", mounted = true, charging = true, lance = true, poisoned_lance = true",
        "sith",
        "",
    );
    let first = d.attack(0, 1, 0);
    assert_eq!(first.modifier, 3);
    assert!(first.wound_kills);
    assert_eq!(
        first.classify(8),
        Blow::Kill,
        "8 + 3 reaches the wound score 11, and the poison kills"
    );
    assert!(!d.attack(0, 1, 1).wound_kills);
}

#[test]
fn reconstructed_animal_table_cells_are_pinned() {
    let data = WomData::load(&wom_data()).expect("data loads");
    let t = &data.animals;
    let cell = |a: &str, d: &str| {
        let a = &t.animals[t.animal_index(a).expect("animal")];
        a.vs_animals[t.animal_index(d).expect("animal")]
    };
    let s = Score::AtLeast;
    assert_eq!(
        (
            cell("banth", "white-ape").wound,
            cell("banth", "white-ape").kill,
            cell("banth", "white-ape").panic
        ),
        (s(7), s(14), Score::Never)
    );
    assert_eq!(
        (cell("calot", "thoat").wound, cell("calot", "thoat").kill),
        (s(8), s(17)),
        "reconstructed from a printed 18"
    );
    assert_eq!(
        (
            cell("zitidar", "calot").wound,
            cell("zitidar", "calot").kill
        ),
        (s(15), s(16)),
        "reconstructed: transposed"
    );
    assert_eq!(cell("white-ape", "sith").panic, s(6));
    let sith = &t.animals[t.animal_index("sith").expect("sith")];
    assert_eq!(
        (
            sith.vs_men[0].wound,
            sith.vs_men[0].kill,
            sith.vs_men[0].stinger
        ),
        (s(12), Score::Never, s(18))
    );
    assert_eq!(sith.wounds_to_kill, 10);
    // Men rows: level 13 against a white ape 8/13, level 1 against a zitidar 13/-.
    let ape = t.animal_index("white-ape").expect("ape");
    let zitidar = t.animal_index("zitidar").expect("zitidar");
    assert_eq!(
        (
            t.men_attacking[12][ape].wound,
            t.men_attacking[12][ape].kill
        ),
        (s(8), s(13))
    );
    assert_eq!(
        (
            t.men_attacking[0][zitidar].wound,
            t.men_attacking[0][zitidar].kill
        ),
        (s(13), Score::Never)
    );
    assert_eq!(
        t.men_wounds_to_kill[12], 15,
        "John Carter dies at 15 wounds"
    );
    assert_eq!(t.men_wounds_to_kill[5], 7, "a level-6 man dies at 7");
    // Men bands: 13 | 10-12 | 7-9 | 4-6 | 1-3.
    assert_eq!(
        [
            t.band_of(13),
            t.band_of(12),
            t.band_of(10),
            t.band_of(7),
            t.band_of(6),
            t.band_of(1)
        ],
        [0, 1, 1, 2, 3, 4]
    );
    assert!(
        t.interpretations.len() >= 5,
        "every reconstructed cell carries its reasoning"
    );
}

#[test]
fn wounds_to_kill_follow_level_and_john_carter() {
    let d = duel("john-carter", "", "padwar", "");
    assert_eq!(d.fighters()[0].wounds_to_kill, 15);
    assert_eq!(d.fighters()[1].wounds_to_kill, 7);
}

#[test]
fn first_strike_priorities() {
    let strike = |d: &WomDuel| match d.first_strike() {
        FirstStrike::Side(s, _) => Some(s),
        FirstStrike::RollOff => None,
    };
    // 4: higher level strikes first.
    assert_eq!(strike(&men(5, 8)), Some(1));
    // 2: longer weapon beats higher level.
    assert_eq!(
        strike(&duel(
            "regular",
            "weapon = \"long-sword\"",
            "padwar",
            "weapon = \"short-sword\""
        )),
        Some(0)
    );
    // 1: surprise beats everything.
    assert_eq!(
        strike(&duel(
            "regular",
            "weapon = \"dagger\"",
            "john-carter",
            "surprise = true"
        )),
        Some(1)
    );
    assert_eq!(
        strike(&duel(
            "regular",
            "surprise = true, weapon = \"dagger\"",
            "john-carter",
            ""
        )),
        Some(0)
    );
    // 3: the charging figure, weapons being equal.
    assert_eq!(
        strike(&duel("regular", "charging = true", "padwar", "")),
        Some(0)
    );
    // 4: man before animal, unless the animal charges (3 comes first).
    assert_eq!(strike(&duel("banth", "", "padwar", "")), Some(1));
    assert_eq!(
        strike(&duel("banth", "charging = true", "padwar", "")),
        Some(0)
    );
    // 5: the figure that did not just move.
    assert_eq!(strike(&duel("calot", "moved = true", "calot", "")), Some(1));
    // Otherwise a fair roll-off.
    assert_eq!(strike(&men(6, 6)), None);
}

#[test]
fn missile_fire_procedures() {
    // Against a man: the second die must reach the first plus modifiers.
    let d = duel(
        "padwar",
        "missile = { weapon = \"radium-rifle\", range = \"short\" }",
        "regular",
        "",
    );
    let shot = *d.shot(0, 1);
    // Rifle -1, short range -1: first die 4 needs a 2 on the second.
    assert_eq!(
        shot,
        CompiledShot::VsMan {
            modifier: -2,
            on_hit: MissileEffect::Kill
        }
    );
    assert_eq!(shot.effect(4, 2, 0), MissileEffect::Kill);
    assert_eq!(shot.effect(6, 3, 0), MissileEffect::Miss);
    // Above 6th level a hit is seven wounds.
    let d = duel(
        "padwar",
        "missile = { weapon = \"bow\", cover = \"hard\" }",
        "john-carter",
        "",
    );
    assert_eq!(
        *d.shot(0, 1),
        CompiledShot::VsMan {
            modifier: 2,
            on_hit: MissileEffect::Wounds(7)
        }
    );
    // Against an animal: level 6 needs 12 to wound a thoat, so 12 kills,
    // 11 deals four wounds ... 8 one wound, 7 misses.
    let d = duel(
        "padwar",
        "missile = { weapon = \"radium-rifle\" }",
        "thoat",
        "",
    );
    let shot = *d.shot(0, 1);
    let effects: Vec<MissileEffect> = (7..=12).map(|r| shot.effect(0, 0, r)).collect();
    use MissileEffect::*;
    assert_eq!(
        effects,
        vec![Miss, Wounds(1), Wounds(2), Wounds(3), Wounds(4), Kill]
    );
    // The shooter gave up his first attack: the animal strikes first.
    assert!(matches!(d.first_strike(), FirstStrike::Side(1, _)));
}

#[test]
fn a_panicking_animal_runs_before_any_blow() {
    // White ape against a sith panics on 6 or more: almost always.
    let d = duel("white-ape", "charging = true", "sith", "");
    let (result, log) = replay(&d, 3, 0);
    let flee = d.flee_outcome(0).expect("panic is possible");
    if usize::from(result.outcome) == flee {
        assert!(log.events.iter().any(|e| e.case == "WoM animals 1: panic"));
        assert_eq!(
            result.metrics[2] + result.metrics[3],
            0,
            "no wounds were dealt"
        );
    }
    let exact = d.exact().expect("solvable");
    // P(3d6 >= 6) = 206/216.
    assert!((exact.outcome_probabilities[flee] - 206.0 / 216.0).abs() < 1e-12);
}

#[test]
fn breaking_the_code_raises_the_opponents_one_level_for_good() {
    // [The Barsoomian Code of Battle]: the side that breaks it faces men
    // one class higher, at 1:1 for the rest of the fight. Two padwars
    // (level 6): the second breaks the code, so the first fights at 7.
    let dir = tempfile::tempdir().expect("tempdir");
    let side =
        |extra: &str| format!("[[sides]]\n{extra}figures = [{{ character = \"padwar\" }}]\n");
    let load = |name: &str, sides: String| {
        let path = write_duel(dir.path(), name, &sides);
        WomDuel::load(&path)
    };
    let even = load("even", side("") + &side("")).expect("loads").0;
    let broken = load("broken", side("") + &side("breaks_code = true\n"))
        .expect("loads")
        .0;
    // Even: difference 0, wound 10, kill 15, each way; a roll-off decides
    // who strikes first; seven wounds kill a level-6 man.
    assert_eq!(
        (even.attack(0, 1, 2).wound, even.attack(0, 1, 2).kill),
        (Score::AtLeast(10), Score::AtLeast(15))
    );
    assert_eq!(even.first_strike(), FirstStrike::RollOff);
    // Broken: the first padwar attacks at +1 (wound 9, kill 14), the
    // breaker at -1 (wound 11, kill 16), and each seizes the initiative
    // at his own difference as a level 7 against a level 6 would; the
    // higher level strikes first [Melee priority 4]; and a level-7 man
    // dies at 8 wounds.
    assert_eq!(
        (broken.attack(0, 1, 2).wound, broken.attack(0, 1, 2).kill),
        (Score::AtLeast(9), Score::AtLeast(14))
    );
    assert_eq!(
        (broken.attack(1, 0, 2).wound, broken.attack(1, 0, 2).kill),
        (Score::AtLeast(11), Score::AtLeast(16))
    );
    assert_eq!(broken.initiative(1, 0), men(7, 6).initiative(1, 0));
    assert!(matches!(broken.first_strike(), FirstStrike::Side(0, _)));
    assert_eq!(broken.fighters()[0].wounds_to_kill, 8);
    assert_eq!(broken.fighters()[1].wounds_to_kill, 7);
    // The same as writing level 7, to the last probability.
    let written = men(7, 6);
    let exact = |d: &WomDuel| {
        barsoom::games::wom::duel::exact::solve(d)
            .expect("one against one")
            .outcome_probabilities
    };
    assert_eq!(exact(&broken), exact(&written));
    // A 13th-level man cannot rise: there is no 14th level.
    let top = load(
        "top",
        "[[sides]]\nfigures = [{ character = \"padwar\", level = 13 }]\n".to_string()
            + &side("breaks_code = true\n"),
    )
    .expect("loads")
    .0;
    assert_eq!(top.fighters()[0].wounds_to_kill, 14);
    assert_eq!(top.attack(0, 1, 2).kill, men(13, 6).attack(0, 1, 2).kill);
    // Animals are not bound by the code, and only one side can break it.
    let e = load(
        "animal",
        "[[sides]]\nfigures = [{ character = \"banth\" }]\n".to_string()
            + &side("breaks_code = true\n"),
    )
    .expect_err("refused");
    assert!(e.to_string().contains("sides[1].breaks_code"), "{e}");
    let e = load(
        "both",
        side("breaks_code = true\n") + &side("breaks_code = true\n"),
    )
    .expect_err("refused");
    assert!(e.to_string().contains("at most one side"), "{e}");
}
