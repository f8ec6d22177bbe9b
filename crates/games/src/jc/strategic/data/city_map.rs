//! `city-map.toml`: the city map's areas, houses and arrows [15], and the
//! extents the corner towers mark out on it (the City Sub-game's
//! introduction): what lies outside a city's extent counts as deserted
//! there.

use std::path::Path;

use serde::Deserialize;

use barsoom_engine::scenario::check_provenance;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// Most areas of the city map (area sets are `u16`).
pub const MAX_CITY_AREAS: usize = 16;

/// Most houses in one area, and rooms in one house.
pub const MAX_HOUSES: u8 = 8;

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
    /// The extents a city may have: its id and the areas inside its four
    /// corner towers (bit per area).
    pub extents: Vec<(String, u16)>,
}

impl CityMap {
    /// Fewest area moves from `a` to `b`.
    #[inline]
    pub fn steps(&self, a: u8, b: u8) -> u8 {
        self.steps[usize::from(a) * self.areas.len() + usize::from(b)]
    }

    /// Every area of the map (bit per area): a city with no extent named.
    pub fn whole(&self) -> u16 {
        ((1u32 << self.areas.len()) - 1) as u16
    }

    /// The areas of the extent `id`, if the map has it.
    pub fn extent(&self, id: &str) -> Option<u16> {
        self.extents.iter().find(|e| e.0 == id).map(|e| e.1)
    }
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
    #[serde(default)]
    extents: Vec<ExtentFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtentFile {
    id: String,
    areas: Vec<String>,
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

/// Loads and checks the city map.
pub(super) fn load_city_map(file: &Path, loader: &mut Loader) -> Result<CityMap, ScenarioError> {
    let raw: CityMapFile = loader.read_toml(file)?;
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
    let mut extents: Vec<(String, u16)> = Vec::new();
    for (i, e) in raw.extents.iter().enumerate() {
        if extents.iter().any(|x| x.0 == e.id) {
            return Err(err(
                format!("extents[{i}].id"),
                format!("expected each extent once, found {:?} again", e.id),
            ));
        }
        let mut inside = 0u16;
        for id in &e.areas {
            inside |= 1 << area_of(id, format!("extents[{i}].areas"))?;
        }
        // The city proper always holds the gate a hero comes in by, the
        // palace and the tower arena of its prisoners [17.1].
        for (what, a) in [("entry", entry), ("palace", palace), ("prison", prison)] {
            if inside & (1 << a) == 0 {
                return Err(err(
                    format!("extents[{i}].areas"),
                    format!(
                        "expected the {what} area {:?} inside every extent, found it missing",
                        areas[usize::from(a)].id
                    ),
                ));
            }
        }
        extents.push((e.id.clone(), inside));
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
        extents,
    })
}
