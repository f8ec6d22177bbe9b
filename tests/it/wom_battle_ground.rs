//! `wom.battle` on rough ground, broken ground and mountains, each effect
//! worked by hand [TERRAIN EFFECTS ON MOVEMENT: Rough Ground, Broken
//! Ground, Mountains], retreats through terrain [MORALE TABLE: retreat one
//! full move], the new kinds' one-line data errors, and a change of
//! formation at a waypoint costing half a move [FORMATIONS].

use barsoom::engine::{NoTrace, ScriptedDice};
use barsoom::games::wom::battle::battle::Status;
use barsoom::games::wom::battle::tables::PARTS;

use crate::common;
use crate::wom_battle_field::assert_field_error;
use crate::wom_battle_terrain::{
    GREEN, INFANTRY, area, battle, first_turn_without_contact as first_move, holder,
};

/// Formed human cavalry: 15" normal move, 24" charge.
const CAVALRY: &str = "troop = \"human-cavalry\"\nclass = \"regulars\"\nfigures = 10";

#[test]
fn rough_ground_slows_formed_foot_three_inches_and_cavalry_six() {
    // [TERRAIN EFFECTS ON MOVEMENT: Rough Ground] a strip of rough ground
    // from y = 5 to 10, a holder far off at y = 50.
    let dir = tempfile::tempdir().unwrap();
    let rough = area("rough-ground", [0.0, 5.0], [60.0, 10.0]);
    let at = "at = [30, 0]";
    let cases = [
        // Formed foot: 9 - 3.
        (format!("{INFANTRY}\n{at}"), 6.0, 9.0),
        // Foot in skirmish order: the text slows formed foot only (ours).
        (
            format!("{INFANTRY}\n{at}\nformation = \"skirmish\""),
            12.0,
            12.0,
        ),
        // Cavalry: 15 - 6.
        (format!("{CAVALRY}\n{at}"), 9.0, 15.0),
    ];
    for (unit, on_rough, on_flat) in cases {
        let m = battle(dir.path(), &unit, &holder(50.0), &rough);
        assert_eq!(first_move(&m), on_rough, "{unit}");
        let m = battle(dir.path(), &unit, &holder(50.0), "");
        assert_eq!(first_move(&m), on_flat, "{unit}");
    }
}

#[test]
fn cavalry_charging_across_rough_ground_stumble_on_a_2_or_12() {
    // 3 green cavalry (30" charge, 18" normal) 20" from a holder with a
    // strip of rough ground between: 20 <= 30 - 6, they charge home, and
    // each figure rolls 2d6: 2 and 12 stumble, its rider stunned 6 turns.
    let dir = tempfile::tempdir().unwrap();
    let riders = "troop = \"green-cavalry\"\nclass = \"green-men\"\nfigures = 3\nat = [30, 0]";
    let rough = area("rough-ground", [0.0, 5.0], [60.0, 15.0]);
    let m = battle(dir.path(), riders, &holder(20.0), &rough);
    let mut st = m.initial_state();
    // Totals 2, 7, 12: two stunned.
    let mut dice = ScriptedDice::new(&[1, 1, 3, 4, 6, 6]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert!(dice.all_used());
    let attack = st.units[0][0].attack.expect("charged home");
    assert!(attack.charged);
    assert_eq!(
        (st.units[0][0].stunned, st.units[0][0].stunned_until),
        (2, 6)
    );
    // Only the one rider left fights: 1 green cavalry figure on
    // shieldless infantry, 3 per 3 + 1 charging = 4 per 3: 1-1/3.
    assert_eq!(m.contact(&st, 0, 0, &attack).0, 1);
    assert_eq!(
        (st.units[1][0].casualties, st.units[1][0].parts),
        (1, PARTS / 3)
    );
    // Across the same ground at a walk (a holder 26" off: out of charge
    // reach after the 6" penalty), nobody stumbles and no dice are rolled.
    let m = battle(dir.path(), riders, &holder(26.0), &rough);
    let mut st = m.initial_state();
    m.turn(&mut st, &mut ScriptedDice::new(&[]), &mut NoTrace);
    assert_eq!(st.units[0][0].pos[1], 12.0);
    assert_eq!(st.units[0][0].stunned, 0);
}

#[test]
fn broken_ground_allows_no_formed_and_no_charge_moves() {
    // [TERRAIN EFFECTS ON MOVEMENT: Broken Ground].
    let dir = tempfile::tempdir().unwrap();
    // Formed infantry halts where it begins, 5" on.
    let broken = area("broken-ground", [0.0, 5.0], [60.0, 10.0]);
    let formed = format!("{INFANTRY}\nat = [30, 0]");
    let m = battle(dir.path(), &formed, &holder(40.0), &broken);
    assert_eq!(first_move(&m), 5.0);
    // Green infantry 15" from a holder on broken ground: on the flat it
    // charges (18"); here it walks its 12" (no penalty).
    let green = format!("{GREEN}\nat = [30, 5]");
    let around_holder = area("broken-ground", [0.0, 15.0], [60.0, 40.0]);
    let m = battle(dir.path(), &green, &holder(20.0), &around_holder);
    assert_eq!(first_move(&m), 17.0);
}

#[test]
fn mountains_halve_every_move_and_allow_no_charge() {
    // [TERRAIN EFFECTS ON MOVEMENT: Mountains] formed infantry 12" from a
    // holder: on the flat it charges home; in mountains it makes half its
    // 9" normal move.
    let dir = tempfile::tempdir().unwrap();
    let attacker = format!("{INFANTRY}\nat = [30, 6]");
    let mountains = area("mountains", [0.0, 0.0], [60.0, 60.0]);
    let m = battle(dir.path(), &attacker, &holder(18.0), &mountains);
    assert_eq!(first_move(&m), 10.5);
}

#[test]
fn a_retreat_is_slowed_or_stopped_by_the_terrain_behind() {
    // [MORALE TABLE] a unit that fails its check retreats a full move. The
    // holder (facing down the table at y = 30) is charged from the front:
    // 10 regulars, 3 + 1 = 4 casualties; it strikes back 3. The attacker
    // checks first (30%: 9 + 1 attacking, 1 + 1, steady), then the holder
    // (40%: 6 + 6, fails) and falls back 9" up the table: to y = 39 in the
    // open, 4.5" in mountains, and a formed unit halts at trees 2" behind.
    let dir = tempfile::tempdir().unwrap();
    let attacker = format!("{INFANTRY}\nat = [30, 21]");
    let cases = [
        (String::new(), 39.0),
        (area("mountains", [0.0, 31.0], [60.0, 60.0]), 34.5),
        (area("woods", [0.0, 32.0], [60.0, 60.0]), 32.0),
    ];
    for (terrain, y) in cases {
        let m = battle(dir.path(), &attacker, &holder(30.0), &terrain);
        let mut st = m.initial_state();
        let mut dice = ScriptedDice::new(&[1, 1, 6, 6]);
        m.turn(&mut st, &mut dice, &mut NoTrace);
        assert!(dice.all_used());
        assert_eq!(st.units[1][0].status, Status::Retreating(2), "{terrain}");
        assert_eq!(st.units[1][0].pos[1], y, "{terrain}");
    }
}

#[test]
fn the_new_kinds_data_errors_are_one_line() {
    // A data folder whose rough ground stumbles on 13, or gives no
    // stunned turns: one line naming the file, the field and what was
    // expected (exit 2).
    let cases = [
        (
            "stumble = [2, 12]",
            "stumble = [2, 13]",
            "terrain.kinds[6].stumble",
            "expected 2d6 totals (2 to 12), found 13",
        ),
        (
            "stunned_turns = 6",
            "stunned_turns = 0",
            "terrain.kinds[6].stunned_turns",
            "expected 1 to 60 turns with stumble totals",
        ),
    ];
    for (good, bad, field, message) in cases {
        let dir = tempfile::tempdir().unwrap();
        let scenario = common::copy_scenario_with_data(
            "wom/battle/heliumite-horse-turns-the-zodangan-flank.toml",
            "wom/data",
            dir.path(),
        );
        let tables = dir.path().join("data/battle-tables.toml");
        let text = std::fs::read_to_string(&tables).expect("tables");
        assert!(text.contains(good), "{good}");
        std::fs::write(&tables, text.replace(good, bad)).expect("write");
        let p = scenario.to_str().unwrap();
        common::assert_bad_input(
            &["run", p, "-n", "10"],
            dir.path(),
            &["battle-tables.toml", field, message],
        );
    }
}

#[test]
fn a_formation_change_costs_half_a_move() {
    // [FORMATIONS] a change of formation costs half a normal move. Formed
    // infantry marches 3" to a waypoint where it is ordered into skirmish
    // order, then goes on through woods 2" further (3" penalty): the turn
    // of the change it moves half of 12", less 3 (y 3 to 6), then 12 - 3
    // (to 15). The same men skirmishing from the start go 12 - 3 at once
    // (to 12), then 12 clear of the woods (to 24).
    let dir = tempfile::tempdir().unwrap();
    let woods = area("woods", [0.0, 5.0], [60.0, 10.0]);
    let reforming = format!("{INFANTRY}\nat = [30, 0]\nvia = [30, 3]\nreform = \"skirmish\"");
    let skirmishing = format!("{INFANTRY}\nat = [30, 0]\nvia = [30, 3]\nformation = \"skirmish\"");
    for (unit, ys) in [
        (reforming, [3.0, 6.0, 15.0]),
        (skirmishing, [3.0, 12.0, 24.0]),
    ] {
        let m = battle(dir.path(), &unit, &holder(50.0), &woods);
        let mut st = m.initial_state();
        for (turn, y) in ys.into_iter().enumerate() {
            m.turn(&mut st, &mut ScriptedDice::new(&[]), &mut NoTrace);
            assert_eq!(st.units[0][0].pos[1], y, "{unit}: turn {}", turn + 1);
        }
        assert!(st.units[0][0].skirmish);
    }
}

#[test]
fn formation_change_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let b = format!("{INFANTRY}\nat = [10, 20]");
    let cases = [
        (
            format!("{INFANTRY}\nat = [10, 0]\nreform = \"skirmish\""),
            "expected a waypoint (via) to change formation at",
        ),
        (
            format!("{GREEN}\nat = [10, 0]\nvia = [10, 5]\nreform = \"formed\""),
            "green-infantry always skirmish",
        ),
        (
            format!("{INFANTRY}\nat = [10, 0]\nvia = [10, 5]\nreform = \"column\""),
            "expected \"formed\" or \"skirmish\", found \"column\"",
        ),
    ];
    for (i, (a, message)) in cases.iter().enumerate() {
        assert_field_error(
            dir.path(),
            i,
            "table = [30, 20]",
            [a.as_str(), b.as_str()],
            "",
            ["sides[0].units[0].reform", *message],
        );
    }
}
