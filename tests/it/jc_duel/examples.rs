//! The Duelling Game's worked examples from the rulebook, each played with
//! dice whose next rolls are known and citing its case. The list of every
//! worked example in the rulebook, with the test that reproduces each, is
//! in `docs/models/jc.duel.md` ("Worked examples").

use barsoom::engine::NoTrace;
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
