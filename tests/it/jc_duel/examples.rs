//! The Duelling Game's worked examples from the rulebook, each played with
//! dice whose next rolls are known and citing its case. The list of every
//! worked example in the rulebook, with the test that reproduces each, is
//! in `docs/models/jc.duel.md` ("Worked examples").

use barsoom::engine::NoTrace;
use barsoom::games::jc::duel::geometry::{NORTH, SOUTH};
use barsoom::games::jc::duel::sequence::Status;

use super::PLAIN;
use super::cards::{dice_rolling, face_off, jc_vs_greens, melee, park};

/// [7.62] example: John Carter reduced from level 4 to level 3 (his
/// counter flipped), then from 3 to 2 (his level 3 counter replaced by his
/// level 2 one); a green warrior reduced from level 1 removed from play.
#[test]
fn example_7_62_levels_lost_and_a_warrior_removed() {
    let d = jc_vs_greens("arena", (false, false), 2, PLAIN);
    let mut s = d.start();
    face_off(&d, &mut s, 0, 1, (18, 12), false);
    park(&mut s, &[2]);
    // A green warrior (3C5) needs 8 against John Carter's 5A11 [7.61]:
    // a 9 takes him to level 3 (5A10), another 9 to level 2 (4A10).
    melee(&d, &mut s, 1, 0, &[9]);
    assert_eq!(s.level[0], 3);
    assert_eq!(d.fighters[0].at(3).agility, 10, "his level 3 counter");
    melee(&d, &mut s, 1, 0, &[9]);
    assert_eq!((s.level[0], s.status[0]), (2, Status::Fighting));
    // John Carter at level 2 (strength 4) needs 1 against the green's
    // agility 5: his 5 takes the warrior's only level, and the counter is
    // gone.
    melee(&d, &mut s, 0, 1, &[5]);
    assert_eq!((s.level[1], s.status[1]), (0, Status::Dead));
}

/// [7.71] example: escape succeeds on a roll up to the character's
/// strength, so strength 3 escapes three times in ten: a green warrior
/// (strength 3) held in the throne room between two guards [7.72] gets
/// away on a 3, not on a 4.
#[test]
fn example_7_71_strength_3_escapes_on_1_to_3() {
    let m = super::escape::duel(
        "display = \"palace\"\ndiscovered = true",
        &super::escape::side(
            "",
            "\"john-carter\", { id = \"green-warrior\", prisoner = true, held = \"throne room\", at = [28, 10] }",
        ),
        &super::escape::side(
            "",
            "{ id = \"matai-shang\", at = [24, 10] }, { id = \"thurid\", at = [32, 10] }",
        ),
    );
    let d = m.duel();
    let green = 1;
    let start = d.start();
    assert_eq!(d.guards(&start, green), 2);
    assert_eq!(d.fighters[green].at(start.level[green]).strength, 3);
    for (roll, free) in [(3, true), (4, false)] {
        let mut s = start;
        let mut dice = dice_rolling(&[roll]);
        d.escape_roll(&mut s, green, &mut dice, &mut NoTrace);
        assert_eq!(dice.rolled(), 1);
        assert_eq!(s.status[green] == Status::Fighting, free, "roll {roll}");
    }
}

/// [5.75] example: a fighting Llana or Tavia bars entry to her box, to
/// enemy and friend alike; until her combat values come into play she may
/// share a box with an enemy killed there and is not affected. Tavia
/// stands at (20,8); a red warrior walks onto her [5.73] and Tan Hadron,
/// below her, kills him with a scripted blow: she stays where she is, a
/// bystander. Once her hero is down to level 2 she takes up a sword
/// [19.23] and neither the other warrior nor Tan Hadron may enter her box.
#[test]
fn example_5_75_a_fighting_personage_bars_her_box() {
    let m = super::escape::duel(
        "display = \"arena\"",
        &super::escape::side(
            "",
            "{ id = \"tan-hadron\", at = [20, 12] }, { id = \"tavia\", loves = \"tan-hadron\", at = [20, 8] }",
        ),
        &super::escape::side(
            "",
            "{ id = \"red-warrior\", at = [28, 16] }, { id = \"red-warrior\", at = [24, 4] }",
        ),
    );
    let d = m.duel();
    let (hero, tavia, killed, other) = (0, 1, 2, 3);
    let her_box = (20, 8);
    let mut s = d.start();
    assert_eq!(s.status[tavia], Status::Bystander);
    let may_enter = |s: &_, who| d.reach(s, who, 2).walk_steps(her_box.0, her_box.1);
    assert!(may_enter(&s, other).is_some(), "a bystander bars no one");
    // The warrior on her box, facing Tan Hadron; at level 1 a hit kills.
    s.pos[killed] = her_box;
    s.facing[killed] = SOUTH;
    s.facing[hero] = NORTH;
    s.level[killed] = 1;
    let (_, need) = d.needed(&s, hero, killed, s.pos[hero], false);
    melee(d, &mut s, hero, killed, &[need as u32]);
    assert_eq!(s.status[killed], Status::Dead);
    assert_eq!(
        (s.status[tavia], s.pos[tavia]),
        (Status::Bystander, her_box)
    );
    // [19.23]: her hero at level 2, her values come into play where she
    // stands (the dead warrior's counter is gone, so no move [5.74]).
    s.level[hero] = 2;
    d.personages_take_up_swords(&mut s, &mut NoTrace);
    assert_eq!((s.status[tavia], s.pos[tavia]), (Status::Fighting, her_box));
    assert_eq!(may_enter(&s, other), None, "an enemy may not enter");
    assert_eq!(may_enter(&s, hero), None, "nor a friend");
}
