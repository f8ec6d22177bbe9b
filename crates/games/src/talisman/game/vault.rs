//! The Vampire's Keep's final space [11:46]: a Vault card is drawn and the
//! player either faces its guardian or takes 3 Bite tokens [20:13]. A
//! guardian beaten gives a roll on the treasure table (the space's own
//! instructions) and then the space chart; the bites send the character
//! by the chart at once, with no treasure. A guardian not beaten keeps
//! the character: after a stand-off it faces a Vault card again on its
//! next turn, after a defeat it goes back toward the entrance [11:40].

use barsoom_engine::model::Trace;

use crate::talisman::combat::Result3;

use super::{Flow, Game, Roll, Source};

/// The Bite tokens taken instead of facing the Vault guardian [11:46].
pub const VAULT_BITES: i32 = 3;

impl Game<'_> {
    /// Draws a Vault card at board `k`'s final space and plays the
    /// player's choice [11:46].
    pub fn vault<R: Roll, T: Trace>(&mut self, seat: usize, k: usize, r: &mut R, trace: &mut T) {
        let rules = self.rules;
        let vault = &rules.expansions[k].routes.vault;
        let guardian = &vault[r.pick(vault.len())];
        let (level, psychic) = (guardian.level, guardian.psychic);
        let face = self.wants_face_guardian(seat, level, psychic, r);
        trace.event("Talisman 11:46", || {
            format!(
                "seat {} draws the Vault card {} ({} {level}): {}",
                seat + 1,
                guardian.name,
                if psychic { "Craft" } else { "Strength" },
                if face {
                    "faces the guardian"
                } else {
                    "takes 3 Bite tokens"
                }
            )
        });
        if !face {
            if self.gain_bites(seat, VAULT_BITES, trace) == Flow::Continue {
                self.leave_board(seat, k, r, trace);
            }
            return;
        }
        let result = self.creature_fight(seat, level, 0, psychic, false, Source::None, r, trace);
        if result != Some(Result3::Win) || !self.players[seat].alive {
            return;
        }
        self.gain_experience(seat, level, psychic);
        let final_space = rules.expansions[k].final_space;
        // The treasure table: the Vault's own instructions.
        self.encounter_space(seat, r, trace);
        if self.players[seat].alive && self.players[seat].hero.space == final_space {
            self.leave_board(seat, k, r, trace);
        }
    }
}
