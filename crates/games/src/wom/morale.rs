//! The MORALE TABLE of Warriors of Mars, one data file for every model that
//! reads it: `scenarios/wom/data/morale.toml`, the classes (steady and
//! disorganised scores, with the names scenarios may use for them) and the
//! bonuses and penalties. `wom.battle` rolls its morale checks on it and
//! `wom.air` takes the steady score and modifiers of a boarding party from
//! it [MORALE TABLE; Boarding].

use std::path::Path;

use serde::Deserialize;

use barsoom_engine::scenario::{Load, Loader, ScenarioError, check_provenance};

/// The morale table's file name in a Warriors of Mars data folder.
pub const MORALE_FILE: &str = "morale.toml";

/// One line of the MORALE TABLE.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleClass {
    /// Canonical name, e.g. "guards".
    pub name: String,
    /// Highest two-dice total that keeps steady morale.
    pub steady: i32,
    /// Highest total that leaves the unit disorganised.
    pub disorganized: i32,
    /// Other names scenarios may use (e.g. "first-born", "guards-navy").
    pub aliases: Vec<String>,
}

/// Bonuses and penalties to the morale score required.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleModifiers {
    /// Attacking.
    pub attacking: i32,
    /// Commander with the unit.
    pub commander_with_unit: i32,
    /// Personality figure with the unit.
    pub personality_with_unit: i32,
    /// 50% casualties.
    pub half_casualties: i32,
    /// Unit disordered.
    pub disordered: i32,
    /// Attacked in the flank.
    pub attacked_in_flank: i32,
    /// Attacked in the rear.
    pub attacked_in_rear: i32,
    /// Commander dead.
    pub commander_dead: i32,
    /// Outnumbered 3-1 by superior troops.
    pub outnumbered_three_to_one: i32,
    /// Personality figure dead.
    pub personality_dead: i32,
    /// Surrounded in the open.
    pub surrounded_in_open: i32,
    /// Adjusted steady score at or below which the unit surrenders.
    pub surrender_at: i32,
    /// Casualty percentages that call a check.
    pub casualty_checks: Vec<u32>,
    /// Inches within which a routing friend calls a check.
    pub routing_within: u32,
}

/// The MORALE TABLE: its classes, best first, and its modifiers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleTable {
    #[allow(dead_code)]
    provenance: String,
    /// The classes.
    pub classes: Vec<MoraleClass>,
    /// The bonuses and penalties.
    pub modifiers: MoraleModifiers,
}

impl MoraleTable {
    /// The class named `name` (its name or an alias).
    pub fn class(&self, name: &str) -> Option<usize> {
        self.classes
            .iter()
            .position(|c| c.name == name || c.aliases.iter().any(|a| a == name))
    }

    /// Every accepted class name (each class's name, then its aliases), in
    /// table order.
    pub fn class_names(&self) -> impl Iterator<Item = &str> {
        self.classes.iter().flat_map(|c| {
            std::iter::once(c.name.as_str()).chain(c.aliases.iter().map(String::as_str))
        })
    }
}

impl Load for MoraleTable {
    /// Reads and checks the morale table at `path`.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let table: MoraleTable = loader.read_toml(path)?;
        check_provenance(path, "provenance", &table.provenance)?;
        for (i, c) in table.classes.iter().enumerate() {
            if !(2..=12).contains(&c.steady) || c.disorganized < c.steady || c.disorganized > 12 {
                return Err(ScenarioError::new(
                    path,
                    format!("classes[{i}]"),
                    "expected 2 <= steady <= disorganized <= 12",
                ));
            }
        }
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wom::air::ships::AirData;
    use crate::wom::battle::tables::BattleTables;

    fn bundled() -> std::path::PathBuf {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("scenarios/wom/data")
    }

    /// A copy of the data folder `dir`, to change.
    fn copy_of(dir: &Path) -> tempfile::TempDir {
        let copy = tempfile::tempdir().expect("tempdir");
        for entry in std::fs::read_dir(dir).expect("data folder").flatten() {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), copy.path().join(entry.file_name())).expect("copy");
            }
        }
        copy
    }

    /// The steady score of `name` as each model reads it from `dir`.
    fn both(dir: &Path, name: &str) -> (Option<i32>, Option<i32>) {
        let air = AirData::load(dir).expect("air data");
        let battle = BattleTables::load(dir).expect("battle tables");
        let air_steady = air
            .morale_classes
            .iter()
            .find(|(id, _)| id == name)
            .map(|(_, s)| *s);
        let battle_steady = battle
            .morale
            .class(name)
            .map(|i| battle.morale.classes[i].steady);
        (air_steady, battle_steady)
    }

    #[test]
    fn both_models_read_the_one_morale_table() {
        // Every class name and alias means the same steady score to both.
        let dir = bundled();
        let table = MoraleTable::load(&dir.join(MORALE_FILE)).expect("morale table");
        for name in table.class_names() {
            let (air, battle) = both(&dir, name);
            assert_eq!(air, battle, "{name}");
            assert!(air.is_some(), "{name}");
        }
        assert_eq!(both(&dir, "guards-navy"), (Some(10), Some(10)));
        // A change to morale.toml reaches both; air-boarding.toml holds no
        // copy of its own (a [morale] table there is refused).
        let copy = copy_of(&dir);
        let morale = copy.path().join(MORALE_FILE);
        let text = std::fs::read_to_string(&morale).expect("read");
        let changed = text.replacen("steady = 10", "steady = 9", 1);
        std::fs::write(&morale, changed).expect("write");
        assert_eq!(both(copy.path(), "guards-navy"), (Some(9), Some(9)));
        let boarding = copy.path().join("air-boarding.toml");
        let mut text = std::fs::read_to_string(&boarding).expect("read");
        text.push_str("\n[morale]\nprovenance = \"rules [x]\"\n");
        std::fs::write(&boarding, text).expect("write");
        let e = AirData::load(copy.path()).expect_err("a second copy is refused");
        assert!(e.to_string().contains("morale"), "{e}");
    }

    #[test]
    fn both_models_read_the_one_melee_table() {
        // [WoM Melee Table] is battle-tables.toml [melee]: boarding's rates
        // per figure, in sixtieths, follow it (3 per 10 human infantry is
        // 18; a 13th level personality fights as 3 green cavalry, 3 on
        // shieldless infantry by himself: 180).
        let rate = |dir: &Path, attacker: &str, column: usize| {
            let air = AirData::load(dir).expect("air data");
            let row = air
                .melee_rows
                .iter()
                .position(|r| r == attacker)
                .expect("row");
            air.melee_rate[row][column]
        };
        let dir = bundled();
        assert_eq!(rate(&dir, "human-infantry", 0), 18);
        assert_eq!(rate(&dir, "human-infantry-shield", 1), 12);
        assert_eq!(rate(&dir, "personality-13", 0), 180);
        assert_eq!(rate(&dir, "green-cavalry", 4), 20);
        // A change to the battle table reaches boarding.
        let copy = copy_of(&dir);
        let tables = copy.path().join("battle-tables.toml");
        let text = std::fs::read_to_string(&tables).expect("read");
        let changed = text.replacen(
            "group = 10, casualties = [3.0,",
            "group = 10, casualties = [4.0,",
            1,
        );
        assert_ne!(changed, text);
        std::fs::write(&tables, changed).expect("write");
        assert_eq!(rate(copy.path(), "human-infantry", 0), 24);
        assert_eq!(rate(copy.path(), "human-infantry-shield", 0), 24);
        assert_eq!(
            BattleTables::load(copy.path())
                .expect("tables")
                .melee_halves[0][0],
            8
        );
        // air-boarding.toml holds no copy of its own: rows there are refused.
        let boarding = copy.path().join("air-boarding.toml");
        let text = std::fs::read_to_string(&boarding).expect("read");
        let with_rows = text.replacen("[melee]\n", "[melee]\nrows = []\n", 1);
        assert_ne!(with_rows, text);
        std::fs::write(&boarding, with_rows).expect("write");
        let e = AirData::load(copy.path()).expect_err("a second copy is refused");
        assert!(e.to_string().contains("rows"), "{e}");
    }
}
