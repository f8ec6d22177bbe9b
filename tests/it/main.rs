//! barsoom's integration tests, in one crate so that they build and link
//! once (each `tests/*.rs` file would be a binary of its own, linking
//! polars again).
//!
//! Organisation:
//! - one module per model, named `<rulebook>_<model>` after the model id
//!   (`wom_duel` for `wom.duel`, `jc_fleet` for `jc.fleet`, ...); a model
//!   whose tests are long is a folder with submodules (`jc_duel/`);
//! - one module per cross-cutting feature under its plain name (`cli`,
//!   `checkpoint`, `shards`, `determinism`, `sweep`, ...);
//! - the helpers and test doubles they share in [`common`].
//!
//! Run one module, or one test, by its path:
//!
//! ```text
//! cargo test --test it jc_duel::
//! cargo test --test it jc_duel::characters::woola_
//! ```
//!
//! The statistical checks that run millions of trials, and the other tests
//! that take more than about five seconds in a debug build (the golden
//! summaries among them), carry
//! `#[cfg_attr(debug_assertions, ignore = "...")]`: a debug `cargo test`
//! skips them, so it stays well under two minutes, and
//! `cargo test --release`, the README's test command and CI's, runs every
//! test. A new test that slow gets the same attribute; none is made
//! smaller to fit. `cargo test --test it -- --ignored` runs just those in
//! debug.
//!
//! [`golden_summaries`] pins every bundled scenario's summary at seed 1
//! (`BARSOOM_BLESS=1 cargo test --release --test it golden` rewrites the
//! files in `tests/golden/summaries/` after an intended change).

mod common;

mod bench;
mod breakdown;
mod checkpoint;
mod cli;
mod compare;
mod determinism;
mod fuzz;
mod golden_summaries;
mod inputs;
mod integrity;
mod interrupt;
mod json_output;
mod limits;
mod manual;
mod new_scenario;
mod output_folders;
mod overrides;
mod report;
mod rule_coverage;
mod scenario_location;
mod schema;
mod shards;
mod sweep;
mod tournament;
mod tune;
mod until_ci;

mod jc_duel;
mod jc_fleet;
mod jc_military;
mod jc_military_errors;
mod jc_military_search;
mod jc_strategic;
mod jc_strategic_search;
mod jc_swordsman;
mod jetan_game;
mod races_battle;
mod races_game;
mod races_game_search;
mod talisman_boards;
mod talisman_carrying;
mod talisman_city;
mod talisman_combat;
mod talisman_curses;
mod talisman_game;
mod talisman_keep;
mod talisman_merchants;
mod talisman_search;
mod talisman_tournament;
mod wom_air;
mod wom_air_search;
mod wom_battle;
mod wom_battle_field;
mod wom_battle_frontage;
mod wom_battle_ground;
mod wom_battle_terrain;
mod wom_duel;
