//! Rules of the Strategic Game played inside a duel, each switched on per
//! fighter or per duel by the set-up ([`Cards`], off by default, so a duel
//! without them runs none of this):
//!
//! - **Berserk** [13.43]: a hero told of the villain's attempt at an
//!   unspeakable act loses a level only on every second hit. Our reading of
//!   a natural 10 [7.5] on a berserk hero: the 10 is one hit like any
//!   other. A hit he shrugs off does nothing at all, the second roll's
//!   knock-out included, since [7.5] calls that roll further injury done
//!   with the wound and the first hit gives him no wound; the hit that
//!   costs a level acts in full, so its second roll may knock him out
//!   [7.52, 7.53]. The second die is rolled either way. A bout with a
//!   master swordsman [7.81] counts its hits by the maneuver cards, and
//!   there too every other one is shrugged off, the count running on
//!   (`swordplay`).
//! - **The deadline** [13.43]: the hero has ten tactical turns, counted
//!   from the joining of melee, to get to the villain; failing that, the
//!   villain may still commit the act. Reaching reads as ending a
//!   tactical turn beside a villain of the other side on his feet, or no
//!   such villain being left on his feet; a duel that ends first is in
//!   time.
//! - **Invisibility** [18.2 card 27]: the fighter's agility is 10 for the
//!   whole duel (the 10/6 of [7.39] for John Carter and Carthoris: the
//!   set-up writes it into his ratings); the first time his own action
//!   leaves him beside an enemy he may strike, he strikes that enemy once,
//!   free, before his action's own melee, unless he already stands where he
//!   would strike from behind (he then attacks from behind by the ordinary
//!   rules and the pills give no blow). The free blow has the ordinary
//!   modifiers of where he stands ([7.33] if he moved).
//! - **Break-off** [18.2 card 24]: the card may be played where it allows:
//!   anywhere on the open and street displays, beside an exterior wall (a
//!   wall box on the display's edge) in a house or palace, never on the
//!   fliers. Played, every enemy beside the holder who may melee him
//!   strikes him once; if he is still on his feet his side's fighters on
//!   their feet leave the display (the duel ends as a departure of his side
//!   [5.18]), otherwise the card is spent and the duel goes on. The card
//!   says only that he may; our policy (the same for every tactical
//!   policy) plays it at the start of his action when his side is losing
//!   and he more likely gets away than not: he has lost a level in this
//!   duel, the enemies on their feet outnumber his side's, and the exact
//!   chance that the parting blows leave him on his feet ([`MeleeRules::odds`]
//!   of each, a hero falling at level 1 [7.63]) is at least one half.

use super::geometry::{COUNTER, Cell, DisplayKind, adjacent};
use super::melee::{Blow, MeleeRules};
use super::roster::Class;
use super::sequence::{Duel, State, Status};
use barsoom_engine::{Dice, Trace};

/// The agility written into an invisible fighter's ratings when the pills
/// give him the 10/6 of [7.39]: beyond any strength and modifier, so the
/// needed roll is always in the 10/6 band of [`MeleeRules::strike`].
pub const TEN_SIX_AGILITY: u8 = u8::MAX;

/// What a larger game brings into one duel (all off by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cards {
    /// Berserk fighters, bit per fighter [13.43].
    pub berserk: u32,
    /// Fighters with the invisibility pills, bit per fighter [18.2 card
    /// 27].
    pub invisible: u32,
    /// The fighter who holds card 24 and leaves the melee with his side
    /// [18.2 card 24].
    pub break_off: Option<u8>,
    /// The hero who must reach a villain of the other side, and the
    /// tactical turns after melee is joined he has [13.43].
    pub deadline: Option<(u8, u32)>,
}

impl Cards {
    /// Whether any of these rules is in play.
    pub fn any(&self) -> bool {
        self.berserk != 0
            || self.invisible != 0
            || self.break_off.is_some()
            || self.deadline.is_some()
    }
}

impl Duel {
    /// A hit (`blow` not a miss) on `t`: a berserk fighter shrugs off every
    /// other hit whole [13.43]. Returns the blow as it lands.
    pub(crate) fn berserk_blow<T: Trace>(
        &self,
        s: &mut State,
        t: usize,
        blow: Blow,
        trace: &mut T,
    ) -> Blow {
        if self.special.cards.berserk & (1 << t) == 0 || blow == Blow::Miss {
            return blow;
        }
        s.x.berserk_hit ^= 1 << t;
        if s.x.berserk_hit & (1 << t) == 0 {
            return blow;
        }
        trace.event("JC 13.43 berserk", || {
            format!(
                "{} is berserk: the hit costs him nothing, the next one will",
                self.fighters[t].name
            )
        });
        Blow::Miss
    }

    /// The free blow of an invisible fighter `a` the first time his action
    /// leaves him beside an enemy he may strike [18.2 card 27]; `moved` this
    /// phase. Returns whether it ended the duel.
    pub(crate) fn invisible_blow<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        moved: bool,
        dice: &mut Dice,
        trace: &mut T,
    ) -> bool {
        let may = MeleeRules::may_melee(
            self.fighters[a].at(s.level[a]).strength,
            s.unarmed & (1 << a) != 0,
        );
        let beside = (0..s.n).find(|&t| {
            self.may_target(s, a, t) && adjacent(s.pos[a].0 - s.pos[t].0, s.pos[a].1 - s.pos[t].1)
        });
        let Some(t) = beside.filter(|_| may) else {
            return false;
        };
        s.x.unseen &= !(1 << a);
        let (behind, _) = self.needed(s, a, t, s.pos[a], moved);
        if behind {
            trace.event("JC 18.2 card 27", || {
                format!(
                    "{} comes invisibly behind {}: no free blow",
                    self.fighters[a].name, self.fighters[t].name
                )
            });
            return false;
        }
        trace.event("JC 18.2 card 27", || {
            format!(
                "{} comes invisibly beside {} and strikes a free blow",
                self.fighters[a].name, self.fighters[t].name
            )
        });
        self.melee(s, a, t, moved, dice, trace)
    }

    /// Whether a counter at `at` touches a wall box on the display's edge
    /// (an exterior wall of a house or palace [18.2 card 24]).
    pub fn beside_exterior_wall(&self, at: (i16, i16)) -> bool {
        let d = &*self.display;
        let outer = |x: i16, y: i16| {
            (x == 0 || y == 0 || x == d.width - 1 || y == d.height - 1)
                && (0..d.width).contains(&x)
                && (0..d.height).contains(&y)
                && d.cell(x, y) == Cell::Wall
        };
        (-1..=COUNTER).any(|i| {
            outer(at.0 + i, at.1 - 1)
                || outer(at.0 + i, at.1 + COUNTER)
                || outer(at.0 - 1, at.1 + i)
                || outer(at.0 + COUNTER, at.1 + i)
        })
    }

    /// Whether card 24 lets `a` leave the melee from where he stands.
    pub fn may_break_off_here(&self, s: &State, a: usize) -> bool {
        match self.display.kind {
            DisplayKind::Open | DisplayKind::Street => true,
            DisplayKind::House | DisplayKind::Palace => self.beside_exterior_wall(s.pos[a]),
            DisplayKind::Flier => false,
        }
    }

    /// The enemies beside `a` who may melee him (bit per fighter): those
    /// who strike as he leaves by card 24.
    pub fn parting_blows(&self, s: &State, a: usize) -> u32 {
        let mut bits = 0;
        for e in 0..s.n {
            if adjacent(s.pos[e].0 - s.pos[a].0, s.pos[e].1 - s.pos[a].1)
                && self.may_target(s, e, a)
                && MeleeRules::may_melee(
                    self.fighters[e].at(s.level[e]).strength,
                    s.unarmed & (1 << e) != 0,
                )
                && self.facing_to_attack(s, e, a, s.pos[e]).is_some()
            {
                bits |= 1 << e;
            }
        }
        bits
    }

    /// The exact chance that `a` is still on his feet after the parting
    /// blows of card 24: no kill roll, and fewer level hits than would
    /// fell him (a hero falls at level 1 [7.63], anyone else at 0).
    pub fn chance_to_get_away(&self, s: &State, a: usize) -> f64 {
        let falls_at = usize::from(self.fighters[a].unconscious_at_level_1);
        let spare = usize::from(s.level[a]).saturating_sub(falls_at + 1);
        // Probability of h level hits so far and no kill, h <= spare.
        let mut dist = [0.0f64; super::sequence::MAX_FIGHTERS + 1];
        dist[0] = 1.0;
        let mut blows = self.parting_blows(s, a);
        while blows != 0 {
            let e = blows.trailing_zeros() as usize;
            blows &= blows - 1;
            let (_, needed) = self.needed(s, e, a, s.pos[e], false);
            let [miss, level, _] = self.rules.odds(self.fighters[e].class, needed);
            for h in (0..=spare).rev() {
                dist[h] = dist[h] * miss + if h > 0 { dist[h - 1] * level } else { 0.0 };
            }
        }
        dist[..=spare].iter().sum()
    }

    /// Whether the policy plays card 24 for `a` now (see the module
    /// notes): he holds it, stands where it may be played, has lost a
    /// level, is outnumbered, and gets away at least one time in two.
    pub fn wants_to_break_off(&self, s: &State, a: usize) -> bool {
        if self.special.cards.break_off != Some(a as u8)
            || s.level[a] >= self.fighters[a].top_level
            || !self.may_break_off_here(s, a)
        {
            return false;
        }
        let side = self.fighters[a].side;
        let (mut ours, mut theirs) = (0, 0);
        for i in 0..s.n {
            if s.fighting(i) && self.fighters[i].class != Class::Personage {
                if self.fighters[i].side == side {
                    ours += 1;
                } else {
                    theirs += 1;
                }
            }
        }
        theirs > ours && self.chance_to_get_away(s, a) >= 0.5
    }

    /// Card 24 at the start of `a`'s action, if the policy plays it now
    /// [18.2 card 24]. `Some(over)` when the card was played (whether that
    /// ended the duel); `None` otherwise.
    pub fn break_off<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        dice: &mut Dice,
        trace: &mut T,
    ) -> Option<bool> {
        if !self.wants_to_break_off(s, a) {
            return None;
        }
        Some(self.leave_melee(s, a, dice, trace))
    }

    /// Card 24 played by `a`: each enemy beside him strikes him once, then
    /// his side's fighters on their feet leave the display, unless he fell.
    /// Returns whether the duel ended.
    pub fn leave_melee<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        dice: &mut Dice,
        trace: &mut T,
    ) -> bool {
        trace.event("JC 18.2 card 24", || {
            format!(
                "{} (level {}) plays card 24: his side leaves the melee",
                self.fighters[a].name, s.level[a]
            )
        });
        let mut blows = self.parting_blows(s, a);
        while blows != 0 {
            let e = blows.trailing_zeros() as usize;
            blows &= blows - 1;
            if !s.fighting(e) {
                continue;
            }
            if self.melee(s, e, a, false, dice, trace) {
                return true;
            }
            if !s.fighting(a) {
                trace.event("JC 18.2 card 24", || {
                    format!("{} falls before he gets away", self.fighters[a].name)
                });
                return false;
            }
        }
        let side = self.fighters[a].side;
        for i in 0..s.n {
            if self.fighters[i].side == side && s.fighting(i) {
                s.status[i] = Status::Escaped;
            }
        }
        s.x.left = Some(side);
        true
    }

    /// The deadline of [13.43] at the end of a tactical turn (and when the
    /// duel ends): notes the turn melee was joined, whether the watched
    /// hero stands beside a villain of the other side on his feet (or none
    /// is left), and whether the turns ran out first.
    pub fn watch_deadline<T: Trace>(&self, s: &mut State, trace: &mut T) {
        let Some((h, turns)) = self.special.cards.deadline else {
            return;
        };
        let h = usize::from(h);
        if s.melee_joined && s.x.joined_in == 0 {
            s.x.joined_in = s.turn;
        }
        if s.x.reached || s.x.late {
            return;
        }
        let side = self.fighters[h].side;
        let mut standing = false;
        for v in 0..s.n {
            if self.fighters[v].side == side
                || self.fighters[v].class != Class::Villain
                || !s.fighting(v)
            {
                continue;
            }
            standing = true;
            if s.fighting(h) && adjacent(s.pos[v].0 - s.pos[h].0, s.pos[v].1 - s.pos[h].1) {
                s.x.reached = true;
            }
        }
        if !standing {
            s.x.reached = true;
        }
        if !s.x.reached && s.x.joined_in > 0 && s.turn >= s.x.joined_in + turns {
            s.x.late = true;
            trace.event("JC 13.43 too late", || {
                format!(
                    "{} has not reached the villain {turns} turns after melee was joined",
                    self.fighters[h].name
                )
            });
        }
    }
}
