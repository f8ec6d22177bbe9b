//! The state of one Military Game and its turn sequence [21.0]: diplomacy
//! and storms, then each player's movement [22.2], combat [23.0] and
//! reinforcement [24.1] phases, then the end of the Game-Turn (control of
//! cities, victory [25.3]). Fixed-size arrays only: a game allocates
//! nothing.

use super::battles::{BattleCache, BattleKey, BreakOff, NO_COMMANDER, SideKey, fight};
use super::deck::DeckState;
use super::map::MAX_CITIES;
use super::players::{self, Policy};
use super::rules::{MAX_NEUTRALS, MilitaryRules};
use crate::engine::{Dice, Trace};
use crate::games::jc::fleet::{
    OUT_AGREED, OUT_FIRST_ELIMINATES, OUT_FIRST_REVERSES, OUT_SECOND_ELIMINATES,
    OUT_SECOND_REVERSES,
};

/// Most fleet groups on the map at once.
pub const MAX_GROUPS: usize = 96;
/// "None" for city, owner and player fields.
pub const NONE: u8 = u8::MAX;

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
    /// The Game-Turn each player first reached the winning total (0: not
    /// yet) [24.34].
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
pub struct Context<'a> {
    /// The data.
    pub rules: &'a MilitaryRules,
    /// The scenario's choices.
    pub config: &'a GameConfig,
    /// Compiled battles.
    pub cache: &'a BattleCache,
}

/// One game in progress.
#[derive(Debug, Clone)]
pub struct Game {
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
    /// Counts for the outputs.
    pub stats: GameStats,
}

impl Game {
    /// Sets a game up [25.1, 25.2]; the scenario's set-up was checked at
    /// load.
    pub fn new(ctx: &Context, dice: &mut Dice) -> Self {
        let rules = ctx.rules;
        let mut g = Game {
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
            stats: GameStats::default(),
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

    fn find_group(&self, owner: u8, nation: u8, city: usize) -> Option<usize> {
        self.groups().iter().position(|g| {
            g.owner == owner && g.nation == nation && usize::from(g.city) == city && !g.in_transit
        })
    }

    /// Adds `strength` points of `owner`'s fleets of `nation` in `city`,
    /// joining a group already there.
    pub fn add_fleet(&mut self, owner: u8, nation: u8, city: usize, strength: u8) {
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

    fn remove_group(&mut self, i: usize) {
        self.groups.copy_within(i + 1..self.len, i);
        self.len -= 1;
    }

    /// Whether units of `owner` fight for player `p` (its own, or a neutral
    /// it influenced [24.21]).
    #[inline]
    pub fn allied(&self, owner: u8, p: usize) -> bool {
        usize::from(owner) == p
            || (owner >= 2 && usize::from(self.neutrals[usize::from(owner) - 2].influenced_by) == p)
    }

    /// The player an owner fights for, if any.
    #[inline]
    pub fn side_of(&self, owner: u8) -> Option<usize> {
        if owner < 2 {
            Some(usize::from(owner))
        } else {
            let by = self.neutrals[usize::from(owner) - 2].influenced_by;
            (by != NONE).then_some(usize::from(by))
        }
    }

    /// Whether `city` holds fleets not allied to `p` (enemy or neutral):
    /// then `p`'s fleets may leave only the way they came [22.25].
    pub fn hostile_in(&self, city: usize, p: usize) -> bool {
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
    pub fn counts_for(&self, c: usize, p: usize) -> bool {
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

    /// Plays the game to victory or the turn limit.
    pub fn play<T: Trace>(&mut self, ctx: &Context, dice: &mut Dice, trace: &mut T) -> GameEnd {
        let first = match ctx.config.first {
            FirstMover::Player(p) => p,
            FirstMover::Alternate => (dice.trial() % 2) as usize,
        };
        let limit = ctx.config.turn_limit;
        loop {
            self.diplomacy_phase(ctx, dice, trace);
            for p in [first, 1 - first] {
                self.movement_phase(ctx, p, dice, trace);
                self.combat_phase(ctx, p, dice, trace);
                self.update_control(ctx.rules);
                self.reinforcement_phase(ctx, p, trace);
            }
            let winner = self.end_of_turn(ctx.rules, trace);
            if winner.is_some() || self.turn == limit {
                self.finish(ctx.rules);
                return GameEnd {
                    winner,
                    turns: self.turn,
                    first,
                };
            }
            self.turn += 1;
        }
    }

    fn finish(&mut self, rules: &MilitaryRules) {
        for p in 0..2 {
            let held = self.capitals_held(rules, p);
            for (i, t) in CHECKPOINTS.iter().enumerate() {
                if *t > self.turn {
                    self.stats.capitals_at[p][i] = held;
                }
            }
        }
        for i in 0..rules.neutrals.len() {
            let by = self.neutrals[i].influenced_by;
            self.stats.neutral_end[i] = if by == NONE { 0 } else { by + 1 };
        }
    }

    // ------------------------------------------------------------ diplomacy

    /// [21.0 A] storms [22.28, 22.29], then influence [24.2, 24.3].
    pub fn diplomacy_phase<T: Trace>(&mut self, ctx: &Context, dice: &mut Dice, trace: &mut T) {
        let rules = ctx.rules;
        let s = &rules.standing;
        self.storm_now = false;
        if self.turn.is_multiple_of(s.storm_period) {
            self.storm_armed = true;
        }
        if self.storm_armed {
            let roll = dice.d6();
            if roll <= s.storm_roll {
                self.storm(ctx.rules, trace, roll);
            } else {
                trace.event("JC 22.28 storm roll", || {
                    format!("turn {}: storm roll {roll}: no storm", self.turn)
                });
            }
        }
        for n in 0..rules.neutrals.len() {
            self.influence(ctx, n, dice, trace);
        }
    }

    fn storm<T: Trace>(&mut self, rules: &MilitaryRules, trace: &mut T, roll: u32) {
        self.storm_armed = false;
        self.storm_now = true;
        self.stats.storms += 1;
        let mut lost = [0u32; 2];
        let mut i = 0;
        while i < self.len {
            let g = self.groups[i];
            if g.in_transit {
                if g.owner < 2 {
                    lost[usize::from(g.owner)] += u32::from(g.strength);
                    self.public_strength[usize::from(g.owner)] = self.public_strength
                        [usize::from(g.owner)]
                    .saturating_sub(u16::from(g.strength));
                }
                // [22.29] the commanders aboard come home after the next
                // Turn's Reinforcement Phase.
                self.send_home(g.commanders, self.turn + 1);
                self.remove_group(i);
            } else {
                i += 1;
            }
        }
        let _ = rules;
        for (total, l) in self.stats.storm_losses.iter_mut().zip(lost) {
            *total += l;
        }
        trace.event("JC 22.29 storm", || {
            format!(
                "turn {}: storm roll {roll}: a storm; fleets in transit lost: Helium {}, alliance {}; no movement this Turn",
                self.turn, lost[0], lost[1]
            )
        });
    }

    fn send_home(&mut self, commanders: u16, turn: u16) {
        let mut m = commanders;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            self.commander_return[k] = turn;
        }
    }

    /// Presence of player `p` in `city` for diplomacy: (a fleet, a fleet
    /// with a commander, best diplomacy value) [24.23-24.25].
    fn presence(&self, rules: &MilitaryRules, city: usize, p: usize) -> (bool, bool, i32) {
        let mut fleet = false;
        let mut cmd = 0u16;
        for g in self.groups() {
            if !g.in_transit && usize::from(g.city) == city && usize::from(g.owner) == p {
                fleet = true;
                cmd |= g.commanders;
            }
        }
        let mut best = 0i32;
        let mut m = cmd;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            best = best.max(i32::from(rules.diplomacy.values[k]));
        }
        (fleet, cmd != 0, best)
    }

    /// One neutral's Influence Points this Diplomacy Phase.
    pub fn influence<T: Trace>(&mut self, ctx: &Context, n: usize, dice: &mut Dice, trace: &mut T) {
        let rules = ctx.rules;
        if self.neutrals[n].influenced_by != NONE {
            return;
        }
        let city = rules.neutrals[n].city;
        let pres = [self.presence(rules, city, 0), self.presence(rules, city, 1)];
        let mut gain = [0u8; 2];
        match (pres[0].0, pres[1].0) {
            (false, false) => return,
            (true, false) | (false, true) => {
                // [24.23, 24.25] alone: 2, or 3 with a commander.
                let p = usize::from(pres[1].0);
                gain[p] = 2 + u8::from(pres[p].1);
            }
            (true, true) if pres[0].1 != pres[1].1 => {
                // [24.24] fleet and commander against a fleet alone: 2.
                let p = usize::from(pres[1].1);
                gain[p] = 2;
            }
            (true, true) => {
                // [24.31] equal forces: one round of in-fighting [24.32].
                let modes = [
                    players::diplomacy_mode(ctx, 0, dice),
                    players::diplomacy_mode(ctx, 1, dice),
                ];
                let m =
                    i32::from(rules.diplomacy.matrix[modes[0]][modes[1]]) + (pres[0].2 - pres[1].2);
                let rolls = [dice.d10() as i32, dice.d10() as i32];
                gain = [
                    rules.diplomacy.points(rolls[0] + m),
                    rules.diplomacy.points(rolls[1] - m),
                ];
                trace.event("JC 24.3 in-fighting", || {
                    format!(
                        "{}: Helium {} vs alliance {}: modifier {m:+}; rolls {} and {} -> {} and {} Influence Points",
                        rules.map.cities[city].name,
                        rules.diplomacy.modes[modes[0]],
                        rules.diplomacy.modes[modes[1]],
                        rolls[0],
                        rolls[1],
                        gain[0],
                        gain[1]
                    )
                });
            }
        }
        let win = rules.standing.influence_to_win;
        let st = &mut self.neutrals[n];
        for (p, gain) in gain.iter_mut().enumerate() {
            if st.barred[p] {
                *gain = 0;
            }
            st.influence[p] = st.influence[p].saturating_add(*gain);
            if st.influence[p] >= win && st.reached[p] == 0 {
                st.reached[p] = self.turn;
            }
        }
        // [24.33, 24.34] the neutral is claimed at the end of the phase; on
        // both over the line, the first there, then the higher total.
        let over = [st.influence[0] >= win, st.influence[1] >= win];
        let winner = match over {
            [true, false] => Some(0),
            [false, true] => Some(1),
            [true, true] => match st.reached[0].cmp(&st.reached[1]) {
                std::cmp::Ordering::Less => Some(0),
                std::cmp::Ordering::Greater => Some(1),
                std::cmp::Ordering::Equal => match st.influence[0].cmp(&st.influence[1]) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                },
            },
            _ => None,
        };
        let totals = st.influence;
        if let Some(p) = winner {
            st.influenced_by = p as u8;
            // [24.28] the other player's fleets there get this Turn to go.
            if pres[1 - p].0 {
                st.grace_turn = self.turn;
            }
        }
        trace.event("JC 24.2 influence", || {
            format!(
                "turn {}: {}: Helium +{} ({}), alliance +{} ({}){}",
                self.turn,
                rules.map.cities[city].name,
                gain[0],
                totals[0],
                gain[1],
                totals[1],
                match winner {
                    Some(p) => format!("; influenced by {}", rules.sides[p].name),
                    None => String::new(),
                }
            )
        });
    }

    // ------------------------------------------------------------ movement

    /// [21.0 B/E, 22.2] the phasing player's movement.
    pub fn movement_phase<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        if self.storm_now {
            return;
        }
        let rules = ctx.rules;
        // Groups split off this phase join the end of the list and have
        // already moved.
        let count = self.len;
        let mut i = 0;
        let mut seen = 0;
        while seen < count {
            seen += 1;
            let g = self.groups[i];
            if usize::from(g.owner) != p {
                i += 1;
                continue;
            }
            if g.in_transit {
                // [22.22, 22.24] on, towards the destination.
                self.fly(rules, i, dice, trace);
                i += 1;
                continue;
            }
            match players::move_order(ctx, self, p, i, dice) {
                MoveOrder::Stay => {}
                MoveOrder::Go {
                    route,
                    strength,
                    commanders,
                } => {
                    let r = rules.map.routes[usize::from(route)];
                    debug_assert_eq!(r.from, g.city);
                    let legal = !self.hostile_in(usize::from(g.city), p) || r.to == g.from;
                    if legal && strength > 0 && strength <= g.strength {
                        let mover = if strength < g.strength && self.len < MAX_GROUPS {
                            // Split: the rest and the commanders not going
                            // stay [22.23].
                            self.groups[i].strength -= strength;
                            self.groups[i].commanders &= !commanders;
                            self.groups[self.len] = Group {
                                strength,
                                commanders: commanders & g.commanders,
                                ..g
                            };
                            self.len += 1;
                            self.len - 1
                        } else {
                            i
                        };
                        let m = &mut self.groups[mover];
                        m.from = r.from;
                        m.city = r.to;
                        m.left = r.haads;
                        m.in_transit = true;
                        if r.one_turn {
                            // [9.41] a 1T line: there at once, no card.
                            m.in_transit = false;
                            m.left = 0;
                            trace.event("JC 9.41 one-turn line", || {
                                format!(
                                    "{} flies {} -> {} (1T)",
                                    rules.sides[p].name,
                                    rules.map.cities[usize::from(r.from)].name,
                                    rules.map.cities[usize::from(r.to)].name
                                )
                            });
                        } else {
                            self.fly(rules, mover, dice, trace);
                        }
                    }
                }
            }
            i += 1;
        }
        self.merge();
    }

    /// Draws a card for group `i` and flies it on [9.1, 9.11, 9.12].
    fn fly<T: Trace>(&mut self, rules: &MilitaryRules, i: usize, dice: &mut Dice, trace: &mut T) {
        let card = self.deck.draw(dice);
        let haads = rules.deck.flier[card];
        let g = &mut self.groups[i];
        g.left = g.left.saturating_sub(haads);
        if g.left == 0 {
            g.in_transit = false;
        }
        let g = *g;
        trace.event("JC 22.21 movement card", || {
            format!(
                "turn {}: card {:03} ({} haads): {} fleet ({}) {} -> {}: {}",
                self.turn,
                usize::from(rules.deck.first_card) + card,
                haads,
                owner_name(rules, g.owner),
                g.strength,
                rules.map.cities[usize::from(g.from)].name,
                rules.map.cities[usize::from(g.city)].name,
                if g.in_transit {
                    format!("{} haads to go", g.left)
                } else {
                    "arrived".into()
                }
            )
        });
    }

    /// Joins groups of one owner and nation in the same city.
    fn merge(&mut self) {
        let mut i = 0;
        while i < self.len {
            let a = self.groups[i];
            if !a.in_transit {
                let mut j = i + 1;
                while j < self.len {
                    let b = self.groups[j];
                    if !b.in_transit
                        && b.owner == a.owner
                        && b.nation == a.nation
                        && b.city == a.city
                    {
                        self.groups[i].strength =
                            self.groups[i].strength.saturating_add(b.strength);
                        self.groups[i].commanders |= b.commanders;
                        if b.from != NONE {
                            self.groups[i].from = b.from;
                        }
                        self.remove_group(j);
                    } else {
                        j += 1;
                    }
                }
            }
            i += 1;
        }
    }

    // ------------------------------------------------------------ combat

    /// [21.0 C/F, 23.0] the phasing player attacks where he chooses.
    pub fn combat_phase<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        for city in 0..ctx.rules.map.cities.len() {
            if self.own_strength(city, p) == 0 {
                continue;
            }
            if self.enemy_in(city, p) && players::attack(ctx, self, p, city, Target::Enemy, dice) {
                self.combat(ctx, p, city, Target::Enemy, dice, trace);
            }
            for n in 0..ctx.rules.neutrals.len() {
                if self.own_strength(city, p) == 0 {
                    break;
                }
                let owner = (2 + n) as u8;
                let present = self.neutrals[n].influenced_by == NONE
                    && self
                        .groups()
                        .iter()
                        .any(|g| g.owner == owner && !g.in_transit && usize::from(g.city) == city);
                let target = Target::Neutral(n as u8);
                if present && players::attack(ctx, self, p, city, target, dice) {
                    self.combat(ctx, p, city, target, dice, trace);
                }
            }
        }
    }

    /// Whether the enemy of `p` (or a neutral he influenced) has fleets in
    /// `city`.
    pub fn enemy_in(&self, city: usize, p: usize) -> bool {
        self.groups().iter().any(|g| {
            !g.in_transit && usize::from(g.city) == city && self.side_of(g.owner) == Some(1 - p)
        })
    }

    /// The battle-key side of player `p`'s forces in `city` (its own and
    /// influenced neutrals' fleets), or of neutral owner `owner`.
    pub fn side_key(
        &self,
        rules: &MilitaryRules,
        city: usize,
        player: Option<usize>,
        owner: u8,
    ) -> SideKey {
        let mut key = SideKey {
            nation: 0,
            home: 0,
            leader: NO_COMMANDER,
            neutral_nation: 0,
            neutral: 0,
            neutral_leader: NO_COMMANDER,
            break_off: BreakOff::default(),
        };
        let mut biggest = 0u8;
        let mut home_cmd = 0u16;
        let mut neutral_cmd = 0u16;
        for g in self.groups() {
            if g.in_transit || usize::from(g.city) != city {
                continue;
            }
            let home = match player {
                Some(p) => usize::from(g.owner) == p,
                None => g.owner == owner,
            };
            if home {
                key.home = key.home.saturating_add(g.strength);
                home_cmd |= g.commanders;
                if g.strength > biggest {
                    biggest = g.strength;
                    key.nation = g.nation;
                }
            } else if player.is_some_and(|p| g.owner >= 2 && self.allied(g.owner, p)) {
                key.neutral = key.neutral.saturating_add(g.strength);
                key.neutral_nation = g.nation;
                neutral_cmd |= g.commanders;
            }
        }
        key.leader = best_leader(rules, home_cmd);
        key.neutral_leader = best_leader(rules, neutral_cmd);
        key
    }

    /// Whether `city` is a neutral's that `p` influenced this Turn with
    /// enemy fleets in it, which may leave unattacked until the Turn ends
    /// [24.28].
    pub fn in_grace(&self, rules: &MilitaryRules, city: usize, p: usize) -> bool {
        rules.neutral_in(city).is_some_and(|n| {
            let st = &self.neutrals[n];
            usize::from(st.influenced_by) == p && st.grace_turn == self.turn
        })
    }

    /// The key of a combat `p` would start in `city` against `target`.
    pub fn battle_key(&self, ctx: &Context, p: usize, city: usize, target: Target) -> BattleKey {
        let rules = ctx.rules;
        let mut attacker = self.side_key(rules, city, Some(p), p as u8);
        attacker.break_off = ctx.config.break_off[p];
        let defender = match target {
            Target::Enemy => SideKey {
                break_off: ctx.config.break_off[1 - p],
                ..self.side_key(rules, city, Some(1 - p), (1 - p) as u8)
            },
            Target::Neutral(n) => self.side_key(rules, city, None, n + 2),
        };
        BattleKey {
            sides: [attacker, defender],
            capital: rules.map.cities[city].capital.map(|k| k as u8),
        }
    }

    /// Fights one combat and applies it [23.0-23.4, 24.27, 24.42].
    pub fn combat<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        city: usize,
        target: Target,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        let rules = ctx.rules;
        // Attacking in a neutral's city [24.27, 24.28].
        if let Some(n) = rules.neutral_in(city) {
            if target == Target::Enemy {
                if self.in_grace(rules, city, p) {
                    // [24.28] attacked in its grace Turn.
                    self.stats.grace_joins += 1;
                    self.neutral_joins_attacked(rules, n, p, city, "JC 24.28 grace broken", trace);
                } else if self.neutrals[n].influenced_by == NONE {
                    // [24.27] a breach of the peace.
                    self.stats.breaches += 1;
                    self.neutral_joins_attacked(
                        rules,
                        n,
                        p,
                        city,
                        "JC 24.27 breach of the peace",
                        trace,
                    );
                }
            }
            self.neutrals[n].barred[p] = true;
        }
        if let Target::Neutral(n) = target {
            self.neutrals[usize::from(n)].barred[p] = true;
        }
        let key = self.battle_key(ctx, p, city, target);
        if key.sides[1].home == 0 && key.sides[1].neutral == 0 {
            return;
        }
        let result = fight(ctx.cache, &rules.data, &key, dice);
        self.stats.battles += 1;
        if result.terminal.outcome == OUT_AGREED {
            // [23.22] the city stays with whoever held it.
            self.stats.break_offs += 1;
        }
        let t = result.terminal;
        let owners: [(Option<usize>, u8); 2] = [
            (Some(p), p as u8),
            match target {
                Target::Enemy => (Some(1 - p), (1 - p) as u8),
                Target::Neutral(n) => (None, n + 2),
            },
        ];
        for (s, &(player, owner)) in owners.iter().enumerate() {
            let k = key.sides[s];
            let left = t.left[s];
            // Losses fall on home fleets first [24.43]: the neutral loses
            // only what the home fleets could not absorb.
            let (home_left, neutral_left) = if left >= k.neutral {
                (left - k.neutral, k.neutral)
            } else {
                (0, left)
            };
            let home_lost = k.home - home_left.min(k.home);
            let neutral_lost = k.neutral - neutral_left;
            let cmd = self.take_losses(
                city,
                |g| match player {
                    Some(pl) => usize::from(g.owner) == pl,
                    None => g.owner == owner,
                },
                home_lost,
            );
            if let Some(pl) = player {
                self.stats.combat_losses[pl] += u32::from(home_lost);
                self.public_strength[pl] =
                    self.public_strength[pl].saturating_sub(u16::from(home_lost));
                let ally = rules
                    .neutrals
                    .iter()
                    .position(|x| x.nation == usize::from(k.neutral_nation))
                    .filter(|_| k.neutral > 0);
                if let Some(n) = ally {
                    let ally_owner = (2 + n) as u8;
                    if neutral_lost > 0 {
                        self.take_losses(city, |g| g.owner == ally_owner, neutral_lost);
                    }
                    if t.neutral_lost[s] != 0 {
                        // [24.42] the neutral is neutral again.
                        let st = &mut self.neutrals[n];
                        st.influenced_by = NONE;
                        st.influence = [0; 2];
                        st.reached = [0; 2];
                    }
                }
                if self.own_strength(city, pl) == 0 && cmd != 0 {
                    if neutral_left > 0 {
                        // [24.45] carried away by the neutral's fleets.
                        self.send_home(cmd, self.turn + 1);
                    } else {
                        // [23.26] captured; back in the third Turn after.
                        self.send_home(cmd, self.turn + rules.standing.capture_turns);
                        self.stats.captured[pl] += cmd.count_ones();
                    }
                }
            }
        }
        let holder = match t.outcome {
            OUT_FIRST_ELIMINATES | OUT_SECOND_REVERSES => Some(0),
            OUT_SECOND_ELIMINATES | OUT_FIRST_REVERSES => Some(1),
            _ => None,
        };
        if let Some(h) = holder {
            let new = if h == 0 { p as u8 } else { owners[1].1 };
            self.set_controller(rules, city, new);
        }
        trace.event("JC 23.0 fleet combat", || {
            format!(
                "turn {}: {} attacks {} in {}: {} ({}) vs {} ({}) -> {} left / {} left after {} rounds",
                self.turn,
                rules.sides[p].name,
                match target {
                    Target::Enemy => rules.sides[1 - p].name.clone(),
                    Target::Neutral(n) => owner_name(rules, n + 2),
                },
                rules.map.cities[city].name,
                key.sides[0].home,
                key.sides[0].neutral,
                key.sides[1].home,
                key.sides[1].neutral,
                t.left[0],
                t.left[1],
                result.rounds
            )
        });
    }

    /// Neutral `n`, whose city `p` attacks in, goes over to the side
    /// attacked: at once on a breach of the peace [24.27], and when the
    /// attack falls in the grace Turn of the city's new ally [24.28].
    fn neutral_joins_attacked<T: Trace>(
        &mut self,
        rules: &MilitaryRules,
        n: usize,
        p: usize,
        city: usize,
        case: &'static str,
        trace: &mut T,
    ) {
        let st = &mut self.neutrals[n];
        st.influenced_by = (1 - p) as u8;
        st.grace_turn = 0;
        trace.event(case, || {
            format!(
                "turn {}: {} attacks in {}: the neutral's fleets go over to {}",
                self.turn,
                rules.sides[p].name,
                rules.map.cities[city].name,
                rules.sides[1 - p].name
            )
        });
    }

    /// Removes `n` strength points from the groups in `city` that `of`
    /// selects, in list order; returns the commanders of groups wiped out.
    fn take_losses(&mut self, city: usize, of: impl Fn(&Group) -> bool, mut n: u8) -> u16 {
        let mut cmd = 0u16;
        let mut i = 0;
        while i < self.len && n > 0 {
            let g = self.groups[i];
            if !g.in_transit && usize::from(g.city) == city && of(&g) {
                let x = n.min(g.strength);
                n -= x;
                if x == g.strength {
                    cmd |= g.commanders;
                    self.remove_group(i);
                    continue;
                }
                self.groups[i].strength -= x;
            }
            i += 1;
        }
        cmd
    }

    fn set_controller(&mut self, rules: &MilitaryRules, city: usize, owner: u8) {
        // A neutral's own city stays its own while it fights for the
        // player who took it.
        let owner = match rules.neutral_in(city) {
            Some(n) if owner < 2 && self.neutrals[n].influenced_by == owner => (2 + n) as u8,
            _ => owner,
        };
        if self.controller[city] != owner {
            self.controller[city] = owner;
            self.held[city] = 0;
        }
    }

    /// [24.47] a city whose only fleets belong to one side is that side's.
    pub fn update_control(&mut self, rules: &MilitaryRules) {
        for city in 0..rules.map.cities.len() {
            let mut present: Option<u8> = None;
            let mut mixed = false;
            for g in self.groups() {
                if g.in_transit || usize::from(g.city) != city {
                    continue;
                }
                // Fleets fighting for a player count as his.
                let faction = self.side_of(g.owner).map_or(g.owner, |p| p as u8);
                match present {
                    None => present = Some(faction),
                    Some(f) if f != faction => mixed = true,
                    _ => {}
                }
            }
            if let (Some(f), false) = (present, mixed) {
                self.set_controller(rules, city, f);
            }
        }
    }

    // ------------------------------------------------------------ reinforcement

    /// [21.0 D/G, 24.1] reinforcements every third Turn; returning
    /// commanders every Turn [23.26, 22.29].
    pub fn reinforcement_phase<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let rules = ctx.rules;
        let s = &rules.standing;
        if self.turn.is_multiple_of(s.reinforcement_interval) {
            let r = s.reinforcement_strength;
            let mut added = 0u16;
            let mut own_capital: Option<usize> = None;
            for &c in &rules.sides[p].home_capitals {
                // [24.11] only where no enemy controls the capital.
                if usize::from(self.controller[c]) == p {
                    self.add_fleet(p as u8, home_nation(rules, p, c), c, r);
                    added += u16::from(r);
                    own_capital.get_or_insert(c);
                }
            }
            // [24.12] an extra fleet per enemy capital held long enough,
            // placed at a capital he controls [24.13].
            let mut extra = 0u8;
            for &c in &rules.sides[1 - p].home_capitals {
                if usize::from(self.controller[c]) == p && self.held[c] >= s.hold_turns_for_extra {
                    extra += 1;
                    own_capital.get_or_insert(c);
                }
            }
            if let Some(c) = own_capital {
                for _ in 0..extra {
                    self.add_fleet(p as u8, home_nation(rules, p, c), c, r);
                    added += u16::from(r);
                }
            }
            // Friendly influenced neutrals reinforce in their capitals.
            for (n, nr) in rules.neutrals.iter().enumerate() {
                let owner = (2 + n) as u8;
                if usize::from(self.neutrals[n].influenced_by) == p
                    && rules.map.cities[nr.city].capital.is_some()
                    && self.controller[nr.city] == owner
                {
                    self.add_fleet(owner, nr.nation as u8, nr.city, r);
                }
            }
            self.public_strength[p] += added;
            trace.event("JC 24.1 reinforcements", || {
                format!(
                    "turn {}: {} receives {added} strength points ({extra} for enemy capitals held)",
                    self.turn, rules.sides[p].name
                )
            });
        }
        for k in 0..rules.data.commanders.len() {
            let due = self.commander_return[k];
            if due == 0 || due > self.turn || usize::from(rules.commander_owner[k]) != p {
                continue;
            }
            let nation = rules.data.commanders[k].nation as u8;
            // Back to a capital of his nation with a fleet of it there.
            let home = rules.sides[p].home_capitals.iter().find_map(|&c| {
                let capital = rules.map.cities[c].capital?;
                if rules.data.capitals[capital].nation != usize::from(nation) {
                    return None;
                }
                self.find_group(p as u8, nation, c)
            });
            if let Some(i) = home {
                self.groups[i].commanders |= 1 << k;
                self.commander_return[k] = 0;
            }
        }
    }

    /// [21.0 H, 25.3] end of the Game-Turn: time held, checkpoints, victory.
    pub fn end_of_turn<T: Trace>(&mut self, rules: &MilitaryRules, trace: &mut T) -> Option<usize> {
        for c in 0..rules.map.cities.len() {
            if self.controller[c] != NONE {
                self.held[c] = self.held[c].saturating_add(1);
            }
        }
        let held = [self.capitals_held(rules, 0), self.capitals_held(rules, 1)];
        if let Some(i) = CHECKPOINTS.iter().position(|t| *t == self.turn) {
            for (at, h) in self.stats.capitals_at.iter_mut().zip(held) {
                at[i] = h;
            }
        }
        let all = rules.capital_cities.len() as u8;
        let winner = (0..2).find(|p| held[*p] == all);
        trace.event("JC 25.3 end of turn", || {
            format!(
                "turn {}: capitals Helium {} / alliance {} of {all}{}",
                self.turn,
                held[0],
                held[1],
                match winner {
                    Some(p) => format!(": {} wins", rules.sides[p].name),
                    None => String::new(),
                }
            )
        });
        winner
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
