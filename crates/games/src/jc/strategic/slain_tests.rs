//! Worked examples of removal from play: a character who dies is recorded
//! as slain and never drawn, placed or met again; one who leaves alive may
//! come back [10.12, 12.1, 12.31, 13.45, 17.15, 19.51, 20.51].

use super::duels::FightOptions;
use super::game::{NONE, Place};
use super::hooks::FriendSource;
use super::script::Script;
use super::story_tests::{city, game, k, model, set_retinue};
use super::tables::STREET;
use barsoom_engine::NoTrace;

fn bit(k: u8) -> u128 {
    1u128 << k
}

#[test]
fn a_henchman_killed_by_a_remorseful_woman_counts_for_glory_and_is_never_drawn_again() {
    // [12.31] Rapas and Janai betrayed Carthoris; his villains are dead
    // and Rapas is the last henchman. Janai repents with no loved one of
    // his held, so she kills the entourage's minor character, Rapas, and
    // takes her own life: nothing is left for glory [20.51], and neither
    // may be met again.
    let m = model("two-heroes");
    let ctx = m.context();
    let p = 1;
    let mut g = game(&m);
    let (rapas, janai) = (k(&m, "rapas"), k(&m, "janai"));
    assert!(g.drawable(rapas) && g.drawable(janai));
    g.slay_villains(&ctx, p);
    assert!(!g.villain_fights(&ctx, p));
    g.parties[p].henchmen_len = 0;
    g.add_henchmen(p, &[rapas]);
    let s = &mut g.story.heroes[p];
    assert_eq!(s.love, NONE);
    s.betrayed_by = bit(rapas) | bit(janai);
    s.held = bit(janai);
    g.in_play |= bit(rapas) | bit(janai);
    g.check_glory(&ctx, p, &mut NoTrace);
    assert_eq!(g.heroes[p].glory_at, 0, "Rapas still stands");
    g.repent(&ctx, p, janai, &mut NoTrace);
    assert_eq!(g.parties[p].henchmen_len, 0);
    assert_eq!(g.slain & (bit(rapas) | bit(janai)), bit(rapas) | bit(janai));
    assert_eq!(g.in_play & (bit(rapas) | bit(janai)), 0);
    g.check_glory(&ctx, p, &mut NoTrace);
    assert!(g.heroes[p].glory_at > 0);
    assert!(g.check_invariants(&ctx).is_ok());
    // [12.12] In Zodanga, Rapas's city, a 6 on the Encounter Friend Table
    // is the lowest-coded neutral minor character: Rapas (201) were he
    // alive; now the next of the series, Ghek of Bantoom (951), who will
    // not join a hero without a woman to sing to him [19.45]: nobody.
    g.heroes[p].place = Place::City(city(&m, "zodanga"));
    set_retinue(&mut g, p, &[]);
    let mut s = Script::default().d10s(&[6]);
    g.befriend(&ctx, p, FriendSource::Outdoor, &mut s, &mut NoTrace);
    assert!(s.done());
    assert!(g.heroes[p].retinue().is_empty());
    // [12.15] In Amhor, Janai's city, an 8 is a female personage: another
    // one, from the nearest city that has one.
    g.heroes[p].place = Place::City(city(&m, "amhor"));
    let mut s = Script::default().d10s(&[8]);
    g.befriend(&ctx, p, FriendSource::Outdoor, &mut s, &mut NoTrace);
    assert_eq!(g.heroes[p].retinue().len(), 1);
    assert!(!g.heroes[p].has(janai));
}

#[test]
fn a_slain_villain_never_comes_back_as_a_surrogate() {
    // [10.12] Carthoris has slain his villains, Astok, Vas Kor and Nutus of
    // Dusar (codes 315-317); discovered in Dusar, not the final
    // destination, he faces a surrogate: none of the dead, so a nameless
    // noble. Had they left alive, Astok, the lowest code, would lead.
    let m = model("two-heroes");
    let ctx = m.context();
    let p = 1;
    let dead = ["astok", "vas-kor", "nutus"].map(|id| k(&m, id));
    let mut g = game(&m);
    g.slay_villains(&ctx, p);
    g.parties[p].city = city(&m, "dusar");
    g.parties[p].at_final = false;
    let mut alive = g.clone();
    for v in dead {
        assert_ne!(g.slain & bit(v), 0);
        assert!(!g.drawable(v));
        alive.slain &= !bit(v);
    }
    g.surrogate_on_discovery(&ctx, p, &mut NoTrace);
    assert_eq!(g.parties[p].surrogate, m.data().nameless_villain);
    alive.surrogate_on_discovery(&ctx, p, &mut NoTrace);
    assert_eq!(alive.parties[p].surrogate, dead[0]);
}

#[test]
fn tars_tarkas_gone_home_befriends_again_but_a_companion_slain_never_does() {
    // [19.51] Tars Tarkas leaves Carthoris alive after three Strategic
    // Turns; a later 10 on the Encounter Friend Table (the first hero not
    // in play [17.15], John Carter being played) brings him again.
    let m = model("two-heroes");
    let ctx = m.context();
    let p = 1;
    let mut g = game(&m);
    let tars = k(&m, "tars-tarkas");
    let befriend = |g: &mut super::game::Game, roll: i32| {
        let mut s = Script::default().d10s(&[roll]);
        g.befriend(&ctx, p, FriendSource::Outdoor, &mut s, &mut NoTrace);
        assert!(s.done());
    };
    g.turn = 5;
    set_retinue(&mut g, p, &[]);
    befriend(&mut g, 10);
    assert!(g.heroes[p].has(tars));
    g.turn = 8;
    g.tars_tarkas_upkeep(&ctx, p, &mut NoTrace);
    assert!(!g.heroes[p].has(tars));
    assert!(g.drawable(tars), "gone home alive");
    befriend(&mut g, 10);
    assert_eq!(g.heroes[p].retinue(), [tars]);
    // [11.41] In Toonol, Gor Hajus (102) dies in a lost street fight (the
    // scripted duel kills the losing side; a hero such as Tars Tarkas
    // would only fall unconscious [7.5]). A 4 then brings the next good
    // minor character of the city, Gan Had (106), not Gor Hajus.
    let (gor, gan) = (k(&m, "gor-hajus"), k(&m, "gan-had"));
    g.heroes[p].place = Place::City(city(&m, "toonol"));
    set_retinue(&mut g, p, &[gor]);
    let mut s = Script::default().duels(&[false]);
    let green = k(&m, "green-warrior");
    let fought = g.fight(
        &ctx,
        p,
        &[(green, 0)],
        FightOptions::on(STREET),
        &mut s,
        &mut NoTrace,
    );
    assert!(!fought.won && s.done());
    assert!(g.heroes[p].retinue().is_empty());
    assert_ne!(g.slain & bit(gor), 0);
    befriend(&mut g, 4);
    assert_eq!(g.heroes[p].retinue(), [gan]);
    assert!(g.check_invariants(&ctx).is_ok());
    // A dead man with anyone is a broken state.
    g.heroes[p].join(gor);
    let err = g.check_invariants(&ctx).unwrap_err();
    assert!(err.contains("Gor Hajus is dead"), "{err}");
}

#[test]
fn a_captive_who_takes_her_life_is_never_befriended_afterwards() {
    // [13.45, 19.21] Llana of Gathol, held by John Carter's villain, takes
    // her life on a 10 of the Unspeakable Act Table. Carthoris, later
    // befriended by a female personage in Gathol, her city, meets another.
    let m = model("two-heroes");
    let ctx = m.context();
    let mut g = game(&m);
    let llana = k(&m, "llana-of-gathol");
    g.parties[0].captive = llana;
    g.in_play |= bit(llana);
    g.unspeakable_act_table(&ctx, 0, &mut Script::default().d10s(&[10]), &mut NoTrace);
    assert_eq!(g.parties[0].captive, NONE);
    assert_ne!(g.slain & bit(llana), 0);
    g.heroes[1].place = Place::City(city(&m, "gathol"));
    set_retinue(&mut g, 1, &[]);
    let mut s = Script::default().d10s(&[8]);
    g.befriend(&ctx, 1, FriendSource::Outdoor, &mut s, &mut NoTrace);
    assert_eq!(g.heroes[1].retinue().len(), 1);
    assert!(!g.heroes[1].has(llana));
}

/// John Carter imprisoned in his villain's city with its warrior of Mars
/// for a foreign cellmate (a 6 on the Prison Companion Table [17.13,
/// 17.19]) and no escape (a 10 [17.21]), then into the arena with the arena
/// and Jetan rolls of `arena`, the duels won as `duels` says and the
/// winners of `fallen` (bit per fighter) dead all the same; his villains
/// are dead, so none flees or is challenged after [17.33]. Returns the
/// game, the cellmate's counter and the script.
fn warrior_cellmate_in_the_arena(
    arena: &[i32],
    duels: &[bool],
    fallen: &[u32],
) -> (super::game::Game, u8, Script) {
    let m = model("two-heroes");
    let ctx = m.context();
    let p = 0;
    let mut g = game(&m);
    g.slay_villains(&ctx, p);
    let c = g.parties[p].city;
    g.heroes[p].place = Place::City(c);
    g.enter_city(&ctx, p, &mut Script::default(), &mut NoTrace);
    set_retinue(&mut g, p, &[]);
    let warrior = m.data().places[usize::from(c)].warriors;
    let mut rolls = vec![6, 10];
    rolls.extend(arena);
    let mut s = Script::default().d10s(&rolls).duels(duels).fallen(fallen);
    g.imprison(&ctx, p, &mut s, &mut NoTrace);
    assert!(s.done());
    assert_eq!(g.heroes[p].stats.arena_duels, 1);
    assert!(g.check_invariants(&ctx).is_ok());
    (g, warrior, s)
}

#[test]
fn a_warrior_cellmate_killed_in_the_arena_does_not_join_17_13() {
    // [17.13] The warrior of Mars joins the hero only if he survives the
    // arena duel. Six warriors (an 8 on the Arena Duel Table [17.46]):
    // the hero and his cellmate (the duel's fighter 1) win, the cellmate
    // alive, and he joins; the same win with the cellmate killed, and he
    // does not. A generic counter is never recorded as slain, so only the
    // duel says he died.
    let (g, warrior, s) = warrior_cellmate_in_the_arena(&[8], &[true], &[]);
    assert_eq!(s.fought[0].fighters[1].id, s.foes[0][0], "beside the hero");
    assert_eq!(g.heroes[0].retinue(), [warrior], "he lives and joins");
    let (g, _, _) = warrior_cellmate_in_the_arena(&[8], &[true], &[1 << 1]);
    assert!(g.heroes[0].retinue().is_empty(), "killed, he does not join");
}

#[test]
fn a_warrior_cellmate_killed_in_the_first_jetan_duel_fights_no_more_17_43() {
    // [17.43] Jetan (a 3 on the Arena Duel Table), and a 3 on the Jetan
    // table: a captain of the guard, then a warrior of Mars, one duel after
    // the other. The cellmate falls in the first: the hero fights the
    // second alone and comes out without him [17.13]. Alive, he stands
    // beside the hero in both and joins.
    let (g, _, s) = warrior_cellmate_in_the_arena(&[3, 3], &[true, true], &[1 << 1]);
    let sides =
        |d: &crate::jc::duel::sequence::Duel| d.fighters.iter().filter(|f| f.side == 0).count();
    assert_eq!(sides(&s.fought[0]), 2);
    assert_eq!(sides(&s.fought[1]), 1, "the hero alone");
    assert!(g.heroes[0].retinue().is_empty());
    let (g, warrior, s) = warrior_cellmate_in_the_arena(&[3, 3], &[true, true], &[]);
    assert_eq!(sides(&s.fought[1]), 2);
    assert_eq!(g.heroes[0].retinue(), [warrior]);
}
