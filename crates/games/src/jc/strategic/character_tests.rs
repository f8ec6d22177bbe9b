//! Worked examples of the special characters of [19] with scripted
//! chances (Ras Thavas, Tars Tarkas, Ghek, Thuvia, Kar Komak, Woola, the
//! secret ways, Tor-dur-bar): each sets a game up, scripts the dice, and
//! checks what the rules say must follow. The set-up helpers are
//! `story_tests`'.

use super::JcStrategic;
use super::city::Flow;
use super::duels::{Company, FightOptions};
use super::events::Defeat;
use super::game::{Context, Game, NONE, Place};
use super::hooks::FriendSource;
use super::script::Script;
use super::story_tests::{city, game, hand, k, model, set_retinue};
use super::tables::{FLIER_DISPLAY, Foes, MAX_FOE_KINDS, STREET, Who};
use crate::jc::duel::sequence::Duel;
use crate::jc::event_deck::Hand;
use barsoom_engine::NoTrace;

#[test]
fn ras_thavas_moves_a_hero_s_brain_and_the_city_does_not_see_him() {
    // [19.31] Carthoris, with Ras Thavas, in Greater Helium; his villain
    // is in green Thark, where a red man must move secretly [15.31]: the
    // sensible hero takes a captain of the guard's body.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    g.parties[1].city = city(&m, "thark");
    g.heroes[1].place = Place::City(city(&m, "greater-helium"));
    set_retinue(&mut g, 1, &[k(&m, "ras-thavas")]);
    g.random_events_phase(&ctx, 1, &mut Script::default(), &mut NoTrace);
    assert_eq!(g.heroes[1].character, k(&m, "captain-of-the-guard"));
    assert_eq!(g.story.heroes[1].body, k(&m, "carthoris"));
    // In Thark he is not looked for until he fights there.
    g.heroes[1].place = Place::City(city(&m, "thark"));
    g.enter_city(&ctx, 1, &mut Script::default(), &mut NoTrace);
    assert!(g.unseen(1));
    g.fight_begins(
        &ctx,
        1,
        true,
        &[],
        STREET,
        &mut Script::default(),
        &mut NoTrace,
    );
    assert!(!g.unseen(1));
    // His glory won, he has his own body back in Gathol.
    g.end_city_game(&ctx, 1, &mut NoTrace);
    g.heroes[1].glory_at = 1;
    g.heroes[1].place = Place::City(city(&m, "gathol"));
    g.random_events_phase(&ctx, 1, &mut Script::default(), &mut NoTrace);
    assert_eq!(g.heroes[1].character, k(&m, "carthoris"));
}

#[test]
fn tars_tarkas_stays_three_turns_and_five_with_john_carter() {
    // [19.51] A 10 on the Encounter Friend Table is a hero: with John
    // Carter in play, Tars Tarkas [17.15]. He joins Carthoris on turn 5
    // and goes home at the start of turn 8.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let tars = k(&m, "tars-tarkas");
    g.turn = 5;
    set_retinue(&mut g, 1, &[]);
    g.befriend(
        &ctx,
        1,
        FriendSource::Outdoor,
        &mut Script::default().d10s(&[10]),
        &mut NoTrace,
    );
    assert!(g.heroes[1].has(tars));
    g.turn = 7;
    g.random_events_phase(&ctx, 1, &mut Script::default(), &mut NoTrace);
    assert!(g.heroes[1].has(tars));
    g.turn = 8;
    g.random_events_phase(&ctx, 1, &mut Script::default(), &mut NoTrace);
    assert!(!g.heroes[1].has(tars));
    assert_eq!(g.in_play & (1u128 << tars), 0);
    // With John Carter, five turns: joined on 8, gone on 13.
    g.friend_joins(&ctx, 0, tars, &mut NoTrace);
    assert_eq!(g.story.heroes[0].tars_leaves, 13);
}

#[test]
fn ghek_takes_one_off_the_escape_roll() {
    // [19.44] Gahan starts with Ghek [20.35]. Imprisoned, a cellmate of no
    // consequence (1), an escape roll of 3 less Ghek's 1 is within the
    // base 2 in 10 [17.21]: he escapes.
    let m = model("six-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let p = 2;
    assert!(g.heroes[p].has(k(&m, "ghek")));
    assert_eq!(
        g.special_escape_help(&ctx, p, &mut Script::default(), &mut NoTrace),
        1
    );
    let c = g.parties[p].city;
    g.heroes[p].place = Place::City(c);
    g.enter_city(&ctx, p, &mut Script::default(), &mut NoTrace);
    let mut s = Script::default().d10s(&[1, 3]);
    let flow = g.imprison(&ctx, p, &mut s, &mut NoTrace);
    assert!(s.done());
    assert_eq!(flow, Flow::EndTurn);
    assert_eq!(g.heroes[p].stats.escapes, 1);
    // Cards 38-39 make any escape roll succeed.
    g.story.hands[p] = hand(&[38]);
    assert_eq!(
        g.special_escape_help(&ctx, p, &mut Script::default(), &mut NoTrace),
        10
    );
}

fn foes(list: &[(u8, u8)]) -> Foes {
    let mut f = Foes {
        list: [(Who::CityWarrior, 0); MAX_FOE_KINDS],
        len: 0,
    };
    for &(k, n) in list {
        f.list[usize::from(f.len)] = (Who::Character(k), n);
        f.len += 1;
    }
    f
}

#[test]
fn thuvia_turns_banths_away_and_the_cards_avoid_encounters() {
    // [19.22] With Thuvia, two banths are no encounter; white apes are.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    set_retinue(&mut g, 0, &[k(&m, "thuvia")]);
    let banths = foes(&[(k(&m, "banth"), 2)]);
    let apes = foes(&[(k(&m, "white-ape"), 2)]);
    let mut s = Script::default();
    assert!(g.encounter_avoided(&ctx, 0, &banths, true, &mut s, &mut NoTrace));
    assert!(!g.encounter_avoided(&ctx, 0, &apes, true, &mut s, &mut NoTrace));
    // Cards 44-45: the sensible hero goes round beasts.
    g.story.hands[0] = hand(&[44]);
    assert!(g.encounter_avoided(&ctx, 0, &apes, true, &mut s, &mut NoTrace));
    assert!(g.story.hands[0].is_empty());
}

#[test]
fn the_mind_control_table_in_bantoom() {
    // [19.32, 19.33] Gahan's villain (O-Tar and Luud) in Bantoom calls on
    // Luud before the duel: a 6 is a mind battle, a level down for two
    // Strategic Turns; a 10 takes a minor character into the villain's
    // entourage (never Ghek [19.43]); a 9 dooms the captive, who dies if
    // Gahan loses an arena duel there.
    let m = model("six-heroes");
    let ctx = m.context();
    let p = 2;
    let mut g = game(&m);
    g.parties[p].city = city(&m, "bantoom");
    g.before_villain_duel(&ctx, p, &mut Script::default().d10s(&[6]), &mut NoTrace);
    assert_eq!(g.heroes[p].penalty, (1, 2));
    let dar = k(&m, "dar-tarus");
    set_retinue(&mut g, p, &[k(&m, "ghek"), dar]);
    g.before_villain_duel(&ctx, p, &mut Script::default().d10s(&[10]), &mut NoTrace);
    assert!(!g.heroes[p].has(dar) && g.heroes[p].has(k(&m, "ghek")));
    assert!(g.parties[p].henchmen().contains(&dar));
    g.before_villain_duel(&ctx, p, &mut Script::default().d10s(&[9]), &mut NoTrace);
    assert!(g.story.heroes[p].doomed);
    assert!(!g.saved_from_defeat(&ctx, p, Defeat::Arena, &mut Script::default(), &mut NoTrace));
    assert_eq!(g.parties[p].captive, NONE);
    assert!(g.heroes[p].love_barred);
    // Elsewhere nobody is called on.
    let mut g = game(&m);
    g.parties[p].city = city(&m, "zodanga");
    let mut s = Script::default();
    g.before_villain_duel(&ctx, p, &mut s, &mut NoTrace);
    assert_eq!(g.heroes[p].penalty, (0, 0));
}

#[test]
fn beaten_by_beasts_any_player_s_miraculous_escape_must_save_the_hero() {
    // [11.33] John Carter's player has no card; Carthoris's holds 2: he
    // must play it; the hero gets away and loses his next Strategic Turn.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    g.story.hands[1] = hand(&[2]);
    assert!(g.saved_from_defeat(
        &ctx,
        0,
        Defeat::Beasts,
        &mut Script::default(),
        &mut NoTrace
    ));
    assert_eq!(g.heroes[0].skip, 1);
    assert!(g.story.hands[1].is_empty());
    // Against warriors the free card comes first: 49 keeps him armed and
    // costs nothing.
    g.story.hands[0] = hand(&[3, 49]);
    assert!(g.saved_from_defeat(
        &ctx,
        0,
        Defeat::Capture,
        &mut Script::default(),
        &mut NoTrace
    ));
    assert_eq!(g.story.hands[0].cards(), [3]);
    assert_eq!(g.heroes[0].skip, 1);
    // No card, no rescue.
    g.story.hands = [Hand::default(); super::game::MAX_PLAYERS];
    assert!(!g.saved_from_defeat(
        &ctx,
        0,
        Defeat::Beasts,
        &mut Script::default(),
        &mut NoTrace
    ));
}

#[test]
fn kar_komak_raises_phantoms_twice_a_game() {
    // [19.41] Against five foes the sensible Carthoris has Kar Komak raise
    // five phantom warriors while both materialisations are left; the
    // second is kept for the duel with the villain's group, and after it
    // there are no more, even there.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let five = [(k(&m, "red-warrior"), 0u8); 5];
    let phantom = k(&m, "phantom-warrior");
    let fight = |g: &mut Game, foes: &[(u8, u8)], villain: bool| {
        g.story.heroes[1].villain_duel = villain;
        g.fight_begins(
            &ctx,
            1,
            true,
            foes,
            STREET,
            &mut Script::default(),
            &mut NoTrace,
        )
        .allies
    };
    assert_eq!(fight(&mut g, &five, false), (5, phantom));
    assert_eq!(g.story.kar_komak_used, 1);
    assert_eq!(fight(&mut g, &five, false).0, 0, "the last one is kept");
    assert_eq!(fight(&mut g, &five[..1], true), (5, phantom));
    assert_eq!(g.story.kar_komak_used, 2);
    assert_eq!(fight(&mut g, &five, true).0, 0, "two a game [19.41]");
    // Against two foes he keeps them; the villain's duel takes one even
    // against a single foe.
    let mut g = game(&m);
    assert_eq!(fight(&mut g, &five[..2], false).0, 0);
    assert_eq!(fight(&mut g, &five[..1], true), (5, phantom));
    // The count is the game's: a fresh game has both again.
    assert_eq!(game(&m).story.kar_komak_used, 0);
}

/// Where John Carter sets up on the street display: the first square of
/// its first entrance, at the top-left, facing south to his foes.
const JOHN_CARTER_IN_THE_STREET: (i16, i16) = (9, 4);
/// The first free square straight behind him: one counter (4 boxes) north.
const WOOLA_BEHIND: (i16, i16) = (9, 0);

/// Woola's and John Carter's indices in a duel the strategic game fought.
fn woola_in(duel: &Duel) -> Option<(usize, usize)> {
    let w = duel.fighters.iter().position(|f| f.id == "woola")?;
    let jc = duel.fighters.iter().position(|f| f.id == "john-carter")?;
    Some((w, jc))
}

/// Hero `p` fights two red warriors with `options`, the duel scripted to
/// end `won`: that duel as the strategic game compiled it.
fn fight_two_warriors(
    m: &JcStrategic,
    g: &mut Game,
    p: usize,
    options: FightOptions,
    won: bool,
) -> Duel {
    let foes = [(k(m, "red-warrior"), 0u8); 2];
    let mut s = Script::default().duels(&[won]);
    let f = g.fight(&m.context(), p, &foes, options, &mut s, &mut NoTrace);
    assert!(s.done(), "one duel, no other");
    assert_eq!(f.won, won);
    s.fought.pop().expect("a duel")
}

#[test]
fn woola_fights_in_john_carter_s_duel_and_comes_in_at_level_2() {
    // [19.11, 19.12] John Carter fights two warriors in the street: Woola
    // is on his side of that very duel, off the display; there is no second
    // duel after John Carter's side has lost (the script holds one).
    use crate::jc::duel::sequence::Status as Fate;
    let m = model("two-heroes");
    let mut g = game(&m);
    set_retinue(&mut g, 0, &[]);
    let duel = fight_two_warriors(&m, &mut g, 0, FightOptions::on(STREET), false);
    let (w, jc) = woola_in(&duel).expect("Woola and John Carter in the duel");
    assert_eq!(duel.fighters[w].side, 0);
    assert_eq!(duel.special.woola, Some((w, jc)));
    assert!(duel.special.woola_display.is_none(), "no flier here");
    // Not on the display at the start; at level 3 he stays away; at level
    // 2 he is placed in the first free square straight behind his master
    // [19.11]: a counter's width (4 boxes) back from where he faces.
    let mut st = duel.start();
    assert_eq!(st.status[w], Fate::Absent);
    st.level[jc] = 3;
    assert!(!duel.woola_appears(&mut st, &mut NoTrace));
    st.level[jc] = 2;
    assert!(duel.woola_appears(&mut st, &mut NoTrace));
    assert_eq!(st.status[w], Fate::Fighting);
    assert_eq!(
        (st.pos[jc], st.facing[jc], st.pos[w]),
        (
            JOHN_CARTER_IN_THE_STREET,
            crate::jc::duel::geometry::SOUTH,
            WOOLA_BEHIND
        )
    );
    // Carthoris has no Woola; nor has John Carter fighting alone (the
    // arena [17.3]).
    let alone = FightOptions {
        company: Company::Alone([NONE, NONE]),
        ..FightOptions::on(STREET)
    };
    for (p, options) in [(1, FightOptions::on(STREET)), (0, alone)] {
        let duel = fight_two_warriors(&m, &mut g, p, options, false);
        assert_eq!(woola_in(&duel).map(|(w, _)| w), None);
        assert!(duel.special.woola.is_none());
    }
}

#[test]
fn woola_rides_john_carter_s_flier() {
    // [19.13] On the fliers Woola is in the duel too, but only on the flier
    // John Carter begins it in: the display he moves on is sky beyond it,
    // and when he comes in he stands on his master's deck.
    let m = model("two-heroes");
    let mut g = game(&m);
    set_retinue(&mut g, 0, &[]);
    let duel = fight_two_warriors(&m, &mut g, 0, FightOptions::on(FLIER_DISPLAY), true);
    let (w, jc) = woola_in(&duel).expect("Woola on the flier");
    assert_eq!(duel.special.woola, Some((w, jc)));
    let own = duel
        .display
        .decks(duel.fighters[jc].start.0, duel.fighters[jc].start.1);
    assert_ne!(own, 0, "John Carter starts on a flier");
    let mut st = duel.start();
    st.level[jc] = 2;
    assert!(duel.woola_appears(&mut st, &mut NoTrace));
    let (x, y) = st.pos[w];
    assert_eq!(duel.display.decks(x, y) & !own, 0);
    assert_ne!(duel.display.decks(x, y), 0);
    let other = (0..duel.display.width)
        .flat_map(|x| (0..duel.display.height).map(move |y| (x, y)))
        .find(|&(x, y)| duel.display.open(x, y) && duel.display.decks(x, y) & !own != 0)
        .expect("the other flier");
    assert!(!duel.movement_display(&st, w).open(other.0, other.1));
}

#[test]
fn the_palace_s_secret_passageway_is_the_hero_s_who_knows_the_city_s_secret_ways() {
    // [5.54, 17.17, 18.2 cards 40-42] In a palace duel the hero's side may
    // use the secret passageway if he knows the city's secret ways, or
    // plays card 40-42; the sensible player spends the card there only
    // with card 24 in hand, whose break-off the passageway gives a way
    // out for.
    use super::tables::PALACE;
    use crate::jc::duel::geometry::Cell;
    let m = model("two-heroes");
    let palace = FightOptions {
        company: Company::Alone([NONE, NONE]),
        ..FightOptions::on(PALACE)
    };
    let fight = |g: &mut Game| fight_two_warriors(&m, g, 1, palace, true);
    let mut g = game(&m);
    let c = city(&m, "zodanga");
    g.parties[1].city = c;
    // Neither knowing the way nor holding the card: a wall to both sides.
    let shut = fight(&mut g);
    assert_eq!(shut.special.passage_card, [false, false]);
    // Card 40 alone stays in his hand.
    g.story.hands[1] = hand(&[40]);
    assert_eq!(fight(&mut g).special.passage_card, [false, false]);
    assert_eq!(g.story.hands[1].cards(), [40]);
    // With card 24 as well, he plays 40 and from then on knows the way.
    g.story.hands[1] = hand(&[40, 24]);
    let open = fight(&mut g);
    assert_eq!(open.special.passage_card, [true, false]);
    assert_eq!(g.story.hands[1].cards(), [24]);
    assert_ne!(g.story.heroes[1].secret_ways & (1u64 << c), 0);
    // Shown the way by a resident cellmate [17.17]: no card needed.
    let mut g = game(&m);
    g.parties[1].city = c;
    g.story.heroes[1].secret_ways = 1u64 << c;
    assert_eq!(fight(&mut g).special.passage_card, [true, false]);
    // Elsewhere than the palace there is no passageway to use.
    let street = fight_two_warriors(&m, &mut g, 1, FightOptions::on(STREET), true);
    assert_eq!(street.special.passage_card, [false, false]);
    // On the display: the passageway's boxes are open to the hero's side
    // and walled to the foes until one of the hero's side has used it.
    let hero = 0;
    let foe = open
        .fighters
        .iter()
        .position(|f| f.side == 1)
        .expect("a foe");
    let mut st = open.start();
    let (d, ours) = (&open.display, open.movement_display(&st, hero));
    let square = (0..d.width)
        .flat_map(|x| (0..d.height).map(move |y| (x, y)))
        .find(|&(x, y)| d.covers_drawn(x, y, |c| c == Cell::Secret) && ours.open(x, y))
        .expect("a secret passageway on the palace display");
    assert!(!d.open(square.0, square.1), "drawn as a wall");
    assert!(!open.movement_display(&st, foe).open(square.0, square.1));
    assert!(
        !shut
            .movement_display(&shut.start(), hero)
            .open(square.0, square.1)
    );
    st.x.passages_open = true;
    assert!(open.movement_display(&st, foe).open(square.0, square.1));
}

#[test]
fn lum_tar_o_is_a_3_in_horz() {
    // [19.34] a die roll of 3 in Horz: Lum Tar O, beaten at the cost of
    // the mind battle [17.47]; no other roll is needed.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let horz = city(&m, "horz");
    let mut s = Script::default().d10s(&[3]);
    g.city_encounter(&ctx, 0, horz, &mut s, &mut NoTrace);
    assert!(s.done());
    assert_eq!(g.heroes[0].penalty, (1, 2));
}

#[test]
fn tor_dur_bar_moves_secretly_and_ends_his_quest_only_at_home() {
    // [19.53] Vor Daj as Tor-dur-bar (six-heroes): secret movement even in
    // a hormad city, and glory counts only in Helium or Morbus.
    let m = model("six-heroes");
    let ctx: Context = m.context();
    let mut g = game(&m);
    let p = 5;
    assert_eq!(g.heroes[p].character, k(&m, "tor-dur-bar"));
    assert!(g.must_move_secretly(&ctx, p, false));
    g.heroes[p].place = Place::City(city(&m, "zodanga"));
    assert!(!g.quest_may_end(&ctx, p));
    g.parties[p].villains_len = 0;
    g.parties[p].henchmen_len = 0;
    g.check_glory(&ctx, p, &mut NoTrace);
    assert_eq!(g.heroes[p].glory_at, 0);
    g.heroes[p].place = Place::City(city(&m, "morbus"));
    g.check_glory(&ctx, p, &mut NoTrace);
    assert_ne!(g.heroes[p].glory_at, 0);
    // Anyone else passes where his race does [15.31].
    assert!(!g.must_move_secretly(&ctx, 0, false));
    assert!(g.must_move_secretly(&ctx, 0, true));
}

#[test]
fn tor_dur_bar_with_his_villains_slain_heads_home() {
    // [19.53] With his villain and henchmen slain in Zodanga, the sensible
    // Tor-dur-bar sets off for the nearest of Helium and Morbus, where his
    // glory will count (he used to stay put: 5% of six-hero games never
    // ended).
    let m = model("six-heroes");
    let ctx: Context = m.context();
    let mut g = game(&m);
    let p = 5;
    g.heroes[p].place = Place::City(city(&m, "zodanga"));
    g.parties[p].villains_len = 0;
    g.parties[p].henchmen_len = 0;
    g.parties[p].captive = super::consts::NONE;
    let goal = super::players::target(&ctx, &g, p);
    assert!(
        goal == Some(city(&m, "greater-helium")) || goal == Some(city(&m, "lesser-helium")),
        "{goal:?}"
    );
    // Once home with glory, he wants nothing more.
    g.heroes[p].place = Place::City(city(&m, "greater-helium"));
    g.check_glory(&ctx, p, &mut NoTrace);
    assert_ne!(g.heroes[p].glory_at, 0);
    assert_eq!(super::players::target(&ctx, &g, p), None);
}
