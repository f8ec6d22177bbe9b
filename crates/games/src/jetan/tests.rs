//! Hand-verified rules cases: composed positions for every piece, the
//! Princess's restrictions, every end of the game, each rule flag, the
//! notation and perft. Expected counts are worked out in the comments.

use super::position::{End, INITIAL, Move, MoveList, Position, Rules, Terminal::Leaf};
use super::rules::{
    ChiefTakenByOther, Color, EndgameRule, EscapeRule, FlierRule, Kind, NoMovesRule, PanthanRule,
    Paths, PieceValues, PrincessThreat, RepetitionRule, RuleFlags, SetupRule, Steps, ThoatRule,
    ThreatRule, parse_square,
};

fn rules_with(change: impl FnOnce(&mut RuleFlags)) -> Rules {
    let mut flags = RuleFlags::default();
    change(&mut flags);
    Rules::new(flags, PieceValues::default())
}

/// Parses a composed position, failing the test on bad notation.
pub(super) fn position(text: &str) -> Position {
    match Position::parse(text) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

/// The destinations of the piece on `from`, sorted, escapes marked `*`.
fn targets(rules: &Rules, position: &Position, from: &str) -> Vec<String> {
    let Some(from) = parse_square(from) else {
        panic!("bad square {from}");
    };
    let mut list = MoveList::default();
    rules.generate(position, &mut list);
    let mut out: Vec<String> = list
        .as_slice()
        .iter()
        .filter(|m| usize::from(m.from) == from)
        .map(|m| {
            let name = super::rules::square_name(usize::from(m.to));
            if m.escape { format!("*{name}") } else { name }
        })
        .collect();
    out.sort();
    out
}

fn sorted(squares: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn play(rules: &Rules, position: &Position, text: &str) -> Position {
    match rules.parse_move(position, text) {
        Some(m) => rules.play(position, m),
        None => panic!("{text} is not legal in {position}"),
    }
}

// Princesses parked in opposite corners, escapes used, so that composed
// positions need only the pieces under test. Board strings list rank 10
// first.

#[test]
fn initial_perft_matches_the_hand_count_and_known_values() {
    // Depth 1 by hand, Orange to move: 8 Panthans x 3 (forward and both
    // forward diagonals) = 24; Thoats 3 each (a9: b7, c8 and a8) = 6;
    // Fliers 4 each (rank 7) = 8; Princess 14 ordinary (ranks 7 and 8,
    // files b-h) + 40 escapes (ranks 3-8, less ranks 3 and 4, which Black's
    // Panthans, Fliers and Thoats threaten) = 54. Total 92.
    let rules = Rules::book();
    let start = Position::initial();
    assert_eq!(rules.perft(&start, 1, Leaf), 92);
    assert_eq!(rules.perft(&start, 2, Leaf), 8_439);
    assert_eq!(rules.perft(&start, 3, Leaf), 686_112);
}

#[test]
fn notation_round_trips() {
    let rules = Rules::book();
    let start = Position::initial();
    assert_eq!(start.notation(), INITIAL);
    let mut p = start.clone();
    for m in ["e10*e5", "e2-e3", "b9-b8", "f1-f4"] {
        p = play(&rules, &p, m);
        assert_eq!(Position::parse(&p.notation()), Ok(p.clone()));
    }
    assert_eq!(p.notation().split(' ').nth(2), Some("b"));
    let counted = position("10/10/10/10/10/10/10/10/4N5/Q8q b - 7");
    assert_eq!(counted.endgame_plies(), Some(7));
    assert_eq!(counted.notation(), "10/10/10/10/10/10/10/10/4N5/Q8q b - 7");
}

#[test]
fn bad_notation_is_an_error_not_a_panic() {
    for bad in [
        "",
        "10/10 b - -",
        "10/10/10/10/10/10/10/10/10/Q8q x - -",
        "10/10/10/10/10/10/10/10/10/Q9q b - -",
        "10/10/10/10/10/10/10/10/10/Q8z b - -",
        "10/10/10/10/10/10/10/10/10/Q8q b xo -",
        "10/10/10/10/10/10/10/10/10/Q8q b - 10",
        "10/10/10/10/10/10/10/10/10/10 b - -",
        "10/10/10/10/10/10/10/10/10/QQ7q b - -",
        "10/10/10/10/10/10/10/10/10/Q08q b - -",
    ] {
        assert!(Position::parse(bad).is_err(), "{bad:?} parsed");
    }
}

#[test]
fn warrior_two_orthogonal_steps_blocked_paths_and_turns() {
    let rules = Rules::book();
    // Open board: e7, e3, c5, g5 straight; d6, f6, d4, f4 by a turn.
    let open = position("q9/10/10/10/10/4W5/10/10/10/9Q b - -");
    assert_eq!(
        targets(&rules, &open, "e5"),
        sorted(&["c5", "d4", "d6", "e3", "e7", "f4", "f6", "g5"])
    );
    // Own Panthans on e6 and d5: e7 and c5 lose their only path, d6 both
    // of its paths; f6 (via f5), d4 (via e4) and f4 remain.
    let blocked = position("q9/10/10/10/4N5/3NW5/10/10/10/9Q b - -");
    assert_eq!(
        targets(&rules, &blocked, "e5"),
        sorted(&["d4", "e3", "f4", "f6", "g5"])
    );
}

#[test]
fn padwar_two_diagonal_steps() {
    let rules = Rules::book();
    // (±2,±2) and, turning, (±2,0) and (0,±2).
    let open = position("q9/10/10/10/10/4P5/10/10/10/9Q b - -");
    assert_eq!(
        targets(&rules, &open, "e5"),
        sorted(&["c3", "c5", "c7", "e3", "e7", "g3", "g5", "g7"])
    );
    // An enemy Panthan on f6 blocks g7 and, of g5's and e7's two paths,
    // only one each; the Padwar cannot end on f6 (one step).
    let blocked = position("q9/10/10/10/5n4/4P5/10/10/10/9Q b - -");
    assert_eq!(
        targets(&rules, &blocked, "e5"),
        sorted(&["c3", "c5", "c7", "e3", "e7", "g3", "g5"])
    );
}

#[test]
fn dwar_three_orthogonal_steps_never_revisiting() {
    let rules = Rules::book();
    // Manhattan distance 3 (12 squares) and, by a U-turn, the 4 adjacent
    // squares (e5-e6-f6-f5); distance 2 would need an even count.
    let open = position("q9/10/10/10/10/4D5/10/10/10/9Q b - -");
    assert_eq!(targets(&rules, &open, "e5").len(), 16);
    assert!(targets(&rules, &open, "e5").contains(&"f5".to_string()));
    assert!(!targets(&rules, &open, "e5").contains(&"e7".to_string()));
    // In the corner: d1, c2, b3, a4 and, turning back, b1 and a2.
    let corner = position("q9/10/10/10/10/10/10/10/10/D8Q b - -");
    assert_eq!(
        targets(&rules, &corner, "a1"),
        sorted(&["a2", "a4", "b1", "b3", "c2", "d1"])
    );
}

#[test]
fn flier_jumps_and_slides() {
    // Odd offsets (±1 or ±3 each way): 16 squares; own Panthans on the
    // four diagonal neighbours take those four but block nothing else.
    let ringed = "q9/10/10/10/3N1N4/4F5/3N1N4/10/10/9Q b - -";
    let book = Rules::book();
    let moves = targets(&book, &position(ringed), "e5");
    assert_eq!(moves.len(), 12);
    assert!(moves.contains(&"h8".to_string()));
    // Sliding, every path starts on an occupied diagonal neighbour.
    let slides = rules_with(|f| f.flier = FlierRule::Slides);
    assert!(targets(&slides, &position(ringed), "e5").is_empty());
    let open = position("q9/10/10/10/10/4F5/10/10/10/9Q b - -");
    assert_eq!(targets(&slides, &open, "e5").len(), 16);
}

#[test]
fn chief_three_steps_any_direction_does_not_jump() {
    let rules = Rules::book();
    // Every square within three king steps: 7 x 7 - 1.
    let open = position("q9/10/10/10/10/4C5/10/10/10/9Q b - -");
    assert_eq!(targets(&rules, &open, "e5").len(), 48);
    // Ringed by its own Panthans, it cannot move at all.
    let ringed = position("q9/10/10/10/3NNN4/3NCN4/3NNN4/10/10/9Q b - -");
    assert!(targets(&rules, &ringed, "e5").is_empty());
}

#[test]
fn thoat_one_orthogonal_and_one_diagonal_step() {
    let rules = Rules::book();
    // The 8 knight squares and the 4 orthogonal neighbours (e5-e6-f5).
    let open = position("q9/10/10/10/10/4T5/10/10/10/9Q b - -");
    let moves = targets(&rules, &open, "e5");
    assert_eq!(moves.len(), 12);
    assert!(moves.contains(&"f5".to_string()) && moves.contains(&"f7".to_string()));
    // Ringed: no square between is empty.
    let ringed = "q9/10/10/10/3NNN4/3NTN4/3NNN4/10/10/9Q b - -";
    assert!(targets(&rules, &position(ringed), "e5").is_empty());
    // As a knight it jumps to the eight knight squares only, ringed or not.
    let knight = rules_with(|f| f.thoat = ThoatRule::Knight);
    let knight_squares = sorted(&["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"]);
    assert_eq!(targets(&knight, &open, "e5"), knight_squares);
    assert_eq!(
        targets(&knight, &position(ringed), "e5"),
        sorted(&["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"])
    );
}

#[test]
fn panthan_forward_sideways_never_backward() {
    let rules = Rules::book();
    let p = position("q9/10/10/10/10/4N5/4n5/10/10/9Q b - -");
    assert_eq!(
        targets(&rules, &p, "e5"),
        sorted(&["d5", "d6", "e6", "f5", "f6"])
    );
    let orange = position("q9/10/10/10/10/4N5/4n5/10/10/9Q o - -");
    // Orange's forward is south; e5 holds a Black Panthan: a capture.
    assert_eq!(
        targets(&rules, &orange, "e4"),
        sorted(&["d3", "d4", "e3", "f3", "f4"])
    );
    // No promotion on the last rank: sideways only.
    let last = position("4N5/10/10/10/10/10/10/10/10/q8Q b - -");
    assert_eq!(targets(&rules, &last, "e10"), sorted(&["d10", "f10"]));
}

#[test]
fn princess_never_captures_nor_moves_onto_a_threatened_square() {
    let rules = Rules::book();
    // An Orange Warrior on c3 threatens a3, b2, c1, b4, d2 and d4 among
    // her fifteen squares; c3 itself holds an enemy she may not take.
    let p = position("9q/10/10/10/10/10/10/2w7/10/Q9 b - -");
    assert_eq!(
        targets(&rules, &p, "a1"),
        sorted(&["a2", "a4", "b1", "b3", "c2", "c4", "d1", "d3"])
    );
    // The square she leaves stops blocking: an Orange Warrior on a2 reaches
    // b1 through a1 once she has gone (the path through b2 is blocked by
    // her own Panthan), so b1 is threatened.
    let through = position("9q/10/10/10/10/10/10/10/wN8/Q9 b - -");
    assert!(!targets(&rules, &through, "a1").contains(&"b1".to_string()));
    // The enemy Princess never threatens: next to her, all 15 squares
    // less the one she stands on.
    let princesses = position("10/10/10/10/10/10/10/10/1q8/Q9 b - -");
    assert_eq!(targets(&rules, &princesses, "a1").len(), 14);
}

#[test]
fn princess_jumps_over_her_ring() {
    let rules = Rules::book();
    // Ringed by her own Panthans she still reaches the 40 free squares.
    let ringed = position("q9/10/10/10/3NNN4/3NQN4/3NNN4/10/10/10 b - -");
    assert_eq!(targets(&rules, &ringed, "e5").len(), 40);
}

#[test]
fn escape_ten_steps_once_per_game() {
    let rules = Rules::book();
    // Alone in the centre: 48 ordinary moves, and an escape to each of the
    // 98 other empty squares (a ten-step walk reaches every square).
    let p = position("9q/10/10/10/10/4Q5/10/10/10/10 b b -");
    let moves = targets(&rules, &p, "e5");
    assert_eq!(moves.len(), 48 + 98);
    assert_eq!(rules.perft(&p, 1, Leaf), 146);
    // After the escape it is gone for good.
    let after = play(&rules, &p, "e5*a1");
    assert!(!after.escape_available(Color::Black));
    let back = play(&rules, &after, "j10-j9");
    assert_eq!(targets(&rules, &back, "a1").len(), 15);
    // The escape still avoids threatened squares: Orange Warrior on j8
    // threatens j10, j6, h8, i7, i9; 97 empty squares less those 5.
    let guarded = position("10/10/9w/10/10/4Q5/10/10/10/q9 b b -");
    let escapes: Vec<String> = targets(&rules, &guarded, "e5")
        .into_iter()
        .filter(|m| m.starts_with('*'))
        .collect();
    assert_eq!(escapes.len(), 97 - 5);
    assert!(!escapes.contains(&"*i9".to_string()));
    // A move is origin, destination and escape: e6 both ways is two moves.
    let mut list = MoveList::default();
    rules.generate(&p, &mut list);
    let from = parse_square("e5").unwrap_or(0) as u8;
    let to = parse_square("e6").unwrap_or(0) as u8;
    let both: Vec<&Move> = list
        .as_slice()
        .iter()
        .filter(|m| m.from == from && m.to == to)
        .collect();
    assert_eq!(both.len(), 2);
}

#[test]
fn escape_flag_straight_up_to_ten() {
    // Queen rays from e5: 9 on the file, 9 on the rank, 9 on a1-j10 less
    // the Orange Princess on j10, 8 on a9-i1: 34, plus 48 ordinary moves.
    let rules = rules_with(|f| f.escape = EscapeRule::StraightUpToTen);
    let p = position("9q/10/10/10/10/4Q5/10/10/10/10 b b -");
    assert_eq!(rules.perft(&p, 1, Leaf), 48 + 34);
}

#[test]
fn composed_perft_counts_a_winning_capture_as_a_leaf() {
    // Black: Warrior a3, Princess j1 (every square of hers threatened by
    // the Orange Chief on h3). Orange: Princess c3, Chief h3. Depth 1:
    // a1, a5, b2, b4 and a3xc3 (takes the Princess) = 5. Depth 2: the
    // capture is a leaf (1); after each quiet move Orange has the Chief's
    // 35 and the Princess's 35 less occupied and threatened squares:
    // a1: 31, a5: 30, b2: 29, b4: 28. 1 + 66 + 65 + 64 + 63 = 259.
    let rules = Rules::book();
    let p = position("10/10/10/10/10/10/10/W1q4c2/10/9Q b - -");
    assert_eq!(rules.perft(&p, 1, Leaf), 5);
    assert_eq!(rules.perft(&p, 2, Leaf), 259);
    let won = play(&rules, &p, "a3-c3");
    assert_eq!(
        won.end(),
        Some(End::PrincessTaken {
            winner: Color::Black
        })
    );
    let mut list = MoveList::default();
    rules.generate(&won, &mut list);
    assert!(list.is_empty());
}

#[test]
fn chief_takes_chief_wins_other_pieces_draw_or_win_by_flag() {
    let p = position("q9/10/10/10/4c5/10/4C5/10/10/9Q b - -");
    let book = Rules::book();
    assert_eq!(
        play(&book, &p, "e4-e6").end(),
        Some(End::ChiefTakesChief {
            winner: Color::Black
        })
    );
    // A Warrior takes the Chief: a draw by the book, a win under `loss`.
    let by_warrior = position("q9/10/10/10/4c5/10/4W5/10/10/9Q b - -");
    assert_eq!(
        play(&book, &by_warrior, "e4-e6").end(),
        Some(End::ChiefTakenByOther { winner: None })
    );
    let loss = rules_with(|f| f.chief_taken_by_other = ChiefTakenByOther::Loss);
    let end = play(&loss, &by_warrior, "e4-e6").end();
    assert_eq!(end.and_then(|e| e.winner()), Some(Color::Black));
    // Either way the game is over: a leaf in perft.
    assert_eq!(book.perft(&play(&book, &by_warrior, "e4-e6"), 3, Leaf), 1);
}

#[test]
fn endgame_rule_counts_ten_plies_at_equal_value() {
    let book = Rules::book();
    // Princess + Panthan each (value 2 a side): the condition holds.
    let p = position("q9/4n5/10/10/10/10/10/10/4N5/Q9 b - -");
    let next = play(&book, &p, "e2-e3");
    assert_eq!(next.endgame_plies(), Some(0));
    // With the counter at 9 any move that does not win ends it: depth 2
    // and 3 perft equal depth 1.
    let late = position("q9/4n5/10/10/10/10/10/10/4N5/Q9 b - 9");
    assert_eq!(play(&book, &late, "e2-e3").end(), Some(End::Endgame));
    let one = book.perft(&late, 1, Leaf);
    assert_eq!(book.perft(&late, 3, Leaf), one);
    // The tenth move may still win: it wins.
    let winning = position("10/10/10/10/10/10/10/10/q9/N8Q b - 9");
    assert_eq!(
        play(&book, &winning, "a1-a2").end(),
        Some(End::PrincessTaken {
            winner: Color::Black
        })
    );
    // Unequal value (Warrior against Panthan): no counter under the book
    // reading, a counter under five-each-any-value.
    let unequal = position("q9/4n5/10/10/10/10/10/10/4W5/Q9 b - -");
    assert_eq!(play(&book, &unequal, "e2-e4").endgame_plies(), None);
    let any = rules_with(|f| f.endgame = EndgameRule::FiveEachAnyValue);
    assert_eq!(play(&any, &unequal, "e2-e4").endgame_plies(), Some(0));
    // More than three pieces a side: no counter under either reading.
    let many = position("q9/nnnn6/10/10/10/10/10/10/NNNN6/Q9 b - -");
    assert_eq!(play(&any, &many, "a2-a3").endgame_plies(), None);
}

#[test]
fn no_legal_move_is_a_draw_and_a_leaf() {
    // Black has only the Princess; the Orange Chief on c3 threatens every
    // square she could reach.
    let rules = Rules::book();
    let p = position("9q/10/10/10/10/10/10/2c7/10/Q9 b - -");
    let mut list = MoveList::default();
    assert_eq!(
        rules.outcome(&p, &mut list),
        Some(End::NoMoves { winner: None })
    );
    assert_eq!(rules.perft(&p, 3, Leaf), 1);
}

#[test]
fn steps_flag_up_to_adds_shorter_moves() {
    let rules = rules_with(|f| f.steps = Steps::UpTo);
    let open = position("q9/10/10/10/10/4W5/10/10/10/9Q b - -");
    // The 8 two-step squares and the 4 one-step squares.
    assert_eq!(targets(&rules, &open, "e5").len(), 12);
    // Dwar: every square within Manhattan distance 3: 4 + 8 + 12.
    let dwar = position("q9/10/10/10/10/4D5/10/10/10/9Q b - -");
    assert_eq!(targets(&rules, &dwar, "e5").len(), 24);
}

#[test]
fn paths_flag_straight_allows_no_turn() {
    let rules = rules_with(|f| f.paths = Paths::Straight);
    let warrior = position("q9/10/10/10/10/4W5/10/10/10/9Q b - -");
    assert_eq!(
        targets(&rules, &warrior, "e5"),
        sorted(&["c5", "e3", "e7", "g5"])
    );
    let chief = position("q9/10/10/10/10/4C5/10/10/10/9Q b - -");
    assert_eq!(
        targets(&rules, &chief, "e5"),
        sorted(&["b2", "b5", "b8", "e2", "e8", "h2", "h5", "h8"])
    );
}

#[test]
fn princess_threat_flag_path_checks_the_squares_she_crosses() {
    // Orange Padwar c4 and Warrior b4 threaten a2, b2, c2, a3, c3, a4 ...
    // but not b1, c1 or d1. Every path to b1 or c1 starts on a2, b2 or
    // b1 and then crosses a2, b2 or c2; a1-b1-c1-d1 is clear.
    let p = position("9q/10/10/10/10/10/1wp7/10/10/Q9 b - -");
    let book = Rules::book();
    let destination = targets(&book, &p, "a1");
    for sq in ["b1", "c1", "d1"] {
        assert!(destination.contains(&sq.to_string()), "{sq}");
    }
    let path = rules_with(|f| f.princess_threat = PrincessThreat::Path);
    let crossing = targets(&path, &p, "a1");
    assert!(!crossing.contains(&"b1".to_string()));
    assert!(!crossing.contains(&"c1".to_string()));
    assert!(crossing.contains(&"d1".to_string()));
    assert!(crossing.iter().all(|m| destination.contains(m)));
}

#[test]
fn flags_parse_and_describe() {
    let mut flags = RuleFlags::default();
    for name in RuleFlags::NAMES {
        let Some([book, other]) = RuleFlags::values(name) else {
            panic!("{name} has no values");
        };
        assert!(flags.set(name, other).is_ok());
        assert!(flags.describe().contains(&format!("{name}={other}")));
        assert!(flags.set(name, book).is_ok());
    }
    assert_eq!(flags, RuleFlags::default());
    assert!(flags.set("steps", "sometimes").is_err());
    assert!(flags.set("castling", "yes").is_err());
}

#[test]
fn perft_terminal_chess_counts_only_full_depth_nodes() {
    use super::position::Terminal::Chess;
    // The composed position above: of the 259 leaves at depth 2, one is the
    // game Black won at ply 1 (a3xc3); the chess convention drops it.
    let rules = Rules::book();
    let p = position("10/10/10/10/10/10/10/W1q4c2/10/9Q b - -");
    assert_eq!(rules.perft(&p, 1, Chess), 5);
    assert_eq!(rules.perft(&p, 2, Chess), 259 - 1);
    // A side with no legal move: one leaf, or nothing below ply 0.
    let stuck = position("9q/10/10/10/10/10/10/2c7/10/Q9 b - -");
    assert_eq!(rules.perft(&stuck, 3, Leaf), 1);
    assert_eq!(rules.perft(&stuck, 3, Chess), 0);
    assert_eq!(rules.perft(&stuck, 0, Chess), 1);
    // From the set-up no game ends before ply 3: the two agree there.
    let start = Position::initial();
    assert_eq!(rules.perft(&start, 3, Chess), 686_112);
    let divided: u64 = rules.divide(&p, 2, Chess).iter().map(|(_, n)| n).sum();
    assert_eq!(divided, 258);
}

#[test]
fn panthan_flag_all_diagonals_adds_the_backward_diagonals() {
    // Black Panthan e5, Orange Panthan e4 straight behind it.
    let p = position("q9/10/10/10/10/4N5/4n5/10/10/9Q b - -");
    let all = rules_with(|f| f.panthan = PanthanRule::AllDiagonals);
    // Book: d5, d6, e6, f5, f6. Now also d4 and f4; e4 (straight back,
    // an enemy) stays out of reach.
    assert_eq!(
        targets(&all, &p, "e5"),
        sorted(&["d4", "d5", "d6", "e6", "f4", "f5", "f6"])
    );
    // Orange's backward is north: d5 and f5 join, e5 does not.
    let orange = position("q9/10/10/10/10/4N5/4n5/10/10/9Q o - -");
    assert_eq!(
        targets(&all, &orange, "e4"),
        sorted(&["d3", "d4", "d5", "e3", "f3", "f4", "f5"])
    );
    // On the last rank between its own Panthans it cannot move by the
    // book; the backward diagonals free it.
    let last = position("3NNN4/10/10/10/10/10/10/10/10/q8Q b - -");
    assert!(targets(&Rules::book(), &last, "e10").is_empty());
    assert_eq!(targets(&all, &last, "e10"), sorted(&["d9", "f9"]));
}

#[test]
fn setup_flag_mirrored_puts_chief_opposite_chief() {
    let book = Rules::book();
    let mirrored = rules_with(|f| f.setup = SetupRule::Mirrored);
    assert_eq!(book.start_position(), Position::initial());
    let start = mirrored.start_position();
    let square = |name: &str| parse_square(name).unwrap_or(0);
    // Book: the Orange Princess on e10 faces the Black Chief on e1;
    // mirrored, the Chiefs face each other on the e-file.
    assert_eq!(
        Position::initial().piece(square("e10")),
        Some((Kind::Princess, Color::Orange))
    );
    assert_eq!(
        start.piece(square("e10")),
        Some((Kind::Chief, Color::Orange))
    );
    assert_eq!(
        start.piece(square("f10")),
        Some((Kind::Princess, Color::Orange))
    );
    assert_eq!(start.piece(square("e1")), Some((Kind::Chief, Color::Black)));
    // Black's half is unchanged; Orange's Princess, now on f10, reaches
    // c7-i8 instead of b7-h8 (14 either way) and the same 40 escapes, so
    // depth 1 is 92 in both set-ups.
    assert_eq!(
        targets(&mirrored, &start, "f10")
            .iter()
            .filter(|m| !m.starts_with('*'))
            .count(),
        14
    );
    assert!(targets(&mirrored, &start, "f10").contains(&"i7".to_string()));
    assert!(!targets(&mirrored, &start, "f10").contains(&"b7".to_string()));
    assert_eq!(mirrored.perft(&start, 1, Leaf), 92);
}

#[test]
fn threatened_flag_before_move_lets_her_own_square_block() {
    // The Orange Warrior on a2 reaches b1 only through a1, where the Black
    // Princess stands (b2 holds her Panthan). After her move a1 is empty:
    // b1 is threatened under the book reading, not as the board stands.
    let p = position("9q/10/10/10/10/10/10/10/wN8/Q9 b - -");
    assert!(!targets(&Rules::book(), &p, "a1").contains(&"b1".to_string()));
    let before = rules_with(|f| f.threatened = ThreatRule::BeforeMove);
    let moves = targets(&before, &p, "a1");
    assert!(moves.contains(&"b1".to_string()));
    // Only b1 changes: every other square is judged alike.
    let book = targets(&Rules::book(), &p, "a1");
    assert_eq!(moves.len(), book.len() + 1);
}

#[test]
fn no_moves_flag_loss_gives_the_game_to_the_other_side() {
    // Black has only the Princess and the Orange Chief on c3 threatens
    // every square she could reach.
    let p = position("9q/10/10/10/10/10/10/2c7/10/Q9 b - -");
    let loss = rules_with(|f| f.no_moves = NoMovesRule::Loss);
    let mut list = MoveList::default();
    let end = loss.outcome(&p, &mut list);
    assert_eq!(
        end,
        Some(End::NoMoves {
            winner: Some(Color::Orange)
        })
    );
    assert_eq!(end.and_then(|e| e.winner()), Some(Color::Orange));
    assert_eq!(loss.perft(&p, 3, Leaf), 1);
}

#[test]
fn repetition_flag_draws_on_the_third_occurrence() {
    // Four pieces a side (no endgame counter). The Warriors shuffle e5-e7
    // and j5-j7: the start position recurs after plies 4 and 8.
    let start = position("7nnq/4n5/10/10/9w/4W5/10/10/10/QNN7 b - -");
    let shuffle = ["e5-e7", "j6-j8", "e7-e5", "j8-j6"];
    let threefold = rules_with(|f| f.repetition = RepetitionRule::ThreefoldDraw);
    for rules in [Rules::book(), threefold.clone()] {
        let mut p = start.clone();
        for (ply, m) in shuffle.iter().cycle().take(8).enumerate() {
            assert_eq!(p.end(), None, "ended before ply {}", ply + 1);
            p = play(&rules, &p, m);
        }
        assert_eq!(p.key(), start.key());
        let expected =
            (rules.flags.repetition == RepetitionRule::ThreefoldDraw).then_some(End::Repetition);
        assert_eq!(p.end(), expected);
    }
    // After a capture (Black's Warrior takes the Panthan on e9) the count
    // starts again: the shuffle that follows draws on its own third
    // occurrence.
    let mut p = start.clone();
    for m in ["e5-e7", "j6-j8", "e7-e5", "j8-j6", "e5-e7", "j6-j8"] {
        p = play(&threefold, &p, m);
    }
    p = play(&threefold, &p, "e7-e9");
    for m in [
        "j8-j6", "e9-e7", "j6-j8", "e7-e9", "j8-j6", "e9-e7", "j6-j8",
    ] {
        assert_eq!(p.end(), None, "{m}");
        p = play(&threefold, &p, m);
    }
    assert_eq!(p.end(), None);
    p = play(&threefold, &p, "e7-e9");
    assert_eq!(p.end(), Some(End::Repetition));
    // The key is that of the position, however it was reached.
    assert_eq!(Position::parse(&p.notation()).map(|q| q.key()), Ok(p.key()));
}
