//! The dice a model rolls through: the trial's [`Dice`] in play, and
//! [`ScriptedDice`] in tests, which show the faces a worked example needs.
//! Models whose rules are tested roll by example take `R: Roll` instead of
//! `Dice`; a model with more chances to script (cards, whole duels) extends
//! this trait.

use std::collections::VecDeque;

use crate::rng::Dice;

/// Dice and uniform picks.
pub trait Roll {
    /// One die with `sides` faces, read 1..=sides (a d10's 0 reads 10).
    fn die(&mut self, sides: u32) -> u32;

    /// A uniform index in `0..n` (`n` > 0).
    fn pick(&mut self, n: usize) -> usize;

    /// A copy of a random stream at this point, for a search that replays
    /// from here; `None` for scripted dice, which a search cannot fork.
    fn snapshot(&self) -> Option<Dice> {
        None
    }

    /// Switches a random stream to the search playout stream `key`; dice
    /// that are not a random stream (scripts) keep their script. Only a
    /// playout, which always rolls [`Dice`], is ever reseeded.
    fn reseed(&mut self, _key: u64) {}

    /// A six-sided die, 1..=6.
    #[inline]
    fn d6(&mut self) -> i32 {
        self.die(6) as i32
    }

    /// A ten-sided die, 1..=10 (0 reads 10 [3.6]).
    #[inline]
    fn d10(&mut self) -> i32 {
        self.die(10) as i32
    }
}

impl Roll for Dice {
    #[inline]
    fn die(&mut self, sides: u32) -> u32 {
        self.d(sides)
    }

    #[inline]
    fn pick(&mut self, n: usize) -> usize {
        self.below(n as u32) as usize
    }

    fn snapshot(&self) -> Option<Dice> {
        Some(self.clone())
    }

    fn reseed(&mut self, key: u64) {
        Dice::reseed(self, key);
    }
}

/// Dice for tests: they show the faces they are given, in order, and fail
/// the test when asked for one more, or for a face the die does not have.
/// Picks come from their own list (0 once it is used up).
#[derive(Debug, Default, Clone)]
pub struct ScriptedDice {
    faces: VecDeque<u32>,
    picks: VecDeque<usize>,
    rolled: usize,
}

impl ScriptedDice {
    /// Dice that show `faces`, in order.
    pub fn new(faces: &[u32]) -> Self {
        ScriptedDice {
            faces: faces.iter().copied().collect(),
            ..ScriptedDice::default()
        }
    }

    /// Adds faces to show after those already scripted.
    pub fn then(mut self, faces: &[u32]) -> Self {
        self.faces.extend(faces);
        self
    }

    /// Adds picks.
    pub fn with_picks(mut self, picks: &[usize]) -> Self {
        self.picks.extend(picks);
        self
    }

    /// Whether every scripted face has been rolled.
    pub fn all_used(&self) -> bool {
        self.faces.is_empty()
    }

    /// Scripted picks not used yet.
    pub fn picks_left(&self) -> usize {
        self.picks.len()
    }
}

impl Roll for ScriptedDice {
    fn die(&mut self, sides: u32) -> u32 {
        self.rolled += 1;
        let face = self
            .faces
            .pop_front()
            .unwrap_or_else(|| panic!("roll {} (d{sides}) was not scripted", self.rolled));
        assert!(
            (1..=sides).contains(&face),
            "roll {}: face {face} on a d{sides}",
            self.rolled
        );
        face
    }

    fn pick(&mut self, n: usize) -> usize {
        self.picks.pop_front().unwrap_or(0).min(n.saturating_sub(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_dice_show_their_faces_in_order() {
        let mut dice = ScriptedDice::new(&[3, 6]).then(&[10]).with_picks(&[2]);
        assert_eq!(dice.d6(), 3);
        assert_eq!(dice.die(6), 6);
        assert!(!dice.all_used());
        assert_eq!(dice.d10(), 10);
        assert!(dice.all_used());
        assert_eq!(dice.pick(5), 2);
        assert_eq!(dice.pick(5), 0, "picks default to 0 once used up");
    }

    #[test]
    #[should_panic(expected = "roll 1: face 7 on a d6")]
    fn a_face_the_die_lacks_fails_the_test() {
        ScriptedDice::new(&[7]).d6();
    }

    #[test]
    #[should_panic(expected = "roll 1 (d10) was not scripted")]
    fn an_unscripted_roll_fails_the_test() {
        ScriptedDice::default().d10();
    }

    #[test]
    fn the_trials_dice_roll_as_their_own_methods() {
        let (mut a, mut b) = (Dice::for_trial(7, 3), Dice::for_trial(7, 3));
        for sides in [6, 10, 3, 6] {
            assert_eq!(Roll::die(&mut a, sides), b.d(sides));
        }
        assert_eq!(Roll::d6(&mut a), b.d6() as i32);
        assert_eq!(Roll::pick(&mut a, 9), b.below(9) as usize);
    }
}
