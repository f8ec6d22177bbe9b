//! The search on two planted toy games: a race whose best step is known,
//! and a guess at a hidden coin that a search must not peek at.

use super::*;

/// Two seats race to `GOAL`; each turn the mover rolls a die (noise the
/// replay must reproduce), then steps 1, 3 or 0 squares (choice 0, 1, 2;
/// a six adds one). Choice 1 is always best.
#[derive(Clone, Default)]
struct Race {
    pos: [u32; 2],
    to_move: usize,
    winner: Option<usize>,
    /// The seat that searches, and its budget.
    searcher_seat: Option<(usize, u32)>,
    /// Each of the search seat's live choices.
    chosen: Vec<usize>,
    branching: Branching,
    slot: SearchSlot<Race>,
}

const GOAL: u32 = 12;

impl Race {
    fn new(searcher_seat: Option<(usize, u32)>) -> Self {
        Race {
            searcher_seat,
            slot: if searcher_seat.is_some() {
                SearchSlot::live(false)
            } else {
                SearchSlot::default()
            },
            ..Race::default()
        }
    }

    fn turn<R: Roll>(&mut self, r: &mut R) {
        turn_boundary(self, r);
        let seat = self.to_move;
        let six = r.die(6) == 6;
        let c = decide(self, (), seat, "step", 3, |_, r| r.pick(3), r);
        if self.branching.is_live() && self.searcher_seat.is_some_and(|(s, _)| s == seat) {
            self.chosen.push(c);
        }
        self.pos[seat] += [1, 3, 0][c] + u32::from(six);
        if self.pos[seat] >= GOAL {
            self.winner = Some(seat);
        }
        self.to_move ^= 1;
    }

    fn play<R: Roll>(&mut self, r: &mut R) {
        while self.winner.is_none() {
            self.turn(r);
        }
    }
}

impl Searchable for Race {
    type Env<'e> = ();
    fn branching(&mut self) -> &mut Branching {
        &mut self.branching
    }
    fn searcher(&mut self) -> &mut SearchSlot<Self> {
        &mut self.slot
    }
    fn playouts(&self, seat: usize) -> Option<u32> {
        self.searcher_seat
            .filter(|&(s, _)| s == seat)
            .map(|(_, n)| n)
    }
    fn determinize<R: Roll>(&mut self, _env: (), _seat: usize, _r: &mut R) {}
    fn play_on(&mut self, _env: (), dice: &mut Dice) {
        self.play(dice);
    }
    fn reward(&self, _env: (), seat: usize) -> f64 {
        f64::from(u8::from(self.winner == Some(seat)))
    }
}

#[test]
fn the_search_finds_the_planted_best_step_and_wins() {
    let (mut best, mut all, mut wins) = (0, 0, 0);
    for trial in 0..40 {
        let mut game = Race::new(Some((1, 60)));
        game.play(&mut Dice::for_trial(5, trial));
        best += game.chosen.iter().filter(|&&c| c == 1).count();
        all += game.chosen.len();
        wins += usize::from(game.winner == Some(1));
    }
    // Random play takes it a third of the time; near the goal two steps
    // can win alike, so the searcher need not always take it.
    assert!(best * 100 >= all * 70, "best step {best} of {all}");
    assert!(wins >= 36, "the searcher won {wins} of 40 against random");
}

#[test]
fn a_game_without_search_players_rolls_as_before_and_a_search_game_replays() {
    // Without a searcher the decisions are the base policy's, on the trial's dice.
    let mut plain = Race::new(None);
    plain.play(&mut Dice::for_trial(9, 3));
    let mut by_hand = Race::new(None);
    let mut dice = Dice::for_trial(9, 3);
    while by_hand.winner.is_none() {
        let seat = by_hand.to_move;
        let six = dice.d(6) == 6;
        by_hand.pos[seat] += [1, 3, 0][dice.pick(3)] + u32::from(six);
        if by_hand.pos[seat] >= GOAL {
            by_hand.winner = Some(seat);
        }
        by_hand.to_move ^= 1;
    }
    assert_eq!((plain.pos, plain.winner), (by_hand.pos, by_hand.winner));
    // The same trial searched twice plays the same game.
    let run = || {
        let mut g = Race::new(Some((0, 30)));
        g.play(&mut Dice::for_trial(9, 3));
        (g.pos, g.chosen)
    };
    assert_eq!(run(), run());
}

/// One decision: guess a coin dealt face down at the start. The seat
/// cannot see it, so no guess is better than the other.
#[derive(Clone, Default)]
struct Guess {
    coin: usize,
    guess: Option<usize>,
    branching: Branching,
    slot: SearchSlot<Guess>,
}

impl Guess {
    fn play<R: Roll>(&mut self, r: &mut R) {
        turn_boundary(self, r);
        let g = decide(self, (), 0, "guess", 2, |_, _| 0, r);
        self.guess = Some(g);
    }
}

impl Searchable for Guess {
    type Env<'e> = ();
    fn branching(&mut self) -> &mut Branching {
        &mut self.branching
    }
    fn searcher(&mut self) -> &mut SearchSlot<Self> {
        &mut self.slot
    }
    fn playouts(&self, _seat: usize) -> Option<u32> {
        Some(50)
    }
    fn determinize<R: Roll>(&mut self, _env: (), _seat: usize, r: &mut R) {
        self.coin = r.pick(2);
    }
    fn play_on(&mut self, _env: (), dice: &mut Dice) {
        self.play(dice);
    }
    fn reward(&self, _env: (), _seat: usize) -> f64 {
        f64::from(u8::from(self.guess == Some(self.coin)))
    }
}

#[test]
fn the_search_never_reads_a_hidden_card() {
    // A search that read the true coin would always guess right.
    let games = 400;
    let right = (0..games)
        .filter(|&trial| {
            let mut dice = Dice::for_trial(11, trial);
            let mut game = Guess {
                coin: dice.pick(2),
                slot: SearchSlot::live(false),
                ..Guess::default()
            };
            game.play(&mut dice);
            game.guess == Some(game.coin)
        })
        .count();
    // Half right, within four standard errors (10 of 400).
    assert!((160..=240).contains(&right), "{right} of {games} right");
}

#[test]
fn specs_read_with_their_base_and_budget() {
    let base = |name: &str| (name == "heuristic" || name == "random").then_some(name.len());
    let parse = |t: &str| SearchSpec::parse(t, 9, "heuristic, random", base);
    assert_eq!(parse("greedy"), None);
    assert_eq!(
        parse("search"),
        Some(Ok(SearchSpec {
            playouts: DEFAULT_PLAYOUTS,
            base: 9
        }))
    );
    assert_eq!(
        parse("search:1_000:random"),
        Some(Ok(SearchSpec {
            playouts: 1000,
            base: 6
        }))
    );
    for bad in [
        "search:0",
        "search:x",
        "search:10:greedy",
        "search:10:random:1",
    ] {
        let e = parse(bad).and_then(Result::err).map(|e| e.to_string());
        assert!(
            e.as_deref().is_some_and(
                |m| m.contains("search:PLAYOUTS:BASE") && m.contains("heuristic, random")
            ),
            "{bad}: {e:?}"
        );
    }
}

#[test]
fn notes_show_each_candidate_and_the_choice() {
    let mut game = Race::new(Some((0, 12)));
    game.slot = SearchSlot::live(true);
    game.turn(&mut Dice::for_trial(1, 0));
    let notes = game.slot.take_notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("seat 1 searches step (12 playouts, base plays ["),
        "{}",
        notes[0]
    );
    assert!(
        notes[0].contains("[2] ") && notes[0].contains("plays ["),
        "{}",
        notes[0]
    );
}

#[test]
fn every_live_search_is_counted() {
    // Other tests search on other threads at the same time: the count
    // grows by at least this game's searches.
    let before = decisions_searched();
    let mut game = Race::new(Some((1, 60)));
    game.play(&mut Dice::for_trial(5, 3));
    let searched = game.chosen.len() as u64;
    let grown = decisions_searched() - before;
    assert!(grown >= searched, "{grown} counted, {searched} searched");
    assert!(searched > 0);
}

/// One decision between two choices: the reward is a coin thrown after
/// the choice (0 or 0.9), plus `edge` for choice 1 (none by default: the
/// choices change nothing). The decision is of kind `kind`
/// (`"nothing"` when empty).
#[derive(Clone, Default)]
struct Noise<const COMMON: bool> {
    edge: f64,
    kind: &'static str,
    choice: Option<usize>,
    reward: f64,
    branching: Branching,
    slot: SearchSlot<Noise<COMMON>>,
}

impl<const COMMON: bool> Noise<COMMON> {
    fn play<R: Roll>(&mut self, r: &mut R) {
        turn_boundary(self, r);
        let kind = if self.kind.is_empty() {
            "nothing"
        } else {
            self.kind
        };
        let choice = decide(self, (), 0, kind, 2, |_, _| 0, r);
        self.choice = Some(choice);
        self.reward = 0.9 * f64::from(u8::from(r.pick(2) == 1)) + self.edge * choice as f64;
    }
}

impl<const COMMON: bool> Searchable for Noise<COMMON> {
    type Env<'e> = ();
    fn branching(&mut self) -> &mut Branching {
        &mut self.branching
    }
    fn searcher(&mut self) -> &mut SearchSlot<Self> {
        &mut self.slot
    }
    fn playouts(&self, _seat: usize) -> Option<u32> {
        Some(20)
    }
    fn determinize<R: Roll>(&mut self, _env: (), _seat: usize, _r: &mut R) {}
    fn play_on(&mut self, _env: (), dice: &mut Dice) {
        self.play(dice);
    }
    fn reward(&self, _env: (), _seat: usize) -> f64 {
        self.reward
    }
    const COMMON_RANDOM_NUMBERS: bool = COMMON;
    /// A decision of kind `"costly"` departs from its base only on ten
    /// standard errors; the others on the default one.
    fn switch_z(kind: &'static str) -> f64 {
        if kind == COSTLY { 10.0 } else { Self::SWITCH_Z }
    }
}

const COSTLY: &str = "costly";

/// The searched choice of 40 trials of [`Noise`] with this `edge`.
fn noise_choices<const COMMON: bool>(edge: f64) -> Vec<usize> {
    noise_choices_of_kind::<COMMON>(edge, "")
}

/// The searched choice of 40 trials of [`Noise`] of kind `kind`.
fn noise_choices_of_kind<const COMMON: bool>(edge: f64, kind: &'static str) -> Vec<usize> {
    (0..40)
        .map(|trial| {
            let mut dice = Dice::for_trial(13, trial);
            let mut g = Noise::<COMMON> {
                edge,
                kind,
                slot: SearchSlot::live(false),
                ..Noise::default()
            };
            g.play(&mut dice);
            g.choice.unwrap_or(9)
        })
        .collect()
}

#[test]
fn common_random_numbers_tie_choices_that_change_nothing() {
    // With each playout on its own stream, luck separates two equal
    // choices and the search plays either; on common streams they tie and
    // the first is played.
    let common = noise_choices::<true>(0.0);
    assert!(common.iter().all(|&c| c == 0), "{common:?}");
    let own = noise_choices::<false>(0.0);
    assert!(own.contains(&0) && own.contains(&1), "{own:?}");
}

#[test]
fn common_random_numbers_read_a_small_edge_pair_by_pair() {
    // Choice 1 adds 0.05 to a reward that luck moves by 0.9: on separate
    // streams twenty playouts cannot tell (the difference is well inside
    // its standard error, about 0.2) and the base's choice 0 mostly
    // stands; on common streams every pair differs by exactly the edge, so
    // the search takes it.
    let common = noise_choices::<true>(0.05);
    assert!(common.iter().all(|&c| c == 1), "{common:?}");
    let own = noise_choices::<false>(0.05);
    let departures = own.iter().filter(|&&c| c == 1).count();
    assert!(
        departures <= 8,
        "{departures} of 40 on separate streams: {own:?}"
    );
}

#[test]
fn a_decision_kind_can_ask_more_standard_errors_before_a_switch() {
    // Pure luck on separate streams: at the default one standard error
    // some of 40 searches depart from the base (the test above); a kind
    // that asks ten never does on the same streams.
    let usual = noise_choices_of_kind::<false>(0.0, "nothing");
    assert!(usual.contains(&1), "{usual:?}");
    let costly = noise_choices_of_kind::<false>(0.0, COSTLY);
    assert!(costly.iter().all(|&c| c == 0), "{costly:?}");
}

#[test]
fn a_paired_difference_is_its_mean_and_standard_error() {
    // Differences 0.1, 0.3, 0.2: mean 0.2, sample variance 0.01, error
    // sqrt(0.01 / 3).
    let (mean, error) = paired_difference(&[0.6, 0.8, 0.5], &[0.5, 0.5, 0.3]);
    assert!((mean - 0.2).abs() < 1e-12, "{mean}");
    assert!((error - (0.01f64 / 3.0).sqrt()).abs() < 1e-12, "{error}");
}
