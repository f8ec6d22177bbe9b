//! The turn sequence [21.0]: the game played to its end, the diplomacy
//! phase (storms and influence), movement, reinforcement and the end of the
//! Game-Turn.

use super::state::{
    CHECKPOINTS, ESCORT, FirstMover, Game, GameEnd, Group, MAX_GROUPS, MoveOrder, NONE,
    home_nation, owner_name,
};
use crate::jc::military::players;
use crate::jc::military::rules::MilitaryRules;
use barsoom_engine::search::{self, SearchSlot};
use barsoom_engine::{Dice, Trace};

impl<'a> Game<'a> {
    /// Plays the game to victory or the turn limit.
    pub fn play<T: Trace>(&mut self, dice: &mut Dice, trace: &mut T) -> GameEnd {
        let first = match self.ctx.config.first {
            FirstMover::Player(p) => p,
            FirstMover::Alternate => (dice.trial() % 2) as usize,
        };
        self.first = first as u8;
        if self.ctx.config.policies.iter().any(|p| p.is_search()) {
            self.slot = SearchSlot::live(T::ENABLED);
        }
        while !self.over {
            self.game_turn(dice, trace);
        }
        GameEnd {
            winner: self.winner,
            turns: self.turn,
            first,
        }
    }

    /// Plays one Game-Turn [21.0] from its start; at its end the game is
    /// won [25.3], at its turn limit, or the turn counter moves on.
    pub fn game_turn<T: Trace>(&mut self, dice: &mut Dice, trace: &mut T) {
        search::turn_boundary(self, dice);
        let first = usize::from(self.first);
        self.diplomacy_phase(dice, trace);
        for p in [first, 1 - first] {
            self.movement_phase(p, dice, trace);
            self.combat_phase(p, dice, trace);
            self.update_control(self.ctx.rules);
            self.reinforcement_phase(p, trace);
        }
        let winner = self.end_of_turn(self.ctx.rules, trace);
        if T::ENABLED {
            for note in self.slot.take_notes() {
                trace.event("search", || note);
            }
        }
        if winner.is_some() || self.turn == self.ctx.config.turn_limit {
            self.winner = winner;
            self.over = true;
            self.finish(self.ctx.rules);
        } else {
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
    pub fn diplomacy_phase<T: Trace>(&mut self, dice: &mut Dice, trace: &mut T) {
        let rules = self.ctx.rules;
        let s = &rules.standing;
        self.storm_now = false;
        if self.turn.is_multiple_of(s.storm_period) {
            self.storm_armed = true;
        }
        if self.storm_armed {
            let roll = dice.d6();
            if roll <= s.storm_roll {
                self.storm(rules, trace, roll);
            } else {
                trace.event("JC 22.28 storm roll", || {
                    format!("turn {}: storm roll {roll}: no storm", self.turn)
                });
            }
        }
        for n in 0..rules.neutrals.len() {
            self.influence(n, dice, trace);
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

    pub(super) fn send_home(&mut self, commanders: u16, turn: u16) {
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
    pub fn influence<T: Trace>(&mut self, n: usize, dice: &mut Dice, trace: &mut T) {
        let rules = self.ctx.rules;
        if self.neutrals[n].influenced_by != NONE {
            return;
        }
        let city = rules.neutrals[n].city;
        let pres = [self.presence(rules, city, 0), self.presence(rules, city, 1)];
        let win = rules.standing.influence_to_win;
        // Each player's points this phase, and the points each roll of
        // in-fighting takes from the other player [24.33].
        let mut gain = [0u8; 2];
        let mut takes = [0u8; 2];
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
                let modes = self.diplomacy_modes(dice);
                let m =
                    i32::from(rules.diplomacy.matrix[modes[0]][modes[1]]) + (pres[0].2 - pres[1].2);
                let rolls = [dice.d10() as i32 + m, dice.d10() as i32 - m];
                gain = rolls.map(|r| rules.diplomacy.points(r));
                takes = rolls.map(|r| rules.diplomacy.other_loses(r));
                trace.event("JC 24.3 in-fighting", || {
                    format!(
                        "{}: Helium {} vs alliance {}: modifier {m:+}; modified rolls {} and {} -> {} and {} Influence Points{}",
                        rules.map.cities[city].name,
                        rules.diplomacy.modes[modes[0]],
                        rules.diplomacy.modes[modes[1]],
                        rolls[0],
                        rolls[1],
                        gain[0],
                        gain[1],
                        if takes == [0, 0] {
                            String::new()
                        } else {
                            format!(", costing the other {} and {}", takes[0], takes[1])
                        }
                    )
                });
            }
        }
        let first = usize::from(self.first);
        let st = &mut self.neutrals[n];
        for (g, barred) in gain.iter_mut().zip(st.barred) {
            if barred {
                *g = 0;
            }
        }
        st.read_points(gain, takes, first, self.turn, win);
        let winner = st.claimant(win);
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
    pub fn movement_phase<T: Trace>(&mut self, p: usize, dice: &mut Dice, trace: &mut T) {
        if self.storm_now {
            return;
        }
        let rules = self.ctx.rules;
        // Groups split off this phase join the end of the list and have
        // already moved.
        let count = self.len;
        let mut i = 0;
        let mut seen = 0;
        while seen < count {
            seen += 1;
            let g = self.groups[i];
            if g.owner >= 2 {
                // [24.41, 24.42, 24.47] a neutral's fleets not moving with
                // a home fleet fly straight home.
                if self.bound_home(rules, i) == Some(p) {
                    self.fly_home(rules, i, dice, trace);
                }
                i += 1;
                continue;
            }
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
            match self.move_order(p, i, dice) {
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
                        // [24.41] influenced neutral fleets beside a home
                        // fleet may go with it.
                        self.escort(p, mover, usize::from(g.city), dice);
                        let m = &mut self.groups[mover];
                        m.from = r.from;
                        m.city = r.to;
                        m.left = r.haads;
                        m.in_transit = true;
                        let mg = *m;
                        self.carry_escorts(mover, |e| {
                            e.from = mg.from;
                            e.city = mg.city;
                            e.left = mg.left;
                            e.in_transit = true;
                        });
                        if r.one_turn {
                            // [9.41] a 1T line: there at once, no card.
                            self.carry_escorts(mover, |e| {
                                e.in_transit = false;
                                e.left = 0;
                            });
                            let m = &mut self.groups[mover];
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
        if self.groups[i].owner < 2 {
            let left = self.groups[i].left.saturating_sub(haads);
            self.carry_escorts(i, |e| {
                e.left = left;
                e.in_transit = left != 0;
            });
        }
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

    /// Whether neutral group `j` travels with player group `i`: a neutral
    /// fighting for the same player, on the same flight at the same point
    /// (or in the same city) [24.41].
    fn escorts(&self, i: usize, j: usize) -> bool {
        let (a, e) = (self.groups[i], self.groups[j]);
        j != i
            && e.owner >= 2
            && a.owner < 2
            && self.allied(e.owner, usize::from(a.owner))
            && e.in_transit == a.in_transit
            && e.city == a.city
            && (!a.in_transit || (e.from == a.from && e.left == a.left))
    }

    /// Applies `f` to every neutral group travelling with group `i`
    /// (marked by `Group::from == ESCORT` while it is set out).
    fn carry_escorts(&mut self, i: usize, f: impl Fn(&mut Group)) {
        for j in 0..self.len {
            if self.groups[j].from == ESCORT || (self.groups[j].in_transit && self.escorts(i, j)) {
                f(&mut self.groups[j]);
            }
        }
        for j in 0..self.len {
            if self.groups[j].from == ESCORT {
                self.groups[j].from = self.groups[i].from;
            }
        }
    }

    /// [24.41] player `p`'s group `mover`, setting out from `city`, takes
    /// with it the part of the influenced neutral fleets there that `p`'s
    /// policy chooses; the part that goes is marked [`ESCORT`] until
    /// [`Game::carry_escorts`] sets it on its way.
    fn escort(&mut self, p: usize, mover: usize, city: usize, dice: &mut Dice) {
        let ctx = &{ self.ctx };
        let count = self.len;
        for j in 0..count {
            let e = self.groups[j];
            if e.owner < 2
                || e.in_transit
                || usize::from(e.city) != city
                || !self.allied(e.owner, p)
                || j == mover
            {
                continue;
            }
            let going = players::escort_strength(ctx, self, p, j, dice).min(e.strength);
            if going == 0 {
                continue;
            }
            if going < e.strength && self.len < MAX_GROUPS {
                // The neutral's commanders go with its moving fleets.
                self.groups[j].strength -= going;
                self.groups[j].commanders = 0;
                self.groups[self.len] = Group {
                    strength: going,
                    from: ESCORT,
                    ..e
                };
                self.len += 1;
            } else {
                self.groups[j].from = ESCORT;
            }
        }
    }

    /// The player in whose Movement Phase neutral group `i` must fly
    /// straight home, if it must: an influenced neutral's fleets away from
    /// their city with no home fleet of their ally beside them [24.41], or
    /// whose city the enemy took [24.47] (in the ally's phase); a neutral's
    /// fleets again neutral [24.42] (in the first Movement Phase of the
    /// Turn).
    pub(crate) fn bound_home(&self, rules: &MilitaryRules, i: usize) -> Option<usize> {
        let g = self.groups[i];
        let n = usize::from(g.owner) - 2;
        let home = rules.neutrals[n].city;
        let Some(ally) = self.side_of(g.owner) else {
            return (g.in_transit || usize::from(g.city) != home)
                .then_some(usize::from(self.first));
        };
        let k = self.controller[home];
        let city_lost = k < 2 && usize::from(k) != ally;
        if !g.in_transit && usize::from(g.city) == home {
            return None;
        }
        let escorted =
            (0..self.len).any(|a| usize::from(self.groups[a].owner) == ally && self.escorts(a, i));
        (city_lost || !escorted).then_some(ally)
    }

    /// Flies neutral group `i` on towards its own city: on along its flight
    /// if under way [22.24], else out by the line that leaves the least
    /// distance (the way it came if the city holds hostile fleets [22.25]).
    fn fly_home<T: Trace>(
        &mut self,
        rules: &MilitaryRules,
        i: usize,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        let g = self.groups[i];
        if g.in_transit {
            self.fly(rules, i, dice, trace);
            return;
        }
        let home = rules.neutrals[usize::from(g.owner) - 2].city;
        let c = usize::from(g.city);
        let ally = self.side_of(g.owner);
        let blocked = self.groups().iter().any(|x| {
            !x.in_transit
                && usize::from(x.city) == c
                && x.owner != g.owner
                && (ally.is_none() || self.side_of(x.owner) != ally)
        });
        let base = rules.map.from_range[c].0;
        let mut choice: Option<(u32, usize)> = None;
        for (j, r) in rules.map.routes_from(c).iter().enumerate() {
            if blocked && r.to != g.from {
                continue;
            }
            let rest = rules.map.distance(usize::from(r.to), home);
            if rest == crate::jc::military::map::UNREACHABLE {
                continue;
            }
            let leg = if r.one_turn { 1 } else { u32::from(r.haads) };
            let total = leg + u32::from(rest);
            if choice.is_none_or(|(d, _)| total < d) {
                choice = Some((total, j));
            }
        }
        let Some((_, j)) = choice else { return };
        let r = rules.map.routes[usize::from(base) + j];
        let m = &mut self.groups[i];
        m.from = r.from;
        m.city = r.to;
        if r.one_turn {
            m.left = 0;
            m.in_transit = false;
        } else {
            m.left = r.haads;
            m.in_transit = true;
            self.fly(rules, i, dice, trace);
        }
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
}

impl Game<'_> {
    // ------------------------------------------------------------ reinforcement

    /// [21.0 D/G, 24.1] reinforcements every third Turn; returning
    /// commanders every Turn [23.26, 22.29].
    pub fn reinforcement_phase<T: Trace>(&mut self, p: usize, trace: &mut T) {
        let rules = self.ctx.rules;
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
