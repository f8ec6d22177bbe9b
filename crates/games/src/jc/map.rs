//! The map of Barsoom, shared by the Military and Strategic Games: cities,
//! lines with their lengths in haads, junctions [9.42] and one-turn lines
//! [9.41], compiled into routes between places and a table of shortest
//! distances.
//!
//! The Military Game reads `barsoom-map.toml` alone; the Strategic Game
//! lays `strategic-map.toml` over it (more cities, lines open to some
//! conveyances only [9.54-9.56], and a junction where thoat riders must stop
//! [9.52]). Every route carries the conveyances that may take it, so one
//! compiled map serves fleets (fliers) and heroes (walking, thoat, flier).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::jc::fleet_tables::JcData;
use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance, id_list};

/// Most cities the Military Game's map may hold (its city sets are `u32`
/// masks).
pub(crate) const MAX_CITIES: usize = 32;
/// Most places any map may hold (cities and waypoints).
pub(crate) const MAX_PLACES: usize = 64;
/// Distance used for a one-turn line in the shortest-distance table.
const ONE_TURN_DISTANCE: u16 = 1;
/// "No such distance" in the shortest-distance table.
pub(crate) const UNREACHABLE: u16 = u16::MAX;
/// Conveyance bit: walking [9.0].
pub const WALK: u8 = 1;
/// Conveyance bit: thoat.
pub const THOAT: u8 = 1 << 1;
/// Conveyance bit: flier.
pub const FLIER: u8 = 1 << 2;
/// Every conveyance.
pub(crate) const ALL_CONVEYANCES: u8 = WALK | THOAT | FLIER;
/// "Through no waypoint" in [`Route::via`].
pub(crate) const NO_WAYPOINT: u8 = u8::MAX;

/// The conveyance bit of a name in the data (`walk`, `thoat`, `flier`).
pub(crate) fn conveyance_bit(name: &str) -> Option<u8> {
    match name {
        "walk" => Some(WALK),
        "thoat" => Some(THOAT),
        "flier" => Some(FLIER),
        _ => None,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    provenance: String,
    #[serde(default)]
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
    /// Conveyances that must stop at the junction as at a city [9.52].
    #[serde(default)]
    waypoint_for: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkFile {
    between: Vec<String>,
    haads: Option<i64>,
    #[serde(default)]
    one_turn: bool,
    /// Conveyances that may use the line (default: all).
    conveyances: Option<Vec<String>>,
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
    /// Not a city but a junction where some conveyances stop [9.52].
    pub waypoint: bool,
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
    /// The conveyances that may take it ([`WALK`], [`THOAT`], [`FLIER`]
    /// bits).
    pub conveyances: u8,
    /// The waypoint junction it passes through, or [`NO_WAYPOINT`].
    pub via: u8,
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
    /// Loads and checks the Military Game's `barsoom-map.toml` (capitals and
    /// neutrals named against `data`, at most [`MAX_CITIES`] cities).
    pub fn load_with(
        file: &Path,
        data: &JcData,
        loader: &mut Loader,
    ) -> Result<Self, ScenarioError> {
        Self::load_layers(&[file], Some(data), MAX_CITIES, loader)
    }

    /// Loads map files laid one over the other (cities, junctions and lines
    /// of all of them; a city may be defined once only) and checks them.
    /// With `data`, capitals and neutrals are named against it and every
    /// capital must be reachable; without it they are ignored.
    pub(crate) fn load_layers(
        files: &[&Path],
        data: Option<&JcData>,
        max_places: usize,
        loader: &mut Loader,
    ) -> Result<Self, ScenarioError> {
        let mut raws: Vec<(PathBuf, MapFile)> = Vec::new();
        for file in files {
            let raw: MapFile = loader.read_toml(file)?;
            check_provenance(file, "provenance", &raw.provenance)?;
            raws.push((file.to_path_buf(), raw));
        }
        let Some(first) = files.first() else {
            return Err(ScenarioError::new(
                Path::new("map"),
                "files",
                "expected at least one map file",
            ));
        };
        // Cities and waypoints of every layer, sorted by id.
        let mut places: BTreeMap<String, (usize, City)> = BTreeMap::new();
        for (f, (file, raw)) in raws.iter().enumerate() {
            let err = |field: String, message: String| ScenarioError::new(file, field, message);
            for (id, c) in &raw.cities {
                let capital = match (&c.capital, data) {
                    (Some(k), Some(data)) => Some(data.capital(k).ok_or_else(|| {
                        err(
                            format!("cities.{id}.capital"),
                            format!(
                                "expected one of the capitals {}, found {k:?}",
                                id_list(data.capitals.iter().map(|c| c.id.as_str()))
                            ),
                        )
                    })?),
                    _ => None,
                };
                let neutral = match (&c.neutral, data) {
                    (Some(n), Some(data)) => Some(data.nation(n).ok_or_else(|| {
                        err(
                            format!("cities.{id}.neutral"),
                            format!(
                                "expected one of the nations {}, found {n:?}",
                                id_list(data.nations.iter().map(|n| n.id.as_str()))
                            ),
                        )
                    })?),
                    _ => None,
                };
                let city = City {
                    id: id.clone(),
                    name: c.name.clone(),
                    capital,
                    neutral,
                    waypoint: false,
                };
                if places.insert(id.clone(), (f, city)).is_some() {
                    return Err(err(
                        format!("cities.{id}"),
                        "expected a city defined in one map file only, found it again".into(),
                    ));
                }
            }
            for (id, j) in &raw.junctions {
                if j.waypoint_for.is_empty() {
                    continue;
                }
                let city = City {
                    id: id.clone(),
                    name: j.name.clone(),
                    capital: None,
                    neutral: None,
                    waypoint: true,
                };
                if places.insert(id.clone(), (f, city)).is_some() {
                    return Err(err(
                        format!("junctions.{id}"),
                        "expected a waypoint junction whose id no city has".into(),
                    ));
                }
            }
        }
        if places.is_empty() || places.len() > max_places {
            return Err(ScenarioError::new(
                first,
                "cities",
                format!("expected 1 to {max_places} places, found {}", places.len()),
            ));
        }
        let cities: Vec<City> = places.into_values().map(|(_, c)| c).collect();
        if let Some(data) = data {
            for (k, capital) in data.capitals.iter().enumerate() {
                if !cities.iter().any(|c| c.capital == Some(k)) {
                    return Err(ScenarioError::new(
                        first,
                        "cities",
                        format!(
                            "expected a city for every capital, found none for {:?}",
                            capital.id
                        ),
                    ));
                }
            }
        }
        let mut routes: Vec<Route> = Vec::new();
        let mut add = |r: Route| {
            // Two ways between the same places for the same conveyances:
            // the shorter is taken.
            match routes
                .iter_mut()
                .find(|o| o.from == r.from && o.to == r.to && o.conveyances == r.conveyances)
            {
                Some(o) if r.one_turn || (!o.one_turn && r.haads < o.haads) => {
                    o.haads = r.haads;
                    o.one_turn = r.one_turn;
                    o.via = r.via;
                }
                Some(_) => {}
                None => routes.push(r),
            }
        };
        for (file, raw) in &raws {
            let err = |field: String, message: String| ScenarioError::new(file, field, message);
            let city_of = |id: &str, field: String| -> Result<u8, ScenarioError> {
                cities
                    .iter()
                    .position(|c| c.id == id && !c.waypoint)
                    .map(|i| i as u8)
                    .ok_or_else(|| {
                        err(
                            field,
                            format!(
                                "expected one of the cities {}, found {id:?}",
                                id_list(
                                    cities.iter().filter(|c| !c.waypoint).map(|c| c.id.as_str())
                                )
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
            let conveyances_of = |list: &[String], field: String| -> Result<u8, ScenarioError> {
                let mut bits = 0;
                for name in list {
                    bits |= conveyance_bit(name).ok_or_else(|| {
                        err(
                            field.clone(),
                            format!("expected walk, thoat or flier, found {name:?}"),
                        )
                    })?;
                }
                Ok(bits)
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
                let conveyances = match &link.conveyances {
                    None => ALL_CONVEYANCES,
                    Some(list) => {
                        let bits = conveyances_of(list, field("conveyances"))?;
                        if bits == 0 {
                            return Err(err(
                                field("conveyances"),
                                "expected at least one of walk, thoat, flier".into(),
                            ));
                        }
                        bits
                    }
                };
                for (from, to) in [(a, b), (b, a)] {
                    add(Route {
                        from,
                        to,
                        haads,
                        one_turn: link.one_turn,
                        conveyances,
                        via: NO_WAYPOINT,
                    });
                }
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
                let stop = conveyances_of(
                    &junction.waypoint_for,
                    format!("junctions.{id}.waypoint_for"),
                )?;
                let waypoint = if stop == 0 {
                    NO_WAYPOINT
                } else {
                    // The stopping conveyances ride to the waypoint, and
                    // leave it on foot [9.52].
                    let w = cities.iter().position(|c| c.id == *id).unwrap_or(0) as u8;
                    for &(a, la) in &legs {
                        add(Route {
                            from: a,
                            to: w,
                            haads: la,
                            one_turn: false,
                            conveyances: stop,
                            via: NO_WAYPOINT,
                        });
                        add(Route {
                            from: w,
                            to: a,
                            haads: la,
                            one_turn: false,
                            conveyances: WALK,
                            via: NO_WAYPOINT,
                        });
                    }
                    w
                };
                for &(a, la) in &legs {
                    for &(b, lb) in &legs {
                        if a != b {
                            add(Route {
                                from: a,
                                to: b,
                                haads: la + lb,
                                one_turn: false,
                                conveyances: ALL_CONVEYANCES & !stop,
                                via: waypoint,
                            });
                        }
                    }
                }
            }
        }
        routes.sort_by_key(|r| (r.from, r.to, r.conveyances));
        let n = cities.len();
        let mut from_range = vec![(0u16, 0u16); n];
        for (c, range) in from_range.iter_mut().enumerate() {
            let start = routes.partition_point(|r| usize::from(r.from) < c);
            let end = routes.partition_point(|r| usize::from(r.from) <= c);
            *range = (start as u16, end as u16);
        }
        let mut map = BarsoomMap {
            cities,
            routes,
            from_range,
            distance: Vec::new(),
        };
        map.distance = map.distances(ALL_CONVEYANCES);
        // Every capital must be reachable from every other (from the first
        // one suffices: the lines run both ways).
        let capitals: Vec<usize> = (0..n)
            .filter(|c| map.cities[*c].capital.is_some())
            .collect();
        if let Some(&first_capital) = capitals.first() {
            for &c in &capitals {
                if map.distance(first_capital, c) == UNREACHABLE {
                    return Err(ScenarioError::new(
                        first,
                        format!("cities.{}", map.cities[c].id),
                        format!(
                            "expected every capital to be reachable, but no line leads from {} to {}",
                            map.cities[first_capital].name, map.cities[c].name
                        ),
                    ));
                }
            }
        }
        Ok(map)
    }

    /// Shortest distances in haads between every pair of places over the
    /// routes open to any of `conveyances` (row-major, `cities.len()`
    /// squared); one-turn lines count 1.
    pub fn distances(&self, conveyances: u8) -> Vec<u16> {
        self.distances_avoiding(conveyances, |_| false)
    }

    /// [`BarsoomMap::distances`] over the routes that touch no place
    /// `closed` rejects (the North Pole for fliers [9.51]): Floyd-Warshall
    /// over at most [`MAX_PLACES`] places.
    pub(crate) fn distances_avoiding(
        &self,
        conveyances: u8,
        closed: impl Fn(usize) -> bool,
    ) -> Vec<u16> {
        let n = self.cities.len();
        let mut distance = vec![UNREACHABLE; n * n];
        for c in 0..n {
            distance[c * n + c] = 0;
        }
        for r in self.routes.iter().filter(|r| {
            r.conveyances & conveyances != 0
                && !closed(usize::from(r.from))
                && !closed(usize::from(r.to))
        }) {
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
        distance
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
}
