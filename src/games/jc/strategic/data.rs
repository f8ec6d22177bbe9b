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

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use super::consts::{MAX_HENCHMEN, MAX_VILLAINS, NO_PLACE};
use super::tables::{
    self, ArenaDuel, Companion, DISPLAYS, Delay, DieTable, Entries, Foes, Internment, JetanDuels,
    Lookup, Outcome, RawFoe, RawRow, TableSpec, Who,
};
use crate::games::jc::deck::MovementDeck;
use crate::games::jc::duel::geometry::Display;
use crate::games::jc::duel::melee::MeleeRules;
use crate::games::jc::duel::roster::{Class, Roster};
use crate::games::jc::duel::special::SpecialRules;
use crate::games::jc::map::{BarsoomMap, FLIER, MAX_PLACES, THOAT, WALK};
use crate::games::jc::swordsman::SwordsmanTables;
use crate::scenario::{ScenarioError, read_toml};

/// Most characters the roster may hold (character sets are `u128`).
pub const MAX_ROSTER: usize = 128;
/// Most characters a hero starts with.
pub const MAX_START_RETINUE: usize = 4;
/// Most areas of the city map (area sets are `u16`).
pub const MAX_CITY_AREAS: usize = 16;
/// Most houses in one area, and rooms in one house.
pub const MAX_HOUSES: u8 = 8;
/// The conveyances, in the order of per-conveyance arrays.
pub const CONVEYANCES: [u8; 3] = [WALK, THOAT, FLIER];

/// The index of a conveyance bit in per-conveyance arrays.
#[inline]
pub fn conveyance_index(bit: u8) -> usize {
    match bit {
        FLIER => 2,
        THOAT => 1,
        _ => 0,
    }
}

/// Everything the City Directory says about a place [11.8].
#[derive(Debug, Clone, PartialEq)]
pub struct PlaceInfo {
    /// Its area on the double-globe map (index into `areas`).
    pub area: u8,
    /// City encounter modifier [11.26].
    pub modifier: i8,
    /// Its warriors of Mars (roster index).
    pub warriors: u8,
    /// Items to be had there [14.22] (item bits).
    pub items: u8,
    /// Deserted: an outdoor encounter in place of a city encounter [11.26].
    pub deserted: bool,
    /// No city game: a villain there just moves on [10.35].
    pub no_city_game: bool,
    /// The invisible men's: acquisition fights at most three [14.14].
    pub invisible: bool,
    /// North Pole: no flier may fly there [9.51]; no encounters flying
    /// over it [11.52].
    pub north_pole: bool,
    /// Two outdoor encounters on the way, except by flier [11.51].
    pub double_encounters: bool,
    /// A waypoint junction, not a city [9.52].
    pub waypoint: bool,
    /// Tjanath's pit: where it leads and how long the tunnel is [9.56].
    pub pit: Option<(u8, u16)>,
}

/// One area's outdoor encounter lines [11.6].
#[derive(Debug, Clone, PartialEq)]
pub struct AreaTables {
    /// Identifier, e.g. `III-A`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Thoat escape span of a ten-sided die [11.32].
    pub thoat_escape: (u8, u8),
    /// The walking, thoat and flier lines, read with a six-sided die.
    pub lines: [DieTable<Outcome>; 3],
}

/// The villain charts [10.6, 10.43].
#[derive(Debug, Clone, PartialEq)]
pub struct Charts {
    /// `destination[first roll - 1][second roll - 1]`: a place.
    pub destination: [[u8; 10]; 10],
    /// Places that may not be a final destination [10.31].
    pub not_final: u64,
    /// Places that do not count against the three-city limit [10.34].
    pub uncounted: u64,
}

/// One line of an acquisition card [14.11].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcquisitionLine {
    /// The hero takes the item without a fight [14.12].
    Succeed,
    /// A duel with these men on this display [14.13].
    Fight {
        /// The foes.
        foes: Foes,
        /// The display.
        display: u8,
    },
}

/// An acquisition card [14.1].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AcquisitionCard {
    /// Its number.
    pub number: u16,
    /// The weapons-and-thoats line, then the flier line.
    pub lines: [AcquisitionLine; 2],
    /// Entry numbers of the two lines (firing counts).
    pub entries: [u16; 2],
}

/// One area of the city map [15.0].
#[derive(Debug, Clone, PartialEq)]
pub struct CityArea {
    /// Identifier.
    pub id: String,
    /// Name.
    pub name: String,
    /// Houses in it.
    pub houses: u8,
    /// Rooms in each house.
    pub rooms: u8,
    /// Its neighbours: `(area, chance in ten of discovery on entering it)`
    /// [15.21].
    pub next: Vec<(u8, u8)>,
}

/// The city map [15.0].
#[derive(Debug, Clone, PartialEq)]
pub struct CityMap {
    /// The areas.
    pub areas: Vec<CityArea>,
    /// Where a hero comes in by the main gate.
    pub entry: u8,
    /// The deserted area [15.33, 16.16].
    pub deserted: u8,
    /// The tower/arena area of prisoners [17.1, 17.28].
    pub prison: u8,
    /// The palace's area [15.42].
    pub palace: u8,
    /// Steps between areas (not through the prison), row-major.
    pub steps: Vec<u8>,
}

impl CityMap {
    /// Fewest area moves from `a` to `b`.
    #[inline]
    pub fn steps(&self, a: u8, b: u8) -> u8 {
        self.steps[usize::from(a) * self.areas.len() + usize::from(b)]
    }
}

/// One row of an information table [16.27]: the least roll for each
/// level of information (11: never) and the hand of fate number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InfoRow {
    /// Least roll telling the area, the house, the room.
    pub at_least: [u8; 3],
    /// Hand of fate strikes on this or less [16.0 PROCEDURE].
    pub hand_of_fate: u8,
    /// Entry number (firing counts).
    pub entry: u16,
}

/// One of a hero's possible villain set-ups [20.22-20.27].
#[derive(Debug, Clone, PartialEq)]
pub struct VillainOption {
    /// The villain characters.
    pub villains: Vec<u8>,
    /// Those who join him only at his final destination [20.22].
    pub at_final: Vec<u8>,
    /// His henchmen, one roster index each.
    pub henchmen: Vec<u8>,
    /// The captive.
    pub captive: Option<u8>,
    /// Characters who join the hero with this villain [20.33].
    pub retinue: Vec<u8>,
}

/// One hero a player may take [20.1-20.3].
#[derive(Debug, Clone, PartialEq)]
pub struct HeroRules {
    /// Roster index.
    pub character: u8,
    /// The most henchmen his villain may have [10.5].
    pub entourage_limit: u8,
    /// Characters he starts with [20.34-20.38].
    pub retinue: Vec<u8>,
    /// Where a rescued captive must be brought [20.52, 20.25].
    pub love_city: u8,
    /// A hero who escorts him through the first city game [20.38].
    pub escort: Option<u8>,
    /// The body he may choose to start in [19.53, 20.38].
    pub alternate_form: Option<u8>,
    /// His villains by die roll.
    pub villains: DieTable<VillainOption>,
    /// How many cities his villain will be in [10.43].
    pub destinations: DieTable<u8>,
}

/// The City Sub-game's numbers [15-17].
#[derive(Debug, Clone, PartialEq)]
pub struct CityRules {
    /// Discovery chance in ten when staying while bound to move secretly
    /// [15.3].
    pub stay_discovery: u8,
    /// Taken off the villain's discovery rolls during secret movement.
    pub secret_modifier: u8,
    /// Discoveries in one Strategic Turn that imprison [15.32].
    pub discoveries_to_imprison: u8,
    /// Who fights a discovered hero, outside and in the final destination
    /// [15.22].
    pub discovery_fight: [Foes; 2],
    /// Warriors over the villain, outside and in the final destination
    /// [16.14].
    pub villain_guard: [u8; 2],
    /// Warriors over the captive, likewise.
    pub captive_guard: [u8; 2],
    /// Added in the palace [16.15].
    pub palace_guard: Vec<u8>,
    /// The captain of the guard of the arena [17.41].
    pub captain: u8,
    /// Extra chance in ten of a city encounter per phase of house search
    /// [16.43].
    pub house_search_step: u8,
    /// Turns an imprisonment costs, outside and in the final destination
    /// [17.18].
    pub prison_turns: [u8; 2],
    /// Escape on a roll of this or less [17.21].
    pub escape_base: u8,
    /// Taken off the escape roll: resident warrior, resident minor
    /// character, male personage, hero, resident female personage
    /// [17.24-17.27].
    pub escape_help: [u8; 5],
    /// An arena beast's extra strength [17.44].
    pub arena_beast_strength: u8,
    /// Beasts never sent into the arena [17.44].
    pub arena_beast_exclude: Vec<u8>,
    /// Strategic Turns the mind battle costs a level [17.47].
    pub mind_battle_turns: u8,
    /// Strategic Turns a chained hero waits [17.48].
    pub chained_turns: u8,
    /// The most invisible men an acquisition fights [14.14].
    pub invisible_cap: u8,
    /// The most City Sub-sequences in one Player-Turn.
    pub max_subsequences: u16,
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DirectoryFile {
    provenance: String,
    places: Vec<DirectoryCity>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DirectoryCity {
    id: String,
    area: String,
    #[serde(default)]
    modifier: i64,
    warriors: String,
    fliers: bool,
    thoats: bool,
    weapons: bool,
    #[serde(default)]
    special: Vec<String>,
    pit_to: Option<String>,
    pit_haads: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HomesFile {
    provenance: String,
    homes: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutdoorFile {
    provenance: String,
    areas: Vec<OutdoorArea>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutdoorArea {
    id: String,
    name: String,
    thoat_escape: [i64; 2],
    walk: Vec<RawRow>,
    thoat: Vec<RawRow>,
    flier: Vec<RawRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RowsFile {
    provenance: String,
    rolls: Vec<RawRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AftermathFile {
    provenance: String,
    delay: RowsFile,
    duel_results: RowsFile,
    internment: RowsFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChartsFile {
    provenance: String,
    destination: DestinationFile,
    final_destination: BTreeMap<String, FinalRows>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum FinalRows {
    Text(String),
    Rows(Vec<RawRow>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DestinationFile {
    provenance: String,
    rows: Vec<Vec<String>>,
    #[serde(default)]
    not_final: Vec<String>,
    #[serde(default)]
    uncounted: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AcquisitionFile {
    provenance: String,
    first_card: i64,
    cards: Vec<AcquisitionCardFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AcquisitionCardFile {
    number: i64,
    weapons_and_thoats: AcquisitionLineFile,
    flier: AcquisitionLineFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AcquisitionLineFile {
    result: String,
    display: Option<String>,
    fight: Option<Vec<RawFoe>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CityMapFile {
    provenance: String,
    entry: String,
    deserted: String,
    prison: String,
    palace: String,
    areas: Vec<CityAreaFile>,
    arrows: Vec<ArrowFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CityAreaFile {
    id: String,
    name: String,
    houses: i64,
    rooms: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArrowFile {
    between: [String; 2],
    discovery: [i64; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InformationFile {
    provenance: String,
    information: InformationTables,
    hand_of_fate: RowsFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InformationTables {
    provenance: String,
    tables: Vec<InformationTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InformationTable {
    rows: BTreeMap<String, InfoRowFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InfoRowFile {
    area: i64,
    house: i64,
    room: i64,
    hand_of_fate: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImprisonmentFile {
    provenance: String,
    prison_companion: RowsFile,
    arena: RowsFile,
    jetan: RowsFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    provenance: String,
    start: String,
    love_city: String,
    #[serde(default)]
    quiet_trips: Vec<[String; 2]>,
    humanoid: Vec<String>,
    prison_heroes: Vec<String>,
    nameless_villain: String,
    city: CityRulesFile,
    heroes: Vec<HeroFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CityRulesFile {
    provenance: String,
    stay_discovery: i64,
    secret_modifier: i64,
    discoveries_to_imprison: i64,
    discovery_fight: Vec<RawFoe>,
    discovery_fight_final: Vec<RawFoe>,
    villain_guard: i64,
    villain_guard_final: i64,
    captive_guard: i64,
    captive_guard_final: i64,
    palace_guard: Vec<String>,
    captain: String,
    house_search_step: i64,
    prison_turns: i64,
    prison_turns_final: i64,
    escape_base: i64,
    escape_resident_warrior: i64,
    escape_resident_minor: i64,
    escape_male_personage: i64,
    escape_hero: i64,
    escape_resident_female: i64,
    arena_beast_strength: i64,
    #[serde(default)]
    arena_beast_exclude: Vec<String>,
    mind_battle_turns: i64,
    chained_turns: i64,
    invisible_cap: i64,
    max_subsequences: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeroFile {
    id: String,
    entourage_limit: i64,
    #[serde(default)]
    retinue: Vec<String>,
    love_city: Option<String>,
    escort: Option<String>,
    alternate_form: Option<String>,
    villains: Vec<VillainRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VillainRow {
    roll: tables::RollSpec,
    villains: Vec<String>,
    #[serde(default)]
    at_final: Vec<String>,
    #[serde(default)]
    henchmen: Vec<RawFoe>,
    captive: Option<String>,
    #[serde(default)]
    retinue: Vec<String>,
}

/// Checks a `provenance` field: where the values come from.
pub(super) fn check_provenance(file: &Path, field: &str, text: &str) -> Result<(), ScenarioError> {
    if text.trim().is_empty() {
        return Err(ScenarioError::new(
            file,
            field,
            "expected where the values come from (rules [case] or reconstructed: why)",
        ));
    }
    Ok(())
}

/// Looks places up by id with one-line errors.
pub(super) struct Places<'a> {
    /// The map.
    pub(super) map: &'a BarsoomMap,
}

impl Places<'_> {
    /// The index of the city `id` (not a waypoint).
    pub(super) fn get(&self, file: &Path, field: &str, id: &str) -> Result<u8, ScenarioError> {
        self.map
            .city(id)
            .filter(|&c| !self.map.cities[c].waypoint)
            .map(|c| c as u8)
            .ok_or_else(|| {
                ScenarioError::new(
                    file,
                    field,
                    format!(
                        "expected a city of the map (barsoom-map.toml, strategic-map.toml), found {id:?}; nearest: {}",
                        crate::scenario::nearest_ids(id, self.map.cities.iter().map(|c| c.id.as_str()))
                    ),
                )
            })
    }
}

impl StrategicData {
    /// Loads every file the Strategic Game reads from `dir`.
    pub fn load(dir: &Path) -> Result<Self, ScenarioError> {
        let roster = Roster::load(&dir.join("characters.toml"))?;
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
        let melee = MeleeRules::load(&dir.join("duel-rules.toml"))?;
        let duel_specials = SpecialRules::load(&dir.join("duel-specials.toml"))?;
        duel_specials.check_roster(&dir.join("duel-specials.toml"), &roster)?;
        let mut displays = Vec::new();
        for name in DISPLAYS {
            displays.push(Arc::new(Display::load(
                &dir.join("displays").join(format!("{name}.toml")),
            )?));
        }
        let swordsman = SwordsmanTables::load(&dir.join("swordsman.toml"))?;
        let map = BarsoomMap::load_layers(
            &[
                &dir.join("barsoom-map.toml"),
                &dir.join("strategic-map.toml"),
            ],
            None,
            MAX_PLACES,
        )?;
        let deck = MovementDeck::load(&dir.join("movement-deck.toml"))?;
        let mut entries = Entries::default();
        let places_of = Places { map: &map };

        let areas = load_outdoor(dir, &roster, &mut entries)?;
        let places = load_directory(dir, &map, &roster, &areas)?;
        // Per-conveyance distances: no flier route to or from the North
        // Pole [9.51].
        let distance = CONVEYANCES.map(|c| {
            if c == FLIER {
                map.distances_avoiding(FLIER, |k| places[k].north_pole)
            } else {
                map.distances(c)
            }
        });

        let homes = load_homes(dir, &roster, &places_of)?;
        let city_encounters = load_city_encounters(dir, &roster, &places, &mut entries)?;
        let (delay, duel_results, internment) = load_aftermath(dir, &roster, &mut entries)?;
        let (charts, raw_charts) = load_charts(dir, &places_of)?;
        let acquisition = load_acquisition(dir, &roster, &mut entries)?;
        let city_map = load_city_map(&dir.join("city-map.toml"))?;
        let (information, hand_of_fate) = load_information(dir, &roster, &city_map, &mut entries)?;
        let (companions, arena, jetan) = load_imprisonment(dir, &roster, &mut entries)?;
        let Setup {
            start,
            quiet,
            humanoid,
            prison_heroes,
            nameless_villain,
            city,
            heroes,
        } = load_rules(dir, &roster, &map, &places_of, &raw_charts, &mut entries)?;

        let city_areas: Vec<String> = city_map.areas.iter().map(|a| a.id.clone()).collect();
        let story = super::story::StoryData::load(dir, &map, &roster, &city_areas, &mut entries)?;
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

    /// Shortest distance from `a` to `b` for a conveyance bit.
    #[inline]
    pub fn distance(&self, conveyance: u8, a: u8, b: u8) -> u16 {
        self.distance[conveyance_index(conveyance)]
            [usize::from(a) * self.map.cities.len() + usize::from(b)]
    }

    /// The hero rules of roster character `k`, if he is a playable hero.
    pub fn hero_of(&self, k: u8) -> Option<usize> {
        self.heroes.iter().position(|h| h.character == k)
    }

    /// Whether a hero of roster character `k` passes as a native in place
    /// `c` [15.31].
    pub fn passes(&self, k: u8, c: u8) -> bool {
        let race = &self.roster.characters[usize::from(k)].race;
        let city = &self.roster.characters[usize::from(self.places[usize::from(c)].warriors)].race;
        race == city || (self.humanoid.contains(race) && self.humanoid.contains(city))
    }

    /// The place of roster character `k`'s home, if any.
    pub fn home(&self, k: u8) -> Option<u8> {
        self.homes
            .get(usize::from(k))
            .copied()
            .filter(|h| *h != NO_PLACE)
    }
}

/// The set-up and standing numbers of `strategic-rules.toml`.
struct Setup {
    start: u8,
    quiet: Vec<u64>,
    humanoid: Vec<String>,
    prison_heroes: Vec<u8>,
    nameless_villain: u8,
    city: CityRules,
    heroes: Vec<HeroRules>,
}

/// The Outdoor Encounter Table [11.6], per area and conveyance.
fn load_outdoor(
    dir: &Path,
    roster: &Roster,
    entries: &mut Entries,
) -> Result<Vec<AreaTables>, ScenarioError> {
    // Outdoor encounters first: the directory names their areas.
    let file = dir.join("outdoor-encounters.toml");
    let raw: OutdoorFile = read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let look = Lookup {
        file: &file,
        roster,
    };
    let mut areas = Vec::new();
    for (i, a) in raw.areas.iter().enumerate() {
        if areas.iter().any(|x: &AreaTables| x.id == a.id) {
            return Err(ScenarioError::new(
                &file,
                format!("areas[{i}].id"),
                format!("expected each area once, found {:?} again", a.id),
            ));
        }
        let [lo, hi] = a.thoat_escape;
        if !(0..=10).contains(&lo) || !(lo..=10).contains(&hi) {
            return Err(ScenarioError::new(
                &file,
                format!("areas[{i}].thoat_escape"),
                format!(
                    "expected a span of a ten-sided die such as [1, 2] (or [0, 0]: never), found [{lo}, {hi}]"
                ),
            ));
        }
        let mut line = |name: &str, rows: &[RawRow]| {
            let spec = TableSpec {
                file: &file,
                field: format!("areas[{i}].{name}"),
                name: format!("outdoor {} {name}", a.id),
                faces: (1, 6),
                open_ended: false,
            };
            tables::build(&spec, rows, entries, |r, f, e| {
                tables::outcome(
                    &look,
                    r,
                    f,
                    &[
                        "none",
                        "fight",
                        "lose-flier",
                        "lose-thoats",
                        "friend",
                        "d10",
                    ],
                    &spec.name,
                    e,
                )
            })
        };
        let lines = [
            line("walk", &a.walk)?,
            line("thoat", &a.thoat)?,
            line("flier", &a.flier)?,
        ];
        areas.push(AreaTables {
            id: a.id.clone(),
            name: a.name.clone(),
            thoat_escape: (lo as u8, hi as u8),
            lines,
        });
    }
    if areas.is_empty() {
        return Err(ScenarioError::new(
            &file,
            "areas",
            "expected at least one area",
        ));
    }

    Ok(areas)
}

/// The City Directory [11.8], one entry per place of the map.
fn load_directory(
    dir: &Path,
    map: &BarsoomMap,
    roster: &Roster,
    areas: &[AreaTables],
) -> Result<Vec<PlaceInfo>, ScenarioError> {
    let places_of = Places { map };
    // The City Directory.
    let file = dir.join("city-directory.toml");
    let raw: DirectoryFile = read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let mut places: Vec<Option<PlaceInfo>> = vec![None; map.cities.len()];
    for (i, c) in raw.places.iter().enumerate() {
        let field = |f: &str| format!("places[{i}].{f}");
        let err = |f: &str, m: String| ScenarioError::new(&file, field(f), m);
        let k = map.city(&c.id).ok_or_else(|| {
            err(
                "id",
                format!(
                    "expected a place of the map, found {:?}; nearest: {}",
                    c.id,
                    crate::scenario::nearest_ids(&c.id, map.cities.iter().map(|c| c.id.as_str()))
                ),
            )
        })?;
        if places[k].is_some() {
            return Err(err(
                "id",
                format!("expected each place once, found {:?} again", c.id),
            ));
        }
        let area = areas.iter().position(|a| a.id == c.area).ok_or_else(|| {
            err(
                "area",
                format!(
                    "expected an area of outdoor-encounters.toml ({}), found {:?}",
                    areas
                        .iter()
                        .map(|a| a.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    c.area
                ),
            )
        })?;
        if !(-5..=5).contains(&c.modifier) {
            return Err(err(
                "modifier",
                format!("expected -5 to +5, found {}", c.modifier),
            ));
        }
        let warriors = roster.find(&c.warriors).ok_or_else(|| {
            err(
                "warriors",
                format!(
                    "expected a warrior of Mars of the roster, found {:?}; nearest: {}",
                    c.warriors,
                    roster.suggest(&c.warriors)
                ),
            )
        })?;
        if roster.characters[warriors].class != Class::Warrior {
            return Err(err(
                "warriors",
                format!(
                    "expected a warrior of Mars (class warrior), found {:?}, a {}",
                    c.warriors,
                    roster.characters[warriors].class.name()
                ),
            ));
        }
        let mut info = PlaceInfo {
            area: area as u8,
            modifier: c.modifier as i8,
            warriors: warriors as u8,
            items: (u8::from(c.fliers) * tables::ITEM_FLIER)
                | (u8::from(c.thoats) * tables::ITEM_THOATS)
                | (u8::from(c.weapons) * tables::ITEM_WEAPONS),
            deserted: false,
            no_city_game: false,
            invisible: false,
            north_pole: false,
            double_encounters: false,
            waypoint: false,
            pit: None,
        };
        for s in &c.special {
            match s.as_str() {
                "deserted" => info.deserted = true,
                "no-city-game" => info.no_city_game = true,
                "invisible" => info.invisible = true,
                "north-pole" => info.north_pole = true,
                "double-encounters" => info.double_encounters = true,
                "waypoint" => info.waypoint = true,
                "pit" => {
                    let to = c.pit_to.as_deref().ok_or_else(|| {
                        err("pit_to", "expected the place the pit leads to".into())
                    })?;
                    let to = places_of.get(&file, &field("pit_to"), to)?;
                    let haads = match c.pit_haads {
                        Some(h) if (1..=1000).contains(&h) => h as u16,
                        other => {
                            return Err(err(
                                "pit_haads",
                                format!("expected 1 to 1000 haads, found {other:?}"),
                            ));
                        }
                    };
                    info.pit = Some((to, haads));
                }
                other => {
                    return Err(err(
                        "special",
                        format!(
                            "expected deserted, no-city-game, invisible, north-pole, double-encounters, waypoint or pit, found {other:?}"
                        ),
                    ));
                }
            }
        }
        if info.pit.is_none() && (c.pit_to.is_some() || c.pit_haads.is_some()) {
            return Err(err(
                "pit_to",
                "expected pit_to and pit_haads only with special = [\"pit\"]".into(),
            ));
        }
        if info.waypoint != map.cities[k].waypoint {
            return Err(err(
                "special",
                format!(
                    "expected \"waypoint\" exactly for the map's waypoint junctions; {:?} is {}",
                    c.id,
                    if map.cities[k].waypoint {
                        "one"
                    } else {
                        "a city"
                    }
                ),
            ));
        }
        places[k] = Some(info);
    }
    let places: Vec<PlaceInfo> = places
        .into_iter()
        .enumerate()
        .map(|(k, p)| {
            p.ok_or_else(|| {
                ScenarioError::new(
                    &file,
                    "places",
                    format!(
                        "expected an entry for every place of the map, found none for {:?}",
                        map.cities[k].id
                    ),
                )
            })
        })
        .collect::<Result<_, _>>()?;

    Ok(places)
}

/// The Character Directory [11.9]: home cities of roster characters.
fn load_homes(dir: &Path, roster: &Roster, places_of: &Places) -> Result<Vec<u8>, ScenarioError> {
    // The Character Directory.
    let file = dir.join("character-directory.toml");
    let raw: HomesFile = read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let mut homes = vec![NO_PLACE; roster.characters.len()];
    for (id, home) in &raw.homes {
        let field = format!("homes.{id}");
        let k = roster.find(id).ok_or_else(|| {
            ScenarioError::new(
                &file,
                &field,
                format!(
                    "expected a character of the roster (characters.toml), found {id:?}; nearest: {}",
                    roster.suggest(id)
                ),
            )
        })?;
        homes[k] = places_of.get(&file, &field, home)?;
    }

    Ok(homes)
}

/// The City Encounter Table [11.7], covering the die plus every modifier
/// of the directory [11.26].
fn load_city_encounters(
    dir: &Path,
    roster: &Roster,
    places: &[PlaceInfo],
    entries: &mut Entries,
) -> Result<DieTable<Outcome>, ScenarioError> {
    // City encounters: the die plus every modifier in the directory.
    let file = dir.join("city-encounters.toml");
    let raw: RowsFile = read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let look = Lookup {
        file: &file,
        roster,
    };
    let lowest = places
        .iter()
        .map(|p| i32::from(p.modifier))
        .min()
        .unwrap_or(0);
    let highest = places
        .iter()
        .map(|p| i32::from(p.modifier))
        .max()
        .unwrap_or(0);
    let spec = TableSpec {
        file: &file,
        field: "rolls".into(),
        name: "city".into(),
        faces: (1 + lowest, 10 + highest),
        open_ended: true,
    };
    let city_encounters = tables::build(&spec, &raw.rolls, entries, |r, f, e| {
        tables::outcome(
            &look,
            r,
            f,
            &["none", "fight", "swordsman", "friend", "lose-thoats", "d10"],
            "city",
            e,
        )
    })?;

    Ok(city_encounters)
}

/// The Delay, Duel Results and Internment Tables [11.35, 11.45, 11.46].
#[allow(clippy::type_complexity)]
fn load_aftermath(
    dir: &Path,
    roster: &Roster,
    entries: &mut Entries,
) -> Result<(DieTable<Delay>, DieTable<Outcome>, DieTable<Internment>), ScenarioError> {
    // Delay, duel results, internment.
    let file = dir.join("encounter-aftermath.toml");
    let raw: AftermathFile = read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let look = Lookup {
        file: &file,
        roster,
    };
    let d10 = |field: &str, name: &str| TableSpec {
        file: &file,
        field: field.into(),
        name: name.into(),
        faces: (1, 10),
        open_ended: false,
    };
    check_provenance(&file, "delay.provenance", &raw.delay.provenance)?;
    let delay = tables::build(
        &d10("delay.rolls", "delay"),
        &raw.delay.rolls,
        entries,
        |r, f, _| tables::delay(&look, r, f),
    )?;
    check_provenance(
        &file,
        "duel_results.provenance",
        &raw.duel_results.provenance,
    )?;
    let duel_results = tables::build(
        &d10("duel_results.rolls", "duel results"),
        &raw.duel_results.rolls,
        entries,
        |r, f, e| {
            tables::outcome(
                &look,
                r,
                f,
                &["none", "gift", "friend", "interned", "swordsman"],
                "duel results",
                e,
            )
        },
    )?;
    check_provenance(&file, "internment.provenance", &raw.internment.provenance)?;
    let internment = tables::build(
        &d10("internment.rolls", "internment"),
        &raw.internment.rolls,
        entries,
        |r, f, _| tables::internment(&look, r, f),
    )?;

    Ok((delay, duel_results, internment))
}

/// The Destination and Final Destination Charts [10.6, 10.43] (the
/// latter's columns are read with the heroes).
fn load_charts(dir: &Path, places_of: &Places) -> Result<(Charts, ChartsFile), ScenarioError> {
    // The villain charts.
    let file = dir.join("villain-charts.toml");
    let raw_charts: ChartsFile = read_toml(&file)?;
    check_provenance(&file, "provenance", &raw_charts.provenance)?;
    match raw_charts.final_destination.get("provenance") {
        Some(FinalRows::Text(text)) => {
            check_provenance(&file, "final_destination.provenance", text)?
        }
        _ => {
            return Err(ScenarioError::new(
                &file,
                "final_destination.provenance",
                "expected where the values come from (rules [case] or reconstructed: why)",
            ));
        }
    }
    check_provenance(
        &file,
        "destination.provenance",
        &raw_charts.destination.provenance,
    )?;
    if raw_charts.destination.rows.len() != 10
        || raw_charts.destination.rows.iter().any(|r| r.len() != 10)
    {
        return Err(ScenarioError::new(
            &file,
            "destination.rows",
            "expected 10 rows of 10 cities (two rolls of a ten-sided die [10.2])",
        ));
    }
    let mut destination = [[0u8; 10]; 10];
    for (i, row) in raw_charts.destination.rows.iter().enumerate() {
        for (j, id) in row.iter().enumerate() {
            destination[i][j] = places_of.get(&file, &format!("destination.rows[{i}][{j}]"), id)?;
        }
    }
    let mask = |list: &[String], field: &str| -> Result<u64, ScenarioError> {
        let mut m = 0u64;
        for (i, id) in list.iter().enumerate() {
            m |= 1 << places_of.get(&file, &format!("{field}[{i}]"), id)?;
        }
        Ok(m)
    };
    let charts = Charts {
        destination,
        not_final: mask(&raw_charts.destination.not_final, "destination.not_final")?,
        uncounted: mask(&raw_charts.destination.uncounted, "destination.uncounted")?,
    };
    if destination
        .iter()
        .flatten()
        .all(|&c| charts.not_final & (1 << c) != 0)
    {
        return Err(ScenarioError::new(
            &file,
            "destination.not_final",
            "expected at least one city of the chart that may be a final destination",
        ));
    }

    Ok((charts, raw_charts))
}

/// The acquisition deck [14.1].
fn load_acquisition(
    dir: &Path,
    roster: &Roster,
    entries: &mut Entries,
) -> Result<Vec<AcquisitionCard>, ScenarioError> {
    // The acquisition deck.
    let file = dir.join("acquisition-deck.toml");
    let raw: AcquisitionFile = read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let look = Lookup {
        file: &file,
        roster,
    };
    if raw.cards.is_empty() || raw.cards.len() > crate::games::jc::deck::MAX_CARDS {
        return Err(ScenarioError::new(
            &file,
            "cards",
            format!(
                "expected 1 to {} cards, found {}",
                crate::games::jc::deck::MAX_CARDS,
                raw.cards.len()
            ),
        ));
    }
    let mut acquisition = Vec::new();
    for (i, c) in raw.cards.iter().enumerate() {
        if c.number != raw.first_card + i as i64 {
            return Err(ScenarioError::new(
                &file,
                format!("cards[{i}].number"),
                format!(
                    "expected the cards numbered in order from {}, found {}",
                    raw.first_card, c.number
                ),
            ));
        }
        let mut line = |l: &AcquisitionLineFile, name: &str| {
            let field = format!("cards[{i}].{name}");
            let parsed = match l.result.as_str() {
                "succeed" if l.fight.is_none() && l.display.is_none() => AcquisitionLine::Succeed,
                "fight" => AcquisitionLine::Fight {
                    foes: look
                        .foes(l.fight.as_deref().unwrap_or(&[]), &format!("{field}.fight"))?,
                    display: look.display(
                        l.display.as_deref().unwrap_or(""),
                        &format!("{field}.display"),
                    )?,
                },
                other => {
                    return Err(ScenarioError::new(
                        &file,
                        format!("{field}.result"),
                        format!(
                            "expected succeed (alone) or fight (with fight and display), found {other:?}"
                        ),
                    ));
                }
            };
            Ok((
                parsed,
                entries.add(format!("acquisition {} {name}", c.number)),
            ))
        };
        let (wt, e0) = line(&c.weapons_and_thoats, "weapons_and_thoats")?;
        let (fl, e1) = line(&c.flier, "flier")?;
        acquisition.push(AcquisitionCard {
            number: c.number as u16,
            lines: [wt, fl],
            entries: [e0, e1],
        });
    }

    Ok(acquisition)
}

/// The Information Chart and the Hand of Fate Table [16.27, 16.28].
fn load_information(
    dir: &Path,
    roster: &Roster,
    city_map: &CityMap,
    entries: &mut Entries,
) -> Result<(Vec<Vec<InfoRow>>, DieTable<Outcome>), ScenarioError> {
    // Information and the hand of fate.
    let file = dir.join("information-chart.toml");
    let raw: InformationFile = read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    check_provenance(&file, "information.provenance", &raw.information.provenance)?;
    if raw.information.tables.len() != 6 {
        return Err(ScenarioError::new(
            &file,
            "information.tables",
            format!(
                "expected six tables, one per face of a six-sided die [16.0 PROCEDURE], found {}",
                raw.information.tables.len()
            ),
        ));
    }
    let mut information = Vec::new();
    for (t, table) in raw.information.tables.iter().enumerate() {
        let mut rows = Vec::new();
        for (a, area) in city_map.areas.iter().enumerate() {
            let field = format!("information.tables[{t}].rows.{}", area.id);
            if a == usize::from(city_map.prison) {
                rows.push(InfoRow {
                    at_least: [11; 3],
                    hand_of_fate: 0,
                    entry: 0,
                });
                continue;
            }
            let r = table.rows.get(&area.id).ok_or_else(|| {
                ScenarioError::new(
                    &file,
                    &field,
                    "expected a row for every area of the city map but the prison".to_string(),
                )
            })?;
            let thresholds = [r.area, r.house, r.room];
            if thresholds.iter().any(|v| !(1..=11).contains(v))
                || r.area > r.house
                || r.house > r.room
            {
                return Err(ScenarioError::new(
                    &file,
                    &field,
                    format!(
                        "expected least rolls 1 to 11 (11: never) with area <= house <= room, found {} {} {}",
                        r.area, r.house, r.room
                    ),
                ));
            }
            if !(0..=10).contains(&r.hand_of_fate) {
                return Err(ScenarioError::new(
                    &file,
                    format!("{field}.hand_of_fate"),
                    format!("expected 0 to 10, found {}", r.hand_of_fate),
                ));
            }
            rows.push(InfoRow {
                at_least: thresholds.map(|v| v as u8),
                hand_of_fate: r.hand_of_fate as u8,
                entry: entries.add(format!("information {} {}", t + 1, area.id)),
            });
        }
        if let Some(extra) = table
            .rows
            .keys()
            .find(|k| !city_map.areas.iter().any(|a| a.id == **k))
        {
            return Err(ScenarioError::new(
                &file,
                format!("information.tables[{t}].rows.{extra}"),
                "expected an area of the city map".to_string(),
            ));
        }
        information.push(rows);
    }
    let look = Lookup {
        file: &file,
        roster,
    };
    check_provenance(
        &file,
        "hand_of_fate.provenance",
        &raw.hand_of_fate.provenance,
    )?;
    let hand_of_fate = tables::build(
        &TableSpec {
            file: &file,
            field: "hand_of_fate.rolls".into(),
            name: "hand of fate".into(),
            faces: (1, 10),
            open_ended: false,
        },
        &raw.hand_of_fate.rolls,
        entries,
        |r, f, e| {
            tables::outcome(
                &look,
                r,
                f,
                &[
                    "close-call",
                    "discovered",
                    "friend",
                    "swordsman",
                    "city-encounter",
                ],
                "hand of fate",
                e,
            )
        },
    )?;

    Ok((information, hand_of_fate))
}

/// The Prison Companion, Arena Duel and Jetan tables [17.19, 17.35, 17.43].
#[allow(clippy::type_complexity)]
fn load_imprisonment(
    dir: &Path,
    roster: &Roster,
    entries: &mut Entries,
) -> Result<
    (
        DieTable<Companion>,
        DieTable<ArenaDuel>,
        DieTable<JetanDuels>,
    ),
    ScenarioError,
> {
    // Imprisonment tables.
    let file = dir.join("imprisonment-tables.toml");
    let raw: ImprisonmentFile = read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let look = Lookup {
        file: &file,
        roster,
    };
    let d10 = |field: &str, name: &str| TableSpec {
        file: &file,
        field: field.into(),
        name: name.into(),
        faces: (1, 10),
        open_ended: false,
    };
    for (name, t) in [
        ("prison_companion", &raw.prison_companion),
        ("arena", &raw.arena),
        ("jetan", &raw.jetan),
    ] {
        check_provenance(&file, &format!("{name}.provenance"), &t.provenance)?;
    }
    let companions = tables::build(
        &d10("prison_companion.rolls", "prison companion"),
        &raw.prison_companion.rolls,
        entries,
        |r, f, _| tables::companion(&look, r, f),
    )?;
    let arena = tables::build(
        &d10("arena.rolls", "arena"),
        &raw.arena.rolls,
        entries,
        |r, f, _| tables::arena(&look, r, f),
    )?;
    let jetan = tables::build(
        &d10("jetan.rolls", "jetan"),
        &raw.jetan.rolls,
        entries,
        |r, f, _| tables::jetan(&look, r, f),
    )?;

    Ok((companions, arena, jetan))
}

/// `strategic-rules.toml`: set-up and standing numbers [20], with each
/// hero's column of the Final Destination Chart [10.43].
fn load_rules(
    dir: &Path,
    roster: &Roster,
    map: &BarsoomMap,
    places_of: &Places,
    raw_charts: &ChartsFile,
    entries: &mut Entries,
) -> Result<Setup, ScenarioError> {
    // Set-up and standing numbers.
    let file = dir.join("strategic-rules.toml");
    let raw: RulesFile = read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    check_provenance(&file, "city.provenance", &raw.city.provenance)?;
    let look = Lookup {
        file: &file,
        roster,
    };
    let start = places_of.get(&file, "start", &raw.start)?;
    let love_city = places_of.get(&file, "love_city", &raw.love_city)?;
    let mut quiet = vec![0u64; map.cities.len()];
    for (i, [a, b]) in raw.quiet_trips.iter().enumerate() {
        let a = places_of.get(&file, &format!("quiet_trips[{i}]"), a)?;
        let b = places_of.get(&file, &format!("quiet_trips[{i}]"), b)?;
        quiet[usize::from(a)] |= 1 << b;
        quiet[usize::from(b)] |= 1 << a;
    }
    let mut prison_heroes = Vec::new();
    for (i, id) in raw.prison_heroes.iter().enumerate() {
        let k = look.character(id, &format!("prison_heroes[{i}]"))?;
        if roster.characters[k].class != Class::Hero {
            return Err(ScenarioError::new(
                &file,
                format!("prison_heroes[{i}]"),
                format!("expected a hero, found {id:?}"),
            ));
        }
        prison_heroes.push(k as u8);
    }
    let nameless_villain = look.character(&raw.nameless_villain, "nameless_villain")? as u8;
    let city = city_rules(&look, &raw.city)?;
    let mut heroes = Vec::new();
    for (h, hero) in raw.heroes.iter().enumerate() {
        heroes.push(hero_rules(
            &look,
            places_of,
            raw_charts,
            &dir.join("villain-charts.toml"),
            h,
            hero,
            love_city,
            entries,
        )?);
    }
    if heroes.is_empty() || heroes.len() > super::consts::MAX_PLAYERS {
        return Err(ScenarioError::new(
            &file,
            "heroes",
            format!(
                "expected 1 to {} heroes, found {}",
                super::consts::MAX_PLAYERS,
                heroes.len()
            ),
        ));
    }
    for id in raw_charts.final_destination.keys() {
        if !raw.heroes.iter().any(|h| h.id == *id) && id != "provenance" {
            return Err(ScenarioError::new(
                &dir.join("villain-charts.toml"),
                format!("final_destination.{id}"),
                "expected a column for a hero of strategic-rules.toml".to_string(),
            ));
        }
    }
    Ok(Setup {
        start,
        quiet,
        humanoid: raw.humanoid,
        prison_heroes,
        nameless_villain,
        city,
        heroes,
    })
}

fn city_rules(look: &Lookup, raw: &CityRulesFile) -> Result<CityRules, ScenarioError> {
    let n = |v: i64, field: &str, range: std::ops::RangeInclusive<i64>| {
        look.number(Some(v), &format!("city.{field}"), range)
    };
    let mut arena_beast_exclude = Vec::new();
    for (i, id) in raw.arena_beast_exclude.iter().enumerate() {
        arena_beast_exclude
            .push(look.character(id, &format!("city.arena_beast_exclude[{i}]"))? as u8);
    }
    let mut palace_guard = Vec::new();
    for (i, id) in raw.palace_guard.iter().enumerate() {
        palace_guard.push(look.character(id, &format!("city.palace_guard[{i}]"))? as u8);
    }
    Ok(CityRules {
        stay_discovery: n(raw.stay_discovery, "stay_discovery", 0..=10)?,
        secret_modifier: n(raw.secret_modifier, "secret_modifier", 0..=9)?,
        discoveries_to_imprison: n(
            raw.discoveries_to_imprison,
            "discoveries_to_imprison",
            1..=9,
        )?,
        discovery_fight: [
            look.foes(&raw.discovery_fight, "city.discovery_fight")?,
            look.foes(&raw.discovery_fight_final, "city.discovery_fight_final")?,
        ],
        villain_guard: [
            n(raw.villain_guard, "villain_guard", 0..=8)?,
            n(raw.villain_guard_final, "villain_guard_final", 0..=8)?,
        ],
        captive_guard: [
            n(raw.captive_guard, "captive_guard", 0..=8)?,
            n(raw.captive_guard_final, "captive_guard_final", 0..=8)?,
        ],
        palace_guard,
        captain: look.character(&raw.captain, "city.captain")? as u8,
        house_search_step: n(raw.house_search_step, "house_search_step", 0..=10)?,
        prison_turns: [
            n(raw.prison_turns, "prison_turns", 0..=9)?,
            n(raw.prison_turns_final, "prison_turns_final", 0..=9)?,
        ],
        escape_base: n(raw.escape_base, "escape_base", 0..=10)?,
        escape_help: [
            n(
                raw.escape_resident_warrior,
                "escape_resident_warrior",
                0..=10,
            )?,
            n(raw.escape_resident_minor, "escape_resident_minor", 0..=10)?,
            n(raw.escape_male_personage, "escape_male_personage", 0..=10)?,
            n(raw.escape_hero, "escape_hero", 0..=10)?,
            n(raw.escape_resident_female, "escape_resident_female", 0..=10)?,
        ],
        arena_beast_strength: n(raw.arena_beast_strength, "arena_beast_strength", 0..=5)?,
        arena_beast_exclude,
        mind_battle_turns: n(raw.mind_battle_turns, "mind_battle_turns", 0..=9)?,
        chained_turns: n(raw.chained_turns, "chained_turns", 0..=9)?,
        invisible_cap: n(raw.invisible_cap, "invisible_cap", 1..=12)?,
        max_subsequences: u16::from(n(raw.max_subsequences, "max_subsequences", 1..=200)?),
    })
}

#[allow(clippy::too_many_arguments)]
fn hero_rules(
    look: &Lookup,
    places: &Places,
    charts: &ChartsFile,
    charts_file: &Path,
    h: usize,
    hero: &HeroFile,
    love_city: u8,
    entries: &mut Entries,
) -> Result<HeroRules, ScenarioError> {
    let field = |f: &str| format!("heroes[{h}].{f}");
    let err = |f: &str, m: String| ScenarioError::new(look.file, field(f), m);
    let character = look.character(&hero.id, &field("id"))?;
    if look.roster.characters[character].class != Class::Hero {
        return Err(err("id", format!("expected a hero, found {:?}", hero.id)));
    }
    let entourage_limit = look.number(
        Some(hero.entourage_limit),
        &field("entourage_limit"),
        0..=MAX_HENCHMEN as i64,
    )?;
    let list = |ids: &[String], f: &str, classes: &[Class]| -> Result<Vec<u8>, ScenarioError> {
        ids.iter()
            .enumerate()
            .map(|(i, id)| {
                look.character_of(id, &format!("{}[{i}]", field(f)), classes)
                    .map(|k| k as u8)
            })
            .collect()
    };
    let companions = [Class::Minor, Class::Hero, Class::Personage, Class::Warrior];
    let retinue = list(&hero.retinue, "retinue", &companions)?;
    if retinue.len() > MAX_START_RETINUE {
        return Err(err(
            "retinue",
            format!(
                "expected at most {MAX_START_RETINUE}, found {}",
                retinue.len()
            ),
        ));
    }
    let love_city = match &hero.love_city {
        None => love_city,
        Some(id) => places.get(look.file, &field("love_city"), id)?,
    };
    let one = |id: &Option<String>, f: &str| -> Result<Option<u8>, ScenarioError> {
        match id {
            None => Ok(None),
            Some(id) => {
                let k = look.character(id, &field(f))?;
                if look.roster.characters[k].class != Class::Hero {
                    return Err(err(f, format!("expected a hero, found {id:?}")));
                }
                Ok(Some(k as u8))
            }
        }
    };
    let escort = one(&hero.escort, "escort")?;
    let alternate_form = one(&hero.alternate_form, "alternate_form")?;
    // The villain rows share the die table checks through `RawRow`-like
    // spans: build them by hand on the same coverage rule.
    let spec = TableSpec {
        file: look.file,
        field: field("villains"),
        name: format!("villain of {}", hero.id),
        faces: (1, 10),
        open_ended: false,
    };
    let rows: Vec<RawRow> = hero
        .villains
        .iter()
        .map(|v| RawRow::roll_only(v.roll))
        .collect();
    let mut index = 0usize;
    let villains = tables::build(&spec, &rows, entries, |_, f, _| {
        let v = &hero.villains[index];
        index += 1;
        let sub = |name: &str| format!("{f}.{name}");
        // [20.22] Rapas the Ulsio, a minor character, is among the villains.
        let villain_classes = [Class::Villain, Class::Minor, Class::Personage];
        let mut vl = Vec::new();
        for (i, id) in v.villains.iter().enumerate() {
            let k = look.who(id, &sub(&format!("villains[{i}]")), &villain_classes)?;
            if let Who::Character(k) = k {
                vl.push(k);
            }
        }
        let mut at_final = Vec::new();
        for (i, id) in v.at_final.iter().enumerate() {
            if let Who::Character(k) =
                look.who(id, &sub(&format!("at_final[{i}]")), &villain_classes)?
            {
                at_final.push(k);
            }
        }
        if vl.is_empty() || vl.len() + at_final.len() > MAX_VILLAINS {
            return Err(ScenarioError::new(
                look.file,
                sub("villains"),
                format!(
                    "expected 1 to {MAX_VILLAINS} villain characters (with at_final), found {}",
                    vl.len() + at_final.len()
                ),
            ));
        }
        if !vl
            .iter()
            .chain(&at_final)
            .any(|k| look.roster.characters[usize::from(*k)].fights())
        {
            return Err(ScenarioError::new(
                look.file,
                sub("villains"),
                "expected at least one villain with combat values".to_string(),
            ));
        }
        let mut henchmen = Vec::new();
        for (i, f) in v.henchmen.iter().enumerate() {
            let who = look.who(
                &f.id,
                &sub(&format!("henchmen[{i}].id")),
                &[Class::Warrior, Class::Minor],
            )?;
            let Who::Character(k) = who else {
                return Err(ScenarioError::new(
                    look.file,
                    sub(&format!("henchmen[{i}].id")),
                    "expected a roster character (henchmen travel with the villain, not with a city)"
                        .to_string(),
                ));
            };
            let count = f.count.unwrap_or(1);
            if !(1..=MAX_HENCHMEN as i64).contains(&count) {
                return Err(ScenarioError::new(
                    look.file,
                    sub(&format!("henchmen[{i}].count")),
                    format!("expected 1 to {MAX_HENCHMEN}, found {count}"),
                ));
            }
            henchmen.extend(std::iter::repeat_n(k, count as usize));
        }
        if henchmen.len() > usize::from(entourage_limit) {
            return Err(ScenarioError::new(
                look.file,
                sub("henchmen"),
                format!(
                    "expected at most {entourage_limit} henchmen, the entourage limit of {} [10.5], found {}",
                    hero.id,
                    henchmen.len()
                ),
            ));
        }
        let captive = match &v.captive {
            None => None,
            Some(id) => {
                let k = look.character(id, &sub("captive"))?;
                if look.roster.characters[k].class != Class::Personage {
                    return Err(ScenarioError::new(
                        look.file,
                        sub("captive"),
                        format!("expected a personage, found {id:?}"),
                    ));
                }
                Some(k as u8)
            }
        };
        let mut extra = Vec::new();
        for (i, id) in v.retinue.iter().enumerate() {
            let k = look.character(id, &sub(&format!("retinue[{i}]")))?;
            extra.push(k as u8);
        }
        Ok(VillainOption {
            villains: vl,
            at_final,
            henchmen,
            captive,
            retinue: extra,
        })
    })?;
    let chart = charts.final_destination.get(&hero.id).ok_or_else(|| {
        ScenarioError::new(
            charts_file,
            format!("final_destination.{}", hero.id),
            "expected a column of the Final Destination Chart for every hero [10.43]".to_string(),
        )
    })?;
    let FinalRows::Rows(rows) = chart else {
        return Err(ScenarioError::new(
            charts_file,
            format!("final_destination.{}", hero.id),
            "expected rows such as [{ roll = [1, 2], cities = 1 }, ...]".to_string(),
        ));
    };
    let chart_look = Lookup {
        file: charts_file,
        roster: look.roster,
    };
    let destinations = tables::build(
        &TableSpec {
            file: charts_file,
            field: format!("final_destination.{}", hero.id),
            name: format!("final destination {}", hero.id),
            faces: (1, 10),
            open_ended: false,
        },
        rows,
        entries,
        |r, f, _| {
            chart_look.only(r, f, &["cities"])?;
            chart_look.number(r.cities, &format!("{f}.cities"), 1..=3)
        },
    )?;
    Ok(HeroRules {
        character: character as u8,
        entourage_limit,
        retinue,
        love_city,
        escort,
        alternate_form,
        villains,
        destinations,
    })
}

/// Loads and checks the city map.
fn load_city_map(file: &Path) -> Result<CityMap, ScenarioError> {
    let raw: CityMapFile = read_toml(file)?;
    check_provenance(file, "provenance", &raw.provenance)?;
    let err = |field: String, message: String| ScenarioError::new(file, field, message);
    if raw.areas.is_empty() || raw.areas.len() > MAX_CITY_AREAS {
        return Err(err(
            "areas".into(),
            format!(
                "expected 1 to {MAX_CITY_AREAS} areas, found {}",
                raw.areas.len()
            ),
        ));
    }
    let mut areas: Vec<CityArea> = Vec::new();
    for (i, a) in raw.areas.iter().enumerate() {
        if areas.iter().any(|x| x.id == a.id) {
            return Err(err(
                format!("areas[{i}].id"),
                format!("expected each area once, found {:?} again", a.id),
            ));
        }
        for (name, v) in [("houses", a.houses), ("rooms", a.rooms)] {
            if !(0..=i64::from(MAX_HOUSES)).contains(&v) {
                return Err(err(
                    format!("areas[{i}].{name}"),
                    format!("expected 0 to {MAX_HOUSES}, found {v}"),
                ));
            }
        }
        if (a.houses == 0) != (a.rooms == 0) {
            return Err(err(
                format!("areas[{i}].rooms"),
                "expected rooms exactly when the area has houses".into(),
            ));
        }
        areas.push(CityArea {
            id: a.id.clone(),
            name: a.name.clone(),
            houses: a.houses as u8,
            rooms: a.rooms as u8,
            next: Vec::new(),
        });
    }
    let area_of = |id: &str, field: String| -> Result<u8, ScenarioError> {
        areas
            .iter()
            .position(|a| a.id == id)
            .map(|i| i as u8)
            .ok_or_else(|| {
                err(
                    field,
                    format!(
                        "expected an area of the city map ({}), found {id:?}",
                        areas
                            .iter()
                            .map(|a| a.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })
    };
    let entry = area_of(&raw.entry, "entry".into())?;
    let deserted = area_of(&raw.deserted, "deserted".into())?;
    let prison = area_of(&raw.prison, "prison".into())?;
    let palace = area_of(&raw.palace, "palace".into())?;
    if areas[usize::from(palace)].houses != 1 {
        return Err(err(
            "palace".into(),
            "expected the palace's area to hold exactly one house, the palace".into(),
        ));
    }
    if prison == entry || areas[usize::from(prison)].houses != 0 {
        return Err(err(
            "prison".into(),
            "expected the prison to be an area of its own, without houses".into(),
        ));
    }
    let mut links = Vec::new();
    for (i, arrow) in raw.arrows.iter().enumerate() {
        let a = area_of(&arrow.between[0], format!("arrows[{i}].between"))?;
        let b = area_of(&arrow.between[1], format!("arrows[{i}].between"))?;
        if a == b {
            return Err(err(
                format!("arrows[{i}].between"),
                "expected two different areas".into(),
            ));
        }
        for v in arrow.discovery {
            if !(0..=10).contains(&v) {
                return Err(err(
                    format!("arrows[{i}].discovery"),
                    format!("expected chances in ten from 0 to 10, found {v}"),
                ));
            }
        }
        links.push((a, b, arrow.discovery[0] as u8, arrow.discovery[1] as u8));
    }
    for &(a, b, da, db) in &links {
        areas[usize::from(b)].next.push((a, da));
        areas[usize::from(a)].next.push((b, db));
    }
    let n = areas.len();
    let mut steps = vec![u8::MAX; n * n];
    for s in 0..n {
        steps[s * n + s] = 0;
        let mut frontier = vec![s];
        let mut d = 0u8;
        while !frontier.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &x in &frontier {
                if x == usize::from(prison) && x != s {
                    continue;
                }
                for &(y, _) in &areas[x].next {
                    let y = usize::from(y);
                    if y == usize::from(prison) || steps[s * n + y] != u8::MAX {
                        continue;
                    }
                    steps[s * n + y] = d;
                    next.push(y);
                }
            }
            frontier = next;
        }
    }
    for (k, a) in areas.iter().enumerate() {
        if k != usize::from(prison) && steps[usize::from(entry) * n + k] == u8::MAX {
            return Err(err(
                "arrows".into(),
                format!(
                    "expected every area but the prison to be reachable from the gate, found none to {:?}",
                    a.id
                ),
            ));
        }
    }
    if areas[usize::from(prison)].next.is_empty() {
        return Err(err(
            "arrows".into(),
            "expected the prison to have neighbours an escaped hero comes out into [17.28]".into(),
        ));
    }
    Ok(CityMap {
        areas,
        entry,
        deserted,
        prison,
        palace,
        steps,
    })
}
