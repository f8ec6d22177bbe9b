//! The players' policies. Each sees only what its player could see: its
//! own units, neutrals (face up [25.2]), where enemy stacks are, and the
//! enemy's strength as a whole (set-up, reinforcements and losses are
//! public), but not the strength of any one enemy stack, which is face down
//! [22.26]: a stack is guessed at the enemy's strength shared evenly over
//! his stacks. With the scenario's `reveal` option every unit is seen.
//!
//! - `random`: uniform over the legal choices (stay or any open flight, any
//!   part of the group, attack or not on a coin).
//! - `greedy`: keeps a one-point garrison in each capital it holds itself
//!   (all of it when an enemy is there or on the way; none in an influenced
//!   neutral's capital, which the neutral's own fleets keep, so its home
//!   fleet there can lead them out [24.41]), sends the rest to the best
//!   target by value over distance (relieve a threatened capital, take a
//!   capital that does not count for it and that it could beat, court the
//!   nearest neutral not yet won), gathering first where most of its
//!   strength stands when the force that could set out together is too
//!   small for the target, stays to court a neutral it is influencing,
//!   attacks when its strength estimate (strength, intrinsic defense, half
//!   the leadership edge) favours it, never breaks the peace in a neutral's
//!   city [24.27], and never attacks enemy fleets in the grace Turn after
//!   it influenced their city's neutral [24.28].
//! - `lookahead`: the greedy plan, but each attack and each capital target
//!   is scored by short Monte Carlo rollouts of the fleet combat it would
//!   bring (its own dice, seeded from the game's dice, so a game stays
//!   deterministic), attacking or setting out when it would hold the city
//!   in at least half of them.
//! - `search`, `search:N`, `search:N:BASE`: the shared search player
//!   ([`barsoom_engine::search`]) over its base policy (`greedy` or
//!   `random`); the decisions it searches are in [`super::game::search`].

use super::battles::{BattleKey, fight};
use super::game::{Context, Game, Group, MoveOrder, NONE, Target};
use crate::jc::fleet::{OUT_FIRST_ELIMINATES, OUT_SECOND_REVERSES};
use barsoom_engine::Dice;
use barsoom_engine::search::SearchSpec;

/// A player's policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Uniform over legal choices.
    Random,
    /// Heuristic value over distance, strength estimates.
    Greedy,
    /// Greedy with fleet-combat rollouts.
    Lookahead {
        /// Rollouts per decision.
        rollouts: u16,
    },
    /// The search player over a base policy.
    Search(SearchSpec<Base>),
}

/// The base policy of a search player: how it plays where it does not
/// search, and how every seat plays inside its playouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// [`Policy::Random`].
    Random,
    /// [`Policy::Greedy`], the heuristic.
    Greedy,
}

/// Base policy names, for error messages.
pub const BASES: &str = "greedy, random";

impl Policy {
    /// Parses a policy name (`random`, `greedy`, `lookahead`, `search`,
    /// `search:N`, `search:N:BASE`); the error says what was expected.
    pub fn parse(name: &str, rollouts: u16) -> Result<Self, String> {
        let base = |b: &str| match b {
            "greedy" => Some(Base::Greedy),
            "random" => Some(Base::Random),
            _ => None,
        };
        if let Some(spec) = SearchSpec::parse(name, Base::Greedy, BASES, base) {
            return spec.map(Policy::Search).map_err(|e| e.to_string());
        }
        match name {
            "random" => Ok(Policy::Random),
            "greedy" => Ok(Policy::Greedy),
            "lookahead" => Ok(Policy::Lookahead { rollouts }),
            _ => Err(format!("expected one of {POLICIES}, found {name:?}")),
        }
    }

    /// Whether this is a search player.
    pub fn is_search(self) -> bool {
        matches!(self, Policy::Search(_))
    }

    /// The policy that plays this player's moves: a search player's base
    /// (where it does not search), any other policy itself.
    pub fn base(self) -> Policy {
        match self {
            Policy::Search(SearchSpec {
                base: Base::Random, ..
            }) => Policy::Random,
            Policy::Search(_) => Policy::Greedy,
            p => p,
        }
    }
}

/// Policy names, for error messages.
pub const POLICIES: &str =
    "random, greedy, lookahead, search, search:PLAYOUTS, search:PLAYOUTS:BASE";

/// The policy that plays player `p`'s moves (a search player's base).
fn policy(ctx: &Context, p: usize) -> Policy {
    ctx.config.policies[p].base()
}

/// The strength of group `g` as player `p` sees it.
pub(crate) fn seen_strength(ctx: &Context, game: &Game, p: usize, g: &Group) -> u8 {
    let enemy_stack = game.side_of(g.owner) == Some(1 - p) && g.owner < 2;
    if ctx.config.reveal || !enemy_stack {
        return g.strength;
    }
    let q = 1 - p;
    let stacks = game
        .groups()
        .iter()
        .filter(|x| usize::from(x.owner) == q)
        .count()
        .max(1) as u16;
    let total = game.public_strength[q];
    (total.div_ceil(stacks)).clamp(1, 99) as u8
}

/// Strength not allied to `p` that `p` sees in `city`, or on its way there
/// when `incoming`.
fn seen_hostile(ctx: &Context, game: &Game, p: usize, city: usize, incoming: bool) -> u8 {
    game.groups()
        .iter()
        .filter(|g| {
            usize::from(g.city) == city
                && game.side_of(g.owner) == Some(1 - p)
                && (incoming || !g.in_transit)
        })
        .fold(0u8, |s, g| s.saturating_add(seen_strength(ctx, game, p, g)))
}

/// `key` with the defender's strengths replaced by what `p` sees; hidden
/// enemy commanders read as an average leader (1).
fn seen_key(ctx: &Context, game: &Game, p: usize, city: usize, mut key: BattleKey) -> BattleKey {
    if !ctx.config.reveal && key.sides[1].home > 0 && game.enemy_in(city, p) {
        let seen = game
            .groups()
            .iter()
            .filter(|g| {
                !g.in_transit && usize::from(g.city) == city && usize::from(g.owner) == 1 - p
            })
            .fold(0u8, |s, g| s.saturating_add(seen_strength(ctx, game, p, g)));
        key.sides[1].home = seen.max(1);
    }
    key
}

/// Fraction (per 1000) of `rollouts` battles of `key` in which the phasing
/// side holds the city.
fn rollout_hold(ctx: &Context, key: &BattleKey, rollouts: u16, dice: &mut Dice) -> u32 {
    let mut own = Dice::for_trial(dice.next_u64(), 0);
    let mut held = 0u32;
    for _ in 0..rollouts {
        let r = fight(ctx.cache, &ctx.rules.data, key, &mut own);
        if matches!(
            r.terminal.outcome,
            OUT_FIRST_ELIMINATES | OUT_SECOND_REVERSES
        ) {
            held += 1;
        }
    }
    held * 1000 / u32::from(rollouts.max(1))
}

/// The heuristic estimate: positive when the attack looks favourable
/// (twice the strength edge over defender and intrinsic defense, plus the
/// leadership edge).
fn estimate(ctx: &Context, key: &BattleKey, city: usize) -> i32 {
    let rules = ctx.rules;
    let lead = |c: u8| {
        if c == super::battles::NO_COMMANDER {
            0
        } else {
            i32::from(rules.data.commanders[usize::from(c)].leadership)
        }
    };
    let [a, d] = key.sides;
    let defender_lead = if ctx.config.reveal || d.leader == super::battles::NO_COMMANDER {
        lead(d.leader).max(lead(d.neutral_leader))
    } else {
        1
    };
    let intrinsic = i32::from(rules.intrinsic_defense(city, usize::from(d.nation)));
    2 * (i32::from(a.home) + i32::from(a.neutral)
        - i32::from(d.home)
        - i32::from(d.neutral)
        - intrinsic)
        + lead(a.leader).max(lead(a.neutral_leader))
        - defender_lead
}

/// Whether `p` attacks `target` in `city`.
pub fn attack(
    ctx: &Context,
    game: &Game,
    p: usize,
    city: usize,
    target: Target,
    dice: &mut Dice,
) -> bool {
    let policy = policy(ctx, p);
    if policy == Policy::Random {
        return dice.coin();
    }
    let rules = ctx.rules;
    match target {
        Target::Enemy => {
            // Never a breach of the peace [24.27], nor an attack in the
            // enemy's grace Turn, which would hand him the neutral [24.28].
            if game.peace_of(city).is_some() {
                return false;
            }
            if game.in_grace(rules, city, p) {
                return false;
            }
        }
        Target::Neutral(n) => {
            // Fight a neutral only once it can no longer be courted.
            if !game.neutrals[usize::from(n)].barred[p] {
                return false;
            }
        }
    }
    let key = seen_key(ctx, game, p, city, game.battle_key(p, city, target));
    match policy {
        Policy::Lookahead { rollouts } => rollout_hold(ctx, &key, rollouts, dice) >= 500,
        _ => estimate(ctx, &key, city) > 0,
    }
}

/// The diplomacy mode `p` plays in in-fighting: every policy plays the
/// uniform mix, optimal for the reconstructed cyclic table.
pub(crate) fn diplomacy_mode(ctx: &Context, _p: usize, dice: &mut Dice) -> usize {
    dice.below(ctx.rules.diplomacy.modes.len() as u32) as usize
}

/// `p`'s orders for group `i`, which is in a city.
pub(crate) fn move_order(
    ctx: &Context,
    game: &Game,
    p: usize,
    i: usize,
    dice: &mut Dice,
) -> MoveOrder {
    let rules = ctx.rules;
    let g = game.groups[i];
    let c = usize::from(g.city);
    let blocked = game.hostile_in(c, p);
    let routes = rules.map.routes_from(c);
    let base = rules.map.from_range[c].0;
    let open = |r: &super::map::Route| !blocked || r.to == g.from;
    if policy(ctx, p) == Policy::Random {
        let n = routes.iter().filter(|r| open(r)).count() as u32;
        let pick = dice.below(n + 1);
        if pick == n {
            return MoveOrder::Stay;
        }
        let (j, _) = routes
            .iter()
            .enumerate()
            .filter(|(_, r)| open(r))
            .nth(pick as usize)
            .unwrap_or((0, &routes[0]));
        let strength = dice.below(u32::from(g.strength)) as u8 + 1;
        let mut commanders = 0u16;
        let mut m = g.commanders;
        while m != 0 {
            let k = m.trailing_zeros();
            m &= m - 1;
            if strength == g.strength || dice.coin() {
                commanders |= 1 << k;
            }
        }
        return MoveOrder::Go {
            route: base + j as u16,
            strength,
            commanders,
        };
    }
    // Greedy and lookahead: held in a city by hostile fleets [22.25], stay
    // and fight, except in a neutral's city that it may neither court nor
    // beat, which it leaves the way it came.
    if blocked {
        let stuck = rules.neutral_in(c).is_some_and(|n| {
            let st = &game.neutrals[n];
            st.influenced_by == NONE
                && st.barred[p]
                && !attack(ctx, game, p, c, Target::Neutral(n as u8), dice)
        });
        if !stuck || g.from == NONE {
            return MoveOrder::Stay;
        }
    }
    if let Some(n) = rules.neutral_in(c) {
        let st = &game.neutrals[n];
        if st.influenced_by == NONE && !st.barred[p] {
            // Courting it.
            return MoveOrder::Stay;
        }
    }
    let movable = greedy_movable(ctx, game, p, i);
    if movable == 0 {
        return MoveOrder::Stay;
    }
    // The influenced neutral fleets that would go with it [24.41].
    let escort: u8 = game
        .groups()
        .iter()
        .enumerate()
        .filter(|(_, x)| {
            x.owner >= 2 && !x.in_transit && usize::from(x.city) == c && game.allied(x.owner, p)
        })
        .fold(0u8, |s, (j, x)| {
            s.saturating_add(greedy_escort(ctx, game, j).min(x.strength))
        });
    let force = movable.saturating_add(escort);
    // Everything that could set out from here together: every group's
    // movable part and the escorts.
    let own_here: u16 = game
        .groups()
        .iter()
        .filter(|x| !x.in_transit && usize::from(x.city) == c && usize::from(x.owner) == p)
        .map(|x| u16::from(x.strength))
        .sum();
    let force_here =
        own_here.saturating_sub(u16::from(garrison_of(ctx, game, p, c))) + u16::from(escort);
    // The targets it must gather for first, one bit per city.
    let mut muster_for = 0u32;
    // Everything it could bring together: its fleets and its neutrals'
    // beyond a one-point garrison in each capital it holds.
    let spare = spare_strength(ctx, game, p);
    let mut best: Option<(u64, usize)> = None;
    for t in 0..rules.map.cities.len() {
        if t == c {
            continue;
        }
        let dist = u64::from(rules.map.distance(c, t));
        if dist == u64::from(super::map::UNREACHABLE) {
            continue;
        }
        let city = &rules.map.cities[t];
        let mut value = 0u64;
        if city.capital.is_some() && game.counts_for(t, p) {
            // Relieve a threatened capital.
            let threat = seen_hostile(ctx, game, p, t, true);
            if threat > game.own_strength(t, p) {
                value = 4000;
            }
        } else if city.capital.is_some() && game.peace_of(t).is_none() {
            // Take a capital that does not count for it (the enemy's, or
            // one no player holds) and that it can beat; a neutral's under
            // its peace is below.
            let defenders = seen_hostile(ctx, game, p, t, false);
            let defender_nation = game
                .groups()
                .iter()
                .find(|x| !x.in_transit && usize::from(x.city) == t && x.owner < 2)
                .map_or(0, |x| usize::from(x.nation));
            let intrinsic = rules.intrinsic_defense(t, defender_nation);
            let good = match policy(ctx, p) {
                Policy::Lookahead { rollouts } if defenders > 0 => {
                    let leader = super::game::best_leader(rules, g.commanders);
                    let mut key = game.battle_key(p, t, Target::Enemy);
                    key.sides[0] = super::battles::SideKey {
                        nation: g.nation,
                        home: movable,
                        leader,
                        neutral_nation: 0,
                        neutral: 0,
                        neutral_leader: super::battles::NO_COMMANDER,
                        break_off: ctx.config.break_off[p],
                    };
                    key.sides[1].home = defenders.saturating_sub(key.sides[1].neutral).max(1);
                    rollout_hold(ctx, &key, rollouts, dice) >= 500
                }
                _ => u16::from(force).max(spare) > u16::from(defenders) + u16::from(intrinsic),
            };
            if good {
                value = 3000;
                if force_here <= u16::from(defenders) + u16::from(intrinsic) {
                    muster_for |= 1 << t;
                }
            }
        }
        if let Some(n) = rules.neutral_in(t) {
            let st = &game.neutrals[n];
            let owner = (2 + n) as u8;
            if city.capital.is_some() && game.peace_of(t).is_some() && st.barred[p] {
                // A neutral capital it may no longer court must be taken by
                // force for victory [24.27, 25.3] (once a player has taken
                // it, it is that player's capital, above).
                let defenders = game
                    .groups()
                    .iter()
                    .filter(|x| x.owner == owner && !x.in_transit && usize::from(x.city) == t)
                    .fold(0u16, |s, x| s + u16::from(x.strength));
                let intrinsic = rules.intrinsic_defense(t, rules.neutrals[n].nation);
                if u16::from(force).max(spare) > defenders + u16::from(intrinsic) {
                    value = value.max(3000);
                    if force_here <= defenders + u16::from(intrinsic) {
                        muster_for |= 1 << t;
                    }
                }
            }
            let courted = game
                .groups()
                .iter()
                .any(|x| usize::from(x.owner) == p && usize::from(x.city) == t);
            if st.influenced_by == NONE && !st.barred[p] && !courted {
                value = value.max(2000);
            }
        }
        if value > 0 {
            let score = value * 1000 / (dist + 30);
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, t));
            }
        }
    }
    let Some((_, mut target)) = best else {
        return MoveOrder::Stay;
    };
    if (muster_for >> target) & 1 == 1 {
        // Gather first: at the city where most of its strength stands.
        match muster_city(ctx, game, p) {
            Some(m) if m == c => return MoveOrder::Stay,
            Some(m) => target = m,
            None => {}
        }
    }
    // Next flight: the one that leaves the least distance to the target.
    let mut choice: Option<(u32, usize)> = None;
    for (j, r) in routes.iter().enumerate() {
        if !open(r) {
            continue;
        }
        let leg = if r.one_turn { 1 } else { u32::from(r.haads) };
        let rest = rules.map.distance(usize::from(r.to), target);
        if rest == super::map::UNREACHABLE {
            continue;
        }
        let total = leg + u32::from(rest);
        if choice.is_none_or(|(d, _)| total < d) {
            choice = Some((total, j));
        }
    }
    match choice {
        Some((_, j)) => MoveOrder::Go {
            route: base + j as u16,
            strength: movable,
            commanders: g.commanders,
        },
        None => MoveOrder::Stay,
    }
}

/// Strength points of `p`'s group `i`, in city, that greedy would send
/// out: all but the garrison it keeps in a capital that counts for it (one
/// point, or everything when enemy fleets are there or on the way).
fn greedy_movable(ctx: &Context, game: &Game, p: usize, i: usize) -> u8 {
    let g = game.groups[i];
    let c = usize::from(g.city);
    let own_here = game.own_strength(c, p);
    let garrison = garrison_of(ctx, game, p, c);
    let others = own_here - g.strength;
    g.strength.saturating_sub(garrison.saturating_sub(others))
}

/// The garrison greedy keeps in city `c`.
fn garrison_of(ctx: &Context, game: &Game, p: usize, c: usize) -> u8 {
    let own_here = game.own_strength(c, p);
    // In an influenced neutral's capital the neutral's own fleets keep
    // it: no home garrison, so the home fleet there can lead the neutral's
    // fleets out [24.41].
    if ctx.rules.map.cities[c].capital.is_some() && usize::from(game.controller[c]) == p {
        if seen_hostile(ctx, game, p, c, true) > 0 {
            own_here
        } else {
            1
        }
    } else {
        0
    }
}

/// The city where `p` gathers for a strike: where most of his strength
/// stands or is bound (his fleets, and his neutrals' that could go with
/// them), among cities free of hostile fleets.
fn muster_city(ctx: &Context, game: &Game, p: usize) -> Option<usize> {
    let mut gather = [0u16; super::map::MAX_CITIES];
    for (j, x) in game.groups().iter().enumerate() {
        let c = usize::from(x.city);
        if usize::from(x.owner) == p {
            gather[c] += u16::from(x.strength);
        } else if x.owner >= 2 && !x.in_transit && game.allied(x.owner, p) {
            gather[c] += u16::from(greedy_escort(ctx, game, j));
        }
    }
    (0..ctx.rules.map.cities.len())
        .filter(|&c| gather[c] > 0 && !game.hostile_in(c, p))
        .max_by_key(|&c| (gather[c], std::cmp::Reverse(c)))
}

/// The orders a search player chooses among for its group `i`, in a
/// city, written to `out`: staying first, then each open flight [22.25]
/// (up to `out`'s length), each taking the group's commanders and the
/// strength greedy would send, or all but one point where greedy would
/// keep everything. Returns how many it wrote.
pub(crate) fn move_choices(
    ctx: &Context,
    game: &Game,
    p: usize,
    i: usize,
    out: &mut [MoveOrder],
) -> usize {
    let rules = ctx.rules;
    let g = game.groups[i];
    let c = usize::from(g.city);
    let blocked = game.hostile_in(c, p);
    let base = rules.map.from_range[c].0;
    let strength = match greedy_movable(ctx, game, p, i) {
        0 => g.strength.saturating_sub(1).max(1),
        movable => movable,
    };
    out[0] = MoveOrder::Stay;
    let mut n = 1;
    for (j, r) in rules.map.routes_from(c).iter().enumerate() {
        if n == out.len() {
            break;
        }
        if blocked && r.to != g.from {
            continue;
        }
        out[n] = MoveOrder::Go {
            route: base + j as u16,
            strength,
            commanders: g.commanders,
        };
        n += 1;
    }
    n
}

/// Strength points of the influenced neutral group `j` that go with a home
/// fleet leaving its city under `greedy` and `lookahead`: all but one,
/// left as a garrison, in the neutral's own capital; all elsewhere [24.41].
fn greedy_escort(ctx: &Context, game: &Game, j: usize) -> u8 {
    let e = game.groups[j];
    let n = &ctx.rules.neutrals[usize::from(e.owner) - 2];
    if usize::from(e.city) == n.city && ctx.rules.map.cities[n.city].capital.is_some() {
        e.strength - 1
    } else {
        e.strength
    }
}

/// Strength points of the influenced neutral group `j` that player `p`
/// sends with a home fleet leaving their city [24.41]: `random` any part,
/// the others [`greedy_escort`].
pub(crate) fn escort_strength(
    ctx: &Context,
    game: &Game,
    p: usize,
    j: usize,
    dice: &mut Dice,
) -> u8 {
    if policy(ctx, p) == Policy::Random {
        dice.below(u32::from(game.groups[j].strength) + 1) as u8
    } else {
        greedy_escort(ctx, game, j)
    }
}

/// The strength `p` could gather for an attack: his fleets and his
/// influenced neutrals' anywhere, less a one-point garrison in each capital
/// that counts for him.
fn spare_strength(ctx: &Context, game: &Game, p: usize) -> u16 {
    let total: u16 = game
        .groups()
        .iter()
        .filter(|x| game.side_of(x.owner) == Some(p))
        .map(|x| u16::from(x.strength))
        .sum();
    total.saturating_sub(u16::from(game.capitals_held(ctx.rules, p)))
}
