//! `jc.strategic`: the Strategic Game. A scripted game walks through every
//! sub-sequence with fixed rolls, cards and duel results and checks the
//! state after each phase; rules tests for the tricky cases (the villain
//! never moves after his final destination, entourage limits, three
//! discoveries); a property test that every game ends with every hero in
//! one place; determinism across threads; clear errors for broken tables.

use barsoom::games::ScenarioModel;
use std::path::Path;

use barsoom::engine::{Dice, Model, NoTrace, Roll, Tally, TraceLog};
use barsoom::games::jc::deck::DeckState;
use barsoom::games::jc::duel::policy::Policy;
use barsoom::games::jc::duel::sequence::{Duel, DuelResult};
use barsoom::games::jc::event_deck::EventPiles;
use barsoom::games::jc::map::{FLIER, THOAT, WALK};
use barsoom::games::jc::strategic::JcStrategic;
use barsoom::games::jc::strategic::city::Flow;
use barsoom::games::jc::strategic::dice::Roller;
use barsoom::games::jc::strategic::game::{
    CAPTIVE_QUARRY, Context, Game, NONE, Place, Status, Transit, VILLAIN_QUARRY,
};
use barsoom::games::jc::strategic::script::Script;
use barsoom::games::jc::swordsman::{Bout, BoutResult};
use barsoom::games::jetan::players::Player as JetanPlayer;
use barsoom::scenario::{Override, with_overrides};

use crate::common;

mod examples;
mod jetan_arena;
mod rare_entries;

fn load(name: &str) -> JcStrategic {
    match JcStrategic::load(&common::bundled(&format!("jc/strategic/{name}.toml"))) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

fn load_with(name: &str, sets: &[&str]) -> Result<JcStrategic, String> {
    let overrides: Vec<Override> = sets
        .iter()
        .map(|s| Override::parse(s).expect("override"))
        .collect();
    with_overrides(&overrides, |loader| {
        JcStrategic::load_with(
            &common::bundled(&format!("jc/strategic/{name}.toml")),
            loader,
        )
    })
    .map(|(m, _)| m)
    .map_err(|e| e.to_string())
}

fn city(m: &JcStrategic, id: &str) -> u8 {
    m.data().map.city(id).expect("a city") as u8
}

fn character(m: &JcStrategic, id: &str) -> u8 {
    m.data().roster.find(id).expect("a character") as u8
}

/// The two rolls of the Destination Chart that give `id`.
fn chart_rolls(m: &JcStrategic, id: &str) -> [i32; 2] {
    let c = city(m, id);
    for (i, row) in m.data().charts.destination.iter().enumerate() {
        if let Some(j) = row.iter().position(|&x| x == c) {
            return [i as i32 + 1, j as i32 + 1];
        }
    }
    panic!("{id} is not on the Destination Chart")
}

/// A movement card whose line for `conveyance` reads exactly `haads`.
fn card(m: &JcStrategic, conveyance: u8, haads: u16) -> usize {
    m.data()
        .deck
        .line(conveyance)
        .iter()
        .position(|&h| h == haads)
        .expect("a card with that line")
}

/// The index of the area `id` of the city map.
fn area(m: &JcStrategic, id: &str) -> u8 {
    m.data()
        .city_map
        .areas
        .iter()
        .position(|a| a.id == id)
        .unwrap_or_else(|| panic!("no area {id}")) as u8
}

/// The entry number of a table entry by name.
fn entry(m: &JcStrategic, name: &str) -> usize {
    m.data()
        .entries
        .names
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no entry {name:?}"))
}

/// John Carter (Gar Nal's gang, rolled 3 [20.22], two cities) against
/// Carthoris (one city), set up with scripted rolls.
fn set_up(m: &JcStrategic) -> (Game, Script) {
    let ctx = m.context();
    let mut rolls = vec![3, 1];
    rolls.extend(chart_rolls(m, "zodanga"));
    rolls.push(1);
    rolls.extend(chart_rolls(m, "zodanga"));
    rolls.extend(chart_rolls(m, "dusar"));
    let mut s = Script::default().d10s(&rolls);
    let mut g = Game::new(&ctx, &mut s, &mut NoTrace);
    assert!(s.done(), "set-up used every scripted roll");
    // No Random Event cards in these walk-throughs (the cards have their
    // own worked examples in the library's story tests).
    g.story.piles = EventPiles::stacked(&[]);
    (g, s)
}

/// Puts hero `p` in `id` and starts his city game there.
fn enter(m: &JcStrategic, g: &mut Game, p: usize, id: &str) {
    g.heroes[p].place = Place::City(city(m, id));
    g.enter_city(&m.context(), p, &mut Script::default(), &mut NoTrace);
}

#[test]
fn set_up_follows_8_a_b_and_20() {
    let m = load("two-heroes");
    let (g, _) = set_up(&m);
    let ctx = m.context();
    let d = m.data();
    assert_eq!(g.players, 2);
    // [20.14] move order by hero; [20.13, 9.23] Lesser Helium, flier.
    assert_eq!(g.heroes[0].character, character(&m, "john-carter"));
    assert_eq!(g.heroes[1].character, character(&m, "carthoris"));
    for h in &g.heroes[..2] {
        assert_eq!(h.place, Place::City(city(&m, "lesser-helium")));
        assert_eq!(h.conveyance, FLIER);
        assert!(h.armed);
        assert_eq!(h.status, Status::Free);
    }
    // [20.34] Carthoris with Kar Komak; John Carter alone against Gar Nal.
    assert_eq!(g.heroes[1].retinue(), &[character(&m, "kar-komak")]);
    assert!(g.heroes[0].retinue().is_empty());
    // [20.22] a 3 gives Gar Nal, Fal Sivas, Rapas and Ur Jan, three red
    // men, Dejah Thoris.
    let p0 = &g.parties[0];
    assert_eq!(
        p0.villains(),
        &["gar-nal", "fal-sivas", "rapas", "ur-jan"].map(|k| character(&m, k))
    );
    assert_eq!(p0.henchmen(), &[character(&m, "red-warrior"); 3]);
    assert_eq!(p0.captive, character(&m, "dejah-thoris"));
    // [10.0 PROCEDURE] in a two-player game each runs the other's villain.
    assert_eq!(p0.controller, 1);
    assert_eq!(g.parties[1].controller, 0);
    // [10.43] two cities for John Carter's villain: Zodanga is not yet the
    // final one; Carthoris's villain, on one city, rolled Zodanga too and
    // rolled again [10.33], then Dusar, his final destination.
    assert_eq!(p0.city, city(&m, "zodanga"));
    assert_eq!((p0.destinations, p0.counted, p0.at_final), (2, 1, false));
    let p1 = &g.parties[1];
    assert_eq!(p1.city, city(&m, "dusar"));
    assert_eq!((p1.destinations, p1.counted, p1.at_final), (1, 1, true));
    assert_eq!(g.fired[entry(&m, "villain of john-carter 3-4")], 1);
    assert_eq!(g.fired[entry(&m, "final destination carthoris 1")], 1);
    assert!(g.check_invariants(&ctx).is_ok());
    // Surrogates come from the directory by code [10.12]: Ur Jan is in
    // play, so none of Zodanga's 300 series is free; Dusar's are too.
    assert_eq!(
        g.find_resident(&ctx, city(&m, "zodanga"), 301..=400, false),
        None
    );
    assert_eq!(
        g.find_resident(&ctx, city(&m, "manator"), 301..=400, false),
        Some(character(&m, "o-tar"))
    );
    assert!(d.passes(character(&m, "john-carter"), city(&m, "zodanga")));
    assert!(!d.passes(character(&m, "john-carter"), city(&m, "thark")));
}

#[test]
fn a_scripted_game_walks_through_every_sub_sequence() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    let gh = city(&m, "greater-helium");
    let zodanga = city(&m, "zodanga");

    // Turn 1, D: across the 1T line to Greater Helium [9.41]: no card, no
    // encounter.
    let mut s = Script::default();
    g.player_turn(&ctx, 0, &mut s, &mut NoTrace);
    assert_eq!(g.heroes[0].place, Place::City(gh));
    assert_eq!(g.heroes[0].stats.cards, 0);
    assert!(s.done());

    // Turn 2, D: a card of 30 haads on the 50 to Zodanga [9.11]; E: in
    // transit, area IV's flier line: a 5 is two red warriors on the flier
    // display, beaten [11.24, 11.31].
    g.turn = 2;
    let mut s = Script::default()
        .cards(&[card(&m, FLIER, 30)])
        .d6s(&[5])
        .duels(&[true]);
    g.player_turn(&ctx, 0, &mut s, &mut NoTrace);
    assert!(s.done());
    let Place::Transit(t) = g.heroes[0].place else {
        panic!("in transit")
    };
    assert_eq!((t.from, t.to, t.left, t.total), (gh, zodanga, 20, 50));
    assert_eq!(g.fired[entry(&m, "outdoor IV flier 5")], 1);
    assert_eq!(
        (g.heroes[0].stats.duels, g.heroes[0].stats.duels_lost),
        (1, 0)
    );
    assert!(g.check_invariants(&ctx).is_ok());

    // Turn 3, D: 30 more haads: he arrives in his villain's city and the
    // City Sub-game begins [8.0 D]: the villain hides his group in the
    // area that tells least (the gate) and the captive in the deserted
    // quarter [16.11, 16.16]. A white man passes in red Zodanga [15.31].
    g.turn = 3;
    let mut s = Script::default().cards(&[card(&m, FLIER, 30)]);
    g.movement_phase(&ctx, 0, &mut s, &mut NoTrace);
    assert_eq!(g.heroes[0].place, Place::City(zodanga));
    assert!(g.arrived_at_villain(&ctx, 0, &mut s, &mut NoTrace));
    let cm = &m.data().city_map;
    let h = &g.heroes[0];
    assert!(h.city.active && !h.city.secret);
    assert_eq!(h.city.area, cm.entry);
    let spots = g.parties[0].spots;
    assert_eq!(spots[VILLAIN_QUARRY].area, cm.entry);
    assert_eq!(spots[CAPTIVE_QUARRY].area, cm.deserted);
    assert!(s.done());

    // H-J: knowing the captive's house, he steps into it from the next
    // area (entering the deserted quarter is found out on a 1 [15.21]: he
    // rolls 5), fights her four guards on the house display [15.42, 16.14]
    // and takes her; then, the villain's whereabouts unknown, he leaves
    // the city with her [15.26].
    g.heroes[0].city.knows[CAPTIVE_QUARRY] = 2;
    let mut s = Script::default().d10s(&[5]).duels(&[true]);
    g.city_subsequences(&ctx, 0, &mut s, &mut NoTrace);
    assert!(s.done());
    let dejah = character(&m, "dejah-thoris");
    assert!(g.heroes[0].has(dejah));
    assert_eq!(g.parties[0].captive, NONE);
    assert!(!g.heroes[0].city.active);
    assert_eq!(g.heroes[0].stats.duels, 2);
    assert!(g.check_invariants(&ctx).is_ok());

    // Back in: the villain's house is known and in this very area. He
    // loses to the eleven in it [16.12, 16.14] (Woola, who comes in when
    // he is down, fights in that same duel [19.12]) and is imprisoned [17.1]:
    // a resident warrior of Mars for a cellmate (roll 5 [17.19], one off
    // the escape roll [17.24]); a 10 less 1 does not escape [17.21]; the
    // arena's 1 is a captain of the guard [17.41], whom he and his
    // cellmate beat. Outside his final destination the villain flees
    // [17.33], to Manator, now his final destination (his second counted
    // city [10.43]); the hero loses a Strategic Turn [17.18].
    g.enter_city(&ctx, 0, &mut s, &mut NoTrace);
    g.heroes[0].city.knows[VILLAIN_QUARRY] = 2;
    let mut rolls = vec![5, 10, 1];
    rolls.extend(chart_rolls(&m, "manator"));
    let mut s = Script::default().d10s(&rolls).duels(&[false, true]);
    g.city_subsequences(&ctx, 0, &mut s, &mut NoTrace);
    assert!(s.done());
    let h = &g.heroes[0];
    assert_eq!(
        (h.stats.imprisonments, h.stats.arena_duels, h.stats.flights),
        (1, 1, 1)
    );
    assert_eq!(h.stats.duels_lost, 1);
    assert!(
        h.has(character(&m, "red-warrior")),
        "the cellmate joins [17.13]"
    );
    assert_eq!(h.skip, 1);
    assert!(!h.city.active);
    let p0 = &g.parties[0];
    assert_eq!(p0.city, city(&m, "manator"));
    assert!(p0.at_final && p0.counted == 2);
    assert_eq!(g.fired[entry(&m, "prison companion 5")], 1);
    assert_eq!(g.fired[entry(&m, "arena 1")], 1);
    assert!(g.check_invariants(&ctx).is_ok());

    // The lost Strategic Turn: nothing happens, nothing is rolled.
    let mut s = Script::default();
    g.player_turn(&ctx, 0, &mut s, &mut NoTrace);
    assert_eq!(g.heroes[0].skip, 0);
    assert_eq!(g.heroes[0].place, Place::City(zodanga));

    // On the way home with Dejah Thoris (set 30 haads from Greater
    // Helium on the line from Zodanga), two red warriors take him (area I
    // flier 5 [11.34]); the Delay Table's 3 is two Turns: Phase G at once
    // brings the counter to 1 [8.0 G].
    g.heroes[0].place = Place::Transit(Transit {
        from: zodanga,
        to: gh,
        left: 30,
        total: 50,
        via: NONE,
    });
    let mut s = Script::default()
        .cards(&[card(&m, FLIER, 10)])
        .d6s(&[5])
        .duels(&[false])
        .d10s(&[3]);
    g.player_turn(&ctx, 0, &mut s, &mut NoTrace);
    assert!(s.done());
    let h = &g.heroes[0];
    assert_eq!((h.status, h.wait, h.armed), (Status::Captured, 1, false));
    assert_eq!(h.stats.captures, 1);
    assert!(g.check_invariants(&ctx).is_ok());
    // Next turn the counter comes off: free where he was taken, on foot,
    // unarmed [11.34].
    let mut s = Script::default();
    g.player_turn(&ctx, 0, &mut s, &mut NoTrace);
    let h = &g.heroes[0];
    assert_eq!(
        (h.status, h.conveyance, h.armed),
        (Status::Free, WALK, false)
    );
    assert!(matches!(h.place, Place::Transit(t) if t.left == 20));

    // Home with Dejah Thoris: from Lesser Helium across the 1T line to
    // Greater Helium is love [20.52]; unarmed in a city with weapons, he
    // acquires them (card 116's weapons-and-thoats line succeeds [14.12]),
    // and thoats with them since he walks.
    g.heroes[0].place = Place::City(city(&m, "lesser-helium"));
    let mut s = Script::default().cards(&[0]);
    g.player_turn(&ctx, 0, &mut s, &mut NoTrace);
    assert!(s.done());
    let h = &g.heroes[0];
    assert_eq!(h.place, Place::City(gh));
    assert!(h.love_at > 0 && h.glory_at == 0);
    assert!(h.armed && h.conveyance == THOAT);
    assert_eq!(g.fired[entry(&m, "acquisition 116 weapons_and_thoats")], 1);
    // [20.4, 20.54] Carthoris has nothing yet: the game goes on, and John
    // Carter would be champion.
    assert!(!g.all_done());
    assert_eq!(g.champion(), Some(0));
    assert_eq!(g.conditions(0).0, 1);
}

#[test]
fn three_discoveries_in_a_turn_imprison_and_an_escape_comes_out_by_the_arena() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    enter(&m, &mut g, 0, "zodanga");
    g.heroes[0].city.discoveries = 2;
    // [15.32] the third: straight to prison, no fight; nobody for a
    // cellmate (1), an escape on a 1 [17.21] into an area next to the
    // arena [17.28], moving secretly, a Strategic Turn lost [17.18].
    let mut s = Script::default().d10s(&[1, 1]);
    assert_eq!(g.discovery(&ctx, 0, &mut s, &mut NoTrace), Flow::EndTurn);
    assert!(s.done());
    let h = &g.heroes[0];
    assert_eq!(
        (h.stats.imprisonments, h.stats.escapes, h.stats.duels),
        (1, 1, 0)
    );
    assert!(h.city.active && h.city.secret);
    let cm = &m.data().city_map;
    assert!(
        cm.areas[usize::from(cm.prison)]
            .next
            .iter()
            .any(|&(a, _)| a == h.city.area)
    );
    assert_eq!(h.skip, 1);
}

#[test]
fn a_discovered_hero_fights_and_the_villain_flees_outside_his_final_destination() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    enter(&m, &mut g, 0, "zodanga");
    // [15.22] three warriors of Mars, beaten; the villain flees to his
    // next city [15.24]: the city game is over.
    let mut rolls = Vec::new();
    rolls.extend(chart_rolls(&m, "jahar"));
    let mut s = Script::default().duels(&[true]).d10s(&rolls);
    assert_eq!(g.discovery(&ctx, 0, &mut s, &mut NoTrace), Flow::Over);
    assert!(s.done());
    assert_eq!(g.parties[0].city, city(&m, "jahar"));
    assert!(g.parties[0].at_final);
    assert_eq!(g.heroes[0].stats.flights, 1);
    assert!(!g.heroes[0].city.active);
}

#[test]
fn the_villain_never_moves_after_his_final_destination_and_keeps_his_limit() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    // Carthoris's villain is in Dusar, his final destination [10.32].
    let dusar = city(&m, "dusar");
    enter(&m, &mut g, 1, "dusar");
    assert!(!g.villain_can_flee(1));
    // A discovery won: no flight; the marker goes on [10.41]; he must move
    // secretly [15.25].
    let mut s = Script::default().duels(&[true]);
    assert_eq!(g.discovery(&ctx, 1, &mut s, &mut NoTrace), Flow::Continue);
    assert!(s.done());
    assert_eq!(g.parties[1].city, dusar);
    assert!(g.parties[1].marker);
    assert!(g.heroes[1].city.secret);
    // The second time the marker comes off and the quarries are hidden
    // again; what the hero knew is gone [10.41, 15.52].
    g.heroes[1].city.knows = [2, 2];
    let mut s = Script::default().duels(&[true]);
    assert_eq!(g.discovery(&ctx, 1, &mut s, &mut NoTrace), Flow::Continue);
    assert_eq!(g.parties[1].city, dusar);
    assert!(!g.parties[1].marker);
    assert_eq!(g.heroes[1].city.knows, [0, 0]);
    // Beaten this time: the four warriors and the noble of the final
    // destination [15.22] join the villain, but only one fits under
    // Carthoris's limit of 8 [10.5, 10.52]; the hero is imprisoned.
    let limit = g.parties[1].limit;
    assert_eq!(limit, 8);
    let red = character(&m, "red-warrior");
    for i in 3..usize::from(limit - 1) {
        g.parties[1].henchmen[i] = red;
    }
    g.parties[1].henchmen_len = limit - 1;
    g.heroes[1].city.discoveries = 0;
    // Cellmate nobody (1), no escape (10), the arena's captain (1) beaten;
    // the sensible hero does not challenge three villains (six levels)
    // with his own two and Kar Komak's [17.34].
    let mut s = Script::default().duels(&[false, true]).d10s(&[1, 10, 1]);
    g.discovery(&ctx, 1, &mut s, &mut NoTrace);
    assert!(s.done());
    assert_eq!(g.parties[1].henchmen_len, limit);
    assert_eq!(g.parties[1].city, dusar);
    assert_eq!(g.add_henchmen(1, &[character(&m, "red-warrior")]), 0);
    // [17.34] in the final destination the villain cannot flee after the
    // arena; the hero's skip is two Strategic Turns [17.18].
    assert_eq!(g.parties[1].villains_len, 3);
    assert_eq!(g.heroes[1].skip, 2);
    // With one villain left (two levels against his two and Kar Komak's)
    // he would take him on, at full strength; not with a level lost.
    use barsoom::games::jc::strategic::players::challenge;
    let mut s = Script::default();
    assert!(!challenge(&ctx, &g, 1, true, 3, 3, &mut s));
    g.parties[1].villains_len = 1;
    assert!(challenge(&ctx, &g, 1, true, 3, 3, &mut s));
    assert!(!challenge(&ctx, &g, 1, true, 1, 3, &mut s));
}

#[test]
fn a_villain_who_joins_only_at_the_final_destination_is_spoken_for_from_the_start() {
    // [20.22] John Carter's roll of 1: Matai Shang and Thurid, with Salensus
    // Oll joining at the final destination. Until then Salensus Oll (code
    // 303, of Kadabra) is nobody else's to take up: not a surrogate of
    // another villain [10.12], so never in two entourages.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = common::write_scenario(
        dir.path(),
        "matai-shang",
        "jc.strategic",
        &common::jc_data(),
        "john_carter_villain = 1\n[[players]]\nhero = \"john-carter\"\n\
         [[players]]\nhero = \"carthoris\"\n",
    );
    let m = match JcStrategic::load(&path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    };
    let ctx = m.context();
    let salensus = character(&m, "salensus-oll");
    let kadabra = city(&m, "kadabra");
    for trial in 0..5 {
        let g = Game::new(&ctx, &mut Dice::for_trial(1, trial), &mut NoTrace);
        assert_eq!(g.parties[0].waiting(), &[salensus]);
        assert_ne!(
            g.find_resident(&ctx, kadabra, 301..=400, false),
            Some(salensus)
        );
    }
}

#[test]
fn surrogates_follow_10_12() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    // Carthoris's villains dead in Dusar (final) with Thuvia still held: a
    // 300-series villain of Dusar is not free (all three are his), so the
    // nearest city's lowest-coded one is brought in.
    g.slay_villains(&ctx, 1);
    assert_eq!(g.parties[1].villains_len, 0);
    g.surrogate_at_final(&ctx, 1, &mut NoTrace);
    let k = g.parties[1].surrogate;
    assert_ne!(k, NONE);
    let c = &m.data().roster.characters[usize::from(k)];
    assert!((301..=400).contains(&c.code), "{}", c.name);
    assert!(g.check_invariants(&ctx).is_ok());
    // Outside the final destination a villain-less entourage gets a
    // nameless noble when the city has no free 300-series character.
    g.parties[0].villains_len = 0;
    g.surrogate_on_discovery(&ctx, 0, &mut NoTrace);
    assert_eq!(g.parties[0].surrogate, m.data().nameless_villain);
    // Glory waits for the henchmen [20.51].
    g.check_glory(&ctx, 0, &mut NoTrace);
    assert_eq!(g.heroes[0].glory_at, 0);
    g.parties[0].henchmen_len = 0;
    g.check_glory(&ctx, 0, &mut NoTrace);
    assert!(g.heroes[0].glory_at > 0);
}

#[test]
fn movement_keeps_to_the_lines_each_conveyance_may_use() {
    let m = load("two-heroes");
    let ctx = m.context();
    let d = m.data();
    let (g, _) = set_up(&m);
    let route = |a: &str, b: &str, c: u8| {
        let (x, y) = (city(&m, a), city(&m, b));
        d.map
            .routes
            .iter()
            .filter(|r| r.from == x && r.to == y)
            .any(|r| g.route_open(&ctx, r, c))
    };
    // [9.51] no flier to the North Pole; on foot through the Carrion Caves.
    assert!(!route("illall", "kadabra", FLIER));
    assert!(route("kaol", "kadabra", WALK));
    // [9.52] thoats stop at the Carrion Caves, then walk on.
    assert!(route("kaol", "carrion-caves", THOAT));
    assert!(!route("kaol", "kadabra", THOAT));
    assert!(route("carrion-caves", "kadabra", WALK));
    // [9.54-9.56] Omean by the shaft or the passage, Lothar never by thoat,
    // Ghasta only by flier.
    assert!(route("otz", "omean", FLIER) && !route("otz", "omean", WALK));
    assert!(route("temple-of-issus", "omean", WALK) && !route("temple-of-issus", "omean", FLIER));
    assert!(!route("aaanthor", "lothar", THOAT) && route("aaanthor", "lothar", WALK));
    assert!(route("tjanath", "ghasta", FLIER) && !route("tjanath", "ghasta", WALK));
    // Per-conveyance distances: walking reaches Kadabra, flying does not.
    let (kaol, kadabra) = (city(&m, "kaol"), city(&m, "kadabra"));
    assert_eq!(d.distance(WALK, kaol, kadabra), 150);
    assert_eq!(d.distance(FLIER, kaol, kadabra), u16::MAX);
}

#[test]
fn backtracking_reverses_the_haads_remaining() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    let (gh, zodanga) = (city(&m, "greater-helium"), city(&m, "zodanga"));
    g.heroes[0].place = Place::Transit(Transit {
        from: gh,
        to: zodanga,
        left: 40,
        total: 50,
        via: NONE,
    });
    // [9.13] declared before the card: 10 haads back to Greater Helium,
    // covered by a 10-haad card.
    let mut s = Script::default().cards(&[card(&m, FLIER, 10)]);
    g.apply_move(
        &ctx,
        0,
        barsoom::games::jc::strategic::players::Move::Back,
        NONE,
        &mut s,
        &mut NoTrace,
    );
    assert_eq!(g.heroes[0].place, Place::City(gh));
}

// ---------------------------------------------------------------- whole games

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn every_game_ends_with_every_hero_in_one_place() {
    for name in ["two-heroes", "six-heroes", "random-two-heroes"] {
        let m = load(name);
        let ctx: Context = m.context();
        let limit = ctx.config.turn_limit;
        for trial in 0..40 {
            let mut dice = Dice::for_trial(5, trial);
            let mut g = Game::new(&ctx, &mut dice, &mut NoTrace);
            g.check_invariants(&ctx)
                .unwrap_or_else(|e| panic!("{name} {trial}: {e}"));
            'game: loop {
                for p in 0..usize::from(g.players) {
                    g.player_turn(&ctx, p, &mut dice, &mut NoTrace);
                    if let Err(e) = g.check_invariants(&ctx) {
                        panic!("{name} trial {trial} turn {} player {p}: {e}", g.turn);
                    }
                    if g.all_done() {
                        break 'game;
                    }
                }
                if g.turn >= limit {
                    break;
                }
                g.turn += 1;
            }
            assert!(g.turn <= limit);
        }
        // The model's own loop agrees and always stops.
        for trial in 0..40 {
            let (_, end) = m.play(&mut Dice::for_trial(6, trial), &mut NoTrace);
            assert!(end.turns >= 1 && end.turns <= limit);
            if !end.finished {
                assert_eq!(end.turns, limit);
            }
        }
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn no_villain_moves_after_reaching_his_final_destination_in_whole_games() {
    let m = load("six-heroes");
    let mut finals = 0;
    for trial in 0..30 {
        let mut log = TraceLog::default();
        m.play(&mut Dice::for_trial(9, trial), &mut log);
        let mut final_of: Vec<String> = Vec::new();
        for e in log
            .events
            .iter()
            .filter(|e| e.case == "JC 10.2 villain placed")
        {
            let hero = e.text.split("'s villain").next().unwrap_or("").to_string();
            let hero = hero.split(": ").last().unwrap_or("").to_string();
            assert!(
                !final_of.contains(&hero),
                "trial {trial}: {hero}'s villain moved after his final destination: {}",
                e.text
            );
            if e.text.ends_with("his final destination") {
                final_of.push(hero);
                finals += 1;
            }
        }
    }
    assert!(
        finals > 30,
        "villains reach their final destinations ({finals})"
    );
}

fn tally(m: &JcStrategic, trials: u64, threads: usize) -> Tally {
    common::tally(m, 11, 0..trials, threads, 16)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn results_do_not_depend_on_threads_and_replays_match() {
    let m = load("two-heroes");
    let one = tally(&m, 120, 1);
    assert_eq!(one, tally(&m, 120, 2));
    assert_eq!(one.trials(), 120);
    common::assert_replays_match_bulk(&m, 3, 64, 16, &[0, 33, 63], "JC 20.2");
    let r = m.run_trial(&mut Dice::for_trial(3, 5), &mut NoTrace);
    assert!(usize::from(r.outcome) < m.spec().outcomes.len());
}

#[test]
fn every_table_entry_can_be_overridden_and_changes_the_game() {
    // "Make outdoor encounters in area IV twice as deadly": one flag.
    let base = load("two-heroes");
    let deadly = load_with(
        "two-heroes",
        &[
            "areas.IV.flier[2].fight[0].count=4",
            "areas.IV.walk[1].fight[0].count=6",
        ],
    )
    .expect("loads");
    let foes = |m: &JcStrategic| match &m.data().areas[4].lines[2].get(5).0 {
        barsoom::games::jc::strategic::tables::Outcome::Fight { foes, .. } => foes.total(),
        other => panic!("{other:?}"),
    };
    assert_eq!(foes(&base), 2);
    assert_eq!(foes(&deadly), 4);
    // City directory and charts by id and index.
    let m = load_with(
        "two-heroes",
        &["places.thark.modifier=-3", "destination.rows[0][0]=thark"],
    )
    .expect("loads");
    let thark = city(&m, "thark");
    assert_eq!(m.data().places[usize::from(thark)].modifier, -3);
    assert_eq!(m.data().charts.destination[0][0], thark);
}

#[test]
fn broken_tables_are_clear_one_line_errors() {
    let cases: [(&[&str], &str); 9] = [
        (
            &["areas.II.walk[1].fight[0].id=bnath"],
            "areas[1].walk[1].fight[0].id: expected a character of the roster (characters.toml), found \"bnath\"; nearest: \"banth\"",
        ),
        (&["delay.rolls[1].roll=[4, 5]"], "found no row for 3"),
        (&["delay.rolls[0].roll=[1, 3]"], "found 3 covered again"),
        (
            &["places.kamtol.modifier=5"],
            "expected the rows to cover every roll from -2 to 15, found no row for 14",
        ),
        (
            &["heroes.carthoris.villains[0].henchmen[0].count=9"],
            "expected at most 8 henchmen, the entourage limit of carthoris [10.5], found 9",
        ),
        (
            &["places.kamtol.warriors=banth"],
            "expected a warrior of Mars (class warrior)",
        ),
        (
            &["final_destination.gahan[0].cities=4"],
            "expected a number from 1 to 3, found 4",
        ),
        (
            &["places.horz.extent=tiny"],
            "extent: expected an extent of city-map.toml (small, middling, great), found \"tiny\"",
        ),
        (
            &["extents[0].areas=[\"gate\", \"market\", \"tower\"]"],
            "extents[0].areas: expected the palace area \"palace\" inside every extent, found it missing",
        ),
    ];
    for (sets, expected) in cases {
        let err = load_with("two-heroes", sets).expect_err("a broken table");
        assert!(err.contains(expected), "{sets:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn bad_scenarios_are_clear_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = common::jc_data();
    let write = |name: &str, body: &str| {
        common::write_scenario(dir.path(), name, "jc.strategic", &data, body)
    };
    let err = |path: &Path| match JcStrategic::load(path) {
        Ok(_) => panic!("{} loaded", path.display()),
        Err(e) => e.to_string(),
    };
    let e = err(&write("unknown", "[[players]]\nhero = \"tars\"\n"));
    assert!(
        e.contains("players[0].hero: expected one of the heroes"),
        "{e}"
    );
    let e = err(&write(
        "escort",
        "[[players]]\nhero = \"john-carter\"\n[[players]]\nhero = \"vor-daj\"\n",
    ));
    assert!(e.contains("[20.38]"), "{e}");
    let e = err(&write(
        "policy",
        "[[players]]\nhero = \"gahan\"\npolicy = \"bold\"\n",
    ));
    assert!(
        e.contains("players[0].policy: expected \"sensible\" or \"random\""),
        "{e}"
    );
    let e = err(&write("none", "players = []\n"));
    assert!(e.contains("expected 1 to 6 [[players]]"), "{e}");
    let e = err(&write(
        "offers",
        "offers = \"weakest\"\n[[players]]\nhero = \"gahan\"\n",
    ));
    assert!(
        e.contains("offers: expected \"any-rival\" or \"leader\" [18.17], found \"weakest\""),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    // A dealt game picks legal heroes and lists every hero's outcome.
    let ok = write(
        "dealt",
        "tor_dur_bar = true\n[[players]]\n[[players]]\npolicy = \"random\"\n",
    );
    let (m, _) = JcStrategic::load(&ok).expect("loads");
    assert_eq!(m.spec().outcomes.len(), 6 + 2);
    let (_, end) = m.play(&mut Dice::for_trial(1, 1), &mut NoTrace);
    assert!(end.turns >= 1);
}

#[test]
fn a_hero_beaten_by_beasts_is_out_of_play_and_by_men_a_prisoner() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    let (thark, warhoon) = (city(&m, "thark"), city(&m, "warhoon"));
    g.heroes[1].conveyance = WALK;
    g.heroes[1].place = Place::Transit(Transit {
        from: thark,
        to: warhoon,
        left: 70,
        total: 70,
        via: NONE,
    });
    // Area IV walking: a 3 is two banths [11.33]: lost, out of play, and
    // his retinue with him.
    let mut s = Script::default().d6s(&[3]).duels(&[false]);
    g.outdoor_encounter(&ctx, 1, warhoon, &mut s, &mut NoTrace);
    assert!(s.done());
    assert_eq!(g.heroes[1].status, Status::OutOfPlay);
    assert!(g.heroes[1].retinue().is_empty());
    assert_eq!(g.heroes[1].stats.duels_lost, 1);
    // The other hero goes on; with one hero out, the survivor has a merit
    // [20.53] and is champion.
    assert_eq!(g.conditions(0).0, 1);
    assert_eq!(g.champion(), Some(0));
}

#[test]
fn the_cli_breaks_games_down_by_hero_and_table_entry() {
    let root = common::root();
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().display().to_string();
    let out = common::barsoom(
        &[
            "breakdown",
            "scenarios/jc/strategic/two-heroes.toml",
            "-n",
            "12",
            "--rows",
            "5",
            "--out",
            &out_dir,
        ],
        &root,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "John Carter",
        "Carthoris",
        "champion",
        "table entry",
        "per game",
    ] {
        assert!(text.contains(expected), "{expected}: {text}");
    }
    // A bad override is a one-line error and exit code 2.
    common::assert_bad_input(
        &[
            "run",
            "scenarios/jc/strategic/two-heroes.toml",
            "-n",
            "5",
            "--set",
            "delay.rolls[0].roll=[1, 1]",
        ],
        &root,
        &["found no row for 2"],
    );
}

/// A duel with every foe off the display by an exit, won or lost by the
/// hero.
fn villain_got_away(won: bool) -> barsoom::games::jc::strategic::duels::Fought {
    use barsoom::games::jc::duel::sequence::MAX_FIGHTERS;
    barsoom::games::jc::strategic::duels::Fought {
        won,
        hero_level: 3,
        foe_dead: [false; MAX_FIGHTERS],
        foes: MAX_FIGHTERS,
        foe_escaped: [true; MAX_FIGHTERS],
        late: false,
        freed: 0,
        got_away: false,
        companions_dead: [false; 2],
    }
}

#[test]
fn a_villain_who_escapes_the_house_display_flees_with_his_entourage_10_22() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    // John Carter in Zodanga, the first of his villain's two cities, knows
    // the villain's house, in this very area; his love barred [13.44], he
    // goes for the villain's group rather than the captive.
    enter(&m, &mut g, 0, "zodanga");
    g.heroes[0].city.knows[VILLAIN_QUARRY] = 2;
    g.heroes[0].love_barred = true;
    let before = g.parties[0];
    assert!(before.villains_len > 0 && before.holds_captive());
    // The duel in the house [15.42]: the hero holds the field, the
    // villains got out by an exit [7.24, 10.22] and every other defender
    // died. The sensible Player has them flee: the Destination Chart gives
    // Manator, now the final destination (second counted city [10.43]).
    let mut s = Script::default()
        .duels(&[true])
        .escapes(&[true])
        .d10s(&chart_rolls(&m, "manator"));
    g.city_subsequences(&ctx, 0, &mut s, &mut NoTrace);
    assert!(s.done());
    let p0 = &g.parties[0];
    assert_eq!(p0.city, city(&m, "manator"));
    assert!(p0.at_final);
    // Alive, with the captive: the entourage moves with him [10.21]; his
    // henchmen died in the house, and so did Rapas, a minor character
    // among the gang, who fought on: only villains (301-400) withdraw.
    let rapas = character(&m, "rapas");
    let kept: Vec<u8> = before
        .villains()
        .iter()
        .copied()
        .filter(|&k| k != rapas)
        .collect();
    assert!(kept.len() < before.villains().len());
    assert_eq!(p0.villains(), &kept[..]);
    assert_eq!(p0.captive, before.captive);
    assert_eq!(p0.henchmen_len, 0);
    let h = &g.heroes[0];
    assert_eq!(
        (
            h.stats.villain_escapes,
            h.stats.escape_flights,
            h.stats.flights
        ),
        (1, 1, 1)
    );
    assert_eq!(h.glory_at, 0, "no glory while the villains live");
    assert!(!h.city.active, "the city game is over, as after any flight");
    assert!(g.check_invariants(&ctx).is_ok());
}

#[test]
fn a_villain_in_his_final_destination_escapes_the_display_but_never_moves() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    // Carthoris's villain is in Dusar, his final destination [10.32].
    let dusar = city(&m, "dusar");
    enter(&m, &mut g, 1, "dusar");
    let before = g.parties[1];
    let mut s = Script::default();
    let flow = g.villain_escape(
        &ctx,
        1,
        &before,
        &villain_got_away(true),
        &mut s,
        &mut NoTrace,
    );
    // No flight [10.42]: the marker goes on instead [10.41] and the city
    // game goes on.
    assert_eq!(flow, Some(Flow::Continue));
    assert!(s.done());
    let p1 = &g.parties[1];
    assert_eq!(p1.city, dusar);
    assert!(p1.marker);
    assert_eq!(p1.villains(), before.villains());
    let h = &g.heroes[1];
    assert_eq!(
        (
            h.stats.villain_escapes,
            h.stats.escape_flights,
            h.stats.flights
        ),
        (1, 0, 0)
    );
    assert!(h.city.active);
    // A duel in which no villain got away is no escape.
    let mut none = villain_got_away(true);
    none.foe_escaped = [false; barsoom::games::jc::duel::sequence::MAX_FIGHTERS];
    assert_eq!(
        g.villain_escape(&ctx, 1, &before, &none, &mut s, &mut NoTrace),
        None
    );
    assert_eq!(g.heroes[1].stats.villain_escapes, 1);
}

#[test]
fn the_random_villain_player_flees_after_an_escape_on_a_coin() {
    let m = load_with(
        "two-heroes",
        &[
            "players[0].villain_policy=random",
            "players[1].villain_policy=random",
        ],
    )
    .expect("random villains");
    let ctx = m.context();
    let zodanga = city(&m, "zodanga");
    // The coin's 1: he stays in Zodanga and hides his group and the
    // captive anew [16.11]; what the hero knew is gone.
    let (mut g, _) = set_up(&m);
    enter(&m, &mut g, 0, "zodanga");
    g.heroes[0].city.knows = [2, 2];
    let before = g.parties[0];
    let mut s = Script::default().picks(&[1]);
    let flow = g.villain_escape(
        &ctx,
        0,
        &before,
        &villain_got_away(true),
        &mut s,
        &mut NoTrace,
    );
    assert_eq!(flow, Some(Flow::Continue));
    assert_eq!(g.parties[0].city, zodanga);
    assert_eq!(g.heroes[0].city.knows, [0, 0]);
    assert!(g.heroes[0].city.active);
    assert_eq!(g.heroes[0].stats.escape_flights, 0);
    // The coin's 0: he flees to Manator [10.22]; a hero beaten by the rest
    // of the house is interned, as when the villain flees after a
    // discovery [15.23] (Internment Table roll 1).
    let (mut g, _) = set_up(&m);
    enter(&m, &mut g, 0, "zodanga");
    let mut rolls = chart_rolls(&m, "manator").to_vec();
    rolls.push(1);
    let mut s = Script::default().picks(&[0]).d10s(&rolls);
    let flow = g.villain_escape(
        &ctx,
        0,
        &before,
        &villain_got_away(false),
        &mut s,
        &mut NoTrace,
    );
    assert_eq!(flow, Some(Flow::Over));
    assert!(s.done());
    assert_eq!(g.parties[0].city, city(&m, "manator"));
    let h = &g.heroes[0];
    assert_eq!((h.stats.escape_flights, h.stats.internments), (1, 1));
    assert!(!h.city.active);
}

#[test]
fn defenders_who_fall_in_a_lost_house_duel_stay_dead_11_31_15_42() {
    // Carthoris loses the duel with his villain's group (no villain got
    // off the display), but the first of its fighting villains fell on
    // the display: he leaves the group, slain, and the rest stay.
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    let before = g.parties[1];
    let roster = &m.data().roster;
    let fallen = *before
        .villains()
        .iter()
        .find(|&&k| roster.characters[usize::from(k)].fights())
        .expect("a villain who fights");
    let mut fought = villain_got_away(false);
    fought.foe_escaped = [false; barsoom::games::jc::duel::sequence::MAX_FIGHTERS];
    fought.foe_dead[0] = true;
    g.bury_defenders(&ctx, 1, &before, &fought);
    let after = g.parties[1];
    assert!(!after.villains().contains(&fallen));
    assert_eq!(after.villains_len, before.villains_len - 1);
    assert_eq!(after.henchmen(), before.henchmen());
    assert_ne!(g.slain & (1u128 << fallen), 0, "never drawn again");
    assert!(g.check_invariants(&ctx).is_ok());
}

/// The engine's dice for a whole game, counting the duels that reach their
/// turn limit.
struct WatchedDice {
    dice: Dice,
    at_limit: u32,
}

impl Roll for WatchedDice {
    fn die(&mut self, sides: u32) -> u32 {
        self.dice.die(sides)
    }
    fn pick(&mut self, n: usize) -> usize {
        self.dice.pick(n)
    }
}

impl Roller for WatchedDice {
    fn card(&mut self, deck: &mut DeckState) -> usize {
        self.dice.card(deck)
    }
    fn duel(&mut self, duel: &Duel, policies: &[Policy; 2]) -> DuelResult {
        let r = self.dice.duel(duel, policies);
        self.at_limit += u32::from(r.winner.is_none());
        r
    }
    fn bout(&mut self, bout: &Bout) -> BoutResult {
        self.dice.bout(bout)
    }
    fn jetan(&mut self, players: [JetanPlayer; 2]) -> Option<bool> {
        self.dice.jetan(players)
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn no_duel_of_a_bundled_game_reaches_its_turn_limit() {
    // Trials 10, 53 and 81 of six-heroes at seed 1 once held a duel in
    // which a hero and a warrior walked round each other by different
    // doors to the 200-turn limit [7.41, 7.42]; the first 100 games of
    // every bundled scenario at seed 1 now end every duel. A searched game
    // takes too long for a test (100 playouts a decision), so in
    // search-vs-sensible Carthoris plays `sensible` through the overrides:
    // the duels the search player fights are the same Duelling Game.
    let scenarios: [(&str, &[&str]); 5] = [
        ("two-heroes", &[]),
        ("random-two-heroes", &[]),
        ("six-heroes", &[]),
        ("jetan-arena", &[]),
        ("search-vs-sensible", &["players[1].policy=sensible"]),
    ];
    for (name, sets) in scenarios {
        let m = load_with(name, sets).unwrap_or_else(|e| panic!("{e}"));
        for trial in 0..100 {
            let mut r = WatchedDice {
                dice: Dice::for_trial(1, trial),
                at_limit: 0,
            };
            m.play(&mut r, &mut NoTrace);
            assert_eq!(r.at_limit, 0, "{name}, trial {trial}");
        }
    }
}

#[test]
fn a_woman_befriended_in_the_city_helps_the_escape_from_its_prison_17_27() {
    let m = load("two-heroes");
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    enter(&m, &mut g, 0, "zodanga");
    let zodanga = city(&m, "zodanga");
    g.heroes[0].city.area = area(&m, "slaves");
    // Information in the slaves' quarters: table 1, nothing learnt (1);
    // the hand of fate strikes (1) and befriends him (6); the City Friend
    // Table's 4 is an active slave girl [16.32, 16.35], a female personage
    // of another city.
    let before = g.heroes[0].retinue().len();
    let mut s = Script::default().d6s(&[1]).d10s(&[1, 1, 6, 4]);
    g.information_phase(&ctx, 0, &mut s, &mut NoTrace);
    assert!(s.done());
    assert_eq!(g.heroes[0].retinue().len(), before + 1);
    let slave = *g.heroes[0].retinue().last().expect("the slave girl");
    assert_ne!(m.data().home(slave), Some(zodanga), "not from Zodanga");
    // A third discovery: prison, no cellmate (1); an escape roll of 3 less
    // her one is within the base 2 in 10 [17.21, 17.27]: befriended in the
    // city, she counts as its resident.
    g.heroes[0].city.discoveries = 2;
    let mut s = Script::default().d10s(&[1, 3]);
    assert_eq!(g.discovery(&ctx, 0, &mut s, &mut NoTrace), Flow::EndTurn);
    assert!(s.done());
    let h = &g.heroes[0];
    assert_eq!((h.stats.imprisonments, h.stats.escapes), (1, 1));
}
