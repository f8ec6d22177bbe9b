//! `wom.battle` terrain: hills, trees and cover laid out as `[[terrain]]`
//! areas, each effect worked by hand [TERRAIN EFFECTS ON MOVEMENT: Hills,
//! Trees; TERRAIN EFFECTS UPON MISSILES; MISSILE FIRE TABLE adjustments],
//! and the terrain's one-line errors.

use barsoom::games::ScenarioModel;
use std::path::Path;

use barsoom::engine::{Dice, NoTrace, ScriptedDice};
use barsoom::games::wom::battle::battle::WomBattle;
use barsoom::games::wom::battle::tables::PARTS;

use crate::common;
use crate::wom_battle_field::assert_field_error;

/// A field of one unit a side on a 60" square table, with `terrain`
/// (TOML `[[terrain]]` tables, or nothing).
pub(crate) fn battle(dir: &Path, first: &str, second: &str, terrain: &str) -> WomBattle {
    let path = common::write_scenario(
        dir,
        "terrain",
        "wom.battle",
        &common::wom_data(),
        &format!(
            "table = [60, 60]\nmax_turns = 20\n\
             [[sides]]\nname = \"A\"\n[[sides.units]]\nname = \"a\"\n{first}\n\
             [[sides]]\nname = \"B\"\n[[sides.units]]\nname = \"b\"\n{second}\n{terrain}"
        ),
    );
    match WomBattle::load(&path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

pub(crate) fn area(kind: &str, from: [f64; 2], to: [f64; 2]) -> String {
    format!(
        "[[terrain]]\nkind = \"{kind}\"\nfrom = [{}, {}]\nto = [{}, {}]\n",
        from[0], from[1], to[0], to[1]
    )
}

/// Formed human infantry: 9" normal move, 15" charge.
pub(crate) const INFANTRY: &str = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 10";
/// Green infantry (always skirmishing): 12" normal move, 18" charge.
pub(crate) const GREEN: &str = "troop = \"green-infantry\"\nclass = \"green-men\"\nfigures = 10";
/// A holder facing down the table at (30, y).
pub(crate) fn holder(y: f64) -> String {
    format!("{INFANTRY}\nat = [30, {y}]\nfacing = 180\nstance = \"hold\"")
}

/// Plays the first turn with no dice to roll (nobody reaches anybody);
/// returns where the first side's unit ends (y) and whether it attacks.
pub(crate) fn first_turn_without_contact(m: &WomBattle) -> f64 {
    let mut st = m.initial_state();
    let mut dice = ScriptedDice::new(&[]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert!(dice.all_used());
    assert!(st.units[0][0].attack.is_none(), "no contact");
    st.units[0][0].pos[1]
}

/// Plays the first turn; whether the first side's unit charged into contact.
fn charges_home(m: &WomBattle) -> bool {
    let mut st = m.initial_state();
    let mut dice = Dice::for_trial(1, 0);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    st.units[0][0].attack.is_some_and(|a| a.charged)
}

#[test]
fn uphill_costs_three_inches_and_can_stop_a_charge_short() {
    // [TERRAIN EFFECTS ON MOVEMENT: Hills] movement uphill is at -3".
    // Formed infantry 13" from a holder: on the flat it charges home
    // (13 <= 15). With the holder on a hill starting 8" ahead, the charge
    // would be 15 - 3 = 12": too short, so it makes a normal move of
    // 9 - 3 = 6" instead.
    let dir = tempfile::tempdir().unwrap();
    let attacker = format!("{INFANTRY}\nat = [30, 17]");
    let flat = battle(dir.path(), &attacker, &holder(30.0), "");
    assert!(charges_home(&flat));
    let hill = area("hill", [0.0, 25.0], [60.0, 50.0]);
    let m = battle(dir.path(), &attacker, &holder(30.0), &hill);
    assert_eq!(first_turn_without_contact(&m), 23.0);
    // 12" away, the 12" left of the charge still reach.
    let attacker = format!("{INFANTRY}\nat = [30, 18]");
    let m = battle(dir.path(), &attacker, &holder(30.0), &hill);
    assert!(charges_home(&m));
    // A move that stays short of the hill pays nothing: 9" from 0.
    let attacker = format!("{INFANTRY}\nat = [30, 0]");
    let m = battle(dir.path(), &attacker, &holder(30.0), &hill);
    assert_eq!(first_turn_without_contact(&m), 9.0);
}

#[test]
fn charges_leave_a_hill_only_down_a_gentle_slope() {
    // [TERRAIN EFFECTS ON MOVEMENT: Hills] charges downhill are permitted
    // only on very gentle slopes. Formed infantry on a hill, 12" from a
    // holder below it: down a gentle hill it charges home; down a steep
    // one it walks its 9" (no uphill penalty going down).
    let dir = tempfile::tempdir().unwrap();
    let attacker = format!("{INFANTRY}\nat = [30, 10]");
    for (kind, charges) in [("gentle-hill", true), ("hill", false)] {
        let slope = area(kind, [0.0, 0.0], [60.0, 12.0]);
        let m = battle(dir.path(), &attacker, &holder(22.0), &slope);
        if charges {
            assert!(charges_home(&m), "{kind}");
        } else {
            assert_eq!(first_turn_without_contact(&m), 19.0, "{kind}");
        }
    }
    // Charging along the top of a steep hill is allowed.
    let plateau = area("hill", [0.0, 0.0], [60.0, 40.0]);
    let m = battle(dir.path(), &attacker, &holder(22.0), &plateau);
    assert!(charges_home(&m));
}

#[test]
fn formed_units_halt_at_trees_and_skirmishers_go_through_three_inches_slower() {
    // [TERRAIN EFFECTS ON MOVEMENT: Trees] a formed unit stops where the
    // trees begin; a unit in open order crosses them 3" slower.
    let dir = tempfile::tempdir().unwrap();
    let woods = area("woods", [0.0, 5.0], [60.0, 10.0]);
    // Formed infantry from y = 0 halts at the edge, 5" on.
    let formed = format!("{INFANTRY}\nat = [30, 0]");
    let m = battle(dir.path(), &formed, &holder(40.0), &woods);
    assert_eq!(first_turn_without_contact(&m), 5.0);
    // The same men in skirmish order (12" normal, no charge) go 12 - 3.
    let skirmish = format!("{formed}\nformation = \"skirmish\"");
    let m = battle(dir.path(), &skirmish, &holder(40.0), &woods);
    assert_eq!(first_turn_without_contact(&m), 9.0);
    let m = battle(dir.path(), &skirmish, &holder(40.0), "");
    assert_eq!(first_turn_without_contact(&m), 12.0);
}

#[test]
fn no_charge_into_trees_but_units_may_charge_out_of_them() {
    // [TERRAIN EFFECTS ON MOVEMENT: Trees] a charge may leave woods but
    // never enter or cross them. Green infantry 15" from a holder
    // (18" charge): the holder standing in woods cannot be charged (a
    // normal move of 12 - 3 = 9" instead); from inside woods the green
    // men charge out and home (15 <= 18 - 3).
    let dir = tempfile::tempdir().unwrap();
    let attacker = format!("{GREEN}\nat = [30, 5]");
    let flat = battle(dir.path(), &attacker, &holder(20.0), "");
    assert!(charges_home(&flat));
    let around_holder = area("woods", [0.0, 15.0], [60.0, 40.0]);
    let m = battle(dir.path(), &attacker, &holder(20.0), &around_holder);
    assert_eq!(first_turn_without_contact(&m), 14.0);
    let around_attacker = area("woods", [0.0, 0.0], [60.0, 8.0]);
    let m = battle(dir.path(), &attacker, &holder(20.0), &around_attacker);
    assert!(charges_home(&m));
    // 16" away the penalty leaves the charge 1" short: a 9" move.
    let m = battle(dir.path(), &attacker, &holder(21.0), &around_attacker);
    assert_eq!(first_turn_without_contact(&m), 14.0);
}

/// Rifles holding at (30, 10) facing up the table, 20 figures `front`
/// wide, against a holder at (30, 30).
fn rifles(front: u32) -> String {
    format!(
        "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 20\nfront = {front}\n\
         missile = \"rifle\"\nstance = \"hold\"\nat = [30, 10]"
    )
}

#[test]
fn cover_from_terrain_cuts_missile_casualties() {
    // [MISSILE FIRE TABLE adjustments] soft cover such as vegetation -25%,
    // hard cover such as stone walls -50%. 20 rifles on human infantry kill
    // 5 per 10: 10 figures (4,800 parts); in woods 7.5, behind walls 5.
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("", 10 * PARTS),
        (
            area("woods", [0.0, 25.0], [60.0, 35.0]).as_str(),
            15 * PARTS / 2,
        ),
        (
            area("soft-cover", [0.0, 25.0], [60.0, 35.0]).as_str(),
            15 * PARTS / 2,
        ),
        (
            area("hard-cover", [0.0, 25.0], [60.0, 35.0]).as_str(),
            5 * PARTS,
        ),
        // Cover the target is not in does nothing.
        (
            area("hard-cover", [0.0, 0.0], [60.0, 12.0]).as_str(),
            10 * PARTS,
        ),
    ]
    .map(|(t, p)| (t.to_string(), p));
    for (terrain, parts) in cases {
        let m = battle(dir.path(), &rifles(20), &holder(30.0), &terrain);
        let st = m.initial_state();
        assert_eq!(m.missile_parts(&st, 0, 0, 0, 20), parts, "{terrain}");
    }
}

#[test]
fn no_missile_fire_into_or_out_of_dense_woods() {
    // [TERRAIN EFFECTS UPON MISSILES] missile fire in dense woods is not
    // permitted. Holding rifles fire at the beginning and the end of the
    // turn: in the open their target loses figures; in dense woods (either
    // unit in them) nobody fires and no die is rolled.
    let dir = tempfile::tempdir().unwrap();
    let open = battle(dir.path(), &rifles(20), &holder(30.0), "");
    let mut st = open.initial_state();
    open.turn(&mut st, &mut Dice::for_trial(1, 0), &mut NoTrace);
    assert!(st.units[1][0].casualties > 0);
    for woods in [
        area("dense-woods", [0.0, 25.0], [60.0, 35.0]),
        area("dense-woods", [0.0, 5.0], [60.0, 15.0]),
    ] {
        let m = battle(dir.path(), &rifles(20), &holder(30.0), &woods);
        let mut st = m.initial_state();
        let mut dice = ScriptedDice::new(&[]);
        m.turn(&mut st, &mut dice, &mut NoTrace);
        assert!(dice.all_used());
        assert_eq!((st.units[1][0].casualties, st.units[1][0].parts), (0, 0));
        assert_eq!(st.units[0][0].volleys, 0);
    }
    // Open woods only give cover: the rifles fire.
    let m = battle(
        dir.path(),
        &rifles(20),
        &holder(30.0),
        &area("woods", [0.0, 25.0], [60.0, 35.0]),
    );
    let mut st = m.initial_state();
    m.turn(&mut st, &mut Dice::for_trial(1, 0), &mut NoTrace);
    assert!(st.units[0][0].volleys > 0);
}

#[test]
fn a_rank_on_higher_ground_also_fires() {
    // [TERRAIN EFFECTS UPON MISSILES] a rank standing higher than the
    // ranks ahead of it may also fire: two ranks of rifles instead of one.
    // 20 rifles 10 wide stand in two ranks 1" deep (y 9 to 10); a hill
    // under the rear rank (y up to 9.5) but not the front.
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (String::new(), 10),
        (area("hill", [0.0, 0.0], [60.0, 9.5]), 20),
        // The whole unit on the hill: no rank above another.
        (area("hill", [0.0, 0.0], [60.0, 12.0]), 10),
        // Only the front on higher ground.
        (area("gentle-hill", [0.0, 9.8], [60.0, 12.0]), 10),
    ];
    for (terrain, firers) in cases {
        let m = battle(dir.path(), &rifles(10), &holder(30.0), &terrain);
        let st = m.initial_state();
        assert_eq!(m.firers(&st, 0, 0), firers, "{terrain}");
    }
    // Bows fire two ranks; with the rear on higher ground, three.
    let bows = rifles(5).replace("\"rifle\"", "\"bow\"");
    let hill = area("hill", [0.0, 0.0], [60.0, 9.0]);
    let m = battle(dir.path(), &bows, &holder(30.0), &hill);
    assert_eq!(m.firers(&m.initial_state(), 0, 0), 15);
}

#[test]
fn terrain_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let a = format!("{INFANTRY}\nat = [10, 0]");
    let b = format!("{INFANTRY}\nat = [10, 20]");
    let cases = [
        (
            "table = [30, 20]",
            area("swamp", [0.0, 0.0], [5.0, 5.0]),
            "terrain[0].kind",
            "expected a terrain kind of battle-tables.toml [terrain] (hill, gentle-hill",
        ),
        (
            "table = [30, 20]",
            area("hill", [0.0, 0.0], [40.0, 5.0]),
            "terrain[0].to",
            "expected a corner on the table",
        ),
        (
            "table = [30, 20]",
            area("woods", [0.0, -1.0], [4.0, 5.0]),
            "terrain[0].from",
            "expected a corner on the table",
        ),
        (
            "table = [30, 20]",
            area("woods", [3.0, 5.0], [3.0, 9.0]),
            "terrain[0].to",
            "with some width and depth",
        ),
        (
            "distance = 20",
            area("hill", [0.0, 0.0], [4.0, 5.0]),
            "terrain[0].kind",
            "expected a field scenario (table) for terrain",
        ),
    ];
    for (i, (table, terrain, field, message)) in cases.iter().enumerate() {
        let (a, b) = if table.starts_with("distance") {
            (INFANTRY.to_string(), INFANTRY.to_string())
        } else {
            (a.clone(), b.clone())
        };
        assert_field_error(
            dir.path(),
            i,
            table,
            [a.as_str(), b.as_str()],
            terrain,
            [*field, *message],
        );
    }
}
