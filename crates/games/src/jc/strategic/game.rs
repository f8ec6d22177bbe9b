//! The state of a Strategic Game and its turn sequence [8.0]: set-up
//! (Quest Determination and Villain Placement, phases A and B [8.0, 10.0,
//! 20.1-20.3]), then Strategic Turns of one Player-Turn per player in hero
//! order [20.14]: Random Events (C), Movement (D), and either the Encounter
//! Sub-sequence (Encounter E, Acquisition F, Escape G) or the City
//! Sub-sequence (H to L) when the hero stands in his villain's city; Phase M
//! ends the Strategic Turn. The game ends when every hero has fulfilled glory
//! or love or is out of play [20.4], and is scored by [20.5].
//!
//! The state is fixed arrays of `Copy` values (a game allocates nothing);
//! every chance goes through a [`Roller`], so tests can script a game.
//!
//! The mechanics live in sibling modules as further `impl Game` blocks:
//! [`super::travel`] (phase D), [`super::villains`] (B, L, surrogates,
//! entourage), [`super::encounters`] (E, F, G and the results of duels),
//! [`super::city`] (H to K), [`super::duels`] (fights through `jc.duel`
//! and `jc.swordsman`) and [`super::hooks`] (where befriendment, love,
//! random events and special characters [12, 13, 18, 19] plug in).

use super::consts::{MAX_ENTRIES, MAX_RETINUE, NO_PLACE};
use super::data::StrategicData;
use super::dice::Roller;
use super::duels::DuelCache;
use super::players::{HeroPolicy, VillainPolicy};
use super::tables::ITEM_WEAPONS;
use crate::jc::deck::DeckState;
use crate::jc::map::FLIER;
use barsoom_engine::Trace;
use barsoom_engine::search::{self, Branching, SearchSlot};

pub use super::consts::{CAPTIVE_QUARRY, MAX_PLAYERS, NONE, VILLAIN_QUARRY};

/// Where a hero is on the map of Barsoom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In a city (or at a waypoint).
    City(u8),
    /// Between two places [9.1].
    Transit(Transit),
}

/// A journey between two places [9.1, 9.6].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transit {
    /// Where it started.
    pub from: u8,
    /// Where it leads.
    pub to: u8,
    /// Haads remaining [9.11].
    pub left: u16,
    /// The route's length.
    pub total: u16,
    /// The waypoint junction it passes through, or [`NONE`].
    pub via: u8,
}

/// What a hero is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Free to move.
    Free,
    /// A prisoner of warriors of Mars, until the Delay Table's turns are up [11.34].
    Captured,
    /// Interned in a city [11.44, 11.46].
    Interned,
    /// Chained in the throne room [17.48].
    Chained,
    /// Out of the game: lost to beasts [11.33] or in the arena [17.3].
    OutOfPlay,
}

/// A spot in a city: area, house, room [16.11].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spot {
    /// Area of the city map.
    pub area: u8,
    /// House (0 = A).
    pub house: u8,
    /// Room (0 = 1).
    pub room: u8,
}

/// A hero's progress in the City Sub-game [15-17].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CityGame {
    /// The city game is under way in the hero's city.
    pub active: bool,
    /// The area he is in.
    pub area: u8,
    /// The house box he is in, or [`NONE`] (the area's holding box)
    /// [15.12].
    pub house: u8,
    /// Bound to move secretly [15.3].
    pub secret: bool,
    /// Information per quarry: 0 none, 1 area, 2 house, 3 room [16.23-16.25].
    pub knows: [u8; 2],
    /// The last information result per quarry, for [16.26].
    pub last: [u8; 2],
    /// Houses found empty by search, per quarry (bit `area * 8 + house`)
    /// [16.42].
    pub empty: [u128; 2],
    /// Discoveries this Strategic Turn [15.32].
    pub discoveries: u8,
    /// Phases spent searching houses this Strategic Turn [16.43].
    pub searches: u8,
    /// Skip the next Information Phase (secret movement [15.3]).
    pub skip_information: bool,
}

impl CityGame {
    /// A city game not under way.
    pub(crate) const IDLE: CityGame = CityGame {
        active: false,
        area: 0,
        house: NONE,
        secret: false,
        knows: [0; 2],
        last: [0; 2],
        empty: [0; 2],
        discoveries: 0,
        searches: 0,
        skip_information: false,
    };
}

/// One hero's counts over a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HeroStats {
    /// Duels and bouts fought.
    pub duels: u16,
    /// Duels and bouts lost.
    pub duels_lost: u16,
    /// Imprisonments [17.0].
    pub imprisonments: u16,
    /// Captures by warriors of Mars [11.34].
    pub captures: u16,
    /// Internments [11.44].
    pub internments: u16,
    /// Discoveries in villains' cities [15.2].
    pub discoveries: u16,
    /// Movement cards drawn.
    pub cards: u16,
    /// Arena duels fought [17.3].
    pub arena_duels: u16,
    /// Escapes from prison [17.2].
    pub escapes: u16,
    /// Times the encounter, city, prison and other tables befriended him
    /// (each read on a friend table [12.16, 16.38]).
    pub friends_offered: u16,
    /// Times his villain fled from him.
    pub flights: u16,
    /// Times his villain got off the display during their duel [10.22].
    pub villain_escapes: u16,
    /// Flights that followed such an escape (counted in `flights` too).
    pub escape_flights: u16,
}

/// A hero and everything travelling with him.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hero {
    /// Index into the data's heroes.
    pub hero: u8,
    /// Roster index of his counter (Vor Daj may be Tor-dur-bar [19.53]).
    pub character: u8,
    /// Where he is.
    pub place: Place,
    /// What he is doing.
    pub status: Status,
    /// The Turns Remaining counter of a capture or internment [8.0 G].
    pub wait: u8,
    /// Whole Player-Turns he loses [17.18].
    pub skip: u8,
    /// His conveyance: a [`crate::jc::map`] bit (walk, thoat, flier) [9.31].
    pub conveyance: u8,
    /// Armed (captured heroes come back unarmed [11.34]).
    pub armed: bool,
    /// Characters travelling with him (roster indices) [9.26].
    pub retinue: [u8; MAX_RETINUE],
    /// How many.
    pub retinue_len: u8,
    /// The escorting hero of [20.38] still with him, or [`NONE`].
    pub escort: u8,
    /// Levels lost to a mind battle [17.47], and the Strategic Turns left.
    pub penalty: (u8, u8),
    /// Whether he moved out of a city this Movement Phase [11.13].
    pub left_city: bool,
    /// Whether he travelled this Movement Phase (by card or a 1T line).
    pub moved: bool,
    /// The trip he was on this Movement Phase (valid when `moved`).
    pub trip: Transit,
    /// The Strategic Turn and Player-Turn order of his glory, or 0.
    pub glory_at: u32,
    /// Likewise for love.
    pub love_at: u32,
    /// Likewise for rescuing a fellow hero [20.53].
    pub rescue_at: u32,
    /// When he went out of play, or 0.
    pub out_at: u32,
    /// An unspeakable act bars his love condition [20.52] (set by the
    /// rules of [13.4]).
    pub love_barred: bool,
    /// The city game.
    pub city: CityGame,
    /// His counts.
    pub stats: HeroStats,
}

impl Hero {
    /// His retinue.
    pub fn retinue(&self) -> &[u8] {
        &self.retinue[..usize::from(self.retinue_len)]
    }

    /// Adds `k` to his retinue (if there is room).
    pub fn join(&mut self, k: u8) {
        if usize::from(self.retinue_len) < MAX_RETINUE {
            self.retinue[usize::from(self.retinue_len)] = k;
            self.retinue_len += 1;
        }
    }

    /// Removes the retinue member at `i`.
    pub fn leave(&mut self, i: usize) {
        let n = usize::from(self.retinue_len);
        if i < n {
            self.retinue.copy_within(i + 1..n, i);
            self.retinue_len -= 1;
        }
    }

    /// Removes `k` from the retinue; whether he was in it.
    pub(crate) fn leave_character(&mut self, k: u8) -> bool {
        match self.retinue().iter().position(|&x| x == k) {
            Some(i) => {
                self.leave(i);
                true
            }
            None => false,
        }
    }

    /// Whether `k` travels with him.
    pub fn has(&self, k: u8) -> bool {
        self.retinue().contains(&k)
    }

    /// The city he stands in, if any.
    pub fn city(&self) -> Option<u8> {
        match self.place {
            Place::City(c) => Some(c),
            Place::Transit(_) => None,
        }
    }

    /// Whether he is still in the game.
    pub(crate) fn in_play(&self) -> bool {
        self.status != Status::OutOfPlay
    }

    /// Whether he has fulfilled glory or love or is out of play [20.4].
    pub(crate) fn finished(&self) -> bool {
        !self.in_play() || self.glory_at > 0 || self.love_at > 0
    }
}

/// A villain and his entourage [10.21].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Party {
    /// The player who controls him [10.0 PROCEDURE].
    pub controller: u8,
    /// The living villain characters (roster indices).
    pub villains: [u8; super::consts::MAX_VILLAINS],
    /// How many.
    pub villains_len: u8,
    /// Villains who join at the final destination [20.22], not yet joined.
    pub waiting: [u8; 2],
    /// How many.
    pub waiting_len: u8,
    /// The henchmen (roster indices) [10.21].
    pub henchmen: [u8; super::consts::MAX_HENCHMEN],
    /// How many.
    pub henchmen_len: u8,
    /// The most henchmen he may have [10.5].
    pub limit: u8,
    /// The captive he holds, or [`NONE`].
    pub captive: u8,
    /// A surrogate villain leading the entourage [10.12], or [`NONE`].
    pub surrogate: u8,
    /// The city he is in.
    pub city: u8,
    /// Cities he will be in, the final destination included [10.43].
    pub destinations: u8,
    /// Cities counted so far [10.34].
    pub counted: u8,
    /// In his final destination [10.4].
    pub at_final: bool,
    /// The Turns Remaining marker of [10.41].
    pub marker: bool,
    /// Quarries hidden in this city [16.11].
    pub hidden: bool,
    /// Where the villain's group and the captive are [16.11].
    pub spots: [Spot; 2],
}

impl Party {
    /// The living villain characters.
    pub fn villains(&self) -> &[u8] {
        &self.villains[..usize::from(self.villains_len)]
    }

    /// The villains who join only at the final destination [20.22], not
    /// yet joined.
    pub fn waiting(&self) -> &[u8] {
        &self.waiting[..usize::from(self.waiting_len)]
    }

    /// The henchmen.
    pub fn henchmen(&self) -> &[u8] {
        &self.henchmen[..usize::from(self.henchmen_len)]
    }

    /// Whether the captive is still held.
    pub fn holds_captive(&self) -> bool {
        self.captive != NONE
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct End {
    /// Strategic Turns played.
    pub turns: u16,
    /// Whether it ended by [20.4] (else the turn limit came first).
    pub finished: bool,
    /// The champion's player [20.54], if any.
    pub champion: Option<u8>,
}

/// The scenario's choices that a game reads.
#[derive(Debug, Clone, PartialEq)]
pub struct GameConfig {
    /// Players.
    pub players: u8,
    /// Each seat's hero (index into the data's heroes), or `None` to deal
    /// one at random [20.12].
    pub heroes: [Option<u8>; MAX_PLAYERS],
    /// Each seat's policies as hero and as villain.
    pub policies: [(HeroPolicy, VillainPolicy); MAX_PLAYERS],
    /// Each seat's playouts per decision when it is a search player
    /// (`search:N`), its policies above being the search's base.
    pub playouts: [Option<u32>; MAX_PLAYERS],
    /// John Carter's villain as agreed (a row of his table [20.22]), or
    /// rolled.
    pub john_carter_villain: Option<u8>,
    /// Vor Daj starts as Tor-dur-bar [19.53, 20.38].
    pub tor_dur_bar: bool,
    /// Strategic Turns before the game is scored unfinished.
    pub turn_limit: u16,
    /// The arena's Jetan [17.43] played as a game of `jetan.game` between
    /// these players (the hero's, then the villain's); `None`: the Jetan
    /// table's duels.
    pub jetan_arena: Option<[crate::jetan::players::Player; 2]>,
    /// A sensible Player offers his villain cards [18.17] only against the
    /// rival hero who leads (`offers = "leader"`), not against any rival.
    pub offer_only_to_leader: bool,
}

/// What a game reads besides its own state.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The data.
    pub data: &'a StrategicData,
    /// The scenario's choices.
    pub config: &'a GameConfig,
    /// Compiled duels and bouts.
    pub duels: &'a DuelCache,
}

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Game {
    /// Players.
    pub players: u8,
    /// The Strategic Turn (1 first).
    pub turn: u16,
    /// The heroes, one per player in move order [20.14].
    pub heroes: [Hero; MAX_PLAYERS],
    /// Each hero's villain party (same index as his hero).
    pub parties: [Party; MAX_PLAYERS],
    /// Policies of each player: as hero, as villain.
    pub policies: [(HeroPolicy, VillainPolicy); MAX_PLAYERS],
    /// Each player's playouts per decision if he is a search player.
    pub playouts: [Option<u32>; MAX_PLAYERS],
    /// The player whose Player-Turn comes next (0 first) [20.14].
    pub next: u8,
    /// The search's decision bookkeeping ([`barsoom_engine::search`]).
    pub branching: Branching,
    /// Per player, the journey (from, to) his search turned back onto
    /// against its base [9.13]: there the search's default is to go on.
    pub search_turned_back: [Option<(u8, u8)>; MAX_PLAYERS],
    /// The live game's searcher (empty without search players and in
    /// playouts).
    pub search: SearchSlot<Game>,
    /// The movement deck [9.0].
    pub movement: DeckState,
    /// The acquisition deck [14.0].
    pub acquisition: DeckState,
    /// Characters in play (bit per roster index): taken up by a hero, a
    /// villain's party or a cell, so not to be drawn. A character who
    /// leaves alive (goes home, is turned away) has his bit cleared and may
    /// be met again.
    pub in_play: u128,
    /// Named characters who died (bit per roster index): never drawn,
    /// placed or met again, whatever `in_play` says [11.31, 11.41, 12.31,
    /// 13.45, 20.51]. Generic counters (no home in the character
    /// directory) stand for many men and are not recorded.
    pub slain: u128,
    /// Firings per table entry.
    pub fired: [u16; MAX_ENTRIES],
    /// Player-Turns whose City Sub-sequences hit the safety bound.
    pub city_bound_hits: u16,
    /// How it ended.
    pub end: Option<End>,
    /// Random events, friends, love and the special characters [12, 13,
    /// 18, 19].
    pub story: super::story::Story,
}

/// A time stamp for "first" in [20.54]: turn and order within it.
#[inline]
pub(crate) fn stamp(turn: u16, player: usize) -> u32 {
    u32::from(turn) * 8 + player as u32 + 1
}

impl Game {
    /// Sets a game up [8.0 A, B]: heroes, villains, retinues, everyone in
    /// the start city with a flier and weapons, villains placed.
    pub fn new<R: Roller, T: Trace>(ctx: &Context, r: &mut R, trace: &mut T) -> Game {
        let data = ctx.data;
        let config = ctx.config;
        let n = usize::from(config.players).clamp(1, MAX_PLAYERS);
        // Heroes: the scenario's, the rest dealt [20.12]; then move order
        // by hero [20.14].
        let mut chosen: [(u8, usize); MAX_PLAYERS] = [(NONE, 0); MAX_PLAYERS];
        let mut taken = 0u16;
        for (seat, c) in chosen.iter_mut().enumerate().take(n) {
            if let Some(h) = config.heroes[seat] {
                *c = (h, seat);
                taken |= 1 << h;
            }
        }
        for (seat, c) in chosen.iter_mut().enumerate().take(n) {
            if c.0 == NONE {
                let free: Vec<u8> = (0..data.heroes.len() as u8)
                    .filter(|h| taken & (1 << h) == 0)
                    .filter(|&h| !escort_conflict(data, config, taken, h))
                    .collect();
                let h = free[r.pick(free.len())];
                *c = (h, seat);
                taken |= 1 << h;
            }
        }
        chosen[..n].sort_by_key(|c| c.0);
        let empty_hero = Hero {
            hero: NONE,
            character: NONE,
            place: Place::City(data.start),
            status: Status::OutOfPlay,
            wait: 0,
            skip: 0,
            conveyance: FLIER,
            armed: true,
            retinue: [NONE; MAX_RETINUE],
            retinue_len: 0,
            escort: NONE,
            penalty: (0, 0),
            left_city: false,
            moved: false,
            trip: Transit {
                from: NO_PLACE,
                to: NO_PLACE,
                left: 0,
                total: 0,
                via: NONE,
            },
            glory_at: 0,
            love_at: 0,
            rescue_at: 0,
            out_at: 0,
            love_barred: false,
            city: CityGame::IDLE,
            stats: HeroStats::default(),
        };
        let empty_party = Party {
            controller: 0,
            villains: [NONE; super::consts::MAX_VILLAINS],
            villains_len: 0,
            waiting: [NONE; 2],
            waiting_len: 0,
            henchmen: [NONE; super::consts::MAX_HENCHMEN],
            henchmen_len: 0,
            limit: 0,
            captive: NONE,
            surrogate: NONE,
            city: NO_PLACE,
            destinations: 1,
            counted: 0,
            at_final: false,
            marker: false,
            hidden: false,
            spots: [Spot::default(); 2],
        };
        let mut g = Game {
            players: n as u8,
            turn: 1,
            heroes: [empty_hero; MAX_PLAYERS],
            parties: [empty_party; MAX_PLAYERS],
            policies: [(HeroPolicy::Sensible, VillainPolicy::Sensible); MAX_PLAYERS],
            playouts: [None; MAX_PLAYERS],
            next: 0,
            branching: Branching::default(),
            search_turned_back: [None; MAX_PLAYERS],
            search: if config.playouts[..n].iter().any(Option::is_some) {
                SearchSlot::live(T::ENABLED)
            } else {
                SearchSlot::default()
            },
            movement: DeckState::with_cards(data.deck.flier.len(), |k| r.pick(k as usize) as u32),
            acquisition: DeckState::with_cards(data.acquisition.len(), |k| {
                r.pick(k as usize) as u32
            }),
            in_play: 0,
            slain: 0,
            fired: [0; MAX_ENTRIES],
            city_bound_hits: 0,
            end: None,
            story: super::story::Story::unshuffled(&data.story),
        };
        for (p, &(h, seat)) in chosen[..n].iter().enumerate() {
            let rules = &data.heroes[usize::from(h)];
            g.policies[p] = config.policies[seat];
            g.playouts[p] = config.playouts[seat];
            let hero = &mut g.heroes[p];
            hero.hero = h;
            hero.character = match rules.alternate_form {
                Some(form) if config.tor_dur_bar => form,
                _ => rules.character,
            };
            hero.status = Status::Free;
            g.in_play |= 1 << hero.character;
            for &k in &rules.retinue {
                g.heroes[p].join(k);
                g.in_play |= 1 << k;
            }
            if let Some(e) = rules.escort
                && !config.tor_dur_bar
            {
                g.heroes[p].join(e);
                g.heroes[p].escort = e;
                g.in_play |= 1 << e;
            }
        }
        // Villains [20.2]: John Carter's rolled unless agreed [20.22].
        for p in 0..n {
            let h = usize::from(g.heroes[p].hero);
            let rules = &data.heroes[h];
            let row = match config.john_carter_villain {
                Some(row) if rules.villains.rows.len() > 1 => {
                    usize::from(row).min(rules.villains.rows.len() - 1)
                }
                _ if rules.villains.rows.len() == 1 => 0,
                _ => {
                    let roll = r.d10();
                    let (_, entry) = rules.villains.get(roll);
                    rules
                        .villains
                        .rows
                        .iter()
                        .position(|(e, _)| *e == entry)
                        .unwrap_or(0)
                }
            };
            let (entry, option) = &rules.villains.rows[row];
            g.fire(*entry);
            let party = &mut g.parties[p];
            party.controller = ((p + 1) % n) as u8;
            party.limit = rules.entourage_limit;
            for &k in &option.villains {
                party.villains[usize::from(party.villains_len)] = k;
                party.villains_len += 1;
            }
            for &k in option.at_final.iter().take(2) {
                party.waiting[usize::from(party.waiting_len)] = k;
                party.waiting_len += 1;
            }
            for &k in option.henchmen.iter().take(usize::from(party.limit)) {
                party.henchmen[usize::from(party.henchmen_len)] = k;
                party.henchmen_len += 1;
            }
            party.captive = option.captive.unwrap_or(NONE);
            // Those who join only at the final destination are spoken for
            // from the start: nobody else may take them up meanwhile (as a
            // surrogate [10.12], say).
            for &k in option
                .villains
                .iter()
                .chain(&option.captive)
                .chain(option.at_final.iter().take(2))
            {
                g.in_play |= 1 << k;
            }
            for &k in &option.retinue {
                g.heroes[p].join(k);
                g.in_play |= 1 << k;
            }
            trace.event("JC 20.2 villain", || {
                format!(
                    "{}: villains {}, {} henchmen, captive {}",
                    data.roster.characters[usize::from(g.heroes[p].character)].name,
                    names(data, option.villains.iter().copied()),
                    option.henchmen.len(),
                    option
                        .captive
                        .map_or("none".into(), |k| data.roster.characters[usize::from(k)]
                            .name
                            .clone())
                )
            });
        }
        // Villain placement [8.0 B, 10.0 PROCEDURE], in move order.
        for p in 0..n {
            let h = usize::from(g.heroes[p].hero);
            let (cities, entry) = data.heroes[h].destinations.get(r.d10());
            g.fire(entry);
            g.parties[p].destinations = *cities;
            g.place_villain(ctx, p, r, trace);
        }
        // The Random Event deck is shuffled, and the heroes' mates noted
        // [18.0, 20.31].
        g.story.shuffle(&data.story, r);
        for p in 0..n {
            g.start_story(ctx, p);
        }
        g
    }

    /// Counts a firing of table entry `entry`.
    #[inline]
    pub fn fire(&mut self, entry: u16) {
        if let Some(c) = self.fired.get_mut(usize::from(entry)) {
            *c = c.saturating_add(1);
        }
    }

    /// Character `k` dies: he leaves play for good (see [`Game::slain`]).
    pub(crate) fn slay(&mut self, ctx: &Context, k: u8) {
        self.in_play &= !(1u128 << k);
        if ctx.data.home(k).is_some() {
            self.slain |= 1u128 << k;
        }
    }

    /// Whether `k` may be drawn or placed now (as a friend, cellmate,
    /// surrogate, resident): neither in play nor dead.
    pub(crate) fn drawable(&self, k: u8) -> bool {
        (self.in_play | self.slain) & (1u128 << k) == 0
    }

    /// Plays the game to its end or the turn limit.
    pub fn play<R: Roller, T: Trace>(&mut self, ctx: &Context, r: &mut R, trace: &mut T) -> End {
        loop {
            if let Some(end) = self.play_player_turns(ctx, u32::MAX, r, trace) {
                return end;
            }
        }
    }

    /// Plays up to `count` Player-Turns from the next one: the game's end,
    /// or `None` when they are played first. Each Player-Turn starts at a
    /// turn boundary a search replays from ([`search::turn_boundary`]).
    pub(crate) fn play_player_turns<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        count: u32,
        r: &mut R,
        trace: &mut T,
    ) -> Option<End> {
        for _ in 0..count {
            let p = usize::from(self.next);
            search::turn_boundary(self, r);
            self.player_turn(ctx, p, r, trace);
            if T::ENABLED {
                for note in self.search.take_notes() {
                    trace.event("search", || note);
                }
            }
            if self.all_done() {
                return Some(self.finish(ctx, true, trace));
            }
            self.next += 1;
            if self.next == self.players {
                self.next = 0;
                // Phase M [8.0].
                if self.turn >= ctx.config.turn_limit {
                    return Some(self.finish(ctx, false, trace));
                }
                self.turn += 1;
            }
        }
        None
    }

    /// Whether every hero has finished [20.4].
    pub fn all_done(&self) -> bool {
        let heroes = &self.heroes[..usize::from(self.players)];
        heroes.iter().all(Hero::finished)
    }

    /// One Player-Turn [8.0 C-L].
    pub fn player_turn<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let hero = self.heroes[p];
        if !hero.in_play() {
            return;
        }
        if hero.skip > 0 {
            self.heroes[p].skip -= 1;
            trace.event("JC 17.18 lost turn", || {
                format!(
                    "turn {}: {} loses this Strategic Turn",
                    self.turn,
                    self.name(ctx, p)
                )
            });
            self.end_of_player_turn(ctx, p, trace);
            return;
        }
        match hero.status {
            Status::Captured | Status::Interned => {
                self.escape_phase(ctx, p, trace);
                self.end_of_player_turn(ctx, p, trace);
                return;
            }
            Status::Chained => {
                self.unchain(ctx, p, trace);
            }
            Status::Free | Status::OutOfPlay => {}
        }
        // C: Random Events.
        self.random_events_phase(ctx, p, r, trace);
        self.rescue_fellow_heroes(ctx, p, trace);
        if self.in_villain_city(p) && self.heroes[p].city.active {
            self.city_subsequences(ctx, p, r, trace);
        } else {
            // D: Movement.
            self.movement_phase(ctx, p, r, trace);
            self.check_love(ctx, p, trace);
            if self.arrived_at_villain(ctx, p, r, trace) {
                self.city_subsequences(ctx, p, r, trace);
            } else if self.heroes[p].status == Status::Free {
                // E: Encounter.
                self.encounter_phase(ctx, p, r, trace);
                // F: Acquisition.
                if self.heroes[p].status == Status::Free {
                    self.acquisition_phase(ctx, p, r, trace);
                }
                // [9.27] companions handed to fellow heroes met here.
                self.meet_fellows(ctx, p, r, trace);
            }
        }
        // G: Escape (the Turns Remaining counters).
        if matches!(self.heroes[p].status, Status::Captured | Status::Interned) {
            self.escape_phase(ctx, p, trace);
        }
        self.end_of_player_turn(ctx, p, trace);
    }

    /// What ends a Player-Turn: the mind battle's lost level wears off
    /// [17.47]; glory and love are checked.
    fn end_of_player_turn<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let h = &mut self.heroes[p];
        if h.penalty.1 > 0 {
            h.penalty.1 -= 1;
            if h.penalty.1 == 0 {
                h.penalty.0 = 0;
            }
        }
        self.check_glory(ctx, p, trace);
        self.check_love(ctx, p, trace);
    }

    /// Phase G [8.0]: a Turns Remaining counter of 1 is removed (the hero
    /// moves next Strategic Turn), a higher one goes down by one.
    pub(crate) fn escape_phase<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let h = &mut self.heroes[p];
        if h.wait <= 1 {
            h.wait = 0;
            let was = h.status;
            h.status = Status::Free;
            if was == Status::Captured {
                // [11.34] back where he was taken, on foot, unarmed unless
                // befriended (the armed flag was set on capture).
                h.conveyance = crate::jc::map::WALK;
            }
            trace.event("JC 8.0 G escape", || {
                format!(
                    "turn {}: {} is free again ({})",
                    self.turn,
                    self.name(ctx, p),
                    if was == Status::Captured {
                        "escaped his captors"
                    } else {
                        "released from internment"
                    }
                )
            });
        } else {
            h.wait -= 1;
        }
    }

    /// Glory [20.51]: every villain who fights and every henchman slain.
    pub fn check_glory<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        if self.heroes[p].glory_at == 0
            && self.heroes[p].in_play()
            && self.villain_party_slain(ctx, p)
            && self.quest_may_end(ctx, p)
        {
            self.heroes[p].glory_at = stamp(self.turn, p);
            trace.event("JC 20.51 glory", || {
                format!(
                    "turn {}: {} has slain his villain and all henchmen",
                    self.turn,
                    self.name(ctx, p)
                )
            });
        }
    }

    /// Whether hero `p`'s villains who fight and all his henchmen are slain
    /// (the deeds of glory [20.51], wherever he stands).
    pub(crate) fn villain_party_slain(&self, ctx: &Context, p: usize) -> bool {
        let party = &self.parties[p];
        let roster = &ctx.data.roster;
        party.henchmen_len == 0
            && !party
                .villains()
                .iter()
                .any(|&k| roster.characters[usize::from(k)].fights())
    }

    /// Love [20.52]: the rescued captive brought to the hero's love city.
    pub(crate) fn check_love<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let h = &self.heroes[p];
        let rules = &ctx.data.heroes[usize::from(h.hero)];
        let Some(captive) = self.captive_of(ctx, p) else {
            return;
        };
        if h.love_at == 0
            && h.in_play()
            && h.status == Status::Free
            && !h.love_barred
            && h.has(captive)
            && h.city() == Some(rules.love_city)
            && self.quest_may_end(ctx, p)
        {
            self.heroes[p].love_at = stamp(self.turn, p);
            trace.event("JC 20.52 love", || {
                format!(
                    "turn {}: {} brings {} to {}",
                    self.turn,
                    self.name(ctx, p),
                    ctx.data.roster.characters[usize::from(captive)].name,
                    ctx.data.map.cities[usize::from(rules.love_city)].name
                )
            });
        }
    }

    /// The captive hero `p` must rescue (held or rescued), if any.
    pub(crate) fn captive_of(&self, ctx: &Context, p: usize) -> Option<u8> {
        let party = &self.parties[p];
        if party.captive != NONE {
            return Some(party.captive);
        }
        let h = &self.heroes[p];
        h.retinue()
            .iter()
            .copied()
            .find(|&k| self.is_captive_of(ctx, p, k))
    }

    /// Whether `k` is one of the captives of hero `p`'s villain table.
    pub(crate) fn is_captive_of(&self, ctx: &Context, p: usize, k: u8) -> bool {
        ctx.data.heroes[usize::from(self.heroes[p].hero)]
            .villains
            .rows
            .iter()
            .any(|(_, o)| o.captive == Some(k))
    }

    /// Puts hero `p` out of play [11.33, 17.3]: he and his retinue leave
    /// the game (and are never drawn again).
    pub(crate) fn out_of_play<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        why: &str,
        trace: &mut T,
    ) {
        let turn = self.turn;
        let h = &mut self.heroes[p];
        h.status = Status::OutOfPlay;
        h.out_at = stamp(turn, p);
        h.city = CityGame::IDLE;
        h.retinue_len = 0;
        h.escort = NONE;
        trace.event("JC 17.3 out of play", || {
            format!(
                "turn {}: {} is out of the game: {why}",
                self.turn,
                self.name(ctx, p)
            )
        });
    }

    fn finish<T: Trace>(&mut self, ctx: &Context, finished: bool, trace: &mut T) -> End {
        let champion = self.champion();
        let end = End {
            turns: self.turn,
            finished,
            champion: champion.map(|p| p as u8),
        };
        trace.event("JC 20.54 champion", || match champion {
            Some(p) => format!(
                "after {} Strategic Turns: {} is champion of Barsoom ({} conditions)",
                self.turn,
                self.name(ctx, p),
                self.conditions(p).0
            ),
            None => format!(
                "after {} Strategic Turns: no champion{}",
                self.turn,
                if finished { "" } else { " (unfinished)" }
            ),
        });
        self.end = Some(end);
        end
    }

    /// Hero `p`'s fulfilled conditions [20.51-20.53] and when he reached
    /// that count: glory, love, a fellow hero rescued, and having stayed in
    /// play while another hero went out.
    pub fn conditions(&self, p: usize) -> (u8, u32) {
        let h = &self.heroes[p];
        let mut count = 0u8;
        let mut when = 0u32;
        let mut add = |at: u32| {
            if at > 0 {
                count += 1;
                when = when.max(at);
            }
        };
        add(h.glory_at);
        add(h.love_at);
        add(h.rescue_at);
        if h.in_play() {
            let first_out = self.heroes[..usize::from(self.players)]
                .iter()
                .filter(|o| !o.in_play())
                .map(|o| o.out_at)
                .min();
            if let Some(at) = first_out {
                add(at);
            }
        }
        (count, when)
    }

    /// The champion of Barsoom [20.54]: most conditions, then the earliest
    /// to reach that count; none if no hero fulfilled any.
    pub fn champion(&self) -> Option<usize> {
        let mut best: Option<(usize, u8, u32)> = None;
        for p in 0..usize::from(self.players) {
            let (count, when) = self.conditions(p);
            if count == 0 {
                continue;
            }
            let better = match best {
                None => true,
                Some((_, c, w)) => count > c || (count == c && when < w),
            };
            if better {
                best = Some((p, count, when));
            }
        }
        best.map(|(p, _, _)| p)
    }

    /// Hero `p`'s display name.
    pub fn name(&self, ctx: &Context, p: usize) -> String {
        ctx.data
            .roster
            .characters
            .get(usize::from(self.heroes[p].character))
            .map_or("?".into(), |c| c.name.clone())
    }

    /// Whether hero `p` stands in his villain's city.
    pub(crate) fn in_villain_city(&self, p: usize) -> bool {
        let party = &self.parties[p];
        self.heroes[p].city() == Some(party.city) && party_present(party)
    }

    /// Hero `p`'s fighting level: his top less any mind battle loss
    /// [17.47].
    pub fn hero_level(&self, ctx: &Context, p: usize) -> u8 {
        let h = &self.heroes[p];
        let top = ctx.data.roster.characters[usize::from(h.character)].top_level;
        top.saturating_sub(h.penalty.0).max(2)
    }

    /// Whether hero `p` has weapons.
    pub fn armed(&self, p: usize) -> bool {
        self.heroes[p].armed
    }

    /// Gives hero `p` an item [14.0].
    pub fn gain(&mut self, p: usize, items: u8) {
        let h = &mut self.heroes[p];
        if items & super::tables::ITEM_FLIER != 0 {
            h.conveyance = FLIER;
        } else if items & super::tables::ITEM_THOATS != 0 && h.conveyance == crate::jc::map::WALK {
            h.conveyance = crate::jc::map::THOAT;
        }
        if items & ITEM_WEAPONS != 0 {
            h.armed = true;
        }
    }

    /// Takes items from hero `p`.
    pub fn lose(&mut self, p: usize, items: u8) {
        let h = &mut self.heroes[p];
        if (items & super::tables::ITEM_FLIER != 0 && h.conveyance == FLIER)
            || (items & super::tables::ITEM_THOATS != 0 && h.conveyance == crate::jc::map::THOAT)
        {
            h.conveyance = crate::jc::map::WALK;
        }
        if items & ITEM_WEAPONS != 0 {
            h.armed = false;
        }
    }
}

impl Game {
    /// Checks what must always hold between phases: each hero is in one
    /// place (a city, or on one line with haads remaining [9.11]), a city
    /// game only in his villain's city, no named character (one with a
    /// home in the character directory) in two retinues or entourages,
    /// entourages within their limits [10.5], no two villains in one city
    /// [10.33], no dead character with anyone. Returns what is wrong.
    pub fn check_invariants(&self, ctx: &Context) -> Result<(), String> {
        let data = ctx.data;
        let n = usize::from(self.players);
        let mut seen = 0u128;
        let mut note = |k: u8, whose: &str| -> Result<(), String> {
            if data.home(k).is_none() {
                return Ok(());
            }
            if seen & (1u128 << k) != 0 {
                return Err(format!(
                    "{} is in two places (again with {whose})",
                    data.roster.characters[usize::from(k)].name
                ));
            }
            seen |= 1u128 << k;
            Ok(())
        };
        for p in 0..n {
            let h = &self.heroes[p];
            let party = &self.parties[p];
            if party.henchmen_len > party.limit {
                return Err(format!(
                    "hero {p}'s villain has {} henchmen over his limit {}",
                    party.henchmen_len, party.limit
                ));
            }
            if party.at_final && party.counted < party.destinations {
                return Err(format!(
                    "hero {p}'s villain is final after {} of {} cities",
                    party.counted, party.destinations
                ));
            }
            for &k in party.villains() {
                note(k, "a villain")?;
            }
            if party.captive != NONE {
                note(party.captive, "a villain's captive")?;
            }
            if party.surrogate != NONE && party.surrogate != data.nameless_villain {
                note(party.surrogate, "a surrogate")?;
            }
            // The dead are with nobody [11.31, 11.41].
            let mut with = self.story.heroes[p].held;
            for &k in party
                .villains()
                .iter()
                .chain(party.waiting())
                .chain(party.henchmen())
                .chain(&[party.captive, party.surrogate])
                .chain(h.retinue())
            {
                if k != NONE {
                    with |= 1u128 << k;
                }
            }
            if let Some(k) = (0..128u8).find(|&k| with & self.slain & (1u128 << k) != 0) {
                return Err(format!(
                    "{} is dead but still with hero {p} or his villain",
                    data.roster.characters[usize::from(k)].name
                ));
            }
            for o in 0..p {
                if party_present(party)
                    && party_present(&self.parties[o])
                    && party.city == self.parties[o].city
                {
                    return Err(format!(
                        "two villains in {} [10.33]",
                        data.map.cities[usize::from(party.city)].name
                    ));
                }
            }
            if !h.in_play() {
                continue;
            }
            note(h.character, "a hero")?;
            for &k in h.retinue() {
                note(k, "a retinue")?;
            }
            match h.place {
                Place::City(c) => {
                    if usize::from(c) >= data.map.cities.len() {
                        return Err(format!("hero {p} is nowhere ({c})"));
                    }
                }
                Place::Transit(t) => {
                    if t.from == t.to || t.left == 0 || t.left > t.total {
                        return Err(format!("hero {p} is on an impossible journey {t:?}"));
                    }
                }
            }
            if h.city.active && (h.city() != Some(party.city) || !party_present(party)) {
                return Err(format!(
                    "hero {p} plays a city game outside his villain's city"
                ));
            }
            if matches!(h.status, Status::Captured | Status::Interned) && h.wait == 0 {
                return Err(format!(
                    "hero {p} is held without a Turns Remaining counter"
                ));
            }
        }
        Ok(())
    }
}

/// Whether anything of a villain party is left to pursue: a villain, a
/// henchman, a surrogate or the captive.
pub(crate) fn party_present(party: &Party) -> bool {
    party.villains_len > 0
        || party.henchmen_len > 0
        || party.captive != NONE
        || party.surrogate != NONE
}

/// Whether dealing hero `h` would break [20.38]: an escorted Vor Daj rules
/// out his escort as a player's hero, and the other way round.
fn escort_conflict(data: &StrategicData, config: &GameConfig, taken: u16, h: u8) -> bool {
    if config.tor_dur_bar {
        return false;
    }
    let hero = &data.heroes[usize::from(h)];
    data.heroes.iter().enumerate().any(|(o, other)| {
        taken & (1 << o) != 0
            && (other.escort == Some(hero.character) || hero.escort == Some(other.character))
    })
}

/// Names of roster characters, joined.
pub fn names(data: &StrategicData, ks: impl Iterator<Item = u8>) -> String {
    ks.map(|k| data.roster.characters[usize::from(k)].name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
