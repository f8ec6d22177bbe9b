//! A master swordsman met inside a larger duel [7.81]: when a hero and a
//! master swordsman come to blows on the tactical display, the blow is not
//! rolled on the melee die but fought out as a `jc.swordsman` bout of
//! maneuver cards ([`Bout::resolve_from`], the one maneuver resolver of the
//! project), in which only the hero takes part.
//!
//! Our reading, case by case:
//! - [7.81] "only the hero takes part": the bout is between the two of them
//!   alone and is played to its end at once, within the action of whoever
//!   initiated the melee (the hero or the master swordsman); nobody else
//!   acts meanwhile, and the rest of the duel goes on afterwards. The hero
//!   holds the First Player deck whoever initiated it.
//! - [7.82-7.85] rounds, the matrix, advantages and the cards laid down by
//!   rank are `jc.swordsman`'s; both sides play the one-round minimax mix
//!   (as the Strategic Game's bouts do), whatever their tactical policy.
//! - [7.86] levels: each enters with his rank's levels (a hero other than
//!   John Carter one more) less the levels he has already lost in this duel,
//!   at least one. A hit in the bout is a level lost on the display too
//!   (his counter values change with it [7.6]); the one brought to no levels
//!   falls, the hero unconscious, the master swordsman dead; the other stays
//!   on his feet at one level above falling at worst.
//! - A berserk hero [13.43] shrugs off every other hit of the bout as he
//!   does the die's, the count running on from the duel into the bout and
//!   back: a hit in the bout costs him a level only where it is the second
//!   of a pair.
//! - The [7.3] modifiers do not enter a bout (the maneuvers stand for all of
//!   it). A bout needs both to hold a sword: an unarmed hero, or one facing
//!   an unarmed master swordsman, melees by the die as usual [7.36].
//! - Who is who comes from the roster's `swordsman` ranks: a hero with a
//!   rank against a non-hero with one. Other characters melee a master
//!   swordsman, and he them, by the die [7.8 introduction].
//! - A scenario may play the arena alternative instead
//!   (`master_swordsmen = "counters"` [7.87]).

use std::fmt;

use super::roster::Class;
use super::sequence::{Duel, Fighter, State, Status};
use crate::jc::swordsman::{Bout, CardPolicy, DEFAULT_MAX_ROUNDS, Swordsman, SwordsmanTables};
use barsoom_engine::{Dice, Trace};

/// The bouts a duel may hold: one per hero and master swordsman of the
/// other side, compiled with the duel (each solves the one-round game).
#[derive(Clone)]
pub struct SwordPlay {
    /// Fighters who take part in some bout (bit per fighter).
    pub members: u32,
    /// `(hero, master swordsman, bout)` by fighter index.
    pairs: Vec<(u8, u8, Bout)>,
}

impl fmt::Debug for SwordPlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SwordPlay")
            .field("members", &self.members)
            .field("pairs", &self.pairs.len())
            .finish()
    }
}

/// Whether `hero` and `master` would meet by maneuver cards [7.81].
fn meet(hero: &Fighter, master: &Fighter) -> bool {
    hero.class == Class::Hero
        && master.class != Class::Hero
        && hero.side != master.side
        && hero.swordsman.is_some()
        && master.swordsman.is_some()
}

impl SwordPlay {
    /// Whether any ranked hero faces a ranked foe among `fighters`.
    pub(crate) fn any_meet(fighters: &[Fighter]) -> bool {
        fighters.iter().any(|h| fighters.iter().any(|m| meet(h, m)))
    }

    /// The bouts of `fighters`, or `None` when no hero with a rank faces a
    /// master swordsman.
    pub(crate) fn compile(
        fighters: &[Fighter],
        tables: &SwordsmanTables,
    ) -> Result<Option<Self>, String> {
        let mut play = SwordPlay {
            members: 0,
            pairs: Vec::new(),
        };
        for (h, hero) in fighters.iter().enumerate() {
            for (m, master) in fighters.iter().enumerate() {
                let (Some(hero_rank), Some(master_rank)) = (hero.swordsman, master.swordsman)
                else {
                    continue;
                };
                if !meet(hero, master) {
                    continue;
                }
                let bout = Bout::new(
                    tables.clone(),
                    [
                        Swordsman {
                            label: hero.name.clone(),
                            rank: hero_rank,
                            hero: true,
                            policy: CardPolicy::Minimax,
                        },
                        Swordsman {
                            label: master.name.clone(),
                            rank: master_rank,
                            hero: false,
                            policy: CardPolicy::Minimax,
                        },
                    ],
                    DEFAULT_MAX_ROUNDS,
                )?;
                play.members |= 1 << h | 1 << m;
                play.pairs.push((h as u8, m as u8, bout));
            }
        }
        Ok((!play.pairs.is_empty()).then_some(play))
    }

    /// The bout between `a` and `t` (either way round) as `(hero, master,
    /// bout)`.
    fn between(&self, a: usize, t: usize) -> Option<(usize, usize, &Bout)> {
        if self.members & (1 << a) == 0 || self.members & (1 << t) == 0 {
            return None;
        }
        self.pairs
            .iter()
            .find(|(h, m, _)| {
                (usize::from(*h), usize::from(*m)) == (a, t)
                    || (usize::from(*h), usize::from(*m)) == (t, a)
            })
            .map(|(h, m, b)| (usize::from(*h), usize::from(*m), b))
    }
}

impl Duel {
    /// The levels fighter `i` brings to a bout [7.86]: his rank's, less
    /// those lost in this duel, at least one.
    pub fn bout_levels(&self, s: &State, i: usize, bout: &Bout, side: usize) -> u8 {
        let f = &self.fighters[i];
        let full = bout
            .tables
            .levels(bout.sides[side].rank, bout.sides[side].hero);
        let lost = (f.levels.len() as u8).saturating_sub(s.level[i]);
        full.saturating_sub(lost).max(1)
    }

    /// If `a`'s melee on `t` is a bout between a hero and a master
    /// swordsman [7.81], fights it out and returns whether the duel is
    /// over; `None` for an ordinary melee.
    pub(crate) fn bout_melee<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        t: usize,
        dice: &mut Dice,
        trace: &mut T,
    ) -> Option<bool> {
        let play = self.special.swordplay.as_ref()?;
        let (h, m, bout) = play.between(a, t)?;
        if s.unarmed & (1 << h | 1 << m) != 0 {
            return None;
        }
        let mut hands = bout.start();
        hands[0].levels = self.bout_levels(s, h, bout, 0);
        hands[1].levels = self.bout_levels(s, m, bout, 1);
        // [13.43] a berserk hero shrugs off every other hit here as on the
        // die, the count running on.
        let berserk = self.special.cards.berserk;
        for (hand, i) in hands.iter_mut().zip([h, m]) {
            hand.berserk = berserk & (1 << i) != 0;
            hand.shrugged = s.x.berserk_hit & (1 << i) != 0;
        }
        let entered = [hands[0].levels, hands[1].levels];
        trace.event("JC 7.81 master swordsman", || {
            format!(
                "{} meets {} by maneuver cards: {} level(s) against {}",
                self.fighters[h].name, self.fighters[m].name, hands[0].levels, hands[1].levels
            )
        });
        let result = bout.resolve_from(hands, dice, trace);
        s.melee_joined = true;
        s.engaged[a] = true;
        s.engaged[t] = true;
        s.meleed |= 1 << a;
        for (i, other, side, taken) in [(h, m, 0, result.hits[1]), (m, h, 1, result.hits[0])] {
            let left = result.levels[side];
            if taken > 0 {
                // Ghek's hold breaks when the held character is struck [19.42].
                s.held &= !(1 << i);
            }
            if berserk & (1 << i) != 0 && taken % 2 == 1 {
                s.x.berserk_hit ^= 1 << i;
            }
            let f = &self.fighters[i];
            if left == 0 {
                s.kills[other] += 1;
                if f.unconscious_at_level_1 {
                    s.level[i] = 1;
                    s.status[i] = Status::Unconscious;
                } else {
                    s.level[i] = 0;
                    s.status[i] = Status::Dead;
                }
            } else {
                let lowest = if f.unconscious_at_level_1 { 2 } else { 1 };
                let lost = entered[side].saturating_sub(left);
                s.level[i] = s.level[i].saturating_sub(lost).max(lowest);
            }
        }
        trace.event("JC 7.86 master swordsman", || {
            let fate = |i: usize| match s.status[i] {
                Status::Dead => "dead".to_string(),
                Status::Unconscious => "unconscious".to_string(),
                _ => format!("level {}", s.level[i]),
            };
            format!(
                "after {} rounds: {} {}, {} {}",
                result.rounds,
                self.fighters[h].name,
                fate(h),
                self.fighters[m].name,
                fate(m)
            )
        });
        Some(
            !self.side_standing(s, self.fighters[t].side)
                || !self.side_standing(s, self.fighters[a].side),
        )
    }
}
