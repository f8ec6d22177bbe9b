//! A [`Roller`] whose every chance is scripted, for worked examples and
//! tests of the Strategic Game: dice, picks (0 once none are left), cards,
//! the winners of duels and bouts, and the arena's games of Jetan. Running
//! out of a scripted die, card, duel, bout or game panics, so a test that
//! asks for more chances than it scripted fails.

use std::collections::VecDeque;

use super::dice::Roller;
use crate::jc::deck::DeckState;
use crate::jc::duel::cards::Cards;
use crate::jc::duel::policy::Policy;
use crate::jc::duel::roster::Class;
use crate::jc::duel::sequence::{Duel, DuelResult, MAX_FIGHTERS, Status};
use crate::jc::swordsman::{Bout, BoutResult};
use crate::jetan::players::Player as JetanPlayer;
use barsoom_engine::{Roll, ScriptedDice};

/// Scripted chances, used up in order.
#[derive(Debug, Default, Clone)]
pub struct Script {
    /// Six-sided dice, and the uniform picks (0 when none are left).
    pub d6: ScriptedDice,
    /// Ten-sided dice.
    pub d10: ScriptedDice,
    /// Movement and acquisition cards (indices into their decks).
    pub cards: VecDeque<usize>,
    /// Duel winners: whether the first side (the hero's) wins.
    pub duels: VecDeque<bool>,
    /// Bout winners: whether the hero wins.
    pub bouts: VecDeque<bool>,
    /// Arena games of Jetan [17.43]: whether the hero wins, `None` for a
    /// drawn or unfinished game.
    pub jetan: VecDeque<Option<bool>>,
    /// Per lost duel, whether the hero's side left it by card 24 (no when
    /// none is left).
    pub left: VecDeque<bool>,
    /// The duel rules of [`crate::jc::duel::cards`] in each duel
    /// fought, in order.
    pub seen: Vec<Cards>,
    /// Per duel, in order, whether the second side's villains got off the
    /// display [10.22] (they then stand escaped at their top levels); a
    /// duel with none left scripted has no escape.
    pub escapes: VecDeque<bool>,
    /// Per duel, in order, the fighters (bit per index in the duel, the
    /// hero first) of the winning side who die all the same; a duel with
    /// none left scripted costs the winners nobody.
    pub fallen: VecDeque<u32>,
    /// The roster ids of the second side of each duel fought, in order.
    pub foes: Vec<Vec<String>>,
    /// Each duel fought, as compiled, in order.
    pub fought: Vec<Duel>,
}

impl Script {
    /// Adds ten-sided dice.
    pub fn d10s(mut self, rolls: &[i32]) -> Self {
        self.d10 = self.d10.then(&faces(rolls));
        self
    }

    /// Adds six-sided dice.
    pub fn d6s(mut self, rolls: &[i32]) -> Self {
        self.d6 = self.d6.then(&faces(rolls));
        self
    }

    /// Adds picks.
    pub fn picks(mut self, picks: &[usize]) -> Self {
        self.d6 = self.d6.with_picks(picks);
        self
    }

    /// Adds cards.
    pub fn cards(mut self, cards: &[usize]) -> Self {
        self.cards.extend(cards);
        self
    }

    /// Adds the results of arena games of Jetan.
    pub fn jetan_games(mut self, results: &[Option<bool>]) -> Self {
        self.jetan.extend(results);
        self
    }

    /// Adds duel winners.
    pub fn duels(mut self, won: &[bool]) -> Self {
        self.duels.extend(won);
        self
    }

    /// Adds bout winners.
    pub fn bouts(mut self, won: &[bool]) -> Self {
        self.bouts.extend(won);
        self
    }

    /// Adds whether lost duels end with the hero's side leaving by card 24.
    pub fn left(mut self, left: &[bool]) -> Self {
        self.left.extend(left);
        self
    }

    /// Adds villains' escapes from the display, one per duel.
    pub fn escapes(mut self, escaped: &[bool]) -> Self {
        self.escapes.extend(escaped);
        self
    }

    /// Adds, per duel, the winners who die all the same (bit per fighter).
    pub fn fallen(mut self, fallen: &[u32]) -> Self {
        self.fallen.extend(fallen);
        self
    }

    /// Scripted picks not used yet.
    pub fn picks_left(&self) -> usize {
        self.d6.picks_left()
    }

    /// Whether every scripted die, card, duel and bout has been used.
    pub fn done(&self) -> bool {
        self.d6.all_used()
            && self.d10.all_used()
            && self.cards.is_empty()
            && self.duels.is_empty()
            && self.bouts.is_empty()
            && self.jetan.is_empty()
            && self.left.is_empty()
            && self.escapes.is_empty()
            && self.fallen.is_empty()
    }
}

/// Scripted rolls as the engine's dice take them.
fn faces(rolls: &[i32]) -> Vec<u32> {
    rolls
        .iter()
        .map(|&r| u32::try_from(r).expect("a scripted face is positive"))
        .collect()
}

/// Six-sided and ten-sided dice come from their own scripts, so a test
/// lists each kind in the order the rules roll it.
impl Roll for Script {
    fn die(&mut self, sides: u32) -> u32 {
        match sides {
            6 => self.d6.die(6),
            10 => self.d10.die(10),
            _ => panic!("the Strategic Game rolls no d{sides}"),
        }
    }

    fn pick(&mut self, n: usize) -> usize {
        self.d6.pick(n)
    }
}

impl Roller for Script {
    fn card(&mut self, _deck: &mut DeckState) -> usize {
        self.cards.pop_front().expect("a scripted card")
    }

    /// The winners stand at their top levels (those scripted to fall all
    /// the same are dead); the losers are dead, or
    /// unconscious at level 1 if they would fall unconscious, or gone off
    /// the display at their top levels if the hero's side left by card 24;
    /// villains of the second side scripted to escape stand escaped at
    /// their top levels.
    fn duel(&mut self, duel: &Duel, _policies: &[Policy; 2]) -> DuelResult {
        self.seen.push(duel.special.cards);
        self.fought.push(duel.clone());
        self.foes.push(
            duel.fighters
                .iter()
                .filter(|f| f.side == 1)
                .map(|f| f.id.clone())
                .collect(),
        );
        let won = self.duels.pop_front().expect("a scripted duel");
        let left = !won && self.left.pop_front().unwrap_or(false);
        let escaped = self.escapes.pop_front().unwrap_or(false);
        let fallen = self.fallen.pop_front().unwrap_or(0);
        let winner = if won { 0u8 } else { 1 };
        let mut level = [0u8; MAX_FIGHTERS];
        let mut status = [Status::Dead; MAX_FIGHTERS];
        for (i, f) in duel.fighters.iter().enumerate() {
            if f.side == winner {
                if fallen & (1 << i) == 0 {
                    level[i] = f.top_level;
                    status[i] = Status::Fighting;
                }
            } else if left {
                level[i] = f.top_level;
                status[i] = Status::Escaped;
            } else if f.unconscious_at_level_1 {
                level[i] = 1;
                status[i] = Status::Unconscious;
            }
            if escaped && f.side == 1 && f.class == Class::Villain {
                level[i] = f.top_level;
                status[i] = Status::Escaped;
            }
        }
        DuelResult {
            winner: Some(winner),
            turns: 3,
            survivors: [0; 2],
            levels_lost: [0; 2],
            heroes_unconscious: [0; 2],
            kills: [0; MAX_FIGHTERS],
            deciding_blow: None,
            discovered_in: 0,
            escaped: [0; 2],
            left: left.then_some(0),
            prisoners_freed: 0,
            rescued: 0,
            level,
            status,
            late: false,
        }
    }

    fn bout(&mut self, _bout: &Bout) -> BoutResult {
        let won = self.bouts.pop_front().expect("a scripted bout");
        BoutResult {
            outcome: if won { 0 } else { 1 },
            rounds: 1,
            levels: [1, 0],
            hits: [1, 0],
            advantages: [0, 0],
        }
    }

    fn jetan(&mut self, _players: [JetanPlayer; 2]) -> Option<bool> {
        self.jetan.pop_front().expect("a scripted game of Jetan")
    }
}
