//! The Monte Carlo trial: the melee's state, targets, blows and missile
//! effects, and the `Model` impl.

use crate::wom::tables::Score;
use barsoom_engine::{Dice, ExactSolution, Model, OutputSpec, Trace, TrialResult};

use super::{
    Blow, CompiledShot, FirstStrike, MAX_PER_SIDE, METRIC_ROUNDS, METRIC_SURVIVORS_A, METRIC_TURNS,
    METRIC_WOUNDS_A, MissileEffect, WomDuel, initiative_needs_roll, next_holder, phase_of_round,
};

impl WomDuel {
    /// The living enemy that the `k`-th living figure of a side attacks:
    /// attackers spread over the living enemies in order [multiple 1].
    #[inline]
    fn target(&self, enemy_side: usize, k: usize, melee: &Melee) -> Option<usize> {
        let living = usize::from(melee.living[enemy_side]);
        if living == 0 {
            return None;
        }
        // Most attackers have a target of their own: skip the division.
        let pick = if k < living { k } else { k % living };
        let mut skip = pick;
        for i in self.side(enemy_side) {
            if melee.alive[i] {
                if skip == 0 {
                    return Some(i);
                }
                skip -= 1;
            }
        }
        None
    }

    fn finish(&self, outcome: u16, rounds: u32, melee: &Melee) -> TrialResult {
        let mut metrics = [0u32; barsoom_engine::accumulate::MAX_METRICS];
        metrics[METRIC_ROUNDS] = rounds;
        metrics[METRIC_TURNS] = rounds.div_ceil(2);
        for s in 0..2 {
            metrics[METRIC_WOUNDS_A + s] = self.side(s).map(|i| u32::from(melee.wounds[i])).sum();
            metrics[METRIC_SURVIVORS_A + s] = u32::from(melee.living[s]);
        }
        TrialResult { outcome, metrics }
    }

    /// Applies a melee blow to figure `d`: the common cases without branches.
    #[inline]
    fn strike(&self, d: usize, blow: Blow, melee: &mut Melee) {
        melee.wounds[d] += u8::from(blow == Blow::Wound);
        if (blow == Blow::Kill) | (melee.wounds[d] >= self.fighters[d].wounds_to_kill) {
            melee.remove(d, self.side_of(d), false);
        }
    }

    /// Applies a blow or missile effect to figure `d`.
    #[inline]
    fn apply(&self, d: usize, effect: MissileEffect, melee: &mut Melee) {
        let falls = match effect {
            MissileEffect::Kill => true,
            MissileEffect::Wounds(w) => {
                melee.wounds[d] = melee.wounds[d].saturating_add(w);
                melee.wounds[d] >= self.fighters[d].wounds_to_kill
            }
            MissileEffect::Miss => false,
        };
        if falls {
            melee.remove(d, self.side_of(d), false);
        }
    }

    /// The outcome once side `s` has no figure left fighting, if so.
    #[inline]
    fn eliminated(&self, s: usize, melee: &Melee) -> Option<u16> {
        if melee.living[s] > 0 {
            return None;
        }
        match self.outcome_flee {
            Some(flee) if melee.fled[s] > 0 => Some(flee[s]),
            _ => Some((1 - s) as u16),
        }
    }
}

/// One trial's state of the fight, on the stack.
struct Melee {
    wounds: [u8; 2 * MAX_PER_SIDE],
    alive: [bool; 2 * MAX_PER_SIDE],
    /// Figures still fighting, per side.
    living: [u8; 2],
    /// Figures that ran away, per side.
    fled: [u8; 2],
}

impl Melee {
    fn new(duel: &WomDuel) -> Self {
        let mut alive = [false; 2 * MAX_PER_SIDE];
        alive[..duel.fighters.len()]
            .iter_mut()
            .for_each(|a| *a = true);
        Melee {
            wounds: [0; 2 * MAX_PER_SIDE],
            alive,
            living: [duel.side(0).len() as u8, duel.side(1).len() as u8],
            fled: [0; 2],
        }
    }

    /// Takes figure `i` of side `s` out of the fight (dead, or fled).
    #[inline]
    fn remove(&mut self, i: usize, s: usize, fled: bool) {
        if self.alive[i] {
            self.alive[i] = false;
            self.living[s] -= 1;
            self.fled[s] += u8::from(fled);
        }
    }
}

impl Model for WomDuel {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let mut melee = Melee::new(self);
        let name = |i: usize| &self.fighters[i].name;

        // Opening volley [Missile Fire Procedure; Missile Fire vs. Animals].
        for s in 0..2 {
            let mut k = 0;
            for shooter in self.side(s) {
                if self.fighters[shooter].missile.is_none() {
                    continue;
                }
                let Some(t) = self.target(1 - s, k, &melee) else {
                    break;
                };
                k += 1;
                let shot = self.shot(shooter, t);
                let effect = match shot {
                    CompiledShot::VsMan { .. } => {
                        let (first, second) = (dice.d6(), dice.d6());
                        let effect = shot.effect(first, second, 0);
                        trace.event("WoM missile fire procedure", || {
                            format!("{} fires at {}: first die {first}, second die {second} -> {effect:?}", name(shooter), name(t))
                        });
                        effect
                    }
                    _ => {
                        let roll = dice.three_d6();
                        let effect = shot.effect(0, 0, roll);
                        trace.event("WoM missile fire vs. animals", || {
                            format!(
                                "{} fires at {}: 3d6 = {roll} -> {effect:?}",
                                name(shooter),
                                name(t)
                            )
                        });
                        effect
                    }
                };
                self.apply(t, effect, &mut melee);
            }
            if let Some(outcome) = self.eliminated(1 - s, &melee) {
                return self.finish(outcome, 0, &melee);
            }
        }

        let mut holder = match self.first_strike() {
            FirstStrike::Side(s, case) => {
                trace.event(case, || format!("{} strikes first", self.labels[s]));
                s
            }
            FirstStrike::RollOff => {
                let s = usize::from(dice.coin());
                trace.event("WoM melee: roll-off", || {
                    format!(
                        "nothing decides the first strike; {} wins the roll-off",
                        self.labels[s]
                    )
                });
                s
            }
        };
        let mut run: u8 = 0;
        let mut round: u32 = 0;
        loop {
            round += 1;
            if round > self.max_rounds {
                return self.finish(self.outcome_undecided, round - 1, &melee);
            }
            let phase = phase_of_round(round);
            run += 1;
            let defenders = 1 - holder;
            // [multiple 1] every living attacker strikes.
            let mut k = 0;
            for a in self.side(holder) {
                if !melee.alive[a] {
                    continue;
                }
                let Some(d) = self.target(defenders, k, &melee) else {
                    break;
                };
                k += 1;
                // [animals 1] an animal attacking an animal may panic, once,
                // as the fight opens.
                if round == 1 && self.panic_possible {
                    let score = self.panic(a, d);
                    if score != Score::Never {
                        let roll = dice.three_d6();
                        let panicked = score.met_by(roll as i32);
                        trace.event("WoM animals 1: panic", || {
                            format!("round {round}: {} checks panic against {}: 3d6 = {roll} vs {} -> {}", name(a), name(d), score.printed(), if panicked { "panics and runs" } else { "holds" })
                        });
                        if panicked {
                            melee.remove(a, holder, true);
                            continue;
                        }
                    }
                }
                let profile = self.attack(a, d, phase);
                let roll = dice.three_d6();
                let blow = profile.blow(roll);
                self.strike(d, blow, &mut melee);
                trace.event(if self.animals_involved { "WoM animals 2-4" } else { "WoM men-vs-men 2-3" }, || {
                    format!(
                        "round {round}: {} attacks {}: 3d6 = {roll}{:+} vs wound {} / kill {}{} -> {blow:?} ({} of {} wounds)",
                        name(a),
                        name(d),
                        profile.modifier,
                        profile.wound.printed(),
                        profile.kill.printed(),
                        if profile.kill_modifier != 0 { format!(" ({:+} to kill)", profile.kill_modifier) } else { String::new() },
                        melee.wounds[d],
                        self.fighters[d].wounds_to_kill
                    )
                });
                if melee.alive[d] && profile.stinger != Score::Never {
                    let sting = dice.three_d6();
                    let killed = profile.stings(sting);
                    if killed {
                        melee.remove(d, defenders, false);
                    }
                    trace.event("WoM animals special: stinger", || {
                        format!(
                            "{} stings {}: 3d6 = {sting} vs {} -> {}",
                            name(a),
                            name(d),
                            profile.stinger.printed(),
                            if killed { "kills" } else { "misses" }
                        )
                    });
                }
            }
            for s in [defenders, holder] {
                if let Some(outcome) = self.eliminated(s, &melee) {
                    trace.event("WoM individual combat", || {
                        self.spec.outcomes[usize::from(outcome)].clone()
                    });
                    return self.finish(outcome, round, &melee);
                }
            }
            // [men-vs-men 4; multiple 3] each living defender may seize the
            // initiative for his side.
            let mut seized = false;
            if initiative_needs_roll(run, self.animals_involved, self.successive_limit) {
                let mut k = 0;
                for d in self.side(defenders) {
                    if !melee.alive[d] {
                        continue;
                    }
                    let Some(a) = self.target(holder, k, &melee) else {
                        break;
                    };
                    k += 1;
                    let profile = self.initiative(d, a);
                    let roll = dice.three_d6();
                    let won = profile.seized(roll);
                    trace.event("WoM men-vs-men 4a: initiative", || {
                        format!(
                            "{} rolls for the initiative: 3d6 = {roll}{:+} vs {} -> {}",
                            name(d),
                            profile.modifier,
                            profile.score.printed(),
                            if won { "seized" } else { "not seized" }
                        )
                    });
                    seized |= won;
                }
            } else if !self.animals_involved {
                trace.event("WoM men-vs-men 4b", || {
                    format!(
                        "{} attacked {} times in succession: the initiative passes",
                        self.labels[holder], run
                    )
                });
            }
            (holder, run) = next_holder(
                holder,
                run,
                self.animals_involved,
                self.successive_limit,
                seized,
            );
        }
    }

    fn exact(&self) -> Result<ExactSolution, String> {
        super::exact::solve(self)
    }
}
