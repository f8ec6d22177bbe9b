//! The `wom.air` model: Warriors of Mars aerial battles between fleets of
//! fliers [WoM Part II Aerial Warfare].
//!
//! A turn: each side's captains give orders (their tactic); ships move
//! (straight ahead, climbing or diving, then turning at the end of the
//! move [Movement]); ships that come together at the same altitude collide
//! [Ramming and Collision]; bombers that passed over an enemy drop keel
//! bombs [Bombing Fliers]; guns fire [Fire]; grapples are thrown and cut
//! [Grappling]; grappled ships fight a round of boarding melee [Boarding].
//! The battle ends when a side is out of action, or (our reading, the
//! rules having no disengagement) when a side can no longer harm the enemy:
//! it breaks off and the other holds the field, or both break off drawn.
//! With `sequence = "simultaneous"` both sides move and then all fire at
//! once (damage from the fire phase applies after every gun has fired);
//! with `"move-counter-move"` the sides alternate, each firing right after
//! its own move (side A first in odd turns, side B in even turns).
//!
//! This file holds the model's types, the battle state, the turn sequence
//! and the `Model` impl; the rest is split by job:
//!
//! - `scenario`: the scenario file, its validation and the output spec;
//! - `targets`: the ranges each class fights at and the target the rules
//!   prefer [Method of Fire];
//! - `moves`: orders, Barsoomian circles and movement [Movement];
//! - `gunnery`: gunfire, damage, criticals and kills [Fire];
//! - `contact`: collisions, keel bombs, grapples and boarding
//!   [Ramming and Collision], [Bombing Fliers], [Grappling], [Boarding].

use barsoom_engine::{Dice, Model, OutputSpec, Roll, Trace, TrialResult};

use super::boarding::Party;
use super::boarding::grapple_attempts;
use super::damage::{NONE, ShipState, Status, ceiling, damage_step, max_speed};
use super::geometry::Point;
use super::ground::{GroundState, GroundWar, MAX_GROUND};
use super::ships::{AirData, FIGURE_KINDS, Figure};
use super::tactics::{Orders, Tactic};
use barsoom_engine::search::{self, Branching, SearchSlot};
use scenario::{M_BROKEN_OFF, M_CAPTURED, M_CREW, M_DAMAGE, M_LOST, M_TURNS};

mod contact;
mod ground_war;
mod gunnery;
mod moves;
mod scenario;
mod search_hooks;
mod targets;

pub use targets::preferred_target;

/// Most ships in one battle (both sides together).
pub(crate) const MAX_SHIPS: usize = 16;
/// Turn limit when a scenario names none.
pub const DEFAULT_MAX_TURNS: u32 = 40;

/// How the sides take their turns [Movement; Fire].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sequence {
    /// Both sides move, then all guns fire.
    Simultaneous,
    /// Sides alternate, each firing after its own move.
    MoveCounterMove,
}

/// One ship as set up by the scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct ShipSetup {
    /// Its name in traces.
    pub name: String,
    /// Class index.
    pub class: usize,
    /// Side 0 or 1.
    pub side: usize,
    /// Its people in boarding melee.
    pub party: Party,
    /// State at the start of the battle.
    pub start: ShipState,
}

/// One side as set up by the scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct SideSetup {
    /// Label in outcomes.
    pub label: String,
    /// Its captains' policy (a search player's base).
    pub tactic: Tactic,
    /// Playouts per turn's choice of tactic when the side is a search
    /// player (`tactic = "search:N:BASE"`).
    pub search: Option<u32>,
    /// Fire is concentrated on one target, ordered a turn ahead.
    pub concentrate: bool,
    /// Its ships steer evasively.
    pub evasive: bool,
}

/// A loaded `wom.air` scenario.
#[derive(Debug, Clone)]
pub struct WomAir {
    spec: OutputSpec,
    /// The rules' tables.
    pub data: AirData,
    /// Ships, side A first.
    pub ships: Vec<ShipSetup>,
    /// The two sides.
    pub sides: [SideSetup; 2],
    /// Turns before the battle is called undecided.
    pub max_turns: u32,
    /// Turn sequence.
    pub sequence: Sequence,
    /// Roll hull-top criticals for keel bomb hits (optional rule).
    pub bomb_criticals: bool,
    /// Ground targets under the battle and landing orders, if any.
    pub ground: Option<GroundWar>,
    wanted_range: Vec<i32>,
    /// Per ship, the first of its class group's three metric slots (lost,
    /// captured, crippled); see [`class_groups`].
    group_slot: Vec<usize>,
}

/// A Barsoomian circle a side has formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Circle {
    center: Point,
    radius: i32,
    phase: u8,
}

/// One battle in progress (a copy is a position a search can play on from).
#[derive(Clone)]
struct Battle<'m> {
    m: &'m WomAir,
    s: [ShipState; MAX_SHIPS],
    n: usize,
    turn: u32,
    orders: [Orders; MAX_SHIPS],
    focus: [u8; 2],
    damage_to: [u32; 2],
    crew_lost: [u32; 2],
    captured: u32,
    circle: [Option<Circle>; 2],
    in_circle: [bool; MAX_SHIPS],
    /// Each side's tactic this turn (its scenario tactic unless it searches).
    tactic: [Tactic; 2],
    /// 0 or 1 the side that won, 2 both out of action, 3 drawn (neither
    /// can harm the other), 4 undecided.
    outcome: u16,
    /// The battle ended because a side could no longer harm the enemy.
    broken_off: bool,
    branching: Branching,
    searcher: SearchSlot<Battle<'m>>,
    /// Ground targets' states (used only with ground targets).
    g: [GroundState; MAX_GROUND],
    /// Per ship, figures dropped by equilibrimotor still in the air.
    descending: [u16; MAX_SHIPS],
    /// Per ship, casualty parts among its descending troops.
    descent_parts: [u64; MAX_SHIPS],
    /// Per ship, the turn it dropped them.
    drop_turn: [u32; MAX_SHIPS],
    /// Ships a ground-sited heavy gun fired at this turn (bits) ...
    heavy_fire: u32,
    /// ... and in the turn before (the bombing table's modifier).
    heavy_fire_before: u32,
    /// Per side: ground targets lost, figures lost on the ground,
    /// structure damage.
    ground_lost: [u32; 2],
    ground_casualties: [u32; 2],
    structure_damage: [u32; 2],
    /// Figures that reached the ground, and landings won.
    troops_landed: u32,
    landings_won: u32,
}

/// The outcome when only side A (`a`) or only side B (`b`) still stands:
/// that side wins; `neither` when neither does.
fn verdict(a: bool, b: bool, neither: u16) -> u16 {
    match (a, b) {
        (true, false) => 0,
        (false, true) => 1,
        _ => neither,
    }
}

fn roll_2d6<R: Roll>(dice: &mut R) -> u32 {
    dice.die(6) + dice.die(6)
}

impl<'m> Battle<'m> {
    fn new(m: &'m WomAir) -> Self {
        let mut s = [m.ships[0].start; MAX_SHIPS];
        for (i, ship) in m.ships.iter().enumerate() {
            s[i] = ship.start;
        }
        let idle = Orders {
            speed: 0,
            climb: 0,
            aim: None,
            face: None,
            grapple: NONE,
            cut: false,
            evasive: false,
        };
        Battle {
            m,
            s,
            n: m.ships.len(),
            turn: 0,
            orders: [idle; MAX_SHIPS],
            focus: [NONE; 2],
            damage_to: [0; 2],
            crew_lost: [0; 2],
            captured: 0,
            circle: [None; 2],
            in_circle: [false; MAX_SHIPS],
            tactic: [m.sides[0].tactic, m.sides[1].tactic],
            outcome: 4,
            broken_off: false,
            branching: Branching::default(),
            searcher: SearchSlot::default(),
            g: Self::ground_start(m),
            descending: [0; MAX_SHIPS],
            descent_parts: [0; MAX_SHIPS],
            drop_turn: [0; MAX_SHIPS],
            heavy_fire: 0,
            heavy_fire_before: 0,
            ground_lost: [0; 2],
            ground_casualties: [0; 2],
            structure_damage: [0; 2],
            troops_landed: 0,
            landings_won: 0,
        }
    }

    fn name(&self, i: usize) -> &str {
        &self.m.ships[i].name
    }

    fn side(&self, i: usize) -> usize {
        self.m.ships[i].side
    }

    fn side_alive(&self, side: usize) -> bool {
        (0..self.n).any(|i| self.side(i) == side && self.s[i].active()) || self.ground_holds(side)
    }

    /// Whether some ship of `side` can still harm an enemy ship by the
    /// means the rules give (our reading for breaking off; the rules have
    /// no disengagement): gunners with a gun that can damage the enemy's
    /// hull or kill the figures a crew hit can reach; keel bombs, with
    /// power, hands to drop them and room above the enemy; boarding, with
    /// power to come alongside (or already alongside) and figures to throw
    /// grapples or fight. Ramming is not counted: a ram hurts the rammer
    /// as much as the rammed.
    fn side_can_harm(&self, side: usize) -> bool {
        self.ships_can_harm_ships(side) || self.ground_can_harm(side) || self.ground_holds(side)
    }

    /// [`Self::side_can_harm`] between the fliers alone.
    fn ships_can_harm_ships(&self, side: usize) -> bool {
        let data = &self.m.data;
        let step = data.movement.altitude_step;
        (0..self.n).any(|i| {
            let me = &self.s[i];
            if self.side(i) != side || !me.active() {
                return false;
            }
            let class = &data.classes[self.m.ships[i].class];
            let fig = |st: &ShipState, k: Figure| st.figures[k as usize] > 0;
            let guns = fig(me, Figure::Gunners) && me.guns.iter().any(|&g| g > 0);
            let power = max_speed(me, class, data) > 0;
            let bombs = power && me.hands() && me.bombs > 0;
            let grapples = power && grapple_attempts(me) > 0;
            (0..self.n).any(|j| {
                let them = &self.s[j];
                if self.side(j) == side || !them.active() {
                    return false;
                }
                let their_class = &data.classes[self.m.ships[j].class];
                (guns
                    && (their_class.damaged_by[class.gun]
                        || data.crew_hit_order.iter().any(|&k| fig(them, k))))
                    || (bombs && them.alt + step <= ceiling(me, class, data))
                    || (grapples && !them.boarder)
                    || (me.linked(j) && me.party_figures() > 0)
            })
        })
    }

    fn end_of_turn(&mut self) {
        self.heavy_fire_before = self.heavy_fire;
        self.heavy_fire = 0;
        for i in 0..self.n {
            let st = &mut self.s[i];
            st.propellers_out = st.propellers_out.saturating_sub(1);
        }
        for side in 0..2 {
            if self.m.sides[side].concentrate {
                let flagship = (0..self.n).find(|i| self.side(*i) == side && self.s[*i].active());
                self.focus[side] = flagship.map_or(NONE, |f| {
                    let t = self.focus[side];
                    if t != NONE && self.s[usize::from(t)].active() {
                        t
                    } else {
                        preferred_target(self.m, &self.s[..self.n], f, |_| true) as u8
                    }
                });
            }
        }
    }

    /// Plays turns from the next one until a side is out of action, the
    /// turn limit, or (in a search playout) turn `last`.
    fn play_turns<T: Trace>(&mut self, last: u32, dice: &mut Dice, trace: &mut T) {
        while self.turn < last.min(self.m.max_turns) {
            self.turn += 1;
            let turn = self.turn;
            search::turn_boundary(self, dice);
            if T::ENABLED {
                trace.event("WoM air Movement", || format!("turn {turn}"));
            }
            match self.m.sequence {
                Sequence::Simultaneous => {
                    self.give_orders(None, dice, trace);
                    self.move_side(None, trace);
                    self.collisions(None, dice, trace);
                    self.bombing(None, dice, trace);
                    self.fire(None, dice, trace);
                    self.landings(None, dice, trace);
                }
                Sequence::MoveCounterMove => {
                    let first = if turn % 2 == 1 { 0 } else { 1 };
                    for side in [first, 1 - first] {
                        self.give_orders(Some(side), dice, trace);
                        self.move_side(Some(side), trace);
                        self.collisions(None, dice, trace);
                        self.bombing(Some(side), dice, trace);
                        self.fire(Some(side), dice, trace);
                        self.landings(Some(side), dice, trace);
                    }
                }
            }
            self.descents(dice, trace);
            self.grappling(dice, trace);
            self.boarding(dice, trace);
            self.end_of_turn();
            if T::ENABLED {
                for note in self.searcher.take_notes() {
                    trace.event("search", || note);
                }
            }
            let (a, b) = (self.side_alive(0), self.side_alive(1));
            if !a || !b {
                self.outcome = verdict(a, b, 2);
                break;
            }
            let (a, b) = (self.side_can_harm(0), self.side_can_harm(1));
            if !a || !b {
                self.outcome = verdict(a, b, 3);
                self.broken_off = true;
                if T::ENABLED {
                    let labels = [&self.m.sides[0].label, &self.m.sides[1].label];
                    trace.event("WoM air Movement", || match (a, b) {
                        (false, false) => "neither side can harm the other any more: both break off, drawn".to_string(),
                        _ => {
                            let (holds, beaten) = if a { (labels[0], labels[1]) } else { (labels[1], labels[0]) };
                            format!("{beaten} can no longer harm the enemy and breaks off: {holds} holds the field")
                        }
                    });
                }
                break;
            }
        }
    }

    fn play<T: Trace>(&mut self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        if self.m.sides.iter().any(|s| s.search.is_some()) {
            self.searcher = SearchSlot::live(T::ENABLED);
        }
        self.play_turns(u32::MAX, dice, trace);
        let outcome = self.outcome;
        let mut r = TrialResult {
            outcome,
            ..TrialResult::default()
        };
        r.metrics[M_TURNS] = self.turn;
        for i in 0..self.n {
            let state = &self.s[i];
            if !state.active() {
                r.metrics[M_LOST + self.side(i)] += 1;
            }
            let slot = self.m.group_slot[i];
            if slot != 0 {
                let class = &self.m.data.classes[self.m.ships[i].class];
                let at = match state.status {
                    Status::Destroyed | Status::Abandoned => Some(0),
                    Status::Captured => Some(1),
                    Status::Active => damage_step(state, class, &self.m.data)
                        .is_some_and(|step| step.powerless || step.speed_max.is_some())
                        .then_some(2),
                };
                if let Some(k) = at {
                    r.metrics[slot + k] += 1;
                }
            }
        }
        r.metrics[M_CAPTURED] = self.captured;
        r.metrics[M_BROKEN_OFF] = u32::from(self.broken_off);
        r.metrics[M_DAMAGE] = self.damage_to[0];
        r.metrics[M_DAMAGE + 1] = self.damage_to[1];
        r.metrics[M_CREW] = self.crew_lost[0];
        r.metrics[M_CREW + 1] = self.crew_lost[1];
        if let Some(w) = &self.m.ground {
            let at = w.metric;
            for side in 0..2 {
                r.metrics[at + side] = self.ground_lost[side];
                r.metrics[at + 2 + side] = self.ground_casualties[side];
                r.metrics[at + 4 + side] = self.structure_damage[side];
            }
            r.metrics[at + 6] = self.troops_landed;
            r.metrics[at + 7] = self.landings_won;
        }
        if T::ENABLED {
            for i in 0..self.n {
                let st = self.s[i];
                let name = self.name(i).to_string();
                let max = self.m.data.classes[self.m.ships[i].class].max_damage;
                trace.event("WoM air Damage Effects", || {
                    format!(
                        "end: {name}: {:?}, {} of {max} damage, {} figures aboard",
                        st.status,
                        st.damage,
                        st.total_figures()
                    )
                });
            }
        }
        r
    }
}

impl Model for WomAir {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        Battle::new(self).play(dice, trace)
    }
}

const _: () = assert!(FIGURE_KINDS == 6);

#[cfg(test)]
mod tests {
    use crate::ScenarioModel;
    use std::path::Path;

    use super::*;
    use crate::wom::air::ships::Figure;
    use barsoom_engine::NoTrace;

    pub(super) fn bundled(name: &str) -> WomAir {
        let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join(format!("scenarios/wom/air/{name}.toml"));
        match WomAir::load(&path) {
            Ok((m, _)) => m,
            Err(e) => panic!("{e}"),
        }
    }

    fn order(speed: i32, climb: i32, face: Option<u8>) -> Orders {
        Orders {
            speed,
            climb,
            aim: None,
            face,
            grapple: NONE,
            cut: false,
            evasive: false,
        }
    }

    #[test]
    fn movement_climb_dive_and_turns() {
        let m = bundled("helium-battle-cruiser-vs-two-zodangan-cruisers");
        let mut b = Battle::new(&m);
        // Ship 1 is a cruiser (7") at (30, 3), altitude 1", heading 180 (step 12).
        // Climbing two half-inch blocks costs 1" each: 7 - 2 = 5" ahead, and
        // 5" >= 2 x 2" keeps within the steepest climb.
        b.orders[1] = order(70, 2, Some(0));
        b.move_ship(1, &mut NoTrace);
        assert_eq!((b.s[1].pos, b.s[1].alt), (Point::new(250, 30), 20));
        // The turn at the end of the move is at most 45 degrees (3 steps).
        assert_eq!(b.s[1].heading, 15);
        // Diving two blocks gains 1/2" each: 7 + 1 = 8" ahead along heading 225.
        b.orders[1] = order(70, -2, None);
        b.move_ship(1, &mut NoTrace);
        assert_eq!(b.s[1].alt, 10);
        assert_eq!(b.s[1].pos.minus(Point::new(250, 30)).length(), 80);
        // A 7" move allows at most 7 / (1 + 2) = 2 blocks of climb, and
        // never above the 3" ceiling.
        b.orders[1] = order(70, 9, None);
        b.move_ship(1, &mut NoTrace);
        assert_eq!(b.s[1].alt, 20);
        b.move_ship(1, &mut NoTrace);
        assert_eq!(b.s[1].alt, 30);
        b.move_ship(1, &mut NoTrace);
        assert_eq!(b.s[1].alt, 30);
        // On a diagonal heading each axis rounds to a tenth: 7" is 6.9-7.0".
        assert!((69..=70).contains(&b.s[1].moved()), "{}", b.s[1].moved());
        // A stationary ship did not move: -1 to hit it.
        b.orders[1] = order(0, 0, None);
        b.move_ship(1, &mut NoTrace);
        assert!(b.s[1].stationary());
    }

    #[test]
    fn the_rulebook_collision_example() {
        // A light cruiser moving 6" runs into a stationary cruiser: 60% of the
        // lighter ship's 500 points, 300 to each; only the light cruiser rolls
        // a critical, and results that add damage are ignored.
        let m = bundled("scout-screen-vs-light-cruiser");
        let cruiser_data = m.data.class_index("cruiser").expect("cruiser");
        for trial in 0..30 {
            let mut mm = m.clone();
            mm.ships[0].class = cruiser_data;
            let mut b = Battle::new(&mm);
            b.n = 5;
            let (cruiser, light) = (0, 4);
            b.s[cruiser].pos = Point::new(0, 0);
            b.s[cruiser].from = Point::new(0, 0);
            b.s[light].pos = Point::new(0, 1);
            b.s[light].from = Point::new(0, -59);
            b.s[light].alt = b.s[cruiser].alt;
            b.s[light].from_alt = b.s[cruiser].alt;
            for k in [1, 2, 3] {
                b.s[k].pos = Point::new(500 * k as i32, 500);
            }
            let mut dice = Dice::for_trial(3, trial);
            b.collisions(None, &mut dice, &mut NoTrace);
            assert_eq!(b.s[cruiser].damage, 300);
            assert_eq!(b.s[light].damage, 300);
            assert_eq!(b.damage_to, [300, 300]);
        }
    }

    #[test]
    fn the_rulebook_boarding_example_first_round() {
        // 14 First Born (5 gunners, 3 crew, 5 marines, 1 officer) board 13
        // Heliumites (6 gunners, 2 crew, 3 marines, 1 officer, John Carter):
        // 168 against 169 is 1-1 (no disorganisation roll); the First Born
        // kill 4 (4.2), the Heliumites 3 (3.6) and John Carter 3: 6.
        let m = bundled("black-pirate-battleship-boards-helium-battle-cruiser");
        let mut b = Battle::new(&m);
        b.turn = 2;
        b.s[0].figures = [5, 3, 5, 0, 1, 0];
        b.s[1].figures = [6, 2, 3, 0, 1, 1];
        b.s[0].links = 1 << 1;
        b.s[1].links = 1 << 0;
        b.s[0].boarder = true;
        b.s[0].grappled_turn = 1;
        b.s[1].grappled_turn = 1;
        let mut dice = Dice::for_trial(1, 1);
        let before = dice.rolled();
        b.boarding(&mut dice, &mut NoTrace);
        assert_eq!(dice.rolled(), before, "1-1 rolls no dice");
        assert_eq!(b.s[0].total_figures(), 8);
        assert_eq!(b.s[1].total_figures(), 9);
        // Fractions are kept: 0.2 and 0.6 of a casualty, in sixtieths.
        assert_eq!((b.s[0].inflicted, b.s[0].suffered), (12, 36));
        // Casualties come off marines first, then crew: the Heliumites lose
        // their 3 marines and 1 crew; John Carter is untouched.
        assert_eq!(b.s[1].figures, [6, 1, 0, 0, 1, 1]);
        assert_eq!(b.crew_lost, [6, 4]);
    }

    #[test]
    fn odds_of_four_to_one_capture_the_ship() {
        let m = bundled("black-pirate-battleship-boards-helium-battle-cruiser");
        let mut b = Battle::new(&m);
        b.turn = 2;
        b.s[0].figures = [14, 5, 5, 0, 1, 0];
        b.s[1].figures = [3, 0, 0, 0, 1, 0];
        m.ships[1]
            .party
            .personality_row
            .expect("John Carter aboard");
        b.s[0].links = 1 << 1;
        b.s[1].links = 1 << 0;
        b.s[0].boarder = true;
        let mut dice = Dice::for_trial(1, 2);
        b.boarding(&mut dice, &mut NoTrace);
        // 25 x 12 = 300 against 4 x (10 + 1 - 4 personality dead) = 28: 4-1.
        assert_eq!(b.s[1].status, Status::Captured);
        assert_eq!(b.captured, 1);
        assert!(!b.s[0].grappled());
    }

    /// The six-against-six boarders' battle cut down to the ships a test
    /// names (the others destroyed), all at 1" altitude and heading 0.
    fn boarding_party(at: &[(usize, i32, i32)]) -> Battle<'static> {
        let m = Box::leak(Box::new(bundled("six-against-six-black-pirate-boarders")));
        let mut b = Battle::new(m);
        for k in 0..b.n {
            b.s[k].status = Status::Destroyed;
        }
        for &(k, x, y) in at {
            let st = &mut b.s[k];
            st.status = Status::Active;
            st.pos = Point::new(x, y);
            st.from = st.pos;
            (st.alt, st.from_alt, st.heading) = (10, 10, 0);
        }
        b
    }

    /// Boarder `a` grappled to ship `d` on turn 1, boarding from turn 2.
    fn grappled(b: &mut Battle, a: usize, d: usize) {
        b.turn = 2;
        let st = &mut b.s[a];
        (st.links, st.boarder, st.grapples, st.grappled_turn) = (1 << d, true, 3, 1);
        b.s[d].links |= 1 << a;
    }

    #[test]
    fn gunners_not_boarding_keep_firing_the_unengaged_guns() {
        use barsoom_engine::{ScriptedDice, TraceLog};
        // [Boarding]'s example: gunners stay at the unengaged guns while the
        // rest board. The First Born battleship (6) lies grappled to the
        // Heliumite battle cruiser (0) 0.3" off its port side; a Heliumite
        // cruiser (2) stands 5" off its starboard beam, a light cruiser (4)
        // 8" off its port beam beyond the battle cruiser.
        let mut b = boarding_party(&[(6, 0, 0), (0, 0, 3), (2, 0, -50), (4, 0, 80)]);
        grappled(&mut b, 6, 0);
        // The starboard battery (5), the bow and stern swivels that turn to
        // starboard (2) fire at the cruiser; the port battery is engaged
        // alongside the battle cruiser and the port swivels cannot bear on
        // the light cruiser without it: 7 shots, all missing on 1+1.
        let mut dice = ScriptedDice::new(&[1; 14]);
        let mut log = TraceLog::default();
        b.fire(Some(1), &mut dice, &mut log);
        let fired = shots(&log);
        assert_eq!(fired.len(), 7, "{fired:?}");
        assert!(
            fired.iter().all(|t| t.contains("at Helium cruiser")),
            "{fired:?}"
        );
        // 7 of 14 guns take 7 of the 14 gunners: 25 - 7 = 18 board.
        assert_eq!(b.s[6].gunners_busy, 7);
        assert_eq!(b.s[6].party_figures(), 18);
        // 18 x (10 + 1 attacking + 1 commander) = 216 against the battle
        // cruiser's 15 x (10 + 1) = 165: 1-1, no disorganisation roll. The
        // First Born kill 18 x 3/10 = 5.4, the Heliumites 15 x 3/10 = 4.5.
        b.boarding(&mut dice, &mut log);
        assert!(dice.all_used());
        assert_eq!(b.s[0].figures, [8, 1, 0, 0, 1, 0]);
        // The four First Born lost are marines of the party: the gunners
        // at the guns are untouched.
        assert_eq!(b.s[6].figures, [14, 5, 1, 0, 1, 0]);
        assert_eq!((b.s[6].inflicted, b.s[6].suffered), (24, 30));
        assert_eq!((b.s[6].party_start, b.s[6].party_lost), (18, 4));
    }

    #[test]
    fn a_ship_grappled_by_two_enemies_is_boarded_from_both() {
        use barsoom_engine::{ScriptedDice, TraceLog};
        // [Grappling]: more than one flier may grapple the same opponent.
        // The battleship (6) already holds the battle cruiser (0); the First
        // Born cruiser (8) alongside her other rail throws 1 + 6 = 7
        // grapples (crew above the first, idle gunners): two hold.
        let mut b = boarding_party(&[(6, 0, 0), (0, 0, 3), (8, 0, 6)]);
        grappled(&mut b, 6, 0);
        b.orders[8].grapple = 0;
        let mut dice = ScriptedDice::new(&[1, 4, 4, 4, 4, 4, 2]);
        let mut log = TraceLog::default();
        b.turn = 1;
        b.grappling(&mut dice, &mut log);
        assert!(dice.all_used());
        assert_eq!(b.s[0].links, 1 << 6 | 1 << 8);
        assert_eq!((b.s[8].boarding_target(), b.s[8].grapples), (0, 2));
        // Next turn both board: 25 x 12 + 10 x 12 = 420 against 15 x 11 =
        // 165 is 2-1 (3 in 6 to disorganise the battle cruiser: a 2 does).
        // The battleship kills 25 x 3/10 = 7.5, the cruiser 3; the
        // Heliumites' 4.5 are shared 25 : 10, 3.2 and 1.3.
        b.s[8].grappled_turn = 1;
        b.turn = 2;
        let mut dice = ScriptedDice::new(&[2]);
        b.boarding(&mut dice, &mut log);
        assert!(dice.all_used());
        assert_eq!(b.s[0].figures, [4, 0, 0, 0, 1, 0]);
        assert!(b.s[0].disorganized);
        assert_eq!(b.s[6].figures, [14, 5, 2, 0, 1, 0]);
        assert_eq!(b.s[8].figures, [6, 2, 0, 0, 1, 0]);
        assert_eq!((b.s[6].suffered, b.s[8].suffered), (12, 17));
        // The cruiser's grapples parting leave the battle cruiser held by
        // the battleship, her melee going on.
        b.unlink(8);
        assert_eq!(b.s[0].links, 1 << 6);
        assert!(b.s[0].boarding && !b.s[8].grappled());
    }

    #[test]
    fn a_battle_neither_side_can_win_is_broken_off_drawn() {
        // Planted stalemate: the Heliumite battle cruiser has only her
        // officer left (no gunners to fire, no hands for keel bombs, no
        // crew to grapple); both Zodangan cruisers are at 90% damage,
        // powerless and adrift (no bombing or boarding), and their medium
        // guns cannot hurt her hull nor reach an officer with a crew hit.
        let m = bundled("helium-battle-cruiser-vs-two-zodangan-cruisers");
        let mut b = Battle::new(&m);
        b.s[0].figures = [0, 0, 0, 0, 1, 0];
        for k in [1, 2] {
            b.add_damage(k, 720, &mut NoTrace);
            assert!(b.s[k].active() && b.s[k].figures[Figure::Gunners as usize] > 0);
        }
        assert!(!b.side_can_harm(0) && !b.side_can_harm(1));
        b.play_turns(u32::MAX, &mut Dice::for_trial(1, 0), &mut NoTrace);
        assert_eq!((b.turn, b.outcome, b.broken_off), (1, 3, true));
        // With two marines aboard her instead, the cruisers' crew hits can
        // still kill them while she can do nothing (no gunners, no bombs
        // left): she breaks off and Zodanga holds the field.
        let mut b = Battle::new(&m);
        b.s[0].figures = [0, 0, 2, 0, 1, 0];
        b.s[0].bombs = 0;
        assert!(!b.side_can_harm(0) && b.side_can_harm(1));
        // With her bombs she could still keel-bomb them.
        b.s[0].bombs = 1;
        assert!(b.side_can_harm(0));
        b.s[0].bombs = 0;
        b.play_turns(u32::MAX, &mut Dice::for_trial(1, 0), &mut NoTrace);
        assert_eq!((b.turn, b.outcome), (1, 1));
    }

    fn shots(log: &barsoom_engine::TraceLog) -> Vec<String> {
        log.events
            .iter()
            .filter(|e| e.case == "WoM air To Hit, All Weapons")
            .map(|e| e.text.clone())
            .collect()
    }

    #[test]
    fn guns_that_bear_and_gunners_to_serve_them() {
        use barsoom_engine::TraceLog;
        let m = bundled("helium-battle-cruiser-vs-two-zodangan-cruisers");
        let mut b = Battle::new(&m);
        // Battle cruiser at (0, 0) heading 0; a stationary cruiser 5" off its
        // starboard beam (starboard is -y for heading 0); the other cruiser out.
        b.s[1].pos = Point::new(0, -50);
        b.s[1].from = b.s[1].pos;
        b.s[1].heading = 0;
        b.s[2].status = Status::Destroyed;
        let mut log = TraceLog::default();
        let mut dice = Dice::for_trial(5, 0);
        b.fire(Some(0), &mut dice, &mut log);
        // Bow swivel + 3 starboard + stern swivel = 5 guns; heavy guns at a
        // medium target at short range need 7, -1 as it is stationary: 6.
        let fired = shots(&log);
        assert_eq!(fired.len(), 5, "{fired:?}");
        assert!(
            fired.iter().all(|t| t.contains("needs 6 (stationary -1)")),
            "{fired:?}"
        );
        // Two gunner figures of eight serve 2 of the 8 guns.
        let mut b = Battle::new(&m);
        b.s[1].pos = Point::new(0, -50);
        b.s[1].from = b.s[1].pos;
        b.s[2].status = Status::Destroyed;
        b.s[0].figures[Figure::Gunners as usize] = 2;
        let mut log = TraceLog::default();
        b.fire(Some(0), &mut dice, &mut log);
        assert_eq!(shots(&log).len(), 2);
        // The cruiser, heading 0 with the battle cruiser 5" to port: bow and
        // stern swivels + 4 port guns = 6. Medium guns cannot damage a battle
        // cruiser, so they fire as at a small target (8 at short range, -1
        // stationary: 7) for crew hits only.
        let mut b = Battle::new(&m);
        b.s[1].pos = Point::new(0, -50);
        b.s[1].from = b.s[1].pos;
        b.s[1].heading = 0;
        b.s[2].status = Status::Destroyed;
        let mut log = TraceLog::default();
        b.fire(Some(1), &mut dice, &mut log);
        let fired = shots(&log);
        assert_eq!(fired.len(), 6, "{fired:?}");
        assert!(
            fired
                .iter()
                .all(|t| t.contains("needs 7 (stationary -1) (only exposed men")),
            "{fired:?}"
        );
        // A gun hit on the port battery leaves 3 there: 5 guns bear.
        b.s[1].guns[3] = 3;
        let mut log = TraceLog::default();
        b.fire(Some(1), &mut dice, &mut log);
        assert_eq!(shots(&log).len(), 5);
    }

    #[test]
    fn circle_forms_with_six_and_breaks_below() {
        let m = bundled("six-against-six-barsoomian-circle");
        let mut b = Battle::new(&m);
        b.turn = 1;
        b.circle_orders(0, &mut NoTrace);
        // All six Heliumites are within a move of their centre.
        let c = b.circle[0].expect("the circle forms");
        // Circumference 6 x 0.8" = 4.8"; radius 4.8 / 2 pi = 0.76", 7 tenths.
        assert_eq!(c.radius, 7);
        b.move_side(Some(0), &mut NoTrace);
        for i in 0..6 {
            let st = &b.s[i];
            assert!((6..=8).contains(&st.pos.minus(c.center).length()));
            assert!(!st.stationary());
        }
        // [Steering Hits]: a ship without steering cannot keep the circle;
        // with five left it breaks up.
        b.s[3].steering_out = true;
        b.circle_orders(0, &mut NoTrace);
        assert!(b.circle[0].is_none());
        assert!(!b.in_circle[0]);
    }
}
