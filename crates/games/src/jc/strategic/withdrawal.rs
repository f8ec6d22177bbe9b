//! A villain who escapes the tactical display during the duel with his
//! hero [10.22]. In the duel with the villain's group (house or palace
//! [15.42]) the villains withdraw by an exit once their side is losing
//! (`jc.duel`'s `withdraw` goal: a villain has lost a level, or the other
//! defenders are all down); the house's two entrances [7.24] and the
//! palace's tower moorings [5.56] let them out, and the palace's secret
//! passageway once the hero's side has opened it [5.54]
//! ([`Game::fight`](super::game::Game::fight)'s `secret_passage`).
//!
//! When one of them got away, the owning Player may have the villain flee
//! the city ([`super::players::flee`]: the sensible Player always does, the
//! random one on a coin) with the usual flight (Destination Chart, the
//! entourage with him, the hero's city game over [10.2-10.3]); a villain
//! in his final destination never moves, and the hero's letting him get
//! away counts as letting him flee there [10.41, 10.42]. A villain who
//! stays hides his group and the captive anew [16.11], since he has left
//! the house he was found in, and the city game goes on. Whatever the
//! choice, only the defenders who died in the duel leave his entourage,
//! slain ([`Game::slay`]).

use super::city::Flow;
use super::consts::NONE;
use super::dice::Roller;
use super::duels::Fought;
use super::game::{Context, Game, Party};
use barsoom_engine::Trace;

impl Game {
    /// After the duel with hero `p`'s villain's group, fought against
    /// `foes` as `party` stood then (fighting villains, surrogate and
    /// henchmen first, in that order, then the guard): if a villain left
    /// the display, the entourage loses its dead and the villain's Player
    /// chooses flight or not [10.22]; `None` when no villain got away.
    pub fn villain_escape<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        party: &Party,
        fought: &Fought,
        r: &mut R,
        trace: &mut T,
    ) -> Option<Flow> {
        let leaders = fighting_villains(ctx, party) + usize::from(party.surrogate != NONE);
        if !fought.foe_escaped[..leaders.min(fought.foes)].contains(&true) {
            return None;
        }
        self.bury_defenders(ctx, p, party, fought);
        self.heroes[p].stats.villain_escapes += 1;
        trace.event("JC 10.22 villain escapes", || {
            format!(
                "{}'s villain leaves the display by an exit ({} of his entourage left)",
                self.name(ctx, p),
                self.parties[p].henchmen_len
            )
        });
        Some(self.villain_escape_choice(ctx, p, fought.won, r, trace))
    }

    /// After the duel with hero `p`'s villain's group (`party` as it stood
    /// then; its fighting villains, surrogate and henchmen came first on
    /// the foes' side, in that order): the defenders who died leave the
    /// entourage, slain, whoever won the duel; those who got away or never
    /// came on the display stay with him [11.31, 15.42].
    pub fn bury_defenders(&mut self, ctx: &Context, p: usize, party: &Party, fought: &Fought) {
        let roster = &ctx.data.roster;
        let fights = |k: u8| roster.characters[usize::from(k)].fights();
        let fighting = fighting_villains(ctx, party);
        let leaders = fighting + usize::from(party.surrogate != NONE);
        let fought_len = fought.foes;
        // Only the dead leave the entourage, slain: those who got away and
        // those who never came on the display stay with him.
        let died = |i: usize| i < fought_len && fought.foe_dead[i];
        let mut next = *party;
        next.villains_len = 0;
        let mut slot = 0;
        for &k in party.villains() {
            // The fighting villains came on the display first, in order.
            let dead = fights(k) && {
                slot += 1;
                died(slot - 1)
            };
            if dead {
                self.slay(ctx, k);
            } else {
                next.villains[usize::from(next.villains_len)] = k;
                next.villains_len += 1;
            }
        }
        if party.surrogate != NONE && died(fighting) {
            self.slay(ctx, party.surrogate);
            next.surrogate = NONE;
        }
        next.henchmen_len = 0;
        for (j, &k) in party.henchmen().iter().enumerate() {
            if died(leaders + j) {
                self.slay(ctx, k);
            } else {
                next.henchmen[usize::from(next.henchmen_len)] = k;
                next.henchmen_len += 1;
            }
        }
        let here = &mut self.parties[p];
        here.villains = next.villains;
        here.villains_len = next.villains_len;
        here.surrogate = next.surrogate;
        here.henchmen = next.henchmen;
        here.henchmen_len = next.henchmen_len;
    }

    /// The owning Player's choice after his villain got off the display
    /// [10.22]: flee the city (the hero, beaten, is then interned, as after
    /// a discovery [15.23]) or stay and hide anew.
    fn villain_escape_choice<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        won: bool,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        let flees = self.villain_can_flee(p) && self.decide_flight(ctx, p, r);
        if self.parties[p].at_final {
            // [10.41] he cannot leave his final destination.
            self.final_destination_flight(ctx, p, r, trace);
        }
        if flees {
            self.heroes[p].stats.escape_flights += 1;
            self.villain_flees(ctx, p, r, trace);
            if !won {
                self.intern(ctx, p, r, trace);
            }
            return Flow::Over;
        }
        if !won {
            return self.imprison(ctx, p, r, trace);
        }
        if !self.parties[p].at_final {
            self.hide_anew(ctx, p, r);
            trace.event("JC 10.22 villain stays", || {
                format!(
                    "{}'s villain stays in the city and hides anew [16.11]",
                    self.name(ctx, p)
                )
            });
        }
        Flow::Continue
    }
}

/// How many of `party`'s villains fight (they come first on the display).
fn fighting_villains(ctx: &Context, party: &Party) -> usize {
    let roster = &ctx.data.roster;
    party
        .villains()
        .iter()
        .filter(|&&k| roster.characters[usize::from(k)].fights())
        .count()
}
