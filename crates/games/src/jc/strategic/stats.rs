//! Per-hero and per-table-entry breakdowns of many Strategic Games, for
//! `barsoom breakdown`: each hero's champion, glory, love, both
//! and out-of-play counts (for Wilson intervals), his duels, imprisonments
//! and the like, and how often every table entry fired. Trial `i` is the
//! same game as trial `i` of `barsoom run` with the same seed; blocks of
//! games run in parallel and their integer counts add up to the same totals
//! in any order.

use super::JcStrategic;
use crate::BreakdownModel;
use barsoom_engine::breakdown::{Breakdown, Cell, Table};
use barsoom_engine::model::NoTrace;
use barsoom_engine::rng::Dice;
use barsoom_engine::runner::{ProgressBar, sum_blocks};

/// One hero's counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeroCounts {
    /// Games he was in.
    pub games: u64,
    /// Games he was champion of Barsoom in [20.54].
    pub champion: u64,
    /// Games he fulfilled glory in [20.51].
    pub glory: u64,
    /// Games he fulfilled love in [20.52].
    pub love: u64,
    /// Games he fulfilled both in.
    pub both: u64,
    /// Games he went out of play in.
    pub out: u64,
    /// Sums over his games: duels, duels lost, imprisonments, captures,
    /// internments, discoveries, arena duels, escapes, friends offered,
    /// villain flights, movement cards, villain escapes from the display
    /// [10.22] and the flights they caused.
    pub sums: [u64; 13],
}

/// Names of [`HeroCounts::sums`], in order.
pub const SUM_NAMES: [&str; 13] = [
    "duels",
    "lost",
    "prison",
    "captured",
    "interned",
    "discovered",
    "arena",
    "escapes",
    "friends",
    "flights",
    "cards",
    "v.escaped",
    "v.esc.fled",
];

/// The counts of a run of games.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games played.
    pub games: u64,
    /// Games that ended by [20.4] (the rest hit the turn limit).
    pub finished: u64,
    /// Sum of the Strategic Turns played.
    pub turns: u64,
    /// Per hero of the data, in move order.
    pub heroes: Vec<HeroCounts>,
    /// Firings per table entry.
    pub fired: Vec<u64>,
    /// Player-Turns whose City Sub-sequences reached the safety bound.
    pub city_bound_hits: u64,
}

impl Counts {
    fn empty(model: &JcStrategic) -> Counts {
        Counts {
            heroes: vec![HeroCounts::default(); model.data().heroes.len()],
            fired: vec![0; model.data().entries.names.len()],
            ..Counts::default()
        }
    }

    fn add(&mut self, other: &Counts) {
        self.games += other.games;
        self.finished += other.finished;
        self.turns += other.turns;
        self.city_bound_hits += other.city_bound_hits;
        for (a, b) in self.heroes.iter_mut().zip(&other.heroes) {
            a.games += b.games;
            a.champion += b.champion;
            a.glory += b.glory;
            a.love += b.love;
            a.both += b.both;
            a.out += b.out;
            for (x, y) in a.sums.iter_mut().zip(b.sums) {
                *x += y;
            }
        }
        for (a, b) in self.fired.iter_mut().zip(&other.fired) {
            *a += b;
        }
    }
}

/// Plays trials `range` of `seed` and counts them.
fn count_block(model: &JcStrategic, seed: u64, range: std::ops::Range<u64>) -> Counts {
    let mut out = Counts::empty(model);
    for trial in range {
        let mut dice = Dice::for_trial(seed, trial);
        let (g, end) = model.play(&mut dice, &mut NoTrace);
        out.games += 1;
        out.finished += u64::from(end.finished);
        out.turns += u64::from(end.turns);
        out.city_bound_hits += u64::from(g.city_bound_hits);
        for p in 0..usize::from(g.players) {
            let h = &g.heroes[p];
            let c = &mut out.heroes[usize::from(h.hero)];
            c.games += 1;
            c.champion += u64::from(end.finished && end.champion == Some(p as u8));
            c.glory += u64::from(h.glory_at > 0);
            c.love += u64::from(h.love_at > 0);
            c.both += u64::from(h.glory_at > 0 && h.love_at > 0);
            c.out += u64::from(!h.in_play());
            let s = &h.stats;
            let values = [
                s.duels,
                s.duels_lost,
                s.imprisonments,
                s.captures,
                s.internments,
                s.discoveries,
                s.arena_duels,
                s.escapes,
                s.friends_offered,
                s.flights,
                s.cards,
                s.villain_escapes,
                s.escape_flights,
            ];
            for (x, v) in c.sums.iter_mut().zip(values) {
                *x += u64::from(v);
            }
        }
        for (a, b) in out.fired.iter_mut().zip(g.fired.iter()) {
            *a += u64::from(*b);
        }
    }
    out
}

/// Plays `trials` games of `seed` in blocks on the current rayon pool,
/// advancing `progress`.
pub fn count(model: &JcStrategic, seed: u64, trials: u64, progress: &ProgressBar) -> Counts {
    let add = |mut total: Counts, part: Counts| {
        total.add(&part);
        total
    };
    sum_blocks(
        trials,
        500,
        progress,
        |range| count_block(model, seed, range),
        add,
    )
    .unwrap_or_else(|| Counts::empty(model))
}

impl BreakdownModel for JcStrategic {
    /// Each hero's champion, glory, love, both and out-of-play rates; his
    /// means per game in play; and every table entry by how often it fired.
    fn breakdown(&self, seed: u64, trials: u64, progress: &ProgressBar) -> Breakdown {
        let counts = count(self, seed, trials, progress);
        let data = self.data();
        let heroes: Vec<(Cell, &HeroCounts)> = (counts.heroes.iter().enumerate())
            .filter(|(_, c)| c.games > 0)
            .map(|(i, c)| {
                let character = usize::from(data.heroes[i].character);
                (
                    Cell::Text(data.roster.characters[character].name.clone()),
                    c,
                )
            })
            .collect();
        let mut rates = Table::new(
            "heroes",
            &[
                "hero",
                "games",
                "champion",
                "glory",
                "love",
                "both",
                "out of play",
            ],
        );
        for (name, c) in &heroes {
            let rate = |k: u64| Cell::rate(k, c.games, 3);
            rates.rows.push(vec![
                name.clone(),
                Cell::Count(c.games),
                rate(c.champion),
                rate(c.glory),
                rate(c.love),
                rate(c.both),
                rate(c.out),
            ]);
        }
        let mut columns = vec!["per game in play"];
        columns.extend(SUM_NAMES);
        let mut means = Table::new("hero-means", &columns);
        for (name, c) in &heroes {
            let mut row = vec![name.clone()];
            row.extend(c.sums.iter().map(|s| Cell::ratio(*s, c.games, 3)));
            means.rows.push(row);
        }
        let mut order: Vec<usize> = (0..counts.fired.len()).collect();
        order.sort_by(|&x, &y| counts.fired[y].cmp(&counts.fired[x]).then(x.cmp(&y)));
        let mut entries = Table::new("table-entries", &["table entry", "fired", "per game"]);
        entries.ranked = true;
        for e in order {
            entries.rows.push(vec![
                Cell::Text(data.entries.names[e].clone()),
                Cell::Count(counts.fired[e]),
                Cell::ratio(counts.fired[e], counts.games, 4),
            ]);
        }
        let never = counts.fired.iter().filter(|f| **f == 0).count();
        entries.notes = vec![
            format!(
                "{never} of {} entries never fired; {} Player-Turns hit the city-game bound",
                counts.fired.len(),
                counts.city_bound_hits
            ),
            format!("{} duels compiled and cached", self.duels().len()),
        ];
        Breakdown {
            games: counts.games,
            heading: format!(
                "{} finished, {:.1} Strategic Turns a game",
                counts.finished,
                counts.turns as f64 / counts.games.max(1) as f64
            ),
            tables: vec![rates, means, entries],
        }
    }
}
