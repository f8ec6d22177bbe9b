//! `wom.battle` frontage and overlapping, worked by hand with scripted
//! dice: only the stands in contact fight [MELEE: only touching stands
//! fight], the frontage shrinks as the last stands fall, the unopposed
//! stands of the wider unit wrap onto the enemy's flanks after the first
//! round [MELEE: Overlapping], and a unit attacked in the flank turns to
//! face its attacker after the unanswered round [MELEE: Flank Attack].

use barsoom::engine::{NoTrace, ScriptedDice};
use barsoom::games::ScenarioModel;
use barsoom::games::wom::battle::battle::{Approach, WomBattle};
use barsoom::games::wom::battle::field::{LEFT, RIGHT};
use barsoom::games::wom::battle::tables::PARTS;

use crate::common;
use crate::wom_battle_terrain::battle;

/// 20 guards without leaders, 10 in front (5" wide, two ranks, 1" deep),
/// holding at (30, 30) facing down the table.
const HOLDERS: &str = "troop = \"human-infantry\"\nclass = \"guards\"\nfigures = 20\n\
                       front = 10\nat = [30, 30]\nfacing = 180\nstance = \"hold\"";

#[test]
fn a_wider_unit_overlaps_and_its_unopposed_stands_wrap_onto_both_flanks() {
    // 40 regulars 20 abreast (10" of front, x 25 to 35) charge the 5"
    // front of the guards (x 27.5 to 32.5) 9" away (charge 15").
    let dir = tempfile::tempdir().unwrap();
    let wide = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 40\nfront = 20\n\
                at = [30, 21]";
    let m = battle(dir.path(), wide, HOLDERS, "");
    let mut st = m.initial_state();
    // Turn 1: only the 10 stands opposite the guards fight: 10 human
    // infantry on shieldless infantry, 3 + 1 charging = 4; the guards'
    // 10 strike back, 3 (MELEE TABLE). 4 of 20 and 3 of 40: no checks.
    let mut dice = ScriptedDice::new(&[]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    let attack = st.units[0][0].attack.expect("in contact");
    assert_eq!(attack.approach, Approach::Front);
    assert_eq!(m.contact(&st, 0, 0, &attack), (10, 10));
    assert_eq!(st.units[1][0].casualties, 4);
    assert_eq!(st.units[0][0].casualties, 3);
    assert!(st.units[0][0].wrap.is_none(), "not before the first round");
    // Turn 2, the next movement turn: the 5 unopposed stands at each end
    // wrap onto the guards' flanks. Flanked (-1) and surrounded on three
    // sides (-3), the guards check at 10 - 4 = 6: 1 + 1, steady. Then the
    // front 10 strike 3, the 10 on the flanks 3 doubled = 6; the guards
    // answer the front only: 3. 13 of 20 lost (50%: a check at 10 - 1
    // flank - 3 surrounded - 1 half casualties = 5: 1 + 1, steady).
    let mut dice = ScriptedDice::new(&[1, 1, 1, 1]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert!(dice.all_used());
    let wrap = st.units[0][0].wrap.expect("stands wrapped round");
    assert_eq!(
        (wrap.figures, wrap.sides, wrap.rounds),
        (10, LEFT | RIGHT, 1)
    );
    assert!(st.units[1][0].surrounded);
    assert_eq!(st.units[1][0].casualties, 13);
    assert_eq!(st.units[0][0].casualties, 6);
    // Frontage after losses: the guards' 7 left stand in one rank, 3.5"
    // (x 28.25 to 31.75), so 6 stands at each end of the regulars' front
    // face nobody: 8 of theirs and all 7 guards are in contact.
    let attack = st.units[0][0].attack.expect("still in melee");
    assert_eq!(m.footprint(&st, 1, 0).width, 3.5);
    assert_eq!(m.contact(&st, 0, 0, &attack), (8, 7));
    assert_eq!(m.wrap_figures(&st, 0, 0, &wrap), 10);
}

#[test]
fn an_enemy_in_the_path_stops_the_overlap() {
    // As above, but a second unit of guards stands beside the first, on
    // its right (x 22 to 27; the first's right end is at x 27.5, as it
    // faces down the table), in the path of the stands that would wrap
    // round that flank: they cannot.
    let dir = tempfile::tempdir().unwrap();
    let path = common::write_scenario(
        dir.path(),
        "blocked",
        "wom.battle",
        &common::wom_data(),
        &format!(
            "table = [60, 60]\nmax_turns = 20\n\
             [[sides]]\nname = \"A\"\n[[sides.units]]\nname = \"a\"\n\
             troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 40\nfront = 20\n\
             at = [30, 21]\ntarget = 0\n\
             [[sides]]\nname = \"B\"\n[[sides.units]]\nname = \"b\"\n{HOLDERS}\n\
             [[sides.units]]\nname = \"b2\"\n{}\n",
            HOLDERS.replace("[30, 30]", "[24.5, 30]")
        ),
    );
    let m = match WomBattle::load(&path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    };
    let mut st = m.initial_state();
    m.turn(&mut st, &mut ScriptedDice::new(&[]), &mut NoTrace);
    // Turn 2: only the 5 stands on the guards' left (x above 32.5) wrap;
    // flanked (-1), not surrounded: 10 - 1 = 9, 1 + 1 steady. The front's
    // 10 strike 3 and the 5 on the flank 1.5 doubled = 3: 4 + 6 = 10 of
    // 20, the 50% check at 10 - 1 flank - 1 half casualties = 8: 1 + 1.
    let mut dice = ScriptedDice::new(&[1, 1, 1, 1]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert!(dice.all_used());
    let wrap = st.units[0][0].wrap.expect("one side wrapped");
    assert_eq!(wrap.figures, 5);
    // The guards face down the table: their left is +x.
    assert_eq!(wrap.sides, LEFT);
    assert!(!st.units[1][0].surrounded);
    assert_eq!(st.units[1][0].casualties, 10);
}

#[test]
fn a_unit_attacked_in_the_flank_turns_to_face_its_attacker() {
    // 10 regulars (5" front) at (18.5, 30.5) facing across the table
    // charge the guards' flank 9" away. Squared up along the 1" deep
    // flank, only 2 of their stands touch it, against the end figures of
    // the guards' 2 ranks [MELEE: only touching stands fight].
    let dir = tempfile::tempdir().unwrap();
    let flankers = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 10\n\
                    at = [18.5, 30.5]\nfacing = 90";
    let m = battle(dir.path(), flankers, HOLDERS, "");
    let mut st = m.initial_state();
    // Turn 1: flanked, the guards check at 10 - 1 = 9: 1 + 1, steady.
    // 2 figures, 3 + 1 charging per 10, doubled: 1.6, unanswered.
    let mut dice = ScriptedDice::new(&[1, 1]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert!(dice.all_used());
    let attack = st.units[0][0].attack.expect("in contact");
    assert_eq!(attack.approach, Approach::Flank);
    assert_eq!(m.contact(&st, 0, 0, &attack), (2, 2));
    assert_eq!(
        (st.units[1][0].casualties, st.units[1][0].parts),
        (1, PARTS * 6 / 10)
    );
    assert_eq!(st.units[0][0].casualties, 0);
    assert_eq!(st.units[1][0].facing, [0.0, -1.0]);
    // Turn 2 (the guards move first): the unanswered round is over and
    // the flankers are their only enemy, so the guards turn to face them,
    // front to front; from now on a frontal melee, 10 against 10: 3 each
    // way (the guards' 0.6 carried). The flankers (3 of 10) check at 9 + 1 attacking: 1 + 1.
    let mut dice = ScriptedDice::new(&[1, 1]);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert!(dice.all_used());
    let attack = st.units[0][0].attack.expect("still in melee");
    assert_eq!(attack.approach, Approach::Front);
    assert_eq!(st.units[1][0].facing, [-1.0, 0.0]);
    assert_eq!(st.units[1][0].pos, st.units[0][0].pos);
    // After the round the regulars' 7 left stand in one 3.5" rank,
    // wholly against the guards' 5" front: 7 of theirs touch 8 guards.
    assert_eq!(m.contact(&st, 0, 0, &attack), (7, 8));
    assert_eq!(st.units[1][0].casualties, 4);
    assert_eq!(st.units[0][0].casualties, 3);
}
