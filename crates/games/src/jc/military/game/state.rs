//! The state of one Military Game: groups of fleets, neutrals, the
//! scenario's choices, statistics, the [`Game`] itself with its set-up and
//! what it answers about cities and sides.

use crate::jc::military::battles::{BattleCache, BreakOff, NO_COMMANDER};
use crate::jc::military::deck::DeckState;
use crate::jc::military::map::MAX_CITIES;
use crate::jc::military::players::Policy;
use crate::jc::military::rules::{MAX_NEUTRALS, MilitaryRules};
use barsoom_engine::Dice;
use barsoom_engine::search::{Branching, SearchSlot};

/// Most fleet groups on the map at once.
pub const MAX_GROUPS: usize = 96;

/// "None" for city, owner and player fields.
pub const NONE: u8 = u8::MAX;

/// `Group::from` of a neutral group chosen to go with a home fleet
/// [24.41], for the moment before it sets out.
pub const ESCORT: u8 = u8::MAX - 1;

/// A stack of fleets of one owner and nation, with the commanders riding
/// with it [22.23].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    /// 0 Helium, 1 the alliance, 2 + i the i-th neutral.
    pub owner: u8,
    /// Nation of its fleets.
    pub nation: u8,
    /// The city it is in, or flying to.
    pub city: u8,
    /// The city it last left ([`NONE`] if it never moved): where it may
    /// always go back to [22.25].
    pub from: u8,
    /// Haads still to fly; meaningful only in transit.
    pub left: u16,
    /// Between cities [22.22].
    pub in_transit: bool,
    /// Strength points.
    pub strength: u8,
    /// Commanders with it (mask over the data's commanders).
    pub commanders: u16,
}

impl Group {
    /// A group standing in `city` that has not moved yet.
    pub fn in_city(owner: u8, nation: u8, city: usize, strength: u8, commanders: u16) -> Self {
        Group {
            owner,
            nation,
            city: city as u8,
            from: NONE,
            left: 0,
            in_transit: false,
            strength,
            commanders,
        }
    }
}

/// A neutral's diplomatic standing [24.2].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeutralState {
    /// Influence Points each player has gathered.
    pub influence: [u8; 2],
    /// The moment each player came to stand at the winning total, while he
    /// still does: 2 x the Game-Turn, plus 1 if it was in the second
    /// portion of the in-fighting round (0: not there) [24.33, 24.34].
    pub reached: [u16; 2],
    /// The player who influenced it, or [`NONE`].
    pub influenced_by: u8,
    /// Players who may never gain Influence Points with it [24.27, 24.43].
    pub barred: [bool; 2],
    /// The Game-Turn it was influenced with the other player's fleets in
    /// its city (0: none): through that Turn they may leave unattacked
    /// [24.28].
    pub grace_turn: u16,
}

impl NeutralState {
    /// Reads one phase's Influence Points [24.3 PROCEDURE]: each roll for
    /// the player taking his part of the round, then for his opponent (the
    /// first mover's part first). `gain[p]` is what player `p`'s portion gives
    /// him (nothing while he is barred [24.27]) and `takes[p]` what it costs
    /// the other player, so a player at six can lose a point before the
    /// phase ends [24.33]. `reached` keeps the moment each player came to
    /// stand at `win` (2 x `turn`, plus 1 in the second portion), for
    /// [24.34].
    pub fn read_points(
        &mut self,
        mut gain: [u8; 2],
        takes: [u8; 2],
        first: usize,
        turn: u16,
        win: u8,
    ) {
        for (half, p) in [first, 1 - first].into_iter().enumerate() {
            if self.barred[p] {
                gain[p] = 0;
            }
            self.influence[p] = self.influence[p].saturating_add(gain[p]);
            let q = 1 - p;
            self.influence[q] = self.influence[q].saturating_sub(takes[p]);
            if self.influence[p] >= win && self.reached[p] == 0 {
                self.reached[p] = 2 * turn + half as u16;
            }
            if self.influence[q] < win {
                self.reached[q] = 0;
            }
        }
    }

    /// The player who may claim the neutral at the end of the Diplomacy
    /// Phase [24.33]: the one at `win` or more; when both are, the one who
    /// got there first, then the higher total; a tie waits [24.34].
    pub fn claimant(&self, win: u8) -> Option<usize> {
        use std::cmp::Ordering::{Equal, Greater, Less};
        match [self.influence[0] >= win, self.influence[1] >= win] {
            [true, false] => Some(0),
            [false, true] => Some(1),
            [true, true] => match (
                self.reached[0].cmp(&self.reached[1]),
                self.influence[0].cmp(&self.influence[1]),
            ) {
                (Less, _) | (Equal, Greater) => Some(0),
                (Greater, _) | (Equal, Less) => Some(1),
                (Equal, Equal) => None,
            },
            [false, false] => None,
        }
    }
}

/// A player's orders for one group in a city.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveOrder {
    /// Stay in the city.
    Stay,
    /// Set out on `route` (index into the map's routes) with `strength`
    /// points of the group and the commanders in `commanders`.
    Go {
        /// Index into the map's routes.
        route: u16,
        /// Strength points that go (the rest stay).
        strength: u8,
        /// Commanders that go with them.
        commanders: u16,
    },
}

/// What a phasing player may attack in a city.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The enemy player's fleets (with his influenced neutrals).
    Enemy,
    /// An uninfluenced neutral's fleets.
    Neutral(u8),
}

/// Who moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstMover {
    /// This player, every game.
    Player(usize),
    /// Helium on even trials, the alliance on odd ones.
    Alternate,
}

/// A scenario's choices for a game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameConfig {
    /// Each player's policy.
    pub policies: [Policy; 2],
    /// Each player's set-up: strength points per city [25.1].
    pub setup: [Vec<(usize, u8)>; 2],
    /// Who moves first.
    pub first: FirstMover,
    /// Game-Turns played before the game is scored unfinished.
    pub turn_limit: u16,
    /// Policies see every face-down unit (for comparison with the hidden
    /// game [22.26]).
    pub reveal: bool,
    /// Each player's break-off choices in fleet combat [23.22].
    pub break_off: [BreakOff; 2],
}

/// Turns after which capitals held are recorded (a game that ended sooner
/// counts as it ended).
pub const CHECKPOINTS: [u16; 7] = [5, 10, 15, 20, 30, 45, 60];

/// Counts kept for the outputs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Strength points lost to storms, per player.
    pub storm_losses: [u32; 2],
    /// Storms that struck.
    pub storms: u32,
    /// Fleet combats fought.
    pub battles: u32,
    /// Strength points lost in combat, per player.
    pub combat_losses: [u32; 2],
    /// Commanders captured, per player.
    pub captured: [u32; 2],
    /// Capitals each player held at each checkpoint.
    pub capitals_at: [[u8; CHECKPOINTS.len()]; 2],
    /// Influence outcome per neutral at the end: 0 none, 1 Helium, 2 the
    /// alliance.
    pub neutral_end: [u8; MAX_NEUTRALS],
    /// Times a neutral went over to a player by the breach-of-peace rule.
    pub breaches: u32,
    /// Fleet combats broken off by agreement [23.22].
    pub break_offs: u32,
    /// Times a neutral's fleets went over to the side attacked in its
    /// grace Turn [24.28].
    pub grace_joins: u32,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnd {
    /// The winner, or `None` at the turn limit.
    pub winner: Option<usize>,
    /// Game-Turns played.
    pub turns: u16,
    /// Who moved first.
    pub first: usize,
}

/// The shared, read-only things a game consults.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The data.
    pub rules: &'a MilitaryRules,
    /// The scenario's choices.
    pub config: &'a GameConfig,
    /// Compiled battles.
    pub cache: &'a BattleCache,
}

impl std::fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Context")
    }
}

/// One game in progress, with the context it reads: a copy of it is a
/// position a search can play on from ([`barsoom_engine::search`]).
#[derive(Debug, Clone)]
pub struct Game<'a> {
    /// The data, the scenario's choices and the battle cache.
    pub ctx: Context<'a>,
    /// Fleet groups (the first `len`).
    pub groups: [Group; MAX_GROUPS],
    /// Groups in use.
    pub len: usize,
    /// Who controls each city: 0/1 a player, 2 + i a neutral, [`NONE`].
    pub controller: [u8; MAX_CITIES],
    /// Consecutive ends of Game-Turn each city has been under its
    /// controller [24.12].
    pub held: [u16; MAX_CITIES],
    /// Each neutral's standing.
    pub neutrals: [NeutralState; MAX_NEUTRALS],
    /// Game-Turn from which an absent commander may return (0: present).
    pub commander_return: [u16; 16],
    /// The movement deck.
    pub deck: DeckState,
    /// The current Game-Turn (1-based).
    pub turn: u16,
    /// Storm rolls are due each Turn until a storm comes [22.28].
    pub storm_armed: bool,
    /// A storm blows this Turn: no movement [22.29].
    pub storm_now: bool,
    /// Each player's strength as the other can know it (set-up, plus
    /// reinforcements, less losses seen in combat and storms).
    pub public_strength: [u16; 2],
    /// Who moves first this game: neutral fleets again neutral fly home in
    /// his Movement Phase [24.42].
    pub first: u8,
    /// Counts for the outputs.
    pub stats: GameStats,
    /// The winner, once the game is won [25.3].
    pub winner: Option<usize>,
    /// The game has ended (won, or at the turn limit).
    pub over: bool,
    /// Each player's diplomacy mode in the in-fighting being resolved
    /// [24.3]; a search re-samples the other player's, chosen face down.
    pub(crate) modes: [u8; 2],
    /// Whether `modes[p]` has been chosen in the in-fighting under way.
    pub(crate) mode_chosen: [bool; 2],
    /// The search's decision bookkeeping.
    pub(crate) branching: Branching,
    /// The live game's searcher (empty without search players and in
    /// copies).
    pub(crate) slot: SearchSlot<Game<'a>>,
}

impl<'a> Game<'a> {
    /// Sets a game up [25.1, 25.2]; the scenario's set-up was checked at
    /// load.
    pub fn new(ctx: &Context<'a>, dice: &mut Dice) -> Self {
        let rules = ctx.rules;
        let mut g = Game {
            ctx: *ctx,
            groups: [Group::in_city(NONE, 0, 0, 0, 0); MAX_GROUPS],
            len: 0,
            controller: [NONE; MAX_CITIES],
            held: [0; MAX_CITIES],
            neutrals: [NeutralState {
                influence: [0; 2],
                reached: [0; 2],
                influenced_by: NONE,
                barred: [false; 2],
                grace_turn: 0,
            }; MAX_NEUTRALS],
            commander_return: [0; 16],
            deck: DeckState::new(&rules.deck, dice),
            turn: 1,
            storm_armed: false,
            storm_now: false,
            public_strength: [0; 2],
            first: 0,
            stats: GameStats::default(),
            winner: None,
            over: false,
            modes: [0; 2],
            mode_chosen: [false; 2],
            branching: Branching::default(),
            slot: SearchSlot::default(),
        };
        for p in 0..2 {
            for &(city, strength) in &ctx.config.setup[p] {
                let nation = home_nation(rules, p, city);
                g.add_fleet(p as u8, nation, city, strength);
                g.public_strength[p] += u16::from(strength);
            }
            for &(k, city) in &rules.sides[p].commanders {
                let nation = rules.data.commanders[k].nation as u8;
                if let Some(i) = g.find_group(p as u8, nation, city) {
                    g.groups[i].commanders |= 1 << k;
                }
            }
            for &c in &rules.sides[p].home_capitals {
                g.controller[c] = p as u8;
            }
        }
        for (i, n) in rules.neutrals.iter().enumerate() {
            let owner = (2 + i) as u8;
            g.add_fleet(owner, n.nation as u8, n.city, n.strength);
            if let Some(j) = g.find_group(owner, n.nation as u8, n.city) {
                g.groups[j].commanders = n.commanders;
            }
            g.controller[n.city] = owner;
        }
        g
    }

    /// The groups in use.
    #[inline]
    pub fn groups(&self) -> &[Group] {
        &self.groups[..self.len]
    }

    pub(super) fn find_group(&self, owner: u8, nation: u8, city: usize) -> Option<usize> {
        self.groups().iter().position(|g| {
            g.owner == owner && g.nation == nation && usize::from(g.city) == city && !g.in_transit
        })
    }

    /// Adds `strength` points of `owner`'s fleets of `nation` in `city`,
    /// joining a group already there.
    pub(crate) fn add_fleet(&mut self, owner: u8, nation: u8, city: usize, strength: u8) {
        if strength == 0 {
            return;
        }
        if let Some(i) = self.find_group(owner, nation, city) {
            self.groups[i].strength = self.groups[i].strength.saturating_add(strength);
        } else if self.len < MAX_GROUPS {
            self.groups[self.len] = Group::in_city(owner, nation, city, strength, 0);
            self.len += 1;
        }
    }

    pub(super) fn remove_group(&mut self, i: usize) {
        self.groups.copy_within(i + 1..self.len, i);
        self.len -= 1;
    }

    /// Whether units of `owner` fight for player `p` (its own, or a neutral
    /// it influenced [24.21]).
    #[inline]
    pub(crate) fn allied(&self, owner: u8, p: usize) -> bool {
        usize::from(owner) == p
            || (owner >= 2 && usize::from(self.neutrals[usize::from(owner) - 2].influenced_by) == p)
    }

    /// The player an owner fights for, if any.
    #[inline]
    pub(crate) fn side_of(&self, owner: u8) -> Option<usize> {
        if owner < 2 {
            Some(usize::from(owner))
        } else {
            let by = self.neutrals[usize::from(owner) - 2].influenced_by;
            (by != NONE).then_some(usize::from(by))
        }
    }

    /// The neutral whose peace holds in `city` [24.27]: the city is its
    /// own, it is influenced by neither player, and it still holds the city
    /// (no player has taken it by force [24.47]). Attacking the enemy there
    /// is a breach of the peace; once a player has taken the city, fighting
    /// in it is ordinary combat.
    pub(crate) fn peace_of(&self, city: usize) -> Option<usize> {
        let n = self.ctx.rules.neutral_in(city)?;
        (self.neutrals[n].influenced_by == NONE && usize::from(self.controller[city]) == 2 + n)
            .then_some(n)
    }

    /// Whether `city` holds fleets not allied to `p` (enemy or neutral):
    /// then `p`'s fleets may leave only the way they came [22.25].
    pub(crate) fn hostile_in(&self, city: usize, p: usize) -> bool {
        self.groups()
            .iter()
            .any(|g| !g.in_transit && usize::from(g.city) == city && !self.allied(g.owner, p))
    }

    /// Player `p`'s own fleets in `city` (not in transit).
    pub fn own_strength(&self, city: usize, p: usize) -> u8 {
        self.groups()
            .iter()
            .filter(|g| !g.in_transit && usize::from(g.city) == city && usize::from(g.owner) == p)
            .fold(0u8, |s, g| s.saturating_add(g.strength))
    }

    /// Whether capital city `c` counts as `p`'s for victory: he controls
    /// it, or a neutral he influenced does [25.3].
    pub(crate) fn counts_for(&self, c: usize, p: usize) -> bool {
        let k = self.controller[c];
        k != NONE && self.side_of(k) == Some(p)
    }

    /// Capitals that count for `p`.
    pub fn capitals_held(&self, rules: &MilitaryRules, p: usize) -> u8 {
        rules
            .capital_cities
            .iter()
            .filter(|c| self.counts_for(**c, p))
            .count() as u8
    }
}

/// Nation of player `p`'s fleets raised in `city`: the capital's own if it
/// is one of his, else his first nation.
pub fn home_nation(rules: &MilitaryRules, p: usize, city: usize) -> u8 {
    let side = &rules.sides[p];
    match rules.map.cities[city].capital {
        Some(k) if side.nations.contains(&rules.data.capitals[k].nation) => {
            rules.data.capitals[k].nation as u8
        }
        _ => side.nations[0] as u8,
    }
}

/// The best leader in a commander mask [23.31], or [`NO_COMMANDER`].
pub fn best_leader(rules: &MilitaryRules, mask: u16) -> u8 {
    let mut best = NO_COMMANDER;
    let mut m = mask;
    while m != 0 {
        let k = m.trailing_zeros() as usize;
        m &= m - 1;
        if best == NO_COMMANDER
            || rules.data.commanders[k].leadership
                > rules.data.commanders[usize::from(best)].leadership
        {
            best = k as u8;
        }
    }
    best
}

/// Display name of an owner.
pub fn owner_name(rules: &MilitaryRules, owner: u8) -> String {
    if owner < 2 {
        rules.sides[usize::from(owner)].name.clone()
    } else {
        let n = &rules.neutrals[usize::from(owner) - 2];
        rules.data.nations[n.nation].name.clone()
    }
}
