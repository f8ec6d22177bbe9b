//! `talisman.game`: the tournament additions on the main board (the
//! starting Purchase Card, Season, Month and Day events [15:4], bites
//! [20:13] and favors [20:15]), with scripted dice. The helpers are
//! `talisman_game`'s.

use barsoom::engine::TraceLog;
use barsoom::games::talisman::character::PURCHASE_BASE;
use barsoom::games::talisman::combat::Result3;
use barsoom::games::talisman::data::{Effect, Mechanic};
use barsoom::games::talisman::game::{Game, Source};
use barsoom::games::talisman::tournament::Lasting;

use crate::common::ScriptedDice;
use crate::talisman_game::{
    assert_won, card, game_with, load_game, purchase, rules, seat_on, tournament_config,
};

#[test]
fn the_starting_purchase_card_is_dealt_and_a_pulled_one_dealt_again() {
    // [Setting up]: each player is dealt one random Purchase Card, and a
    // pulled object is dealt again. Seat 1, the Warrior, is dealt the Raft
    // (pulled), then the Helmet, which it wears. Seat 2, the Wizard
    // (Strength 2, so encumbrance 1), is dealt the Sword (weight 2): it
    // cannot hold it and the card goes back to its pile [20:2], never onto
    // the space [20:3].
    let (rules, cfg) = (rules(), tournament_config(2));
    let mut g = game_with(&rules, &cfg, &["Warrior", "Wizard"]);
    let index = |name| usize::from(purchase(&rules, name) - PURCHASE_BASE);
    let mut dice =
        ScriptedDice::new(&[]).with_picks(&[index("Raft"), index("Helmet"), index("Sword")]);
    let mut trace = TraceLog::default();
    g.deal_starting_purchases(&mut dice, &mut trace);
    assert_eq!(dice.picks_left(), 0, "three deals for two players");
    let warrior = g.players[0].hero;
    let held: Vec<u16> = warrior.objects().collect();
    assert_eq!(held, [purchase(&rules, "Helmet")]);
    assert_eq!((warrior.pulled_len, warrior.animals_len), (0, 0));
    let wizard = g.players[1].hero;
    assert_eq!((wizard.objects().count(), wizard.packed_len), (0, 0));
    let start = usize::from(wizard.space);
    assert_eq!(g.pile_len[start], 0);
    assert_eq!(g.stats.starting_purchases, 1);
    let text: Vec<&str> = trace.events.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        text,
        [
            "seat 1 is dealt the Raft, a pulled object: dealt again",
            "seat 1 is dealt the Helmet",
            "seat 2 is dealt the Sword, cannot hold it: back to its pile",
        ]
    );
}

#[test]
fn a_season_event_lasts_its_rounds_then_ends() {
    // Hard Winter, a Season [15:4], is drawn on the Ruins in round 2. It
    // goes beside the board, not onto the space, with no effect at once,
    // and lasts the rest of round 2 and 5 full rounds: to the end of round
    // 7. Meanwhile, at the start of each turn, every character rolls and
    // loses a life on a 1. When round 8 begins it is discarded.
    let (rules, cfg) = (rules(), tournament_config(2));
    let (mut g, ruins) = seat_on(&rules, &cfg, &["Warrior", "Troll"], "Ruins");
    g.round = 2;
    let winter = card(&rules, "Hard Winter");
    g.place_card(ruins, winter);
    // The deck is empty here, so the Ruins draw nothing more.
    let mut trace = TraceLog::default();
    g.encounter_space(0, &mut ScriptedDice::new(&[]), &mut trace);
    assert_eq!(g.pile_len[ruins], 0);
    let in_force = Lasting {
        card: winter,
        until: 7,
    };
    assert_eq!(g.lasting, [Some(in_force), None, None]);
    let lives = |g: &Game<'_>| (g.players[0].hero.lives, g.players[1].hero.lives);
    let (warrior, troll) = lives(&g);
    assert_eq!(warrior, 4, "no effect at once");
    // Turn starts: the Troll rolls 1 and loses a life, the Warrior 4.
    g.lasting_effects(1, &mut ScriptedDice::new(&[1]), &mut TraceLog::default());
    g.lasting_effects(0, &mut ScriptedDice::new(&[4]), &mut TraceLog::default());
    assert_eq!(lives(&g), (warrior, troll - 1));
    for round in 3..=7 {
        g.round = round;
        g.end_lasting_events(&mut trace);
        assert_eq!(g.lasting[0], Some(in_force), "round {round}");
    }
    g.round = 8;
    g.end_lasting_events(&mut trace);
    assert_eq!(g.lasting, [None; 3]);
    // Over: no die is rolled at a turn's start.
    let mut none = ScriptedDice::new(&[]);
    g.lasting_effects(1, &mut none, &mut TraceLog::default());
    assert_eq!(lives(&g), (warrior, troll - 1));
    let text: Vec<&str> = trace.events.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        text,
        [
            "Hard Winter lasts beside the board to the end of round 7",
            "Hard Winter ends"
        ]
    );

    // It went to the discards: the Ruins, with the deck empty, draw it
    // again from them in round 9, and it lasts to the end of round 14.
    g.round = 9;
    g.encounter_space(0, &mut ScriptedDice::new(&[]), &mut TraceLog::default());
    let lasting = |card, until| Some(Lasting { card, until });
    assert_eq!(g.lasting, [lasting(winter, 14), None, None]);

    // One event of each sub-type at a time: a Month lies beside a Season,
    // and a new Season discards the one in force at once.
    let summer = card(&rules, "Long Summer");
    let storms = card(&rules, "Month of Storms");
    g.round = 10;
    for c in [storms, summer] {
        let timed = rules.cards[usize::from(c)].timed.expect("timed");
        g.begin_lasting_event(c, timed, &mut TraceLog::default());
    }
    assert_eq!(g.lasting, [lasting(summer, 15), lasting(storms, 13), None]);
    // The Month of Storms on a 1 loses the turn, taken at once.
    g.lasting_effects(0, &mut ScriptedDice::new(&[6, 1]), &mut TraceLog::default());
    assert_eq!(
        (g.players[0].hero.gold, g.players[0].hero.lost_turns),
        (2, 1)
    );
}

#[test]
fn the_tournament_additions_play_only_when_the_scenario_asks() {
    // The plain scenario never deals a purchase, a lasting event or a
    // token (its goldens are byte-identical to before); the tournament one
    // does all three.
    let count = |scenario: &str| {
        let model = load_game(scenario);
        let (mut purchases, mut lasting, mut tokens) = (0, 0, 0);
        for trial in 0..40 {
            let mut dice = barsoom::engine::rng::Dice::for_trial(3, trial);
            let g = model.play(&mut dice, &mut barsoom::engine::NoTrace);
            purchases += g.stats.starting_purchases;
            lasting += g.stats.lasting_events;
            tokens += g.stats.favors[0] + g.stats.bites;
        }
        (purchases, lasting, tokens)
    };
    assert_eq!(count("talisman/four-player-random-deal.toml"), (0, 0, 0));
    let (purchases, lasting, tokens) = count("talisman/four-player-tournament.toml");
    assert!(
        purchases > 100 && purchases <= 160,
        "{purchases} of 160 kept"
    );
    assert!(lasting > 0 && tokens > 0);
}

#[test]
fn eight_bites_and_the_player_is_out() {
    // Bites add up [20:13]: 7 leave the Thief in play; the 8th puts its
    // player out of the game at once, not merely the character: its gold
    // stays on its space, its spare character never comes in, and the
    // Troll, the last one left, wins.
    let (rules, cfg) = (rules(), tournament_config(2));
    let mut g = game_with(&rules, &cfg, &["Thief", "Troll"]);
    g.players[0].hand_len = 1;
    let bite = |amount| Effect {
        mechanic: Mechanic::GainBites,
        amount,
        ..Effect::NOTHING
    };
    let mut none = ScriptedDice::new(&[]);
    let mut trace = TraceLog::default();
    g.apply(0, bite(6), Source::None, &mut none, &mut trace);
    g.apply(0, bite(1), Source::None, &mut none, &mut trace);
    assert!(g.players[0].alive && g.end.is_none());
    assert_eq!(g.players[0].hero.bites, 7);
    g.players[0].hero.gold = 3;
    let at = usize::from(g.players[0].hero.space);
    g.apply(0, bite(1), Source::None, &mut none, &mut trace);
    let p = &g.players[0];
    assert!(
        !p.alive && p.out,
        "out of the game, spare character and all"
    );
    assert_eq!(g.space_gold[at], 3);
    assert_eq!((g.stats.bites, g.stats.bitten_out), (8, 1));
    assert_eq!(g.stats.deaths.iter().sum::<u32>(), 0, "not a death");
    assert_won(&g, 1, "Troll");
}

#[test]
fn a_favor_turns_a_lost_combat_into_a_stand_off() {
    // The Thief (Strength 3) with one favor fights a creature of Strength
    // 4 [20:15]: it rolls 2 (5), the creature 2 (6). Lost by 1, so the
    // sensible player spends the favor: 6 against 6, a stand-off, no life
    // lost. A second time, with no favor left, the same dice lose a life.
    // A fight lost by 2 keeps the favor, which could not change it.
    let (rules, cfg) = (rules(), tournament_config(2));
    let mut g = game_with(&rules, &cfg, &["Thief", "Troll"]);
    g.players[0].hero.favors = 1;
    let fight = |g: &mut Game<'_>, dice: &[u32]| {
        let mut script = ScriptedDice::new(dice);
        let result = g.creature_fight(
            0,
            4,
            0,
            false,
            false,
            Source::None,
            &mut script,
            &mut TraceLog::default(),
        );
        assert!(script.all_used());
        result
    };
    let lives = g.players[0].hero.lives;
    assert_eq!(fight(&mut g, &[2, 2]), Some(Result3::StandOff));
    assert_eq!(
        (g.players[0].hero.favors, g.players[0].hero.lives),
        (0, lives)
    );
    assert_eq!(g.stats.favors[1], 1);
    assert_eq!(fight(&mut g, &[2, 2]), Some(Result3::Lose));
    assert_eq!(g.players[0].hero.lives, lives - 1);
    g.players[0].hero.favors = 1;
    assert_eq!(fight(&mut g, &[1, 2]), Some(Result3::Lose));
    assert_eq!(g.players[0].hero.favors, 1);
    // Favors come through a card's effect.
    let favor = Effect {
        mechanic: Mechanic::GainFavors,
        amount: 2,
        ..Effect::NOTHING
    };
    g.apply(
        0,
        favor,
        Source::None,
        &mut ScriptedDice::new(&[]),
        &mut TraceLog::default(),
    );
    assert_eq!(g.players[0].hero.favors, 3);
}
