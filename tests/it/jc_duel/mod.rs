//! `jc.duel`, the Duelling Game: the open display (`open_display`), the
//! other displays and the lines of discovery (`displays`), the Strategic
//! Game's cards played inside a duel (`cards`), exits, prisoners and
//! carrying (`escape`), the special characters, master swordsmen and
//! personages (`characters`), and the rulebook's worked examples
//! (`examples`). The helpers below load the bundled John Carter data and
//! set duels up for all of them.

use barsoom::games::ScenarioModel;
use barsoom::scenario::Load;
mod cards;
mod characters;
mod displays;
mod escape;
mod examples;
mod open_display;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use barsoom::games::jc::duel::geometry::Display;
use barsoom::games::jc::duel::melee::MeleeRules;
use barsoom::games::jc::duel::model::{DisplayParts, Entry, JcDuel, SetUpOptions, set_up};
use barsoom::games::jc::duel::roster::Roster;
use barsoom::games::jc::duel::sequence::Duel;
use barsoom::games::jc::duel::special::SpecialRules;
use barsoom::games::jc::swordsman::SwordsmanTables;

use crate::common::{self, jc_data};

fn roster() -> Roster {
    Roster::load(&jc_data().join("characters.toml")).expect("roster loads")
}

fn rules() -> MeleeRules {
    MeleeRules::load(&jc_data().join("duel-rules.toml")).expect("rules load")
}

fn specials() -> SpecialRules {
    SpecialRules::load(&jc_data().join("duel-specials.toml")).expect("specials load")
}

/// The bout of John Carter (the Warlord) against a master-at-arms, both
/// on the minimax mix [7.81-7.86].
fn warlord_against_master_at_arms() -> barsoom::games::jc::swordsman::Bout {
    use barsoom::games::jc::swordsman::{Bout, CardPolicy, Rank, Swordsman};
    let side = |label: &str, rank, hero| Swordsman {
        label: label.into(),
        rank,
        hero,
        policy: CardPolicy::Minimax,
    };
    Bout::new(
        swordsman_tables(),
        [
            side("John Carter", Rank::Warlord, true),
            side("Master swordsman (MA)", Rank::MasterAtArms, false),
        ],
        1000,
    )
    .expect("bout")
}

fn swordsman_tables() -> SwordsmanTables {
    SwordsmanTables::load(&jc_data().join("swordsman.toml")).expect("swordsman tables load")
}

/// A bundled display by name (`arena`, `street`, `house`, ...).
fn display(name: &str) -> Display {
    Display::load(&jc_data().join(format!("displays/{name}.toml"))).expect(name)
}

fn load(path: &Path) -> JcDuel {
    match JcDuel::load(path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

/// A bundled `jc.duel` scenario by name.
fn bundled(name: &str) -> JcDuel {
    load(&common::bundled(&format!("jc/duel/{name}.toml")))
}

/// Discovered, not grounded, 200 turns, none of the Strategic Game's
/// rules.
const PLAIN: SetUpOptions = SetUpOptions {
    discovered: true,
    grounded: false,
    max_turns: 200,
    break_off: false,
    deadline: false,
    withdraw: false,
    secret_passage: false,
    rescue: false,
};

/// A roster character at level 9.
fn entry(roster: &Roster, id: &str) -> Entry {
    Entry {
        character: roster.find(id).expect(id),
        level: 9,
        ..Entry::default()
    }
}

/// A duel set up on the display `on` with the bundled rules, as the
/// Strategic Game sets one up.
fn duel_on(on: &str, ours: &[Entry], theirs: &[Entry], options: SetUpOptions) -> Duel {
    set_up(
        &Arc::new(display(on)),
        [ours, theirs],
        &roster(),
        rules(),
        &specials(),
        &swordsman_tables(),
        options,
        &DisplayParts::default(),
    )
    .expect("set up")
}

/// Writes `dir/name.toml`, a display of kind `kind` with the given rows and
/// `areas` (TOML for its `[[areas]]`, may be empty), and returns its path.
fn write_display<S: AsRef<str>>(
    dir: &Path,
    name: &str,
    kind: &str,
    rows: &[S],
    areas: &str,
) -> PathBuf {
    let text = format!(
        "name = {name:?}\nkind = {kind:?}\nprovenance = \"reconstructed: test\"\nrows = [{}]\n{areas}",
        rows.iter()
            .map(|r| format!("{:?}", r.as_ref()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(&file, text).expect("write display");
    file
}

/// The display at `file` (called `name`) is refused with one line naming
/// the file and each of `expected`.
fn assert_bad_display(file: &Path, name: &str, expected: &[&str]) {
    let e = Display::load(file).expect_err(name).to_string();
    assert!(e.contains(&format!("{name}.toml")), "{e}");
    for x in expected {
        assert!(e.contains(x), "{name}: {x:?} not in {e}");
    }
    assert!(!e.contains('\n'), "{e}");
}
