//! Round robins between interchangeable entrants (characters, heroes,
//! players, policies) in a two-seat model: every ordered pair plays the
//! same trials in both seatings, so seat advantage cancels out of the
//! head-to-head record. A model takes part if its outcome 0 means "seat 0
//! wins" and outcome 1 "seat 1 wins"; any other outcome has no winner, and
//! counts as unfinished when its label says "undecided" or "unfinished".

use serde::Serialize;

use barsoom_engine::Tally;

/// The record of a round robin.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Entrant names.
    pub entrants: Vec<String>,
    /// `wins[i][j]`: games `i` won against `j`.
    pub wins: Vec<Vec<u64>>,
    /// `no_winner[i][j]`: games between them without a winner (symmetric).
    pub no_winner: Vec<Vec<u64>>,
    /// `games[i][j]`: games between them (symmetric).
    pub games: Vec<Vec<u64>>,
    /// Every game's tally merged (seat 0 wins, seat 1 wins, ... by index).
    pub all: Option<Tally>,
    /// Games without a winner that did not finish.
    pub unfinished: u64,
}

impl Record {
    /// An empty record for `entrants`.
    pub fn new(entrants: Vec<String>) -> Self {
        let n = entrants.len();
        Record {
            entrants,
            wins: vec![vec![0; n]; n],
            no_winner: vec![vec![0; n]; n],
            games: vec![vec![0; n]; n],
            all: None,
            unfinished: 0,
        }
    }

    /// Adds the games of `seat0` (in seat 0) against `seat1`, whose
    /// outcomes in `unfinished` did not finish.
    pub fn add(&mut self, seat0: usize, seat1: usize, tally: &Tally, unfinished: &[usize]) {
        let total = tally.trials();
        let (first, second) = (tally.outcomes[0], tally.outcomes[1]);
        self.wins[seat0][seat1] += first;
        self.wins[seat1][seat0] += second;
        for (a, b) in [(seat0, seat1), (seat1, seat0)] {
            self.no_winner[a][b] += total - first - second;
            self.games[a][b] += total;
        }
        self.unfinished += unfinished.iter().map(|&k| tally.outcomes[k]).sum::<u64>();
        match &mut self.all {
            Some(all) => all.merge(tally),
            None => self.all = Some(tally.clone()),
        }
    }

    /// `i`'s score against `j`: wins plus half the games without a winner.
    pub fn score(&self, i: usize, j: usize) -> f64 {
        self.wins[i][j] as f64 + 0.5 * self.no_winner[i][j] as f64
    }
}

/// Game-level measures in the style of Ludii's evaluation metrics.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameMeasures {
    /// Games played in all.
    pub games: u64,
    /// Share of games won from seat 0 and from seat 1.
    pub seat_win_rates: [f64; 2],
    /// Seat 0's win rate minus seat 1's, with a 95% interval.
    pub first_seat_advantage: f64,
    /// Its 95% interval.
    pub first_seat_advantage_ci95: [f64; 2],
    /// Balance: the largest gap between the seats' win rates (0 is fair).
    pub balance_gap: f64,
    /// Drawishness: share of finished games without a winner.
    pub drawishness: f64,
    /// Completion: share of games that finished.
    pub completion: f64,
    /// Decisiveness: share of games with a winner.
    pub decisiveness: f64,
}

/// The measures of a record.
pub fn game_measures(record: &Record) -> GameMeasures {
    let Some(all) = &record.all else {
        return GameMeasures {
            games: 0,
            seat_win_rates: [0.0; 2],
            first_seat_advantage: 0.0,
            first_seat_advantage_ci95: [0.0; 2],
            balance_gap: 0.0,
            drawishness: 0.0,
            completion: 0.0,
            decisiveness: 0.0,
        };
    };
    let n = all.trials();
    let nf = n.max(1) as f64;
    let (p0, p1) = (all.outcomes[0] as f64 / nf, all.outcomes[1] as f64 / nf);
    let advantage = p0 - p1;
    // Two cells of one multinomial: var(p0 - p1) = (p0 + p1 - (p0 - p1)^2) / n.
    let se = ((p0 + p1 - advantage * advantage).max(0.0) / nf).sqrt();
    let no_winner = n - all.outcomes[0] - all.outcomes[1];
    let finished = n - record.unfinished;
    GameMeasures {
        games: n,
        seat_win_rates: [p0, p1],
        first_seat_advantage: advantage,
        first_seat_advantage_ci95: [
            advantage - barsoom_engine::math::stats::Z95 * se,
            advantage + barsoom_engine::math::stats::Z95 * se,
        ],
        balance_gap: advantage.abs(),
        drawishness: if finished > 0 {
            (no_winner - record.unfinished) as f64 / finished as f64
        } else {
            0.0
        },
        completion: finished as f64 / nf,
        decisiveness: 1.0 - no_winner as f64 / nf,
    }
}

/// Outcome indices whose labels mark an unfinished game.
pub fn unfinished_outcomes(labels: &[String]) -> Vec<usize> {
    labels
        .iter()
        .enumerate()
        .skip(2)
        .filter(|(_, l)| {
            let l = l.to_lowercase();
            l.contains("undecided") || l.contains("unfinished")
        })
        .map(|(k, _)| k)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(counts: &[u64]) -> Tally {
        let mut t = Tally::new(counts.len(), 0);
        t.outcomes.copy_from_slice(counts);
        t
    }

    #[test]
    fn both_seatings_fill_one_record() {
        let mut r = Record::new(vec!["a".into(), "b".into()]);
        // a in seat 0: 60 wins, 30 losses, 10 undecided; then b in seat 0:
        // 50 wins, 45 losses, 5 undecided.
        r.add(0, 1, &tally(&[60, 30, 10]), &[2]);
        r.add(1, 0, &tally(&[50, 45, 5]), &[2]);
        assert_eq!(r.wins[0][1], 60 + 45);
        assert_eq!(r.wins[1][0], 30 + 50);
        assert_eq!(r.games[0][1], 200);
        assert_eq!(r.no_winner[1][0], 15);
        assert_eq!(r.score(0, 1), 105.0 + 7.5);
        let m = game_measures(&r);
        // Seat 0 won 110 of 200, seat 1 75: advantage 0.175.
        assert!((m.first_seat_advantage - 0.175).abs() < 1e-12);
        assert_eq!(m.completion, 185.0 / 200.0);
        assert_eq!(m.drawishness, 0.0);
        assert_eq!(m.decisiveness, 185.0 / 200.0);
    }

    #[test]
    fn unfinished_outcomes_are_found_by_label() {
        let labels: Vec<String> = [
            "A wins",
            "B wins",
            "A flees",
            "undecided after 100000 rounds",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(unfinished_outcomes(&labels), vec![3]);
    }
}
