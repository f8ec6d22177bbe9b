//! `talisman.game`: pack animals and pulled objects [5:10, 11:26-29], rafts
//! on the Storm River [11:15-19], and a lost animal's load, with scripted
//! dice. The helpers are `talisman_game`'s.

use barsoom::engine::TraceLog;
use barsoom::games::talisman::character::Hero;
use barsoom::games::talisman::game::Source;

use crate::common::ScriptedDice;
use crate::talisman_game::{card, config, place, purchase, rules, seat_on, space};

#[test]
fn pack_animals_carry_pull_and_slow() {
    let rules = rules();
    let (mule, raft, sword) = (
        card(&rules, "Mule"),
        card(&rules, "Raft"),
        card(&rules, "Sword"),
    );
    // The Monk (Strength 3: encumbrance 2) alone may lead one pack animal,
    // not two [5:10].
    let mut h = Hero::new(&rules, rules.character_index("Monk").expect("Monk"));
    assert!(h.take_object(&rules, mule));
    assert!(
        !h.take_object(&rules, card(&rules, "Mule") + 1),
        "one person per animal"
    );
    // A Sword fills its encumbrance; the next two ride on the Mule, do not
    // add to Strength [5:6] and do not weigh on it [5:13].
    assert!(h.take_object(&rules, sword));
    assert!(h.take_object(&rules, sword + 1));
    assert!(h.take_object(&rules, card(&rules, "Axe")));
    assert!(!h.take_object(&rules, sword + 2), "the Mule carries two");
    assert_eq!((h.carried_len, h.packed_len), (1, 2));
    assert_eq!((h.total_strength(&rules), h.carried_weight(&rules)), (4, 2));
    assert!(!h.has_axe(&rules), "an Axe on the Mule cannot be used");
    // A Mule pulling a Raft carries nothing [11:27]: with two objects on
    // it the Raft cannot be taken.
    assert!(!h.take_object(&rules, raft));

    // Without loads the Mule pulls the Raft; its -1 applies to every
    // movement roll [11:28]. A roll of 1 would move 0: the Raft is left
    // behind, and a raft left behind is discarded, never left on the
    // space [11:19].
    let (cfg,) = (config(2),);
    let (mut g, storm) = seat_on(&rules, &cfg, &["Monk", "Merchant"], "Storm Bank");
    let h = &mut g.players[0].hero;
    assert!(h.take_object(&rules, mule) && h.take_object(&rules, raft));
    assert_eq!(h.movement_effect(&rules), -1);
    assert_eq!(g.movement_roll(0, &mut ScriptedDice::new(&[4])), 3);
    assert_eq!(g.movement_roll(0, &mut ScriptedDice::new(&[1])), 1);
    let h = g.players[0].hero;
    assert_eq!((h.pulled_len, h.animals_len), (0, 1));
    assert_eq!(g.pile_len[storm], 0, "the raft is discarded");
}

#[test]
fn rafts_cross_the_storm_river() {
    let (rules, cfg) = (rules(), config(2));
    let castle = space(&rules, "Castle");
    // Built [11:16]: the Troll (Strength raised to 7, Craft 1, an Axe:
    // power 9, the sensible middle threshold) starts its turn in the Woods
    // (Crags), which faces the Castle: it builds a raft and crosses as its
    // move, with no die [11:18], and the Castle asks nothing of it.
    let (mut g, _) = seat_on(&rules, &cfg, &["Troll", "Merchant"], "Woods (Crags)");
    g.players[0].hero.strength = 7;
    assert!(g.players[0].hero.take_object(&rules, card(&rules, "Axe")));
    assert_eq!(
        rules.board.across_river(space(&rules, "Woods (Crags)")),
        [castle as u16]
    );
    g.turn(0, &mut ScriptedDice::new(&[]), &mut TraceLog::default());
    assert_eq!(usize::from(g.players[0].hero.space), castle);

    // Bought [11:17]: a Raft pulled by a Mule crosses only from the turn
    // after it came. The first turn on the Storm Bank rolls 4, less 1 for
    // the Raft [11:28]: three spaces round the outer region.
    let storm = space(&rules, "Storm Bank");
    let (mut g, _) = seat_on(&rules, &cfg, &["Troll", "Merchant"], "Storm Bank");
    g.players[0].hero.strength = 8;
    let h = &mut g.players[0].hero;
    assert!(h.take_object(&rules, purchase(&rules, "Mule")));
    assert!(h.take_object(&rules, purchase(&rules, "Raft")));
    assert!(h.usable_raft(&rules).is_none(), "not on the turn it came");
    g.turn(0, &mut ScriptedDice::new(&[4]), &mut TraceLog::default());
    let at = usize::from(g.players[0].hero.space);
    assert!(
        at == rules.board.ring_step(storm, 3, true) || at == rules.board.ring_step(storm, 3, false),
        "moved 3, at {}",
        rules.board.spaces[at].name
    );
    // Back on the Storm Bank next turn: it rafts to the Fields (Middle)
    // without a die; the raft is spent [11:19], the Mule stays.
    place(&mut g, 0, storm);
    g.turn(0, &mut ScriptedDice::new(&[]), &mut TraceLog::default());
    let h = g.players[0].hero;
    assert_eq!(usize::from(h.space), space(&rules, "Fields (Middle)"));
    assert_eq!((h.pulled_len, h.animals_len), (0, 1));

    // Below the middle threshold the sensible player keeps to the outer
    // region: it rolls instead.
    let (mut g, _) = seat_on(&rules, &cfg, &["Monk", "Merchant"], "Woods (Crags)");
    assert!(g.players[0].hero.take_object(&rules, card(&rules, "Axe")));
    g.turn(0, &mut ScriptedDice::new(&[6]), &mut TraceLog::default());
    assert_eq!(
        rules.board.spaces[usize::from(g.players[0].hero.space)].region,
        0
    );
}

#[test]
fn a_lost_pack_animal_takes_its_load_with_it() {
    use barsoom::games::talisman::data::{Effect, Mechanic};
    // The Monk (encumbrance 2, leadership 2) leads two Mules with a
    // Mercenary's help [5:10]; a Sword is in hand and three more objects
    // ride on the Mules (room for four). A Stampede loses the last Mule:
    // the one left carries two, so the last object packed is lost with it
    // and discarded, not left on the space [5:11].
    let (rules, cfg) = (rules(), config(2));
    let (mut g, ruins) = seat_on(&rules, &cfg, &["Monk", "Merchant"], "Ruins");
    let (mule, sword, axe) = (
        card(&rules, "Mule"),
        card(&rules, "Sword"),
        card(&rules, "Axe"),
    );
    let h = &mut g.players[0].hero;
    assert!(h.take_follower(&rules, card(&rules, "Mercenary")));
    assert!(h.take_object(&rules, mule) && h.take_object(&rules, mule + 1));
    for object in [sword, sword + 1, sword + 2, axe] {
        assert!(h.take_object(&rules, object));
    }
    assert_eq!(
        (h.carried_len, h.packed_len, h.pack_capacity(&rules)),
        (1, 3, 4)
    );
    let stampede = Effect {
        mechanic: Mechanic::LosePackAnimal,
        ..Effect::NOTHING
    };
    let mut script = ScriptedDice::new(&[]);
    g.apply(
        0,
        stampede,
        Source::None,
        &mut script,
        &mut TraceLog::default(),
    );
    let h = g.players[0].hero;
    assert_eq!((h.animals_len, h.packed_len, h.carried_len), (1, 2, 1));
    assert_eq!(
        h.packed_list(),
        [sword + 1, sword + 2],
        "the Axe went with the Mule"
    );
    assert_eq!(g.pile_len[ruins], 0, "lost, not left on the space");
}
