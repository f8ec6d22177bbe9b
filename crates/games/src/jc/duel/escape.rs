//! Leaving the display and getting prisoners out: exits and escapes
//! [5.18, 7.22-7.25], the tower's moored fliers [5.56], secret passageways
//! [5.54], the dungeon [5.55], the escape of prisoners from their guards
//! [7.7] with the sword lent to an escapee [7.76], carrying unconscious
//! characters [5.4], and the flier acquired from its crew [5.51].
//!
//! None of this runs in a duel that does not use it: [`Duel::extras`] gates
//! the step after each action ([`Duel::after_action`]) and the turn
//! indication phase ([`Duel::turn_end`]).

use std::sync::Arc;

use super::geometry::{Cell, Display};
use super::policy::{Policy, Task};
use super::roster::Class;
use super::sequence::{Duel, MAX_FIGHTERS, State, Status};
use super::special::SpecialRules;
use barsoom_engine::{Dice, Trace};

/// What a side is after; the policies read it [5.18, 5.55, 7.7].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Fight to the end on the display (the default; duels to the death
    /// [7.21-7.23]).
    Fight,
    /// Get off the display by an exit the side may use.
    Escape,
    /// Free the side's prisoners [5.55, 7.7], then get them and itself off
    /// the display.
    Rescue,
    /// Fight, but once the side is losing ([`Duel::losing`]) its villains
    /// make for an exit the side may use and leave the display [5.18]
    /// without stopping to strike; the others fight on, covering them (a
    /// villain escaping a duel with the hero [10.22]).
    Withdraw,
}

impl Goal {
    /// Parses a goal name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "fight" => Some(Goal::Fight),
            "escape" => Some(Goal::Escape),
            "rescue" => Some(Goal::Rescue),
            "withdraw" => Some(Goal::Withdraw),
            _ => None,
        }
    }

    /// Whether the whole side makes for the exits from the start (its
    /// personages and captives go with it [5.71, 5.72]).
    pub(crate) fn leaves_at_once(self) -> bool {
        matches!(self, Goal::Escape | Goal::Rescue)
    }
}

/// What a duel brings beyond the open-display rules, fixed at set-up.
#[derive(Debug, Clone)]
pub struct Extras {
    /// The numbers of [5.42, 5.55, 7.7, 19].
    pub rules: SpecialRules,
    /// Per side, what it is after.
    pub goals: [Goal; 2],
    /// Per side, whether its player holds the card that opens the secret
    /// passageways [5.54, 18.2 cards 40-42].
    pub passage_card: [bool; 2],
    /// The attackers are disguised [6.25, 18.2 cards 53-54].
    pub disguise: bool,
    /// The entrance area the first side came in by [7.22, 7.24].
    pub entered: Option<usize>,
    /// A duel for a grounded flier [5.51]: the first side wins once no
    /// defender stands on the defenders' flier.
    pub acquisition: bool,
    /// The display under each state of its openings (index: dungeon door
    /// open + 2 × passageways open), empty when it has none.
    pub variants: Arc<[Display]>,
    /// Steering fields per variant.
    pub fields: Vec<Fields>,
    /// Woola's and John Carter's fighter indices [19.1].
    pub woola: Option<(usize, usize)>,
    /// The flier display as Woola may move on it: John Carter's flier only
    /// [19.13].
    pub woola_display: Option<Display>,
    /// For each phantom warrior, the Kar Komak who materialises him
    /// [19.41].
    pub phantom_of: [Option<u8>; MAX_FIGHTERS],
    /// Uses of each fighter's power at the start [19.41, 19.42].
    pub powers: [u8; MAX_FIGHTERS],
    /// Whether some side may leave the display (it has an exit it means
    /// to use, or plays at random).
    pub may_leave: bool,
    /// Whether there are prisoners.
    pub prisoners: bool,
    /// Personages an enemy may lead away [5.72] (bit per fighter: free or
    /// held captive, not chained in the dungeon); 0 when none.
    pub personages: u32,
    /// The bouts of heroes and master swordsmen who may meet [7.81]; `None`
    /// when none may (melee never looks further then).
    pub swordplay: Option<super::swordplay::SwordPlay>,
    /// The cards and rules of a larger game played inside the duel
    /// ([`super::cards`]): berserk heroes [13.43], invisibility [18.2 card
    /// 27], the break-off [18.2 card 24], the deadline to reach the
    /// villain [13.43].
    pub cards: super::cards::Cards,
}

impl Extras {
    /// Nothing beyond the open-display rules.
    pub fn none(rules: SpecialRules) -> Self {
        Extras {
            rules,
            goals: [Goal::Fight; 2],
            passage_card: [false; 2],
            disguise: false,
            entered: None,
            acquisition: false,
            variants: Arc::from(Vec::new()),
            fields: Vec::new(),
            woola: None,
            woola_display: None,
            phantom_of: [None; MAX_FIGHTERS],
            powers: [0; MAX_FIGHTERS],
            may_leave: false,
            prisoners: false,
            personages: 0,
            swordplay: None,
            cards: super::cards::Cards::default(),
        }
    }
}

/// Walking distances (ignoring counters) that steer a side's fighters to
/// its goals: one per side to the exits it may use, one to the dungeon
/// door, one per chained prisoner to the squares beside him.
#[derive(Debug, Clone, Default)]
pub struct Fields {
    /// Per side: steps to a square covering an exit the side may use.
    pub exits: [Arc<[u16]>; 2],
    /// Per side: the squares covering an exit the side may use (where
    /// `exits` is 0).
    pub exit_squares: [Arc<[(i16, i16)]>; 2],
    /// Steps to a square touching the dungeon door.
    pub door: Arc<[u16]>,
    /// Per fighter: steps to a square next to him where he is chained
    /// (empty for all but prisoners in the dungeon).
    pub beside: Vec<Arc<[u16]>>,
}

/// How far a duel's exits, prisoners and special characters have got
/// (part of the Copy [`State`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    /// The dungeon door is open [5.55].
    pub door_open: bool,
    /// Turns a hero has spent opening the door.
    pub door_turns: u8,
    /// Per chained prisoner, turns a hero has spent beside him [5.55].
    pub chains: [u8; MAX_FIGHTERS],
    /// Per hero, what he stood next to at the end of the last turn without
    /// meleeing: 0 nothing, 1 the door, 2 + i prisoner i.
    pub working: [u8; MAX_FIGHTERS],
    /// Per fighter, whom he is picking up this phase (index + 1) [5.41].
    pub picking: [u8; MAX_FIGHTERS],
    /// Fighters staying on an exit that asks for a turn's wait, to leave
    /// at its end [5.56].
    pub leaving: u32,
    /// Fighters who ended the last turn on such an exit with no enemy
    /// beside them.
    pub ready: u32,
    /// Someone has used a secret passageway: all may now [5.54].
    pub passages_open: bool,
    /// The attackers' disguise holds [6.25].
    pub disguised: bool,
    /// Personages whose values are in play [19.23].
    pub active: u32,
    /// Personages who have initiated melee and so may be meleed [7.16].
    pub struck: u32,
    /// Uses of each fighter's power left [19.41, 19.42].
    pub powers: [u8; MAX_FIGHTERS],
    /// Prisoners freed so far (bit per fighter).
    pub freed: u32,
    /// Attackers who moved in the attacker movement phase [4.0 C, 7.33].
    pub moved: u32,
    /// The side whose last fighter on his feet just left the display.
    pub left: Option<u8>,
    /// The first side holds the defenders' flier [5.51].
    pub acquired: bool,
    /// Per personage, the enemy leading her (index + 1; 0 no one) [5.72].
    pub leader: [u8; MAX_FIGHTERS],
    /// Personages an enemy moved this turn: their own side does not [5.74].
    pub led: u32,
    /// Personages an enemy took off the display with him [5.72].
    pub taken: u32,
    /// Berserk fighters who have taken one hit that cost no level: the
    /// next hit costs one [13.43].
    pub berserk_hit: u32,
    /// Invisible fighters who have not yet come beside an enemy [18.2
    /// card 27].
    pub unseen: u32,
    /// The tactical turn in which melee was first joined (0 not yet).
    pub joined_in: u32,
    /// The watched hero has reached a villain, or none is left on his
    /// feet [13.43].
    pub reached: bool,
    /// The watched hero did not reach a villain in time [13.43].
    pub late: bool,
}

/// The chance in 10 (as a probability) that a prisoner of strength
/// `strength` with `guards` guards escapes [7.71-7.75]: no guard, he is
/// gone; one, two off the roll; each beyond two, one on; a hero always on a
/// 1. The exact form of [`Duel::escape_roll`].
pub fn escape_chance(rules: &SpecialRules, strength: u8, guards: u8, hero: bool) -> f64 {
    if guards == 0 {
        return 1.0;
    }
    let wins = (1..=10u32)
        .filter(|&roll| escapes(rules, roll, strength, guards, hero))
        .count();
    wins as f64 / 10.0
}

/// Whether a natural `roll` frees a prisoner [7.71-7.75].
fn escapes(rules: &SpecialRules, roll: u32, strength: u8, guards: u8, hero: bool) -> bool {
    let needed = i32::from(rules.guards_needed);
    let modifier = match i32::from(guards) {
        1 => rules.one_guard,
        g if g > needed => (g - needed) * rules.extra_guard,
        _ => 0,
    };
    (hero && roll <= rules.hero_escapes_on) || roll as i32 + modifier <= i32::from(strength)
}

impl Duel {
    /// The display fighter `a` moves on now: the dungeon door and the
    /// secret passageways as they stand for his side [5.54, 5.55], Woola's
    /// own flier [19.13].
    #[inline]
    pub fn movement_display(&self, s: &State, a: usize) -> &Display {
        if !self.extras {
            return &self.display;
        }
        self.display_in_play(s, a)
    }

    /// [`Duel::movement_display`] when extras are in play.
    fn display_in_play(&self, s: &State, a: usize) -> &Display {
        if self.special.variants.is_empty() {
            if let Some(d) = &self.special.woola_display
                && self.special.woola.is_some_and(|(w, _)| w == a)
            {
                return d;
            }
            return &self.display;
        }
        &self.special.variants[self.variant(s, self.fighters[a].side)]
    }

    /// The index of the openings variant for `side`.
    #[inline]
    fn variant(&self, s: &State, side: u8) -> usize {
        usize::from(s.x.door_open)
            | usize::from(s.x.passages_open || self.special.passage_card[usize::from(side)]) << 1
    }

    /// The steering fields fighter `a` uses now.
    pub fn fields(&self, s: &State, a: usize) -> Option<&Fields> {
        let v = if self.special.variants.is_empty() {
            0
        } else {
            self.variant(s, self.fighters[a].side)
        };
        self.special.fields.get(v)
    }

    /// Whether side `side` is losing, for [`Goal::Withdraw`]: one of its
    /// villains has lost a level in this duel, or it came with fighters
    /// other than villains and personages and none of them is on his feet
    /// any more (his guards are down).
    pub fn losing(&self, s: &State, side: u8) -> bool {
        let mut guards = false;
        let mut standing = false;
        for (i, f) in self.fighters.iter().enumerate() {
            if f.side != side || f.prisoner {
                continue;
            }
            match f.class {
                Class::Villain => {
                    if s.level[i] < f.top_level {
                        return true;
                    }
                }
                Class::Personage => {}
                _ => {
                    guards = true;
                    standing |= s.fighting(i);
                }
            }
        }
        guards && !standing
    }

    /// Whether side `side` may leave by exit area `k` [5.18, 7.22, 7.24].
    pub(crate) fn may_leave_by(&self, side: u8, k: usize) -> bool {
        let area = &self.display.areas[k];
        area.exit
            && area.exit_sides & (1 << side) != 0
            && !(area.entrants_leave_elsewhere && side == 0 && self.special.entered == Some(k))
    }

    /// The exit fighter `a` could leave by from a counter at `at`, if any.
    pub fn exit_at(&self, a: usize, at: (i16, i16)) -> Option<usize> {
        let side = self.fighters[a].side;
        let under = self.display.areas_under(at.0, at.1);
        (0..self.display.areas.len().min(32))
            .find(|&k| under & (1 << k) != 0 && self.may_leave_by(side, k))
    }

    /// Whether `a` may pick up `u` [5.41, 5.43]: `u` unconscious on the
    /// display beside him, `a` on his feet, not carrying. A personage is
    /// on her feet only once her values are in play (Tavia or Llana of
    /// Gathol [19.23]): then she fights as a character, and lifts a fallen
    /// comrade like one (else, with the comrades lying in the doorways and
    /// the foes unable to strike her [7.16], no one could reach anyone).
    pub fn may_pick_up(&self, s: &State, a: usize, u: usize) -> bool {
        a != u
            && s.fighting(a)
            && s.carrying[a] == 0
            && s.status[u] == Status::Unconscious
            && self.touching(s, a, u)
            && !(0..s.n).any(|o| s.x.picking[o] == u as u8 + 1)
    }

    /// Enemies of prisoner `i` who guard him [7.72-7.74]: on their feet,
    /// beside him and not themselves next to an enemy (engaged in melee).
    pub fn guards(&self, s: &State, i: usize) -> u8 {
        (0..s.n)
            .filter(|&g| {
                self.fighters[g].side != self.fighters[i].side
                    && s.fighting(g)
                    && self.fighters[g].class != Class::Personage
                    && self.touching(s, g, i)
                    && !self.next_to_enemy(s, g)
            })
            .count() as u8
    }

    /// Carries out the task of `a`'s action after his movement: leaving,
    /// picking up, a power [5.18, 5.41, 19.41, 19.42]. Returns whether it
    /// ended the duel.
    pub fn perform_task<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        task: Task,
        moved: bool,
        trace: &mut T,
    ) -> bool {
        match task {
            Task::None => {}
            Task::Leave => {
                let Some(k) = self.exit_at(a, s.pos[a]) else {
                    return false;
                };
                if self.display.areas[k].wait > 0 {
                    s.x.leaving |= 1 << a;
                    return false;
                }
                return self.depart(s, a, k, trace);
            }
            Task::PickUp(u) => {
                let u = usize::from(u);
                if !moved && self.may_pick_up(s, a, u) {
                    s.x.picking[a] = u as u8 + 1;
                    trace.event("JC 5.41 picking up", || {
                        format!(
                            "{} stoops to lift {} (ready at the end of the phase)",
                            self.fighters[a].name, self.fighters[u].name
                        )
                    });
                }
            }
            Task::Summon => self.summon_phantoms(s, a, trace),
            Task::Immobilise(t) => self.immobilise(s, a, usize::from(t), trace),
            Task::PutDown => self.put_down(s, a, trace),
        }
        false
    }

    /// `a` (and whom he carries) leaves the display by exit `k` [5.18];
    /// whether that ends the duel.
    fn depart<T: Trace>(&self, s: &mut State, a: usize, k: usize, trace: &mut T) -> bool {
        s.status[a] = Status::Escaped;
        s.x.leaving &= !(1 << a);
        let carried = s.carrying[a];
        if carried != 0 {
            s.status[usize::from(carried - 1)] = Status::Escaped;
        }
        // A personage he leads goes with him [5.72].
        for p in bits(self.special.personages) {
            if usize::from(s.x.leader[p]) == a + 1 && close(s.pos[a], s.pos[p]) && leadable(s, p) {
                s.status[p] = Status::Escaped;
                s.x.taken |= 1 << p;
                trace.event("JC 5.72 taken away", || {
                    format!(
                        "{} leaves with {}",
                        self.fighters[a].name, self.fighters[p].name
                    )
                });
            }
        }
        let area = &self.display.areas[k];
        trace.event(
            if area.wait > 0 {
                "JC 5.56 escape by the tower"
            } else if area.secret {
                "JC 5.54 escape by a secret passageway"
            } else {
                "JC 5.18 exit"
            },
            || {
                format!(
                    "{}{} leaves the display by the {}",
                    self.fighters[a].name,
                    if carried != 0 {
                        format!(
                            ", carrying {},",
                            self.fighters[usize::from(carried - 1)].name
                        )
                    } else {
                        String::new()
                    },
                    area.name
                )
            },
        );
        let side = self.fighters[a].side;
        if !self.side_standing(s, side) {
            s.x.left = Some(side);
            return true;
        }
        false
    }

    /// What follows an action when extras are in play: a personage's blow
    /// makes her a target [7.16]; an attacker's melee or entry into the
    /// throne room ends the disguise [6.25]; a secret passageway once used
    /// is open to all [5.54]; a carrier who falls drops his load [5.41];
    /// Woola appears and turns ferocious [19.12, 19.16]; Tavia and Llana
    /// take up swords [19.23]; an emptied flier is acquired [5.51].
    /// Returns whether the duel is over.
    pub fn after_action<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        struck: bool,
        policies: &[Policy; 2],
        dice: &mut Dice,
        trace: &mut T,
    ) -> bool {
        if struck {
            self.note_personage_blow(s, a);
        }
        if s.x.disguised && self.fighters[a].side == 0 && (struck || self.in_throne_room(s.pos[a]))
        {
            s.x.disguised = false;
            trace.event("JC 6.25 disguise", || {
                format!(
                    "{} {}: the disguise is off",
                    self.fighters[a].name,
                    if struck {
                        "strikes a defender"
                    } else {
                        "walks into the throne room"
                    }
                )
            });
        }
        if !s.x.passages_open
            && s.blocks(a)
            && self
                .display
                .covers_drawn(s.pos[a].0, s.pos[a].1, |c| c == Cell::Secret)
        {
            s.x.passages_open = true;
            trace.event("JC 5.54 secret passageway", || {
                format!(
                    "{} has used a secret passageway: every character may now",
                    self.fighters[a].name
                )
            });
        }
        self.drop_loads(s, trace);
        self.woola_ferocity(s, trace);
        if self.woola_appears(s, trace) {
            self.woola_ferocity(s, trace);
            if let Some((w, _)) = self.special.woola {
                // [19.12] Woola strikes before any further duelling.
                let action = policies[usize::from(self.fighters[w].side)].choose(self, s, w, dice);
                let struck = action.target.is_some();
                if self.perform(s, w, action, dice, trace) {
                    return true;
                }
                if self.after_action(s, w, struck, policies, dice, trace) {
                    return true;
                }
            }
        }
        self.personages_take_up_swords(s, trace);
        if self.special.acquisition && !s.x.acquired {
            let held = (0..s.n).any(|d| {
                self.fighters[d].side == 1
                    && s.fighting(d)
                    && self.display.decks(s.pos[d].0, s.pos[d].1) & 2 != 0
            });
            if !held {
                s.x.acquired = true;
                trace.event("JC 5.51 flier acquired", || {
                    "no defender is left on his flier: the attackers possess it".to_string()
                });
                return true;
            }
        }
        !self.side_standing(s, 0) || !self.side_standing(s, 1)
    }

    /// Whether a counter at `at` covers a box of the throne room [6.25].
    fn in_throne_room(&self, at: (i16, i16)) -> bool {
        let under = self.display.areas_under(at.0, at.1);
        self.display
            .areas
            .iter()
            .enumerate()
            .any(|(k, area)| area.throne && k < 32 && under & (1 << k) != 0)
    }

    /// Carriers who fell, were captured or died drop whom they carried
    /// beside them [5.41].
    fn drop_loads<T: Trace>(&self, s: &mut State, trace: &mut T) {
        for c in 0..s.n {
            let load = s.carrying[c];
            if load == 0 || s.fighting(c) || s.status[c] == Status::Escaped {
                continue;
            }
            let u = self.set_down(s, c);
            trace.event("JC 5.41 dropped", || {
                format!(
                    "{} falls and drops {}",
                    self.fighters[c].name, self.fighters[u].name
                )
            });
        }
    }

    /// Carrier `c` lays his load on the nearest free square beside him (on
    /// his own deck), unconscious; returns whom.
    fn set_down(&self, s: &mut State, c: usize) -> usize {
        let u = usize::from(s.carrying[c] - 1);
        s.carrying[c] = 0;
        let deck = self.display.decks(s.pos[c].0, s.pos[c].1);
        s.pos[u] = self
            .free_square_near(s, u, s.pos[c], 0, i16::MAX, deck)
            .unwrap_or(s.pos[c]);
        s.status[u] = Status::Unconscious;
        u
    }

    /// A carrier puts his load down at the start of his action, at no cost;
    /// he then moves and melees as usual, without the -1 [5.4, 7.35] (our
    /// reading: the rules give the pick-up a phase and say nothing of the
    /// putting down).
    pub(crate) fn put_down<T: Trace>(&self, s: &mut State, a: usize, trace: &mut T) {
        if s.carrying[a] == 0 {
            return;
        }
        let u = self.set_down(s, a);
        trace.event("JC 5.4 put down", || {
            format!(
                "{} puts {} down to fight",
                self.fighters[a].name, self.fighters[u].name
            )
        });
    }

    /// The turn indication phase when extras are in play [4.0 H]: free
    /// personages move for their side [5.71]; pick-ups are done [5.41];
    /// heroes' turns at the dungeon count [5.55]; prisoners try to escape
    /// their guards [7.7]; escapees next to a friend get a sword [7.76];
    /// those who waited a turn on the tower leave [5.56]. Returns whether
    /// the duel is over.
    pub fn turn_end<T: Trace>(
        &self,
        s: &mut State,
        policies: &[Policy; 2],
        dice: &mut Dice,
        trace: &mut T,
    ) -> bool {
        for p in 0..s.n {
            if s.status[p] == Status::Bystander
                && s.x.led & (1 << p) == 0
                && let Some(action) = super::errand::personage_move(
                    self,
                    s,
                    p,
                    policies[usize::from(self.fighters[p].side)],
                    dice,
                )
            {
                let from = s.pos[p];
                if action.to != from {
                    trace.event("JC 5.71 personage moves", || {
                        format!(
                            "{} moves ({},{}) -> ({},{})",
                            self.fighters[p].name, from.0, from.1, action.to.0, action.to.1
                        )
                    });
                }
                s.pos[p] = action.to;
                s.facing[p] = action.facing;
                if action.task == Task::Leave
                    && let Some(k) = self.exit_at(p, s.pos[p])
                {
                    if self.display.areas[k].wait > 0 {
                        s.x.leaving |= 1 << p;
                    } else {
                        s.status[p] = Status::Escaped;
                        trace.event("JC 5.18 exit", || {
                            format!(
                                "{} leaves the display by the {}",
                                self.fighters[p].name, self.display.areas[k].name
                            )
                        });
                    }
                }
            }
        }
        if self.special.personages != 0 {
            self.free_the_led(s, trace);
        }
        self.finish_pick_ups(s, trace);
        self.dungeon_work(s, trace);
        for i in 0..s.n {
            if s.captive(i) && !self.fighters[i].in_dungeon && s.melee_joined {
                self.escape_roll(s, i, dice, trace);
            }
        }
        self.lend_swords(s, trace);
        if self.tower_departures(s, trace) {
            return true;
        }
        s.meleed = 0;
        !self.side_standing(s, 0) || !self.side_standing(s, 1)
    }

    /// Pick-ups begun this phase are done if the picker stayed on his feet
    /// beside the unconscious character without meleeing [5.41].
    fn finish_pick_ups<T: Trace>(&self, s: &mut State, trace: &mut T) {
        for c in 0..s.n {
            let load = s.x.picking[c];
            if load == 0 {
                continue;
            }
            s.x.picking[c] = 0;
            let u = usize::from(load - 1);
            if s.fighting(c)
                && s.carrying[c] == 0
                && s.meleed & (1 << c) == 0
                && s.status[u] == Status::Unconscious
                && self.touching(s, c, u)
            {
                s.carrying[c] = load;
                s.status[u] = Status::Carried;
                trace.event("JC 5.41 carrying", || {
                    format!(
                        "{} lifts {} and carries him (-1 in melee, 7.35)",
                        self.fighters[c].name, self.fighters[u].name
                    )
                });
            }
        }
    }

    /// A hero who spent the whole turn beside the dungeon door, or beside a
    /// prisoner chained there, without initiating melee, counts a turn:
    /// one opens the door, four free the prisoner, unarmed [5.55].
    fn dungeon_work<T: Trace>(&self, s: &mut State, trace: &mut T) {
        if !(0..s.n).any(|i| s.captive(i) && self.fighters[i].in_dungeon) {
            return;
        }
        let mut credited = 0u32;
        for h in 0..s.n {
            if self.fighters[h].class != Class::Hero {
                continue;
            }
            let job = self.job_of(s, h);
            let before = s.x.working[h];
            s.x.working[h] = job;
            if job == 0 || job != before || s.meleed & (1 << h) != 0 || credited & (1 << job) != 0 {
                continue;
            }
            credited |= 1 << job;
            if job == 1 {
                s.x.door_turns += 1;
                if s.x.door_turns >= self.special.rules.door_turns {
                    s.x.door_open = true;
                    trace.event("JC 5.55 dungeon door", || {
                        format!("{} has the dungeon door open", self.fighters[h].name)
                    });
                }
            } else {
                let i = usize::from(job - 2);
                s.x.chains[i] += 1;
                let turns = s.x.chains[i];
                let freed = turns >= self.special.rules.chain_turns;
                trace.event("JC 5.55 dungeon", || {
                    format!(
                        "{} works at {}'s chains: turn {turns} of {}{}",
                        self.fighters[h].name,
                        self.fighters[i].name,
                        self.special.rules.chain_turns,
                        if freed { ", free (and unarmed)" } else { "" }
                    )
                });
                if freed {
                    self.free(s, i);
                }
            }
        }
    }

    /// What hero `h` stands next to and may work on [5.55]: 1 the shut
    /// dungeon door, 2 + i a prisoner chained in the opened dungeon; 0
    /// neither.
    pub fn job_of(&self, s: &State, h: usize) -> u8 {
        if !s.fighting(h) || s.carrying[h] != 0 {
            return 0;
        }
        if !s.x.door_open {
            let touches = self
                .display
                .touches(s.pos[h].0, s.pos[h].1, |c| c == Cell::Locked);
            return u8::from(touches);
        }
        (0..s.n)
            .find(|&i| {
                s.captive(i)
                    && self.fighters[i].in_dungeon
                    && self.fighters[i].side == self.fighters[h].side
                    && self.touching(s, h, i)
            })
            .map_or(0, |i| i as u8 + 2)
    }

    /// A prisoner goes free [7.7, 5.55]: unarmed until lent a sword
    /// [7.76].
    fn free(&self, s: &mut State, i: usize) {
        s.x.freed |= 1 << i;
        s.unarmed |= 1 << i;
        s.status[i] = if self.fighters[i].top_level == 0
            || (self.fighters[i].class == Class::Personage && s.x.active & (1 << i) == 0)
        {
            Status::Bystander
        } else if self.fighters[i].starts_unconscious {
            Status::Unconscious
        } else {
            Status::Fighting
        };
    }

    /// One escape roll of prisoner `i` [7.71-7.75].
    pub fn escape_roll<T: Trace>(&self, s: &mut State, i: usize, dice: &mut Dice, trace: &mut T) {
        let guards = self.guards(s, i);
        let strength = self.fighters[i].at(s.level[i]).strength;
        let hero = self.fighters[i].class == Class::Hero;
        if guards == 0 {
            trace.event("JC 7.72 escape", || {
                format!("{} is unguarded and escapes", self.fighters[i].name)
            });
            self.free(s, i);
            return;
        }
        let roll = dice.d10();
        let free = escapes(&self.special.rules, roll, strength, guards, hero);
        trace.event("JC 7.71 escape roll", || {
            format!(
                "{} (strength {strength}, {guards} guard{}) rolls {roll}{}",
                self.fighters[i].name,
                if guards == 1 { "" } else { "s" },
                if free { ": escapes" } else { ": held" }
            )
        });
        if free {
            self.free(s, i);
        }
    }

    /// Escapees who end the turn next to a friend who was never a prisoner
    /// are lent a sword [7.76].
    fn lend_swords<T: Trace>(&self, s: &mut State, trace: &mut T) {
        for i in 0..s.n {
            if s.x.freed & (1 << i) == 0 || s.unarmed & (1 << i) == 0 || !s.blocks(i) {
                continue;
            }
            let lender = (0..s.n).find(|&f| {
                f != i
                    && self.fighters[f].side == self.fighters[i].side
                    && !self.fighters[f].prisoner
                    && s.fighting(f)
                    && self.touching(s, f, i)
            });
            if let Some(f) = lender {
                s.unarmed &= !(1 << i);
                trace.event("JC 7.76 sword lent", || {
                    format!(
                        "{} lends {} his short sword",
                        self.fighters[f].name, self.fighters[i].name
                    )
                });
            }
        }
    }

    /// Those who stayed a whole turn on an exit that asks for it, with no
    /// enemy beside them, leave now [5.56]; the others are ready next turn
    /// if no enemy is beside them. Returns whether the duel is over.
    fn tower_departures<T: Trace>(&self, s: &mut State, trace: &mut T) -> bool {
        let mut over = false;
        for a in 0..s.n {
            let on = (s.fighting(a) || s.status[a] == Status::Bystander)
                && self
                    .exit_at(a, s.pos[a])
                    .is_some_and(|k| self.display.areas[k].wait > 0);
            let calm = on && !self.next_to_enemy(s, a);
            let go = calm && s.x.leaving & (1 << a) != 0 && s.x.ready & (1 << a) != 0;
            s.x.leaving &= !(1 << a);
            if calm {
                s.x.ready |= 1 << a;
            } else {
                s.x.ready &= !(1 << a);
            }
            if go && let Some(k) = self.exit_at(a, s.pos[a]) {
                if s.status[a] == Status::Bystander {
                    s.status[a] = Status::Escaped;
                    trace.event("JC 5.56 escape by the tower", || {
                        format!(
                            "{} leaves the display by the {}",
                            self.fighters[a].name, self.display.areas[k].name
                        )
                    });
                } else {
                    over |= self.depart(s, a, k, trace);
                }
            }
        }
        over
    }

    /// Fills the escape and rescue counts of a finished duel.
    pub fn count_escapes(&self, s: &State, holder: Option<u8>) -> ([u8; 2], u8, u8) {
        let mut escaped = [0u8; 2];
        let mut rescued = 0;
        for (i, f) in self.fighters.iter().enumerate() {
            // A personage an enemy took away did not get away [5.72].
            if s.x.taken & (1 << i) != 0 {
                continue;
            }
            if s.status[i] == Status::Escaped {
                escaped[usize::from(f.side)] += 1;
            }
            // Off the display a free man, or on it with his side holding
            // the field: no one is left to keep him [15.26].
            if f.prisoner
                && ((s.x.freed & (1 << i) != 0 && s.status[i] == Status::Escaped)
                    || (holder == Some(f.side) && s.status[i] != Status::Dead))
            {
                rescued += 1;
            }
        }
        (escaped, s.x.freed.count_ones() as u8, rescued)
    }
}

/// The set bits of `mask`, lowest first.
fn bits(mask: u32) -> impl Iterator<Item = usize> {
    (0..32usize).filter(move |i| mask & (1 << i) != 0)
}

/// Whether two counters touch or share boxes.
fn close(a: (i16, i16), b: (i16, i16)) -> bool {
    (a.0 - b.0).abs().max((a.1 - b.1).abs()) <= super::geometry::COUNTER
}

/// Whether personage `p` may be led by an enemy: free, or held captive
/// outside the dungeon [5.71, 5.72].
fn leadable(s: &State, p: usize) -> bool {
    matches!(s.status[p], Status::Bystander | Status::CaptivePersonage)
}

impl Duel {
    /// [5.72] An enemy character (not a personage) who starts his move
    /// beside a personage, or on her boxes, may take her with him at his own
    /// alertness, whoever of her friends stands by; his side's policy says
    /// whether he does ([`super::errand::leads`]). She keeps her place
    /// beside him where the display lets her, else shares his boxes [5.73].
    /// One enemy leads her in a turn.
    pub(crate) fn lead_along<T: Trace>(
        &self,
        s: &mut State,
        a: usize,
        from: (i16, i16),
        trace: &mut T,
    ) {
        let f = &self.fighters[a];
        if f.class == Class::Personage {
            return;
        }
        let (dx, dy) = (s.pos[a].0 - from.0, s.pos[a].1 - from.1);
        for p in bits(self.special.personages) {
            if self.fighters[p].side == f.side
                || !leadable(s, p)
                || (s.x.led & (1 << p) != 0 && usize::from(s.x.leader[p]) != a + 1)
                || !close(from, s.pos[p])
                || !super::errand::leads(self, s, a, p, from)
            {
                continue;
            }
            let want = (s.pos[p].0 + dx, s.pos[p].1 + dy);
            let to = if self.movement_display(s, p).open(want.0, want.1) {
                want
            } else {
                s.pos[a]
            };
            let before = s.pos[p];
            s.pos[p] = to;
            s.x.led |= 1 << p;
            s.x.leader[p] = a as u8 + 1;
            trace.event("JC 5.72 led away", || {
                format!(
                    "{} takes {} along: ({},{}) -> ({},{})",
                    f.name, self.fighters[p].name, before.0, before.1, to.0, to.1
                )
            });
        }
    }

    /// At the turn's end a led personage no longer beside an enemy is free
    /// of him [5.74]; the turn's marks are cleared.
    fn free_the_led<T: Trace>(&self, s: &mut State, trace: &mut T) {
        for p in bits(self.special.personages) {
            if s.x.leader[p] == 0 {
                continue;
            }
            let side = self.fighters[p].side;
            let beside = (0..s.n).any(|e| {
                self.fighters[e].side != side
                    && self.fighters[e].class != Class::Personage
                    && s.fighting(e)
                    && close(s.pos[e], s.pos[p])
            });
            if !beside {
                s.x.leader[p] = 0;
                trace.event("JC 5.74 freed", || {
                    format!("{} is no longer beside an enemy", self.fighters[p].name)
                });
            }
        }
        s.x.led = 0;
    }
}
