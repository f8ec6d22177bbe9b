//! The combat phase [23.0]: which battles a player fights, the keys of the
//! compiled battles, and their results on the map.

use super::state::{Game, Group, NONE, Target, best_leader, owner_name};
use crate::jc::fleet::{
    OUT_AGREED, OUT_FIRST_ELIMINATES, OUT_FIRST_REVERSES, OUT_SECOND_ELIMINATES,
    OUT_SECOND_REVERSES,
};
use crate::jc::military::battles::{BattleKey, BreakOff, NO_COMMANDER, SideKey, fight};
use crate::jc::military::rules::MilitaryRules;
use barsoom_engine::{Dice, Trace};

impl Game<'_> {
    // ------------------------------------------------------------ combat

    /// [21.0 C/F, 23.0] the phasing player attacks where he chooses.
    pub fn combat_phase<T: Trace>(&mut self, p: usize, dice: &mut Dice, trace: &mut T) {
        let ctx = self.ctx;
        for city in 0..ctx.rules.map.cities.len() {
            if self.own_strength(city, p) == 0 {
                continue;
            }
            if self.enemy_in(city, p) && self.attack(p, city, Target::Enemy, dice) {
                self.combat(p, city, Target::Enemy, dice, trace);
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
                if present && self.attack(p, city, target, dice) {
                    self.combat(p, city, target, dice, trace);
                }
            }
        }
    }

    /// Whether the enemy of `p` (or a neutral he influenced) has fleets in
    /// `city`.
    pub(crate) fn enemy_in(&self, city: usize, p: usize) -> bool {
        self.groups().iter().any(|g| {
            !g.in_transit && usize::from(g.city) == city && self.side_of(g.owner) == Some(1 - p)
        })
    }

    /// The battle-key side of player `p`'s forces in `city` (its own and
    /// influenced neutrals' fleets), or of neutral owner `owner`.
    pub(crate) fn side_key(
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
    pub fn battle_key(&self, p: usize, city: usize, target: Target) -> BattleKey {
        let ctx = &self.ctx;
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
        p: usize,
        city: usize,
        target: Target,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        let ctx = self.ctx;
        let rules = ctx.rules;
        // Attacking in a neutral's city [24.27, 24.28].
        if let Some(n) = rules.neutral_in(city) {
            if target == Target::Enemy {
                if self.in_grace(rules, city, p) {
                    // [24.28] attacked in its grace Turn.
                    self.stats.grace_joins += 1;
                    self.neutral_joins_attacked(rules, n, p, city, "JC 24.28 grace broken", trace);
                } else if self.peace_of(city).is_some() {
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
        let key = self.battle_key(p, city, target);
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
                // Neutral losses fall on the influenced neutrals' fleets in
                // list order (escorts [24.41] may bring several neutrals
                // into one stack); each neutral forced to take losses is
                // neutral again [24.42].
                let mut lose = neutral_lost;
                for n in 0..rules.neutrals.len() {
                    let ally_owner = (2 + n) as u8;
                    if !self.allied(ally_owner, pl) {
                        continue;
                    }
                    let had: u8 = self
                        .groups()
                        .iter()
                        .filter(|g| {
                            g.owner == ally_owner && !g.in_transit && usize::from(g.city) == city
                        })
                        .fold(0u8, |a, g| a.saturating_add(g.strength));
                    let x = lose.min(had);
                    if x > 0 {
                        self.take_losses(city, |g| g.owner == ally_owner, x);
                        lose -= x;
                    }
                    if had > 0 && t.neutral_lost[s] != 0 && (x > 0 || neutral_lost == 0) {
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
        // A neutral fighting for neither player holds only its own city:
        // its fleets elsewhere are on their way home [24.42, 24.47] and
        // take no player's city from him.
        if owner >= 2
            && self.side_of(owner).is_none()
            && rules.neutral_in(city) != Some(usize::from(owner) - 2)
        {
            return;
        }
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
}
