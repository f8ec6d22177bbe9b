//! The exact solution of a one-against-one `wom.duel` as an absorbing
//! Markov chain. A state is the wounds on each figure, who holds the
//! initiative, how many attacks in succession he has made, the phase of the
//! fight (first round, second round, later: charges and lances depend on
//! it) and whether the opening panic check is still due. Every transition
//! is read from the same profiles the Monte Carlo uses.

use super::{
    Blow, CompiledShot, FirstStrike, MissileEffect, WomDuel, initiative_needs_roll, next_holder,
};
use crate::wom::tables::Score;
use barsoom_engine::math::markov::{AbsorbingChain, Step, solve as solve_chain};
use barsoom_engine::{ExactSolution, Model, rng::sum_distribution};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    wounds: [u8; 2],
    holder: u8,
    run: u8,
    phase: u8,
    panic_pending: bool,
}

struct DuelChain<'a> {
    duel: &'a WomDuel,
    three_d6: Vec<f64>,
}

impl DuelChain<'_> {
    /// Probability that a 3d6 roll satisfies `test`.
    fn probability(&self, test: impl Fn(u32) -> bool) -> f64 {
        (3..=18u32)
            .filter(|r| test(*r))
            .map(|r| self.three_d6[r as usize])
            .sum()
    }

    /// Applies `effect` to figure `d` (0 or 1); `None` if it fell.
    fn hurt(&self, wounds: [u8; 2], d: usize, effect: MissileEffect) -> Option<[u8; 2]> {
        let mut w = wounds;
        match effect {
            MissileEffect::Kill => return None,
            MissileEffect::Wounds(k) => w[d] = w[d].saturating_add(k),
            MissileEffect::Miss => {}
        }
        (w[d] < self.duel.fighters()[d].wounds_to_kill).then_some(w)
    }

    /// Continues after the opening volley into the first strike.
    fn open(&self, p: f64, wounds: [u8; 2], out: &mut Vec<(f64, Step<State>)>) {
        let state = |holder: usize| State {
            wounds,
            holder: holder as u8,
            run: 0,
            phase: 0,
            panic_pending: self.duel.panic_possible(),
        };
        match self.duel.first_strike() {
            FirstStrike::Side(s, _) => out.push((p, Step::State(state(s)))),
            FirstStrike::RollOff => {
                out.push((p / 2.0, Step::State(state(0))));
                out.push((p / 2.0, Step::State(state(1))));
            }
        }
    }

    /// After a blow that left the defender standing: the initiative.
    fn pass_initiative(
        &self,
        p: f64,
        s: &State,
        wounds: [u8; 2],
        out: &mut Vec<(f64, Step<State>)>,
    ) {
        let duel = self.duel;
        let run = s.run + 1;
        let holder = usize::from(s.holder);
        let phase = (s.phase + 1).min(2);
        let next = |seized: bool| {
            let (h, r) = next_holder(
                holder,
                run,
                duel.animals_involved(),
                duel.successive_limit(),
                seized,
            );
            State {
                wounds,
                holder: h as u8,
                run: r,
                phase,
                panic_pending: false,
            }
        };
        if initiative_needs_roll(run, duel.animals_involved(), duel.successive_limit()) {
            let profile = duel.initiative(1 - holder, holder);
            let seize = self.probability(|r| profile.seized(r));
            out.push((p * seize, Step::State(next(true))));
            out.push((p * (1.0 - seize), Step::State(next(false))));
        } else {
            out.push((p, Step::State(next(false))));
        }
    }
}

impl AbsorbingChain for DuelChain<'_> {
    type State = State;

    fn outcomes(&self) -> usize {
        self.duel.spec().outcomes.len()
    }

    fn start(&self, out: &mut Vec<(f64, Step<State>)>) {
        let duel = self.duel;
        let shooter = (0..2).find(|s| !matches!(duel.shot(*s, 1 - *s), CompiledShot::None));
        let Some(s) = shooter else {
            self.open(1.0, [0, 0], out);
            return;
        };
        let shot = duel.shot(s, 1 - s);
        let mut effects: Vec<(f64, MissileEffect)> = Vec::new();
        match shot {
            CompiledShot::VsMan { .. } => {
                for first in 1..=6 {
                    for second in 1..=6 {
                        effects.push((1.0 / 36.0, shot.effect(first, second, 0)));
                    }
                }
            }
            _ => {
                for roll in 3..=18u32 {
                    effects.push((self.three_d6[roll as usize], shot.effect(0, 0, roll)));
                }
            }
        }
        for (p, effect) in effects {
            match self.hurt([0, 0], 1 - s, effect) {
                None => out.push((p, Step::Absorb(s))),
                Some(w) => self.open(p, w, out),
            }
        }
    }

    fn step(&self, s: &State, out: &mut Vec<(f64, Step<State>)>) {
        let duel = self.duel;
        let a = usize::from(s.holder);
        let d = 1 - a;
        let mut mass = 1.0;
        if s.panic_pending && duel.panic(a, d) != Score::Never {
            let score = duel.panic(a, d);
            let panic = self.probability(|r| score.met_by(r as i32));
            if let Some(flee) = duel.flee_outcome(a) {
                out.push((panic, Step::Absorb(flee)));
                mass -= panic;
            }
        }
        let profile = *duel.attack(a, d, usize::from(s.phase));
        let sting = self.probability(|r| profile.stinger.met_by(r as i32));
        for roll in 3..=18u32 {
            let p = mass * self.three_d6[roll as usize];
            let blow = profile.classify(roll);
            let hurt = if blow == Blow::Kill {
                None
            } else {
                self.hurt(s.wounds, d, blow.into())
            };
            match hurt {
                None => out.push((p, Step::Absorb(a))),
                Some(wounds) => {
                    if sting > 0.0 {
                        out.push((p * sting, Step::Absorb(a)));
                    }
                    self.pass_initiative(p * (1.0 - sting), s, wounds, out);
                }
            }
        }
    }
}

/// Solves a one-against-one duel exactly, or says why it cannot.
pub fn solve(duel: &WomDuel) -> Result<ExactSolution, String> {
    let sizes = [duel.side(0).len(), duel.side(1).len()];
    if sizes != [1, 1] {
        return Err(format!(
            "the exact solver handles one figure against one; this scenario fields {} against {} (several opponents are resolved by Monte Carlo only)",
            sizes[0], sizes[1]
        ));
    }
    let chain = DuelChain {
        duel,
        three_d6: sum_distribution(3, 6),
    };
    let solution = solve_chain(&chain).map_err(|e| e.to_string())?;
    Ok(ExactSolution {
        outcome_probabilities: solution.outcome_probabilities,
        metric_means: vec![(0, solution.expected_steps)],
    })
}
