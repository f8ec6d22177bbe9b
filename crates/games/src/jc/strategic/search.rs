//! `jc.strategic` on the shared search player ([`barsoom_engine::search`]):
//! the decisions a search player searches, what it may not see, how far a
//! playout looks and how a position is scored there.
//!
//! **Decisions searched.** A player's hero's movement out of a city (stay,
//! or each open line on his conveyance or on foot [9.1]) and in transit
//! (onward or back [9.13]),
//! what he seeks in a city [14.0], whether he leaves a villain's city with
//! the captive [15.26], takes Tjanath's pit [9.56] or challenges his
//! villain after an arena win [17.33], and each optional play for his hero
//! (a Random Event card at its moment [18.16], a special character's
//! service [19.3, 19.4]); and, as the villain of another player's hero,
//! whether that villain flees when he may [10.22, 15.22] and each optional
//! villain play against that hero (treachery, the assassin, abduction and
//! the other villain cards [18.2]). Everything else (city movement, where
//! the quarries hide, which character a card falls on, the romance rolls)
//! is played by the search player's base policy.
//!
//! **Hidden from a player** and re-sampled before each playout: the order
//! of the movement and acquisition decks, the Random Event deck, the
//! face-down pile and the other players' hands (pooled and dealt again in
//! the same numbers) [9.0, 14.0, 18.11, 18.13], and where each villain's
//! group and captive hide in a city [16.11] (except the quarries the
//! player himself hid, as the villain): each quarry's unknown parts (area,
//! house, room) are drawn again among the places a villain may use, given
//! what the hunting hero has learnt [16.23-16.25] and the houses he has
//! found empty [16.42].

use barsoom_engine::search::{self, Branching, SearchSlot, Searchable};
use barsoom_engine::{Dice, NoTrace, Roll};

use super::consts::MAX_PLAYERS;
use super::dice::Roller;
use super::game::{Context, Game, Place};
use super::players::{self, Move};
use super::tactics;
use crate::jc::map::WALK;

/// Strategic Turns a playout plays before the evaluation scores it.
pub const HORIZON_TURNS: u32 = 6;
/// The standing is in log-odds of becoming champion: its weights are a
/// conditional logit fitted to where 3,000 games of sensible players
/// stood (twelve positions a game, seed 11) against who became champion
/// (docs/findings/jc.strategic.md). Per condition of victory fulfilled
/// [20.51-20.53]:
const PER_CONDITION: f64 = 3.37;
/// For carrying the rescued captive while love is still to come.
const CARRYING_CAPTIVE: f64 = 1.32;
/// Lost per villain who fights, and per henchman, still alive.
const PER_VILLAIN: f64 = 0.20;
const PER_HENCHMAN: f64 = 0.016;
/// For being in play.
const IN_PLAY: f64 = 0.035;
/// Lost per Strategic Turn a hero still needs to reach his goal, counted
/// up to [`FAR`] turns (a hero out of play counts as that far).
const PER_TURN_AWAY: f64 = 0.073;
const FAR: f64 = 20.0;

/// The most movement choices a hero has at once (stay, and each line out
/// of a city on his conveyance and on foot).
const MAX_MOVES: usize = 64;

/// The name of the onward-or-back decision in transit [9.13].
const TRANSIT: &str = "transit";

impl Game {
    /// Whether every other player's hero has fulfilled glory or love or is
    /// out of play [20.4] (never in a game of one).
    fn rivals_finished(&self, p: usize) -> bool {
        self.players > 1
            && self.heroes[..usize::from(self.players)]
                .iter()
                .enumerate()
                .all(|(q, h)| q == p || h.finished())
    }

    /// Whether any player searches (else the decisions are the policies'
    /// own calls, exactly as without a search player).
    fn searching(&self) -> bool {
        self.playouts[..usize::from(self.players)]
            .iter()
            .any(Option::is_some)
    }

    /// Hero `p`'s movement [9.1]: his policy's, or a search player's choice
    /// among every legal move out of a city, and in transit between onward
    /// and back [9.13]; never back to `avoid` [9.43].
    pub(crate) fn decide_move<R: Roller>(
        &mut self,
        ctx: &Context,
        p: usize,
        avoid: u8,
        r: &mut R,
    ) -> Move {
        if !self.searching() {
            return players::choose_move_avoiding(ctx, self, p, avoid, r);
        }
        let here = match self.heroes[p].place {
            Place::City(here) => {
                self.search_turned_back[p] = None;
                here
            }
            Place::Transit(t) => {
                // Onward, or back unless that is where he may not go. On a
                // journey his own search turned him onto, going on is the
                // default: the base policy heads elsewhere, and letting it
                // turn him round again on a level estimate had a beaten
                // John Carter shuttle between Panar and Horz to the turn
                // limit.
                let n = if t.from == avoid { 1 } else { 2 };
                let held = self.search_turned_back[p] == Some((t.from, t.to));
                let mut base_back = false;
                let k = search::decide(
                    self,
                    *ctx,
                    p,
                    TRANSIT,
                    n,
                    |g, r| {
                        base_back =
                            players::choose_move_avoiding(ctx, g, p, avoid, r) == Move::Back;
                        usize::from(base_back && !held)
                    },
                    r,
                );
                let back = k.min(n - 1) == 1;
                if back && !base_back {
                    self.search_turned_back[p] = Some((t.to, t.from));
                }
                return if back { Move::Back } else { Move::Onward };
            }
        };
        let mut moves = [Move::Stay; MAX_MOVES];
        let mut n = self.moves_from(ctx, p, here, avoid, &mut moves);
        let mut base_move = Move::Stay;
        let k = search::decide(
            self,
            *ctx,
            p,
            "move",
            n,
            |g, r| {
                base_move = players::choose_move_avoiding(ctx, g, p, avoid, r);
                moves[..n].iter().position(|&m| m == base_move).unwrap_or(n)
            },
            r,
        );
        if k >= n && n < MAX_MOVES {
            // The policy's move is not among those listed (a line it will
            // find closed): it stands as its own choice.
            moves[n] = base_move;
            n += 1;
        }
        moves[k.min(n - 1)]
    }

    /// Every move hero `p` may make from city `here`, into `out`: stay, and
    /// each open line, on his conveyance and (when mounted) on foot, but
    /// none to `avoid`.
    fn moves_from(
        &self,
        ctx: &Context,
        p: usize,
        here: u8,
        avoid: u8,
        out: &mut [Move; MAX_MOVES],
    ) -> usize {
        let h = &self.heroes[p];
        let map = &ctx.data.map;
        out[0] = Move::Stay;
        let mut n = 1;
        let (a, b) = map.from_range[usize::from(here)];
        let mounted = h.conveyance != WALK;
        let ways = [(h.conveyance, false), (WALK, true)];
        for (conveyance, dismount) in ways.into_iter().take(1 + usize::from(mounted)) {
            for route in a..b {
                let rt = &map.routes[usize::from(route)];
                let open = self.route_open(ctx, rt, conveyance);
                // A line open to his mount is listed once, mounted.
                let listed = dismount && self.route_open(ctx, rt, h.conveyance);
                if rt.to == avoid || !open || listed || n == MAX_MOVES {
                    continue;
                }
                out[n] = Move::Go { route, dismount };
                n += 1;
            }
        }
        n
    }

    /// What hero `p` seeks in his city [14.0, 14.22], as item bits: his
    /// policy's, or a search player's choice among nothing and each item
    /// he lacks that the city has.
    pub(crate) fn decide_item<R: Roller>(&mut self, ctx: &Context, p: usize, r: &mut R) -> u8 {
        if !self.searching() {
            return players::seek_item(ctx, self, p, r);
        }
        // Nothing, or any item he lacks that the city has.
        let (lacked, len) = players::items_lacked(ctx, self, p);
        let mut items = [0u8; 4];
        items[1..].copy_from_slice(&lacked);
        let n = 1 + len;
        let k = search::decide(
            self,
            *ctx,
            p,
            "acquisition",
            n,
            |g, r| {
                let wanted = players::seek_item(ctx, g, p, r);
                items[..n].iter().position(|&i| i == wanted).unwrap_or(0)
            },
            r,
        );
        items[k.min(n - 1)]
    }

    /// A yes-or-no decision of player `seat` (`kind` names it in the
    /// trace): `policy`'s answer, or a search player's.
    pub(crate) fn decide_whether<R: Roller>(
        &mut self,
        ctx: &Context,
        seat: usize,
        kind: &'static str,
        policy: impl FnOnce(&Game, &mut R) -> bool,
        r: &mut R,
    ) -> bool {
        if !self.searching() {
            return policy(self, r);
        }
        search::decide(
            self,
            *ctx,
            seat,
            kind,
            2,
            |g, r| usize::from(policy(g, r)),
            r,
        ) == 1
    }

    /// Whether hero `p`'s villain flees when he may [10.22, 15.22, 17.33]:
    /// his controlling player's decision.
    pub(crate) fn decide_flight<R: Roller>(&mut self, ctx: &Context, p: usize, r: &mut R) -> bool {
        self.villain_decides(ctx, p, "flee", |g, r| players::flee(g, p, r), r)
    }

    /// A yes-or-no decision about hero `p`'s villain: his controlling
    /// player's (`kind` names it in the trace).
    fn villain_decides<R: Roller>(
        &mut self,
        ctx: &Context,
        p: usize,
        kind: &'static str,
        policy: impl FnOnce(&Game, &mut R) -> bool,
        r: &mut R,
    ) -> bool {
        let controller = usize::from(self.parties[p].controller);
        self.decide_whether(ctx, controller, kind, policy, r)
    }

    /// Whether hero `p`'s player makes an optional play for his hero (a
    /// card, a companion's change): `sensible` is the sensible policy's
    /// answer ([`tactics::hero_wants`]), a search player's is searched.
    pub(crate) fn hero_chooses<R: Roller>(
        &mut self,
        ctx: &Context,
        p: usize,
        sensible: bool,
        r: &mut R,
    ) -> bool {
        self.decide_whether(
            ctx,
            p,
            "hero's play",
            |g, r| tactics::hero_wants(g, p, sensible, r),
            r,
        )
    }

    /// Whether the player of hero `p`'s villain makes an optional villain
    /// play against him ([`tactics::villain_wants`]), searched for a search
    /// player.
    pub(crate) fn villain_chooses<R: Roller>(
        &mut self,
        ctx: &Context,
        p: usize,
        sensible: bool,
        r: &mut R,
    ) -> bool {
        self.villain_decides(
            ctx,
            p,
            "villain's play",
            |g, r| tactics::villain_wants(g, p, sensible, r),
            r,
        )
    }

    /// Hero `p`'s standing for the evaluation at a playout's horizon, in
    /// log-odds. What he knows of his quarry's hiding place is not in it:
    /// fitted with it, the clues weighed -0.26 and predicted the champion
    /// no better (log-loss 0.3600 against 0.3609 a position).
    fn standing(&self, ctx: &Context, p: usize) -> f64 {
        let h = &self.heroes[p];
        let (conditions, _) = self.conditions(p);
        let mut standing = PER_CONDITION * f64::from(conditions);
        if h.glory_at == 0 {
            let party = &self.parties[p];
            let fighting = party
                .villains()
                .iter()
                .filter(|&&k| ctx.data.roster.characters[usize::from(k)].fights())
                .count();
            standing -=
                PER_VILLAIN * fighting as f64 + PER_HENCHMAN * f64::from(party.henchmen_len);
        }
        if !h.in_play() {
            // Out of play, he will get no nearer: as far as can be.
            return standing - PER_TURN_AWAY * FAR;
        }
        standing += IN_PLAY;
        let carries = self.captive_of(ctx, p).is_some_and(|k| h.has(k));
        if carries && h.love_at == 0 && !h.love_barred {
            standing += CARRYING_CAPTIVE;
        }
        if let Some(away) = players::turns_to_goal(ctx, self, p) {
            standing -= PER_TURN_AWAY * away.min(FAR);
        }
        standing
    }

    /// Re-draws where each villain's group and captive hide [16.11] that
    /// `seat` did not hide himself, keeping what the hunting hero knows.
    fn rehide<R: Roll>(&mut self, ctx: &Context, seat: usize, r: &mut R) {
        let map = &ctx.data.city_map;
        for q in 0..usize::from(self.players) {
            let party = self.parties[q];
            if !party.hidden || usize::from(party.controller) == seat {
                continue;
            }
            let hunter = &self.heroes[q];
            let hunting = hunter.city.active && hunter.city() == Some(party.city);
            let mut spots = party.spots;
            for quarry in 0..2 {
                let knows = if hunting {
                    hunter.city.knows[quarry]
                } else {
                    0
                };
                let empty = if hunting {
                    hunter.city.empty[quarry]
                } else {
                    0
                };
                let other = spots[1 - quarry];
                let mut spot = spots[quarry];
                if knows == 0 {
                    let areas = (0..map.areas.len() as u8).filter(|&a| {
                        a != map.prison
                            && map.areas[usize::from(a)].houses > 0
                            && (quarry != super::consts::VILLAIN_QUARRY
                                || !ctx.data.deserted_area(party.city, a))
                    });
                    let count = areas.clone().count();
                    if count == 0 {
                        continue;
                    }
                    let pick = r.pick(count);
                    spot.area = areas.clone().nth(pick).unwrap_or(spot.area);
                }
                let area = &map.areas[usize::from(spot.area)];
                if knows <= 1 {
                    let free = |house: u8| {
                        empty & (1u128 << (u32::from(spot.area) * 8 + u32::from(house))) == 0
                            && !(other.area == spot.area && other.house == house)
                    };
                    let count = (0..area.houses).filter(|&h| free(h)).count();
                    if count > 0 {
                        let pick = r.pick(count);
                        spot.house = (0..area.houses).filter(|&h| free(h)).nth(pick).unwrap_or(0);
                    }
                }
                if knows <= 2 && area.rooms > 0 {
                    spot.room = r.pick(usize::from(area.rooms)) as u8;
                }
                spots[quarry] = spot;
            }
            self.parties[q].spots = spots;
        }
    }
}

impl Searchable for Game {
    type Env<'e> = Context<'e>;

    /// Candidates are compared on the same playout streams: a move that
    /// changes little then ties instead of winning by luck.
    const COMMON_RANDOM_NUMBERS: bool = true;

    /// A journey turned back or a city left on a lucky run of playouts
    /// costs Strategic Turns: the search departs from its base only on two
    /// standard errors (one let a search:20 Carthoris wander back and forth
    /// until 20% of games were unfinished at 200 turns).
    const SWITCH_Z: f64 = 2.0;

    /// Onward or back [9.13] is tested at every Strategic Turn of a
    /// journey, some 150 times a game: at two standard errors a few false
    /// turn-backs a game are expected by chance alone, and each costs the
    /// road walked (a search:100 John Carter wandering between two cities
    /// left 2.2% of games unfinished). Three standard errors make a false
    /// turn-back rare (about one in 800 tests).
    fn switch_z(kind: &'static str) -> f64 {
        if kind == TRANSIT { 3.0 } else { Self::SWITCH_Z }
    }

    fn branching(&mut self) -> &mut Branching {
        &mut self.branching
    }

    fn searcher(&mut self) -> &mut SearchSlot<Self> {
        &mut self.search
    }

    /// None once every rival has finished [20.4]: who is champion then
    /// turns on this hero's own quest alone, in positions the fitted
    /// standing never saw (a rival out of play counts his road as far as
    /// can be, so a hero tied with him looked ahead), and the search
    /// played safe in a city rather than seek his villain: a search:100
    /// John Carter so left 2 of 500 games unfinished. His base plays the
    /// quest out.
    fn playouts(&self, seat: usize) -> Option<u32> {
        self.playouts
            .get(seat)
            .copied()
            .flatten()
            .filter(|_| !self.rivals_finished(seat))
    }

    /// See the module documentation: the decks, the other hands and the
    /// quarries' hiding places.
    fn determinize<R: Roll>(&mut self, ctx: Context<'_>, seat: usize, r: &mut R) {
        let mut below = |n: u32| r.pick(n as usize) as u32;
        self.movement.shuffle_rest(&mut below);
        self.acquisition.shuffle_rest(&mut below);
        let players = usize::from(self.players).min(MAX_PLAYERS);
        let story = &mut self.story;
        story
            .piles
            .redeal_unseen(&mut story.hands[..players], seat, &mut below);
        self.rehide(&ctx, seat, r);
    }

    fn play_on(&mut self, ctx: Context<'_>, dice: &mut Dice) {
        let count = HORIZON_TURNS * u32::from(self.players);
        self.play_player_turns(&ctx, count, dice, &mut NoTrace);
    }

    /// The mean of two halves. The first is the player's chance of
    /// becoming champion [20.54]: 1 or 0 in a finished game, and at the
    /// horizon (or an unfinished game's turn limit) a logistic of his lead
    /// in standing over the best of the others. The second is a logistic of
    /// his own standing, in a finished game too, so a player far behind
    /// still plays his quest out, and one who can no longer be champion
    /// still prefers ending the game with a condition more to keeping it
    /// going (when a finished game scored 0 and a running one its standing,
    /// a beaten Carthoris shuttled between cities until the turn limit in
    /// 2% of searched games). The standing ([`Game::standing`]) is in
    /// log-odds, weighted by the fitted constants above ([`PER_CONDITION`]
    /// and the rest).
    fn reward(&self, ctx: Context<'_>, seat: usize) -> f64 {
        let own = self.standing(&ctx, seat);
        let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
        if let Some(end) = self.end
            && end.finished
        {
            let champion = f64::from(u8::from(end.champion == Some(seat as u8)));
            return 0.5 * (champion + logistic(own));
        }
        let best_other = (0..usize::from(self.players))
            .filter(|&p| p != seat)
            .map(|p| self.standing(&ctx, p))
            .fold(f64::NEG_INFINITY, f64::max);
        let lead = if best_other.is_finite() {
            own - best_other
        } else {
            own
        };
        0.5 * (logistic(lead) + logistic(own))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jc::event_deck::EventPiles;
    use crate::jc::strategic::consts::{CAPTIVE_QUARRY, VILLAIN_QUARRY};
    use crate::jc::strategic::game::{End, NONE};
    use crate::jc::strategic::story_tests::{city, game, hand, model};

    #[test]
    fn a_determinisation_keeps_what_the_player_sees_and_deals_the_rest_again() {
        // Player 1 (seat 0) holds cards 1 and 2 and knows the house where
        // his villain's group hides in Zodanga, nothing of the captive's;
        // player 2 holds 3, 4 and 5; the deck is 6 to 10.
        let m = model("two-heroes");
        let ctx = m.context();
        let mut g = game(&m);
        let zodanga = city(&m, "zodanga");
        g.story.hands[0] = hand(&[1, 2]);
        g.story.hands[1] = hand(&[3, 4, 5]);
        g.story.piles = EventPiles::stacked(&[6, 7, 8, 9, 10]);
        g.heroes[0].place = Place::City(zodanga);
        g.heroes[0].city.active = true;
        g.heroes[0].city.knows = [0; 2];
        g.heroes[0].city.knows[VILLAIN_QUARRY] = 2;
        g.parties[0].city = zodanga;
        g.parties[0].hidden = true;
        let own_hiding = g.parties[1];
        let (mut captive_moved, mut hands_changed) = (false, false);
        for seed in 0..20 {
            let mut d = g.clone();
            d.determinize(ctx, 0, &mut Dice::for_trial(7, seed));
            assert_eq!(d.story.hands[0].cards(), &[1, 2]);
            assert_eq!(d.story.hands[1].len(), 3);
            assert_eq!(
                d.story.piles.in_piles() | bits(d.story.hands[1].cards()),
                bits(&[3, 4, 5, 6, 7, 8, 9, 10])
            );
            hands_changed |= d.story.hands[1].cards() != [3, 4, 5];
            let (before, after) = (g.parties[0].spots, d.parties[0].spots);
            assert_eq!(
                (after[VILLAIN_QUARRY].area, after[VILLAIN_QUARRY].house),
                (before[VILLAIN_QUARRY].area, before[VILLAIN_QUARRY].house),
                "what the hero knows stays"
            );
            captive_moved |= after[CAPTIVE_QUARRY] != before[CAPTIVE_QUARRY];
            assert_eq!(
                d.parties[1].spots, own_hiding.spots,
                "his own hiding places stay"
            );
        }
        assert!(hands_changed && captive_moved);
    }

    #[test]
    fn on_a_journey_its_search_turned_back_a_search_player_goes_on_by_default() {
        // Carthoris (seat 1, the search player) has just left his goal
        // city: his base policy turns back [9.13]. Had his search turned
        // him onto this journey against the base, the default is onward;
        // in a city that mark is gone. The search is not ready (no turn
        // snapshot), so the decision is the default itself.
        let m = model("search-vs-sensible");
        let ctx = m.context();
        let mut g = game(&m);
        let p = 1;
        let goal = players::target(&ctx, &g, p).expect("a goal");
        let map = &m.data().map;
        let (first, _) = map.from_range[usize::from(goal)];
        let rt = (first..)
            .map(|i| map.routes[usize::from(i)])
            .find(|rt| !rt.one_turn && rt.haads > 10)
            .expect("a long line out of the goal");
        let journey = crate::jc::strategic::game::Transit {
            from: goal,
            to: rt.to,
            left: rt.haads - 5,
            total: rt.haads,
            via: rt.via,
        };
        g.heroes[p].place = Place::Transit(journey);
        let mut dice = Dice::for_trial(1, 0);
        assert_eq!(g.decide_move(&ctx, p, NONE, &mut dice), Move::Back);
        g.search_turned_back[p] = Some((goal, rt.to));
        assert_eq!(g.decide_move(&ctx, p, NONE, &mut dice), Move::Onward);
        g.heroes[p].place = Place::City(goal);
        g.decide_move(&ctx, p, NONE, &mut dice);
        assert_eq!(g.search_turned_back[p], None);
    }

    #[test]
    fn a_search_player_plays_its_base_once_every_rival_has_finished() {
        // Carthoris (seat 1) searches with 100 playouts while John Carter
        // plays on; once John Carter has fulfilled a condition or is out
        // of play [20.4] Carthoris's quest alone decides, and his base plays it.
        let m = model("search-vs-sensible");
        let mut g = game(&m);
        assert_eq!(g.playouts(1), Some(100));
        assert_eq!(g.playouts(0), None, "John Carter is sensible");
        let mut glory = g.clone();
        glory.heroes[0].glory_at = 7;
        assert_eq!(glory.playouts(1), None);
        let mut love = g.clone();
        love.heroes[0].love_at = 7;
        assert_eq!(love.playouts(1), None);
        g.heroes[0].status = crate::jc::strategic::game::Status::OutOfPlay;
        assert_eq!(g.playouts(1), None);
        // Carthoris's own condition does not stop his search.
        let mut own = game(&m);
        own.heroes[1].glory_at = 7;
        assert_eq!(own.playouts(1), Some(100));
    }

    #[test]
    fn a_beaten_hero_scores_ending_the_game_with_a_condition_above_playing_on() {
        // John Carter (seat 0) has glory and love: Carthoris (seat 1) can
        // no longer be champion. Bringing his captive home ends the game;
        // that must score above keeping it going, or he stalls.
        let m = model("two-heroes");
        let ctx = m.context();
        let mut g = game(&m);
        g.heroes[0].glory_at = 5;
        g.heroes[0].love_at = 6;
        let playing_on = g.reward(ctx, 1);
        let mut ended = g.clone();
        ended.heroes[1].love_at = 9;
        ended.end = Some(End {
            turns: 9,
            finished: true,
            champion: Some(0),
        });
        let ending = ended.reward(ctx, 1);
        assert!(ending > playing_on, "{ending} against {playing_on}");
        // The champion's finished game scores above both, and above his
        // own running game.
        assert!(ended.reward(ctx, 0) > g.reward(ctx, 0).max(ending));
    }

    fn bits(cards: &[u8]) -> u128 {
        cards.iter().fold(0, |set, &c| set | 1u128 << (c - 1))
    }
}
