//! `talisman.game`: the curse deck [19], each curse's effect and how long
//! it lasts, with scripted dice. The helpers are `talisman_game`'s.

use barsoom::engine::TraceLog;
use barsoom::games::talisman::data::Rules;
use barsoom::games::talisman::game::{Cause, Source};

use crate::common::ScriptedDice;
use crate::talisman_game::{card, config, encounter_on_ruins, game_with, rules, seat_on};

fn curse(rules: &Rules, name: &str) -> u8 {
    rules
        .curses
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no curse {name}")) as u8
}

#[test]
fn a_curse_lasts_its_turns_then_goes_back_to_the_deck() {
    // Weakness: total Strength 2 lower for 3 of the character's turns [19].
    // Laid on the Warrior (Strength 4) between its turns, so each of its
    // next three turns counts: Strength 2 through them (2 and 1 turns
    // left after the first two), 4 again after the third, with the card
    // back in the deck of 10.
    let (rules, cfg) = (rules(), config(2));
    let mut log = TraceLog::default();
    let mut g = game_with(&rules, &cfg, &["Warrior", "Merchant"]);
    let weakness = curse(&rules, "Weakness");
    assert_eq!(g.curse_deck().len(), 10);
    assert!(g.lay_curse(0, weakness, &mut log));
    assert_eq!(g.curse_deck().len(), 9);
    assert!(!g.curse_deck().contains(&weakness));
    // Out of the deck, the card cannot be laid on anyone else meanwhile.
    assert!(!g.lay_curse(1, weakness, &mut log));
    // Lost turns roll no dice: the empty script shows nothing else happens.
    g.players[0].hero.lost_turns = 3;
    for left in [2u8, 1] {
        g.turn(0, &mut ScriptedDice::new(&[]), &mut log);
        let h = g.players[0].hero;
        assert_eq!(h.curse_list().collect::<Vec<_>>(), vec![(weakness, left)]);
        assert_eq!(h.total_strength(&rules), 2);
    }
    g.turn(0, &mut ScriptedDice::new(&[]), &mut log);
    let h = g.players[0].hero;
    assert_eq!((h.curses_len, h.total_strength(&rules)), (0, 4));
    assert_eq!(g.curse_deck().len(), 10);
    assert!(g.curse_deck().contains(&weakness));
}

#[test]
fn the_curse_of_the_witch_draws_from_the_deck_and_death_returns_it() {
    // The event draws a random curse; the scripted pick takes the first
    // card of the deck, a Toad for 3 turns [19:1].
    let (rules, cfg) = (rules(), config(2));
    let (mut g, _) = encounter_on_ruins(
        &rules,
        &cfg,
        &["Troll", "Merchant"],
        &["Curse of the Witch"],
        &[],
    );
    let toad = curse(&rules, "Toad");
    let h = g.players[0].hero;
    assert_eq!(h.toad_turns, 3);
    assert_eq!(h.total_strength(&rules), 1);
    assert_eq!(h.curse_list().collect::<Vec<_>>(), vec![(toad, 3)]);
    assert_eq!(g.curse_deck().len(), 9);
    // A character's death sends its curses back into the deck [19].
    g.kill(0, Cause::Space, Source::None, &mut TraceLog::default());
    assert_eq!(g.curse_deck().len(), 10);
    assert!(g.curse_deck().contains(&toad));
}

#[test]
fn each_curse_does_what_it_says() {
    let (rules, cfg) = (rules(), config(2));
    let mut log = TraceLog::default();

    // Penalties: Withering takes 1 from the Warrior's Strength 4 (3);
    // Befuddlement takes 2 from its Craft 2 but leaves 1 (never below 1);
    // Forgetfulness leaves the Troll's Craft 1 at 1 (nor raises it).
    let mut g = game_with(&rules, &cfg, &["Warrior", "Troll"]);
    assert!(g.lay_curse(0, curse(&rules, "Withering"), &mut log));
    assert!(g.lay_curse(0, curse(&rules, "Befuddlement"), &mut log));
    assert!(g.lay_curse(1, curse(&rules, "Forgetfulness"), &mut log));
    let (w, t) = (g.players[0].hero, g.players[1].hero);
    assert_eq!((w.total_strength(&rules), w.total_craft(&rules)), (3, 1));
    assert_eq!((t.total_strength(&rules), t.total_craft(&rules)), (6, 1));

    // Silence: a Monk (Craft 3, room for 1 spell) low on lives holding
    // Healing casts it at the start of its turn (one casting die), but not
    // while silenced (no die), and keeps it.
    let healing = rules
        .spells
        .iter()
        .position(|s| s.name == "Healing")
        .expect("Healing") as u8;
    for silenced in [false, true] {
        let mut g = game_with(&rules, &cfg, &["Monk", "Merchant"]);
        if silenced {
            assert!(g.lay_curse(0, curse(&rules, "Silence"), &mut log));
        }
        let h = &mut g.players[0].hero;
        (h.spells[0], h.spells_len, h.lives, h.lost_turns) = (healing, 1, 1, 1);
        let dice: &[u32] = if silenced { &[] } else { &[6] };
        let mut script = ScriptedDice::new(dice);
        g.turn(0, &mut script, &mut log);
        assert!(script.all_used());
        assert_eq!(g.players[0].hero.spells_len, u8::from(silenced));
    }

    // Toad: a toad keeps its spells for when it is itself again [19:5],
    // though its Craft of 1 [19:3] leaves room for none.
    let mut g = game_with(&rules, &cfg, &["Monk", "Merchant"]);
    let h = &mut g.players[0].hero;
    (h.spells[0], h.spells_len, h.lost_turns) = (healing, 1, 1);
    assert!(g.lay_curse(0, curse(&rules, "Toad"), &mut log));
    g.turn(0, &mut ScriptedDice::new(&[]), &mut log);
    let h = g.players[0].hero;
    assert_eq!(
        (h.toad_turns, h.total_craft(&rules), h.spells_len),
        (2, 1, 1)
    );

    // Lameness: one space without a die [as a toad, 19:4]: the first
    // scripted die is a 6, yet the move is of 1.
    let (mut g, _) = seat_on(&rules, &cfg, &["Warrior", "Merchant"], "Ruins");
    assert!(g.lay_curse(0, curse(&rules, "Lameness"), &mut log));
    let mut log = TraceLog::default();
    g.turn(0, &mut ScriptedDice::new(&[6; 8]), &mut log);
    let moves: Vec<&str> = log
        .events
        .iter()
        .filter(|e| e.case == "Talisman 11:1")
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(moves.len(), 1);
    assert!(moves[0].contains("rolls 1, moves from Ruins"), "{moves:?}");

    // Sloth (2 turns): laid between turns, its next two turns are lost
    // (no die rolled, no move), then the card goes back.
    let (mut g, ruins) = seat_on(&rules, &cfg, &["Warrior", "Merchant"], "Ruins");
    assert!(g.lay_curse(0, curse(&rules, "Sloth"), &mut log));
    for _ in 0..2 {
        g.turn(0, &mut ScriptedDice::new(&[]), &mut log);
        assert_eq!(usize::from(g.players[0].hero.space), ruins);
    }
    assert_eq!(g.players[0].hero.curses_len, 0);
    assert_eq!(g.curse_deck().len(), 10);

    // Beggary: Windfall (2 gold) and 3 gold left on the Ruins give nothing
    // to the cursed Warrior (gold stays 1); uncursed it ends with 1 + 2 + 3.
    for (cursed, gold) in [(true, 1), (false, 6)] {
        let (mut g, ruins) = seat_on(&rules, &cfg, &["Warrior", "Merchant"], "Ruins");
        if cursed {
            assert!(g.lay_curse(0, curse(&rules, "Beggary"), &mut log));
        }
        g.space_gold[ruins] = 3;
        g.place_card(ruins, card(&rules, "Windfall"));
        g.encounter_space(0, &mut ScriptedDice::new(&[]), &mut log);
        assert_eq!(g.players[0].hero.gold, gold);
        assert_eq!(g.space_gold[ruins], if cursed { 3 } else { 0 });
    }
}

#[test]
fn a_beggared_victor_takes_no_gold_from_another_character() {
    let rules = rules();
    let cfg = config(2);
    let beggary = curse(&rules, "Beggary");
    // [16:9]: the Warrior (Strength 4, best of two dice: 6, 6) beats the
    // Merchant (Strength 3, die 1), who carries nothing, has 4 lives and
    // 1 gold. Uncursed, the sensible victor takes the gold; under Beggary
    // gold is nothing to it, so it takes a life instead.
    for (cursed, victor_gold, loser_gold, loser_lives) in [(false, 2, 0, 4), (true, 1, 1, 3)] {
        let mut log = TraceLog::default();
        let mut g = game_with(&rules, &cfg, &["Warrior", "Merchant"]);
        if cursed {
            assert!(g.lay_curse(0, beggary, &mut log));
        }
        let mut script = ScriptedDice::new(&[6, 6, 1]);
        g.character_combat(0, 1, &mut script, &mut log);
        assert!(script.all_used());
        let (v, l) = (g.players[0].hero, g.players[1].hero);
        assert_eq!(
            (v.gold, l.gold, l.lives),
            (victor_gold, loser_gold, loser_lives),
            "cursed: {cursed}"
        );
    }
    // [13:3]: the Thief steals the Merchant's gold without a fight; under
    // Beggary it cannot gain gold, so it fights (die 6 against 1) and,
    // winning, takes a life.
    for (cursed, dice, thief_gold, merchant) in
        [(false, &[][..], 2, (0, 4)), (true, &[6, 1][..], 1, (1, 3))]
    {
        let mut log = TraceLog::default();
        let mut g = game_with(&rules, &cfg, &["Thief", "Merchant"]);
        if cursed {
            assert!(g.lay_curse(0, beggary, &mut log));
        }
        assert_eq!(g.can_steal_from(0, 1), !cursed);
        let mut script = ScriptedDice::new(dice);
        g.meet_character(0, 1, &mut script, &mut log);
        assert!(script.all_used());
        let (t, m) = (g.players[0].hero, g.players[1].hero);
        assert_eq!(
            (t.gold, (m.gold, m.lives)),
            (thief_gold, merchant),
            "cursed: {cursed}"
        );
    }
}
