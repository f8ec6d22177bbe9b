//! What random events [18], befriendment, treachery and remorse [12], love
//! and unspeakable acts [13] and the special characters [19] add to a game:
//! their data ([`StoryData`], read from `random-events.toml`,
//! `friend-tables.toml`, `romance.toml` and `special-characters.toml`) and
//! the `Copy` state they keep ([`Story`], one field of the game): each
//! Player's hand of Random Event cards and the piles, and per hero his
//! loves and friendships, the traitors and the marks cards leave.
//!
//! The mechanics are in [`super::events`], [`super::friends`],
//! [`super::romance`] and [`super::specials`]; [`super::hooks`] is where
//! the spine of the game calls them.

use std::path::Path;

use super::consts::{MAX_PLAYERS, NO_PLACE, NONE};
use super::dice::Roller;
use super::friends::FriendTables;
use super::loading::Look;
use super::romance::RomanceRules;
use super::specials::SpecialRules;
use super::tables::Entries;
use crate::jc::duel::roster::Roster;
use crate::jc::event_deck::{EventDeck, EventPiles, Hand, Names};
use crate::jc::map::BarsoomMap;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// Most female personages whose friendship a hero keeps track of.
pub(crate) const MAX_BONDS: usize = 8;

/// The data of rules [12, 13, 18, 19].
#[derive(Debug, Clone)]
pub struct StoryData {
    /// The Random Event deck [18].
    pub events: EventDeck,
    /// Each card's entry number (firing counts), by card number - 1.
    pub card_entries: Vec<u16>,
    /// The friend tables [12.16, 16.38].
    pub friends: FriendTables,
    /// Love, treachery and the Unspeakable Act Table [12.2, 13].
    pub romance: RomanceRules,
    /// The special characters and the Mind Control Table [19].
    pub specials: SpecialRules,
}

impl StoryData {
    /// Loads the four files from `dir`, naming their entries in `entries`.
    pub fn load_with(
        dir: &Path,
        map: &BarsoomMap,
        roster: &Roster,
        city_areas: &[String],
        entries: &mut Entries,
        loader: &mut Loader,
    ) -> Result<Self, ScenarioError> {
        let place = |id: &str| {
            map.city(id)
                .filter(|&c| !map.cities[c].waypoint)
                .map(|c| c as u8)
        };
        let character = |id: &str| roster.find(id).map(|k| k as u8);
        let area = |id: &str| city_areas.iter().position(|a| a == id).map(|a| a as u8);
        let events = EventDeck::load_with(
            &dir.join("random-events.toml"),
            &Names {
                place: &place,
                character: &character,
                area: &area,
            },
            loader,
        )?;
        let card_entries = events
            .cards
            .iter()
            .map(|c| entries.add(format!("random event {:02}", c.number)))
            .collect();
        let look = Look {
            map,
            roster,
            city_areas,
        };
        let friends =
            FriendTables::load_with(&dir.join("friend-tables.toml"), &look, entries, loader)?;
        let romance = RomanceRules::load_with(&dir.join("romance.toml"), &look, entries, loader)?;
        let specials =
            SpecialRules::load_with(&dir.join("special-characters.toml"), &look, entries, loader)?;
        Ok(StoryData {
            events,
            card_entries,
            friends,
            romance,
            specials,
        })
    }
}

/// A female personage who befriended a hero, and when [13.11, 13.22].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bond {
    /// Roster index.
    pub character: u8,
    /// The Strategic Turn she befriended him.
    pub since: u16,
    /// The city she befriended him in, or [`NO_PLACE`] outside one: she
    /// counts as a resident there when he tries to escape its prison
    /// [17.27].
    pub city: u8,
}

/// One hero's loves, friends, traitors and card marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeroStory {
    /// The female personage he loves (and who loves him) [13.11, 13.15],
    /// or [`NONE`].
    pub love: u8,
    /// His destined princess [13.14] or mate [20.31], or [`NONE`].
    pub princess: u8,
    /// Mated from the start [20.31].
    pub mated: bool,
    /// The female personages who befriended him.
    pub bonds: [Bond; MAX_BONDS],
    /// How many.
    pub bonds_len: u8,
    /// Characters who betrayed him [12.2, 13.13].
    pub betrayed_by: u128,
    /// Traitors who repented [12.3].
    pub repented: u128,
    /// Staunch friends: never to betray him [13.23, 13.31].
    pub staunch: u128,
    /// The companion named safe by cards 64-65, or [`NONE`].
    pub safe: u8,
    /// Personages his villain holds besides the captive (abducted,
    /// betrayers) [10.21, 12.22].
    pub held: u128,
    /// An active slave beyond treachery until she leaves this city
    /// [16.35]: `(character, city)`.
    pub slave: (u8, u8),
    /// One easier discovery until he is next discovered [12.22].
    pub betrayed_discovery: bool,
    /// Off every discovery chance in this city game (card 21).
    pub stealth: u8,
    /// Joined the city's army [16.33] for this city game.
    pub army: bool,
    /// Disguised for this city game [6.25, 15.31].
    pub disguised: bool,
    /// His own body while his brain is in another [19.31], or [`NONE`].
    pub body: u8,
    /// Companions given a warrior of Mars's values [19.31].
    pub changed: u128,
    /// Cities whose secret entrance he knows (bit per city): shown by a
    /// resident cellmate [17.17] or used with cards 40-42.
    pub secret_ways: u64,
    /// Transferred and no hostile act yet in this city game: no discovery
    /// checks [19.31].
    pub unseen: bool,
    /// The Strategic Turn Tars Tarkas leaves him, or 0 [19.51].
    pub tars_leaves: u16,
    /// The Strategic Turn in which his villain may not flee (cards 57-58),
    /// or 0.
    pub villain_stays: u16,
    /// The last Strategic Turn he must stay where a card set him down
    /// (cards 23, 37), or 0.
    pub stay_until: u16,
    /// City Sub-sequences left to reach a threatened captive [13.42], or
    /// 0.
    pub act: u8,
    /// His captive dies if he loses an arena duel here [19.32].
    pub doomed: bool,
    /// The villain's one attempt of [13.23] has been made.
    pub villain_city_try: bool,
    /// He may fly to and from the North Pole (cards 59-61).
    pub north_pass: bool,
    /// A free blow pending for the next fight with the villain's group:
    /// +1 his, -1 the villain's (card 27).
    pub invisible: i8,
    /// The next fight is with the villain's group.
    pub villain_duel: bool,
    /// His side left the last duel by card 24: the defeat that follows is
    /// escaped [18.2 card 24].
    pub broke_off: bool,
    /// The next fight is a hostile encounter, in which a fellow hero may
    /// aid him [9.27].
    pub hostile: bool,
}

impl HeroStory {
    /// A hero with no story yet.
    pub(crate) const EMPTY: HeroStory = HeroStory {
        love: NONE,
        princess: NONE,
        mated: false,
        bonds: [Bond {
            character: NONE,
            since: 0,
            city: NO_PLACE,
        }; MAX_BONDS],
        bonds_len: 0,
        betrayed_by: 0,
        repented: 0,
        staunch: 0,
        safe: NONE,
        held: 0,
        slave: (NONE, NO_PLACE),
        betrayed_discovery: false,
        stealth: 0,
        army: false,
        disguised: false,
        body: NONE,
        changed: 0,
        secret_ways: 0,
        unseen: false,
        tars_leaves: 0,
        villain_stays: 0,
        stay_until: 0,
        act: 0,
        doomed: false,
        villain_city_try: false,
        north_pass: false,
        invisible: 0,
        broke_off: false,
        villain_duel: false,
        hostile: false,
    };

    /// The female personages who befriended him.
    pub(crate) fn bonds(&self) -> &[Bond] {
        &self.bonds[..usize::from(self.bonds_len)]
    }

    /// When `k` befriended him, if she did.
    pub(crate) fn bond(&self, k: u8) -> Option<u16> {
        self.bonds()
            .iter()
            .find(|b| b.character == k)
            .map(|b| b.since)
    }

    /// Whether `k` befriended him in `city` [17.27].
    pub(crate) fn befriended_in(&self, k: u8, city: u8) -> bool {
        self.bonds()
            .iter()
            .any(|b| b.character == k && b.city == city)
    }

    /// Notes that `k` befriended him in Strategic Turn `turn`, in `city`
    /// ([`NO_PLACE`] outside one).
    pub(crate) fn add_bond(&mut self, k: u8, turn: u16, city: u8) {
        if self.bond(k).is_none() && usize::from(self.bonds_len) < MAX_BONDS {
            self.bonds[usize::from(self.bonds_len)] = Bond {
                character: k,
                since: turn,
                city,
            };
            self.bonds_len += 1;
        }
    }

    /// Engaged (a destined princess) or mated [13.21].
    pub fn engaged(&self) -> bool {
        self.princess != NONE
    }
}

/// The state of rules [12, 13, 18, 19] in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Story {
    /// Per hero (same index as the game's heroes).
    pub heroes: [HeroStory; MAX_PLAYERS],
    /// Each Player's Random Event cards [18.11].
    pub hands: [Hand; MAX_PLAYERS],
    /// The deck and its piles.
    pub piles: EventPiles,
    /// The Player whose next Random Events Phase ends a halt to overland
    /// movement (cards 09-10), or [`NONE`].
    pub halt_by: u8,
    /// Phantom warrior summonings used [19.41].
    pub kar_komak_used: u8,
    /// Villain Players (bit per player) who made their roll of [13.31].
    pub minor_roll_used: u8,
}

impl Story {
    /// A fresh story: the deck in card order, empty hands.
    pub(crate) fn unshuffled(data: &StoryData) -> Story {
        Story {
            heroes: [HeroStory::EMPTY; MAX_PLAYERS],
            hands: [Hand::default(); MAX_PLAYERS],
            piles: EventPiles::new(data.events.cards.len(), |n| n - 1),
            halt_by: NONE,
            kar_komak_used: 0,
            minor_roll_used: 0,
        }
    }

    /// Shuffles a fresh deck [18.0].
    pub(crate) fn shuffle<R: Roller>(&mut self, data: &StoryData, r: &mut R) {
        self.piles = EventPiles::new(data.events.cards.len(), |n| r.pick(n as usize) as u32);
    }
}
