//! Cards in the villain's city: at the start of each City Sub-sequence, on
//! entering the city, and at a discovery.

use super::phase::Bits;
use crate::jc::event_deck::Effect;
use crate::jc::strategic::city::Flow;
use crate::jc::strategic::consts;
use crate::jc::strategic::consts::NONE;
use crate::jc::strategic::dice::Roller;
use crate::jc::strategic::game::{Context, Game};
use crate::jc::strategic::players;
use crate::jc::strategic::romance::female;
use crate::jc::strategic::tactics;
use barsoom_engine::Trace;

impl Game {
    /// At the start of each City Sub-sequence of hero `p` [8.0 H]: the
    /// count of an unspeakable act, and the cards and tries whose moment is
    /// the city game. Returns the flow if the sub-sequence is cut short.
    pub(crate) fn city_subsequence_begins<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> Option<Flow> {
        // [13.42] the hero's time to reach the captive.
        if self.story.heroes[p].act > 0 {
            self.story.heroes[p].act -= 1;
            if self.story.heroes[p].act == 0 {
                trace.event("JC 13.44 too late", || {
                    format!("{} did not reach the villain in time", self.name(ctx, p))
                });
                self.unspeakable_act_table(ctx, p, r, trace);
            }
        }
        // Stealth (card 21): less discovery, and the area of one quarry.
        if self.story.heroes[p].stealth == 0
            && let Some((n, Effect::Stealth { discovery })) =
                self.hero_card(ctx, p, |e| matches!(e, Effect::Stealth { .. }), r)
            && self.hero_chooses(ctx, p, true, r)
        {
            self.play_card(ctx, p, p, n, trace);
            self.story.heroes[p].stealth = discovery;
            // The villain tells the area of the quarry the hero is not
            // after (or the only one).
            let after = players::quarry(self, p);
            let other = match after {
                Some(q) if self.quarry_here(p, 1 - q) => 1 - q,
                Some(q) => q,
                None => 0,
            };
            let c = &mut self.heroes[p].city;
            c.knows[other] = c.knows[other].max(1);
        }
        self.remorse(ctx, p, r, trace);
        let q = self.villain_player(p);
        let sensible = tactics::villain_sensible(self, p);
        // [13.23] the villain's one try with a female friend.
        if !self.story.heroes[p].villain_city_try && self.story.heroes[p].engaged() {
            let eligible = self
                .treachery_candidates(ctx, p)
                .iter_bits()
                .filter(|&k| female(ctx, k))
                .fold(0u128, |s, k| s | (1u128 << k));
            if eligible != 0 && self.villain_chooses(ctx, p, true, r) {
                self.story.heroes[p].villain_city_try = true;
                if let Some(k) = tactics::pick_character(sensible, eligible, |_| 0, r) {
                    let (lo, hi) = ctx.data.story.romance.villain_city_betrayal;
                    let roll = r.d10();
                    if (i32::from(lo)..=i32::from(hi)).contains(&roll) {
                        if let Some(flow) = self.betray(ctx, p, k, r, trace) {
                            return Some(flow);
                        }
                    } else {
                        // A staunch friend, who also keeps a minor
                        // character of the hero's choice loyal [13.23].
                        self.story.heroes[p].staunch |= 1u128 << k;
                        let minors = self
                            .treachery_candidates(ctx, p)
                            .iter_bits()
                            .filter(|&m| !female(ctx, m))
                            .fold(0u128, |s, m| s | (1u128 << m));
                        if let Some(m) = tactics::pick_character(
                            tactics::hero_sensible(self, p),
                            minors,
                            |m| tactics::fighting_worth(ctx, m),
                            r,
                        ) {
                            self.story.heroes[p].staunch |= 1u128 << m;
                        }
                    }
                }
            }
        }
        // Treachery in the villain's city [12.23].
        let candidates = self.treachery_candidates(ctx, p);
        if let Some(k) = self.treachery_card(ctx, p, candidates, r, trace)
            && let Some(flow) = self.betray(ctx, p, k, r, trace)
        {
            return Some(flow);
        }
        // Flight (cards 35-36).
        if self.villain_can_flee(p)
            && let Some((n, _)) = self.villain_card(ctx, p, |e| *e == Effect::VillainFlees, r)
            && self.villain_chooses(ctx, p, true, r)
        {
            self.play_card(ctx, q, p, n, trace);
            self.villain_flees(ctx, p, r, trace);
            return Some(Flow::Over);
        }
        // The unspeakable act [13.41].
        if self.story.heroes[p].act == 0
            && self.parties[p].holds_captive()
            && let Some((n, _)) = self.villain_card(ctx, p, |e| *e == Effect::UnspeakableAct, r)
            && self.villain_chooses(ctx, p, true, r)
        {
            self.play_card(ctx, q, p, n, trace);
            self.start_unspeakable_act(ctx, p, trace);
        }
        None
    }

    /// Whether quarry `q` of hero `p` is in this city.
    fn quarry_here(&self, p: usize, q: usize) -> bool {
        let party = &self.parties[p];
        if q == consts::CAPTIVE_QUARRY {
            party.holds_captive()
        } else {
            party.villains_len > 0 || party.henchmen_len > 0 || party.surrogate != NONE
        }
    }

    /// Where hero `p` comes into his villain's city, and the cards he plays
    /// then: the secret entrance (no card needed where he knows the way
    /// [17.17]), disguise [15.31]; his per-city marks are reset. Returns the
    /// area.
    pub(crate) fn city_entry<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        foreign: bool,
        r: &mut R,
        trace: &mut T,
    ) -> u8 {
        let s = &mut self.story.heroes[p];
        s.stealth = 0;
        s.army = false;
        s.disguised = false;
        s.act = 0;
        s.doomed = false;
        s.unseen = s.body != NONE;
        if foreign && self.hero_plays(ctx, p, Effect::Disguise, r, trace) {
            self.story.heroes[p].disguised = true;
        }
        let city = self.parties[p].city;
        if self.story.heroes[p].secret_ways & (1u64 << city) != 0
            && let Some(area) = ctx
                .data
                .story
                .events
                .cards
                .iter()
                .find_map(|c| match c.effect {
                    Effect::SecretEntrance { area } => Some(area),
                    _ => None,
                })
        {
            trace.event("JC 17.17 secret way", || {
                format!("{} comes in by the secret way he knows", self.name(ctx, p))
            });
            return area;
        }
        if let Some((n, Effect::SecretEntrance { area })) =
            self.hero_card(ctx, p, |e| matches!(e, Effect::SecretEntrance { .. }), r)
            && self.hero_chooses(ctx, p, true, r)
        {
            self.play_card(ctx, p, p, n, trace);
            self.story.heroes[p].secret_ways |= 1u64 << self.parties[p].city;
            return area;
        }
        ctx.data.city_map.entry
    }

    /// How much easier (positive) or harder (negative) discovery is for
    /// hero `p`: treachery [12.22], stealth (card 21), the army [16.33].
    pub(crate) fn discovery_shift(&self, ctx: &Context, p: usize) -> i32 {
        let s = &self.story.heroes[p];
        let mut shift = 0;
        if s.betrayed_discovery {
            shift += i32::from(ctx.data.story.romance.betrayal_discovery);
        }
        shift -= i32::from(s.stealth);
        if s.army {
            shift -= i32::from(ctx.data.story.friends.army_discovery);
        }
        shift
    }

    /// Whether hero `p` is out of reach of discovery checks: transferred
    /// into another body and no hostile act yet [19.31].
    pub fn unseen(&self, p: usize) -> bool {
        self.story.heroes[p].unseen
    }

    /// Hero `p` is discovered [15.2]: card 43 may let him slip away; the
    /// treachery handicap ends [12.22]; card 57-58 may keep his villain
    /// from fleeing this Turn. Returns whether the discovery is undone.
    pub(crate) fn discovery_averted<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        if self.hero_plays(ctx, p, Effect::AvoidCityGuard, r, trace) {
            return true;
        }
        self.story.heroes[p].betrayed_discovery = false;
        if self.villain_can_flee(p) && self.hero_plays(ctx, p, Effect::VillainStays, r, trace) {
            self.story.heroes[p].villain_stays = self.turn;
        }
        false
    }

    /// Whether a card (cards 57-58) keeps hero `p`'s villain from fleeing
    /// this Strategic Turn.
    pub(crate) fn villain_held_back(&self, p: usize) -> bool {
        self.story.heroes[p].villain_stays == self.turn && self.turn > 0
    }
}
