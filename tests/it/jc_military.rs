//! `jc.military`: the Military Game in full. Rules cases worked by hand on
//! set-up states, the map and deck, bad input, and whole games (every game
//! ends, results independent of threads); bad data is in `jc_military_errors`.

use barsoom::games::ScenarioModel;

use barsoom::engine::{Dice, Model, NoTrace, Tally};
use barsoom::games::jc::military::JcMilitary;
use barsoom::games::jc::military::deck::DeckState;
use barsoom::games::jc::military::game::{Game, Group, Target};

use crate::common;
use crate::jc_military_errors::{data_copy, edit};

fn load(name: &str) -> JcMilitary {
    match JcMilitary::load(&common::bundled(&format!("jc/military/{name}.toml"))) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

fn city(m: &JcMilitary, id: &str) -> usize {
    m.rules().map.city(id).expect("city")
}

fn commander(m: &JcMilitary, id: &str) -> usize {
    m.rules().data.commander(id).expect("commander")
}

/// A game set up by the rules, then emptied of fleets so a test can place
/// its own.
fn empty_game(m: &JcMilitary) -> Game<'_> {
    let mut g = Game::new(&m.context(), &mut Dice::for_trial(1, 0));
    g.len = 0;
    g
}

fn group(owner: u8, nation: u8, city: usize, strength: u8, commanders: u16) -> Group {
    Group::in_city(owner, nation, city, strength, commanders)
}

/// Index of the neutral whose own city is `c`.
fn neutral_at(m: &JcMilitary, c: usize) -> usize {
    m.rules()
        .neutrals
        .iter()
        .position(|x| x.city == c)
        .expect("a neutral's city")
}

fn push(g: &mut Game, x: Group) {
    g.groups[g.len] = x;
    g.len += 1;
}

fn nation(m: &JcMilitary, id: &str) -> u8 {
    m.rules().data.nation(id).expect("nation") as u8
}

// ---------------------------------------------------------------- map, deck

#[test]
fn junctions_add_their_legs_and_one_turn_lines_need_no_card() {
    let m = load("greedy-vs-greedy");
    let map = &m.rules().map;
    let flight = |a: &str, b: &str| {
        *map.routes_from(city(&m, a))
            .iter()
            .find(|r| usize::from(r.to) == city(&m, b))
            .expect("a flight")
    };
    // [9.42] Greater Helium -> southern fork 50, fork -> Gathol 60: 110.
    assert_eq!(flight("greater-helium", "gathol").haads, 110);
    // Hastor -> eastern fork 40, fork -> Dusar 50: 90.
    assert_eq!(flight("hastor", "dusar").haads, 90);
    // A straight line both ways.
    assert_eq!(flight("dusar", "kamtol").haads, 60);
    assert_eq!(flight("kamtol", "dusar").haads, 60);
    // [9.41] the twin cities of Helium.
    assert!(flight("greater-helium", "lesser-helium").one_turn);
    // Shortest distance Dusar -> Gathol: Dusar-Kamtol 60 + Kamtol-fork-Gathol
    // 70+60 = 190, against Dusar-Greater Helium 100 + 110 = 210: 190.
    assert_eq!(map.distance(city(&m, "dusar"), city(&m, "gathol")), 190);
}

#[test]
fn the_deck_deals_every_card_once_then_reshuffles() {
    let m = load("greedy-vs-greedy");
    let deck = &m.rules().deck;
    assert_eq!(deck.flier.len(), 50, "cards 066-115");
    assert_eq!(deck.first_card, 66);
    let mut dice = Dice::for_trial(5, 5);
    let mut state = DeckState::new(deck, &mut dice);
    let mut seen = vec![0u32; 50];
    for _ in 0..50 {
        seen[state.draw(&mut dice)] += 1;
    }
    assert!(seen.iter().all(|n| *n == 1), "each card once: {seen:?}");
    assert_eq!(state.shuffles, 1);
    assert_eq!(state.left(), 0);
    state.draw(&mut dice);
    assert_eq!(state.shuffles, 2, "the exhausted deck is reshuffled");
    assert_eq!(state.left(), 49);
    // Five "00" cards [9.12].
    assert_eq!(deck.flier.iter().filter(|v| **v == 0).count(), 5);
}

// ---------------------------------------------------------------- set-up

#[test]
fn set_up_follows_25_1_and_25_2() {
    let m = load("greedy-vs-greedy");
    let g = Game::new(&m.context(), &mut Dice::for_trial(1, 0));
    let strength = |owner: u8| -> u32 {
        g.groups()
            .iter()
            .filter(|x| x.owner == owner)
            .map(|x| u32::from(x.strength))
            .sum()
    };
    assert_eq!(strength(0), 7, "Helium [25.11]");
    assert_eq!(strength(1), 10, "the alliance [25.12]");
    // Neutrals in the order of military.toml: Gathol 4, Ptarth 4, Kaol 3, Kamtol 2.
    assert_eq!(
        [strength(2), strength(3), strength(4), strength(5)],
        [4, 4, 3, 2]
    );
    // Tul Axtar sets up in Jahar with a Jaharian fleet.
    let tul = commander(&m, "tul-axtar");
    let holder = g
        .groups()
        .iter()
        .find(|x| x.commanders & (1 << tul) != 0)
        .expect("Tul Axtar is with a fleet");
    assert_eq!(usize::from(holder.city), city(&m, "jahar"));
    assert_eq!(holder.nation, nation(&m, "jahar"));
    // Every capital is controlled: 2 Helium, 3 alliance, 2 neutral.
    assert_eq!(g.capitals_held(m.rules(), 0), 2);
    assert_eq!(g.capitals_held(m.rules(), 1), 3);
}

// ---------------------------------------------------------------- movement

#[test]
fn fleets_in_transit_keep_flying_towards_their_destination() {
    let m = load("random-vs-random");
    let (gh, dusar) = (city(&m, "greater-helium"), city(&m, "dusar"));
    for seed in 0..50 {
        let mut g = empty_game(&m);
        let mut x = group(0, nation(&m, "helium"), dusar, 3, 0);
        x.from = gh as u8;
        x.in_transit = true;
        x.left = 100;
        push(&mut g, x);
        let mut dice = Dice::for_trial(seed, 0);
        g.movement_phase(0, &mut dice, &mut NoTrace);
        // [22.22, 22.24] one card, drawn for it; still bound for Dusar.
        let after = g.groups[0];
        assert_eq!(usize::from(after.city), dusar);
        assert_eq!(usize::from(after.from), gh);
        let flown = 100 - after.left;
        assert!(
            flown <= 60 && flown.is_multiple_of(10),
            "one card's flier line: {flown}"
        );
        assert_eq!(after.in_transit, after.left > 0);
    }
}

#[test]
fn a_city_with_enemy_fleets_may_be_left_only_the_way_the_fleet_came() {
    // [22.25] Helium arrived in Zodanga from Greater Helium; an alliance
    // fleet is there too. Random orders over many seeds: every Heliumite
    // fleet that leaves heads back to Greater Helium.
    let m = load("random-vs-random");
    let (gh, zodanga) = (city(&m, "greater-helium"), city(&m, "zodanga"));
    let mut left = 0;
    for seed in 0..300 {
        let mut g = empty_game(&m);
        let mut x = group(0, nation(&m, "helium"), zodanga, 4, 0);
        x.from = gh as u8;
        push(&mut g, x);
        push(&mut g, group(1, nation(&m, "dusar"), zodanga, 2, 0));
        g.movement_phase(0, &mut Dice::for_trial(seed, 1), &mut NoTrace);
        for x in g.groups().iter().filter(|x| x.owner == 0) {
            if usize::from(x.city) != zodanga {
                assert_eq!(usize::from(x.city), gh, "seed {seed}: {x:?}");
                left += 1;
            }
        }
    }
    assert!(left > 0, "some random orders do leave");
}

#[test]
fn commanders_stay_with_fleets_of_their_nation() {
    // [22.23] over random games, every present commander rides with a
    // group of his own nation.
    let m = load("random-vs-random");
    let ctx = m.context();
    for trial in 0..40 {
        let mut dice = Dice::for_trial(11, trial);
        let mut g = Game::new(&ctx, &mut dice);
        for _ in 0..12 {
            g.diplomacy_phase(&mut dice, &mut NoTrace);
            for p in 0..2 {
                g.movement_phase(p, &mut dice, &mut NoTrace);
                g.combat_phase(p, &mut dice, &mut NoTrace);
                g.update_control(m.rules());
                g.reinforcement_phase(p, &mut NoTrace);
            }
            g.end_of_turn(m.rules(), &mut NoTrace);
            for x in g.groups() {
                let mut mask = x.commanders;
                while mask != 0 {
                    let k = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    assert_eq!(m.rules().data.commanders[k].nation as u8, x.nation);
                    assert_eq!(
                        g.commander_return[k], 0,
                        "a returning commander is not aboard"
                    );
                }
            }
            g.turn += 1;
        }
    }
}

// ---------------------------------------------------------------- combat

#[test]
fn combat_goes_through_jc_fleet_and_a_wiped_out_fleet_loses_its_commanders() {
    // Twenty Heliumite points with John Carter attack one Dusarian point
    // with Astok in Dusar (intrinsic defense 1). Whatever the dice, the
    // strengths left are those jc.fleet reports; when Dusar's fleet is
    // destroyed Astok is captured for three Turns [23.26] and Helium holds
    // Dusar.
    let m = load("greedy-vs-greedy");
    let dusar = city(&m, "dusar");
    let (jc, astok) = (commander(&m, "john-carter"), commander(&m, "astok"));
    let mut won = 0;
    for seed in 0..200 {
        let mut g = empty_game(&m);
        g.turn = 4;
        push(&mut g, group(0, nation(&m, "helium"), dusar, 20, 1 << jc));
        push(&mut g, group(1, nation(&m, "dusar"), dusar, 1, 1 << astok));
        g.combat(
            0,
            dusar,
            Target::Enemy,
            &mut Dice::for_trial(seed, 2),
            &mut NoTrace,
        );
        assert_eq!(g.stats.battles, 1);
        let alliance = g.own_strength(dusar, 1);
        let helium = g.own_strength(dusar, 0);
        assert!((1..=20).contains(&helium));
        assert_eq!(
            u32::from(20 - helium),
            g.stats.combat_losses[0],
            "losses are what jc.fleet destroyed"
        );
        if alliance == 0 {
            won += 1;
            assert_eq!(g.commander_return[astok], 4 + 3, "seed {seed}");
            assert_eq!(g.stats.captured[1], 1);
            assert_eq!(g.controller[dusar], 0, "Helium took Dusar");
        }
    }
    assert!(won > 190, "twenty against one nearly always wins: {won}");
}

#[test]
fn attacking_the_enemy_in_a_neutral_city_hands_the_neutral_to_him() {
    // [24.27] Helium attacks the alliance in Kaol: Kaol goes over to the
    // alliance at once and Helium may never court it again.
    let m = load("greedy-vs-greedy");
    let ctx = m.context();
    let kaol = city(&m, "kaol");
    let n = neutral_at(&m, kaol);
    let mut g = Game::new(&ctx, &mut Dice::for_trial(1, 0));
    // One Heliumite point against nine of Dusar: the Dusarian fleets absorb
    // every loss, so Kaol's fleets (now the alliance's) are never touched
    // and Kaol is not lost again by [24.42].
    push(&mut g, group(0, nation(&m, "helium"), kaol, 1, 0));
    push(&mut g, group(1, nation(&m, "dusar"), kaol, 9, 0));
    g.combat(
        0,
        kaol,
        Target::Enemy,
        &mut Dice::for_trial(3, 3),
        &mut NoTrace,
    );
    assert_eq!(g.neutrals[n].influenced_by, 1);
    assert!(g.neutrals[n].barred[0]);
    assert_eq!(g.stats.breaches, 1);
    assert_eq!(g.stats.battles, 1);
    // Kaol's three points fought with the alliance: still there.
    let kaol_fleets: u32 = g
        .groups()
        .iter()
        .filter(|x| usize::from(x.owner) == 2 + n)
        .map(|x| u32::from(x.strength))
        .sum();
    assert_eq!(kaol_fleets, 3);
}

#[test]
fn the_peace_of_a_neutral_city_ends_when_a_player_takes_it() {
    // [24.27, 24.47] Gathol's fleets are gone and Helium holds the city it
    // took from them: fighting the alliance there is ordinary combat, not
    // a breach of the peace, and greedy attacks (five against one). While
    // Gathol still holds its own city the same attack is a breach that
    // hands Gathol to the alliance, and greedy never makes it.
    use barsoom::games::jc::military::players;
    let m = load("greedy-vs-greedy");
    let ctx = m.context();
    let gathol = city(&m, "gathol");
    let n = neutral_at(&m, gathol);
    for (holder, breach) in [(0u8, false), ((2 + n) as u8, true)] {
        let mut g = empty_game(&m);
        g.controller[gathol] = holder;
        g.neutrals[n].barred = [true, true];
        push(&mut g, group(0, nation(&m, "helium"), gathol, 5, 0));
        push(&mut g, group(1, nation(&m, "dusar"), gathol, 1, 0));
        // The alliance's whole strength is public [22.26]: one point.
        g.public_strength[1] = 1;
        let mut dice = Dice::for_trial(5, 0);
        assert_eq!(
            players::attack(&ctx, &g, 0, gathol, Target::Enemy, &mut dice),
            !breach,
            "greedy attacks only where no peace holds"
        );
        g.combat(0, gathol, Target::Enemy, &mut dice, &mut NoTrace);
        assert_eq!(g.stats.breaches, u32::from(breach));
        let expected = if breach { 1 } else { u8::MAX };
        assert_eq!(g.neutrals[n].influenced_by, expected);
    }
}

#[test]
fn a_neutral_flying_home_takes_no_players_city() {
    // [24.42, 24.47] Gathol, neutral again, has three points in Lesser
    // Helium on their way home, the only fleets there: Lesser Helium stays
    // Helium's. In Gathol its own fleets hold the city.
    let m = load("greedy-vs-greedy");
    let (lh, gathol) = (city(&m, "lesser-helium"), city(&m, "gathol"));
    let n = neutral_at(&m, gathol);
    let mut g = empty_game(&m);
    g.controller[gathol] = 0;
    push(&mut g, group((2 + n) as u8, nation(&m, "gathol"), lh, 3, 0));
    push(
        &mut g,
        group((2 + n) as u8, nation(&m, "gathol"), gathol, 1, 0),
    );
    g.update_control(m.rules());
    assert_eq!(g.controller[lh], 0);
    assert_eq!(usize::from(g.controller[gathol]), 2 + n);
}

#[test]
fn a_point_lost_in_the_other_players_portion_can_undo_six() {
    // [24.33] Helium stands at 4, the alliance at 5. Helium's portion of
    // the round (Helium moves first) gives it 2: six. The alliance's
    // portion gives it 1 (six) and costs Helium a point (five): at the end
    // of the phase only the alliance is at six and claims the neutral.
    use barsoom::games::jc::military::game::NeutralState;
    let fresh = |influence: [u8; 2]| NeutralState {
        influence,
        reached: [0; 2],
        influenced_by: u8::MAX,
        barred: [false; 2],
        grace_turn: 0,
    };
    let mut st = fresh([4, 5]);
    st.read_points([2, 1], [0, 1], 0, 7, 6);
    assert_eq!(st.influence, [5, 6]);
    assert_eq!(st.reached, [0, 15], "Helium no longer stands at six");
    assert_eq!(st.claimant(6), Some(1));
    // Without the lost point both stand at six; Helium got there first,
    // in the first portion of the round [24.34].
    let mut st = fresh([4, 5]);
    st.read_points([2, 1], [0, 0], 0, 7, 6);
    assert_eq!(st.influence, [6, 6]);
    assert_eq!(st.claimant(6), Some(0));
    // The alliance moving first: its portion costs Helium the point
    // before Helium's own portion, which takes it only to five.
    let mut st = fresh([4, 5]);
    st.read_points([2, 1], [0, 1], 1, 7, 6);
    assert_eq!(st.influence, [5, 6]);
    assert_eq!(st.claimant(6), Some(1));
    // A barred player gains nothing [24.27] but his portion still costs
    // the other a point; no one can fall below zero.
    let mut st = fresh([0, 2]);
    st.barred[0] = true;
    st.read_points([3, 0], [1, 0], 0, 3, 6);
    assert_eq!(st.influence, [0, 1]);
    // The reconstructed table loses a point only on the top band.
    let d = &m_diplomacy();
    assert_eq!(
        (d.other_loses(8), d.other_loses(9), d.other_loses(12)),
        (0, 1, 1)
    );
    assert_eq!(d.points(9), 3);
}

fn m_diplomacy() -> barsoom::games::jc::military::diplomacy::DiplomacyTables {
    load("greedy-vs-greedy").rules().diplomacy.clone()
}

#[test]
fn greedy_leads_an_influenced_neutrals_fleets_out_of_its_capital() {
    // [24.41] Ptarth fights for Helium with twenty points at home and one
    // Heliumite point beside them; Dusar, held by the alliance, has five.
    // The Heliumite point is no garrison (Ptarth's own fleets keep its
    // capital): it sets out and nineteen of Ptarth's points go with it.
    let m = load("greedy-vs-greedy");
    let ptarth = city(&m, "ptarth");
    let n = neutral_at(&m, ptarth);
    let mut g = empty_game(&m);
    g.neutrals[n].influenced_by = 0;
    push(
        &mut g,
        group((2 + n) as u8, nation(&m, "ptarth"), ptarth, 20, 0),
    );
    push(&mut g, group(0, nation(&m, "helium"), ptarth, 1, 0));
    for c in ["greater-helium", "lesser-helium"] {
        push(&mut g, group(0, nation(&m, "helium"), city(&m, c), 1, 0));
    }
    for c in ["dusar", "jahar", "tjanath"] {
        push(&mut g, group(1, nation(&m, c), city(&m, c), 5, 0));
    }
    g.movement_phase(0, &mut Dice::for_trial(1, 1), &mut NoTrace);
    let left_home = |owner: u8| {
        g.groups()
            .iter()
            .filter(|x| x.owner == owner && usize::from(x.from) == ptarth)
            .map(|x| x.strength)
            .sum::<u8>()
    };
    assert_eq!(left_home(0), 1, "{:?}", g.groups());
    assert_eq!(left_home((2 + n) as u8), 19, "{:?}", g.groups());
}

#[test]
fn greedy_gathers_before_striking_a_capital_it_cannot_take_alone() {
    // Two Heliumite points in Hastor, ten in Greater Helium; the alliance's
    // capitals are face down [22.26] and look like four points each (its
    // set-up strength over its three stacks), so Helium's gathered
    // strength could take one but two points could not: the Hastor group
    // flies to Greater Helium, where most of Helium's strength stands.
    // The ten there, enough together, strike with all but the garrison.
    // Every neutral fights for the alliance with thirty points.
    let m = load("greedy-vs-greedy");
    let map = &m.rules().map;
    let (hastor, gh) = (city(&m, "hastor"), city(&m, "greater-helium"));
    let mut g = empty_game(&m);
    for n in 0..m.rules().neutrals.len() {
        g.neutrals[n].influenced_by = 1;
        let c = m.rules().neutrals[n].city;
        let nation = m.rules().neutrals[n].nation as u8;
        push(&mut g, group((2 + n) as u8, nation, c, 30, 0));
    }
    let helium = nation(&m, "helium");
    push(&mut g, group(0, helium, hastor, 2, 0));
    push(&mut g, group(0, helium, gh, 10, 0));
    push(&mut g, group(0, helium, city(&m, "lesser-helium"), 1, 0));
    for (c, s) in [("dusar", 30), ("jahar", 4), ("tjanath", 30)] {
        push(&mut g, group(1, nation(&m, c), city(&m, c), s, 0));
    }
    g.movement_phase(0, &mut Dice::for_trial(1, 1), &mut NoTrace);
    let from = |c: usize| {
        *g.groups()
            .iter()
            .find(|x| x.owner == 0 && usize::from(x.from) == c)
            .unwrap_or_else(|| panic!("a group left {c}: {:?}", g.groups()))
    };
    let k = from(hastor);
    let on_the_way = |x: Group, a: usize, b: usize| {
        let via = usize::from(x.city);
        map.distance(a, via) + map.distance(via, b) == map.distance(a, b)
    };
    assert!(
        on_the_way(k, hastor, gh),
        "the Hastor group makes for Greater Helium: {k:?}"
    );
    let strike = from(gh);
    assert!(
        ["dusar", "jahar", "tjanath"]
            .iter()
            .any(|c| on_the_way(strike, gh, city(&m, c))),
        "{strike:?}"
    );
    assert_eq!(strike.strength, 9, "all but the garrison");
}

#[test]
fn an_enemy_fleet_gets_a_grace_turn_in_a_city_just_influenced() {
    // [24.28] Helium (fleet and Kantos Kan, 4 points gathered) courts
    // Gathol against a lone Dusarian fleet: +2 [24.24] makes six, so
    // Gathol is Helium's at the end of the Diplomacy Phase, and the
    // Dusarian fleet has the rest of the Turn to leave.
    use barsoom::games::jc::military::players;
    let m = load("greedy-vs-greedy");
    let ctx = m.context();
    let gathol = city(&m, "gathol");
    let n = neutral_at(&m, gathol);
    let kk = commander(&m, "kantos-kan");
    let mut g = Game::new(&ctx, &mut Dice::for_trial(1, 0));
    g.turn = 4;
    g.neutrals[n].influence = [4, 0];
    push(&mut g, group(0, nation(&m, "helium"), gathol, 9, 1 << kk));
    push(&mut g, group(1, nation(&m, "dusar"), gathol, 1, 0));
    let mut dice = Dice::for_trial(2, 0);
    g.influence(n, &mut dice, &mut NoTrace);
    assert_eq!(g.neutrals[n].influenced_by, 0);
    assert!(g.in_grace(m.rules(), gathol, 0));
    assert!(!g.in_grace(m.rules(), gathol, 1));
    // Nine points against one: greedy would attack, but waits out the
    // grace Turn; the next Turn it attacks.
    assert!(!players::attack(
        &ctx,
        &g,
        0,
        gathol,
        Target::Enemy,
        &mut dice
    ));
    let mut next = g.clone();
    next.turn += 1;
    assert!(!next.in_grace(m.rules(), gathol, 0));
    assert!(players::attack(
        &ctx,
        &next,
        0,
        gathol,
        Target::Enemy,
        &mut dice
    ));
    // Attacking anyway in the grace Turn: Gathol's fleets go over to the
    // alliance and fight for it. One Heliumite point against nine of
    // Dusar, who absorb every loss, so Gathol stays with the alliance
    // (not freed again by [24.42]).
    let mut g = Game::new(&ctx, &mut Dice::for_trial(1, 0));
    g.turn = 4;
    g.neutrals[n].influence = [4, 0];
    push(&mut g, group(0, nation(&m, "helium"), gathol, 1, 1 << kk));
    push(&mut g, group(1, nation(&m, "dusar"), gathol, 9, 0));
    g.influence(n, &mut dice, &mut NoTrace);
    assert!(g.in_grace(m.rules(), gathol, 0));
    assert_eq!(g.battle_key(0, gathol, Target::Enemy).sides[1].neutral, 0);
    g.combat(0, gathol, Target::Enemy, &mut dice, &mut NoTrace);
    assert_eq!(g.neutrals[n].influenced_by, 1);
    assert_eq!(g.stats.grace_joins, 1);
    assert_eq!(g.stats.breaches, 0, "no breach: Gathol was not neutral");
    assert!(!g.in_grace(m.rules(), gathol, 0));
    assert!(g.battle_key(0, gathol, Target::Enemy).sides[1].neutral > 0);
}

#[test]
fn fleet_combats_break_off_as_the_players_choose() {
    // [23.22] Two Heliumite points attack six of Dusar in Zodanga, which
    // the alliance holds. Helium wants out at once (6 >= 2 x 2); when the
    // alliance agrees, the combat ends before a round, with no losses and
    // the city still the alliance's. When it refuses, Helium Reverses until
    // two in a row end it (the alliance holding the city), unless it is
    // destroyed first: never an agreed end.
    use barsoom::games::jc::fleet::{OUT_AGREED, OUT_FIRST_REVERSES, OUT_SECOND_ELIMINATES};
    use barsoom::games::jc::military::battles::fight;
    use barsoom::games::jc::military::game::Context;
    let m = load("greedy-break-off");
    assert_eq!(m.config().break_off[0].behind_pct, 200);
    assert!(!m.config().break_off[1].accepts);
    let mut agreeing = m.config().clone();
    agreeing.break_off[1].accepts = true;
    let ctx = Context {
        rules: m.rules(),
        config: &agreeing,
        cache: m.cache(),
    };
    let zodanga = city(&m, "zodanga");
    let mut g = empty_game(&m);
    g.ctx = ctx;
    g.controller[zodanga] = 1;
    push(&mut g, group(0, nation(&m, "helium"), zodanga, 2, 0));
    push(&mut g, group(1, nation(&m, "dusar"), zodanga, 6, 0));
    g.combat(
        0,
        zodanga,
        Target::Enemy,
        &mut Dice::for_trial(4, 0),
        &mut NoTrace,
    );
    assert_eq!(g.stats.battles, 1);
    assert_eq!(g.stats.break_offs, 1);
    assert_eq!(g.stats.combat_losses, [0, 0]);
    assert_eq!(g.controller[zodanga], 1);
    assert_eq!(g.own_strength(zodanga, 0), 2);
    assert_eq!(g.own_strength(zodanga, 1), 6);

    // The scenario's own alliance refuses.
    g.ctx = Context {
        rules: m.rules(),
        config: m.config(),
        cache: m.cache(),
    };
    let key = g.battle_key(0, zodanga, Target::Enemy);
    assert!(!key.sides[1].break_off.accepts);
    for t in 0..300 {
        let r = fight(m.cache(), &m.rules().data, &key, &mut Dice::for_trial(5, t));
        assert_ne!(r.terminal.outcome, OUT_AGREED, "trial {t}");
        assert!(
            matches!(
                r.terminal.outcome,
                OUT_FIRST_REVERSES | OUT_SECOND_ELIMINATES
            ),
            "trial {t}: {r:?}"
        );
    }
}

#[test]
fn a_break_off_ratio_out_of_range_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tmp");
    data_copy(dir.path());
    let s = dir.path().join("military/s.toml");
    edit(
        &s,
        "setup = { greater-helium = 4, lesser-helium = 3 }",
        "setup = { greater-helium = 4, lesser-helium = 3 }\nbreak_off_behind = 0.5",
    );
    common::assert_bad_input(
        &["validate", s.to_str().expect("utf8")],
        dir.path(),
        &[
            "s.toml",
            "sides.helium.break_off_behind",
            "from 1 to 10",
            "0.5",
        ],
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn a_run_charts_the_mean_capitals_held_over_time() {
    let dir = tempfile::tempdir().expect("tmp");
    let scenario = common::bundled("jc/military/greedy-vs-greedy.toml");
    let out = dir.path().join("out");
    common::barsoom_ok(
        &[
            "run",
            scenario.to_str().expect("utf8"),
            "-n",
            "200",
            "--out",
            out.to_str().expect("utf8"),
        ],
        dir.path(),
    );
    for f in ["capitals.svg", "capitals.png"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    let svg = std::fs::read_to_string(out.join("capitals.svg")).expect("svg");
    assert!(svg.contains("Capitals held over time"));
    let summary = std::fs::read_to_string(out.join("summary.csv")).expect("csv");
    for t in [5, 10, 15, 20, 30, 45, 60] {
        assert!(summary.contains(&format!("capitals_helium_t{t}")), "t{t}");
    }
}

// ---------------------------------------------------------------- reinforcements

#[test]
fn reinforcements_every_third_turn_one_per_controlled_capital() {
    // [24.11] turn 3: Helium holds both its capitals: +1 in each.
    let m = load("greedy-vs-greedy");
    let ctx = m.context();
    let (gh, lh) = (city(&m, "greater-helium"), city(&m, "lesser-helium"));
    let mut g = Game::new(&ctx, &mut Dice::for_trial(1, 0));
    g.turn = 3;
    let before = [g.own_strength(gh, 0), g.own_strength(lh, 0)];
    g.reinforcement_phase(0, &mut NoTrace);
    assert_eq!(g.own_strength(gh, 0), before[0] + 1);
    assert_eq!(g.own_strength(lh, 0), before[1] + 1);
    // Turn 4: none.
    g.turn = 4;
    g.reinforcement_phase(0, &mut NoTrace);
    assert_eq!(g.own_strength(gh, 0), before[0] + 1);
}

#[test]
fn a_captured_capital_denies_reinforcements_and_earns_extra_after_two_turns() {
    // [24.12] the alliance took Lesser Helium this very turn (turn 6):
    // Helium gets one fleet (Greater Helium only), the alliance its three
    // and no extra yet. Held two Turns (turn 9): the alliance gets an extra
    // fleet; Helium still one.
    let m = load("greedy-vs-greedy");
    let ctx = m.context();
    let rules = m.rules();
    let lh = city(&m, "lesser-helium");
    let mut g = Game::new(&ctx, &mut Dice::for_trial(1, 0));
    g.groups.iter_mut().take(g.len).for_each(|x| {
        if usize::from(x.city) == lh {
            x.owner = 1;
            x.nation = nation(&m, "dusar");
        }
    });
    g.update_control(rules);
    assert_eq!(g.controller[lh], 1);
    g.turn = 6;
    let total = |g: &Game, p: u8| -> u32 {
        g.groups()
            .iter()
            .filter(|x| x.owner == p)
            .map(|x| u32::from(x.strength))
            .sum()
    };
    let (h0, a0) = (total(&g, 0), total(&g, 1));
    g.reinforcement_phase(0, &mut NoTrace);
    g.reinforcement_phase(1, &mut NoTrace);
    assert_eq!(total(&g, 0), h0 + 1, "Helium: Greater Helium only");
    assert_eq!(
        total(&g, 1),
        a0 + 3,
        "alliance: its three capitals, no extra yet"
    );
    g.end_of_turn(rules, &mut NoTrace);
    g.turn = 7;
    g.end_of_turn(rules, &mut NoTrace);
    g.turn = 8;
    g.end_of_turn(rules, &mut NoTrace);
    g.turn = 9;
    let (h1, a1) = (total(&g, 0), total(&g, 1));
    g.reinforcement_phase(0, &mut NoTrace);
    g.reinforcement_phase(1, &mut NoTrace);
    assert_eq!(total(&g, 0), h1 + 1);
    assert_eq!(total(&g, 1), a1 + 4, "three capitals and one extra [24.12]");
}

// ---------------------------------------------------------------- diplomacy

#[test]
fn influence_tally_follows_24_23_to_24_25() {
    let m = load("greedy-vs-greedy");
    let ctx = m.context();
    let gathol = city(&m, "gathol");
    let n = neutral_at(&m, gathol);
    let kk = commander(&m, "kantos-kan");
    let helium = nation(&m, "helium");
    let mut dice = Dice::for_trial(1, 1);
    // A fleet alone: 2 [24.23].
    let mut g = Game::new(&ctx, &mut Dice::for_trial(1, 0));
    push(&mut g, group(0, helium, gathol, 1, 0));
    g.influence(n, &mut dice, &mut NoTrace);
    assert_eq!(g.neutrals[n].influence, [2, 0]);
    // A fleet and a commander alone: 3 [24.25].
    let mut g = Game::new(&ctx, &mut Dice::for_trial(1, 0));
    push(&mut g, group(0, helium, gathol, 1, 1 << kk));
    g.influence(n, &mut dice, &mut NoTrace);
    assert_eq!(g.neutrals[n].influence, [3, 0]);
    g.influence(n, &mut dice, &mut NoTrace);
    // Six: influenced at the end of the phase [24.21, 24.33].
    assert_eq!(g.neutrals[n].influence, [6, 0]);
    assert_eq!(g.neutrals[n].influenced_by, 0);
    // Fleet and commander against a fleet alone: 2 and 0 [24.24].
    let mut g = Game::new(&ctx, &mut Dice::for_trial(1, 0));
    push(&mut g, group(0, helium, gathol, 1, 1 << kk));
    push(&mut g, group(1, nation(&m, "dusar"), gathol, 3, 0));
    g.influence(n, &mut dice, &mut NoTrace);
    assert_eq!(g.neutrals[n].influence, [2, 0]);
}

#[test]
fn in_fighting_gains_match_the_tables() {
    // [24.31] a fleet each, no commanders: one round of in-fighting. Each
    // player's gain is points(d10 +/- matrix[m0][m1]) with uniform modes;
    // Helium's portion comes first, so the alliance (at 0) loses nothing
    // to it, while Helium keeps his gain less what the alliance's roll
    // costs him [24.33]. The exact mean is the average over 5 x 5 modes
    // and 10 x 10 faces.
    let m = load("greedy-vs-greedy");
    let ctx = m.context();
    let d = &m.rules().diplomacy;
    let modes = d.modes.len();
    let mut exact = [0.0f64; 2];
    for a in 0..modes {
        for b in 0..modes {
            let x = i32::from(d.matrix[a][b]);
            for r0 in 1..=10 {
                for r1 in 1..=10 {
                    let kept = d.points(r0 + x).saturating_sub(d.other_loses(r1 - x));
                    exact[0] += f64::from(kept);
                    exact[1] += f64::from(d.points(r1 - x));
                }
            }
        }
    }
    let cells = (modes * modes * 100) as f64;
    exact = [exact[0] / cells, exact[1] / cells];
    let gathol = city(&m, "gathol");
    let n = neutral_at(&m, gathol);
    let trials = 20_000;
    let mut sum = [0.0f64; 2];
    let mut sq = [0.0f64; 2];
    for t in 0..trials {
        let mut g = Game::new(&ctx, &mut Dice::for_trial(2, 0));
        push(&mut g, group(0, nation(&m, "helium"), gathol, 1, 0));
        push(&mut g, group(1, nation(&m, "dusar"), gathol, 1, 0));
        g.influence(n, &mut Dice::for_trial(3, t), &mut NoTrace);
        for p in 0..2 {
            let v = f64::from(g.neutrals[n].influence[p]);
            assert!(v <= 3.0, "never more than three a Turn [24.26]");
            sum[p] += v;
            sq[p] += v * v;
        }
    }
    for p in 0..2 {
        let mean = sum[p] / trials as f64;
        let se = ((sq[p] / trials as f64 - mean * mean) / trials as f64).sqrt();
        assert!(
            (mean - exact[p]).abs() < 4.0 * se,
            "player {p}: {mean} vs {}",
            exact[p]
        );
    }
}

// ---------------------------------------------------------------- storms, victory

#[test]
fn a_storm_destroys_fleets_in_transit_and_stops_movement() {
    // [22.28, 22.29] turn 15 arms the storm roll; on a 1 or 2 every fleet
    // between cities is lost, its commander comes home after the next Turn.
    let m = load("greedy-vs-greedy");
    let ctx = m.context();
    let (gh, dusar) = (city(&m, "greater-helium"), city(&m, "dusar"));
    let nutus = commander(&m, "nutus");
    let mut storms = 0;
    for seed in 0..60 {
        let mut g = Game::new(&ctx, &mut Dice::for_trial(1, 0));
        g.turn = 15;
        let mut x = group(1, nation(&m, "dusar"), gh, 3, 1 << nutus);
        x.from = dusar as u8;
        x.in_transit = true;
        x.left = 50;
        for y in g.groups.iter_mut().take(g.len) {
            y.commanders &= !(1 << nutus);
        }
        push(&mut g, x);
        let mut dice = Dice::for_trial(seed, 4);
        g.diplomacy_phase(&mut dice, &mut NoTrace);
        let in_air = g.groups().iter().any(|y| y.in_transit);
        if g.storm_now {
            storms += 1;
            assert!(!in_air);
            assert_eq!(g.stats.storm_losses, [0, 3]);
            assert_eq!(g.commander_return[nutus], 16);
            assert!(!g.storm_armed, "one storm, then wait for the next period");
            let before = g.groups;
            g.movement_phase(0, &mut dice, &mut NoTrace);
            assert_eq!(g.groups, before, "no movement in a storm");
        } else {
            assert!(in_air);
            assert!(g.storm_armed, "rolled again next Turn");
        }
    }
    // P(storm) = 1/3: 60 tries give 20 on average, sd 3.65.
    assert!((6..=35).contains(&storms), "{storms}");
}

#[test]
fn victory_needs_every_capital_at_the_end_of_a_turn() {
    // [25.3] Helium holds all five player capitals and has influenced
    // Gathol and Ptarth (which hold their own capitals for it).
    let m = load("greedy-vs-greedy");
    let rules = m.rules();
    let mut g = Game::new(&m.context(), &mut Dice::for_trial(1, 0));
    for c in [
        "greater-helium",
        "lesser-helium",
        "dusar",
        "jahar",
        "tjanath",
    ] {
        g.controller[city(&m, c)] = 0;
    }
    assert_eq!(
        g.end_of_turn(rules, &mut NoTrace),
        None,
        "Gathol and Ptarth are neutral"
    );
    for c in ["gathol", "ptarth"] {
        let n = neutral_at(&m, city(&m, c));
        g.neutrals[n].influenced_by = 0;
    }
    assert_eq!(g.end_of_turn(rules, &mut NoTrace), Some(0));
    g.controller[city(&m, "jahar")] = 1;
    assert_eq!(g.end_of_turn(rules, &mut NoTrace), None);
}

// ---------------------------------------------------------------- whole games

fn tally(m: &JcMilitary, trials: u64, threads: usize) -> Tally {
    common::tally(m, 17, 0..trials, threads, 64)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn every_game_ends_and_results_do_not_depend_on_threads() {
    for name in ["random-vs-random", "greedy-vs-greedy", "greedy-first-mover"] {
        let m = load(name);
        let one = tally(&m, 300, 1);
        assert_eq!(one, tally(&m, 300, 2), "{name}");
        assert_eq!(one.trials(), 300);
    }
    // The lookahead policy's rollouts draw their own dice from the game's:
    // still the same results on any number of threads.
    let m = load("lookahead-helium");
    let one = tally(&m, 100, 1);
    assert_eq!(one, tally(&m, 100, 2), "lookahead-helium");
    // Every game stops at victory or the limit, whatever the seed.
    let m = load("random-vs-random");
    let limit = m.config().turn_limit;
    let mut winners = [0u32; 3];
    for trial in 0..400 {
        let (_, end) = m.play(&mut Dice::for_trial(23, trial), &mut NoTrace);
        assert!(end.turns >= 1 && end.turns <= limit);
        match end.winner {
            Some(p) => {
                winners[p] += 1;
                assert!(end.turns <= limit);
            }
            None => {
                winners[2] += 1;
                assert_eq!(end.turns, limit, "unfinished means the limit was reached");
            }
        }
    }
    assert_eq!(winners.iter().sum::<u32>(), 400);
}

#[test]
fn replays_match_bulk_rows() {
    let m = load("greedy-vs-greedy");
    common::assert_replays_match_bulk(&m, 3, 128, 32, &[0, 77, 127], "JC 22.21");
    let r = m.run_trial(&mut Dice::for_trial(3, 5), &mut NoTrace);
    assert!(r.outcome < 3);
}

#[test]
fn cached_battles_are_jc_fleet_battles_dice_for_dice() {
    // The combat of a key is the battle jc.fleet compiles from the same
    // forces: built afresh or taken from the cache, the same dice give the
    // same result.
    use barsoom::games::jc::fleet::{
        Battle, BattleSetup, DEFAULT_MAX_ROUNDS, Force, ManeuverPolicy, SidePolicy, resolve_battle,
    };
    use barsoom::games::jc::military::battles::fight;
    let m = load("greedy-vs-greedy");
    let dusar = city(&m, "dusar");
    let (jc, nutus) = (commander(&m, "john-carter"), commander(&m, "nutus"));
    let mut g = empty_game(&m);
    push(&mut g, group(0, nation(&m, "helium"), dusar, 6, 1 << jc));
    push(&mut g, group(1, nation(&m, "dusar"), dusar, 5, 1 << nutus));
    let key = g.battle_key(0, dusar, Target::Enemy);
    let data = &m.rules().data;
    let force = |n: &str, s: u8, c: usize| Force {
        label: n.into(),
        nation: data.nation(n).expect("nation"),
        strength: s,
        commanders: vec![c],
        neutral: None,
    };
    let setup = BattleSetup {
        sides: [force("helium", 6, jc), force("dusar", 5, nutus)],
        capital: data.capital("dusar"),
        holder: None,
        phasing: 0,
    };
    let policy = SidePolicy {
        maneuver: ManeuverPolicy::Minimax,
        ..SidePolicy::default()
    };
    let fresh = Battle::new(data, &setup, &[policy, policy], DEFAULT_MAX_ROUNDS).expect("battle");
    for t in 0..500 {
        let a = fight(m.cache(), data, &key, &mut Dice::for_trial(9, t));
        let b = resolve_battle(&fresh, &mut Dice::for_trial(9, t));
        assert_eq!(a, b, "trial {t}");
    }
    assert_eq!(m.cache().len(), 1, "one key, compiled once");
}

// ---------------------------------------------------------------- [24.41, 24.47]

/// The distance a group still has to cover to `home`: from where it stands,
/// or from its destination plus what is left of the flight.
fn to_home(m: &JcMilitary, x: &Group, home: usize) -> u32 {
    u32::from(m.rules().map.distance(usize::from(x.city), home)) + u32::from(x.left)
}

/// Over 50 seeds: Gathol's fleets (3 points, influenced by Helium) stand
/// in Greater Helium, with whatever `setup` adds; after Helium's Movement
/// Phase they have set out and are no farther from Gathol.
fn assert_gathol_fleets_fly_home(setup: impl Fn(&JcMilitary, &mut Game)) {
    let m = load("greedy-vs-greedy");
    let (gh, gathol) = (city(&m, "greater-helium"), city(&m, "gathol"));
    let n = neutral_at(&m, gathol);
    for seed in 0..50 {
        let mut g = empty_game(&m);
        g.neutrals[n].influenced_by = 0;
        let mut x = group((2 + n) as u8, nation(&m, "gathol"), gh, 3, 0);
        x.from = gathol as u8;
        push(&mut g, x);
        setup(&m, &mut g);
        let before = to_home(&m, &g.groups[0], gathol);
        g.movement_phase(0, &mut Dice::for_trial(seed, 1), &mut NoTrace);
        let x = *g
            .groups()
            .iter()
            .find(|x| x.owner >= 2)
            .expect("Gathol's fleets");
        assert!(
            x.in_transit || usize::from(x.city) != gh,
            "seed {seed}: still in Greater Helium: {x:?}"
        );
        assert!(to_home(&m, &x, gathol) <= before, "seed {seed}: {x:?}");
        assert_eq!(x.strength, 3);
    }
}

#[test]
fn influenced_neutral_fleets_without_a_home_fleet_fly_home() {
    // [24.41] no Heliumite fleet beside them: they set out towards Gathol,
    // on any cards.
    assert_gathol_fleets_fly_home(|_, _| {});
}

#[test]
fn influenced_neutral_fleets_beside_a_home_fleet_stay_under_orders() {
    // [24.41] one home strength point beside them is enough: the same
    // Gathol fleets with a Heliumite fleet in Greater Helium do not fly
    // off on their own (the alliance's phase moves neither).
    let m = load("greedy-vs-greedy");
    let (gh, gathol) = (city(&m, "greater-helium"), city(&m, "gathol"));
    let n = neutral_at(&m, gathol);
    let mut g = empty_game(&m);
    g.neutrals[n].influenced_by = 0;
    push(&mut g, group((2 + n) as u8, nation(&m, "gathol"), gh, 3, 0));
    push(&mut g, group(0, nation(&m, "helium"), gh, 1, 0));
    g.movement_phase(1, &mut Dice::for_trial(1, 1), &mut NoTrace);
    let x = g.groups[0];
    assert!(!x.in_transit && usize::from(x.city) == gh, "{x:?}");
}

#[test]
fn neutral_fleets_go_home_when_the_enemy_takes_their_city() {
    // [24.47] the alliance holds Gathol: its fleets leave for home even
    // beside a Heliumite fleet (the capital's one-point garrison, which
    // stays).
    assert_gathol_fleets_fly_home(|m, g| {
        g.controller[city(m, "gathol")] = 1;
        push(
            g,
            group(0, nation(m, "helium"), city(m, "greater-helium"), 1, 0),
        );
    });
}

#[test]
fn the_diplomacy_tables_are_their_formulas_and_say_so() {
    // [24.5, 24.6] reconstructed: a cycle of five modes and bands of three
    // pips, each provenance giving its formula and the fixed points of
    // [24.3, 24.26].
    let data = common::jc_data_toml("diplomacy.toml");
    let matrix = common::toml_grid(&data["maneuvers"]["matrix"]);
    let cycle = [0, 2, -1, 1, -2];
    for (row, cells) in matrix.iter().enumerate() {
        for (column, &cell) in cells.iter().enumerate() {
            assert_eq!(
                cell,
                cycle[(column + 5 - row) % 5],
                "row {row}, column {column}"
            );
        }
    }
    common::assert_provenance_states(
        &data,
        "maneuvers",
        &[
            "[0, 2, -1, 1, -2][(column - row) mod 5]",
            "[24.3 PROCEDURE]",
            "--set maneuvers.matrix[i][j]=n",
        ],
    );
    let lowest = data["results"]["lowest"].as_integer().expect("lowest");
    let points: Vec<i64> = data["results"]["points"]
        .as_array()
        .expect("points")
        .iter()
        .map(|v| v.as_integer().expect("an integer"))
        .collect();
    for (i, &p) in points.iter().enumerate() {
        let roll = lowest + i as i64;
        assert_eq!(p, (roll / 3).clamp(0, 3), "roll {roll}");
    }
    common::assert_provenance_states(
        &data,
        "results",
        &[
            "min(3, max(0, floor(roll / 3)))",
            "[24.26]",
            "--set results.points[i]=n",
            "--set results.other[i]=n",
        ],
    );
}
