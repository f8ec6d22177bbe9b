//! Set-up: the terrain roll (and its flattened table), the map and the
//! deployment of every seat [Map], [Scenario Setup], [Leaders].

use crate::races::Roll;
use crate::races::battle::roll_attribute;
use crate::races::data::Face;

use super::{
    ENTRY_DETAIL, ENTRY_IMPASSABLE_BIT, ENTRY_KEY_BIT, ENTRY_SETTLEMENT_BIT, Game, Leader,
    MAX_LEADERS, NONE, Seat,
};

/// Rolls one hex's terrain: the hex table, then any table its face sends
/// on to [Hex Terrain Type], [Beneficial Terrain Type Table], [Settlement
/// Type Table]. Returns the terrain index.
pub fn roll_terrain<R: Roll>(tables: &[Vec<Face>], dice: &mut R) -> usize {
    let mut table = 0;
    loop {
        let faces = &tables[table];
        match faces[(dice.die(faces.len() as u32) - 1) as usize] {
            Face::Roll(next) => table = next,
            Face::Terrain(t) => return t,
        }
    }
}

/// Faces read off the decimal digits of one number, lowest first: the
/// number drawn once per hex, read as its chained d10 rolls.
struct Digits(u32);

impl Roll for Digits {
    fn die(&mut self, sides: u32) -> u32 {
        let face = self.0 % sides + 1;
        self.0 /= sides;
        face
    }

    fn pick(&mut self, n: usize) -> usize {
        (self.die(n as u32) - 1) as usize
    }
}

/// The chained d10 terrain tables flattened: the terrain for each of the
/// `10^chain` equally likely outcomes of one draw, the outcome's digits
/// (lowest first) read as the faces [`roll_terrain`] rolls. Each face
/// sequence of length `n` takes `10^(chain - n)` outcomes, its chance.
pub fn flat_terrain_table(tables: &[Vec<Face>], chain: usize) -> Vec<u8> {
    (0..10u32.pow(chain as u32))
        .map(|x| roll_terrain(tables, &mut Digits(x)) as u8)
        .collect()
}

impl<'m> Game<'m> {
    /// Rolls or copies the map and deploys every seat [Map], [Scenario
    /// Setup]. Leaders' special attributes are rolled here [Leaders].
    pub fn setup<R: Roll>(&mut self, dice: &mut R) {
        let m = self.m;
        let (hexes, fixed) = (m.map.hexes(), m.fixed.as_deref());
        let (draws, terrain) = (m.hex_draw.len() as u32, &m.terrain[..]);
        let b = &mut *self.b;
        // A bitboard word at a time, in hex order.
        for word in 0..m.map.words {
            let (mut passable, mut keys, mut settlements) = (0u64, 0u64, 0u64);
            for h in word * 64..hexes.min(word * 64 + 64) {
                let (entry, detail) = match fixed {
                    Some(fixed) => {
                        let (t, detail) = fixed[h];
                        (terrain[usize::from(t)].entry(t), detail)
                    }
                    None => (m.hex_draw[(dice.die(draws) - 1) as usize], NONE),
                };
                let t = entry as u8;
                let detail = if detail != NONE || entry & ENTRY_DETAIL == 0 {
                    detail
                } else if terrain[usize::from(t)].city {
                    m.race_table[(dice.die(m.race_table.len() as u32) - 1) as usize]
                } else {
                    roll_attribute(dice, &m.random_attribute) as u8
                };
                b.terrain[h] = t;
                b.detail[h] = detail;
                let impassable = entry >> ENTRY_IMPASSABLE_BIT & 1;
                // IMPASSABLE is NONE - 1.
                b.cell[h] = NONE - impassable as u8;
                let bit = h % 64;
                passable |= u64::from(impassable ^ 1) << bit;
                keys |= u64::from(entry >> ENTRY_KEY_BIT & 1) << bit;
                settlements |= u64::from(entry >> ENTRY_SETTLEMENT_BIT & 1) << bit;
            }
            // The few settlements: which are cities, which give a bonus.
            let (mut cities, mut bonus, mut k) = (0u64, 0u64, settlements);
            while k != 0 {
                let bit = k.trailing_zeros();
                k &= k - 1;
                let rule = &terrain[usize::from(b.terrain[word * 64 + bit as usize])];
                cities |= u64::from(rule.city) << bit;
                bonus |= u64::from(rule.bonus) << bit;
            }
            self.n_keys += keys.count_ones() as usize;
            self.passable[word] = passable;
            self.key_set[word] = keys;
            self.city_set[word] = cities;
            self.bonus_set[word] = bonus;
            self.watched[word] = keys | bonus;
        }
        for (p, seat) in m.seats.iter().enumerate() {
            let p = p as u8;
            for stack in &seat.stacks {
                let first = self.n_warbands;
                for kind in &stack.warbands {
                    if let Some(w) = self.new_warband(*kind, p, stack.hex) {
                        self.push_bottom(stack.hex, w);
                    }
                }
                for a in &stack.leaders {
                    let attribute = if *a == NONE {
                        roll_attribute(dice, &m.random_attribute) as u8
                    } else {
                        *a
                    };
                    self.add_leader(p, attribute, first as u8);
                }
            }
            self.deploy_zone(p, seat, dice);
        }
        self.key_region = m.map.flood(&self.key_set, &self.passable);
        self.refresh_bonuses();
    }

    fn add_leader(&mut self, owner: u8, attribute: u8, warband: u8) {
        if self.n_leaders < MAX_LEADERS {
            self.leaders[self.n_leaders] = Leader {
                attribute,
                warband,
                alive: true,
            };
            self.n_leaders += 1;
            self.leaders_alive[usize::from(owner)] += 1;
        }
    }

    /// Random deployment in the seat's zone: one warband per passable hex
    /// while there are free ones, then onto its own stacks; leaders ride
    /// with random warbands of the seat.
    fn deploy_zone<R: Roll>(&mut self, p: u8, seat: &Seat, dice: &mut R) {
        if seat.warbands.is_empty() {
            return;
        }
        let mut n_free = 0;
        for h in &seat.zone {
            // Passable and empty.
            if self.b.cell[usize::from(*h)] == NONE {
                self.b.free[n_free] = *h;
                n_free += 1;
            }
        }
        if n_free == 0 {
            // A rolled zone with no passable hex (chance 0.3^zone size):
            // the forces stand in it regardless.
            for h in &seat.zone {
                self.b.free[n_free] = *h;
                n_free += 1;
            }
        }
        let mut n_placed = 0;
        for kind in &seat.warbands {
            let h = if n_free > 0 {
                let i = (dice.die(n_free as u32) - 1) as usize;
                let h = self.b.free[i];
                self.b.free[i] = self.b.free[n_free - 1];
                n_free -= 1;
                h
            } else {
                let i = (dice.die(n_placed as u32) - 1) as usize;
                self.b.warbands[usize::from(self.b.placed[i])].hex
            };
            if let Some(w) = self.new_warband(*kind, p, h) {
                self.push_top(h, w);
                self.b.placed[n_placed] = w;
                n_placed += 1;
            }
        }
        for _ in 0..seat.leaders {
            let attribute = roll_attribute(dice, &self.m.random_attribute) as u8;
            let i = (dice.die(n_placed as u32) - 1) as usize;
            self.add_leader(p, attribute, self.b.placed[i]);
        }
    }
}
