//! The players' decisions about random events [18], friends, love and the
//! special characters [12, 13, 19], for the `sensible` and `random` policies
//! of [`super::players`] (a player's hero policy decides for his hero's
//! cards, his villain policy for the cards he plays as a villain).
//!
//! **Hero, `sensible`.** Draws from the deck, never the face-down pile
//! (its card is one another player chose to be rid of); over the hand limit
//! discards the card worth least to him ([`hero_value`], villain cards by
//! [`villain_value`]). Plays each card at its first use: a found flier when
//! he has none; reinforcements and a safe companion at once (the safe one
//! is his best fighter among those who could betray him, else a female
//! friend); remorse on the first traitor; stealth, disguise (when a
//! stranger) and the secret entrance on entering his villain's city; the
//! cards that avoid an outdoor encounter against beasts or three foes or
//! more; the card that gives the city guard the slip only on a discovery;
//! after a defeat the cheapest card that saves him (warriors evaded, then a
//! break-off, then a miraculous escape, then the card that costs a turn);
//! the prison escape always, the escape bonus when the escape is not
//! certain anyway, the arena companion whenever his cellmate is a minor
//! character; the extra movement card in transit; the villain-stays card on
//! a discovery when his villain could flee; invisibility before the duel
//! with the villain's group; the North Pole card when his villain is one
//! flier line away at the Pole. Takes the warriors of the City Friend Table
//! rather than joining the army [16.33]. Has his brain transferred [19.31]
//! only when his villain's city would make him move secretly, and back
//! once his villain's group is slain; has the surgeon give every
//! personage of his company but his love and princess a warrior's values
//! [19.31] (a minor character never: he keeps the levels he has).
//!
//! **Villain, `sensible`.** Plays every card against the hero at its first
//! legal moment: treachery (on the best fighter among the candidates, else
//! a female friend), the unspeakable act, the assassin (on the hero's best
//! minor character), abduction at the first city fight (the hero's love
//! first), the flier crash, the diversion of a flier (to the neighbouring
//! city farthest from the villain, when that is farther than where the
//! hero is), flight once the hero is in his city, his own reinforcements
//! while under his entourage limit, invisibility before the duel with the
//! hero. Makes his one try of [13.23] and his roll of [13.31] whenever he
//! may, and always calls on Tario or Luud [19.32]. Duels a repentant who
//! kept him from his act [12.32] when he is the better fighter. Kar Komak's phantoms
//! [19.41] (two materialisations a game, whoever he serves) are raised by
//! a sensible hero for the duel with his villain's group, and against five
//! foes or more only while a second one is left, so the last is kept for
//! that duel.
//!
//! **Fellow heroes [9.27].** A sensible Player never fights beside
//! another Player's hero nor gives him a companion: every other hero is a
//! rival for champion [20.54], and one lost to beasts gives the rest a
//! merit [20.53]; he takes any help or companion offered.
//!
//! **Offered cards [18.17]** (three Players or more, see
//! [`super::offers`]). A sensible Player offers every villain card against
//! another Player's hero when the Player who runs that hero's villain has
//! none, and never offers a hero card to another Player's hero; the
//! receiver plays an offered card as he would his own.
//!
//! **`random`**: a fair coin for every optional play or choice, a uniform
//! choice among candidates and discards.

use super::dice::Roller;
use super::game::{Context, Game};
use super::players::{HeroPolicy, VillainPolicy};
use crate::jc::duel::roster::Class;
use crate::jc::event_deck::Effect;

/// Whether hero `p`'s player plays as `sensible` for his hero.
pub(crate) fn hero_sensible(g: &Game, p: usize) -> bool {
    g.policies[p].0 == HeroPolicy::Sensible
}

/// Whether hero `p`'s villain is played `sensible`.
pub(crate) fn villain_sensible(g: &Game, p: usize) -> bool {
    g.policies[usize::from(g.parties[p].controller)].1 == VillainPolicy::Sensible
}

/// Hero `p`'s player decides an optional hero play: `sensible` is the
/// sensible policy's answer; the random policy tosses a coin.
pub(crate) fn hero_wants<R: Roller>(g: &Game, p: usize, sensible: bool, r: &mut R) -> bool {
    if hero_sensible(g, p) {
        sensible
    } else {
        r.pick(2) == 0
    }
}

/// The player of hero `p`'s villain decides an optional villain play.
pub(crate) fn villain_wants<R: Roller>(g: &Game, p: usize, sensible: bool, r: &mut R) -> bool {
    if villain_sensible(g, p) {
        sensible
    } else {
        r.pick(2) == 0
    }
}

/// How much a hero card is worth keeping (higher keeps longer).
pub(crate) fn hero_value(e: &Effect) -> u8 {
    match e {
        Effect::MiraculousEscape { .. } | Effect::PrisonEscape => 9,
        Effect::EvadeCapture | Effect::BreakOff => 8,
        Effect::EvadeAtCost { .. } | Effect::AvoidCityGuard => 7,
        Effect::Remorse | Effect::Stealth { .. } | Effect::SecretEntrance { .. } => 6,
        Effect::AvoidOutdoorEncounter | Effect::EscapeBonus { .. } | Effect::Invisibility => 5,
        Effect::Disguise | Effect::VillainStays | Effect::ArenaCompanion => 4,
        Effect::SafeCompanion | Effect::Reinforcements { .. } | Effect::GainFlier => 3,
        Effect::ExtraMovement { .. } | Effect::NorthPoleFlight => 2,
        _ => 0,
    }
}

/// How much a villain card is worth keeping.
pub(crate) fn villain_value(e: &Effect) -> u8 {
    match e {
        Effect::UnspeakableAct | Effect::Treachery => 9,
        Effect::VillainFlees | Effect::AbductPersonage => 8,
        Effect::Assassin { .. } | Effect::VillainReinforcements { .. } => 6,
        Effect::FlierCrash | Effect::DivertFlier => 5,
        Effect::Invisibility => 4,
        _ => 0,
    }
}

/// Which card player `q` discards over the hand limit [18.11]: the
/// position in his hand.
pub(crate) fn discard<R: Roller>(ctx: &Context, g: &Game, q: usize, r: &mut R) -> usize {
    let hand = g.story.hands[q].cards();
    if !hero_sensible(g, q) {
        return r.pick(hand.len());
    }
    let deck = &ctx.data.story.events;
    let worth = |n: u8| {
        let c = deck.card(n);
        let h = if c.side.for_hero() {
            hero_value(&c.effect)
        } else {
            0
        };
        let v = if c.side.for_villain() {
            villain_value(&c.effect)
        } else {
            0
        };
        h.max(v)
    };
    (0..hand.len()).min_by_key(|&i| worth(hand[i])).unwrap_or(0)
}

/// Whether player `q` draws from the face-down pile rather than the deck
/// [18.13].
pub(crate) fn draw_face_down<R: Roller>(g: &Game, q: usize, r: &mut R) -> bool {
    !hero_sensible(g, q) && r.pick(2) == 0
}

/// One of the bits of `set` (roster indices): the sensible choice is
/// `best`, the random one uniform.
pub(crate) fn pick_character<R: Roller>(
    sensible: bool,
    set: u128,
    best: impl Fn(u8) -> i32,
    r: &mut R,
) -> Option<u8> {
    if set == 0 {
        return None;
    }
    let members = (0..128u8).filter(|&k| set & (1u128 << k) != 0);
    if sensible {
        members.max_by_key(|&k| (best(k), std::cmp::Reverse(k)))
    } else {
        let n = set.count_ones() as usize;
        let i = r.pick(n);
        (0..128u8).filter(|&k| set & (1u128 << k) != 0).nth(i)
    }
}

/// How much a companion is worth in a fight: his top level and strength.
pub(crate) fn fighting_worth(ctx: &Context, k: u8) -> i32 {
    let c = &ctx.data.roster.characters[usize::from(k)];
    if !c.fights() {
        return 0;
    }
    let top = c.at(c.top_level);
    i32::from(c.top_level) * 10 + i32::from(top.strength) * 3 + i32::from(top.agility)
}

/// Whether hero `p` joins the city's army rather than take the warriors
/// of the City Friend Table [16.33].
pub(crate) fn join_army<R: Roller>(g: &Game, p: usize, r: &mut R) -> bool {
    hero_wants(g, p, false, r)
}

/// Whether hero `p` has his brain moved (into the captain's body, or back
/// when `transferred`) [19.31].
pub(crate) fn brain_transfer<R: Roller>(
    ctx: &Context,
    g: &Game,
    p: usize,
    transferred: bool,
    r: &mut R,
) -> bool {
    let party = &g.parties[p];
    let sensible = if transferred {
        g.heroes[p].glory_at > 0 || !g.villain_fights(ctx, p)
    } else {
        super::game::party_present(party)
            && g.heroes[p].glory_at == 0
            && !ctx.data.passes(g.heroes[p].character, party.city)
    };
    hero_wants(g, p, sensible, r)
}

/// Whether hero `p`'s villain `v` duels `k`, the repentant who kept him from
/// his act [12.32]: `sensible` when the villain is the better fighter
/// ([`fighting_worth`]).
pub(crate) fn duel_repentant<R: Roller>(
    ctx: &Context,
    g: &Game,
    p: usize,
    v: u8,
    k: u8,
    r: &mut R,
) -> bool {
    villain_wants(g, p, fighting_worth(ctx, v) > fighting_worth(ctx, k), r)
}

/// Whether hero `p` has companion `k` given a warrior's values [19.31]:
/// `sensible` for a personage (who gains combat values), never for a minor
/// character, who keeps the levels he has.
pub(crate) fn change_companion<R: Roller>(
    ctx: &Context,
    g: &Game,
    p: usize,
    k: u8,
    r: &mut R,
) -> bool {
    let personage = ctx.data.roster.characters[usize::from(k)].class == Class::Personage;
    hero_wants(g, p, personage, r)
}

/// Whether hero `p`'s villain calls on Tario or Luud [19.32].
pub(crate) fn call_on_master<R: Roller>(g: &Game, p: usize, r: &mut R) -> bool {
    villain_wants(g, p, true, r)
}

/// Whether Kar Komak raises his phantoms for hero `p` against `foes` foes
/// with `left` materialisations of the game's [19.41] left: `sensible`
/// raises them for the duel with the villain's group, and against five foes
/// or more only while another one stays in hand for that duel.
pub(crate) fn summon_phantoms<R: Roller>(
    g: &Game,
    p: usize,
    foes: usize,
    left: u8,
    r: &mut R,
) -> bool {
    let villain_duel = g.story.heroes[p].villain_duel;
    hero_wants(g, p, villain_duel || (foes >= 5 && left > 1), r)
}

/// Whether hero `q`'s Player has him fight beside another Player's hero in
/// a hostile encounter [9.27] (`sensible`: never, see the module notes).
pub(crate) fn aid_fellow<R: Roller>(g: &Game, q: usize, r: &mut R) -> bool {
    hero_wants(g, q, false, r)
}

/// Whether hero `p`'s Player takes a fellow hero's help or companion
/// [9.27] (`sensible`: always).
pub(crate) fn take_from_fellow<R: Roller>(g: &Game, p: usize, r: &mut R) -> bool {
    hero_wants(g, p, true, r)
}

/// The companion among `givable` that hero `p`'s Player gives a fellow
/// hero [9.27], if any: `sensible` none; `random` a coin, then a uniform
/// choice.
pub(crate) fn give_to_fellow<R: Roller>(
    g: &Game,
    p: usize,
    givable: u128,
    r: &mut R,
) -> Option<u8> {
    if givable == 0 || !hero_wants(g, p, false, r) {
        return None;
    }
    pick_character(false, givable, |_| 0, r)
}

/// Whether Player `o` offers one of his cards to another Player [18.17]: a
/// villain card against hero `p` of another Player (`sensible`: always, a
/// rival set back, or with `offers = "leader"` only when no other rival of
/// `o` leads `p`), or a hero card for him (`sensible`: never, a rival
/// helped).
pub(crate) fn offer_card<R: Roller>(
    ctx: &Context,
    g: &Game,
    o: usize,
    p: usize,
    for_hero: bool,
    r: &mut R,
) -> bool {
    if for_hero {
        hero_wants(g, o, false, r)
    } else if g.policies[o].1 == VillainPolicy::Sensible {
        !ctx.config.offer_only_to_leader || leads_rivals_of(ctx, g, p, o)
    } else {
        r.pick(2) == 0
    }
}

/// Whether hero `p` leads every rival of Player `o` (ties lead too): most
/// conditions fulfilled [20.5], then carrying his captive, then still in
/// play.
fn leads_rivals_of(ctx: &Context, g: &Game, p: usize, o: usize) -> bool {
    let progress = |q: usize| {
        let h = &g.heroes[q];
        let carries = g.captive_of(ctx, q).is_some_and(|k| h.has(k));
        (g.conditions(q).0, carries, h.in_play())
    };
    let mine = progress(p);
    (0..usize::from(g.players)).all(|q| q == o || progress(q) <= mine)
}
