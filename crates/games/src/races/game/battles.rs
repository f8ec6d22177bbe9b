//! The battle phase: leaders in charge (fixed, greedy or random) and the
//! battles between stacks [Leaders], [Battle Phase].

use crate::races::Roll;
use crate::races::battle::{Odds, Verdict, choose_leader, fight, odds, roll_attribute};
use crate::races::map::NO_HEX;
use barsoom_engine::Trace;

use super::{Ending, Game, MAX_LEADERS, NONE, Policy};

impl<'m> Game<'m> {
    pub(super) fn fixed_charge(&self, h: u16) -> Option<Option<u8>> {
        (self.b.charge_phase[usize::from(h)] == self.b.phase).then(|| {
            match self.b.charge[usize::from(h)] {
                NONE => None,
                a => Some(a),
            }
        })
    }

    /// The greedy choice of leader in charge of the stack in `h` against the
    /// stack in `enemy` [Leaders].
    fn greedy_charge(
        &self,
        h: u16,
        enemy: u16,
        as_attacker: bool,
        enemy_fixed: Option<Option<u8>>,
    ) -> Option<u8> {
        let mut own = [0u8; MAX_LEADERS];
        let mut theirs = [0u8; MAX_LEADERS];
        let n_own = self.leaders_in(h, &mut own);
        if n_own == 0 {
            return None;
        }
        let n_theirs = self.leaders_in(enemy, &mut theirs);
        choose_leader(
            &self.warband_scores(self.b.top[usize::from(h)], None),
            &own[..n_own],
            &self.warband_scores(self.b.top[usize::from(enemy)], None),
            &theirs[..n_theirs],
            enemy_fixed,
            as_attacker,
            self.m.leader_bonus,
            &self.m.weights,
        )
    }

    /// Fixes (once per battle phase) and returns the leader in charge of the
    /// stack in `h`, before the key attribute is rolled [Leaders].
    fn decide_charge<R: Roll>(
        &mut self,
        h: u16,
        enemy: u16,
        as_attacker: bool,
        dice: &mut R,
    ) -> Option<u8> {
        if let Some(c) = self.fixed_charge(h) {
            return c;
        }
        let choice = match self.m.seats[usize::from(self.owner(h))].player.policy() {
            Policy::Greedy { .. } => {
                self.greedy_charge(h, enemy, as_attacker, self.fixed_charge(enemy))
            }
            Policy::Random => {
                let mut own = [0u8; MAX_LEADERS];
                let n = self.leaders_in(h, &mut own);
                (n > 0).then(|| own[(dice.die(n as u32) - 1) as usize])
            }
        };
        self.fix_charge(h, choice);
        choice
    }

    /// The exact odds the greedy attacker expects from the stack in `h`
    /// attacking the one in `target`, with the leaders it and a greedy
    /// defender would put in charge.
    pub fn projected_odds(&self, h: u16, target: u16) -> Odds {
        self.projection(h, target).0
    }

    /// [`Game::projected_odds`] with the leaders it projects in charge of
    /// the attacker and the defender.
    fn projection(&self, h: u16, target: u16) -> (Odds, Option<u8>, Option<u8>) {
        let a = self
            .fixed_charge(h)
            .unwrap_or_else(|| self.greedy_charge(h, target, true, self.fixed_charge(target)));
        let d = self
            .fixed_charge(target)
            .unwrap_or_else(|| self.greedy_charge(target, h, false, Some(a)));
        let odds = odds(
            &self.warband_scores(self.b.top[usize::from(h)], a),
            &self.warband_scores(self.b.top[usize::from(target)], d),
            &self.m.weights,
        );
        (odds, a, d)
    }

    /// Fixes `choice` as the leader in charge of the stack in `h` for this
    /// battle phase.
    fn fix_charge(&mut self, h: u16, choice: Option<u8>) {
        self.b.charge_phase[usize::from(h)] = self.b.phase;
        self.b.charge[usize::from(h)] = choice.unwrap_or(NONE);
    }

    /// The top warband of `h` attacks the top warband of `target` [Battle
    /// Phase]: leaders in charge first, then the key attribute.
    pub fn battle<R: Roll, T: Trace>(
        &mut self,
        h: u16,
        target: u16,
        dice: &mut R,
        trace: &mut T,
    ) -> Verdict {
        self.battle_projected(h, target, None, dice, trace)
    }

    /// [`Game::battle`]; `projected`: the leaders a greedy attacker's
    /// [`Game::projection`] put in charge of both sides, the choices
    /// `decide_charge` would make again for it and a greedy defender.
    fn battle_projected<R: Roll, T: Trace>(
        &mut self,
        h: u16,
        target: u16,
        projected: Option<(Option<u8>, Option<u8>)>,
        dice: &mut R,
        trace: &mut T,
    ) -> Verdict {
        let (a, d) = (self.b.top[usize::from(h)], self.b.top[usize::from(target)]);
        let (la, ld) = match projected {
            Some((la, ld)) => {
                self.fix_charge(h, la);
                let defender = self.m.seats[usize::from(self.owner(target))].player;
                let ld = match defender.policy() {
                    Policy::Greedy { .. } => {
                        self.fix_charge(target, ld);
                        ld
                    }
                    Policy::Random => self.decide_charge(target, h, false, dice),
                };
                (la, ld)
            }
            None => {
                let la = self.decide_charge(h, target, true, dice);
                (la, self.decide_charge(target, h, false, dice))
            }
        };
        let sa = self.warband_scores(a, la);
        let sd = self.warband_scores(d, ld);
        let key = roll_attribute(dice, &self.m.random_attribute);
        let verdict = fight(&sa, &sd, key);
        self.battles += 1;
        self.b.warbands[usize::from(a)].attacked = true;
        trace.event("six races [Battle Phase]", || {
            let m = self.m;
            format!(
                "{} (hex {h}) attacks {} (hex {target}): {} {} against {}: {verdict:?}",
                m.kind_names[usize::from(self.b.warbands[usize::from(a)].kind)],
                m.kind_names[usize::from(self.b.warbands[usize::from(d)].kind)],
                m.attribute_names[key],
                sa[key],
                sd[key]
            )
        });
        match verdict {
            Verdict::AttackerWins => self.destroy(d),
            Verdict::DefenderWins => self.destroy(a),
            Verdict::BothDestroyed => {
                self.destroy(a);
                self.destroy(d);
            }
        }
        verdict
    }

    /// Player `p`'s battle phase. Each stack's top warband may attack an
    /// adjacent enemy top warband once; when an attacker is destroyed the
    /// next warband of its stack may attack [Battle Phase]. Whether it
    /// attacks, and whom, is a decision (`attack`). Returns the end of the
    /// game if it came.
    pub fn battle_phase<R: Roll, T: Trace>(
        &mut self,
        p: u8,
        dice: &mut R,
        trace: &mut T,
    ) -> Option<Ending> {
        self.b.next_phase();
        // Only stacks next to an enemy now can attack in this phase
        // (enemy stacks only disappear in it).
        let policy = self.m.seats[usize::from(p)].player.policy();
        let near_enemy = self.m.map.spread_any(&self.enemy_hexes(p));
        let n = self.stacks_of(p, &near_enemy);
        for i in 0..n {
            let h = self.b.stack_hexes[i];
            loop {
                let w = self.b.top[usize::from(h)];
                if w == NONE || self.b.warbands[usize::from(w)].attacked {
                    break;
                }
                let mut targets = [NO_HEX; 6];
                let mut k = 0;
                for nb in self.m.map.neighbours[usize::from(h)] {
                    if nb != NO_HEX {
                        let o = self.owner(nb);
                        if o != NONE && o != p {
                            targets[k] = nb;
                            k += 1;
                        }
                    }
                }
                if k == 0 {
                    break;
                }
                // Whether to attack, and whom: a decision among the targets
                // and holding back (`NO_HEX`). The greedy base's choice is
                // the first option (ties go its way), with the leaders it
                // projects in charge of each side.
                let mut options = [NO_HEX; 7];
                let mut leaders = [(None, None); 6];
                let base_first = matches!(policy, Policy::Greedy { .. });
                if let Policy::Greedy { threshold } = policy {
                    // A stalled player fights at any odds (see
                    // `movement_phase`): the target it most likely
                    // destroys, if it can destroy it at all.
                    let threshold = if self.stalled { 0.0 } else { threshold };
                    let mut best: Option<(f64, usize)> = None;
                    for (i, t) in targets[..k].iter().enumerate() {
                        let (odds, a, d) = self.projection(h, *t);
                        leaders[i] = (a, d);
                        let win = if self.stalled {
                            odds.attacker + odds.both
                        } else {
                            odds.attacker
                        };
                        if best.is_none_or(|(b, _)| win > b) {
                            best = Some((win, i));
                        }
                    }
                    let base = best.filter(|(win, _)| *win > threshold).map(|(_, i)| i);
                    // The base's option first, then the others in order.
                    let mut n = 1;
                    options[0] = base.map_or(NO_HEX, |i| targets[i]);
                    for (i, t) in targets[..k].iter().enumerate() {
                        if base != Some(i) {
                            options[n] = *t;
                            n += 1;
                        }
                    }
                    if base.is_some() {
                        options[n] = NO_HEX;
                    }
                } else {
                    options[..k].copy_from_slice(&targets[..k]);
                }
                let c = self.decide(
                    p,
                    "attack",
                    k + 1,
                    |_, r| {
                        if base_first {
                            0
                        } else if r.die(2) == 1 {
                            (r.die(k as u32) - 1) as usize
                        } else {
                            k
                        }
                    },
                    dice,
                );
                let target = options[c];
                if target == NO_HEX {
                    break;
                }
                let projected = base_first.then(|| {
                    let i = targets[..k].iter().position(|t| *t == target).unwrap_or(0);
                    leaders[i]
                });
                let verdict = self.battle_projected(h, target, projected, dice, trace);
                if self.players_left() <= 1 {
                    return Some(self.annihilation());
                }
                if verdict == Verdict::AttackerWins {
                    break;
                }
            }
        }
        None
    }
}
