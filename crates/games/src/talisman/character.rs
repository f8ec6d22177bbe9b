//! A character in play: counters, lives, gold, experience [1:4, 2:4],
//! objects within the 4-object and encumbrance limits and the worn slots
//! [5], followers within leadership [6], spells within the Craft limit
//! [2:6], alignment [7], the toad state and curses laid on it [19]; pack animals with the
//! objects riding on them and pulled objects such as the raft [5:10-11,
//! 11:26-28].

use super::curses::{CurseEffect, MAX_HELD_CURSES, after_penalty};
use super::data::{Ability, Alignment, Item, Rules, Slot};

/// Items above this index are purchase items (index minus this), below it
/// adventure cards.
pub const PURCHASE_BASE: u16 = 1024;

/// Objects carried in the arms [5:3].
pub(crate) const MAX_CARRIED: usize = 4;
/// Worn slots: head, body, shield [5:6].
pub(crate) const WORN_SLOTS: usize = 3;
/// Followers kept (leadership limits them long before this).
pub(crate) const MAX_FOLLOWERS: usize = 8;
/// Spells held.
pub(crate) const MAX_HELD_SPELLS: usize = 4;
/// Pack animals kept (one person each, counting the character, limits them [5:10]).
pub(crate) const MAX_ANIMALS: usize = 4;
/// Objects riding on pack animals.
pub(crate) const MAX_PACKED: usize = 8;
/// Pulled objects kept [11:26].
pub(crate) const MAX_PULLED: usize = 2;
/// Experience for one Strength counter [1:4].
pub(crate) const STRENGTH_EXPERIENCE: i32 = 10;
/// Experience for one Craft counter [2:4].
pub(crate) const CRAFT_EXPERIENCE: i32 = 8;
/// The most lives healing restores [4:6].
pub(crate) const HEAL_CAP: i32 = 4;

impl Rules {
    /// The item an item reference names.
    pub fn item(&self, r: u16) -> &Item {
        if r >= PURCHASE_BASE {
            &self.purchases[usize::from(r - PURCHASE_BASE)].item
        } else {
            &self.cards[usize::from(r)].item
        }
    }

    /// The name of an item reference.
    pub(crate) fn item_name(&self, r: u16) -> &str {
        if r >= PURCHASE_BASE {
            &self.purchases[usize::from(r - PURCHASE_BASE)].name
        } else {
            &self.cards[usize::from(r)].name
        }
    }
}

/// Adds experience and cashes it in at `per` points a counter, keeping the
/// change [1:4, 2:4]. Returns the counters gained.
pub fn cash_in(pool: &mut i32, counters: &mut i32, gained: i32, per: i32) -> i32 {
    *pool += gained;
    let raised = *pool / per;
    *pool -= raised * per;
    *counters += raised;
    raised
}

/// One character in play (fixed-size, copied freely).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hero {
    /// Index of the character card.
    pub card: u8,
    /// Strength counters [1:1].
    pub strength: i32,
    /// Craft counters [2:1].
    pub craft: i32,
    /// Lives.
    pub lives: i32,
    /// Gold.
    pub gold: i32,
    /// Current alignment.
    pub alignment: Alignment,
    /// Strength experience not yet cashed in.
    pub strength_experience: i32,
    /// Craft experience not yet cashed in.
    pub craft_experience: i32,
    /// Current space.
    pub space: u16,
    /// Objects carried in the arms.
    pub carried: [u16; MAX_CARRIED],
    /// How many are carried.
    pub carried_len: u8,
    /// Worn objects by slot (head, body, shield), `u16::MAX` when empty.
    pub worn: [u16; WORN_SLOTS],
    /// Followers (adventure card indices).
    pub followers: [u16; MAX_FOLLOWERS],
    /// How many followers.
    pub followers_len: u8,
    /// Spells held (spell card indices).
    pub spells: [u8; MAX_HELD_SPELLS],
    /// How many spells.
    pub spells_len: u8,
    /// Turns left as a toad [19:1].
    pub toad_turns: u8,
    /// Curse cards laid on it [19].
    pub curses: [u8; MAX_HELD_CURSES],
    /// Turns each curse has left to run.
    pub curse_turns: [u8; MAX_HELD_CURSES],
    /// How many curses it suffers.
    pub curses_len: u8,
    /// Turns to lose.
    pub lost_turns: u8,
    /// Turning back [11:5]: 2 = the next turn is lost, 1 = must move out.
    pub retreat: u8,
    /// Whether the inner-region space it stands on is completed [11:4].
    pub cleared: bool,
    /// Whether it failed to open the Portal and must try again [11:24].
    pub at_portal: bool,
    /// Pack animals [5:10].
    pub animals: [u16; MAX_ANIMALS],
    /// How many pack animals.
    pub animals_len: u8,
    /// Objects riding on the pack animals: kept but not usable [5:6].
    pub packed: [u16; MAX_PACKED],
    /// How many objects ride on pack animals.
    pub packed_len: u8,
    /// Pulled objects (a raft), each pulled by pack animals [11:26-27].
    pub pulled: [u16; MAX_PULLED],
    /// How many pulled objects.
    pub pulled_len: u8,
    /// A raft came this turn: it crosses from the next turn on [11:17].
    pub raft_fresh: bool,
    /// Bite tokens: at 8 the player is out [20:13].
    pub bites: u8,
    /// Favors, each +1 or -1 on one die roll [20:15].
    pub favors: u8,
    /// Poison tokens, each -1 on movement, combat and psychic combat
    /// rolls, at most 5 [20:16].
    pub poison: u8,
    /// Ventures to each expansion board's final space: the Dungeon's are
    /// its Dungeon tokens [20:14].
    pub ventures: [u8; crate::talisman::expansion::MAX_BOARDS],
    /// Expansion boards it has entered, as a mask of their indices.
    pub visited: u8,
    /// Beaten in combat on an expansion board: its next move goes back
    /// toward the entrance [11:40].
    pub beaten: bool,
    /// Damaged armour cards held, as a mask of worn slots (head, body,
    /// shield), each to be repaired at a blacksmith [16:11].
    pub damaged: u8,
    /// A Warrant: a status, never left on a space [20:3, 20:10-11].
    pub warrant: bool,
    /// The City's statutes broken this turn, a mask (`game/city.rs`) [13:14].
    pub statutes: u8,
    /// The City store it entered on its last move (`u16::MAX`: none): not
    /// entered again on the next [11:43].
    pub last_store: u16,
    /// Moves made in the City since it came in.
    pub city_moves: u8,
}

const EMPTY: u16 = u16::MAX;

/// Drops from the first `len` entries of `list` the cards `alignment` may
/// not keep [5:2, 7:3], each to `left`.
fn drop_disallowed(
    list: &mut [u16],
    len: &mut u8,
    rules: &Rules,
    alignment: Alignment,
    left: &mut impl FnMut(u16),
) {
    let mut i = 0;
    while i < usize::from(*len) {
        if rules
            .item(list[i])
            .alignment
            .is_some_and(|a| a != alignment)
        {
            left(remove_at(list, len, i));
        } else {
            i += 1;
        }
    }
}

/// Removes entry `i` of the first `len` entries of `list`, closing the gap.
fn remove_at(list: &mut [u16], len: &mut u8, i: usize) -> u16 {
    let r = list[i];
    let n = usize::from(*len);
    list.copy_within(i + 1..n, i);
    *len -= 1;
    list[n - 1] = EMPTY;
    r
}

pub(crate) fn slot_index(slot: Slot) -> Option<usize> {
    match slot {
        Slot::Carried => None,
        Slot::Head => Some(0),
        Slot::Body => Some(1),
        Slot::Shield => Some(2),
    }
}

impl Hero {
    /// A fresh character from its card [4:1, 3:1].
    pub fn new(rules: &Rules, card: usize) -> Hero {
        let c = &rules.characters[card];
        Hero {
            card: card as u8,
            strength: c.strength,
            craft: c.craft,
            lives: 4 + c.ability(Ability::ExtraLives).unwrap_or(0),
            gold: 1,
            alignment: c.alignment,
            strength_experience: 0,
            craft_experience: 0,
            space: c.start,
            carried: [EMPTY; MAX_CARRIED],
            carried_len: 0,
            worn: [EMPTY; WORN_SLOTS],
            followers: [EMPTY; MAX_FOLLOWERS],
            followers_len: 0,
            spells: [0; MAX_HELD_SPELLS],
            spells_len: 0,
            toad_turns: 0,
            curses: [0; MAX_HELD_CURSES],
            curse_turns: [0; MAX_HELD_CURSES],
            curses_len: 0,
            lost_turns: 0,
            retreat: 0,
            cleared: true,
            at_portal: false,
            animals: [EMPTY; MAX_ANIMALS],
            animals_len: 0,
            packed: [EMPTY; MAX_PACKED],
            packed_len: 0,
            pulled: [EMPTY; MAX_PULLED],
            pulled_len: 0,
            raft_fresh: false,
            bites: 0,
            poison: 0,
            favors: 0,
            ventures: [0; crate::talisman::expansion::MAX_BOARDS],
            visited: 0,
            beaten: false,
            damaged: 0,
            warrant: false,
            statutes: 0,
            last_store: EMPTY,
            city_moves: 0,
        }
    }

    /// Whether it has the ability (toads have none [19:8]).
    pub fn ability(&self, rules: &Rules, ability: Ability) -> Option<i32> {
        if self.toad_turns > 0 {
            return None;
        }
        rules.characters[usize::from(self.card)].ability(ability)
    }

    /// Carried and worn objects.
    pub fn objects(&self) -> impl Iterator<Item = u16> + '_ {
        self.carried[..usize::from(self.carried_len)]
            .iter()
            .copied()
            .chain(self.worn_items())
    }

    /// Followers.
    pub(crate) fn follower_list(&self) -> &[u16] {
        &self.followers[..usize::from(self.followers_len)]
    }

    /// Worn objects, empty slots skipped.
    fn worn_items(&self) -> impl Iterator<Item = u16> + '_ {
        self.worn.iter().copied().filter(|w| *w != EMPTY)
    }

    /// Total Strength [1:6]: counters, followers, objects, only the best weapon.
    pub fn total_strength(&self, rules: &Rules) -> i32 {
        if self.toad_turns > 0 {
            return 1;
        }
        let mut best_weapon = 0;
        let mut total = self.strength;
        let mut add = |r: u16| {
            let item = rules.item(r);
            if item.weapon {
                best_weapon = best_weapon.max(item.strength);
            } else {
                total += item.strength;
            }
        };
        for &r in &self.carried[..usize::from(self.carried_len)] {
            add(r);
        }
        for r in self.worn_items() {
            add(r);
        }
        for &f in self.follower_list() {
            total += rules.cards[usize::from(f)].item.strength;
        }
        let penalty = self.curse_total(&rules.curses, CurseEffect::StrengthPenalty);
        after_penalty(total + best_weapon, penalty)
    }

    /// Total Craft [2:5].
    pub fn total_craft(&self, rules: &Rules) -> i32 {
        if self.toad_turns > 0 {
            return 1;
        }
        after_penalty(
            self.craft_apart_from_curses(rules),
            self.curse_total(&rules.curses, CurseEffect::CraftPenalty),
        )
    }

    /// Total Craft as it will be once toad and curses are over [19:3]: the
    /// measure of the spells it keeps meanwhile [19:5].
    pub(crate) fn craft_apart_from_curses(&self, rules: &Rules) -> i32 {
        let mut total = self.craft;
        for &r in &self.carried[..usize::from(self.carried_len)] {
            total += rules.item(r).craft;
        }
        for r in self.worn_items() {
            total += rules.item(r).craft;
        }
        for &f in self.follower_list() {
            total += rules.cards[usize::from(f)].item.craft;
        }
        total
    }

    /// Whether it holds a Talisman.
    pub(crate) fn has_talisman(&self, rules: &Rules) -> bool {
        self.objects().any(|r| rules.item(r).talisman)
    }

    /// Encumbrance rating: base Strength minus 1 [5:12].
    pub fn encumbrance(&self) -> i32 {
        self.strength - 1
    }

    /// Leadership rating: base Craft minus 1 [6:5].
    pub fn leadership(&self) -> i32 {
        self.craft - 1
    }

    /// Weight carried in the arms (worn objects do not count [5:14]).
    pub fn carried_weight(&self, rules: &Rules) -> i32 {
        self.carried[..usize::from(self.carried_len)]
            .iter()
            .map(|r| rules.item(*r).weight)
            .sum()
    }

    /// Leadership used by followers [6:6].
    pub(crate) fn leadership_used(&self, rules: &Rules) -> i32 {
        self.follower_list()
            .iter()
            .map(|f| rules.cards[usize::from(*f)].item.leadership)
            .sum()
    }

    fn allowed(&self, item: &Item) -> bool {
        item.alignment.is_none_or(|a| a == self.alignment)
    }

    /// Takes an object if the rules let it: its alignment [5:2], a free
    /// worn slot, or room among the 4 carried objects within encumbrance
    /// [5:3, 5:13], else a place on a pack animal [5:3]. A pack animal
    /// needs a person to lead it, counting the character [5:10]; a pulled
    /// object needs its pack animals free of loads [11:26-27]. Toads
    /// cannot hold objects [19:2]. Returns whether taken.
    pub fn take_object(&mut self, rules: &Rules, r: u16) -> bool {
        let item = rules.item(r);
        if self.toad_turns > 0 || !self.allowed(item) {
            return false;
        }
        if item.pack_animal {
            if usize::from(self.animals_len) >= MAX_ANIMALS || self.animals_len > self.followers_len
            {
                return false;
            }
            self.animals[usize::from(self.animals_len)] = r;
            self.animals_len += 1;
            return true;
        }
        if item.pulled > 0 {
            let pulling = self.animals_pulling(rules) + i32::from(item.pulled);
            if usize::from(self.pulled_len) >= MAX_PULLED
                || pulling > i32::from(self.animals_len)
                || i32::from(self.packed_len) > self.pack_capacity_with(rules, pulling)
            {
                return false;
            }
            self.pulled[usize::from(self.pulled_len)] = r;
            self.pulled_len += 1;
            if item.raft {
                self.raft_fresh = true;
            }
            return true;
        }
        if self.hold_in_hands(rules, r) {
            return true;
        }
        if usize::from(self.packed_len) < MAX_PACKED
            && i32::from(self.packed_len) < self.pack_capacity(rules)
        {
            self.packed[usize::from(self.packed_len)] = r;
            self.packed_len += 1;
            return true;
        }
        false
    }

    /// Wears an object in its free slot or carries it within the 4-object
    /// and encumbrance limits [5:3, 5:13]. Returns whether it fits.
    fn hold_in_hands(&mut self, rules: &Rules, r: u16) -> bool {
        let item = rules.item(r);
        if let Some(slot) = slot_index(item.slot)
            && self.worn[slot] == EMPTY
        {
            self.worn[slot] = r;
            return true;
        }
        if usize::from(self.carried_len) < MAX_CARRIED
            && self.carried_weight(rules) + item.weight <= self.encumbrance()
        {
            self.carried[usize::from(self.carried_len)] = r;
            self.carried_len += 1;
            return true;
        }
        false
    }

    /// Pack animals.
    pub(crate) fn animal_list(&self) -> &[u16] {
        &self.animals[..usize::from(self.animals_len)]
    }

    /// Objects riding on pack animals.
    pub fn packed_list(&self) -> &[u16] {
        &self.packed[..usize::from(self.packed_len)]
    }

    /// Pulled objects.
    pub(crate) fn pulled_list(&self) -> &[u16] {
        &self.pulled[..usize::from(self.pulled_len)]
    }

    /// Pack animals assigned to pulling [11:27].
    pub(crate) fn animals_pulling(&self, rules: &Rules) -> i32 {
        self.pulled_list()
            .iter()
            .map(|&p| i32::from(rules.item(p).pulled))
            .sum()
    }

    /// Objects the pack animals can carry: those not pulling carry, the
    /// roomiest first [5:3, 11:27].
    pub fn pack_capacity(&self, rules: &Rules) -> i32 {
        self.pack_capacity_with(rules, self.animals_pulling(rules))
    }

    fn pack_capacity_with(&self, rules: &Rules, pulling: i32) -> i32 {
        let mut capacities = [0i32; MAX_ANIMALS];
        for (c, &a) in capacities.iter_mut().zip(self.animal_list()) {
            *c = i32::from(rules.item(a).capacity);
        }
        let n = usize::from(self.animals_len);
        capacities[..n].sort_unstable_by(|a, b| b.cmp(a));
        let carrying = (n as i32 - pulling).max(0) as usize;
        capacities[..carrying].iter().sum()
    }

    /// The movement effect of pack animals and pulled objects [11:28].
    pub fn movement_effect(&self, rules: &Rules) -> i32 {
        self.animal_list()
            .iter()
            .chain(self.pulled_list())
            .map(|&x| rules.item(x).movement)
            .sum()
    }

    /// A raft it may use this turn [11:17]: its index among the pulled objects.
    pub fn usable_raft(&self, rules: &Rules) -> Option<usize> {
        if self.raft_fresh || self.toad_turns > 0 {
            return None;
        }
        self.pulled_list().iter().position(|&p| rules.item(p).raft)
    }

    /// Whether it holds an Axe it can use (not riding on an animal [5:6]).
    pub fn has_axe(&self, rules: &Rules) -> bool {
        self.objects().any(|r| rules.item(r).axe)
    }

    /// Removes pulled object `i`, returning it.
    pub(crate) fn drop_pulled(&mut self, i: usize) -> u16 {
        remove_at(&mut self.pulled, &mut self.pulled_len, i)
    }

    fn drop_animal(&mut self, i: usize) -> u16 {
        remove_at(&mut self.animals, &mut self.animals_len, i)
    }

    fn drop_packed(&mut self, i: usize) -> u16 {
        remove_at(&mut self.packed, &mut self.packed_len, i)
    }

    /// Loses the last pack animal taken; the objects it carried, and what
    /// it pulled, are lost with it [5:11] (the loads are pooled, so those
    /// the other animals cannot take over, the last packed first). Each
    /// lost card goes to `lost`. Returns whether there was an animal.
    pub(crate) fn lose_pack_animal(&mut self, rules: &Rules, mut lost: impl FnMut(u16)) -> bool {
        if self.animals_len == 0 {
            return false;
        }
        lost(self.drop_animal(usize::from(self.animals_len) - 1));
        self.enforce_animals(rules, &mut lost);
        true
    }

    /// Organisation [10:3]: objects riding on pack animals are taken into
    /// the hands or worn where they fit, in the order they were packed.
    pub(crate) fn unpack(&mut self, rules: &Rules) {
        let mut i = 0;
        while i < usize::from(self.packed_len) {
            if self.hold_in_hands(rules, self.packed[i]) {
                self.drop_packed(i);
            } else {
                i += 1;
            }
        }
    }

    /// A movement roll of `roll` with the animals' and pulled objects'
    /// effect [11:28]; while it would be 0 or less, the pulled object or
    /// pack animal that slows most is left behind (to `left`). Returns the
    /// spaces to move.
    pub(crate) fn movement_after_effects(
        &mut self,
        rules: &Rules,
        roll: i32,
        mut left: impl FnMut(u16),
    ) -> i32 {
        while roll + self.movement_effect(rules) < 1 {
            // The slowest of the pulled objects and animals, pulled first on a tie.
            let pulled = (0..usize::from(self.pulled_len))
                .map(|k| (rules.item(self.pulled[k]).movement, 0, k))
                .min();
            let animal = (0..usize::from(self.animals_len))
                .map(|k| (rules.item(self.animals[k]).movement, 1, k))
                .min();
            match pulled.into_iter().chain(animal).min() {
                Some((movement, 0, k)) if movement < 0 => left(self.drop_pulled(k)),
                Some((movement, _, k)) if movement < 0 => {
                    left(self.drop_animal(k));
                    self.enforce_animals(rules, &mut left);
                }
                _ => break,
            }
        }
        roll + self.movement_effect(rules)
    }

    /// Pack animals beyond one a person, counting the character [5:10];
    /// pulled objects their animals can no longer pull [11:26]; objects
    /// beyond what the animals left carry [5:3]: the last taken go first.
    fn enforce_animals(&mut self, rules: &Rules, left: &mut impl FnMut(u16)) {
        while self.animals_len > self.followers_len + 1 {
            left(self.drop_animal(usize::from(self.animals_len) - 1));
        }
        while self.pulled_len > 0 && self.animals_pulling(rules) > i32::from(self.animals_len) {
            left(self.drop_pulled(usize::from(self.pulled_len) - 1));
        }
        while self.packed_len > 0 && i32::from(self.packed_len) > self.pack_capacity(rules) {
            left(self.drop_packed(usize::from(self.packed_len) - 1));
        }
    }

    /// Takes a follower within the leadership rating [6:6].
    pub fn take_follower(&mut self, rules: &Rules, card: u16) -> bool {
        let item = &rules.cards[usize::from(card)].item;
        if self.toad_turns > 0
            || !self.allowed(item)
            || usize::from(self.followers_len) >= MAX_FOLLOWERS
            || self.leadership_used(rules) + item.leadership > self.leadership()
        {
            return false;
        }
        self.followers[usize::from(self.followers_len)] = card;
        self.followers_len += 1;
        true
    }

    /// Takes a Talisman when it has none, leaving a carried object if its
    /// hands are full [5:5]: the character decides which to keep, and a
    /// first Talisman is worth more than any other object, since without
    /// one the Crown cannot be reached [11:6]. The object left, if any, is
    /// given to `left`. Returns whether the Talisman was taken.
    pub(crate) fn take_talisman(
        &mut self,
        rules: &Rules,
        card: u16,
        mut left: impl FnMut(u16),
    ) -> bool {
        if self.take_object(rules, card) {
            return true;
        }
        if self.toad_turns > 0 || self.has_talisman(rules) || !self.allowed(rules.item(card)) {
            return false;
        }
        // Leave the carried object that adds least, the lightest among equals.
        let worth = |c: u16| {
            let item = rules.item(c);
            (item.strength + item.craft, item.weight)
        };
        let Some(i) = (0..usize::from(self.carried_len))
            .filter(|&i| !rules.item(self.carried[i]).talisman)
            .min_by_key(|&i| worth(self.carried[i]))
        else {
            return false;
        };
        let dropped = self.drop_carried(i);
        if self.hold_in_hands(rules, card) {
            left(dropped);
            true
        } else {
            // Still does not fit: keep what it had.
            self.carried[usize::from(self.carried_len)] = dropped;
            self.carried_len += 1;
            false
        }
    }

    /// Removes carried object `i`, returning it.
    pub(crate) fn drop_carried(&mut self, i: usize) -> u16 {
        remove_at(&mut self.carried, &mut self.carried_len, i)
    }

    /// Removes follower `i`, returning it.
    pub(crate) fn drop_follower(&mut self, i: usize) -> u16 {
        remove_at(&mut self.followers, &mut self.followers_len, i)
    }

    /// Drops carried objects, heaviest first, until within encumbrance
    /// [5:13], and followers, most troublesome first, until within
    /// leadership [6:6]; and objects and followers of the wrong alignment
    /// [7:3]. Each dropped card goes to `left`.
    pub fn enforce_limits(&mut self, rules: &Rules, mut left: impl FnMut(u16)) {
        let alignment = self.alignment;
        drop_disallowed(
            &mut self.carried,
            &mut self.carried_len,
            rules,
            alignment,
            &mut left,
        );
        for slot in 0..WORN_SLOTS {
            if self.worn[slot] != EMPTY && !self.allowed(rules.item(self.worn[slot])) {
                left(self.worn[slot]);
                self.worn[slot] = EMPTY;
            }
        }
        while self.carried_len > 0 && self.carried_weight(rules) > self.encumbrance() {
            let heaviest = (0..usize::from(self.carried_len))
                .max_by_key(|&k| (rules.item(self.carried[k]).weight, std::cmp::Reverse(k)))
                .unwrap_or(0);
            left(self.drop_carried(heaviest));
        }
        drop_disallowed(
            &mut self.followers,
            &mut self.followers_len,
            rules,
            alignment,
            &mut left,
        );
        while self.followers_len > 0 && self.leadership_used(rules) > self.leadership() {
            let worst = (0..usize::from(self.followers_len))
                .max_by_key(|&k| {
                    (
                        rules.cards[usize::from(self.followers[k])].item.leadership,
                        std::cmp::Reverse(k),
                    )
                })
                .unwrap_or(0);
            left(self.drop_follower(worst));
        }
        drop_disallowed(
            &mut self.packed,
            &mut self.packed_len,
            rules,
            alignment,
            &mut left,
        );
        self.enforce_animals(rules, &mut left);
    }

    /// Everything it holds goes to `left` (toads [19:2], death [4:3]).
    pub(crate) fn drop_everything(&mut self, mut left: impl FnMut(u16)) {
        while self.carried_len > 0 {
            left(self.drop_carried(usize::from(self.carried_len) - 1));
        }
        for slot in 0..WORN_SLOTS {
            if self.worn[slot] != EMPTY {
                left(self.worn[slot]);
                self.worn[slot] = EMPTY;
            }
        }
        while self.followers_len > 0 {
            left(self.drop_follower(usize::from(self.followers_len) - 1));
        }
        while self.packed_len > 0 {
            left(self.drop_packed(usize::from(self.packed_len) - 1));
        }
        while self.pulled_len > 0 {
            left(self.drop_pulled(usize::from(self.pulled_len) - 1));
        }
        while self.animals_len > 0 {
            left(self.drop_animal(usize::from(self.animals_len) - 1));
        }
    }

    /// Gains Strength experience from a creature killed [1:4].
    pub(crate) fn gain_strength_experience(&mut self, amount: i32) {
        cash_in(
            &mut self.strength_experience,
            &mut self.strength,
            amount,
            STRENGTH_EXPERIENCE,
        );
    }

    /// Gains Craft experience from a spirit defeated [2:4].
    pub(crate) fn gain_craft_experience(&mut self, amount: i32) {
        cash_in(
            &mut self.craft_experience,
            &mut self.craft,
            amount,
            CRAFT_EXPERIENCE,
        );
    }

    /// Heals up to `amount` lives, never above 4 [4:6].
    pub fn heal(&mut self, amount: i32) {
        // Each life healed discards a Poison token instead while any is
        // held [20:16] (every player does: see the model page).
        let cured = amount.clamp(0, i32::from(self.poison));
        self.poison -= cured as u8;
        let amount = amount - cured;
        if amount > 0 && self.lives < HEAL_CAP {
            self.lives = (self.lives + amount).min(HEAL_CAP);
        }
    }

    /// The best armour save among worn objects (0: none) [16:11].
    pub(crate) fn best_save(&self, rules: &Rules) -> Option<(usize, u8)> {
        (0..WORN_SLOTS)
            .filter(|&s| self.worn[s] != EMPTY && rules.item(self.worn[s]).save > 0)
            .map(|s| (s, rules.item(self.worn[s]).save))
            .min_by_key(|&(s, save)| (save, s))
    }

    /// Whether it wears an object in worn slot `slot`.
    pub fn wears(&self, slot: usize) -> bool {
        self.worn[slot] != EMPTY
    }

    /// Removes the worn object in `slot` (damaged armour [16:11]).
    pub(crate) fn damage_worn(&mut self, slot: usize) -> u16 {
        let r = self.worn[slot];
        self.worn[slot] = EMPTY;
        r
    }
}
