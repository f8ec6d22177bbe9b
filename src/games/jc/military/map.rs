//! The map of Barsoom (`barsoom-map.toml`): cities, lines with their
//! lengths in haads, junctions [9.42] and one-turn lines [9.41], compiled
//! into flights between cities and a table of shortest distances.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::games::jc::fleet_tables::{JcData, id_list};
use crate::scenario::{ScenarioError, read_toml};

/// Most cities a map may hold (city sets are `u32` masks).
pub const MAX_CITIES: usize = 32;
/// Distance used for a one-turn line in the shortest-distance table.
const ONE_TURN_DISTANCE: u16 = 1;
/// "No such distance" in the shortest-distance table.
pub const UNREACHABLE: u16 = u16::MAX;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    provenance: String,
    cities: BTreeMap<String, CityFile>,
    #[serde(default)]
    junctions: BTreeMap<String, JunctionFile>,
    #[serde(default)]
    links: Vec<LinkFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CityFile {
    name: String,
    capital: Option<String>,
    neutral: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JunctionFile {
    name: String,
    legs: BTreeMap<String, i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkFile {
    between: Vec<String>,
    haads: Option<i64>,
    #[serde(default)]
    one_turn: bool,
}

/// One city.
#[derive(Debug, Clone, PartialEq)]
pub struct City {
    /// Identifier, e.g. `greater-helium`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The capital it is (index into the data's capitals), if any.
    pub capital: Option<usize>,
    /// The neutral nation whose own city it is (index into the data's
    /// nations), if any.
    pub neutral: Option<usize>,
}

/// A flight a fleet may set out on from a city: straight along a line, or
/// through one junction to another city joined to it [9.42].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    /// City it starts from.
    pub from: u8,
    /// City it ends at.
    pub to: u8,
    /// Length in haads (0 on a one-turn line).
    pub haads: u16,
    /// A one-turn line: crossed in one move, no card drawn [9.41].
    pub one_turn: bool,
}

/// The compiled map.
#[derive(Debug, Clone, PartialEq)]
pub struct BarsoomMap {
    /// Cities, sorted by id.
    pub cities: Vec<City>,
    /// Every flight, sorted by starting city then destination.
    pub routes: Vec<Route>,
    /// For each city, the range of its flights in `routes`.
    pub from_range: Vec<(u16, u16)>,
    /// Shortest distance in haads between every pair of cities
    /// (`cities.len()` squared, row-major); one-turn lines count 1.
    pub distance: Vec<u16>,
}

impl BarsoomMap {
    /// Loads and checks `barsoom-map.toml` (capitals and neutrals named
    /// against `data`).
    pub fn load(file: &Path, data: &JcData) -> Result<Self, ScenarioError> {
        let raw: MapFile = read_toml(file)?;
        let err = |field: String, message: String| ScenarioError::new(file, field, message);
        if raw.provenance.trim().is_empty() {
            return Err(err("provenance".into(), "expected a source".into()));
        }
        if raw.cities.is_empty() || raw.cities.len() > MAX_CITIES {
            return Err(err(
                "cities".into(),
                format!(
                    "expected 1 to {MAX_CITIES} cities, found {}",
                    raw.cities.len()
                ),
            ));
        }
        let mut cities = Vec::new();
        for (id, c) in &raw.cities {
            let capital = match &c.capital {
                None => None,
                Some(k) => Some(data.capital(k).ok_or_else(|| {
                    err(
                        format!("cities.{id}.capital"),
                        format!(
                            "expected one of the capitals {}, found {k:?}",
                            id_list(data.capitals.iter().map(|c| c.id.as_str()))
                        ),
                    )
                })?),
            };
            let neutral = match &c.neutral {
                None => None,
                Some(n) => Some(data.nation(n).ok_or_else(|| {
                    err(
                        format!("cities.{id}.neutral"),
                        format!(
                            "expected one of the nations {}, found {n:?}",
                            id_list(data.nations.iter().map(|n| n.id.as_str()))
                        ),
                    )
                })?),
            };
            cities.push(City {
                id: id.clone(),
                name: c.name.clone(),
                capital,
                neutral,
            });
        }
        for (k, capital) in data.capitals.iter().enumerate() {
            if !cities.iter().any(|c| c.capital == Some(k)) {
                return Err(err(
                    "cities".into(),
                    format!(
                        "expected a city for every capital, found none for {:?}",
                        capital.id
                    ),
                ));
            }
        }
        let city_of = |id: &str, field: String| -> Result<u8, ScenarioError> {
            cities
                .iter()
                .position(|c| c.id == id)
                .map(|i| i as u8)
                .ok_or_else(|| {
                    err(
                        field,
                        format!(
                            "expected one of the cities {}, found {id:?}",
                            id_list(cities.iter().map(|c| c.id.as_str()))
                        ),
                    )
                })
        };
        let haads_of = |value: i64, field: String| -> Result<u16, ScenarioError> {
            if (1..=10_000).contains(&value) {
                Ok(value as u16)
            } else {
                Err(err(
                    field,
                    format!("expected a length of 1 to 10000 haads, found {value}"),
                ))
            }
        };
        let mut routes: Vec<Route> = Vec::new();
        let mut add = |from: u8, to: u8, haads: u16, one_turn: bool| {
            // Two ways between the same cities: the shorter is flown.
            match routes.iter_mut().find(|r| r.from == from && r.to == to) {
                Some(r) if one_turn || (!r.one_turn && haads < r.haads) => {
                    r.haads = haads;
                    r.one_turn = one_turn;
                }
                Some(_) => {}
                None => routes.push(Route {
                    from,
                    to,
                    haads,
                    one_turn,
                }),
            }
        };
        for (i, link) in raw.links.iter().enumerate() {
            let field = |f: &str| format!("links[{i}].{f}");
            if link.between.len() != 2 {
                return Err(err(
                    field("between"),
                    format!("expected two cities, found {}", link.between.len()),
                ));
            }
            let a = city_of(&link.between[0], field("between"))?;
            let b = city_of(&link.between[1], field("between"))?;
            if a == b {
                return Err(err(
                    field("between"),
                    format!(
                        "expected two different cities, found {:?} twice",
                        link.between[0]
                    ),
                ));
            }
            let haads = match (link.one_turn, link.haads) {
                (true, None) => 0,
                (true, Some(_)) => {
                    return Err(err(
                        field("haads"),
                        "expected no length on a one-turn line".into(),
                    ));
                }
                (false, Some(h)) => haads_of(h, field("haads"))?,
                (false, None) => {
                    return Err(err(
                        field("haads"),
                        "expected a length in haads (or one_turn = true)".into(),
                    ));
                }
            };
            add(a, b, haads, link.one_turn);
            add(b, a, haads, link.one_turn);
        }
        for (id, junction) in &raw.junctions {
            let mut legs = Vec::new();
            for (city, length) in &junction.legs {
                let field = format!("junctions.{id}.legs.{city}");
                legs.push((city_of(city, field.clone())?, haads_of(*length, field)?));
            }
            if legs.len() < 2 {
                return Err(err(
                    format!("junctions.{id}.legs"),
                    format!(
                        "expected at least two cities joined at {:?}, found {}",
                        junction.name,
                        legs.len()
                    ),
                ));
            }
            for &(a, la) in &legs {
                for &(b, lb) in &legs {
                    if a != b {
                        add(a, b, la + lb, false);
                    }
                }
            }
        }
        routes.sort_by_key(|r| (r.from, r.to));
        let n = cities.len();
        let mut from_range = vec![(0u16, 0u16); n];
        for (c, range) in from_range.iter_mut().enumerate() {
            let start = routes.partition_point(|r| usize::from(r.from) < c);
            let end = routes.partition_point(|r| usize::from(r.from) <= c);
            *range = (start as u16, end as u16);
        }
        // Floyd-Warshall over at most 32 cities.
        let mut distance = vec![UNREACHABLE; n * n];
        for c in 0..n {
            distance[c * n + c] = 0;
        }
        for r in &routes {
            let d = if r.one_turn {
                ONE_TURN_DISTANCE
            } else {
                r.haads
            };
            let cell = &mut distance[usize::from(r.from) * n + usize::from(r.to)];
            *cell = (*cell).min(d);
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    let (a, b) = (distance[i * n + k], distance[k * n + j]);
                    if a != UNREACHABLE && b != UNREACHABLE {
                        let via = a.saturating_add(b);
                        if via < distance[i * n + j] {
                            distance[i * n + j] = via;
                        }
                    }
                }
            }
        }
        // Every capital must be reachable from every other (from the first
        // one suffices: the lines run both ways).
        let capitals: Vec<usize> = (0..n).filter(|c| cities[*c].capital.is_some()).collect();
        if let Some(&first) = capitals.first() {
            for &c in &capitals {
                if distance[first * n + c] == UNREACHABLE {
                    return Err(err(
                        format!("cities.{}", cities[c].id),
                        format!(
                            "expected every capital to be reachable, but no line leads from {} to {}",
                            cities[first].name, cities[c].name
                        ),
                    ));
                }
            }
        }
        Ok(BarsoomMap {
            cities,
            routes,
            from_range,
            distance,
        })
    }

    /// The flights that start from city `c`.
    #[inline]
    pub fn routes_from(&self, c: usize) -> &[Route] {
        let (a, b) = self.from_range[c];
        &self.routes[usize::from(a)..usize::from(b)]
    }

    /// Shortest distance from `a` to `b` in haads.
    #[inline]
    pub fn distance(&self, a: usize, b: usize) -> u16 {
        self.distance[a * self.cities.len() + b]
    }

    /// Index of city `id`.
    pub fn city(&self, id: &str) -> Option<usize> {
        self.cities.iter().position(|c| c.id == id)
    }

    /// The city that is capital `k`.
    pub fn capital_city(&self, k: usize) -> Option<usize> {
        self.cities.iter().position(|c| c.capital == Some(k))
    }
}
