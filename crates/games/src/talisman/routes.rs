//! How characters move on an expansion board and what waits at its final
//! space, as its file writes them: the layout (the Dungeon's and the
//! Keep's spiral [11:39], or Timescape's coloured lines [11:44]), the
//! movement (a die, or the 11:44 formula) and the Keep's Vault guardians
//! [11:46]. Every layout compiles to lines: paths of spaces from the
//! entrance to the final space, always away from the entrance. A spiral
//! is one line through every space; Timescape has three, red, blue and
//! green, that the die's band picks [11:44].

use std::path::Path;

use serde::Deserialize;

use barsoom_engine::scenario::ScenarioError;

/// The most guardians one Vault may hold.
const MAX_GUARDIANS: usize = 12;
/// The most spaces one line may pass.
const MAX_LINE: usize = 64;

/// Timescape's three lines as written: each the names of its spaces from
/// the entrance to the final space.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LinesFile {
    red: Vec<String>,
    blue: Vec<String>,
    green: Vec<String>,
}

/// A Vault guardian as written: a Strength for combat or a Craft for
/// psychic combat.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GuardianFile {
    name: String,
    #[serde(default)]
    strength: i32,
    #[serde(default)]
    craft: i32,
}

/// A Vault guardian [11:46].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guardian {
    /// Its name.
    pub name: String,
    /// Its Strength or Craft.
    pub level: i32,
    /// Whether it is met in psychic combat (a Craft).
    pub psychic: bool,
}

/// A board's movement, compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Routes {
    /// Whether a move is by the 11:44 formula (a die of 1-2 moves 1
    /// space, 3-4 two, 5-6 three) rather than the die's full count.
    pub formula: bool,
    /// The lines, as space indices from the entrance to the final space.
    pub lines: Vec<Vec<u16>>,
    /// The Vault's guardians, one drawn at the final space [11:46]; none
    /// where the final space has no Vault.
    pub vault: Vec<Guardian>,
}

/// The spaces a die `roll` moves by the 11:44 formula. The text prints the
/// third band as "4-5"; we read it as 5-6, the two faces left, since 4 is
/// already in the second band and 6 would move nothing.
pub fn formula_spaces(roll: i32) -> i32 {
    (roll.clamp(1, 6) + 1) / 2
}

/// The parts of a board file [`compile`] reads.
pub(crate) struct RoutesInput<'f> {
    pub layout: &'f str,
    pub movement: &'f str,
    pub lines: Option<&'f LinesFile>,
    pub vault: &'f [GuardianFile],
}

/// Compiles the routes of a board whose spaces are `names` (in file order,
/// the entrance first and the final space last), numbered from `first`.
pub(crate) fn compile(
    path: &Path,
    input: RoutesInput<'_>,
    names: &[&str],
    first: usize,
) -> Result<Routes, ScenarioError> {
    let err = |field: &str, message: String| ScenarioError::new(path, field, message);
    let formula = match input.movement {
        "die" => false,
        "formula" => true,
        other => {
            return Err(err(
                "movement",
                format!(
                    "expected die (one die's count [11:39]) or formula (1-2: 1 space, 3-4: 2, 5-6: 3 [11:44]), found {other:?}"
                ),
            ));
        }
    };
    let last = names.len() - 1;
    let lines = match (input.layout, input.lines) {
        ("spiral", None) => vec![(0..names.len()).map(|i| (first + i) as u16).collect()],
        ("spiral", Some(_)) => {
            return Err(err(
                "lines",
                "a spiral is one path through every space in file order [11:39]: expected no lines"
                    .into(),
            ));
        }
        ("lines", Some(l)) => {
            if !formula {
                return Err(err(
                    "movement",
                    "coloured lines are moved by the die's band [11:44]: expected formula".into(),
                ));
            }
            let mut out = Vec::new();
            let mut on_a_line = vec![false; names.len()];
            for (colour, line) in [("red", &l.red), ("blue", &l.blue), ("green", &l.green)] {
                let field = format!("lines.{colour}");
                let mut spaces: Vec<u16> = Vec::new();
                let mut prev = None;
                if line.len() < 2 || line.len() > MAX_LINE {
                    return Err(err(
                        &field,
                        format!("expected 2 to {MAX_LINE} spaces, the entrance first"),
                    ));
                }
                for (j, name) in line.iter().enumerate() {
                    let at = names.iter().position(|n| n == name).ok_or_else(|| {
                        err(
                            &format!("{field}[{j}]"),
                            format!("{name:?} is not a space of this board"),
                        )
                    })?;
                    if prev.is_some_and(|p| at <= p) {
                        return Err(err(
                            &format!("{field}[{j}]"),
                            format!(
                                "a line runs away from the entrance: expected a space listed after {:?} in spaces",
                                names[prev.unwrap_or(0)]
                            ),
                        ));
                    }
                    prev = Some(at);
                    on_a_line[at] = true;
                    spaces.push((first + at) as u16);
                }
                if line.first().map(String::as_str) != Some(names[0])
                    || line.last().map(String::as_str) != Some(names[last])
                {
                    return Err(err(
                        &field,
                        format!(
                            "expected a line from the entrance {:?} to the final space {:?}",
                            names[0], names[last]
                        ),
                    ));
                }
                out.push(spaces);
            }
            if let Some(i) = on_a_line.iter().position(|&on| !on) {
                return Err(err(
                    "lines",
                    format!("{:?} is on no line: expected every space on one", names[i]),
                ));
            }
            out
        }
        ("lines", None) => {
            return Err(err(
                "lines",
                "expected the red, blue and green lines [11:44]".into(),
            ));
        }
        (other, _) => {
            return Err(err(
                "layout",
                format!(
                    "expected spiral (one path away from the entrance [11:39]) or lines (red, blue and green [11:44]), found {other:?}"
                ),
            ));
        }
    };
    if input.vault.len() > MAX_GUARDIANS {
        return Err(err(
            "vault",
            format!("expected at most {MAX_GUARDIANS} guardians"),
        ));
    }
    let mut vault = Vec::new();
    for (i, g) in input.vault.iter().enumerate() {
        let (level, psychic) = match (g.strength, g.craft) {
            (s, 0) if (1..=30).contains(&s) => (s, false),
            (0, c) if (1..=30).contains(&c) => (c, true),
            _ => {
                return Err(err(
                    &format!("vault[{i}]"),
                    "expected a strength or a craft from 1 to 30, not both".into(),
                ));
            }
        };
        vault.push(Guardian {
            name: g.name.clone(),
            level,
            psychic,
        });
    }
    Ok(Routes {
        formula,
        lines,
        vault,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_11_44_formula_moves_one_two_or_three_spaces() {
        let moved: Vec<i32> = (1..=6).map(formula_spaces).collect();
        assert_eq!(moved, [1, 1, 2, 2, 3, 3]);
    }
}
