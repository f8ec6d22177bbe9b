//! Personages in the Strategic Game's duels (Tavia or Llana beside the hero
//! she loves [19.23]; the captive chained in the palace's dungeon and freed
//! inside the duel [5.55, 7.25 (2)]) and the city extents the corner towers
//! mark out (the City Sub-game's introduction), with scripted chances.

use super::JcStrategic;
use super::city::Flow;
use super::dice::Roller;
use super::duels::FightOptions;
use super::game::{CAPTIVE_QUARRY, Game, NONE, Place, Spot, VILLAIN_QUARRY};
use super::players::{self, VillainPolicy};
use super::script::Script;
use super::story_tests::{city, game, k, model, set_retinue};
use super::tables::{HOUSE, STREET};
use crate::jc::deck::DeckState;
use crate::jc::duel::escape::Goal;
use crate::jc::duel::model::{DEFAULT_MAX_TURNS, DisplayParts, Entry, SetUpOptions, set_up};
use crate::jc::duel::policy::Policy;
use crate::jc::duel::sequence::Status;
use crate::jc::duel::sequence::{Duel, DuelResult};
use crate::jc::swordsman::{Bout, BoutResult};
use crate::jetan::players::Player as JetanPlayer;
use barsoom_engine::{Dice, NoTrace, Roll};

/// The player whose hero is roster character `id`.
fn seat(g: &Game, m: &JcStrategic, id: &str) -> usize {
    (0..g.heroes.len())
        .find(|&p| g.heroes[p].character == k(m, id))
        .unwrap_or_else(|| panic!("{id} in play"))
}

/// Hero `p` fights two red warriors in the street and wins, by `r`.
fn street_fight<R: Roller>(m: &JcStrategic, g: &mut Game, p: usize, r: &mut R) {
    let foes = [(k(m, "red-warrior"), 0u8); 2];
    let options = FightOptions::on(STREET);
    assert!(
        g.fight(&m.context(), p, &foes, options, r, &mut NoTrace)
            .won
    );
}

/// Hero `p` fights two red warriors in the street; the duel as compiled.
fn street_duel(m: &JcStrategic, g: &mut Game, p: usize) -> Duel {
    let mut s = Script::default().duels(&[true]);
    street_fight(m, g, p, &mut s);
    assert!(s.done(), "one duel, no other");
    s.fought.pop().expect("a duel")
}

/// A game with Tavia in Tan Hadron's retinue and his love: the game, his
/// seat and her.
fn tavia_loves_tan_hadron(m: &JcStrategic) -> (Game, usize, u8) {
    let mut g = game(m);
    let p = seat(&g, m, "tan-hadron");
    let tavia = k(m, "tavia");
    set_retinue(&mut g, p, &[tavia]);
    g.story.heroes[p].love = tavia;
    (g, p, tavia)
}

#[test]
fn tavia_fights_beside_tan_hadron_whom_she_loves_19_23() {
    // [19.23] Tavia in Tan Hadron's retinue, loving him: she is on his side
    // of the strategic duel, standing aside [5.73] until he falls to level
    // 2, when her parenthesised values come into play.
    let m = model("six-heroes");
    let (mut g, p, _) = tavia_loves_tan_hadron(&m);
    let cached = m.context().duels.len();
    let duel = street_duel(&m, &mut g, p);
    assert_eq!(duel.fighters[0].id, "tan-hadron");
    let t = duel
        .fighters
        .iter()
        .position(|f| f.id == "tavia")
        .expect("Tavia in the duel");
    assert_eq!(duel.fighters[t].side, 0);
    assert_eq!(duel.fighters[t].loves, Some(0), "she loves her hero");
    assert!(
        duel.special.personages & (1 << t) != 0,
        "a personage [5.72]"
    );
    let mut st = duel.start();
    assert_eq!(st.status[t], Status::Bystander);
    st.level[0] = 2;
    duel.personages_take_up_swords(&mut st, &mut NoTrace);
    assert_eq!(st.status[t], Status::Fighting, "her values in play");
    // Not his love: she takes no part, and that is another duel to
    // compile (the personage is part of the cache key).
    g.story.heroes[p].love = NONE;
    let without = street_duel(&m, &mut g, p);
    assert!(without.fighters.iter().all(|f| f.id != "tavia"));
    assert_eq!(m.context().duels.len(), cached + 2);
    // A personage with no fighting values never comes in, loved or not.
    let dejah = k(&m, "dejah-thoris");
    set_retinue(&mut g, p, &[dejah]);
    g.story.heroes[p].love = dejah;
    let plain = street_duel(&m, &mut g, p);
    assert!(plain.fighters.iter().all(|f| f.id != "dejah-thoris"));
}

/// A scripted duel in which a foe leads Tavia off the display [5.72] (her
/// hero's side holds the field).
struct TaviaLedAway(Script);

impl Roll for TaviaLedAway {
    fn die(&mut self, sides: u32) -> u32 {
        self.0.die(sides)
    }

    fn pick(&mut self, n: usize) -> usize {
        self.0.pick(n)
    }
}

impl Roller for TaviaLedAway {
    fn card(&mut self, deck: &mut DeckState) -> usize {
        self.0.card(deck)
    }

    fn duel(&mut self, duel: &Duel, policies: &[Policy; 2]) -> DuelResult {
        let mut result = self.0.duel(duel, policies);
        for (i, f) in duel.fighters.iter().enumerate() {
            if f.id == "tavia" {
                result.status[i] = Status::Escaped;
            }
        }
        result
    }

    fn bout(&mut self, bout: &Bout) -> BoutResult {
        self.0.bout(bout)
    }

    fn jetan(&mut self, players: [JetanPlayer; 2]) -> Option<bool> {
        self.0.jetan(players)
    }
}

#[test]
fn tavia_led_off_the_display_by_a_foe_is_carried_off_to_the_villain_5_72() {
    // [5.72] an enemy beside her leads her away as he leaves the display
    // (a villain withdrawing [10.22]): she leaves Tan Hadron's retinue for
    // his villain's captives, his destined princess as his love [13.14].
    let m = model("six-heroes");
    let (mut g, p, tavia) = tavia_loves_tan_hadron(&m);
    let mut led_away = TaviaLedAway(Script::default().duels(&[true]));
    street_fight(&m, &mut g, p, &mut led_away);
    assert!(!g.heroes[p].has(tavia), "gone from his retinue");
    let held = g.parties[p].captive == tavia || g.story.heroes[p].held & (1u128 << tavia) != 0;
    assert!(held, "held by his villain");
    assert_eq!(g.story.heroes[p].princess, tavia);
    // On the display at the end (not led away), she stays with him.
    let (mut g, p, tavia) = tavia_loves_tan_hadron(&m);
    street_duel(&m, &mut g, p);
    assert!(g.heroes[p].has(tavia));
}

/// John Carter in Zodanga, his villain's captive hidden in house A of the
/// area `area`, known to him there; no companions.
fn captive_known_in(m: &JcStrategic, area: u8) -> (Game, u8) {
    let ctx = m.context();
    let mut g = game(m);
    let p = 0;
    set_retinue(&mut g, p, &[]);
    let zodanga = city(m, "zodanga");
    g.parties[p].city = zodanga;
    g.heroes[p].place = Place::City(zodanga);
    g.enter_city(&ctx, p, &mut Script::default(), &mut NoTrace);
    assert!(g.parties[p].holds_captive());
    g.parties[p].spots[CAPTIVE_QUARRY] = Spot {
        area,
        house: 0,
        room: 0,
    };
    g.heroes[p].city.area = area;
    g.heroes[p].city.knows[CAPTIVE_QUARRY] = 2;
    let captive = g.parties[p].captive;
    (g, captive)
}

#[test]
fn the_captive_chained_in_the_palace_dungeon_is_freed_inside_the_duel_5_55() {
    // [7.25 (2)] the captive hidden in the palace is chained in its
    // dungeon; [5.55] the hero opens the door, frees her and gets out with
    // her by the tower's fliers: the guard still stands (the duel is not
    // won) but she is rescued, and he is not taken prisoner.
    let m = model("two-heroes");
    let ctx = m.context();
    let palace = ctx.data.city_map.palace;
    let (mut g, captive) = captive_known_in(&m, palace);
    let mut s = Script::default().duels(&[false]).left(&[true]);
    let flow = g.house_duel(&ctx, 0, CAPTIVE_QUARRY, &mut s, &mut NoTrace);
    assert!(s.done());
    let duel = &s.fought[0];
    let chained = duel
        .fighters
        .iter()
        .position(|f| f.prisoner)
        .expect("the captive in the duel");
    assert_eq!(
        duel.fighters[chained].id,
        ctx.data.roster.characters[usize::from(captive)].id
    );
    assert_eq!(duel.fighters[chained].side, 0, "friendly to the hero [7.7]");
    assert!(duel.fighters[chained].in_dungeon);
    assert_eq!(duel.special.goals[0], Goal::Rescue);
    assert_eq!(g.parties[0].captive, NONE, "rescued");
    assert!(g.heroes[0].has(captive));
    assert_eq!(g.heroes[0].stats.imprisonments, 0);
    assert!(g.heroes[0].city.secret, "seen: he moves secretly now");
    assert_eq!(flow, Flow::Continue, "the villain's group is still to find");
    assert!(g.check_invariants(&ctx).is_ok());
}

#[test]
fn a_captive_in_a_house_has_no_dungeon_and_the_hero_fights_the_guard_out() {
    // The house display has no dungeon: she is not in the duel, the hero
    // fights to the end [7.24], and a win rescues her as before.
    let m = model("two-heroes");
    let ctx = m.context();
    let market = ctx
        .data
        .city_map
        .areas
        .iter()
        .position(|a| a.id == "market")
        .expect("the market") as u8;
    let (mut g, captive) = captive_known_in(&m, market);
    let mut s = Script::default().duels(&[true]);
    g.house_duel(&ctx, 0, CAPTIVE_QUARRY, &mut s, &mut NoTrace);
    let duel = &s.fought[0];
    assert!(duel.fighters.iter().all(|f| !f.prisoner));
    assert_eq!(duel.special.goals[0], Goal::Fight);
    assert_eq!(
        duel.display.name,
        ctx.data.displays[usize::from(HOUSE)].name
    );
    assert!(g.heroes[0].has(captive));
}

#[test]
fn a_small_city_s_outer_areas_are_deserted_and_a_great_city_s_are_not() {
    // The City Sub-game's introduction: the corner towers of the City
    // Directory bound the city proper, and the areas outside are deserted:
    // no villain is hidden there [16.16], no one is found staying there
    // [15.33], and information there is the deserted quarter's [16.27].
    let m = model("two-heroes");
    let ctx = m.context();
    let data = ctx.data;
    let area = |id: &str| {
        data.city_map
            .areas
            .iter()
            .position(|a| a.id == id)
            .expect("an area") as u8
    };
    let (horz, zodanga) = (city(&m, "horz"), city(&m, "zodanga"));
    let (slaves, nobles, market) = (area("slaves"), area("nobles"), area("market"));
    for a in [slaves, nobles] {
        assert!(data.deserted_area(horz, a), "outside Horz's towers");
        assert!(!data.deserted_area(zodanga, a), "inside Zodanga's");
        assert_eq!(
            data.information_area(horz, a),
            usize::from(data.city_map.deserted)
        );
        assert_eq!(data.information_area(zodanga, a), usize::from(a));
    }
    assert!(!data.deserted_area(horz, market));
    // A villain hiding at random: never outside a small city's towers,
    // sometimes in those areas of a great city.
    let mut g = game(&m);
    let controller = usize::from(g.parties[0].controller);
    g.policies[controller].1 = VillainPolicy::Random;
    let mut outside = [0u32; 2];
    for (i, c) in [horz, zodanga].into_iter().enumerate() {
        g.parties[0].city = c;
        for trial in 0..300 {
            let spots = players::hide(&ctx, &g, 0, &mut Dice::for_trial(7, trial));
            let v = spots[VILLAIN_QUARRY].area;
            assert_ne!(v, data.city_map.deserted, "[16.16]");
            outside[i] += u32::from(v == slaves || v == nobles);
        }
    }
    assert_eq!(outside[0], 0, "never outside Horz's towers");
    assert!(
        outside[1] > 0,
        "Zodanga's slaves' and nobles' quarters are its own"
    );
}

/// A palace duel of `ours` (ids, and whether each is a prisoner of the
/// hero's side) against `theirs`, the hero's side discovered and come to
/// rescue its prisoners, set up with `parts`.
fn palace_duel(
    m: &JcStrategic,
    ours: &[(&str, bool)],
    theirs: &[&str],
    parts: &DisplayParts,
) -> Duel {
    use super::tables::PALACE;
    let data = m.data();
    let entry = |id: &str, prisoner: bool| Entry {
        character: usize::from(k(m, id)),
        level: 6,
        prisoner,
        ..Entry::default()
    };
    let ours: Vec<Entry> = ours.iter().map(|&(id, p)| entry(id, p)).collect();
    let theirs: Vec<Entry> = theirs.iter().map(|&id| entry(id, false)).collect();
    let options = SetUpOptions {
        discovered: true,
        grounded: false,
        max_turns: DEFAULT_MAX_TURNS,
        break_off: false,
        deadline: false,
        withdraw: true,
        secret_passage: true,
        rescue: true,
    };
    set_up(
        &data.displays[usize::from(PALACE)],
        [&ours, &theirs],
        &data.roster,
        data.melee,
        &data.duel_specials,
        &data.swordsman,
        options,
        parts,
    )
    .expect("a palace duel")
}

#[test]
fn a_woman_is_never_chained_beside_a_man_in_the_dungeon_7_25() {
    // [7.25] the dungeon holds women or men, never both: of two prisoners
    // of the hero's side, the first chained decides, and the other is left
    // out of the duel (still held by the villain).
    let m = model("two-heroes");
    let chained = |prisoners: [&str; 2]| -> Vec<String> {
        let ours = [
            ("john-carter", false),
            (prisoners[0], true),
            (prisoners[1], true),
        ];
        palace_duel(&m, &ours, &["red-warrior"], &DisplayParts::default())
            .fighters
            .iter()
            .filter(|f| f.prisoner && f.in_dungeon)
            .map(|f| f.id.clone())
            .collect()
    };
    assert_eq!(chained(["thuvia", "ras-thavas"]), ["thuvia"]);
    assert_eq!(chained(["ras-thavas", "thuvia"]), ["ras-thavas"]);
    assert_eq!(
        chained(["thuvia", "dejah-thoris"]),
        ["thuvia", "dejah-thoris"]
    );
}

#[test]
fn duels_on_one_display_share_its_variants_and_fields() {
    // Two palace duels set up with one `DisplayParts` hold the same display
    // variants and steering fields (one copy in memory), and those are what
    // a duel compiled on its own builds.
    use std::sync::Arc;
    let m = model("two-heroes");
    let ours = [("john-carter", false), ("thuvia", true)];
    let shared = DisplayParts::default();
    let a = palace_duel(&m, &ours, &["red-warrior"], &shared);
    let b = palace_duel(&m, &ours, &["green-warrior"], &shared);
    let alone = palace_duel(&m, &ours, &["red-warrior"], &DisplayParts::default());
    assert_eq!(a.special.variants.len(), 4, "the palace has openings");
    assert!(Arc::ptr_eq(&a.special.variants, &b.special.variants));
    assert_eq!(a.special.fields.len(), 4);
    for (v, (fa, fb)) in a.special.fields.iter().zip(&b.special.fields).enumerate() {
        assert!(Arc::ptr_eq(&fa.door, &fb.door), "variant {v}");
        assert!(Arc::ptr_eq(&fa.exits[0], &fb.exits[0]), "variant {v}");
        let fresh = &alone.special.fields[v];
        assert!(!Arc::ptr_eq(&fa.door, &fresh.door));
        assert_eq!(fa.door, fresh.door, "variant {v}");
        assert_eq!(fa.exits, fresh.exits, "variant {v}");
        assert_eq!(fa.exit_squares, fresh.exit_squares, "variant {v}");
        assert_eq!(fa.beside, fresh.beside, "variant {v}");
        assert!(
            fa.beside.iter().any(|f| f.contains(&0)),
            "the chained prisoner has squares beside him"
        );
    }
    assert_eq!(*a.special.variants, *alone.special.variants);
}
