//! The turn sequence played out: moves, initiative, actions and melee,
//! discovery, and [`Duel::resolve`] to the end of the duel.

use super::state::{Duel, DuelResult, MAX_FIGHTERS, State, Status};
use crate::jc::duel::geometry;
use crate::jc::duel::geometry::{COUNTER, DisplayKind, facing_letter};
use crate::jc::duel::melee::{Blow, Fate, apply_blow};
use crate::jc::duel::policy::{Action, Policy, Task};
use crate::jc::duel::roster::{Class, alertness_letter};
use barsoom_engine::{Dice, Trace};

impl Duel {
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
        let (dx, dy) = geometry::from_frame(0, -COUNTER * n, facing);
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
    duel.resolve(policies, dice, &mut barsoom_engine::NoTrace)
}
