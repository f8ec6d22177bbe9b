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
    COUNTER, Display, DisplayKind, FRONT_ARC, HERO_ARC, HERO_BEHIND, OTHER_BEHIND, PositionSet,
    Reach, STEPS_PER_MOVEMENT, WARRIOR_ARC, adjacent, facing_letter, in_arc, is_behind,
};
use super::melee::{Blow, Conditions, Fate, MeleeRules, apply_blow};
use super::policy::{Action, Policy};
use super::roster::{Character, Class, MovementKind, Ratings, alertness_letter};
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
}

impl Fighter {
    /// A fighter from a roster character.
    pub fn new(c: &Character, side: u8, start: (i16, i16), facing: u8) -> Self {
        Fighter {
            id: c.id.clone(),
            name: c.name.clone(),
            class: c.class,
            movement: c.movement,
            levels: c.levels.clone(),
            top_level: c.top_level,
            unconscious_at_level_1: c.unconscious_at_level_1,
            side,
            start,
            facing,
            unarmed: false,
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
    /// Fliers on the ground: no one falls crossing between them [14.25].
    pub grounded: bool,
}

/// A fighter's condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// On his feet.
    Fighting,
    /// Unconscious: stays on the display, cannot be meleed [7.15].
    Unconscious,
    /// Dead: removed [3.25].
    Dead,
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
}

impl State {
    /// Whether fighter `i` is on his feet.
    #[inline]
    pub fn fighting(&self, i: usize) -> bool {
        self.status[i] == Status::Fighting
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
    /// Each fighter's level at the end (0 dead).
    pub level: [u8; MAX_FIGHTERS],
    /// Each fighter's condition at the end.
    pub status: [Status; MAX_FIGHTERS],
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
        };
        for (i, f) in self.fighters.iter().enumerate() {
            s.pos[i] = f.start;
            s.facing[i] = f.facing;
            s.level[i] = f.top_level;
            s.status[i] = Status::Fighting;
        }
        s
    }

    /// Whether fighter `a` may melee `t` at all: enemies, `t` on his feet
    /// and not a personage [7.13-7.16].
    #[inline]
    pub fn may_target(&self, s: &State, a: usize, t: usize) -> bool {
        self.fighters[a].side != self.fighters[t].side
            && s.fighting(t)
            && self.fighters[t].class != Class::Personage
    }

    /// The melee modifier and the natural roll needed for `a` at `at`
    /// facing anything, against `t` where it stands [7.3, 7.61].
    #[inline]
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
            carrying: false,
            unarmed: fa.unarmed,
        };
        let ra = fa.at(s.level[a]);
        let rt = ft.at(s.level[t]);
        (
            behind,
            MeleeRules::needed(ra.strength, self.rules.modifier(c), rt.agility),
        )
    }

    /// Expected levels an attack with need `needed` takes off `t`.
    #[inline]
    pub fn value(&self, s: &State, a: usize, t: usize, needed: i32) -> f64 {
        let [_, level, kill] = self.rules.odds(self.fighters[a].class, needed);
        let left = f64::from(s.level[t]);
        level + kill * left
    }

    /// The best facing (if any) from which `a` at `at` may attack `t` [7.43].
    #[inline]
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
            self.fighters[a].unarmed,
        ) {
            return;
        }
        for t in 0..s.n {
            if !self.may_target(s, a, t) {
                continue;
            }
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
            for n in 1..=8u8 {
                let (ox, oy) = super::geometry::offset_of_position(n, s.facing[t]);
                let at = (s.pos[t].0 + ox, s.pos[t].1 + oy);
                if at == s.pos[a] {
                    continue;
                }
                match reach.walk_steps(at.0, at.1) {
                    Some(k) if k <= steps => {}
                    _ => continue,
                }
                if let Some(facing) = self.facing_to_attack(s, a, t, at) {
                    let (behind, needed) = self.needed(s, a, t, at, true);
                    f(Attack {
                        target: t,
                        at,
                        facing,
                        moved: true,
                        behind,
                        needed,
                        value: self.value(s, a, t, needed),
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
                && self.fighters[t].class != Class::Personage
                && adjacent(s.pos[t].0 - s.pos[a].0, s.pos[t].1 - s.pos[a].1)
        })
    }

    /// Movements `a` may make this phase, and how many with his
    /// once-per-duel extra [5.2, 5.3].
    #[inline]
    pub fn movements(&self, s: &State, a: usize) -> (u8, Option<u8>) {
        if self.next_to_enemy(s, a) {
            return (1, None);
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

    /// The distance in boxes from `at` to the nearest conscious enemy of
    /// `a` (the larger of the row and column gaps of the top-left boxes).
    #[inline]
    pub fn gap_to_enemy(&self, s: &State, a: usize, at: (i16, i16)) -> i16 {
        let mut best = i16::MAX;
        for t in 0..s.n {
            if self.may_target(s, a, t) {
                let d = (s.pos[t].0 - at.0).abs().max((s.pos[t].1 - at.1).abs());
                best = best.min(d);
            }
        }
        best
    }

    /// The nearest conscious enemy of `a` from `at`.
    #[inline]
    pub fn nearest_enemy(&self, s: &State, a: usize, at: (i16, i16)) -> Option<usize> {
        let mut best = None;
        let mut gap = i16::MAX;
        for t in 0..s.n {
            if self.may_target(s, a, t) {
                let d = (s.pos[t].0 - at.0).abs().max((s.pos[t].1 - at.1).abs());
                if d < gap {
                    gap = d;
                    best = Some(t);
                }
            }
        }
        best
    }

    /// The reach of `a` with `movements` movements.
    #[inline]
    pub fn reach(&self, s: &State, a: usize, movements: u8) -> Reach {
        let mut others = [(0i16, 0i16); MAX_FIGHTERS];
        let mut k = 0;
        for i in 0..s.n {
            if i != a && s.status[i] != Status::Dead {
                others[k] = s.pos[i];
                k += 1;
            }
        }
        let jumps = self.fighters[a].movement.jumps() && movements >= 2;
        Reach::compute_for(
            &self.display,
            s.pos[a],
            i16::from(movements) * STEPS_PER_MOVEMENT,
            &others[..k],
            jumps,
            s.restricted == self.fighters[a].side + 1,
        )
    }

    /// Whether a move of `a` to `to` keeps to [7.21, 7.22]: on the open
    /// and street displays no one moves away from the enemy until melee is
    /// first joined.
    #[inline]
    pub fn keeps_closing(&self, s: &State, a: usize, to: (i16, i16)) -> bool {
        s.melee_joined
            || !self.display.kind.no_retreat_before_melee()
            || self.gap_to_enemy(s, a, to) <= self.gap_to_enemy(s, a, s.pos[a])
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
        let mut k = 0;
        for alertness in 0..3u8 {
            let has = |side: u8| {
                (0..s.n).any(|i| {
                    self.fighters[i].side == side
                        && s.fighting(i)
                        && self.fighters[i].at(s.level[i]).alertness == alertness
                })
            };
            let first = if has(0) && has(1) {
                loop {
                    let (r0, r1) = (dice.d10(), dice.d10());
                    if r0 != r1 {
                        trace.event("JC 5.0 initiative", || {
                            format!(
                                "alertness {}: the sides roll {r0} and {r1}",
                                alertness_letter(alertness)
                            )
                        });
                        break u8::from(r1 > r0);
                    }
                }
            } else {
                0
            };
            for side in [first, 1 - first] {
                for i in 0..s.n {
                    if self.fighters[i].side == side
                        && s.fighting(i)
                        && self.fighters[i].at(s.level[i]).alertness == alertness
                    {
                        order[k] = i as u8;
                        k += 1;
                    }
                }
            }
        }
        k
    }

    /// Whether side `side` has a conscious fighter (not a personage).
    #[inline]
    pub fn side_standing(&self, s: &State, side: u8) -> bool {
        (0..s.n).any(|i| {
            self.fighters[i].side == side
                && s.fighting(i)
                && self.fighters[i].class != Class::Personage
        })
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
        let from = s.pos[a];
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
        if action.to != from && self.after_move(s, a, from, action.jumped, dice, trace) {
            return !self.side_standing(s, self.fighters[a].side);
        }
        let Some(t) = action.target else {
            return false;
        };
        let moved = action.to != from;
        let (behind, needed) = self.needed(s, a, t, s.pos[a], moved);
        let (blow, first, second) = self.rules.strike(self.fighters[a].class, needed, dice);
        s.melee_joined = true;
        s.engaged[a] = true;
        s.engaged[t] = true;
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
    /// defender (after his action) is discovered by him.
    fn discovered_by_nearness<T: Trace>(&self, s: &mut State, a: usize, trace: &mut T) {
        if !s.fighting(a) {
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
        let matrix =
            usize::from(same == 0 || same != self.display.region_of(s.pos[d].0, s.pos[d].1));
        let (ad, aa) = (
            self.fighters[d].at(s.level[d]).alertness,
            self.fighters[a].at(s.level[a]).alertness,
        );
        Some(self.rules.discovery[matrix][usize::from(ad.min(2))][usize::from(aa.min(2))])
    }

    /// The Discovery Check Phase [4.0 B, 6.21-6.24]: the defender picks
    /// the eligible character with the best chance and rolls once.
    pub fn discovery_check<T: Trace>(&self, s: &mut State, dice: &mut Dice, trace: &mut T) {
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
        let over = self.perform(s, a, action, dice, trace);
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
                || self.fighters[a].class == Class::Personage
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

    /// The pre-discovery and discovery sub-sequences of one tactical turn
    /// [4.0 A-E]: the attackers act (A); the defender checks for discovery
    /// if no one has discovered them yet (B); once discovered the attackers
    /// act again (C, D: each moves and strikes) and the discoverers act
    /// (E). Discovery holds if a discoverer is still on his feet [6.31];
    /// if all are dead the word never got out and play goes back to A
    /// [6.32]. Returns the fighter whose action ended the duel, if one did.
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
        if let Some(a) = self.side_acts(s, 0, None, policies, dice, trace) {
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
                continue;
            }
            let k = self.initiative(&s, dice, trace, &mut order);
            for &i in &order[..k] {
                let a = usize::from(i);
                if !s.fighting(a) || self.fighters[a].class == Class::Personage {
                    continue;
                }
                let action = policies[usize::from(self.fighters[a].side)].choose(self, &s, a, dice);
                if self.perform(&mut s, a, action, dice, trace) {
                    over = true;
                    // A blow decides it; a fall [5.52] has no striker.
                    deciding = s.fighting(a).then_some(i);
                    break 'turns;
                }
            }
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
            level: s.level,
            status: s.status,
        };
        for (i, f) in self.fighters.iter().enumerate() {
            let side = usize::from(f.side);
            result.levels_lost[side] += f.top_level - s.level[i];
            match s.status[i] {
                Status::Fighting => result.survivors[side] += 1,
                Status::Unconscious => {
                    result.heroes_unconscious[side] += u8::from(f.class == Class::Hero)
                }
                Status::Dead => {}
            }
        }
        if over {
            result.winner = Some(if self.side_standing(&s, 0) { 0 } else { 1 });
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
