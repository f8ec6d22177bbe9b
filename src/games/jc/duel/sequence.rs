//! One duel on the open display, played to the end [4.0 F-H, 5.0, 7.0]: a
//! compiled [`Duel`] (fighters, display, melee numbers) and its
//! [`Duel::resolve`], the reusable entry point that the Strategic Game can
//! call with any set-up, pair of policies and dice.
//!
//! Each tactical turn: initiative by alertness A, B, C, ties between the
//! sides broken by a die roll per alertness [5.0 PROCEDURE]; then every
//! fighter acts once in that order (the joint action phase: move, then
//! perhaps melee [4.0 G, 5.17]); then the turn ends and the duel is over
//! when one side has no conscious fighter left [4.0 H, 7.21].

use std::sync::Arc;

use super::geometry::{
    Boxes, COUNTER, Display, DisplayKind, FRONT_ARC, HERO_ARC, HERO_BEHIND, OTHER_BEHIND, Picked,
    PositionSet, Reach, STEPS_PER_MOVEMENT, WARRIOR_ARC, adjacent, facing_letter, in_arc,
    is_behind,
};
use super::melee::{Blow, Conditions, Fate, MeleeRules, apply_blow};
use super::policy::{Action, Policy, Task};
use super::roster::{Character, Class, MovementKind, Ratings, Special, alertness_letter};
use crate::engine::{Dice, Trace};

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
    pub swordsman: Option<crate::games::jc::swordsman::Rank>,
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
    pub lines: Vec<Vec<bool>>,
    /// Whether anything beyond the open-display rules is in play: exits a
    /// side means to use, prisoners, special characters, cards, an
    /// acquisition (the turn-end and after-action steps run only then).
    pub extras: bool,
    /// The rules of [5.4, 5.5, 7.7, 19] and what each side brings.
    pub special: super::escape::Extras,
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
    pub x: super::escape::Progress,
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
    pub fn fighting_mask(&self) -> u32 {
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
    /// villain in time (see [`super::cards`]).
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
            x: super::escape::Progress {
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

    /// Whether fighter `a` may melee `t` at all: enemies, `t` on his feet
    /// and not a personage unless she has struck first [7.13-7.16]; Woola
    /// never across fliers [19.13].
    #[inline(always)]
    pub fn may_target(&self, s: &State, a: usize, t: usize) -> bool {
        s.fighting(t) && self.may_target_among(s, a, 1 << t) != 0
    }

    /// Those of the fighters `among` (bit per fighter, all on their feet)
    /// whom `a` may melee: [`Duel::may_target`] for each at once.
    #[inline(always)]
    fn may_target_among(&self, s: &State, a: usize, among: u32) -> u32 {
        let enemies = s.sides[usize::from(1 - self.fighters[a].side)];
        let bits = among & enemies & (!s.personages | s.x.struck);
        if !self.extras {
            return bits;
        }
        let mut kept = bits;
        let mut rest = bits;
        while rest != 0 {
            let t = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if !self.may_duel_across(s, a, t) {
                kept &= !(1 << t);
            }
        }
        kept
    }

    /// Woola may not duel from one flier to the other [19.13].
    fn may_duel_across(&self, s: &State, a: usize, t: usize) -> bool {
        let Some((w, _)) = self.special.woola else {
            return true;
        };
        if self.display.kind != DisplayKind::Flier || (a != w && t != w) {
            return true;
        }
        let (da, dt) = (
            self.display.decks(s.pos[a].0, s.pos[a].1),
            self.display.decks(s.pos[t].0, s.pos[t].1),
        );
        da == 0 || dt == 0 || da & dt != 0
    }

    /// The melee modifier and the natural roll needed for `a` at `at`
    /// facing anything, against `t` where it stands [7.3, 7.61].
    #[inline(always)]
    pub fn needed(
        &self,
        s: &State,
        a: usize,
        t: usize,
        at: (i16, i16),
        moved: bool,
    ) -> (bool, i32) {
        let (fa, ft) = (&self.fighters[a], &self.fighters[t]);
        let (dx, dy) = (at.0 - s.pos[t].0, at.1 - s.pos[t].1);
        let behind = is_behind(ft.behind(), dx, dy, s.facing[t]);
        let c = Conditions {
            behind,
            moved,
            obstructed: self.display.obstructed(at, s.pos[t]),
            carrying: s.carrying[a] != 0,
            unarmed: s.unarmed & (1 << a) != 0,
        };
        let ra = fa.at(s.level[a]);
        let rt = ft.at(s.level[t]);
        let strength = if s.fury & (1 << a) != 0 {
            ra.strength + self.special.rules.woola_fury_strength
        } else {
            ra.strength
        };
        (
            behind,
            MeleeRules::needed(strength, self.rules.modifier(c), rt.agility),
        )
    }

    /// Expected levels an attack with need `needed` takes off `t`.
    #[inline(always)]
    pub fn value(&self, s: &State, a: usize, t: usize, needed: i32) -> f64 {
        let [_, level, kill] = self.rules.odds(self.fighters[a].class, needed);
        let left = f64::from(s.level[t]);
        level + kill * left
    }

    /// The best facing (if any) from which `a` at `at` may attack `t` [7.43].
    #[inline(always)]
    pub fn facing_to_attack(&self, s: &State, a: usize, t: usize, at: (i16, i16)) -> Option<u8> {
        let arc = self.fighters[a].arc();
        let (dx, dy) = (at.0 - s.pos[t].0, at.1 - s.pos[t].1);
        if !adjacent(dx, dy) {
            return None;
        }
        // Prefer keeping the present facing, then the others in order.
        let current = s.facing[a];
        (0..4)
            .map(|k| (current + k) & 3)
            .find(|&f| in_arc(arc, dx, dy, f))
    }

    /// Calls `f` for every melee `a` could make: from where he stands
    /// (facing changed in lieu of movement) and, if `reach` is given, from
    /// each exact position [7.41] around each target that he can walk to.
    #[inline]
    pub fn for_each_attack(
        &self,
        s: &State,
        a: usize,
        reach: Option<(&Reach, u8)>,
        mut f: impl FnMut(Attack),
    ) {
        if !MeleeRules::may_melee(
            self.fighters[a].at(s.level[a]).strength,
            s.unarmed & (1 << a) != 0,
        ) {
            return;
        }
        let mut targets = self.targets(s, a);
        while targets != 0 {
            let t = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            if let Some(facing) = self.facing_to_attack(s, a, t, s.pos[a]) {
                let (behind, needed) = self.needed(s, a, t, s.pos[a], false);
                f(Attack {
                    target: t,
                    at: s.pos[a],
                    facing,
                    moved: false,
                    behind,
                    needed,
                    value: self.value(s, a, t, needed),
                });
            }
            let Some((reach, steps)) = reach else {
                continue;
            };
            // The positions around `t` lie a counter from him: none within
            // `steps` of `a` if he is further.
            let (dx, dy) = (s.pos[t].0 - s.pos[a].0, s.pos[t].1 - s.pos[a].1);
            if dx.abs().max(dy.abs()) > i16::from(steps) + COUNTER {
                continue;
            }
            let mut around = [(0i16, 0i16); 8];
            for (n, at) in (1..=8u8).zip(&mut around) {
                let (ox, oy) = super::geometry::offset_of_position(n, s.facing[t]);
                *at = (s.pos[t].0 + ox, s.pos[t].1 + oy);
            }
            // Positions 1-8 in order, those he can walk to. A moving
            // attack's need and value depend on where he stands only
            // through behind [7.32] and obstructed [7.34]: each of the four
            // cases is worked out once per target.
            let mut cases = [None::<(i32, f64)>; 4];
            let mut open = reach.walkable(&around, steps);
            while open != 0 {
                let at = around[open.trailing_zeros() as usize];
                open &= open - 1;
                if at == s.pos[a] {
                    continue;
                }
                if let Some(facing) = self.facing_to_attack(s, a, t, at) {
                    let (dx, dy) = (at.0 - s.pos[t].0, at.1 - s.pos[t].1);
                    let behind = is_behind(self.fighters[t].behind(), dx, dy, s.facing[t]);
                    let obstructed = self.display.obstructed(at, s.pos[t]);
                    let case = usize::from(behind) | usize::from(obstructed) << 1;
                    let (needed, value) = *cases[case].get_or_insert_with(|| {
                        let (_, needed) = self.needed(s, a, t, at, true);
                        (needed, self.value(s, a, t, needed))
                    });
                    f(Attack {
                        target: t,
                        at,
                        facing,
                        moved: true,
                        behind,
                        needed,
                        value,
                    });
                }
            }
        }
    }

    /// Whether `a` stands next to a conscious enemy (engaged for hero
    /// movement [5.21, 5.31]).
    #[inline]
    pub fn next_to_enemy(&self, s: &State, a: usize) -> bool {
        (0..s.n).any(|t| {
            self.fighters[t].side != self.fighters[a].side
                && s.fighting(t)
                && adjacent(s.pos[t].0 - s.pos[a].0, s.pos[t].1 - s.pos[a].1)
        })
    }

    /// Movements of a carrier [5.42]: heroes lose one extra movement,
    /// Carthoris and Vad Varo all of theirs, and no one has the
    /// once-per-duel extra.
    fn carrier_movements(&self, a: usize) -> u8 {
        let lost = self.special.rules.carrier_movements_lost;
        match self.fighters[a].movement {
            MovementKind::Normal | MovementKind::Leaper => 1,
            MovementKind::Hero => 2u8.saturating_sub(lost).max(1),
            MovementKind::JohnCarter => 3u8.saturating_sub(lost).max(1),
        }
    }

    /// Movements `a` may make this phase, and how many with his
    /// once-per-duel extra [5.2, 5.3].
    #[inline(always)]
    pub fn movements(&self, s: &State, a: usize) -> (u8, Option<u8>) {
        // One movement, engaged or not: no need to look round.
        if self.fighters[a].movement == MovementKind::Normal {
            return (1, None);
        }
        self.movements_of_movers(s, a)
    }

    /// [`Duel::movements`] of a fighter with more than one movement.
    fn movements_of_movers(&self, s: &State, a: usize) -> (u8, Option<u8>) {
        if self.next_to_enemy(s, a) {
            return (1, None);
        }
        if s.carrying[a] != 0 {
            return (self.carrier_movements(a), None);
        }
        let extra = !s.used_extra[a];
        match self.fighters[a].movement {
            MovementKind::Normal => (1, None),
            MovementKind::Hero => (2, None),
            MovementKind::JohnCarter => (3, extra.then_some(4)),
            MovementKind::Leaper => {
                if s.engaged[a] {
                    (2, extra.then_some(3))
                } else {
                    (3, None)
                }
            }
        }
    }

    /// The fighters `a` may melee, bit per fighter [7.13-7.16].
    #[inline(always)]
    pub fn targets(&self, s: &State, a: usize) -> u32 {
        self.may_target_among(s, a, s.fighting_mask())
    }

    /// The nearest of the fighters `among` (bit per fighter) from `at`, the
    /// first in scenario order on a tie, and the distance in boxes to him
    /// (the larger of the row and column gaps of the top-left boxes).
    #[inline(always)]
    pub fn nearest_of(&self, s: &State, among: u32, at: (i16, i16)) -> Option<(usize, i16)> {
        let mut best: Option<(usize, i16)> = None;
        let mut bits = among;
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let d = (s.pos[t].0 - at.0).abs().max((s.pos[t].1 - at.1).abs());
            if best.is_none_or(|(_, gap)| d < gap) {
                best = Some((t, d));
            }
        }
        best
    }

    /// The distance in boxes from `at` to the nearest conscious enemy of
    /// `a` (the larger of the row and column gaps of the top-left boxes).
    #[inline(always)]
    pub fn gap_to_enemy(&self, s: &State, a: usize, at: (i16, i16)) -> i16 {
        self.gap_among(s, self.targets(s, a), at)
    }

    /// The distance in boxes from `at` to the nearest of the fighters
    /// `among` (bit per fighter; `i16::MAX` if none).
    #[inline(always)]
    pub fn gap_among(&self, s: &State, among: u32, at: (i16, i16)) -> i16 {
        self.nearest_of(s, among, at)
            .map_or(i16::MAX, |(_, gap)| gap)
    }

    /// The nearest conscious enemy of `a` from `at`.
    #[inline]
    pub fn nearest_enemy(&self, s: &State, a: usize, at: (i16, i16)) -> Option<usize> {
        self.nearest_of(s, self.targets(s, a), at).map(|(t, _)| t)
    }

    /// The top-left boxes of the counters in `a`'s way [5.15], but those
    /// of `ignored` (bit per fighter), and how many there are.
    #[inline(always)]
    pub fn obstacles(
        &self,
        s: &State,
        a: usize,
        ignored: u32,
    ) -> ([(i16, i16); MAX_FIGHTERS], usize) {
        let mut others = [(0i16, 0i16); MAX_FIGHTERS];
        let mut k = 0;
        Picked {
            boxes: &s.pos,
            among: self.obstacle_mask(s, a) & !ignored,
        }
        .each(|x, y| {
            others[k] = (x, y);
            k += 1;
        });
        (others, k)
    }

    /// The counters in `a`'s way [5.15], bit per fighter.
    #[inline(always)]
    pub fn obstacle_mask(&self, s: &State, a: usize) -> u32 {
        let mut bits = 0;
        for i in 0..s.n {
            if i != a && s.blocks(i) {
                bits |= 1 << i;
            }
        }
        bits
    }

    /// The reach of `a` with `movements` movements.
    #[inline(always)]
    pub fn reach(&self, s: &State, a: usize, movements: u8) -> Reach {
        // A carrier does not jump [5.42].
        let jumps = self.fighters[a].movement.jumps() && movements >= 2 && s.carrying[a] == 0;
        Reach::compute_for(
            self.movement_display(s, a),
            s.pos[a],
            i16::from(movements) * STEPS_PER_MOVEMENT,
            Picked {
                boxes: &s.pos,
                among: self.obstacle_mask(s, a),
            },
            jumps,
            s.restricted == self.fighters[a].side + 1,
        )
    }

    /// Whether a move of `a` to `to` keeps to [7.21, 7.22]: on the open
    /// and street displays no one moves away from the enemy until melee is
    /// first joined.
    #[inline]
    pub fn keeps_closing(&self, s: &State, a: usize, to: (i16, i16)) -> bool {
        if !self.closing_rule_holds(s) {
            return true;
        }
        let targets = self.targets(s, a);
        self.keeps_closing_from(s, (targets, self.gap_among(s, targets, s.pos[a])), to)
    }

    /// [`Duel::keeps_closing`] for a fighter whose targets are `targets`
    /// (bit per fighter), the nearest `here` boxes from where he stands.
    #[inline(always)]
    pub fn keeps_closing_from(
        &self,
        s: &State,
        (targets, here): (u32, i16),
        to: (i16, i16),
    ) -> bool {
        !self.closing_rule_holds(s) || self.gap_among(s, targets, to) <= here
    }

    /// Whether no one may yet move away from the enemy [7.21, 7.22].
    #[inline(always)]
    fn closing_rule_holds(&self, s: &State) -> bool {
        !s.melee_joined && self.display.kind.no_retreat_before_melee()
    }

    /// The special display rules after `a` moved from `from` to where he
    /// now stands [5.5]: the first move next to a restricted box after the
    /// first turn opens those boxes to the other side for good [5.57]; a
    /// character other than a hero who steps from one flier onto the other
    /// falls to his death on 1-3 [5.52] (a jump is a hero's, [5.53]), unless
    /// the fliers are grounded [14.25].
    /// Returns whether he fell.
    pub fn after_move<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        from: (i16, i16),
        jumped: bool,
        dice: &mut Dice,
        trace: &mut T,
    ) -> bool {
        let to = s.pos[a];
        let side = self.fighters[a].side;
        if self.display.has_restricted
            && s.restricted == 0
            && s.turn > 1
            && self.display.near_restricted(to.0, to.1)
        {
            s.restricted = (1 - side) + 1;
            trace.event("JC 5.57 restricted boxes", || {
                format!(
                    "{} moves next to a restricted box: only side {} may enter them from now on",
                    self.fighters[a].name,
                    2 - side
                )
            });
        }
        if self.display.kind != DisplayKind::Flier
            || self.grounded
            || jumped
            || self.fighters[a].class == Class::Hero
            || self.special.acquisition
        {
            return false;
        }
        let (before, after) = (
            self.display.decks(from.0, from.1),
            self.display.decks(to.0, to.1),
        );
        if before == 0 || after & !before == 0 {
            return false;
        }
        let roll = dice.d10();
        let fell = roll <= 3;
        trace.event("JC 5.52 crossing between fliers", || {
            format!(
                "{} crosses to the other flier: rolls {roll}{}",
                self.fighters[a].name,
                if fell {
                    ", falls to his death"
                } else {
                    ", safe"
                }
            )
        });
        if fell {
            s.level[a] = 0;
            s.status[a] = Status::Dead;
        }
        fell
    }

    /// The order fighters act in this turn [5.0 PROCEDURE]: alertness A
    /// first; within an alertness the side that wins a die roll (rerolled
    /// on ties) moves all of its fighters first, in scenario order.
    pub fn initiative<T: Trace>(
        &self,
        s: &State,
        dice: &mut Dice,
        trace: &mut T,
        order: &mut [u8; MAX_FIGHTERS],
    ) -> usize {
        // Who is on his feet, by alertness and side (bit per fighter).
        let mut ready = [[0u32; 2]; 3];
        for i in 0..s.n {
            let alertness = usize::from(self.fighters[i].at(s.level[i]).alertness);
            if s.fighting(i) && alertness < 3 {
                ready[alertness][usize::from(self.fighters[i].side)] |= 1 << i;
            }
        }
        let mut k = 0;
        for (alertness, sides) in ready.iter().enumerate() {
            let first = if sides[0] != 0 && sides[1] != 0 {
                loop {
                    let (r0, r1) = (dice.d10(), dice.d10());
                    if r0 != r1 {
                        trace.event("JC 5.0 initiative", || {
                            format!(
                                "alertness {}: the sides roll {r0} and {r1}",
                                alertness_letter(alertness as u8)
                            )
                        });
                        break usize::from(r1 > r0);
                    }
                }
            } else {
                0
            };
            for mut bits in [sides[first], sides[1 - first]] {
                while bits != 0 {
                    order[k] = bits.trailing_zeros() as u8;
                    k += 1;
                    bits &= bits - 1;
                }
            }
        }
        k
    }

    /// Whether side `side` has a fighter on his feet on the display
    /// (personages count only once their values are in play [19.23]).
    #[inline]
    pub fn side_standing(&self, s: &State, side: u8) -> bool {
        (0..s.n).any(|i| self.fighters[i].side == side && s.fighting(i))
    }

    /// Carries out `action` of fighter `a`: move and face, then melee.
    /// Returns whether it ended the duel (a melee, or a fall [5.52]).
    pub fn perform<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        action: Action,
        dice: &mut Dice,
        trace: &mut T,
    ) -> bool {
        // Card 24: the holder may leave the melee instead of acting.
        if self.extras
            && let Some(over) = self.break_off(s, a, dice, trace)
        {
            return over;
        }
        let from = s.pos[a];
        if action.task == Task::PutDown {
            self.put_down(s, a, trace);
        }
        if action.used_extra {
            s.used_extra[a] = true;
        }
        if action.to != from || action.facing != s.facing[a] {
            trace.event("JC 5.1 movement", || {
                format!(
                    "{} moves ({},{}) -> ({},{}) facing {}{}",
                    self.fighters[a].name,
                    from.0,
                    from.1,
                    action.to.0,
                    action.to.1,
                    facing_letter(action.facing),
                    if action.jumped {
                        ", jumping (5.34)"
                    } else {
                        ""
                    }
                )
            });
        }
        s.pos[a] = action.to;
        s.facing[a] = action.facing;
        if self.special.personages != 0 && action.to != from {
            self.lead_along(s, a, from, trace);
        }
        if action.to != from && self.after_move(s, a, from, action.jumped, dice, trace) {
            return !self.side_standing(s, self.fighters[a].side);
        }
        // Card 27: the invisible fighter's free blow on first coming beside
        // an enemy; his own melee follows if its target still stands.
        if self.extras && s.x.unseen & (1 << a) != 0 {
            if self.invisible_blow(s, a, action.to != from, dice, trace) {
                return true;
            }
            if action.target.is_some_and(|t| !s.fighting(t)) {
                return false;
            }
        }
        if !matches!(action.task, Task::None | Task::PutDown) {
            return self.perform_task(s, a, action.task, action.to != from, trace);
        }
        let Some(t) = action.target else {
            return false;
        };
        self.melee(s, a, t, action.to != from, dice, trace)
    }

    /// One melee of `a` on `t`, `moved` this phase [7.3-7.6]. Returns
    /// whether it ended the duel.
    pub fn melee<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        t: usize,
        moved: bool,
        dice: &mut Dice,
        trace: &mut T,
    ) -> bool {
        // A hero and a master swordsman fight it out by maneuver cards [7.81].
        if self.special.swordplay.is_some()
            && let Some(over) = self.bout_melee(s, a, t, dice, trace)
        {
            if !s.discovered && self.fighters[a].side == 0 {
                self.discovered_by_melee(s, t, trace);
            }
            return over;
        }
        let (behind, needed) = self.needed(s, a, t, s.pos[a], moved);
        let (blow, first, second) = self.rules.strike(self.fighters[a].class, needed, dice);
        s.melee_joined = true;
        s.engaged[a] = true;
        s.engaged[t] = true;
        s.meleed |= 1 << a;
        if blow != Blow::Miss {
            // Ghek's hold breaks when the held character is struck [19.42].
            s.held &= !(1 << t);
        }
        // A berserk hero shrugs off every other hit [13.43].
        let blow = if blow != Blow::Miss && self.extras {
            self.berserk_blow(s, t, blow, trace)
        } else {
            blow
        };
        let before = s.level[t];
        let fate = apply_blow(before, self.fighters[t].unconscious_at_level_1, blow);
        trace.event(
            if first == 10 {
                "JC 7.5 natural 10"
            } else {
                "JC 7.61 melee"
            },
            || {
                format!(
                    "{} (level {}) attacks {} (level {before}){}{}: needs {needed}, rolls {first}{} -> {}",
                    self.fighters[a].name,
                    s.level[a],
                    self.fighters[t].name,
                    if behind { " from behind (7.32)" } else { "" },
                    if moved { " after moving (7.33)" } else { "" },
                    if second > 0 {
                        format!(" then {second}")
                    } else {
                        String::new()
                    },
                    match (blow, fate) {
                        (Blow::Miss, _) => "no effect".to_string(),
                        (_, Fate::Fighting(l)) => format!("down to level {l}"),
                        (_, Fate::Unconscious) => "unconscious (7.63)".to_string(),
                        (_, Fate::Dead) => "dead".to_string(),
                    }
                )
            },
        );
        match fate {
            Fate::Fighting(l) => s.level[t] = l,
            Fate::Unconscious => {
                s.level[t] = 1;
                s.status[t] = Status::Unconscious;
                s.kills[a] += 1;
            }
            Fate::Dead => {
                s.level[t] = 0;
                s.status[t] = Status::Dead;
                s.kills[a] += 1;
            }
        }
        if !s.discovered && self.fighters[a].side == 0 {
            self.discovered_by_melee(s, t, trace);
        }
        !self.side_standing(s, self.fighters[t].side)
    }

    /// Marks `d` as having discovered the attackers, with the case.
    fn discovers<T: Trace>(&self, s: &mut State, d: usize, case: &'static str, trace: &mut T) {
        if s.fighting(d)
            && self.fighters[d].class != Class::Personage
            && s.discoverers & (1 << d) == 0
        {
            s.discoverers |= 1 << d;
            trace.event(case, || {
                format!("{} discovers the attackers", self.fighters[d].name)
            });
        }
    }

    /// Discovery by melee [6.11, 6.13]: a defender struck and not killed
    /// discovers the attackers; one killed is heard by any other defender
    /// within eight boxes in the same room or corridor.
    fn discovered_by_melee<T: Trace>(&self, s: &mut State, t: usize, trace: &mut T) {
        if s.status[t] == Status::Dead {
            let room = self.display.region_of(s.pos[t].0, s.pos[t].1);
            for d in 0..s.n {
                if d != t
                    && self.fighters[d].side == 1
                    && gap(s.pos[d], s.pos[t]) <= 8
                    && room != 0
                    && self.display.region_of(s.pos[d].0, s.pos[d].1) == room
                {
                    self.discovers(s, d, "JC 6.13 discovery", trace);
                }
            }
        } else {
            self.discovers(s, t, "JC 6.11 discovery", trace);
        }
    }

    /// Discovery by nearness [6.12]: an attacker within four boxes of a
    /// defender (after his action) is discovered by him; not while the
    /// attackers are disguised (our reading of [6.25]: the disguise lets
    /// them walk among the guards).
    fn discovered_by_nearness<T: Trace>(&self, s: &mut State, a: usize, trace: &mut T) {
        if !s.fighting(a) || s.x.disguised {
            return;
        }
        for d in 0..s.n {
            if self.fighters[d].side == 1 && gap(s.pos[d], s.pos[a]) <= 4 {
                self.discovers(s, d, "JC 6.12 discovery", trace);
            }
        }
    }

    /// The number a discovery check by defender `d` against the nearest
    /// attacker must not exceed [6.23, 6.24], if `d` has a line of
    /// discovery to an attacker [6.22]: the In Room matrix when that
    /// attacker is in the same room or corridor, else Outside Room.
    pub fn discovery_number(&self, s: &State, d: usize) -> Option<u8> {
        let lines = self.lines.get(d).filter(|l| !l.is_empty())?;
        let mut nearest: Option<usize> = None;
        let mut any_line = false;
        for a in 0..s.n {
            if self.fighters[a].side != 0 || !s.fighting(a) {
                continue;
            }
            any_line |= lines[self.display.index(s.pos[a].0, s.pos[a].1)];
            if nearest.is_none_or(|n| gap(s.pos[a], s.pos[d]) < gap(s.pos[n], s.pos[d])) {
                nearest = Some(a);
            }
        }
        let a = nearest.filter(|_| any_line)?;
        let same = self.display.region_of(s.pos[a].0, s.pos[a].1);
        // In Room: the same four walls, or the same corridor with a
        // straight line between them clear of walls and doorways [6.23].
        let in_room = same != 0
            && same == self.display.region_of(s.pos[d].0, s.pos[d].1)
            && (self.display.is_room(same) || self.display.straight_line(s.pos[a], s.pos[d]));
        let matrix = usize::from(!in_room);
        let (ad, aa) = (
            self.fighters[d].at(s.level[d]).alertness,
            self.fighters[a].at(s.level[a]).alertness,
        );
        Some(self.rules.discovery[matrix][usize::from(ad.min(2))][usize::from(aa.min(2))])
    }

    /// The Discovery Check Phase [4.0 B, 6.21-6.24]: the defender picks
    /// the eligible character with the best chance and rolls once; no check
    /// while the attackers are disguised [6.25].
    pub fn discovery_check<T: Trace>(&self, s: &mut State, dice: &mut Dice, trace: &mut T) {
        if s.x.disguised {
            return;
        }
        let mut best: Option<(u8, usize)> = None;
        for d in 0..s.n {
            if self.fighters[d].side != 1
                || !s.fighting(d)
                || self.fighters[d].class == Class::Personage
            {
                continue;
            }
            if let Some(n) = self.discovery_number(s, d)
                && best.is_none_or(|(b, _)| n > b)
            {
                best = Some((n, d));
            }
        }
        let Some((need, d)) = best else {
            return;
        };
        let roll = dice.d10();
        trace.event("JC 6.24 discovery check", || {
            format!(
                "{} needs {need} or less, rolls {roll}{}",
                self.fighters[d].name,
                if u32::from(need) >= roll {
                    ": discovered"
                } else {
                    ""
                }
            )
        });
        if u32::from(need) >= roll {
            s.discoverers |= 1 << d;
        }
    }

    /// One fighter's action through its policy; whether it ended the duel,
    /// and for an attacker before discovery, discovery by nearness.
    fn act<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        policies: &[Policy; 2],
        dice: &mut Dice,
        trace: &mut T,
    ) -> bool {
        let action = policies[usize::from(self.fighters[a].side)].choose(self, s, a, dice);
        let mut over = self.perform(s, a, action, dice, trace);
        if !over && self.extras {
            over = self.after_action(s, a, action.target.is_some(), policies, dice, trace);
        }
        if !s.discovered && self.fighters[a].side == 0 {
            self.discovered_by_nearness(s, a, trace);
        }
        over
    }

    /// Every fighter of `side` on his feet (personages apart) acts once, in
    /// scenario order; those of `only` if given. Whether the duel ended,
    /// and who acted last.
    fn side_acts<T: Trace>(
        &self,
        s: &mut State,
        side: u8,
        only: Option<u32>,
        policies: &[Policy; 2],
        dice: &mut Dice,
        trace: &mut T,
    ) -> Option<usize> {
        for a in 0..s.n {
            if self.fighters[a].side != side
                || !s.fighting(a)
                || s.held & (1 << a) != 0
                || only.is_some_and(|m| m & (1 << a) == 0)
            {
                continue;
            }
            if self.act(s, a, policies, dice, trace) {
                return Some(a);
            }
        }
        None
    }

    /// The attacker movement and melee phases [4.0 C, D]: every attacker
    /// on his feet moves (his policy's action without its melee), then each
    /// strikes from where he stands, facing as he does, at -2 if he moved in
    /// C [7.33]. Returns the fighter whose action ended the duel, if one did.
    fn attackers_move_then_strike<T: Trace>(
        &self,
        s: &mut State,
        policies: &[Policy; 2],
        dice: &mut Dice,
        trace: &mut T,
    ) -> Option<usize> {
        s.x.moved = 0;
        for a in 0..s.n {
            if self.fighters[a].side != 0 || !s.fighting(a) || s.held & (1 << a) != 0 {
                continue;
            }
            let chosen = policies[0].choose(self, s, a, dice);
            let action = Action {
                target: None,
                ..chosen
            };
            let from = s.pos[a];
            let mut over = self.perform(s, a, action, dice, trace);
            if !over && self.extras {
                over = self.after_action(s, a, false, policies, dice, trace);
            }
            if over {
                return Some(a);
            }
            if s.pos[a] != from {
                s.x.moved |= 1 << a;
            }
            self.discovered_by_nearness(s, a, trace);
        }
        for a in 0..s.n {
            if self.fighters[a].side != 0 || !s.fighting(a) || s.held & (1 << a) != 0 {
                continue;
            }
            let moved = s.x.moved & (1 << a) != 0;
            let Some(t) = policies[0].strike_from_here(self, s, a, moved, dice) else {
                continue;
            };
            let mut over = self.melee(s, a, t, moved, dice, trace);
            if !over && self.extras {
                over = self.after_action(s, a, true, policies, dice, trace);
            }
            if over {
                return Some(a);
            }
        }
        s.x.moved = 0;
        None
    }

    /// The pre-discovery and discovery sub-sequences of one tactical turn
    /// [4.0 A-E]: the attackers act (A); the defender checks for discovery
    /// if no one has discovered them yet (B); once discovered the attackers
    /// move (C) and then strike (D), and the discoverers act (E). Discovery
    /// holds if a discoverer is still on his feet [6.31]; if all are dead
    /// the word never got out and play goes back to A [6.32]. Returns the
    /// fighter whose action ended the duel, if one did.
    fn surprise_turn<T: Trace>(
        &self,
        s: &mut State,
        policies: &[Policy; 2],
        dice: &mut Dice,
        trace: &mut T,
    ) -> Option<usize> {
        if let Some(a) = self.side_acts(s, 0, None, policies, dice, trace) {
            return Some(a);
        }
        if s.discoverers == 0 {
            self.discovery_check(s, dice, trace);
        }
        if s.discoverers == 0 {
            return None;
        }
        if let Some(a) = self.attackers_move_then_strike(s, policies, dice, trace) {
            return Some(a);
        }
        if let Some(d) = self.side_acts(s, 1, Some(s.discoverers), policies, dice, trace) {
            return Some(d);
        }
        let alive = (0..s.n).any(|d| s.discoverers & (1 << d) != 0 && s.fighting(d));
        if alive {
            s.discovered = true;
            trace.event("JC 6.31 discovery", || {
                "the alarm is raised: every defender may act".into()
            });
        } else {
            trace.event("JC 6.32 discovery averted", || {
                "every discoverer fell before raising the alarm".into()
            });
        }
        s.discoverers = 0;
        None
    }

    /// Fights the duel once with `policies` (one per side) and `dice`.
    pub fn resolve<T: Trace>(
        &self,
        policies: &[Policy; 2],
        dice: &mut Dice,
        trace: &mut T,
    ) -> DuelResult {
        let mut s = self.start();
        let mut order = [0u8; MAX_FIGHTERS];
        let mut deciding = None;
        let mut over = false;
        let mut discovered_in = 0;
        let mut turns = 0;
        'turns: while turns < self.max_turns {
            turns += 1;
            s.turn = turns;
            if !s.discovered {
                if let Some(a) = self.surprise_turn(&mut s, policies, dice, trace) {
                    over = true;
                    deciding = s.fighting(a).then_some(a as u8);
                    break 'turns;
                }
                if s.discovered {
                    discovered_in = turns;
                }
                if self.extras && self.turn_end(&mut s, policies, dice, trace) {
                    over = true;
                    break 'turns;
                }
                if self.extras {
                    self.watch_deadline(&mut s, trace);
                }
                continue;
            }
            let k = self.initiative(&s, dice, trace, &mut order);
            for &i in &order[..k] {
                let a = usize::from(i);
                if !s.fighting(a) || s.held & (1 << a) != 0 {
                    continue;
                }
                let action = policies[usize::from(self.fighters[a].side)].choose(self, &s, a, dice);
                let mut ended = self.perform(&mut s, a, action, dice, trace);
                if !ended && self.extras {
                    ended = self.after_action(
                        &mut s,
                        a,
                        action.target.is_some(),
                        policies,
                        dice,
                        trace,
                    );
                }
                if ended {
                    over = true;
                    // A blow decides it; a fall [5.52] or a departure
                    // [5.18] has no striker.
                    deciding = s.fighting(a).then_some(i);
                    break 'turns;
                }
            }
            if self.extras && self.turn_end(&mut s, policies, dice, trace) {
                over = true;
                break 'turns;
            }
            if self.extras {
                self.watch_deadline(&mut s, trace);
            }
        }
        if self.extras {
            self.watch_deadline(&mut s, trace);
        }
        let mut result = DuelResult {
            winner: None,
            turns,
            survivors: [0; 2],
            levels_lost: [0; 2],
            heroes_unconscious: [0; 2],
            kills: s.kills,
            deciding_blow: deciding,
            discovered_in,
            escaped: [0; 2],
            left: None,
            prisoners_freed: 0,
            rescued: 0,
            level: s.level,
            status: s.status,
            late: s.x.late,
        };
        for (i, f) in self.fighters.iter().enumerate() {
            let side = usize::from(f.side);
            result.levels_lost[side] += f.top_level.saturating_sub(s.level[i]);
            match s.status[i] {
                Status::Fighting => result.survivors[side] += 1,
                Status::Unconscious | Status::Carried => {
                    result.heroes_unconscious[side] += u8::from(f.class == Class::Hero)
                }
                _ => {}
            }
        }
        if over {
            // The side still on the display holds the field; an emptied
            // flier goes to the first side [5.51].
            result.winner = Some(if s.x.acquired || self.side_standing(&s, 0) {
                0
            } else {
                1
            });
            result.left = s.x.left;
        }
        if self.extras {
            let (escaped, freed, rescued) = self.count_escapes(&s, result.winner);
            result.escaped = escaped;
            result.prisoners_freed = freed;
            result.rescued = rescued;
        }
        trace.event("JC 4.0 H turn indication", || match result.winner {
            Some(w) => format!("the duel is over after {turns} turns: side {} wins", w + 1),
            None => format!("undecided after {turns} turns"),
        });
        result
    }

    /// Top-left boxes one counter apart, for tests: `(x, y)` moved `n`
    /// counters along `facing`.
    pub fn step_counters(at: (i16, i16), facing: u8, n: i16) -> (i16, i16) {
        let (dx, dy) = super::geometry::from_frame(0, -COUNTER * n, facing);
        (at.0 + dx, at.1 + dy)
    }
}

/// The distance in boxes between two counters' top-left boxes, less the
/// counter: boxes of open ground between them (0 when touching).
#[inline]
fn gap(a: (i16, i16), b: (i16, i16)) -> i16 {
    ((a.0 - b.0).abs().max((a.1 - b.1).abs()) - COUNTER).max(0)
}

/// Fights `duel` once with `policies` and `dice`: the entry point for
/// callers that embed duels in a larger game.
pub fn resolve(duel: &Duel, policies: &[Policy; 2], dice: &mut Dice) -> DuelResult {
    duel.resolve(policies, dice, &mut crate::engine::NoTrace)
}
