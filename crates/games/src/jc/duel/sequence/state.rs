//! A compiled duel and the state of play: the fighters, the [`Duel`] with
//! its display and melee numbers, the [`State`] of a turn, the result, and
//! the opening state [`Duel::start`].

use std::sync::Arc;

use crate::jc::duel::escape;
use crate::jc::duel::geometry::{
    Display, FRONT_ARC, HERO_ARC, HERO_BEHIND, OTHER_BEHIND, PositionSet, WARRIOR_ARC,
};
use crate::jc::duel::melee::MeleeRules;
use crate::jc::duel::roster::{Character, Class, MovementKind, Ratings, Special};

/// Most fighters in one duel (a villain's house in the Strategic Game holds
/// the villains, up to nine henchmen and a guard of six [10.5, 16.14]).
pub const MAX_FIGHTERS: usize = 32;

/// One character in a duel.
#[derive(Debug, Clone, PartialEq)]
pub struct Fighter {
    /// Roster id.
    pub id: String,
    /// Name for traces.
    pub name: String,
    /// Class.
    pub class: Class,
    /// Movement kind.
    pub movement: MovementKind,
    /// Ratings by level (`levels[0]` is level 1).
    pub levels: Vec<Ratings>,
    /// Starting level.
    pub top_level: u8,
    /// Falls unconscious at level 1 instead of dying.
    pub unconscious_at_level_1: bool,
    /// 0 or 1.
    pub side: u8,
    /// Starting top-left box.
    pub start: (i16, i16),
    /// Starting facing.
    pub facing: u8,
    /// Unarmed [7.36].
    pub unarmed: bool,
    /// A prisoner of the other side, friendly to his own [7.7]: held until
    /// he escapes [7.7] or a hero frees him from the dungeon [5.55].
    pub prisoner: bool,
    /// Chained in the dungeon [5.55] (only a hero frees him, no escape roll).
    pub in_dungeon: bool,
    /// Starts unconscious (a hero brought in as a prisoner).
    pub starts_unconscious: bool,
    /// Not on the display when the duel starts: Woola [19.11], Kar Komak's
    /// phantoms [19.41].
    pub starts_absent: bool,
    /// Special rule [19].
    pub special: Option<Special>,
    /// Tavia or Llana: the fighter whose fall brings her values into play
    /// [19.23].
    pub loves: Option<usize>,
    /// A woman (for the dungeon rule of [7.25]).
    pub female: bool,
    /// Master swordsman rank [7.8], if any.
    pub swordsman: Option<crate::jc::swordsman::Rank>,
}

impl Fighter {
    /// A fighter from a roster character. A personage without combat
    /// values gets one stand-in level (strength 0, her alertness) so she
    /// can stand on the display, and never melees; Tavia and Llana carry
    /// their parenthesised values as one fighting level over
    /// unconsciousness [19.23].
    pub fn new(c: &Character, side: u8, start: (i16, i16), facing: u8) -> Self {
        let (levels, top_level, unconscious_at_level_1) = match (c.levels.is_empty(), c.reserve) {
            (false, _) => (c.levels.clone(), c.top_level, c.unconscious_at_level_1),
            (true, Some(r)) => (vec![r, r], 2, true),
            (true, None) => (
                vec![Ratings {
                    strength: 0,
                    alertness: c.alertness,
                    agility: 1,
                }],
                0,
                false,
            ),
        };
        Fighter {
            id: c.id.clone(),
            name: c.name.clone(),
            class: c.class,
            movement: c.movement,
            levels,
            top_level,
            unconscious_at_level_1,
            side,
            start,
            facing,
            unarmed: false,
            prisoner: false,
            in_dungeon: false,
            starts_unconscious: false,
            starts_absent: false,
            special: c.special,
            loves: None,
            female: c.female,
            swordsman: c.swordsman,
        }
    }

    /// Ratings at `level`.
    #[inline]
    pub fn at(&self, level: u8) -> Ratings {
        let i = usize::from(level.max(1) - 1).min(self.levels.len() - 1);
        self.levels[i]
    }

    /// The positions this fighter may attack into [7.43].
    #[inline]
    pub fn arc(&self) -> PositionSet {
        match self.class {
            Class::Hero => HERO_ARC,
            Class::Warrior => WARRIOR_ARC,
            _ => FRONT_ARC,
        }
    }

    /// The positions from which this fighter is attacked from behind
    /// [7.44].
    #[inline]
    pub fn behind(&self) -> PositionSet {
        if self.class == Class::Hero {
            HERO_BEHIND
        } else {
            OTHER_BEHIND
        }
    }
}

/// A duel compiled for fast resolution.
#[derive(Debug, Clone)]
pub struct Duel {
    /// The display (shared by every duel compiled on it).
    pub display: Arc<Display>,
    /// The fighters, side 0 first in scenario order.
    pub fighters: Vec<Fighter>,
    /// Melee numbers.
    pub rules: MeleeRules,
    /// Turn limit; a duel still going is undecided.
    pub max_turns: u32,
    /// Whether the first side (the attacker) must be discovered before the
    /// defender acts [6.0, 7.24, 7.25].
    pub surprise: bool,
    /// Per fighter of the second side when `surprise`: the top-left boxes
    /// he has a line of discovery to from where he set up [6.22] (he cannot
    /// move before discovery); empty otherwise.
    pub lines: Vec<std::sync::Arc<[bool]>>,
    /// Whether anything beyond the open-display rules is in play: exits a
    /// side means to use, prisoners, special characters, cards, an
    /// acquisition (the turn-end and after-action steps run only then).
    pub extras: bool,
    /// The rules of [5.4, 5.5, 7.7, 19] and what each side brings.
    pub special: escape::Extras,
    /// Fliers on the ground: no one falls crossing between them [14.25].
    pub grounded: bool,
}

/// A fighter's condition. The first three stand on the display as
/// obstacles; the rest do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// On his feet.
    Fighting,
    /// Unconscious: stays on the display, cannot be meleed [7.15].
    Unconscious,
    /// A prisoner still held [7.7, 5.55]: takes no action and is not
    /// meleed.
    Captive,
    /// A personage held prisoner: as `Captive`, but passed through by
    /// others [5.73].
    CaptivePersonage,
    /// Dead: removed [3.25].
    Dead,
    /// A personage without combat values in play: moved by her side, never
    /// meleed, and passed through by others [5.71, 5.73, 7.16].
    Bystander,
    /// Unconscious and carried under another counter [5.41].
    Carried,
    /// Not on the display yet (Woola [19.11], phantoms [19.41]).
    Absent,
    /// Gone off the display by an exit [5.18].
    Escaped,
}

/// The state of a duel in progress (fixed arrays, no allocation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// Number of fighters.
    pub n: usize,
    /// Top-left boxes.
    pub pos: [(i16, i16); MAX_FIGHTERS],
    /// Facings.
    pub facing: [u8; MAX_FIGHTERS],
    /// Current levels.
    pub level: [u8; MAX_FIGHTERS],
    /// Conditions.
    pub status: [Status; MAX_FIGHTERS],
    /// Has meleed or been meleed this duel [5.32].
    pub engaged: [bool; MAX_FIGHTERS],
    /// Has used his once-per-duel extra movement [5.31, 5.32].
    pub used_extra: [bool; MAX_FIGHTERS],
    /// Kills (and knock-outs) scored.
    pub kills: [u8; MAX_FIGHTERS],
    /// Whether any melee has happened yet [7.21].
    pub melee_joined: bool,
    /// The tactical turn being played (1 first).
    pub turn: u32,
    /// Who may enter the restricted boxes [5.57]: 0 no one yet, 1 the first
    /// side, 2 the second.
    pub restricted: u8,
    /// Whether the attackers have been discovered [6.0].
    pub discovered: bool,
    /// Defenders who have discovered the attackers and not yet passed the
    /// word (bit per fighter) [6.3].
    pub discoverers: u32,
    /// Whom each fighter carries (index + 1; 0 no one) [5.4].
    pub carrying: [u8; MAX_FIGHTERS],
    /// Unarmed fighters (bit per fighter) [7.36, 5.55, 7.76].
    pub unarmed: u32,
    /// Fighters whose strength is one up (Woola's ferocity [19.16]).
    pub fury: u32,
    /// Fighters immobilised by Ghek until struck [19.42].
    pub held: u32,
    /// Fighters who initiated a melee this turn [5.41, 5.55].
    pub meleed: u32,
    /// The state of exits, prisoners and special characters.
    pub x: escape::Progress,
    /// The fighters of each side (bit per fighter; fixed for the duel).
    pub sides: [u32; 2],
    /// The personages (bit per fighter; fixed for the duel) [7.16].
    pub personages: u32,
}

impl State {
    /// Whether fighter `i` is on his feet.
    #[inline]
    pub fn fighting(&self, i: usize) -> bool {
        self.status[i] == Status::Fighting
    }

    /// The fighters on their feet, bit per fighter.
    #[inline(always)]
    pub(crate) fn fighting_mask(&self) -> u32 {
        let mut bits = 0;
        for i in 0..self.n {
            bits |= u32::from(self.fighting(i)) << i;
        }
        bits
    }

    /// Whether fighter `i` is a prisoner still held [7.7, 5.55].
    #[inline]
    pub fn captive(&self, i: usize) -> bool {
        matches!(self.status[i], Status::Captive | Status::CaptivePersonage)
    }

    /// Whether fighter `i`'s counter stands in the way of others [5.15]:
    /// on his feet, unconscious or held prisoner (personages never [5.73]).
    #[inline]
    pub fn blocks(&self, i: usize) -> bool {
        matches!(
            self.status[i],
            Status::Fighting | Status::Unconscious | Status::Captive
        )
    }
}

/// How a duel ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DuelResult {
    /// The winning side, or `None` at the turn limit.
    pub winner: Option<u8>,
    /// Tactical turns played.
    pub turns: u32,
    /// Fighters of each side still on their feet.
    pub survivors: [u8; 2],
    /// Levels each side lost.
    pub levels_lost: [u8; 2],
    /// Heroes of each side unconscious at the end.
    pub heroes_unconscious: [u8; 2],
    /// Kills and knock-outs per fighter.
    pub kills: [u8; MAX_FIGHTERS],
    /// The fighter whose blow ended the duel.
    pub deciding_blow: Option<u8>,
    /// The turn in which the attackers were discovered for good; 0 if the
    /// duel started discovered or they never were.
    pub discovered_in: u32,
    /// Fighters of each side who left the display [5.18].
    pub escaped: [u8; 2],
    /// The side whose last fighters on their feet left the display, ending
    /// the duel (the other side then holds the field).
    pub left: Option<u8>,
    /// Prisoners freed, by escape [7.7] or from the dungeon [5.55].
    pub prisoners_freed: u8,
    /// Prisoners rescued: free at the end and off the display, or on it
    /// with their side holding the field [15.26].
    pub rescued: u8,
    /// Each fighter's level at the end (0 dead).
    pub level: [u8; MAX_FIGHTERS],
    /// Each fighter's condition at the end.
    pub status: [Status; MAX_FIGHTERS],
    /// The hero watched by the deadline of [13.43] did not reach the
    /// villain in time (see [`crate::jc::duel::cards`]).
    pub late: bool,
}

/// A melee option: a target, where to stand and face, and what it is worth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Attack {
    /// Target fighter.
    pub target: usize,
    /// Where the attacker stands (top-left box).
    pub at: (i16, i16),
    /// Attacker's facing.
    pub facing: u8,
    /// Whether the attacker moved to get there [7.33].
    pub moved: bool,
    /// Whether it is an attack from behind [7.32].
    pub behind: bool,
    /// The natural roll needed.
    pub needed: i32,
    /// Expected levels taken.
    pub value: f64,
}

impl Duel {
    /// The state a duel starts in.
    pub fn start(&self) -> State {
        let mut s = State {
            n: self.fighters.len(),
            pos: [(0, 0); MAX_FIGHTERS],
            facing: [0; MAX_FIGHTERS],
            level: [0; MAX_FIGHTERS],
            status: [Status::Dead; MAX_FIGHTERS],
            engaged: [false; MAX_FIGHTERS],
            used_extra: [false; MAX_FIGHTERS],
            kills: [0; MAX_FIGHTERS],
            melee_joined: false,
            turn: 0,
            restricted: 0,
            discovered: !self.surprise,
            discoverers: 0,
            carrying: [0; MAX_FIGHTERS],
            unarmed: 0,
            fury: 0,
            held: 0,
            meleed: 0,
            x: escape::Progress {
                disguised: self.special.disguise,
                powers: self.special.powers,
                unseen: self.special.cards.invisible,
                ..Default::default()
            },
            sides: [0; 2],
            personages: 0,
        };
        for (i, f) in self.fighters.iter().enumerate() {
            s.sides[usize::from(f.side)] |= 1 << i;
            if f.class == Class::Personage {
                s.personages |= 1 << i;
            }
            s.pos[i] = f.start;
            s.facing[i] = f.facing;
            s.level[i] = f.top_level;
            s.status[i] = if f.starts_absent {
                Status::Absent
            } else if f.prisoner && f.class == Class::Personage {
                Status::CaptivePersonage
            } else if f.prisoner {
                Status::Captive
            } else if f.class == Class::Personage {
                Status::Bystander
            } else {
                Status::Fighting
            };
            if f.starts_unconscious {
                s.level[i] = 1;
            }
            if f.unarmed {
                s.unarmed |= 1 << i;
            }
        }
        s
    }
}
