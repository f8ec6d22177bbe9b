//! Everything `jc.strategic` reads from the data folder, checked and
//! compiled: the duel roster and melee numbers and the displays (shared with
//! `jc.duel`), the master swordsman tables (`jc.swordsman`), the map of
//! Barsoom with the Strategic Game's layer and the movement deck (shared
//! with `jc.military`), and the Strategic Game's own files: the city and
//! character directories [11.8, 11.9], the outdoor and city encounter tables
//! [11.6, 11.7], the delay, duel results and internment tables [11.35,
//! 11.45, 11.46], the destination and final destination charts [10.6,
//! 10.43], the acquisition deck [14], the city map [15], the information
//! chart and hand of fate [16.27, 16.28], the imprisonment tables [17.19,
//! 17.35, 17.43] and the set-up and standing numbers [20].
//!
//! [`StrategicData`] and its loading live here; each of the Strategic
//! Game's own files has its module (a file struct and its loader), and
//! [`common`] holds what the loaders share.

use barsoom_engine::scenario::Load;

pub mod acquisition;
pub mod charts;
pub mod city_map;
pub mod common;
pub mod directories;
pub mod encounters;
pub mod imprisonment;
pub mod information;
pub mod outdoor;
pub mod rules;

pub use acquisition::{AcquisitionCard, AcquisitionLine};
pub use charts::Charts;
pub use city_map::{CityArea, CityMap, MAX_CITY_AREAS, MAX_HOUSES};
pub(super) use common::Places;
pub use directories::PlaceInfo;
pub use information::InfoRow;
pub use outdoor::AreaTables;
pub use rules::{CityRules, HeroRules, MAX_START_RETINUE, VillainOption};

use super::consts::NO_PLACE;
use super::tables::{
    ArenaDuel, Companion, DISPLAYS, Delay, DieTable, Entries, Internment, JetanDuels, Outcome,
};
use crate::jc::deck::MovementDeck;
use crate::jc::duel::geometry::Display;
use crate::jc::duel::melee::MeleeRules;
use crate::jc::duel::roster::Roster;
use crate::jc::duel::special::SpecialRules;
use crate::jc::map::{BarsoomMap, FLIER, MAX_PLACES, THOAT, WALK};
use crate::jc::swordsman::SwordsmanTables;
use acquisition::load_acquisition;
use barsoom_engine::scenario::{Loader, ScenarioError};
use charts::load_charts;
use city_map::load_city_map;
use directories::load_directory;
use directories::load_homes;
use encounters::load_aftermath;
use encounters::load_city_encounters;
use imprisonment::load_imprisonment;
use information::load_information;
use outdoor::load_outdoor;
use rules::Setup;
use rules::load_rules;
use std::path::Path;
use std::sync::Arc;

/// Most characters the roster may hold (character sets are `u128`).
pub(crate) const MAX_ROSTER: usize = 128;

/// The conveyances, in the order of per-conveyance arrays.
pub(crate) const CONVEYANCES: [u8; 3] = [WALK, THOAT, FLIER];

/// The index of a conveyance bit in per-conveyance arrays.
#[inline]
pub(crate) fn conveyance_index(bit: u8) -> usize {
    match bit {
        FLIER => 2,
        THOAT => 1,
        _ => 0,
    }
}

/// The compiled data of the Strategic Game.
#[derive(Debug, Clone)]
pub struct StrategicData {
    /// The duel roster.
    pub roster: Roster,
    /// Melee numbers.
    pub melee: MeleeRules,
    /// The duel's escape, carrying and special-character numbers.
    pub duel_specials: SpecialRules,
    /// The displays, in [`DISPLAYS`] order.
    pub displays: Vec<Arc<Display>>,
    /// Master swordsman tables.
    pub swordsman: SwordsmanTables,
    /// The map of Barsoom with the Strategic Game's layer.
    pub map: BarsoomMap,
    /// The movement deck.
    pub deck: MovementDeck,
    /// Shortest distances per conveyance (walk, thoat, flier), with the
    /// North Pole closed to fliers [9.51].
    pub distance: [Vec<u16>; 3],
    /// Mean haads of a movement card per conveyance (walk, thoat, flier).
    pub mean_haads: [f64; 3],
    /// The City Directory, per place.
    pub places: Vec<PlaceInfo>,
    /// Home of each roster character, or [`NO_PLACE`].
    pub homes: Vec<u8>,
    /// Outdoor encounter tables per area.
    pub areas: Vec<AreaTables>,
    /// The City Encounter Table (ten-sided die plus modifier).
    pub city_encounters: DieTable<Outcome>,
    /// The Delay Table.
    pub delay: DieTable<Delay>,
    /// The Duel Results Table.
    pub duel_results: DieTable<Outcome>,
    /// The Internment Table.
    pub internment: DieTable<Internment>,
    /// The villain charts.
    pub charts: Charts,
    /// The acquisition deck.
    pub acquisition: Vec<AcquisitionCard>,
    /// The city map.
    pub city_map: CityMap,
    /// The six information tables: per table, per city area.
    pub information: Vec<Vec<InfoRow>>,
    /// The Hand of Fate Table.
    pub hand_of_fate: DieTable<Outcome>,
    /// The Prison Companion Table.
    pub companions: DieTable<Companion>,
    /// The Arena Duel Table.
    pub arena: DieTable<ArenaDuel>,
    /// The Jetan table.
    pub jetan: DieTable<JetanDuels>,
    /// City game numbers.
    pub city: CityRules,
    /// The six heroes in move order [20.14].
    pub heroes: Vec<HeroRules>,
    /// Where heroes start [20.13].
    pub start: u8,
    /// Places no encounter happens between, as a mask per place [11.15].
    pub quiet: Vec<u64>,
    /// Races that pass in each other's cities [15.31].
    pub humanoid: Vec<String>,
    /// Heroes a prison companion may be, in order [17.15].
    pub prison_heroes: Vec<u8>,
    /// The nameless surrogate villain [10.12].
    pub nameless_villain: u8,
    /// Random events, friends, love and the special characters [12, 13,
    /// 18, 19].
    pub story: super::story::StoryData,
    /// Names of all table entries (firing counts).
    pub entries: Entries,
}

impl StrategicData {
    /// Shortest distance from `a` to `b` for a conveyance bit.
    #[inline]
    pub fn distance(&self, conveyance: u8, a: u8, b: u8) -> u16 {
        self.distance[conveyance_index(conveyance)]
            [usize::from(a) * self.map.cities.len() + usize::from(b)]
    }

    /// Whether a hero of roster character `k` passes as a native in place
    /// `c` [15.31].
    pub fn passes(&self, k: u8, c: u8) -> bool {
        let race = &self.roster.characters[usize::from(k)].race;
        let city = &self.roster.characters[usize::from(self.places[usize::from(c)].warriors)].race;
        race == city || (self.humanoid.contains(race) && self.humanoid.contains(city))
    }

    /// Whether area `a` of the city map counts as deserted in the city game
    /// of place `city`: the deserted quarter, or outside the city's four
    /// corner towers (the City Sub-game's introduction).
    #[inline]
    pub fn deserted_area(&self, city: u8, a: u8) -> bool {
        a == self.city_map.deserted
            || self
                .places
                .get(usize::from(city))
                .is_some_and(|c| c.city_areas & (1 << a) == 0)
    }

    /// The area of the city map whose Information Chart column [16.27]
    /// serves area `a` of `city`: the deserted quarter's where `a` is
    /// deserted there, else its own.
    #[inline]
    pub fn information_area(&self, city: u8, a: u8) -> usize {
        if self.deserted_area(city, a) {
            usize::from(self.city_map.deserted)
        } else {
            usize::from(a)
        }
    }

    /// The place of roster character `k`'s home, if any.
    pub fn home(&self, k: u8) -> Option<u8> {
        self.homes
            .get(usize::from(k))
            .copied()
            .filter(|h| *h != NO_PLACE)
    }
}

impl Load for StrategicData {
    /// Loads every file the Strategic Game reads from `dir`.
    fn load_with(dir: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let roster = Roster::load_with(&dir.join("characters.toml"), loader)?;
        if roster.characters.len() > MAX_ROSTER {
            return Err(ScenarioError::new(
                &dir.join("characters.toml"),
                "characters",
                format!(
                    "expected at most {MAX_ROSTER} characters for the Strategic Game, found {}",
                    roster.characters.len()
                ),
            ));
        }
        let melee = MeleeRules::load_with(&dir.join("duel-rules.toml"), loader)?;
        let duel_specials = SpecialRules::load_with(&dir.join("duel-specials.toml"), loader)?;
        duel_specials.check_roster(&dir.join("duel-specials.toml"), &roster)?;
        let mut displays = Vec::new();
        for name in DISPLAYS {
            displays.push(Arc::new(Display::load_with(
                &dir.join("displays").join(format!("{name}.toml")),
                loader,
            )?));
        }
        let swordsman = SwordsmanTables::load_with(&dir.join("swordsman.toml"), loader)?;
        let map = BarsoomMap::load_layers(
            &[
                &dir.join("barsoom-map.toml"),
                &dir.join("strategic-map.toml"),
            ],
            None,
            MAX_PLACES,
            loader,
        )?;
        let deck = MovementDeck::load_with(&dir.join("movement-deck.toml"), loader)?;
        let mut entries = Entries::default();
        let places_of = Places { map: &map };

        let areas = load_outdoor(dir, &roster, &mut entries, loader)?;
        let city_map = load_city_map(&dir.join("city-map.toml"), loader)?;
        let places = load_directory(dir, &map, &roster, &areas, &city_map, loader)?;
        // Per-conveyance distances: no flier route to or from the North
        // Pole [9.51].
        let distance = CONVEYANCES.map(|c| {
            if c == FLIER {
                map.distances_avoiding(FLIER, |k| places[k].north_pole)
            } else {
                map.distances(c)
            }
        });

        let homes = load_homes(dir, &roster, &places_of, loader)?;
        let city_encounters = load_city_encounters(dir, &roster, &places, &mut entries, loader)?;
        let (delay, duel_results, internment) = load_aftermath(dir, &roster, &mut entries, loader)?;
        let (charts, raw_charts) = load_charts(dir, &places_of, loader)?;
        let acquisition = load_acquisition(dir, &roster, &mut entries, loader)?;
        let (information, hand_of_fate) =
            load_information(dir, &roster, &city_map, &mut entries, loader)?;
        let (companions, arena, jetan) = load_imprisonment(dir, &roster, &mut entries, loader)?;
        let Setup {
            start,
            quiet,
            humanoid,
            prison_heroes,
            nameless_villain,
            city,
            heroes,
        } = load_rules(
            dir,
            &roster,
            &map,
            &places_of,
            &raw_charts,
            &mut entries,
            loader,
        )?;

        let city_areas: Vec<String> = city_map.areas.iter().map(|a| a.id.clone()).collect();
        let story = super::story::StoryData::load_with(
            dir,
            &map,
            &roster,
            &city_areas,
            &mut entries,
            loader,
        )?;
        let mean_haads = CONVEYANCES.map(|c| deck.mean(c).max(1.0));
        Ok(StrategicData {
            roster,
            melee,
            duel_specials,
            displays,
            swordsman,
            map,
            deck,
            distance,
            mean_haads,
            places,
            homes,
            areas,
            city_encounters,
            delay,
            duel_results,
            internment,
            charts,
            acquisition,
            city_map,
            information,
            hand_of_fate,
            companions,
            arena,
            jetan,
            city,
            heroes,
            start,
            quiet,
            humanoid,
            prison_heroes,
            nameless_villain,
            story,
            entries,
        })
    }
}
