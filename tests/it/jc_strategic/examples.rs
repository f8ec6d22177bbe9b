//! The Strategic Game's worked examples from the rulebook, each played
//! with scripted dice and citing its case. The list of every worked
//! example in the rulebook, with the test that reproduces each, is in
//! `docs/models/jc.strategic.md` ("Worked examples").

use barsoom::engine::NoTrace;
use barsoom::games::jc::strategic::game::CAPTIVE_QUARRY;
use barsoom::games::jc::strategic::script::Script;

use super::{enter, entry, load, set_up};
use crate::common;

/// [16.0] example: table 3 (a d6 of 3), the slaves' quarters, a 9 tells
/// the house [16.24]; the hand of fate strikes on a 4, and its 8 is a duel
/// with a master swordsman [16.28, 7.8].
#[test]
fn example_16_0_information_in_the_slaves_quarters() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    enter(&m, &mut g, 0, "zodanga");
    let cm = &m.data().city_map;
    let slaves = cm
        .areas
        .iter()
        .position(|a| a.id == "slaves")
        .expect("the slaves' quarters") as u8;
    g.heroes[0].city.area = slaves;
    let mut s = Script::default().d6s(&[3]).d10s(&[9, 4, 8]).bouts(&[true]);
    g.information_phase(&ctx, 0, &mut s, &mut NoTrace);
    assert!(s.done(), "the example's four rolls and one bout, no more");
    let h = &g.heroes[0];
    assert_eq!(h.city.knows[CAPTIVE_QUARRY], 2, "house information");
    assert_eq!(h.stats.duels, 1, "the master swordsman's bout");
    assert_eq!(g.fired[entry(&m, "information 3 slaves")], 1);
    assert_eq!(g.fired[entry(&m, "hand of fate 8")], 1);
}

/// [16.27] reconstructed by the formula its provenance gives, every cell
/// but none contradicting the example of [16.0]; the provenance names the
/// cells the text pins.
#[test]
fn the_information_chart_is_its_formula_and_names_the_pinned_cells() {
    let data = common::jc_data_toml("information-chart.toml");
    let quality = [
        ("deserted", 0),
        ("gate", 1),
        ("market", 2),
        ("slaves", 3),
        ("warriors", 2),
        ("nobles", 3),
        ("palace", 4),
    ];
    let tables = data["information"]["tables"].as_array().expect("tables");
    assert_eq!(tables.len(), 6);
    for (t, table) in tables.iter().enumerate() {
        for (area, q) in quality {
            let row = &table["rows"][area];
            let cell = |k: &str| row[k].as_integer().expect("an integer");
            let score = q + t as i64;
            let least = (10 - score).max(2);
            assert_eq!(
                [cell("area"), cell("house"), cell("room"), cell("hand_of_fate")],
                [least, (least + 3).min(11), (least + 5).min(11), q + 1],
                "table {}, {area}",
                t + 1
            );
        }
    }
    common::assert_provenance_states(
        &data,
        "information",
        &["table 3, slaves' quarters", "hand of fate number is quality + 1", "[16.0]"],
    );
    common::assert_provenance_states(&data, "hand_of_fate", &["a roll of 8", "[16.0]"]);
}
