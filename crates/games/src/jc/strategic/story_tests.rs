//! Worked examples of rules [12, 13, 18] with scripted chances: each
//! sets a game up, scripts the dice, and checks what the rules say must
//! follow.

use crate::ScenarioModel;
use barsoom_engine::scenario::Load;

use std::path::{Path, PathBuf};

use super::JcStrategic;
use super::events::Defeat;
use super::game::{CAPTIVE_QUARRY, Context, Game, NONE, Place, Status, VILLAIN_QUARRY};
use super::hooks::FriendSource;
use super::script::Script;
use super::tables::{FLIER_DISPLAY, STREET};
use crate::jc::event_deck::{Effect, EventPiles, Hand};
use barsoom_engine::{Dice, NoTrace};

/// The repository root: the bundled scenarios are under it.
const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
use crate::jc::map::FLIER;

pub(crate) fn model(name: &str) -> JcStrategic {
    match JcStrategic::load(&Path::new(REPO).join(format!("scenarios/jc/strategic/{name}.toml"))) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

pub(super) fn k(m: &JcStrategic, id: &str) -> u8 {
    m.data().roster.find(id).unwrap_or_else(|| panic!("{id}")) as u8
}

pub(crate) fn city(m: &JcStrategic, id: &str) -> u8 {
    m.data().map.city(id).unwrap_or_else(|| panic!("{id}")) as u8
}

/// A game set up with real dice, then emptied of cards: no hands, an empty
/// deck (so a Random Events Phase draws nothing unless a test stacks it).
pub(crate) fn game(m: &JcStrategic) -> Game {
    let ctx = m.context();
    let mut g = Game::new(&ctx, &mut Dice::for_trial(1, 0), &mut NoTrace);
    g.story.piles = EventPiles::stacked(&[]);
    g.story.hands = [Hand::default(); super::game::MAX_PLAYERS];
    g
}

pub(crate) fn hand(cards: &[u8]) -> Hand {
    let mut h = Hand::default();
    for &c in cards {
        h.add(c);
    }
    h
}

/// Puts hero `p` in `place` with exactly `retinue`.
pub(super) fn set_retinue(g: &mut Game, p: usize, retinue: &[u8]) {
    let h = &mut g.heroes[p];
    h.retinue_len = 0;
    for &c in retinue {
        h.join(c);
        g.in_play |= 1u128 << c;
    }
}

fn entry(m: &JcStrategic, name: &str) -> usize {
    m.data()
        .entries
        .names
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no entry {name:?}"))
}

#[test]
fn a_fourth_card_forces_the_least_useful_one_face_down_and_the_random_player_may_take_it() {
    // [18.11, 18.13] John Carter's player holds a miraculous escape (1),
    // a prison escape (38) and the outdoor-encounter card (44) and draws
    // the extra movement card (32): the sensible player keeps the three
    // that save his hero and puts 32 face down.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    g.story.hands[0] = hand(&[1, 38, 44]);
    g.story.piles = EventPiles::stacked(&[32]);
    g.random_events_phase(&ctx, 0, &mut Script::default(), &mut NoTrace);
    assert_eq!(g.story.hands[0].cards(), [1, 38, 44]);
    assert_eq!(g.story.piles.face_down_top(), Some(32));
    assert_eq!(g.story.piles.deck_len(), 0);
    // A random player takes the face-down card on a pick of 0.
    let m = model("random-two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    g.story.piles = EventPiles::stacked(&[5]);
    g.story.piles.discard(32);
    g.random_events_phase(
        &ctx,
        1,
        &mut Script::default().picks(&[0, 1, 1, 1]),
        &mut NoTrace,
    );
    assert_eq!(g.story.hands[1].cards(), [32]);
    assert_eq!(g.story.piles.face_down_len(), 0);
    assert_eq!(g.story.piles.deck_len(), 1, "card 5 is still on the deck");
}

#[test]
fn cards_23_and_37_move_the_drawer_then_leave_the_game_after_the_first_pass() {
    // [18.2 card 23, 18.15] John Carter draws 23: he and his retinue are
    // set down at the Atmosphere Plant and stay there this Strategic Turn.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    g.turn = 4;
    g.story.piles = EventPiles::stacked(&[23]);
    g.random_events_phase(&ctx, 0, &mut Script::default(), &mut NoTrace);
    assert_eq!(g.heroes[0].place, Place::City(city(&m, "atmosphere-plant")));
    assert_eq!(g.story.hands[0].len(), 0, "played at once, not held");
    assert_eq!(g.story.piles.face_up_len(), 1);
    assert_eq!(
        g.movement_begins(&ctx, 0, &mut NoTrace),
        Some(super::players::Move::Stay)
    );
    assert_eq!(g.fired[entry(&m, "random event 23")], 1);
    // The deck is exhausted: Carthoris's draw rebuilds it from the piles
    // without 23 (and nothing is left to draw).
    g.random_events_phase(&ctx, 1, &mut Script::default(), &mut NoTrace);
    assert!(g.story.piles.first_pass_over);
    assert_eq!(g.story.piles.removed, 1 << 22);
    assert_eq!(g.story.piles.deck_len(), 0);
    // The data removes exactly 23 and 37 [18.15].
    assert_eq!(m.data().story.events.unique, (1 << 22) | (1 << 36));
    // Card 37: back to Lesser Helium.
    g.turn = 5;
    g.heroes[0].place = Place::City(city(&m, "zodanga"));
    g.story.piles = EventPiles::stacked(&[37]);
    g.random_events_phase(&ctx, 0, &mut Script::default(), &mut NoTrace);
    assert_eq!(g.heroes[0].place, Place::City(city(&m, "lesser-helium")));
}

#[test]
fn hero_cards_serve_only_heroes_and_villain_cards_only_villains() {
    // [18.16] Treachery (11) is a villain card, the escape (1) a hero
    // card, invisibility (27) either.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    g.story.hands[0] = hand(&[11, 1, 27]);
    assert_eq!(g.held(&ctx, 0, true, |e| *e == Effect::Treachery), None);
    assert_eq!(
        g.held(&ctx, 0, false, |e| *e == Effect::Treachery)
            .map(|c| c.0),
        Some(11)
    );
    assert_eq!(
        g.held(&ctx, 0, false, |e| matches!(
            e,
            Effect::MiraculousEscape { .. }
        )),
        None
    );
    assert!(
        g.held(&ctx, 0, true, |e| *e == Effect::Invisibility)
            .is_some()
    );
    assert!(
        g.held(&ctx, 0, false, |e| *e == Effect::Invisibility)
            .is_some()
    );
    // John Carter's own Random Events Phase never turns his treachery card
    // on his own companions: it is for the villain he runs, Carthoris's.
    let lh = city(&m, "lesser-helium");
    g.heroes[0].place = Place::City(lh);
    let (pan, tavia) = (k(&m, "pan-dan-chee"), k(&m, "tavia"));
    set_retinue(&mut g, 0, &[pan, tavia]);
    g.story.hands[0] = hand(&[11]);
    g.random_events_phase(&ctx, 0, &mut Script::default(), &mut NoTrace);
    assert!(g.heroes[0].has(pan) && g.heroes[0].has(tavia));
    assert_eq!(g.story.hands[0].cards(), [11]);
}

#[test]
fn treachery_takes_a_companion_and_the_loved_one_and_remorse_brings_him_back() {
    // Carthoris (not mated) is befriended by Tavia, who becomes his love
    // [13.11]; with Dar Tarus in his retinue, John Carter's player (who
    // runs Carthoris's villain) plays treachery (11) at the start of
    // Carthoris's turn [12.22]: Dar Tarus goes over to the villain's
    // henchmen and carries Tavia off, who becomes Carthoris's destined
    // princess [13.14]; discovery comes one easier until he is found.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    g.turn = 3;
    let away = ["ptarth", "hastor"].map(|c| city(&m, c));
    let here = if g.parties[1].city == away[0] {
        away[1]
    } else {
        away[0]
    };
    g.heroes[1].place = Place::City(here);
    let (dar, tavia, kar) = (k(&m, "dar-tarus"), k(&m, "tavia"), k(&m, "kar-komak"));
    set_retinue(&mut g, 1, &[kar, dar, tavia]);
    g.story.hands[0] = hand(&[11]);
    let henchmen = g.parties[1].henchmen_len;
    g.random_events_phase(&ctx, 1, &mut Script::default(), &mut NoTrace);
    let s = g.story.heroes[1];
    assert_eq!(s.princess, tavia);
    assert!(!g.heroes[1].has(dar) && !g.heroes[1].has(tavia));
    assert!(g.heroes[1].has(kar), "Kar Komak never betrays [19.43]");
    assert_eq!(g.parties[1].henchmen_len, henchmen + 1);
    assert_eq!(*g.parties[1].henchmen().last().unwrap(), dar);
    assert_ne!(s.held & (1u128 << tavia), 0);
    assert!(s.betrayed_discovery);
    assert_eq!(g.discovery_shift(&ctx, 1), 1);
    assert_eq!(g.story.hands[0].len(), 0);
    assert_eq!(g.fired[entry(&m, "random event 11")], 1);
    // Next turn Carthoris plays remorse (16) on Dar Tarus [12.32]; when he
    // reaches the villain's display, Dar Tarus comes over.
    g.turn = 4;
    g.story.hands[1] = hand(&[16]);
    g.random_events_phase(&ctx, 1, &mut Script::default(), &mut NoTrace);
    assert_ne!(g.story.heroes[1].repented & (1u128 << dar), 0);
    g.repentant_join(&ctx, 1, &mut NoTrace);
    assert!(g.heroes[1].has(dar));
    assert_eq!(g.parties[1].henchmen_len, henchmen);
}

#[test]
fn a_remorseful_woman_brings_back_the_hero_s_love_and_leaves_the_game() {
    // [12.31] Janai betrayed Carthoris and is with the villain, who also
    // holds Tavia, his destined princess: remorse brings Tavia back and
    // Janai is out of the game.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let (tavia, janai) = (k(&m, "tavia"), k(&m, "janai"));
    let s = &mut g.story.heroes[1];
    s.princess = tavia;
    s.love = tavia;
    s.held = (1u128 << tavia) | (1u128 << janai);
    s.betrayed_by = 1u128 << janai;
    g.in_play |= (1u128 << tavia) | (1u128 << janai);
    assert_eq!(g.remorse_targets(1), 1u128 << janai);
    g.repent(&ctx, 1, janai, &mut NoTrace);
    assert!(g.heroes[1].has(tavia));
    assert_eq!(g.story.heroes[1].held, 0);
    assert_eq!(g.in_play & (1u128 << janai), 0);
}

#[test]
fn related_characters_never_love_or_betray_and_one_friend_is_always_safe() {
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    // [20.31] John Carter starts mated to Dejah Thoris.
    assert_eq!(g.story.heroes[0].princess, k(&m, "dejah-thoris"));
    assert!(g.story.heroes[0].mated);
    let (tara, tavia, janai, dejah, thuvia) = (
        k(&m, "tara-of-helium"),
        k(&m, "tavia"),
        k(&m, "janai"),
        k(&m, "dejah-thoris"),
        k(&m, "thuvia"),
    );
    // [13.24] Carthoris never falls for Tara of Helium, his kin; Tavia is
    // the first unrelated personage to befriend him [13.11].
    g.turn = 1;
    set_retinue(&mut g, 1, &[tara]);
    g.note_companions(&ctx, 1, &mut NoTrace);
    assert_eq!(g.story.heroes[1].love, NONE);
    set_retinue(&mut g, 1, &[tara, tavia]);
    g.note_companions(&ctx, 1, &mut NoTrace);
    assert_eq!(g.story.heroes[1].love, tavia);
    // Engaged (his princess carried off), two Turns after befriending
    // [13.22], Tavia and Janai may betray him, but only one of them: one
    // friend is always safe [13.12].
    let mut g = game(&m);
    g.story.heroes[1].princess = thuvia;
    g.turn = 2;
    set_retinue(&mut g, 1, &[tavia, janai]);
    g.note_companions(&ctx, 1, &mut NoTrace);
    g.turn = 3;
    assert!(
        !g.may_betray(&ctx, 1, tavia),
        "[13.22] not before two Turns"
    );
    g.turn = 4;
    assert!(g.may_betray(&ctx, 1, tavia) && g.may_betray(&ctx, 1, janai));
    g.betray(&ctx, 1, tavia, &mut Script::default(), &mut NoTrace);
    assert!(!g.may_betray(&ctx, 1, janai), "[13.12] one stays safe");
    // [13.24] his kin Dejah Thoris and Thuvia, the other half of his
    // couple, never betray him, however long they have been with him.
    let mut g = game(&m);
    g.story.heroes[1].princess = tavia;
    g.turn = 2;
    set_retinue(&mut g, 1, &[dejah, thuvia, tavia]);
    g.note_companions(&ctx, 1, &mut NoTrace);
    g.turn = 9;
    assert!(!g.may_betray(&ctx, 1, dejah));
    assert!(!g.may_betray(&ctx, 1, thuvia));
    assert!(!g.may_betray(&ctx, 1, tavia), "[13.14] nor his princess");
    // Cards 64-65: a named safe companion never betrays.
    let dar = k(&m, "dar-tarus");
    set_retinue(&mut g, 1, &[dar, thuvia]);
    assert!(
        g.may_betray(&ctx, 1, dar),
        "[13.32] his princess has travelled with him"
    );
    g.story.heroes[1].safe = dar;
    assert!(!g.may_betray(&ctx, 1, dar));
}

/// Carthoris in his villain's city with the city game under way.
fn carthoris_in_the_city(m: &JcStrategic) -> Game {
    let ctx = m.context();
    let mut g = game(m);
    let c = g.parties[1].city;
    g.heroes[1].place = Place::City(c);
    g.enter_city(&ctx, 1, &mut Script::default(), &mut NoTrace);
    g
}

#[test]
fn an_unspeakable_act_runs_for_three_city_subsequences_then_the_table() {
    // [13.41-13.45] John Carter's player plays card 18 on Carthoris's
    // villain's captive, Thuvia: the hero learns where they are; after
    // three City Sub-sequences without reaching them a 10 corrupts her
    // and his love can never be fulfilled [20.52].
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = carthoris_in_the_city(&m);
    g.story.hands[0] = hand(&[18]);
    assert_eq!(g.parties[1].captive, k(&m, "thuvia"));
    assert_eq!(
        g.city_subsequence_begins(&ctx, 1, &mut Script::default(), &mut NoTrace),
        None
    );
    assert_eq!(g.story.heroes[1].act, 3);
    assert_eq!(g.heroes[1].city.knows, [3, 3]);
    assert_eq!(
        g.parties[1].spots[VILLAIN_QUARRY],
        g.parties[1].spots[CAPTIVE_QUARRY]
    );
    for left in [2, 1] {
        g.city_subsequence_begins(&ctx, 1, &mut Script::default(), &mut NoTrace);
        assert_eq!(g.story.heroes[1].act, left);
    }
    let mut s = Script::default().d10s(&[10]);
    g.city_subsequence_begins(&ctx, 1, &mut s, &mut NoTrace);
    assert!(s.done());
    assert!(g.heroes[1].love_barred);
    assert_eq!(g.fired[entry(&m, "unspeakable act 10")], 1);
    // Reaching them in time (a won house duel) stops it.
    let mut g = carthoris_in_the_city(&m);
    g.story.hands[0] = hand(&[19]);
    g.city_subsequence_begins(&ctx, 1, &mut Script::default(), &mut NoTrace);
    g.house_duel_ends(&ctx, 1, true, &mut Script::default(), &mut NoTrace);
    assert_eq!(g.story.heroes[1].act, 0);
    assert!(!g.heroes[1].love_barred);
}

#[test]
fn dejah_thoris_is_never_corrupted_and_llana_takes_her_life() {
    // [19.21] the same 10 is a timely interruption for Dejah Thoris, and
    // Llana of Gathol takes her own life (the captive is gone).
    let m = model("two-heroes");
    let ctx = m.context();
    for (captive, barred, gone) in [
        ("dejah-thoris", false, false),
        ("llana-of-gathol", true, true),
    ] {
        let mut g = game(&m);
        g.parties[0].captive = k(&m, captive);
        g.unspeakable_act_table(&ctx, 0, &mut Script::default().d10s(&[10]), &mut NoTrace);
        assert_eq!(g.heroes[0].love_barred, barred, "{captive}");
        assert_eq!(g.parties[0].captive == NONE, gone, "{captive}");
    }
}

#[test]
fn befriending_reads_the_encounter_friend_table() {
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    // [12.12] In Toonol a 4 is a good minor character: Gor Hajus (102)
    // before Gan Had (106), lowest code first.
    g.heroes[0].place = Place::City(city(&m, "toonol"));
    set_retinue(&mut g, 0, &[]);
    let mut s = Script::default().d10s(&[4]);
    g.befriend(&ctx, 0, FriendSource::Outdoor, &mut s, &mut NoTrace);
    assert!(s.done());
    assert_eq!(g.heroes[0].retinue(), [k(&m, "gor-hajus")]);
    assert_eq!(g.fired[entry(&m, "encounter friend 4-5")], 1);
    // [12.15] In Tjanath an 8 is a female personage: Tavia; John Carter is
    // mated, so no love, but she is his friend from this turn.
    g.turn = 6;
    g.heroes[0].place = Place::City(city(&m, "tjanath"));
    g.befriend(
        &ctx,
        0,
        FriendSource::City,
        &mut Script::default().d10s(&[8]),
        &mut NoTrace,
    );
    let tavia = k(&m, "tavia");
    assert!(g.heroes[0].has(tavia));
    assert_eq!(g.story.heroes[0].bond(tavia), Some(6));
    assert_eq!(g.story.heroes[0].love, NONE);
    // [12.14] a 1 is a warrior of Mars of the city.
    g.befriend(
        &ctx,
        0,
        FriendSource::City,
        &mut Script::default().d10s(&[1]),
        &mut NoTrace,
    );
    let tjanath = city(&m, "tjanath");
    assert!(g.heroes[0].has(m.data().places[usize::from(tjanath)].warriors));
    // [19.45] In Bantoom a 6 is Ghek, who joins only a hero with a woman
    // to sing to him: with Tavia, he does; alone, he would not.
    g.heroes[0].place = Place::City(city(&m, "bantoom"));
    let mut alone = g.clone();
    set_retinue(&mut alone, 0, &[]);
    alone.befriend(
        &ctx,
        0,
        FriendSource::Outdoor,
        &mut Script::default().d10s(&[6]),
        &mut NoTrace,
    );
    assert!(alone.heroes[0].retinue().is_empty());
    g.befriend(
        &ctx,
        0,
        FriendSource::Outdoor,
        &mut Script::default().d10s(&[6]),
        &mut NoTrace,
    );
    assert!(g.heroes[0].has(k(&m, "ghek")));
}

#[test]
fn fixed_first_friends_come_before_the_table() {
    // [20.37] Tan Hadron's first personage is Tavia, wherever he is.
    let m = model("six-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let p = 4;
    assert_eq!(g.heroes[p].character, k(&m, "tan-hadron"));
    g.heroes[p].place = Place::City(city(&m, "ptarth"));
    g.befriend(
        &ctx,
        p,
        FriendSource::Outdoor,
        &mut Script::default().d10s(&[9]),
        &mut NoTrace,
    );
    assert!(g.heroes[p].has(k(&m, "tavia")));
    // [20.36] Vad Varo's first minor characters: Hovan Du, then Dar Tarus.
    let p = 3;
    for (roll, who) in [(4, "hovan-du"), (5, "dar-tarus")] {
        g.befriend(
            &ctx,
            p,
            FriendSource::Outdoor,
            &mut Script::default().d10s(&[roll]),
            &mut NoTrace,
        );
        assert!(g.heroes[p].has(k(&m, who)), "{who}");
    }
}

#[test]
fn the_halt_stops_everyone_until_the_drawer_s_next_turn_and_grounds_fliers_in_transit() {
    // Cards 09-10 drawn by John Carter's player: Carthoris, flying between
    // cities, loses his flier; nobody moves until John Carter's next
    // Random Events Phase.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let (from, to) = (city(&m, "greater-helium"), city(&m, "zodanga"));
    g.heroes[1].place = Place::Transit(super::game::Transit {
        from,
        to,
        left: 20,
        total: 50,
        via: NONE,
    });
    g.heroes[1].conveyance = FLIER;
    g.story.piles = EventPiles::stacked(&[9]);
    g.random_events_phase(&ctx, 0, &mut Script::default(), &mut NoTrace);
    assert_ne!(g.heroes[1].conveyance, FLIER);
    assert_eq!(
        g.movement_begins(&ctx, 1, &mut NoTrace),
        Some(super::players::Move::Stay)
    );
    g.story.piles = EventPiles::stacked(&[]);
    g.random_events_phase(&ctx, 0, &mut Script::default(), &mut NoTrace);
    assert_eq!(g.movement_begins(&ctx, 1, &mut NoTrace), None);
    assert_eq!(g.heroes[1].status, Status::Free);
}

/// A copy of the data folder with one file's text changed.
fn broken_data(file: &str, from: &str, to: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "barsoom-story-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    copy_dir(&Path::new(REPO).join("scenarios/jc/data"), &dir);
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("data file");
    assert!(text.contains(from), "{from:?} not in {file}");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

fn load_error(file: &str, from: &str, to: &str) -> String {
    let dir = broken_data(file, from, to);
    let e = super::data::StrategicData::load(&dir).expect_err("a broken table");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!e.to_string().contains('\n'), "one line: {e}");
    assert!(e.file.ends_with(file), "{e}");
    e.to_string()
}

#[test]
fn broken_story_tables_are_one_line_errors() {
    let e = load_error(
        "random-events.toml",
        "effect = \"treachery\"",
        "effect = \"seduction\"",
    );
    assert!(
        e.contains("cards[2].effect: expected one of miraculous-escape"),
        "{e}"
    );
    let e = load_error(
        "random-events.toml",
        "place = \"atmosphere-plant\"",
        "place = \"jasoom\"",
    );
    assert!(e.contains("expected a place of the map"), "{e}");
    let e = load_error(
        "friend-tables.toml",
        "{ roll = 10, result = \"hero\" }",
        "{ roll = 9, result = \"hero\" }",
    );
    assert!(
        e.contains("encounter.rolls[5].roll: expected each roll covered once"),
        "{e}"
    );
    let e = load_error(
        "friend-tables.toml",
        "{ roll = 10, result = \"hero\" },\n",
        "",
    );
    assert!(e.contains("found no row for 10"), "{e}");
    let e = load_error(
        "friend-tables.toml",
        "tan-hadron = [\"tavia\"]",
        "tan-hadron = [\"tavya\"]",
    );
    assert!(
        e.contains("first_friends.tan-hadron[0]: expected a character of the roster"),
        "{e}"
    );
    let e = load_error(
        "romance.toml",
        "\"vor-daj\", \"janai\"",
        "\"vor-daj\", \"ulsio\"",
    );
    assert!(
        e.contains("couples[5][1]: expected a personage, found \"ulsio\", a beast"),
        "{e}"
    );
    let e = load_error(
        "romance.toml",
        "{ roll = 10, result = \"corrupted\" }",
        "{ roll = 10, result = \"wed\" }",
    );
    assert!(
        e.contains("expected interrupted, takes-her-life or corrupted"),
        "{e}"
    );
    let e = load_error(
        "special-characters.toml",
        "{ roll = 10, result = \"seized\" }",
        "{ roll = 10, result = \"eaten\" }",
    );
    assert!(
        e.contains("mind_control.rolls[4].result: expected resisted"),
        "{e}"
    );
    let e = load_error(
        "special-characters.toml",
        "beasts = [\"banth\"]",
        "beasts = [\"thuvia\"]",
    );
    assert!(
        e.contains("expected a beast, found \"thuvia\", a personage"),
        "{e}"
    );
}

#[test]
fn a_fellow_hero_at_the_same_place_may_fight_beside_a_hero() {
    // [9.27] Carthoris stands in Zodanga with John Carter, who meets a
    // hostile encounter there. A sensible Carthoris keeps out of it; a
    // random one whose coin says yes (pick 0) fights beside him, and the
    // sensible John Carter takes the help. Elsewhere, or captured, he
    // cannot; a fight that is not an encounter gets no helper.
    use super::players::{HeroPolicy, VillainPolicy};
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let zodanga = Place::City(city(&m, "zodanga"));
    g.heroes[0].place = zodanga;
    g.heroes[1].place = zodanga;
    let foes = [(k(&m, "red-warrior"), 0u8); 2];
    let fight = |g: &mut Game, hostile: bool, s: &mut Script| {
        g.story.heroes[0].hostile = hostile;
        let aid = g.fight_begins(&ctx, 0, true, &foes, STREET, s, &mut NoTrace);
        assert!(!g.story.heroes[0].hostile, "the mark is used up");
        aid.helper
    };
    assert_eq!(fight(&mut g, true, &mut Script::default()), None);
    g.policies[1] = (HeroPolicy::Random, VillainPolicy::Sensible);
    assert_eq!(
        fight(&mut g, true, &mut Script::default().picks(&[1])),
        None
    );
    let mut s = Script::default().picks(&[0]);
    assert_eq!(fight(&mut g, true, &mut s), Some(1));
    assert_eq!(s.picks_left(), 0);
    assert_eq!(fight(&mut g, false, &mut Script::default()), None);
    g.heroes[1].status = Status::Captured;
    assert_eq!(fight(&mut g, true, &mut Script::default()), None);
    g.heroes[1].status = Status::Free;
    g.heroes[1].place = Place::City(city(&m, "lesser-helium"));
    assert_eq!(fight(&mut g, true, &mut Script::default()), None);
}

#[test]
fn heroes_meeting_in_a_city_may_hand_a_companion_over() {
    // [9.27] John Carter ends his turn in Zodanga with Dar Tarus and
    // Tavia; Carthoris is there. A sensible John Carter gives no one; a
    // random one whose coin says yes gives the only companion who may
    // change hands (Dar Tarus: Tavia's love belongs to one hero's story),
    // and the sensible Carthoris takes him for good.
    use super::players::{HeroPolicy, VillainPolicy};
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let zodanga = Place::City(city(&m, "zodanga"));
    let (dar, tavia) = (k(&m, "dar-tarus"), k(&m, "tavia"));
    g.heroes[0].place = zodanga;
    g.heroes[1].place = zodanga;
    set_retinue(&mut g, 0, &[dar, tavia]);
    set_retinue(&mut g, 1, &[]);
    g.meet_fellows(&ctx, 0, &mut Script::default(), &mut NoTrace);
    assert_eq!(g.heroes[0].retinue(), &[dar, tavia]);
    g.policies[0] = (HeroPolicy::Random, VillainPolicy::Sensible);
    let mut s = Script::default().picks(&[0, 0]);
    g.meet_fellows(&ctx, 0, &mut s, &mut NoTrace);
    assert_eq!(s.picks_left(), 0);
    assert_eq!(g.heroes[0].retinue(), &[tavia]);
    assert_eq!(g.heroes[1].retinue(), &[dar]);
    // Nobody left who may change hands: nothing happens, no coin tossed.
    let mut s = Script::default().picks(&[1]);
    g.meet_fellows(&ctx, 0, &mut s, &mut NoTrace);
    assert_eq!(s.picks_left(), 1);
    assert_eq!(g.heroes[1].retinue(), &[dar]);
}

#[test]
fn with_three_players_or_more_a_villain_card_may_be_offered_against_a_rival() {
    // [18.17] Six Players: hero 0's villain is run by Player 1, who holds
    // nothing; Player 2 holds the flier crash (22) and, sensible, offers it
    // against John Carter, who flies 10 haads: he covers 5 and crashes.
    // Player 0 never plays it on his own hero; with two Players nobody but
    // the villain's Player may.
    let m = model("six-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    assert_eq!(g.villain_player(0), 1);
    g.heroes[0].conveyance = FLIER;
    g.story.hands[0] = hand(&[22]);
    let mut s = Script::default();
    assert_eq!(g.flight_haads(&ctx, 0, 10, &mut s, &mut NoTrace), 10);
    assert_eq!(g.story.hands[0].cards(), [22]);
    g.story.hands[0] = Hand::default();
    g.story.hands[2] = hand(&[22]);
    assert_eq!(g.flight_haads(&ctx, 0, 10, &mut s, &mut NoTrace), 5);
    assert!(g.story.hands[2].is_empty());
    assert_eq!(g.heroes[0].conveyance, crate::jc::map::WALK);
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    g.heroes[0].conveyance = FLIER;
    g.story.hands[0] = hand(&[22]);
    assert_eq!(g.flight_haads(&ctx, 0, 10, &mut s, &mut NoTrace), 10);
}

#[test]
fn with_offers_to_the_leader_a_villain_card_goes_only_against_the_leading_rival() {
    // [18.17] as above, with the scenario's `offers = "leader"`: Player 2
    // holds the flier crash (22); Gahan (hero 3) has glory and John Carter
    // none, so John Carter does not lead Player 2's rivals and is spared.
    // When only Player 2's own hero has glory (not a rival), John Carter
    // leads the rivals with the rest (a tie leads), and the card is
    // offered: he covers 5 of his 10 haads and crashes.
    let m = model("six-heroes");
    let mut config = m.context().config.clone();
    config.offer_only_to_leader = true;
    let ctx = Context {
        config: &config,
        ..m.context()
    };
    let mut g = game(&m);
    g.heroes[0].conveyance = FLIER;
    g.story.hands[2] = hand(&[22]);
    g.heroes[3].glory_at = 4;
    let mut s = Script::default();
    assert_eq!(g.flight_haads(&ctx, 0, 10, &mut s, &mut NoTrace), 10);
    assert_eq!(g.story.hands[2].cards(), [22]);
    g.heroes[3].glory_at = 0;
    g.heroes[2].glory_at = 4;
    assert_eq!(g.flight_haads(&ctx, 0, 10, &mut s, &mut NoTrace), 5);
    assert!(g.story.hands[2].is_empty());
}

#[test]
fn a_hero_card_is_offered_to_a_rival_only_by_a_random_player() {
    // [18.17] John Carter is captured by warriors; Player 2 holds a
    // miraculous escape (3). Sensible, he keeps it for his own hero; random,
    // his coin says yes (pick 0): the card saves John Carter, who sits out
    // his next Strategic Turn.
    use super::players::{HeroPolicy, VillainPolicy};
    let m = model("six-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    g.story.hands[2] = hand(&[3]);
    let mut s = Script::default();
    assert!(!g.saved_from_defeat(&ctx, 0, Defeat::Capture, &mut s, &mut NoTrace));
    assert_eq!(g.story.hands[2].cards(), [3]);
    g.policies[2] = (HeroPolicy::Random, VillainPolicy::Sensible);
    let mut s = Script::default().picks(&[0]);
    assert!(g.saved_from_defeat(&ctx, 0, Defeat::Capture, &mut s, &mut NoTrace));
    assert_eq!(s.picks_left(), 0);
    assert!(g.story.hands[2].is_empty());
    assert_eq!(g.heroes[0].skip, 1);
}

#[test]
fn the_villain_may_duel_the_repentant_who_prevents_his_act() {
    // [12.32] Rapas betrayed Carthoris and repented; he stands among the
    // villain's henchmen when the act is due: he prevents it, and the
    // villain, the better fighter, duels him at once. Beaten (the villain's
    // side wins the scripted duel), Rapas is slain; winning, he stays to
    // come over to Carthoris.
    let m = model("two-heroes");
    let ctx = m.context();
    let p = 1;
    let rapas = k(&m, "rapas");
    for (villain_wins, stays) in [(true, false), (false, true)] {
        let mut g = game(&m);
        let captive = g.parties[p].captive;
        assert_ne!(captive, NONE);
        g.parties[p].henchmen_len = 0;
        g.add_henchmen(p, &[rapas]);
        g.story.heroes[p].repented |= 1u128 << rapas;
        g.story.heroes[p].act = 1;
        let mut s = Script::default().duels(&[villain_wins]);
        g.unspeakable_act_table(&ctx, p, &mut s, &mut NoTrace);
        assert!(s.done(), "the duel was fought");
        assert_eq!(g.parties[p].captive, captive, "the act is prevented");
        assert!(!g.heroes[p].love_barred);
        assert_eq!(g.parties[p].henchmen().contains(&rapas), stays);
    }
}

#[test]
fn ras_thavas_gives_a_personage_of_the_company_a_warrior_s_values() {
    // [19.31] In Morbus with Ras Thavas, Carthoris (sensible) has Valla Dia
    // given a red warrior's values; Dar Tarus keeps his own, and Ras
    // Thavas cannot change himself. In Zodanga nothing happens. She then
    // fights beside him.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let (ras, valla, dar) = (k(&m, "ras-thavas"), k(&m, "valla-dia"), k(&m, "dar-tarus"));
    set_retinue(&mut g, 1, &[ras, valla, dar]);
    g.heroes[1].place = Place::City(city(&m, "zodanga"));
    g.brain_transfer(&ctx, 1, &mut Script::default(), &mut NoTrace);
    assert_eq!(g.story.heroes[1].changed, 0);
    g.heroes[1].place = Place::City(city(&m, "morbus"));
    g.brain_transfer(&ctx, 1, &mut Script::default(), &mut NoTrace);
    assert_eq!(g.story.heroes[1].changed, 1u128 << valla);
    // In a fight she is a red warrior on his side: lost, she may die.
    use super::duels::FightOptions;
    let foes = [(k(&m, "red-warrior"), 0u8)];
    let mut s = Script::default().duels(&[false]);
    let f = g.fight(
        &ctx,
        1,
        &foes,
        FightOptions::on(STREET),
        &mut s,
        &mut NoTrace,
    );
    assert!(!f.won);
    assert!(!g.heroes[1].has(valla), "the Script's losers die");
    assert!(g.heroes[1].has(ras), "a personage does not fight");
}

#[test]
fn a_resident_cellmate_shows_the_secret_way_into_the_city() {
    // [17.17] Gahan comes in by the main gate, is imprisoned with a male
    // personage (9, a resident) and escapes (1). Next time he enters the
    // city by the secret entrance without a card (cards 40-42's area).
    let m = model("six-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let p = 2;
    let c = g.parties[p].city;
    g.heroes[p].place = Place::City(c);
    let entry = m.data().city_map.entry;
    assert_eq!(
        g.city_entry(&ctx, p, false, &mut Script::default(), &mut NoTrace),
        entry
    );
    g.enter_city(&ctx, p, &mut Script::default(), &mut NoTrace);
    let mut s = Script::default().d10s(&[9, 1]);
    g.imprison(&ctx, p, &mut s, &mut NoTrace);
    assert!(s.done());
    assert_ne!(g.story.heroes[p].secret_ways & (1u64 << c), 0);
    let secret = ctx
        .data
        .story
        .events
        .cards
        .iter()
        .find_map(|card| match card.effect {
            Effect::SecretEntrance { area } => Some(area),
            _ => None,
        })
        .unwrap_or(entry);
    assert_ne!(secret, entry);
    assert_eq!(
        g.city_entry(&ctx, p, false, &mut Script::default(), &mut NoTrace),
        secret
    );
}

#[test]
fn a_miraculous_escape_saves_only_from_an_outdoor_or_arena_defeat() {
    // [18.2 cards 01-08] The hero and his retinue leave the outdoor or
    // arena display: the card does not help against internment in a city
    // or imprisonment in the villain's, and stays in the hand; against
    // capture by warriors outdoors it saves him.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    g.story.hands[0] = hand(&[3]);
    for defeat in [Defeat::Internment, Defeat::Imprisonment] {
        let mut s = Script::default();
        assert!(!g.saved_from_defeat(&ctx, 0, defeat, &mut s, &mut NoTrace));
        assert_eq!(g.story.hands[0].cards(), [3]);
    }
    let mut s = Script::default();
    assert!(g.saved_from_defeat(&ctx, 0, Defeat::Capture, &mut s, &mut NoTrace));
    assert!(g.story.hands[0].is_empty());
    assert_eq!(g.heroes[0].skip, 1);
}

/// John Carter's first villain with combat values.
fn fighting_villain(m: &JcStrategic, g: &Game) -> u8 {
    let roster = &m.data().roster;
    *g.parties[0]
        .villains()
        .iter()
        .find(|&&v| roster.characters[usize::from(v)].fights())
        .expect("a villain who fights")
}

#[test]
fn a_hero_told_of_the_act_fights_berserk_until_the_villains_house() {
    // [13.43] With an act pending, John Carter's street fight is berserk;
    // the house duel (where the villain holds the captive [13.41]) is not,
    // nor a fight with the villain himself, which the deadline watches.
    use super::duels::FightOptions;
    use super::tables::HOUSE;
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    set_retinue(&mut g, 0, &[]);
    let warriors = [(k(&m, "red-warrior"), 0u8); 2];
    let villain = fighting_villain(&m, &g);
    let with_villain = [(villain, 0u8), (k(&m, "red-warrior"), 0)];
    let house = FightOptions {
        discovered: false,
        ..FightOptions::on(HOUSE)
    };
    // In the villain's city game [15].
    g.heroes[0].city.active = true;
    let fights = |g: &mut Game, act: u8| {
        g.story.heroes[0].act = act;
        let mut s = Script::default().duels(&[true; 4]);
        for (foes, options) in [
            (&warriors[..], FightOptions::on(STREET)),
            (&warriors[..], house),
            (&with_villain[..], FightOptions::on(STREET)),
            (&with_villain[..], house),
        ] {
            g.fight(&ctx, 0, foes, options, &mut s, &mut NoTrace);
        }
        assert!(s.done());
        s.seen
            .iter()
            .map(|c| (c.berserk, c.deadline))
            .collect::<Vec<_>>()
    };
    let turns = m.data().duel_specials.deadline_turns;
    assert_eq!(turns, 10);
    assert_eq!(
        fights(&mut g, 2),
        [
            (1, None),
            (0, None),
            (0, Some((0, turns))),
            (0, Some((0, turns)))
        ]
    );
    assert_eq!(fights(&mut g, 0), [(0, None); 4]);
}

#[test]
fn the_pills_of_card_27_act_inside_the_duel_with_the_villains_group() {
    // [18.2 card 27] John Carter holds card 27 and his villain's Player
    // another: both play them as the duel with the villain's group begins;
    // the hero and the villain (its first villain) take the pills, and no
    // die is rolled before the duel.
    use super::duels::FightOptions;
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    set_retinue(&mut g, 0, &[]);
    let q = g.villain_player(0);
    g.story.hands[0] = hand(&[27]);
    g.story.hands[q] = hand(&[27]);
    let villain = fighting_villain(&m, &g);
    let foes = [(k(&m, "red-warrior"), 0u8), (villain, 0)];
    g.story.heroes[0].villain_duel = true;
    let mut s = Script::default().duels(&[true]);
    g.fight(
        &ctx,
        0,
        &foes,
        FightOptions::on(STREET),
        &mut s,
        &mut NoTrace,
    );
    assert!(s.done());
    // Fighters: the hero (0), Woola waiting off the display (1) [19.11],
    // then the foes (2, 3): the villain is 3.
    assert_eq!(s.seen[0].invisible, 0b1001);
    assert!(g.story.hands[0].is_empty() && g.story.hands[q].is_empty());
    // Not for another fight: the card stays in hand.
    g.story.hands[0] = hand(&[27]);
    let mut s = Script::default().duels(&[true]);
    g.fight(
        &ctx,
        0,
        &foes,
        FightOptions::on(STREET),
        &mut s,
        &mut NoTrace,
    );
    assert_eq!(
        (s.seen[0].invisible, g.story.hands[0].cards()),
        (0, &[27][..])
    );
}

#[test]
fn card_24_is_played_inside_the_duel_and_saves_the_hero_from_defeat() {
    // [18.2 card 24] John Carter holds card 24: his street fight carries
    // the break-off; lost by leaving, the card goes to the face-up pile and
    // the capture that would follow is escaped. Never on the fliers, nor
    // in the arena's fights (armed [17.31]); a duel lost on his feet does
    // not play it.
    use super::duels::FightOptions;
    use super::tables::ARENA;
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    set_retinue(&mut g, 0, &[]);
    let foes = [(k(&m, "red-warrior"), 0u8); 3];
    for options in [
        FightOptions::on(FLIER_DISPLAY),
        FightOptions {
            armed: true,
            ..FightOptions::on(ARENA)
        },
    ] {
        g.story.hands[0] = hand(&[24]);
        let mut s = Script::default().duels(&[true]);
        g.fight(&ctx, 0, &foes, options, &mut s, &mut NoTrace);
        assert_eq!(s.seen[0].break_off, None);
        assert_eq!(g.story.hands[0].cards(), [24]);
    }
    // Won: the card was in the duel but not played.
    let mut s = Script::default().duels(&[true]);
    g.fight(
        &ctx,
        0,
        &foes,
        FightOptions::on(STREET),
        &mut s,
        &mut NoTrace,
    );
    assert_eq!(s.seen[0].break_off, Some(0));
    assert_eq!(g.story.hands[0].cards(), [24]);
    // Lost by leaving the display: played, and the defeat escaped.
    let mut s = Script::default().duels(&[false]).left(&[true]);
    let f = g.fight(
        &ctx,
        0,
        &foes,
        FightOptions::on(STREET),
        &mut s,
        &mut NoTrace,
    );
    assert!(!f.won && s.done());
    assert!(g.story.hands[0].is_empty());
    assert!(g.story.heroes[0].broke_off);
    let mut none = Script::default();
    assert!(g.saved_from_defeat(&ctx, 0, Defeat::Capture, &mut none, &mut NoTrace));
    assert!(!g.story.heroes[0].broke_off);
    // Without a card left, the next capture is not escaped.
    assert!(!g.saved_from_defeat(&ctx, 0, Defeat::Capture, &mut none, &mut NoTrace));
}
