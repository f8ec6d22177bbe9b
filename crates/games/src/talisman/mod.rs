//! Talisman under the advanced tournament rules (issue 9): complete 2-6
//! player games on the main board, from the deal of characters to a
//! winner at the Crown of Command. Rule cases are cited as `[n:m]`.
//!
//! - `data`: the data files and the fixed set of mechanics they name;
//! - `board`: regions, spaces, links, the path-to-the-Crown check;
//! - `character`: a character's counters, inventory and limits;
//! - `combat`: combat and psychic combat, the exact table, `talisman.combat`;
//! - `curses`: the curse deck, its effects and their durations [19];
//! - `encounters`: spaces, cards, creatures, characters, effects;
//! - `expansion`: expansion boards as data [11:30] (the Dungeon, the
//!   Vampire's Keep, Timescape);
//! - `merchants`: the limited Purchase deck and the merchants' stock [20:1-3];
//! - `routes`: an expansion board's lines, movement and Vault [11:39-46];
//! - `spells`: casting, blunders and when the players cast;
//! - `policy`: the `sensible` and `random` players;
//! - `game`: the turn, movement, death, the Crown, `talisman.game`;
//! - `stats`: per-character and per-card breakdowns (`barsoom talisman stats`);
//! - `tournament`: the starting Purchase Card and the Season, Month and
//!   Day events [15:4], switched on by the scenario's `[tournament]` table.

pub mod board;
pub mod character;
pub mod city;
pub mod combat;
pub mod curses;
pub mod data;
pub mod effects;
pub mod encounters;
pub mod expansion;
pub mod game;
pub mod merchants;
pub mod policy;
pub mod routes;
pub mod spells;
pub mod stats;
pub mod tournament;
