//! `city-directory.toml` and `character-directory.toml`: the places of
//! Barsoom with their warriors and areas [11.8], and the characters' homes
//! [11.9].

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::city_map::CityMap;
use super::common::Places;
use super::outdoor::AreaTables;
use crate::jc::duel::roster::{Class, Roster};
use crate::jc::map::BarsoomMap;
use crate::jc::strategic::consts::NO_PLACE;
use crate::jc::strategic::tables;
use barsoom_engine::scenario::check_provenance;
use barsoom_engine::scenario::{Loader, ScenarioError};

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
    /// The city-map areas inside its four corner towers (bit per area);
    /// the others are deserted in its city game (the City Sub-game's
    /// introduction).
    pub city_areas: u16,
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
    extent: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HomesFile {
    provenance: String,
    homes: BTreeMap<String, String>,
}

/// The City Directory [11.8], one entry per place of the map.
pub(super) fn load_directory(
    dir: &Path,
    map: &BarsoomMap,
    roster: &Roster,
    areas: &[AreaTables],
    city_map: &CityMap,
    loader: &mut Loader,
) -> Result<Vec<PlaceInfo>, ScenarioError> {
    let places_of = Places { map };
    // The City Directory.
    let file = dir.join("city-directory.toml");
    let raw: DirectoryFile = loader.read_toml(&file)?;
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
                    barsoom_engine::scenario::nearest_ids(
                        &c.id,
                        map.cities.iter().map(|c| c.id.as_str())
                    )
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
        let city_areas = match &c.extent {
            None => city_map.whole(),
            Some(id) => city_map.extent(id).ok_or_else(|| {
                err(
                    "extent",
                    format!(
                        "expected an extent of city-map.toml ({}), found {id:?}",
                        city_map
                            .extents
                            .iter()
                            .map(|e| e.0.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?,
        };
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
            city_areas,
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
pub(super) fn load_homes(
    dir: &Path,
    roster: &Roster,
    places_of: &Places,
    loader: &mut Loader,
) -> Result<Vec<u8>, ScenarioError> {
    // The Character Directory.
    let file = dir.join("character-directory.toml");
    let raw: HomesFile = loader.read_toml(&file)?;
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
