//! Table entries that 3,000 six-hero games at seed 1 never fired
//! (`barsoom breakdown scenarios/jc/strategic/six-heroes.toml -n 3000`):
//! the thoat line of area III past its 3, and the d10 6-10 of area VIII's
//! thoat 6. The rules let them fire (any thoat rider bound for Dusar, Otz,
//! the Temple of Issus or Omean rolls on them [11.21, 11.22]); our players
//! seldom ride thoats that far south. Each is reached here with a scripted
//! game and checked for what it does. docs/models/jc.strategic.md ("Table
//! entries that seldom fire") lists them.

use barsoom::engine::NoTrace;
use barsoom::games::jc::map::{THOAT, WALK};
use barsoom::games::jc::strategic::game::{NONE, Place, Status, Transit};
use barsoom::games::jc::strategic::script::Script;

use super::{card, city, entry, load, set_up};
use barsoom::games::jc::strategic::JcStrategic;
use barsoom::games::jc::strategic::game::Game;

/// Puts hero `p` on thoats in transit from `from` to `to`, `left` of
/// `total` haads still to go.
fn ride(m: &JcStrategic, g: &mut Game, p: usize, (from, to): (&str, &str), left: u16, total: u16) {
    g.heroes[p].conveyance = THOAT;
    g.heroes[p].place = Place::Transit(Transit {
        from: city(m, from),
        to: city(m, to),
        left,
        total,
        via: NONE,
    });
}

#[test]
fn a_thoat_rider_bound_for_dusar_meets_area_iii_thoat_4_in_a_scripted_turn() {
    // Carthoris rides thoats from Greater Helium to his villain in Dusar
    // (100 haads), 30 to go (so going on is quicker than turning back for a
    // flier [9.13]): a card of 20 leaves him in transit, and area III's
    // thoat line is rolled [11.21]: a 4 is three green warriors on the open
    // display [11.24], beaten; the thoats stay (a 5, not 1-2 [11.32]).
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    let dusar = city(&m, "dusar");
    ride(&m, &mut g, 1, ("greater-helium", "dusar"), 30, 100);
    g.turn = 2;
    let mut s = Script::default()
        .cards(&[card(&m, THOAT, 20)])
        .d6s(&[4])
        .duels(&[true])
        .d10s(&[5]);
    g.player_turn(&ctx, 1, &mut s, &mut NoTrace);
    assert!(s.done(), "one card, one encounter, one duel, one bolt roll");
    assert_eq!(g.fired[entry(&m, "outdoor III thoat 4")], 1);
    assert_eq!(s.foes, vec![vec!["green-warrior".to_string(); 3]]);
    let h = &g.heroes[1];
    assert!(matches!(h.place, Place::Transit(t) if t.to == dusar && t.left == 10));
    assert_eq!((h.conveyance, h.status), (THOAT, Status::Free));
}

#[test]
fn area_iii_thoat_5_and_6_fight_befriend_and_may_cost_the_thoats() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    let dusar = city(&m, "dusar");
    // 5: a white ape, beaten; the d10's 1 is within area III's 1-2: the
    // thoats bolt and he walks on [11.32].
    ride(&m, &mut g, 1, ("greater-helium", "dusar"), 60, 100);
    let mut s = Script::default().d6s(&[5]).duels(&[true]).d10s(&[1]);
    g.outdoor_encounter(&ctx, 1, dusar, &mut s, &mut NoTrace);
    assert!(s.done());
    assert_eq!(s.foes, vec![vec!["white-ape".to_string()]]);
    assert_eq!(g.fired[entry(&m, "outdoor III thoat 5")], 1);
    assert_eq!(g.heroes[1].conveyance, WALK);
    // 6, then a d10 of 1-6 [11.22]: two red warriors, beaten; a 10 keeps
    // the thoats.
    ride(&m, &mut g, 1, ("greater-helium", "dusar"), 60, 100);
    let mut s = Script::default()
        .d6s(&[6])
        .d10s(&[4])
        .duels(&[true])
        .d10s(&[10]);
    g.outdoor_encounter(&ctx, 1, dusar, &mut s, &mut NoTrace);
    assert!(s.done());
    assert_eq!(s.foes, vec![vec!["red-warrior".to_string(); 2]]);
    assert_eq!(g.fired[entry(&m, "outdoor III thoat 6")], 1);
    assert_eq!(g.fired[entry(&m, "outdoor III thoat d10 1-6")], 1);
    assert_eq!(g.heroes[1].conveyance, THOAT);
    // 6, then 7-10: befriended [12.0]; the Encounter Friend Table's 1 is a
    // warrior of Mars, who joins him [12.14].
    let before = g.heroes[1].retinue().len();
    let mut s = Script::default().d6s(&[6]).d10s(&[9, 1]);
    g.outdoor_encounter(&ctx, 1, dusar, &mut s, &mut NoTrace);
    assert!(s.done());
    assert!(s.foes.is_empty());
    assert_eq!(g.fired[entry(&m, "outdoor III thoat d10 7-10")], 1);
    assert_eq!(g.fired[entry(&m, "encounter friend 1-3")], 1);
    assert_eq!(g.heroes[1].retinue().len(), before + 1);
    assert_eq!(g.heroes[1].status, Status::Free);
}

#[test]
fn area_viii_thoat_6_then_6_to_10_is_no_encounter() {
    // John Carter rides thoats from Dusar to Otz in the Valley Dor: the
    // thoat line's 6 rolls a d10, whose 8 (6-10) is no encounter [11.23]:
    // no duel, nothing changes.
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    let otz = city(&m, "otz");
    ride(&m, &mut g, 0, ("dusar", "otz"), 50, 120);
    let before = g.heroes[0];
    let mut s = Script::default().d6s(&[6]).d10s(&[8]);
    g.outdoor_encounter(&ctx, 0, otz, &mut s, &mut NoTrace);
    assert!(s.done());
    assert!(s.foes.is_empty());
    assert_eq!(g.fired[entry(&m, "outdoor VIII thoat 6")], 1);
    assert_eq!(g.fired[entry(&m, "outdoor VIII thoat d10 6-10")], 1);
    let h = &g.heroes[0];
    assert_eq!(
        (h.place, h.conveyance, h.status),
        (before.place, THOAT, Status::Free)
    );
    assert_eq!(h.stats.duels, before.stats.duels);
}
