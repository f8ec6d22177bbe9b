//! Fights of the Strategic Game, resolved by the Duelling Game itself: a
//! duel is set up from the hero's side and the foes on the display the rules
//! name (outdoor [11.24], street [11.28], flier, house and palace [15.42],
//! arena [17.32]) with `jc.duel`'s [`set_up`] and fought by
//! [`Duel::resolve`](crate::jc::duel::sequence::Duel::resolve); duels
//! with master swordsmen are `jc.swordsman` bouts [7.8, 11.28, 17.42].
//!
//! The hero's side brings Tavia or Llana of Gathol where she is in his
//! retinue and loves him [19.23], and the personages the foes hold chained
//! in the palace's dungeon, whom it frees [5.55, 7.25 (2)].
//!
//! A compiled duel depends only on its [`DuelKey`] (display, who fights at
//! which level, armed or not, a personage's love or chains, surprise,
//! grounded fliers), so each is built
//! once and shared by every later fight with the same key, as `jc.military`
//! caches its battles. In the duel with the villain's group the villains
//! withdraw by an exit once their side is losing [10.22]; that is part of
//! the key. The bouts (whose minimax mixes need a linear
//! program) are compiled at load for every pair of ranks.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::data::StrategicData;
use super::dice::Roller;
use super::game::{Context, Game};
use super::tables::{FLIER_DISPLAY, HOUSE, PALACE, Who};
use crate::jc::duel::model::{DEFAULT_MAX_TURNS, DisplayParts, Entry, SetUpOptions, set_up};
use crate::jc::duel::policy::Policy;
use crate::jc::duel::roster::Class;
use crate::jc::duel::sequence::{Duel, MAX_FIGHTERS, Status};
use crate::jc::event_deck::Effect;
use crate::jc::swordsman::{Bout, CardPolicy, DEFAULT_MAX_ROUNDS, Rank, Swordsman};
use barsoom_engine::Trace;

/// Compiled duels kept at most (beyond, duels are compiled for each fight;
/// results do not change).
const MAX_CACHED: usize = 50_000;
/// Both sides of every strategic duel close in and strike.
const POLICIES: [Policy; 2] = [Policy::Aggressive, Policy::Aggressive];

/// Everything that makes two fights the same duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DuelKey {
    /// Display index.
    pub display: u8,
    /// Starts discovered (house and palace duels otherwise start with the
    /// hero's side undiscovered [6.0]).
    pub discovered: bool,
    /// Grounded fliers [14.25].
    pub grounded: bool,
    /// Fighters per side.
    pub lens: [u8; 2],
    /// Per side, per fighter: character, level, unarmed, strength bonus,
    /// berserk and invisible packed.
    pub sides: [[u32; MAX_FIGHTERS]; 2],
    /// The hero holds card 24 and plays it inside the duel [18.2 card 24].
    pub break_off: bool,
    /// The hero must reach the villain in time [13.43].
    pub deadline: bool,
    /// The foes' villains withdraw by an exit once their side is losing
    /// [10.22] (`jc.duel`'s `withdraw` goal).
    pub withdraw: bool,
    /// The hero's side may use the palace's secret passageway [5.54,
    /// 17.17].
    pub secret_passage: bool,
    /// The hero's side frees its prisoners chained in the dungeon and
    /// leaves with them [5.55] (`jc.duel`'s `rescue` goal).
    pub rescue: bool,
}

fn pack(e: &Entry) -> u32 {
    e.character as u32
        | u32::from(e.level) << 8
        | u32::from(e.unarmed) << 16
        | u32::from(e.strength_bonus) << 17
        | u32::from(e.berserk) << 25
        | u32::from(e.invisible) << 26
        | u32::from(e.loves) << 27
        | u32::from(e.prisoner) << 28
}

fn unpack(v: u32) -> Entry {
    Entry {
        character: (v & 0xff) as usize,
        level: (v >> 8 & 0xff) as u8,
        unarmed: v >> 16 & 1 == 1,
        strength_bonus: (v >> 17 & 0xff) as u8,
        berserk: v >> 25 & 1 == 1,
        invisible: v >> 26 & 1 == 1,
        loves: v >> 27 & 1 == 1,
        prisoner: v >> 28 & 1 == 1,
    }
}

/// Compiled duels by key and the bouts by rank, shared across a run's
/// threads. A duel is a pure function of its key, so what is cached never
/// changes a result.
#[derive(Debug)]
pub struct DuelCache {
    duels: Mutex<HashMap<DuelKey, Arc<Duel>>>,
    /// `bouts[hero rank][opponent rank]`, both on the minimax mix.
    bouts: Vec<Vec<Bout>>,
    /// Display variants and steering fields, shared by the compiled duels.
    parts: DisplayParts,
}

/// The ranks in index order.
const RANKS: [Rank; 3] = [Rank::Warlord, Rank::GrandMaster, Rank::MasterAtArms];

fn rank_index(r: Rank) -> usize {
    RANKS.iter().position(|x| *x == r).unwrap_or(2)
}

impl DuelCache {
    /// Compiles the bouts for every pair of ranks.
    pub fn new(data: &StrategicData) -> Result<Self, String> {
        let mut bouts = Vec::new();
        for hero in RANKS {
            let mut row = Vec::new();
            for opponent in RANKS {
                row.push(Bout::new(
                    data.swordsman.clone(),
                    [
                        Swordsman {
                            label: "hero".into(),
                            rank: hero,
                            hero: true,
                            policy: CardPolicy::Minimax,
                        },
                        Swordsman {
                            label: "master swordsman".into(),
                            rank: opponent,
                            hero: false,
                            policy: CardPolicy::Minimax,
                        },
                    ],
                    DEFAULT_MAX_ROUNDS,
                )?);
            }
            bouts.push(row);
        }
        Ok(DuelCache {
            duels: Mutex::new(HashMap::new()),
            bouts,
            parts: DisplayParts::default(),
        })
    }

    /// The compiled duel of `key`, built on first use (outside the lock, so
    /// threads do not wait on each other's compiling; a duel two threads
    /// built at once is the same duel).
    pub fn duel(&self, data: &StrategicData, key: &DuelKey) -> Result<Arc<Duel>, String> {
        if let Some(d) = self.lock().get(key) {
            return Ok(Arc::clone(d));
        }
        let sides: [Vec<Entry>; 2] = [0, 1].map(|s| {
            key.sides[s][..usize::from(key.lens[s])]
                .iter()
                .map(|v| unpack(*v))
                .collect()
        });
        let duel = Arc::new(set_up(
            &data.displays[usize::from(key.display)],
            [&sides[0], &sides[1]],
            &data.roster,
            data.melee,
            &data.duel_specials,
            &data.swordsman,
            SetUpOptions {
                discovered: key.discovered,
                grounded: key.grounded,
                max_turns: DEFAULT_MAX_TURNS,
                break_off: key.break_off,
                deadline: key.deadline,
                withdraw: key.withdraw,
                secret_passage: key.secret_passage,
                rescue: key.rescue,
            },
            &self.parts,
        )?);
        let mut map = self.lock();
        if map.len() < MAX_CACHED {
            return Ok(Arc::clone(map.entry(*key).or_insert(duel)));
        }
        Ok(duel)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<DuelKey, Arc<Duel>>> {
        match self.duels.lock() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Duels compiled so far.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether none has been compiled.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bout of a hero of rank `hero` against a master swordsman of
    /// rank `opponent`.
    pub fn bout(&self, hero: Rank, opponent: Rank) -> &Bout {
        &self.bouts[rank_index(hero)][rank_index(opponent)]
    }
}

/// Who fights on the hero's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Company {
    /// The hero and every fighting member of his retinue.
    Retinue,
    /// The hero alone, with these companions (arena duels [17.13, 17.15]).
    Alone([u8; 2]),
}

/// How a fight is fought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FightOptions {
    /// Who stands with the hero.
    pub company: Company,
    /// Display index.
    pub display: u8,
    /// Starts discovered.
    pub discovered: bool,
    /// The hero's starting level, if not his usual one (duels without
    /// healing between them [17.34, 17.43]).
    pub hero_level: Option<u8>,
    /// The hero fights armed whatever he carries (arena [17.31]).
    pub armed: bool,
    /// Fliers on the ground: no falls (acquisition [14.25]).
    pub grounded: bool,
    /// The villains among the foes make for an exit once their side is
    /// losing and may escape the display [10.22] (the duel with the
    /// villain's group in his house or palace).
    pub withdraw: bool,
    /// Personages (bit per roster index) held by the foes and chained in
    /// the display's dungeon, on the hero's side as prisoners [5.55, 7.25
    /// (2), 17.1]; only a display with a dungeon holds them.
    pub chained: u128,
    /// The hero's side frees the chained and leaves with them by an exit
    /// rather than fight to the end [5.55] (`jc.duel`'s `rescue` goal).
    pub rescue: bool,
}

impl FightOptions {
    /// A fight on `display` that starts discovered, the hero and his
    /// retinue as they are.
    pub fn on(display: u8) -> Self {
        FightOptions {
            company: Company::Retinue,
            display,
            discovered: true,
            hero_level: None,
            armed: false,
            grounded: false,
            withdraw: false,
            chained: 0,
            rescue: false,
        }
    }
}

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fought {
    /// The hero's side won.
    pub won: bool,
    /// The hero's level at the end.
    pub hero_level: u8,
    /// Per foe, in the order given: dead.
    pub foe_dead: [bool; MAX_FIGHTERS],
    /// How many foes were given.
    pub foes: usize,
    /// The hero did not reach the villain by the deadline of [13.43]: the
    /// villain may still commit the act.
    pub late: bool,
    /// Per foe, in the order given: left the display by an exit [5.18,
    /// 10.22] (the duel's `Escaped` condition).
    pub foe_escaped: [bool; MAX_FIGHTERS],
    /// The chained personages (bit per roster index) rescued: off the
    /// display free, or on it with the hero's side holding the field
    /// [5.55].
    pub freed: u128,
    /// The hero himself left the display by an exit [5.18].
    pub got_away: bool,
    /// Per companion given with [`Company::Alone`], in order: killed in
    /// the duel (a cellmate who falls in the arena neither fights on nor
    /// joins [17.13, 17.15]; a generic warrior of Mars is not recorded as
    /// slain, so only this says he died).
    pub companions_dead: [bool; 2],
}

impl Game {
    /// Fights hero `p` (with `options.company`) against `foes` (roster
    /// indices and strength bonuses) [4.0]. Dead companions leave his retinue; the
    /// hero's counts are kept. A fight the duel cannot be set up for (no
    /// room on the display) does not happen: it counts as won with nobody
    /// hurt.
    pub fn fight<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        foes: &[(u8, u8)],
        options: FightOptions,
        r: &mut R,
        trace: &mut T,
    ) -> Fought {
        let data = ctx.data;
        let retinue = options.company == Company::Retinue;
        let aid = self.fight_begins(ctx, p, retinue, foes, options.display, r, trace);
        let h = self.heroes[p];
        let level = options
            .hero_level
            .unwrap_or_else(|| self.hero_level(ctx, p))
            .max(2);
        // [13.42, 13.43] Told of the unspeakable act, the hero is berserk on
        // his way to the villain; a house or palace duel then is in the house
        // where the villain holds the captive [13.41], so there, and wherever
        // the villain himself fights, he is not, and must reach the villain
        // in time where the villain is among the foes.
        let act = self.story.heroes[p].act > 0 && self.heroes[p].city.active;
        let villain_here = foes
            .iter()
            .any(|&(k, _)| self.parties[p].villains().contains(&k));
        let at_villain = matches!(options.display, HOUSE | PALACE) || villain_here;
        // [18.2 card 24] played inside the duel, never on the fliers nor in
        // the arena's fights to the end [17.3] (where the hero fights armed
        // by the arena [17.31]).
        let break_off_card = if options.display != FLIER_DISPLAY && !options.armed {
            self.hero_card(ctx, p, |e| *e == Effect::BreakOff, r)
                .filter(|_| self.hero_chooses(ctx, p, true, r))
        } else {
            None
        };
        if act && !at_villain {
            trace.event("JC 13.43 berserk", || {
                format!(
                    "{} fights berserk on his way to the villain",
                    self.name(ctx, p)
                )
            });
        }
        let key_break_off = break_off_card.is_some();
        let mut key = DuelKey {
            display: options.display,
            discovered: options.discovered,
            grounded: options.grounded,
            lens: [0; 2],
            sides: [[0; MAX_FIGHTERS]; 2],
            break_off: key_break_off,
            deadline: act && villain_here,
            withdraw: options.withdraw,
            secret_passage: options.display == PALACE
                && self.secret_passage(ctx, p, key_break_off, r, trace),
            rescue: options.rescue && options.chained != 0,
        };
        // The hero's side: at most half the display's fighters.
        let push = |key: &mut DuelKey, e: Entry| {
            let n = usize::from(key.lens[0]);
            if n < MAX_FIGHTERS / 2 {
                key.sides[0][n] = pack(&e);
                key.lens[0] += 1;
            }
        };
        push(
            &mut key,
            Entry {
                character: usize::from(h.character),
                level,
                unarmed: !(h.armed || options.armed),
                strength_bonus: 0,
                berserk: act && !at_villain,
                invisible: aid.hero_invisible,
                loves: false,
                prisoner: false,
            },
        );
        // Who stands with the hero, in order (roster indices), and for
        // `Company::Alone` where each was given.
        let mut company_list = [0u8; MAX_FIGHTERS];
        let mut company_slot = [usize::MAX; MAX_FIGHTERS];
        let mut company_len = 0usize;
        // [19.31] companions in a warrior of Mars's body fight as one.
        let changed = self.story.heroes[p].changed;
        let body = |k: u8| {
            if changed & (1u128 << k) != 0 {
                data.story.specials.transfer.companion_body
            } else {
                k
            }
        };
        let fights = |k: u8| data.roster.characters[usize::from(body(k))].class != Class::Personage;
        match options.company {
            Company::Retinue => {
                for &k in h.retinue() {
                    if fights(k) && company_len < MAX_FIGHTERS / 2 - 1 {
                        company_list[company_len] = k;
                        company_len += 1;
                    }
                }
            }
            Company::Alone(extra) => {
                for (j, k) in extra.into_iter().enumerate() {
                    if k != super::consts::NONE && fights(k) {
                        company_list[company_len] = k;
                        company_slot[company_len] = j;
                        company_len += 1;
                    }
                }
            }
        }
        for &k in &company_list[..company_len] {
            let k = body(k);
            let top = data.roster.characters[usize::from(k)].top_level;
            push(
                &mut key,
                Entry {
                    character: usize::from(k),
                    level: top,
                    ..Entry::default()
                },
            );
        }
        // [9.27] a fellow hero's aid.
        if let Some(q) = aid.helper {
            push(
                &mut key,
                Entry {
                    character: usize::from(self.heroes[q].character),
                    level: self.hero_level(ctx, q),
                    unarmed: !self.heroes[q].armed,
                    ..Entry::default()
                },
            );
        }
        // [19.41] phantom warriors.
        let ally_top = data.roster.characters[usize::from(aid.allies.1)].top_level;
        for _ in 0..aid.allies.0 {
            push(
                &mut key,
                Entry {
                    character: usize::from(aid.allies.1),
                    level: ally_top,
                    ..Entry::default()
                },
            );
        }
        // [19.11-19.13] Woola, always with John Carter, waits off the
        // display and comes in when his master falls to level 2 (on the
        // fliers, on John Carter's own): the duel's rule
        // (`jc::duel::special`).
        let woola = data.story.specials.woola;
        if retinue && h.character == woola.master {
            push(
                &mut key,
                Entry {
                    character: usize::from(woola.character),
                    level: data.roster.characters[usize::from(woola.character)].top_level,
                    ..Entry::default()
                },
            );
        }
        // [19.23] Tavia or Llana of Gathol, in his retinue and his love,
        // takes up a sword when he falls; other personages stand aside.
        let story = &self.story.heroes[p];
        if retinue {
            for &k in h.retinue() {
                let c = &data.roster.characters[usize::from(k)];
                if c.class == Class::Personage
                    && c.reserve.is_some()
                    && (story.love == k || story.princess == k)
                {
                    push(
                        &mut key,
                        Entry {
                            character: usize::from(k),
                            level: 2,
                            loves: true,
                            ..Entry::default()
                        },
                    );
                }
            }
        }
        // [5.55, 7.25 (2)] the personages chained in the dungeon, freed by
        // the hero's side.
        let mut chained = options.chained;
        while chained != 0 {
            let k = chained.trailing_zeros() as usize;
            chained &= chained - 1;
            push(
                &mut key,
                Entry {
                    character: k,
                    prisoner: true,
                    ..Entry::default()
                },
            );
        }
        let foes = &foes[..foes.len().min(MAX_FIGHTERS - usize::from(key.lens[0]))];
        for (i, &(k, bonus)) in foes.iter().enumerate() {
            let top = data.roster.characters[usize::from(k)].top_level;
            key.sides[1][usize::from(key.lens[1])] = pack(&Entry {
                character: usize::from(k),
                level: top,
                strength_bonus: bonus,
                // The villain's card 27.
                invisible: aid.foe_invisible == Some(i),
                ..Entry::default()
            });
            key.lens[1] += 1;
        }
        let duel = match ctx.duels.duel(data, &key) {
            Ok(d) => d,
            Err(why) => {
                trace.event("JC 4.0 no duel", || {
                    format!("the duel cannot be set up: {why}")
                });
                return Fought {
                    won: true,
                    hero_level: level,
                    foe_dead: [false; MAX_FIGHTERS],
                    foes: foes.len(),
                    late: false,
                    foe_escaped: [false; MAX_FIGHTERS],
                    freed: 0,
                    got_away: false,
                    companions_dead: [false; 2],
                };
            }
        };
        let result = r.duel(&duel, &POLICIES);
        let won = result.winner == Some(0);
        if result.late {
            trace.event("JC 13.43 too late", || {
                format!(
                    "{} did not get to the villain within ten tactical turns of the melee's start",
                    self.name(ctx, p)
                )
            });
        }
        let broke_off = key.break_off && result.left == Some(0);
        if let Some((n, _)) = break_off_card.filter(|_| broke_off) {
            // The card goes to the face-up pile; the defeat that follows
            // is escaped (see `saved_from_defeat`).
            self.play_card(ctx, p, p, n, trace);
            self.story.heroes[p].broke_off = true;
        }
        // The hero's side as set up: a prisoner with no manacles free for
        // her was left out [7.25].
        let n0 = duel.fighters.iter().take_while(|f| f.side == 0).count();
        let mut out = Fought {
            won,
            hero_level: result.level[0].max(1),
            foe_dead: [false; MAX_FIGHTERS],
            foes: foes.len(),
            late: result.late,
            foe_escaped: [false; MAX_FIGHTERS],
            freed: 0,
            got_away: result.status[0] == Status::Escaped,
            companions_dead: [false; 2],
        };
        for i in 0..foes.len() {
            out.foe_dead[i] = result.status[n0 + i] == Status::Dead;
            out.foe_escaped[i] = result.status[n0 + i] == Status::Escaped;
        }
        if options.chained != 0 {
            out.freed = self.rescued(ctx, &duel, &result, options.chained, won, trace);
        }
        // [5.72] Tavia or Llana led off the display by a foe (a villain
        // withdrawing [10.22]) while her hero stays on it is carried off to
        // the villain.
        for (i, f) in duel.fighters.iter().enumerate() {
            if f.side == 0
                && f.loves.is_some()
                && result.status[i] == Status::Escaped
                && result.status[0] != Status::Escaped
                && let Some(k) = data.roster.find(&f.id)
            {
                self.abduct(ctx, p, k as u8, trace);
            }
        }
        // Dead companions leave the retinue [11.31, 11.34, 11.41], slain:
        // never drawn again.
        for (i, &k) in company_list[..company_len].iter().enumerate() {
            if result.status[1 + i] == Status::Dead {
                self.heroes[p].leave_character(k);
                self.slay(ctx, k);
                if let Some(dead) = out.companions_dead.get_mut(company_slot[i]) {
                    *dead = true;
                }
            }
        }
        let hs = &mut self.heroes[p].stats;
        hs.duels = hs.duels.saturating_add(1);
        if !won {
            hs.duels_lost = hs.duels_lost.saturating_add(1);
        }
        trace.event("JC 4.0 duel", || {
            format!(
                "turn {}: {} fights {} on the {} display: {} after {} tactical turns",
                self.turn,
                self.name(ctx, p),
                super::game::names(data, foes.iter().map(|f| f.0)),
                super::tables::DISPLAYS[usize::from(options.display)],
                if won { "won" } else { "lost" },
                result.turns
            )
        });
        out
    }

    /// [5.55] The chained personages of `chained` the duel rescued: off the
    /// display free (the hero with them), or on it with his side holding
    /// the field.
    fn rescued<T: Trace>(
        &self,
        ctx: &Context,
        duel: &Duel,
        result: &crate::jc::duel::sequence::DuelResult,
        chained: u128,
        won: bool,
        trace: &mut T,
    ) -> u128 {
        let mut freed = 0u128;
        let hero_out = result.status[0] == Status::Escaped;
        for (i, f) in duel.fighters.iter().enumerate() {
            if f.side != 0 || !f.prisoner {
                continue;
            }
            let Some(k) = ctx.data.roster.find(&f.id) else {
                continue;
            };
            let out = result.status[i] == Status::Escaped && hero_out;
            let held_field = won && result.status[i] != Status::Dead;
            if chained & (1u128 << k) != 0 && (out || held_field) {
                freed |= 1u128 << k;
                trace.event("JC 5.55 freed from the dungeon", || {
                    format!("{} is freed from the dungeon", f.name)
                });
            }
        }
        freed
    }

    /// [5.54, 17.17] Whether hero `p`'s side may use the secret passageway
    /// of the palace he fights in: he knows the city's secret ways (a
    /// resident cellmate showed them, or he came in by them with card
    /// 40-42), or he plays card 40-42 now. The sensible player plays it
    /// only when he also holds card 24, whose break-off the passageway
    /// gives a way out for [7.25]; otherwise it would only open the way
    /// for the villain too.
    fn secret_passage<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        breaking_off: bool,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        let city = self.parties[p].city;
        if self.story.heroes[p].secret_ways & (1u64 << city) != 0 {
            return true;
        }
        let Some((n, _)) = self
            .hero_card(ctx, p, |e| matches!(e, Effect::SecretEntrance { .. }), r)
            .filter(|_| self.hero_chooses(ctx, p, breaking_off, r))
        else {
            return false;
        };
        self.play_card(ctx, p, p, n, trace);
        self.story.heroes[p].secret_ways |= 1u64 << city;
        true
    }

    /// Hero `p` duels a master swordsman of rank `opponent` by maneuver
    /// cards [7.8, 11.28]; John Carter fights as the Warlord, every other
    /// hero as a grand master. Returns whether he won (a bout in which both
    /// fall or that runs out of rounds is lost).
    pub fn bout<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        opponent: Rank,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        // The roster's rank [7.8]: John Carter the Warlord, the others grand
        // masters.
        let c = &ctx.data.roster.characters[usize::from(self.heroes[p].character)];
        let rank = c.swordsman.unwrap_or(Rank::GrandMaster);
        let result = r.bout(ctx.duels.bout(rank, opponent));
        let won = result.outcome == 0;
        let hs = &mut self.heroes[p].stats;
        hs.duels = hs.duels.saturating_add(1);
        if !won {
            hs.duels_lost = hs.duels_lost.saturating_add(1);
        }
        trace.event("JC 7.8 master swordsman", || {
            format!(
                "turn {}: {} duels a master swordsman ({:?}): {} after {} rounds",
                self.turn,
                self.name(ctx, p),
                opponent,
                if won { "won" } else { "lost" },
                result.rounds
            )
        });
        won
    }

    /// The roster indices of `foes` where they fight: city warriors are the
    /// warriors of Mars of `city` [11.8]; at most `cap` in all.
    pub(crate) fn expand_foes(
        &self,
        ctx: &Context,
        foes: &super::tables::Foes,
        city: u8,
        cap: usize,
        out: &mut [(u8, u8); MAX_FIGHTERS],
    ) -> usize {
        let mut n = 0;
        for (who, count) in foes.iter() {
            let k = match who {
                Who::Character(k) => k,
                Who::CityWarrior => ctx.data.places[usize::from(city)].warriors,
            };
            for _ in 0..count {
                if n < cap.min(MAX_FIGHTERS) {
                    out[n] = (k, 0);
                    n += 1;
                }
            }
        }
        n
    }
}

impl Game {
    /// Fights a duel between two given sides on `display` (no hero's
    /// company: an assassin's victim [18.2]); whether the
    /// first side won, or `None` if the duel cannot be set up.
    pub(crate) fn side_duel<R: Roller>(
        &self,
        ctx: &Context,
        display: u8,
        ours: &[Entry],
        theirs: &[Entry],
        r: &mut R,
    ) -> Option<bool> {
        let mut key = DuelKey {
            display,
            discovered: true,
            grounded: false,
            lens: [0; 2],
            sides: [[0; MAX_FIGHTERS]; 2],
            break_off: false,
            deadline: false,
            withdraw: false,
            secret_passage: false,
            rescue: false,
        };
        for (s, list) in [ours, theirs].into_iter().enumerate() {
            for e in list.iter().take(MAX_FIGHTERS / 2) {
                key.sides[s][usize::from(key.lens[s])] = pack(e);
                key.lens[s] += 1;
            }
        }
        let duel = ctx.duels.duel(ctx.data, &key).ok()?;
        Some(r.duel(&duel, &POLICIES).winner == Some(0))
    }
}
