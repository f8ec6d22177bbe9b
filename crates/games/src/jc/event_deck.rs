//! The Random Event deck of the Strategic Game [18]: its data (cards
//! 001-065, each one of a fixed set of [`Effect`]s, with who may play it
//! and when [18.16, 18.2]) and its mechanics as `Copy` state with fixed
//! arrays ([`EventPiles`], [`Hand`]): the deck, the face-down pile of cards
//! discarded over the hand limit (which later Players may draw from instead
//! of the deck [18.13]), the face-up pile of played cards, the rebuild of an
//! exhausted deck from both piles [18.14] and the removal of the unique
//! cards after the first pass [18.15].
//!
//! What the effects do in a game is `jc.strategic`'s business
//! ([`crate::jc::strategic::events`]); this module knows only the
//! cards and the piles.

use std::path::Path;

use serde::Deserialize;

use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance};

/// Most cards the deck may hold.
pub(crate) const MAX_EVENT_CARDS: usize = 96;
/// Most cards a hand may hold (the hand limit, plus the card drawn over
/// it).
pub(crate) const MAX_HAND: usize = 6;

/// Who may play a card [18.16].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// A Player for his own hero (against that hero's villain).
    Hero,
    /// A Player for a villain he runs (against that villain's hero).
    Villain,
    /// Either.
    Either,
}

impl Side {
    /// Whether a card of this side may be played for a hero.
    pub(crate) fn for_hero(self) -> bool {
        matches!(self, Side::Hero | Side::Either)
    }

    /// Whether a card of this side may be played for a villain.
    pub(crate) fn for_villain(self) -> bool {
        matches!(self, Side::Villain | Side::Either)
    }
}

/// When a card is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    /// Kept in hand and played when its moment comes [18.12].
    Hold,
    /// Played on the drawer's own hero as soon as it is drawn [18.0
    /// PROCEDURE].
    Immediate,
}

/// What a card does (see `random-events.toml` for each one's reading).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// A beaten hero gets away and loses `turns` Strategic Turns [11.33].
    MiraculousEscape {
        /// Strategic Turns lost.
        turns: u8,
    },
    /// No overland movement until the drawer's next Random Events Phase;
    /// fliers in transit lost.
    HaltMovement,
    /// A candidate for treachery betrays the hero [12.2].
    Treachery,
    /// A betrayer repents [12.3].
    Remorse,
    /// The villain threatens his captive [13.4].
    UnspeakableAct,
    /// Less chance of discovery in this city game, and the area of one
    /// quarry.
    Stealth {
        /// Taken off every discovery chance.
        discovery: u8,
    },
    /// A flying hero covers half his card, then crashes.
    FlierCrash,
    /// Hero and retinue set down at a place for some turns.
    Transport {
        /// The place (index into the map's cities).
        place: u8,
        /// Strategic Turns he must stay.
        turns: u8,
    },
    /// A beaten hero breaks off (not on the flier display).
    BreakOff,
    /// An assassin attacks a minor character of the retinue in a city.
    Assassin {
        /// The assassin (roster index).
        foe: u8,
    },
    /// A free blow as the fight with the villain's group begins.
    Invisibility,
    /// A female personage of the retinue is taken to the villain as a
    /// city fight begins.
    AbductPersonage,
    /// More movement cards this Movement Phase.
    ExtraMovement {
        /// How many.
        cards: u8,
    },
    /// The villain sends a hero's flier to a neighbouring city.
    DivertFlier,
    /// The hero finds a flier.
    GainFlier,
    /// The villain leaves for his next city.
    VillainFlees,
    /// The imprisoned hero escapes without a roll [17.2].
    PrisonEscape,
    /// The hero enters the city map at an area other than the gate.
    SecretEntrance {
        /// The city map area (index).
        area: u8,
    },
    /// A discovery or a city encounter with warriors of Mars passes by.
    AvoidCityGuard,
    /// An outdoor encounter does not happen.
    AvoidOutdoorEncounter,
    /// Warriors of Mars who beat the hero do not hold him; he keeps his
    /// weapons.
    EvadeCapture,
    /// Any encounter or holding is avoided at a cost in turns.
    EvadeAtCost {
        /// Strategic Turns lost.
        turns: u8,
    },
    /// The hero passes as a native of the city [6.25, 15.31].
    Disguise,
    /// A minor character and warriors of the hero's home city join him.
    Reinforcements {
        /// The code series the minor character is drawn from [3.23].
        series: (u16, u16),
        /// Warriors of Mars.
        warriors: u8,
    },
    /// After a discovery the villain may not flee this Strategic Turn.
    VillainStays,
    /// The prison companion fights beside the hero in the arena [17.14].
    ArenaCompanion,
    /// Taken off the escape roll [17.21].
    EscapeBonus {
        /// How much.
        escape: u8,
    },
    /// The hero's flier may fly to and from the North Pole [9.51].
    NorthPoleFlight,
    /// Warriors of the villain's city join his entourage [10.21, 10.5].
    VillainReinforcements {
        /// How many.
        warriors: u8,
    },
    /// One companion who can never betray the hero.
    SafeCompanion,
}

/// The effect names a card may have, and the parameters each reads.
pub(crate) const EFFECTS: [(&str, &[&str]); 30] = [
    ("miraculous-escape", &["turns"]),
    ("halt-movement", &[]),
    ("treachery", &[]),
    ("remorse", &[]),
    ("unspeakable-act", &[]),
    ("stealth", &["discovery"]),
    ("flier-crash", &[]),
    ("transport", &["place", "turns"]),
    ("break-off", &[]),
    ("assassin", &["foe"]),
    ("invisibility", &[]),
    ("abduct-personage", &[]),
    ("extra-movement", &["cards_drawn"]),
    ("divert-flier", &[]),
    ("gain-flier", &[]),
    ("villain-flees", &[]),
    ("prison-escape", &[]),
    ("secret-entrance", &["area"]),
    ("avoid-city-guard", &[]),
    ("avoid-outdoor-encounter", &[]),
    ("evade-capture", &[]),
    ("evade-at-cost", &["turns"]),
    ("disguise", &[]),
    ("reinforcements", &["series", "warriors"]),
    ("villain-stays", &[]),
    ("arena-companion", &[]),
    ("escape-bonus", &["escape"]),
    ("north-pole-flight", &[]),
    ("villain-reinforcements", &["warriors"]),
    ("safe-companion", &[]),
];

/// One card of the deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventCard {
    /// Its number (1 for card 001).
    pub number: u8,
    /// Who may play it.
    pub side: Side,
    /// When.
    pub play: Play,
    /// What it does.
    pub effect: Effect,
}

/// The deck as the data gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct EventDeck {
    /// The cards, `cards[i]` being card number `i + 1`.
    pub cards: Vec<EventCard>,
    /// Most cards in a hand [18.11].
    pub hand_limit: u8,
    /// Cards (bit `number - 1`) that leave the game when the deck is first
    /// exhausted [18.15].
    pub unique: u128,
    /// Each card's text, in our words.
    pub texts: Vec<String>,
}

/// What the loader looks names up in: places of the map, roster
/// characters and city map areas (each `None` when unknown, with a list of
/// suggestions for the error message).
pub struct Names<'a> {
    /// A place id to its index.
    pub place: &'a dyn Fn(&str) -> Option<u8>,
    /// A roster id to its index.
    pub character: &'a dyn Fn(&str) -> Option<u8>,
    /// A city map area id to its index.
    pub area: &'a dyn Fn(&str) -> Option<u8>,
}

/// A card number or a span of them: `7` or `[1, 8]`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(untagged)]
enum Span {
    One(i64),
    Range([i64; 2]),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeck {
    provenance: String,
    hand_limit: i64,
    #[serde(default)]
    removed_after_first_pass: Vec<i64>,
    cards: Vec<RawCard>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    cards: Span,
    side: String,
    play: String,
    effect: String,
    text: String,
    provenance: String,
    turns: Option<i64>,
    discovery: Option<i64>,
    place: Option<String>,
    foe: Option<String>,
    cards_drawn: Option<i64>,
    area: Option<String>,
    series: Option<[i64; 2]>,
    warriors: Option<i64>,
    escape: Option<i64>,
}

impl RawCard {
    fn present(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (set, name) in [
            (self.turns.is_some(), "turns"),
            (self.discovery.is_some(), "discovery"),
            (self.place.is_some(), "place"),
            (self.foe.is_some(), "foe"),
            (self.cards_drawn.is_some(), "cards_drawn"),
            (self.area.is_some(), "area"),
            (self.series.is_some(), "series"),
            (self.warriors.is_some(), "warriors"),
            (self.escape.is_some(), "escape"),
        ] {
            if set {
                out.push(name);
            }
        }
        out
    }
}

#[cfg(test)]
/// The number of cards the rules give the deck [18.0, 3.0].
pub(crate) const RULES_DECK_SIZE: usize = 65;

impl EventDeck {
    /// Loads `random-events.toml`.
    pub fn load_with(
        file: &Path,
        names: &Names,
        loader: &mut Loader,
    ) -> Result<Self, ScenarioError> {
        let raw: RawDeck = loader.read_toml(file)?;
        Self::build(file, &raw, names)
    }

    /// Parses the deck from TOML text (for tests and overrides).
    pub fn parse(file: &Path, text: &str, names: &Names) -> Result<Self, ScenarioError> {
        let raw: RawDeck = Loader::default().parse_toml(file, text)?;
        Self::build(file, &raw, names)
    }

    fn build(file: &Path, raw: &RawDeck, names: &Names) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(file, field, message);
        check_provenance(file, "provenance", &raw.provenance)?;
        if !(1..=(MAX_HAND as i64 - 1)).contains(&raw.hand_limit) {
            return Err(err(
                "hand_limit".into(),
                format!("expected 1 to {}, found {}", MAX_HAND - 1, raw.hand_limit),
            ));
        }
        // Every card number once, from 1 up.
        let mut slot: Vec<Option<EventCard>> = Vec::new();
        let mut texts: Vec<String> = Vec::new();
        for (i, c) in raw.cards.iter().enumerate() {
            let field = |f: &str| format!("cards[{i}].{f}");
            let (lo, hi) = match c.cards {
                Span::One(v) => (v, v),
                Span::Range([a, b]) => (a, b),
            };
            if lo < 1 || hi < lo || hi > MAX_EVENT_CARDS as i64 {
                return Err(err(
                    field("cards"),
                    format!(
                        "expected a card number or a span [low, high] within 1 to {MAX_EVENT_CARDS}, found {lo} to {hi}"
                    ),
                ));
            }
            check_provenance(file, &field("provenance"), &c.provenance)?;
            if c.text.trim().is_empty() {
                return Err(err(field("text"), "expected what the card does".into()));
            }
            let side = match c.side.as_str() {
                "hero" => Side::Hero,
                "villain" => Side::Villain,
                "either" => Side::Either,
                other => {
                    return Err(err(
                        field("side"),
                        format!("expected hero, villain or either [18.16], found {other:?}"),
                    ));
                }
            };
            let play = match c.play.as_str() {
                "hold" => Play::Hold,
                "immediate" => Play::Immediate,
                other => {
                    return Err(err(
                        field("play"),
                        format!("expected hold or immediate, found {other:?}"),
                    ));
                }
            };
            let effect = effect(file, &field, c, names)?;
            for n in lo..=hi {
                let k = (n - 1) as usize;
                if slot.len() <= k {
                    slot.resize(k + 1, None);
                    texts.resize(k + 1, String::new());
                }
                if slot[k].is_some() {
                    return Err(err(
                        field("cards"),
                        format!("expected each card number once, found {n} again"),
                    ));
                }
                slot[k] = Some(EventCard {
                    number: n as u8,
                    side,
                    play,
                    effect,
                });
                texts[k] = c.text.clone();
            }
        }
        if slot.is_empty() {
            return Err(err("cards".into(), "expected at least one card".into()));
        }
        let mut cards = Vec::with_capacity(slot.len());
        for (k, c) in slot.into_iter().enumerate() {
            cards.push(c.ok_or_else(|| {
                err(
                    "cards".into(),
                    format!(
                        "expected every card number from 1 to {} once, found none for {}",
                        texts.len(),
                        k + 1
                    ),
                )
            })?);
        }
        let mut unique = 0u128;
        for (i, &n) in raw.removed_after_first_pass.iter().enumerate() {
            if !(1..=cards.len() as i64).contains(&n) {
                return Err(err(
                    format!("removed_after_first_pass[{i}]"),
                    format!(
                        "expected a card number of the deck (1 to {}), found {n}",
                        cards.len()
                    ),
                ));
            }
            unique |= 1u128 << (n - 1);
        }
        if unique.count_ones() as usize >= cards.len() {
            return Err(err(
                "removed_after_first_pass".into(),
                "expected some cards to stay in the deck after the first pass".into(),
            ));
        }
        Ok(EventDeck {
            cards,
            hand_limit: raw.hand_limit as u8,
            unique,
            texts,
        })
    }

    /// The card of number `number` (1-based).
    #[inline]
    pub fn card(&self, number: u8) -> &EventCard {
        &self.cards[usize::from(number) - 1]
    }
}

/// Parses one card's effect and its parameters.
fn effect(
    file: &Path,
    field: &dyn Fn(&str) -> String,
    c: &RawCard,
    names: &Names,
) -> Result<Effect, ScenarioError> {
    let err = |f: &str, message: String| ScenarioError::new(file, field(f), message);
    let Some(&(_, params)) = EFFECTS.iter().find(|(name, _)| *name == c.effect) else {
        return Err(err(
            "effect",
            format!(
                "expected one of {}, found {:?}",
                EFFECTS
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", "),
                c.effect
            ),
        ));
    };
    for name in c.present() {
        if !params.contains(&name) {
            return Err(err(
                name,
                format!(
                    "expected no {name:?} for effect {:?} (it reads {})",
                    c.effect,
                    if params.is_empty() {
                        "no parameters".to_string()
                    } else {
                        params.join(", ")
                    }
                ),
            ));
        }
    }
    let number = |v: Option<i64>, f: &str, range: std::ops::RangeInclusive<i64>| match v {
        Some(n) if range.contains(&n) => Ok(n as u8),
        other => Err(err(
            f,
            format!(
                "expected a number from {} to {} for effect {:?}, found {}",
                range.start(),
                range.end(),
                c.effect,
                other.map_or("nothing".to_string(), |n| n.to_string())
            ),
        )),
    };
    let id = |v: &Option<String>, f: &str, what: &str, look: &dyn Fn(&str) -> Option<u8>| {
        let text = v.as_deref().unwrap_or("");
        look(text).ok_or_else(|| {
            err(
                f,
                format!("expected {what} for effect {:?}, found {text:?}", c.effect),
            )
        })
    };
    Ok(match c.effect.as_str() {
        "miraculous-escape" => Effect::MiraculousEscape {
            turns: number(c.turns, "turns", 0..=9)?,
        },
        "halt-movement" => Effect::HaltMovement,
        "treachery" => Effect::Treachery,
        "remorse" => Effect::Remorse,
        "unspeakable-act" => Effect::UnspeakableAct,
        "stealth" => Effect::Stealth {
            discovery: number(c.discovery, "discovery", 0..=10)?,
        },
        "flier-crash" => Effect::FlierCrash,
        "transport" => Effect::Transport {
            place: id(&c.place, "place", "a place of the map", names.place)?,
            turns: number(c.turns, "turns", 0..=9)?,
        },
        "break-off" => Effect::BreakOff,
        "assassin" => Effect::Assassin {
            foe: id(&c.foe, "foe", "a character of the roster", names.character)?,
        },
        "invisibility" => Effect::Invisibility,
        "abduct-personage" => Effect::AbductPersonage,
        "extra-movement" => Effect::ExtraMovement {
            cards: number(c.cards_drawn, "cards_drawn", 1..=5)?,
        },
        "divert-flier" => Effect::DivertFlier,
        "gain-flier" => Effect::GainFlier,
        "villain-flees" => Effect::VillainFlees,
        "prison-escape" => Effect::PrisonEscape,
        "secret-entrance" => Effect::SecretEntrance {
            area: id(&c.area, "area", "an area of the city map", names.area)?,
        },
        "avoid-city-guard" => Effect::AvoidCityGuard,
        "avoid-outdoor-encounter" => Effect::AvoidOutdoorEncounter,
        "evade-capture" => Effect::EvadeCapture,
        "evade-at-cost" => Effect::EvadeAtCost {
            turns: number(c.turns, "turns", 0..=9)?,
        },
        "disguise" => Effect::Disguise,
        "reinforcements" => {
            let series = match c.series {
                Some([a, b]) if 1 <= a && a <= b && b <= 999 => (a as u16, b as u16),
                other => {
                    return Err(err(
                        "series",
                        format!(
                            "expected a code series [low, high] within 1 to 999 [3.23], found {other:?}"
                        ),
                    ));
                }
            };
            Effect::Reinforcements {
                series,
                warriors: number(c.warriors, "warriors", 0..=8)?,
            }
        }
        "villain-stays" => Effect::VillainStays,
        "arena-companion" => Effect::ArenaCompanion,
        "escape-bonus" => Effect::EscapeBonus {
            escape: number(c.escape, "escape", 1..=10)?,
        },
        "north-pole-flight" => Effect::NorthPoleFlight,
        "villain-reinforcements" => Effect::VillainReinforcements {
            warriors: number(c.warriors, "warriors", 1..=8)?,
        },
        _ => Effect::SafeCompanion,
    })
}

/// A Player's hand of Random Event cards (card numbers) [18.11].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Hand {
    cards: [u8; MAX_HAND],
    len: u8,
}

impl Hand {
    /// The cards held.
    pub fn cards(&self) -> &[u8] {
        &self.cards[..usize::from(self.len)]
    }

    /// How many.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Takes a card in (ignored when the hand is full, which the hand
    /// limit prevents).
    pub fn add(&mut self, card: u8) {
        if usize::from(self.len) < MAX_HAND {
            self.cards[usize::from(self.len)] = card;
            self.len += 1;
        }
    }

    /// Gives up the card at position `i`, returning it.
    pub(crate) fn remove_at(&mut self, i: usize) -> u8 {
        let n = usize::from(self.len);
        let card = self.cards[i];
        self.cards.copy_within(i + 1..n, i);
        self.len -= 1;
        card
    }

    /// Gives up card `number` if held; whether it was.
    pub fn remove(&mut self, number: u8) -> bool {
        match self.cards().iter().position(|&c| c == number) {
            Some(i) => {
                self.remove_at(i);
                true
            }
            None => false,
        }
    }
}

/// A pile of card numbers, the top last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pile {
    cards: [u8; MAX_EVENT_CARDS],
    len: u8,
}

impl Pile {
    const EMPTY: Pile = Pile {
        cards: [0; MAX_EVENT_CARDS],
        len: 0,
    };

    fn push(&mut self, card: u8) {
        if usize::from(self.len) < MAX_EVENT_CARDS {
            self.cards[usize::from(self.len)] = card;
            self.len += 1;
        }
    }

    fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.cards[usize::from(self.len)])
    }

    fn top(&self) -> Option<u8> {
        self.len.checked_sub(1).map(|i| self.cards[usize::from(i)])
    }
}

/// The deck and its two discard piles in play [18.13, 18.14].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventPiles {
    deck: Pile,
    face_down: Pile,
    face_up: Pile,
    /// Whether the deck has been exhausted once (the unique cards are out
    /// [18.15]).
    pub first_pass_over: bool,
    /// How many times the deck has been rebuilt.
    pub rebuilds: u16,
    /// Unique cards taken out of the game.
    pub removed: u128,
}

impl EventPiles {
    /// Cards 1 to `cards`, shuffled with `below(n)` (a uniform number in
    /// `0..n`).
    pub fn new(cards: usize, below: impl FnMut(u32) -> u32) -> Self {
        let mut s = EventPiles {
            deck: Pile::EMPTY,
            face_down: Pile::EMPTY,
            face_up: Pile::EMPTY,
            first_pass_over: false,
            rebuilds: 0,
            removed: 0,
        };
        for n in 1..=cards.min(MAX_EVENT_CARDS) {
            s.deck.push(n as u8);
        }
        s.shuffle(below);
        s
    }

    /// A deck of exactly `cards`, the first on top, and empty piles (for
    /// worked examples and tests).
    pub fn stacked(cards: &[u8]) -> Self {
        let mut s = EventPiles::new(0, |n| n - 1);
        for &c in cards.iter().rev() {
            s.deck.push(c);
        }
        s
    }

    fn shuffle(&mut self, mut below: impl FnMut(u32) -> u32) {
        let n = usize::from(self.deck.len);
        for i in (1..n).rev() {
            let j = below(i as u32 + 1) as usize;
            self.deck.cards.swap(i, j);
        }
    }

    #[cfg(test)]
    /// Cards left in the deck.
    pub(crate) fn deck_len(&self) -> usize {
        usize::from(self.deck.len)
    }

    #[cfg(test)]
    /// Cards in the face-down pile.
    pub(crate) fn face_down_len(&self) -> usize {
        usize::from(self.face_down.len)
    }

    #[cfg(test)]
    /// Cards in the face-up pile.
    pub(crate) fn face_up_len(&self) -> usize {
        usize::from(self.face_up.len)
    }

    /// The top card of the face-down pile, if any (the drawer's choice
    /// [18.13]).
    pub(crate) fn face_down_top(&self) -> Option<u8> {
        self.face_down.top()
    }

    /// Draws the top card of the deck; an exhausted deck is first rebuilt
    /// from both piles, without the `unique` cards from the first time on
    /// [18.14, 18.15]. `None` when every card is in a hand or out of the
    /// game.
    pub fn draw(&mut self, unique: u128, below: impl FnMut(u32) -> u32) -> Option<u8> {
        if self.deck.len == 0 {
            self.rebuild(unique, below);
        }
        self.deck.pop()
    }

    /// Takes the top card of the face-down pile [18.13].
    pub(crate) fn draw_face_down(&mut self) -> Option<u8> {
        self.face_down.pop()
    }

    /// A card discarded over the hand limit goes face down [18.13].
    pub(crate) fn discard(&mut self, card: u8) {
        self.face_down.push(card);
    }

    /// A played card goes face up [18.14].
    pub fn played(&mut self, card: u8) {
        self.face_up.push(card);
    }

    fn rebuild(&mut self, unique: u128, below: impl FnMut(u32) -> u32) {
        self.first_pass_over = true;
        self.rebuilds = self.rebuilds.saturating_add(1);
        let take = |pile: &mut Pile, deck: &mut Pile, removed: &mut u128| {
            while let Some(c) = pile.pop() {
                if unique & (1u128 << (c - 1)) != 0 {
                    *removed |= 1u128 << (c - 1);
                } else {
                    deck.push(c);
                }
            }
        };
        take(&mut self.face_down, &mut self.deck, &mut self.removed);
        take(&mut self.face_up, &mut self.deck, &mut self.removed);
        self.shuffle(below);
    }

    /// Deals again what player `seat` cannot see, with `below(n)` (a
    /// uniform number in `0..n`): the deck, the face-down pile and the
    /// other `hands` are pooled, shuffled and dealt back in the same
    /// numbers, so each holds cards `seat` might picture there (a search
    /// player's view of them [18.11, 18.13]).
    pub(crate) fn redeal_unseen(
        &mut self,
        hands: &mut [Hand],
        seat: usize,
        mut below: impl FnMut(u32) -> u32,
    ) {
        let mut pool = [0u8; MAX_EVENT_CARDS];
        let mut n = 0;
        let mut put = |cards: &[u8], n: &mut usize| {
            for &c in cards {
                if *n < MAX_EVENT_CARDS {
                    pool[*n] = c;
                    *n += 1;
                }
            }
        };
        put(&self.deck.cards[..usize::from(self.deck.len)], &mut n);
        put(
            &self.face_down.cards[..usize::from(self.face_down.len)],
            &mut n,
        );
        for (i, h) in hands.iter().enumerate() {
            if i != seat {
                put(h.cards(), &mut n);
            }
        }
        for i in (1..n).rev() {
            let j = below(i as u32 + 1) as usize;
            pool.swap(i, j);
        }
        let mut next = 0;
        let mut take = |len: usize| {
            let cards = &pool[next..next + len];
            next += len;
            cards
        };
        let deck = usize::from(self.deck.len);
        self.deck.cards[..deck].copy_from_slice(take(deck));
        let face_down = usize::from(self.face_down.len);
        self.face_down.cards[..face_down].copy_from_slice(take(face_down));
        for (i, h) in hands.iter_mut().enumerate() {
            if i != seat {
                let len = h.len();
                h.cards[..len].copy_from_slice(take(len));
            }
        }
    }

    #[cfg(test)]
    /// Every card in the piles (for checks), as a bit set.
    pub(crate) fn in_piles(&self) -> u128 {
        let mut set = 0u128;
        for p in [&self.deck, &self.face_down, &self.face_up] {
            for &c in &p.cards[..usize::from(p.len)] {
                set |= 1u128 << (c - 1);
            }
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn place(s: &str) -> Option<u8> {
        ["lesser-helium", "atmosphere-plant"]
            .iter()
            .position(|x| *x == s)
            .map(|i| i as u8)
    }

    fn character(s: &str) -> Option<u8> {
        (s == "assassin").then_some(0)
    }

    fn area(s: &str) -> Option<u8> {
        ["gate", "nobles"]
            .iter()
            .position(|x| *x == s)
            .map(|i| i as u8)
    }

    fn names() -> Names<'static> {
        Names {
            place: &place,
            character: &character,
            area: &area,
        }
    }

    fn parse(text: &str) -> Result<EventDeck, ScenarioError> {
        EventDeck::parse(&PathBuf::from("random-events.toml"), text, &names())
    }

    const SMALL: &str = r#"
provenance = "reconstructed: test"
hand_limit = 3
removed_after_first_pass = [2]
[[cards]]
cards = [1, 2]
side = "hero"
play = "hold"
effect = "evade-capture"
text = "t"
provenance = "reconstructed: p"
[[cards]]
cards = 3
side = "villain"
play = "immediate"
effect = "transport"
place = "lesser-helium"
turns = 1
text = "t"
provenance = "reconstructed: p"
"#;

    #[test]
    fn the_shipped_deck_loads_with_65_cards() {
        let deck = EventDeck::load_with(
            &PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../scenarios/jc/data/random-events.toml"
            )),
            &names(),
            &mut Loader::default(),
        )
        .unwrap();
        assert_eq!(deck.cards.len(), RULES_DECK_SIZE);
        assert_eq!(deck.hand_limit, 3);
        assert_eq!(deck.unique, (1 << 22) | (1 << 36));
        assert_eq!(deck.card(1).effect, Effect::MiraculousEscape { turns: 1 });
        assert_eq!(deck.card(15).effect, Effect::Treachery);
        assert_eq!(deck.card(15).side, Side::Villain);
        assert_eq!(deck.card(9).play, Play::Immediate);
        assert_eq!(
            deck.card(37).effect,
            Effect::Transport { place: 0, turns: 1 }
        );
    }

    #[test]
    fn a_small_deck_parses() {
        let d = parse(SMALL).unwrap();
        assert_eq!(d.cards.len(), 3);
        assert_eq!(d.card(3).side, Side::Villain);
        assert!(d.card(1).side.for_hero() && !d.card(1).side.for_villain());
        assert!(Side::Either.for_hero() && Side::Either.for_villain());
    }

    #[test]
    fn an_unknown_effect_lists_the_known_ones() {
        let e = parse(&SMALL.replace("\"evade-capture\"", "\"fly-to-jasoom\"")).unwrap_err();
        assert_eq!(e.field, "cards[0].effect");
        assert!(e.message.contains("found \"fly-to-jasoom\""), "{e}");
        assert!(
            e.message
                .contains("miraculous-escape, halt-movement, treachery"),
            "{e}"
        );
    }

    #[test]
    fn numbers_must_cover_the_deck_once() {
        let e = parse(&SMALL.replace("cards = 3\n", "cards = 4\n")).unwrap_err();
        assert_eq!(e.field, "cards");
        assert!(e.message.contains("found none for 3"), "{e}");
        let e = parse(&SMALL.replace("cards = 3\n", "cards = 2\n")).unwrap_err();
        assert_eq!(e.field, "cards[1].cards");
        assert!(e.message.contains("found 2 again"), "{e}");
    }

    #[test]
    fn parameters_are_checked() {
        let e =
            parse(&SMALL.replace("place = \"lesser-helium\"", "place = \"jasoom\"")).unwrap_err();
        assert_eq!(e.field, "cards[1].place");
        assert!(e.message.contains("expected a place of the map"), "{e}");
        let e = parse(&SMALL.replace(
            "effect = \"evade-capture\"",
            "effect = \"evade-capture\"\nturns = 2",
        ))
        .unwrap_err();
        assert_eq!(e.field, "cards[0].turns");
        assert!(e.message.contains("it reads no parameters"), "{e}");
        let e = parse(&SMALL.replace("turns = 1", "turns = 12")).unwrap_err();
        assert_eq!(e.field, "cards[1].turns");
        let e = parse(&SMALL.replace("side = \"hero\"", "side = \"both\"")).unwrap_err();
        assert_eq!(e.field, "cards[0].side");
        let e = parse(&SMALL.replace(
            "removed_after_first_pass = [2]",
            "removed_after_first_pass = [9]",
        ))
        .unwrap_err();
        assert_eq!(e.field, "removed_after_first_pass[0]");
        let e = parse(&SMALL.replace("hand_limit = 3", "hand_limit = 0")).unwrap_err();
        assert_eq!(e.field, "hand_limit");
    }

    /// A shuffle that leaves the order as it is (`below` always 0 makes
    /// Fisher-Yates rotate; `i` keeps it).
    fn keep(n: u32) -> u32 {
        n - 1
    }

    #[test]
    fn drawing_runs_through_the_deck_then_rebuilds_without_the_unique_cards() {
        let mut piles = EventPiles::new(5, keep);
        let unique = (1u128 << 2) | 1; // cards 3 and 1
        // Unshuffled, the top is the last card pushed: 5, 4, 3, 2, 1.
        let drawn: Vec<u8> = (0..5).map(|_| piles.draw(unique, keep).unwrap()).collect();
        assert_eq!(drawn, [5, 4, 3, 2, 1]);
        assert!(!piles.first_pass_over);
        // 5 and 3 played, 4 discarded over the limit, 2 and 1 still held.
        piles.played(5);
        piles.played(3);
        piles.discard(4);
        assert_eq!(piles.face_down_top(), Some(4));
        // The deck is rebuilt from both piles: 4 (face down) and 5 (face
        // up); card 3 leaves the game [18.15].
        assert_eq!(piles.draw(unique, keep), Some(5));
        assert!(piles.first_pass_over);
        assert_eq!(piles.rebuilds, 1);
        assert_eq!(piles.removed, 1 << 2);
        assert_eq!(piles.deck_len(), 1);
        assert_eq!(piles.face_down_len() + piles.face_up_len(), 0);
        // The held cards 1 and 2 are in no pile.
        assert_eq!(piles.in_piles() & 0b11, 0);
        // Held through the first pass, card 1 leaves when it is next
        // gathered up: played, then the deck runs out.
        assert_eq!(piles.draw(unique, keep), Some(4));
        piles.played(1);
        piles.played(4);
        assert_eq!(piles.draw(unique, keep), Some(4));
        assert_eq!(piles.removed, unique);
        assert_eq!(
            piles.draw(unique, keep),
            None,
            "cards 2, 4 and 5 are in hands"
        );
    }

    #[test]
    fn the_face_down_pile_is_drawn_from_the_top() {
        let mut piles = EventPiles::new(4, keep);
        piles.discard(7);
        piles.discard(9);
        assert_eq!(piles.draw_face_down(), Some(9));
        assert_eq!(piles.draw_face_down(), Some(7));
        assert_eq!(piles.draw_face_down(), None);
    }

    #[test]
    fn a_hand_keeps_order_and_removes_by_number() {
        let mut h = Hand::default();
        for c in [4, 9, 2, 30] {
            h.add(c);
        }
        assert_eq!(h.cards(), [4, 9, 2, 30]);
        assert!(h.remove(9));
        assert!(!h.remove(9));
        assert_eq!(h.cards(), [4, 2, 30]);
        assert_eq!(h.remove_at(0), 4);
        assert_eq!(h.len(), 2);
    }

    #[test]
    fn shuffles_are_deterministic_in_the_generator() {
        let mut a = barsoom_engine::Dice::for_trial(7, 0);
        let mut b = barsoom_engine::Dice::for_trial(7, 0);
        let pa = EventPiles::new(65, |n| a.below(n));
        let pb = EventPiles::new(65, |n| b.below(n));
        assert_eq!(pa, pb);
        assert_eq!(pa.in_piles().count_ones(), 65);
    }
}
