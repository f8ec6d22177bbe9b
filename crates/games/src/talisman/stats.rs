//! Per-character and per-card breakdowns of many games, for
//! `barsoom breakdown`: which characters win when they are in play,
//! how long their wins take, how they die; which cards are met and which
//! kill; with the tournament additions on, how often each came into play. Trial `i` is the same game as trial `i` of `barsoom run` with the
//! same seed; blocks of games run in parallel and their integer counts add
//! up to the same totals in any order.

use super::data::Card;
use super::game::{CAUSE_NAMES, End, MAX_PLAYERS, TalismanGame};
use crate::BreakdownModel;
use barsoom_engine::breakdown::{Breakdown, Cell, Table};
use barsoom_engine::model::NoTrace;
use barsoom_engine::rng::Dice;
use barsoom_engine::runner::{ProgressBar, sum_blocks};

/// Counts for one character card.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CharacterCounts {
    /// Games in which it came into play at least once.
    pub games: u64,
    /// Times it came into play.
    pub plays: u64,
    /// Games it won.
    pub wins: u64,
    /// Sum of the rounds of the games it won.
    pub win_rounds: u64,
    /// Deaths by cause (in the order of [`CAUSES`]).
    pub deaths: [u64; 7],
}

/// Counts for one adventure card name (all its copies).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CardCounts {
    /// Times encountered.
    pub met: u64,
    /// Lives it took.
    pub lives: u64,
    /// Characters it killed.
    pub kills: u64,
}

/// Counts for one expansion board [11:30].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardCounts {
    /// Times characters came onto it through a doorway.
    pub visits: u64,
    /// Characters that came onto it at least once.
    pub characters: u64,
    /// Characters that died on its spaces.
    pub deaths: u64,
    /// Ventures to its final space [11:46].
    pub ventures: u64,
    /// Games won by a character that had passed through it.
    pub wins: u64,
}

/// The counts of a run of games.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games played.
    pub games: u64,
    /// Games that ended with a winner.
    pub decided: u64,
    /// Per character card, in data order.
    pub characters: Vec<CharacterCounts>,
    /// Per distinct card name, in first-appearance order: (name, counts).
    pub cards: Vec<(String, CardCounts)>,
    /// Wins per seat (0 is the first player).
    pub seat_wins: [u64; MAX_PLAYERS],
    /// Starting Purchase Cards kept [Setting up].
    pub starting_purchases: u64,
    /// Season, Month and Day events that went beside the board [15:4].
    pub lasting_events: u64,
    /// Bite tokens taken [20:13].
    pub bites: u64,
    /// Players out of the game with 8 bites [20:13].
    pub bitten_out: u64,
    /// Poison tokens taken [20:16].
    pub poison: u64,
    /// Favors gained, and used on a die roll [20:15].
    pub favors: [u64; 2],
    /// Purchase items bought, those from a merchant's stock, and damaged
    /// armour repaired [20:1, 16:11].
    pub purchases: [u64; 3],
    /// Per expansion board, in data order [11:30].
    pub boards: Vec<BoardCounts>,
    /// Characters brought into play in all.
    pub plays: u64,
    /// Pack animals left at doorways [11:34] and outside City stores [11:42].
    pub animals_left: u64,
    /// The City: turns ended with a statute broken, warrants issued,
    /// arrests, Donjon visits [13:14, 20:10-11, 16:9].
    pub city: [u64; 4],
}

impl Counts {
    fn empty(model: &TalismanGame) -> Counts {
        let rules = model.rules();
        let mut cards: Vec<(String, CardCounts)> = Vec::new();
        for c in rules.cards.iter().filter(|c| in_deck(model, c)) {
            if !cards.iter().any(|(n, _)| *n == c.name) {
                cards.push((c.name.clone(), CardCounts::default()));
            }
        }
        Counts {
            characters: vec![CharacterCounts::default(); rules.characters.len()],
            boards: vec![BoardCounts::default(); rules.expansions.len()],
            cards,
            ..Counts::default()
        }
    }

    fn add(&mut self, other: &Counts) {
        self.games += other.games;
        self.decided += other.decided;
        for (a, b) in self.characters.iter_mut().zip(&other.characters) {
            a.games += b.games;
            a.plays += b.plays;
            a.wins += b.wins;
            a.win_rounds += b.win_rounds;
            for (x, y) in a.deaths.iter_mut().zip(b.deaths) {
                *x += y;
            }
        }
        for ((_, a), (_, b)) in self.cards.iter_mut().zip(&other.cards) {
            a.met += b.met;
            a.lives += b.lives;
            a.kills += b.kills;
        }
        for (a, b) in self.seat_wins.iter_mut().zip(other.seat_wins) {
            *a += b;
        }
        self.starting_purchases += other.starting_purchases;
        self.lasting_events += other.lasting_events;
        self.bites += other.bites;
        self.bitten_out += other.bitten_out;
        self.poison += other.poison;
        self.favors[0] += other.favors[0];
        self.favors[1] += other.favors[1];
        for (a, b) in self.purchases.iter_mut().zip(other.purchases) {
            *a += b;
        }
        for (a, b) in self.boards.iter_mut().zip(&other.boards) {
            a.visits += b.visits;
            a.characters += b.characters;
            a.deaths += b.deaths;
            a.ventures += b.ventures;
            a.wins += b.wins;
        }
        self.plays += other.plays;
        self.animals_left += other.animals_left;
        for (a, b) in self.city.iter_mut().zip(other.city) {
            *a += b;
        }
    }
}

/// Whether a card is shuffled into this scenario's deck (a Season, Month
/// or Day event only with the tournament's `timed_events`, a card giving
/// tokens only with its `tokens`).
fn in_deck(model: &TalismanGame, card: &Card) -> bool {
    model.config().tournament.in_play(card)
}

/// Plays trials `range` of `seed` and counts them.
fn count_block(model: &TalismanGame, seed: u64, range: std::ops::Range<u64>) -> Counts {
    let rules = model.rules();
    let mut out = Counts::empty(model);
    // Card index -> position in `out.cards`, by name.
    let slot: Vec<Option<usize>> = rules
        .cards
        .iter()
        .map(|c| out.cards.iter().position(|(n, _)| *n == c.name))
        .collect();
    for trial in range {
        let mut dice = Dice::for_trial(seed, trial);
        let game = model.play(&mut dice, &mut NoTrace);
        out.games += 1;
        let s = &game.stats;
        for (i, counts) in out.characters.iter_mut().enumerate().take(32) {
            let plays = u64::from(s.character_played[i]);
            counts.plays += plays;
            counts.games += u64::from(plays > 0);
            for (k, d) in s.character_deaths[i].iter().enumerate() {
                counts.deaths[k] += u64::from(*d);
            }
        }
        for (k, b) in out.boards.iter_mut().enumerate() {
            b.visits += u64::from(s.board_visits[k]);
            b.characters += u64::from(s.board_characters[k]);
            b.deaths += u64::from(s.board_deaths[k]);
            b.ventures += u64::from(s.board_ventures[k]);
            if let Some(End::Won { seat, .. }) = game.end {
                b.wins += u64::from((game.players[seat].hero.visited >> k) & 1);
            }
        }
        out.plays += s
            .character_played
            .iter()
            .map(|&n| u64::from(n))
            .sum::<u64>();
        out.animals_left += u64::from(s.animals_left);
        if let Some(End::Won { seat, character }) = game.end {
            out.decided += 1;
            out.seat_wins[seat] += 1;
            out.characters[character].wins += 1;
            out.characters[character].win_rounds += u64::from(game.round);
        }
        out.starting_purchases += u64::from(s.starting_purchases);
        out.lasting_events += u64::from(s.lasting_events);
        out.bites += u64::from(s.bites);
        out.bitten_out += u64::from(s.bitten_out);
        out.poison += u64::from(s.poison);
        out.favors[0] += u64::from(s.favors[0]);
        out.favors[1] += u64::from(s.favors[1]);
        for (a, &b) in out.purchases.iter_mut().zip(&s.purchases) {
            *a += u64::from(b);
        }
        for (a, &b) in out.city.iter_mut().zip(&s.city) {
            *a += u64::from(b);
        }
        for (card, to) in slot.iter().enumerate() {
            let Some(to) = *to else {
                continue;
            };
            let c = &mut out.cards[to].1;
            c.met += u64::from(s.card_met[card]);
            c.lives += u64::from(s.card_lives[card]);
            c.kills += u64::from(s.card_kills[card]);
        }
    }
    out
}

/// Plays `trials` games of `seed` in blocks on the current rayon pool,
/// advancing `progress`.
pub fn count(model: &TalismanGame, seed: u64, trials: u64, progress: &ProgressBar) -> Counts {
    let add = |mut total: Counts, part: Counts| {
        total.add(&part);
        total
    };
    sum_blocks(
        trials,
        2_000,
        progress,
        |range| count_block(model, seed, range),
        add,
    )
    .unwrap_or_else(|| Counts::empty(model))
}

impl BreakdownModel for TalismanGame {
    /// Each character's win rate when in play, mean rounds to win and
    /// deaths per play by cause; wins by seat; and every adventure card by
    /// how often it is met, the lives it takes and the characters it kills.
    fn breakdown(&self, seed: u64, trials: u64, progress: &ProgressBar) -> Breakdown {
        let counts = count(self, seed, trials, progress);
        let rules = self.rules();
        let mut columns = vec![
            "character",
            "in games",
            "wins",
            "win rate",
            "rounds",
            "deaths",
        ];
        columns.extend(CAUSE_NAMES);
        let mut characters = Table::new("characters", &columns);
        let rate = |c: &CharacterCounts| c.wins as f64 / c.games.max(1) as f64;
        let mut order: Vec<usize> = (0..rules.characters.len()).collect();
        order.sort_by(|&x, &y| {
            rate(&counts.characters[y])
                .total_cmp(&rate(&counts.characters[x]))
                .then(x.cmp(&y))
        });
        for i in order {
            let c = &counts.characters[i];
            let mut row = vec![
                Cell::Text(rules.characters[i].name.clone()),
                Cell::Count(c.games),
                Cell::Count(c.wins),
                Cell::rate(c.wins, c.games, 4),
                Cell::ratio(c.win_rounds, c.wins, 1),
                Cell::ratio(c.deaths.iter().sum(), c.plays, 3),
            ];
            row.extend(c.deaths.iter().map(|d| Cell::ratio(*d, c.plays, 3)));
            characters.rows.push(row);
        }
        characters.notes = vec![
            "rounds: mean rounds of the games it won; deaths: per time in play, in all and by cause"
                .into(),
        ];
        let mut seats = Table::new("seats", &["seat", "wins", "win rate"]);
        for (seat, &wins) in counts.seat_wins[..self.config().players].iter().enumerate() {
            seats.rows.push(vec![
                Cell::Count(seat as u64 + 1),
                Cell::Count(wins),
                Cell::rate(wins, counts.games, 4),
            ]);
        }
        let mut cards: Vec<&(String, CardCounts)> = counts.cards.iter().collect();
        cards.sort_by(|x, y| y.1.met.cmp(&x.1.met).then(x.0.cmp(&y.0)));
        let mut card_table = Table::new(
            "cards",
            &["card", "met/game", "lives/met", "kills", "kills/met"],
        );
        card_table.ranked = true;
        for (name, c) in cards {
            card_table.rows.push(vec![
                Cell::Text(name.clone()),
                Cell::ratio(c.met, counts.games, 3),
                Cell::ratio(c.lives, c.met, 4),
                Cell::Count(c.kills),
                Cell::ratio(c.kills, c.met, 5),
            ]);
        }
        let mut tables = vec![characters, seats, card_table];
        let tournament = &self.config().tournament;
        // Bites come with the `tokens` cards or with a board that gives
        // them (the Keep's vampires and Vault [11:46, 20:13]).
        let bites = tournament.tokens || counts.bites > 0;
        // Poison comes only with cards of the boards that give it [20:16].
        let poison = counts.poison > 0;
        // The City's law, with a City board played [20:10-11].
        let city = rules
            .expansions
            .iter()
            .enumerate()
            .any(|(k, x)| x.city.is_some() && tournament.board_on(k));
        if city
            || tournament.starting_purchase
            || tournament.timed_events
            || bites
            || poison
            || tournament.merchants
        {
            let mut additions = Table::new(
                "tournament-additions",
                &["tournament addition", "count", "per game"],
            );
            for (name, on, n) in [
                (
                    "starting purchase cards kept",
                    tournament.starting_purchase,
                    counts.starting_purchases,
                ),
                (
                    "Season, Month and Day events drawn",
                    tournament.timed_events,
                    counts.lasting_events,
                ),
                ("bites taken", bites, counts.bites),
                ("players out with 8 bites", bites, counts.bitten_out),
                ("poison tokens taken", poison, counts.poison),
                ("favors gained", tournament.tokens, counts.favors[0]),
                ("favors used", tournament.tokens, counts.favors[1]),
                (
                    "purchase items bought",
                    tournament.merchants,
                    counts.purchases[0],
                ),
                (
                    "bought from a merchant's stock",
                    tournament.merchants,
                    counts.purchases[1],
                ),
                (
                    "damaged armour repaired",
                    tournament.merchants,
                    counts.purchases[2],
                ),
                (
                    "City turns ended with a statute broken",
                    city,
                    counts.city[0],
                ),
                ("warrants issued", city, counts.city[1]),
                ("arrests by the Watch", city, counts.city[2]),
                ("Donjon visits", city, counts.city[3]),
            ] {
                if on {
                    additions.rows.push(vec![
                        Cell::Text(name.into()),
                        Cell::Count(n),
                        Cell::ratio(n, counts.games, 3),
                    ]);
                }
            }
            tables.push(additions);
        }
        if tournament.board_mask != 0 {
            tables.push(board_table(self, &counts));
        }
        Breakdown {
            games: counts.games,
            heading: format!("{} with a winner", counts.decided),
            tables,
        }
    }
}

/// Per expansion board played [11:30]: visits, the characters that came
/// in, deaths there (per character that came in), ventures to the final
/// space, and the win rate of the characters that passed through it
/// beside that of every character brought into play, with Wilson
/// intervals.
fn board_table(model: &TalismanGame, counts: &Counts) -> Table {
    let rules = model.rules();
    let mut table = Table::new(
        "boards",
        &[
            "board",
            "visits/game",
            "characters in",
            "deaths there",
            "death rate",
            "ventures",
            "wins",
            "win rate",
            "win rate, all",
        ],
    );
    for (k, b) in counts.boards.iter().enumerate() {
        if !model.config().tournament.board_on(k) {
            continue;
        }
        table.rows.push(vec![
            Cell::Text(rules.expansions[k].name.clone()),
            Cell::ratio(b.visits, counts.games, 3),
            Cell::Count(b.characters),
            Cell::Count(b.deaths),
            Cell::rate(b.deaths, b.characters, 4),
            Cell::Count(b.ventures),
            Cell::Count(b.wins),
            Cell::rate(b.wins, b.characters, 4),
            Cell::rate(counts.decided, counts.plays, 4),
        ]);
    }
    table.notes = vec![format!(
        "death rate: of the characters that came in, died on the board; win rate: of the characters that came in, won the game (all: of every character brought into play); pack animals left at doorways and outside City stores: {}",
        counts.animals_left
    )];
    table
}
