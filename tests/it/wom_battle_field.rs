//! `wom.battle` on a field: the one-axis scenarios as the special case of
//! two facing lines, contact and the side attacked following from where
//! the units meet [MELEE: Flank Attack, Rear Attack], waypoints, and the
//! field's one-line errors.

use barsoom::games::ScenarioModel;
use std::path::{Path, PathBuf};

use barsoom::engine::{Dice, NoTrace, RunConfig, ScriptedDice, run};
use barsoom::games::wom::battle::battle::{Approach, Status, WomBattle};
use barsoom::games::wom::battle::tables::PARTS;

use crate::common;

fn load(path: &Path) -> WomBattle {
    match WomBattle::load(path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

/// A field scenario of one unit a side on a `table`.
fn field_of_units(dir: &Path, table: &str, first: &str, second: &str) -> (PathBuf, WomBattle) {
    let path = common::write_scenario(
        dir,
        "field",
        "wom.battle",
        &common::wom_data(),
        &format!(
            "table = {table}\nmax_turns = 20\n\
             [[sides]]\nname = \"A\"\n[[sides.units]]\nname = \"a\"\n{first}\n\
             [[sides]]\nname = \"B\"\n[[sides.units]]\nname = \"b\"\n{second}\n"
        ),
    );
    let model = load(&path);
    (path, model)
}

const INFANTRY: &str = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 10";
/// Guards with their commander and a personality: steady 13, so no flank
/// or rear check sends them back (at worst disorganised on a 12).
const STEADY: &str = "troop = \"human-infantry\"\nclass = \"guards\"\nfigures = 10\n\
                      commander = true\npersonality = { name = \"Xodar\", level = 11 }";

#[test]
fn a_one_axis_scenario_is_the_field_with_two_facing_lines() {
    // The Zodangan scenario written out as a field: the same units on two
    // lines 36" apart across a 40" table, fronts centred on x = 20. The
    // one-axis model is this special case: tallies identical to the bit.
    let bundled = common::bundled("wom/battle/zodangan-levies-receive-green-cavalry.toml");
    let text = std::fs::read_to_string(&bundled).expect("bundled scenario");
    let data = common::wom_data().display().to_string();
    let mut field = text.replace(
        "distance = 36",
        &format!("table = [40, 36]\ndata = {data:?}"),
    );
    let mut side = 0;
    let mut out = String::new();
    for line in field.lines() {
        out.push_str(line);
        out.push('\n');
        if line.starts_with("[[sides]]") {
            side += 1;
        }
        if line.starts_with("[[sides.units]]") {
            out.push_str(if side == 1 {
                "at = [20, 0]\n"
            } else {
                "at = [20, 36]\n"
            });
        }
    }
    field = out;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zodanga-field.toml");
    std::fs::write(&path, field).expect("write");
    let on_field = load(&path);
    let one_axis = load(&bundled);
    let config = RunConfig::new(5, 3000);
    let a = run(&one_axis, &config, None).expect("run");
    let b = run(&on_field, &config, None).expect("run");
    assert_eq!(a, b);
    assert!(
        a.outcomes[0] > 0 && a.outcomes[1] > 0,
        "both sides win some"
    );
}

#[test]
fn the_side_attacked_follows_from_where_the_attacker_meets_the_defender() {
    // The defender holds at (30, 30) facing down the table: 10 figures,
    // 5" of front (x 27.5 to 32.5), 1/2" deep (y 30 to 30.5). An attacker
    // 9" away marches (formed infantry: 9" normal, 15" charge) and charges.
    let dir = tempfile::tempdir().unwrap();
    let holder = format!("{STEADY}\nat = [30, 30]\nfacing = 180\nstance = \"hold\"");
    let cases = [
        // From ahead of its front, facing up the table.
        ("at = [30, 21]\nfacing = 0", Approach::Front),
        // From its left side (x below 27.5), facing across the table.
        ("at = [18.5, 30.25]\nfacing = 90", Approach::Flank),
        // From behind its rear, facing down the table like it.
        ("at = [30, 39.5]\nfacing = 180", Approach::Rear),
    ];
    for (place, side) in cases {
        let attacker = format!("{INFANTRY}\n{place}");
        let (_, m) = field_of_units(dir.path(), "[60, 60]", &attacker, &holder);
        let mut st = m.initial_state();
        let mut dice = Dice::for_trial(1, 0);
        m.turn(&mut st, &mut dice, &mut NoTrace);
        let attack = st.units[0][0].attack.expect("in contact after one charge");
        assert_eq!(attack.approach, side, "{place}");
        assert!(attack.charged, "9\" is within the 15\" charge");
        if side == Approach::Front {
            // Face to face: the holder strikes back from the first round.
            assert!(st.units[0][0].casualties > 0 || st.units[0][0].parts > 0);
        } else if side == Approach::Rear {
            // Rear: doubled and unanswered in the first round.
            assert_eq!((st.units[0][0].casualties, st.units[0][0].parts), (0, 0));
            // 10 infantry on shieldless infantry: 3, +1 charging = 4,
            // doubled = 8 (+2 more if a 12 left the holder disorganised).
            let lost = st.units[1][0].casualties;
            assert!(lost == 8 || lost == 10, "{place}: {lost}");
        } else {
            // Flank: unanswered, doubled, but only the stand at the end of
            // the attacker's front touches the holder's 1/2" deep flank
            // [MELEE: only touching stands fight]: 1 figure, 0.4 doubled
            // (0.5 if a 12 left the holder disorganised).
            assert_eq!((st.units[0][0].casualties, st.units[0][0].parts), (0, 0));
            let b = &st.units[1][0];
            let lost = u64::from(b.casualties) * PARTS + b.parts;
            assert!(lost == PARTS * 8 / 10 || lost == PARTS, "{place}: {lost}");
        }
    }
}

#[test]
fn a_waypoint_brings_a_column_round_onto_the_flank() {
    // The attacker starts straight ahead of the holder, but is ordered to
    // march first to a point level with the holder's left side: from there
    // it turns on the nearest part of the holder, its flank.
    let dir = tempfile::tempdir().unwrap();
    let holder = format!("{STEADY}\nat = [30, 30]\nfacing = 180\nstance = \"hold\"");
    let attacker = format!("{STEADY}\nat = [30, 12]\nvia = [20, 30.25]");
    let (_, m) = field_of_units(dir.path(), "[60, 60]", &attacker, &holder);
    let mut st = m.initial_state();
    let mut dice = Dice::for_trial(3, 0);
    for _ in 0..4 {
        m.turn(&mut st, &mut dice, &mut NoTrace);
        if st.units[0][0].attack.is_some() {
            break;
        }
    }
    assert!(st.units[0][0].via_done, "it reached its waypoint");
    let attack = st.units[0][0].attack.expect("it reached the holder");
    assert_eq!(attack.approach, Approach::Flank);
    // Straight ahead without the waypoint, the same unit hits the front.
    let attacker = format!("{STEADY}\nat = [30, 12]");
    let (_, m) = field_of_units(dir.path(), "[60, 60]", &attacker, &holder);
    let mut st = m.initial_state();
    for _ in 0..4 {
        m.turn(&mut st, &mut dice, &mut NoTrace);
        if st.units[0][0].attack.is_some() {
            break;
        }
    }
    assert_eq!(
        st.units[0][0].attack.map(|a| a.approach),
        Some(Approach::Front)
    );
}

/// Regulars holding at (30, 30) facing down the table, charged from the
/// front by one unit of regulars and, if `rear`, from behind by another.
fn front_and_rear(dir: &Path, rear: bool) -> WomBattle {
    let behind = if rear {
        format!("[[sides.units]]\nname = \"a2\"\n{INFANTRY}\nat = [30, 39.5]\nfacing = 180\n")
    } else {
        String::new()
    };
    let path = common::write_scenario(
        dir,
        "surround",
        "wom.battle",
        &common::wom_data(),
        &format!(
            "table = [60, 60]\n\
             [[sides]]\nname = \"A\"\n[[sides.units]]\nname = \"a1\"\n{INFANTRY}\nat = [30, 21]\n{behind}\
             [[sides]]\nname = \"B\"\n[[sides.units]]\nname = \"b\"\n{INFANTRY}\n\
             at = [30, 30]\nfacing = 180\nstance = \"hold\"\n"
        ),
    );
    load(&path)
}

#[test]
fn surrounded_in_the_open_checks_at_minus_three_and_surrenders_if_it_breaks() {
    // [MORALE: surrounded in the open; MORALE TABLE]: charged front and
    // rear in one turn, the regulars (steady 9, disorganised 10) check at
    // rear -2 and surrounded -3: steady on 4 or less, disorganised on 5.
    let dir = tempfile::tempdir().unwrap();
    let m = front_and_rear(dir.path(), true);
    let mut st = m.initial_state();
    // 6 + 6 = 12: it breaks with no way out and is taken prisoner.
    let mut dice = ScriptedDice::new(&[6, 6]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert!(dice.all_used());
    assert!(st.units[1][0].surrounded);
    assert_eq!(st.units[1][0].status, Status::Surrendered);
    // The rear penalty lasts the turn of the attack; the -3 stays with it.
    assert_eq!(m.morale_modifier(&st, 1, 0), -3);
    // 2 + 2 = 4: steady; then the front attacker's 3 + 1 charging and the
    // rear attacker's doubled 8 destroy its 10 figures, while it strikes
    // back at the front only: 3 casualties (the 25% check: 1 + 1, steady).
    let mut st = m.initial_state();
    let mut dice = ScriptedDice::new(&[2, 2, 1, 1]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert!(dice.all_used());
    assert_eq!(st.units[1][0].status, Status::Destroyed);
    assert_eq!(st.units[0][0].casualties, 3);
    assert_eq!(st.units[0][1].casualties, 0);
    // Charged from the front alone it is not surrounded: no check before
    // the melee; after it, both pass 25% casualties (3 and 4 of 10) and
    // check, attacker first: 1 + 1, 1 + 1, steady.
    let m = front_and_rear(dir.path(), false);
    let mut st = m.initial_state();
    let mut dice = ScriptedDice::new(&[1, 1, 1, 1]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert!(dice.all_used());
    assert!(!st.units[1][0].surrounded);
    assert_eq!(st.units[1][0].casualties, 4);
    assert_eq!(st.units[1][0].status, Status::Active);
}

#[test]
fn a_half_move_then_a_normal_move_lets_a_unit_charge_again() {
    // [MOVEMENT: Charge Movement] option 2. Formed infantry (9" normal,
    // 15" charge) that has charged three turns running must rest. It
    // marches 4" to a waypoint (at most half of 9"), then 9" toward a
    // holder 21" further on: rested, it charges the last 12" on turn 3.
    // Without the half move (a 9" then 9" march), it is still tired.
    let dir = tempfile::tempdir().unwrap();
    let holder = format!("{STEADY}\nat = [30, 25]\nfacing = 180\nstance = \"hold\"");
    for (via, rested) in [("[30, 4]", true), ("[30, 9]", false)] {
        let far = if rested { 25.0 } else { 30.0 };
        let holder = holder.replace("[30, 25]", &format!("[30, {far}]"));
        let attacker = format!("{STEADY}\nat = [30, 0]\nvia = {via}");
        let (_, m) = field_of_units(dir.path(), "[60, 60]", &attacker, &holder);
        let mut st = m.initial_state();
        st.units[0][0].must_rest = true;
        st.units[0][0].charge_streak = 3;
        let mut dice = Dice::for_trial(1, 0);
        m.turn(&mut st, &mut dice, &mut NoTrace);
        m.turn(&mut st, &mut dice, &mut NoTrace);
        assert_eq!(st.units[0][0].must_rest, !rested, "via {via}");
        m.turn(&mut st, &mut dice, &mut NoTrace);
        let charged = st.units[0][0].attack.is_some_and(|a| a.charged);
        assert_eq!(charged, rested, "via {via}");
    }
}

#[test]
fn units_fire_only_inside_their_arc_of_fire() {
    // [MISSILES: Arc of Fire] foot 45 degrees left or right, mounted 135
    // left and 45 right. Rifles holding at (30, 10) facing up the table;
    // their target holds level with them, 20" to one side.
    let dir = tempfile::tempdir().unwrap();
    let rifles = |troop: &str| {
        format!(
            "troop = \"{troop}\"\nclass = \"regulars\"\nfigures = 10\nmissile = \"rifle\"\n\
             stance = \"hold\"\nat = [30, 10]"
        )
    };
    let beside = |x: f64| format!("{INFANTRY}\nat = [{x}, 10.5]\nfacing = 90\nstance = \"hold\"");
    let volleys = |first: &str, second: &str| {
        let (_, m) = field_of_units(dir.path(), "[60, 60]", first, second);
        let mut st = m.initial_state();
        m.turn(&mut st, &mut Dice::for_trial(1, 0), &mut NoTrace);
        st.units[0][0].volleys
    };
    // Foot: nothing to the right or the left; ahead, two volleys.
    assert_eq!(volleys(&rifles("human-infantry"), &beside(50.0)), 0);
    assert_eq!(volleys(&rifles("human-infantry"), &beside(10.0)), 0);
    let ahead = format!("{INFANTRY}\nat = [30, 30]\nfacing = 180\nstance = \"hold\"");
    assert_eq!(volleys(&rifles("human-infantry"), &ahead), 2);
    // Mounted: to the left, yes; to the right, no.
    assert_eq!(volleys(&rifles("human-cavalry"), &beside(10.0)), 2);
    assert_eq!(volleys(&rifles("human-cavalry"), &beside(50.0)), 0);
}

#[test]
fn a_holding_unit_turns_to_face_a_target_on_its_flank_then_fires() {
    // [MISSILES: Arc of Fire] and our cost of a turn: 10 foot rifles hold
    // at (30, 10) facing up the table; 40 regulars stand 20" to their
    // right, outside the foot arc of 45 degrees. Turn 1: the rifles turn
    // to face them, which is their move, so they do not fire [MISSILES:
    // Split Move and Fire]. Turn 2: standing, they fire twice [MISSILES:
    // Rate of Fire], beginning and end: 10 firers x 5 per 10 (rifle at
    // human infantry, MISSILE FIRE TABLE) = 5 figures a volley, 10 in
    // all: 25% of 40, one morale check, 1 + 1 (steady).
    let dir = tempfile::tempdir().unwrap();
    let rifles = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 10\n\
                  missile = \"rifle\"\nstance = \"hold\"\nat = [30, 10]";
    let flank = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 40\n\
                 at = [50, 10.5]\nfacing = 270\nstance = \"hold\"";
    let (_, m) = field_of_units(dir.path(), "[80, 60]", rifles, flank);
    let mut st = m.initial_state();
    let mut dice = ScriptedDice::new(&[]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    let rifles = st.units[0][0];
    assert_eq!(rifles.volleys, 0);
    assert!(rifles.moved);
    assert_eq!(rifles.pos, [30.0, 10.0], "a turn in place");
    assert!(rifles.facing[0] > 0.99, "faces right: {:?}", rifles.facing);
    assert_eq!(st.units[1][0].casualties, 0);
    let mut dice = ScriptedDice::new(&[1, 1]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert!(dice.all_used());
    assert_eq!(st.units[0][0].volleys, 2);
    assert!(!st.units[0][0].moved);
    assert_eq!(st.units[1][0].casualties, 10);
    assert_eq!(st.units[1][0].status, Status::Active);
}

#[test]
fn field_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let b = format!("{INFANTRY}\nat = [10, 20]");
    let cases = [
        (
            "table = [30, 20]",
            format!("{INFANTRY}\nat = [40, 0]"),
            "sides[0].units[0].at",
            "expected a point on the table",
        ),
        (
            "table = [0, 20]",
            format!("{INFANTRY}\nat = [1, 0]"),
            "table[0]",
            "expected the table's width",
        ),
        (
            "table = [30, 20]",
            format!("{INFANTRY}\nat = [10, 0]\nattack = \"flank\""),
            "sides[0].units[0].attack",
            "front, flank or rear follow from where units meet",
        ),
        (
            "table = [30, 20]",
            format!("{INFANTRY}\nat = [10, 0]\nvia = [10, -5]"),
            "sides[0].units[0].via",
            "expected a point on the table",
        ),
        (
            "table = [30, 20]",
            format!("{INFANTRY}\nat = [10, 0]\nfacing = 400"),
            "sides[0].units[0].facing",
            "expected degrees",
        ),
        (
            "table = [30, 20]",
            INFANTRY.to_string(),
            "sides[0].units[0].at",
            "expected the unit's place",
        ),
        (
            "distance = 20",
            format!("{INFANTRY}\nat = [10, 0]"),
            "sides[0].units[0].at",
            "expected a field scenario (table)",
        ),
    ];
    for (i, (table, a, field, message)) in cases.iter().enumerate() {
        let other = if table.starts_with("distance") {
            INFANTRY.to_string()
        } else {
            b.clone()
        };
        let units = [a.as_str(), other.as_str()];
        assert_field_error(dir.path(), i, table, units, "", [*field, *message]);
    }
}

/// Writes a scenario of `head`, one unit a side (`units`) and `tail`, and
/// checks that `barsoom run` refuses it in one line naming the file and
/// both of `expected` (the field and what was expected).
pub(crate) fn assert_field_error(
    dir: &Path,
    i: usize,
    head: &str,
    units: [&str; 2],
    tail: &str,
    expected: [&str; 2],
) {
    let [a, b] = units;
    let path = common::write_scenario(
        dir,
        &format!("bad{i}"),
        "wom.battle",
        &common::wom_data(),
        &format!(
            "{head}\n[[sides]]\nname = \"A\"\n[[sides.units]]\nname = \"a\"\n{a}\n\
             [[sides]]\nname = \"B\"\n[[sides.units]]\nname = \"b\"\n{b}\n{tail}"
        ),
    );
    let p = path.to_str().unwrap();
    let [field, message] = expected;
    common::assert_bad_input(&["run", p, "-n", "10"], dir, &[p, field, message]);
}
