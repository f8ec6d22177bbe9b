//! Everything `jc.military` reads from the data folder, checked and
//! compiled: the fleet data of `jc.fleet`, the map, the movement deck, the
//! diplomacy tables and `military.toml` (sides, neutrals, standing rules).

use barsoom_engine::scenario::Load;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::deck::MovementDeck;
use super::diplomacy::DiplomacyTables;
use super::map::BarsoomMap;
use crate::jc::fleet_tables::JcData;
use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance, id_list};

/// Most neutrals.
pub(crate) const MAX_NEUTRALS: usize = 8;
/// Most commanders (commander sets are `u16` masks).
pub(crate) const MAX_COMMANDERS: usize = 16;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MilitaryFile {
    provenance: String,
    rules: RulesFile,
    belligerents: Vec<SideFile>,
    #[serde(default)]
    neutrals: Vec<NeutralFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    reinforcement_interval: i64,
    reinforcement_strength: i64,
    hold_turns_for_extra: i64,
    storm_period: i64,
    storm_roll: i64,
    influence_to_win: i64,
    capture_turns: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    id: String,
    name: String,
    nations: Vec<String>,
    strength: i64,
    commanders: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NeutralFile {
    nation: String,
    city: String,
    strength: i64,
    #[serde(default)]
    commanders: Vec<String>,
}

/// The numbers of the turn sequence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StandingRules {
    /// Reinforcements in Game-Turns divisible by this [24.0].
    pub reinforcement_interval: u16,
    /// Strength points of one reinforcement fleet.
    pub reinforcement_strength: u8,
    /// Turns an enemy capital must be held for an extra fleet [24.12].
    pub hold_turns_for_extra: u16,
    /// Storm rolls begin on multiples of this Turn [22.28].
    pub storm_period: u16,
    /// A storm comes on a d6 of this or less.
    pub storm_roll: u32,
    /// Influence Points that win a neutral [24.21].
    pub influence_to_win: u8,
    /// Turns a captured commander is away [23.26].
    pub capture_turns: u16,
}

/// One player's side.
#[derive(Debug, Clone, PartialEq)]
pub struct SideRules {
    /// Identifier used by scenarios (`helium`, `alliance`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Its nations (indices into the data's nations).
    pub nations: Vec<usize>,
    /// Strength points it sets up [25.1].
    pub strength: u8,
    /// Its commanders and the city each sets up in.
    pub commanders: Vec<(usize, usize)>,
    /// Its home capitals, as cities [24.0].
    pub home_capitals: Vec<usize>,
}

/// One neutral [25.2].
#[derive(Debug, Clone, PartialEq)]
pub struct NeutralRules {
    /// Its nation.
    pub nation: usize,
    /// Its city.
    pub city: usize,
    /// Strength points it starts with.
    pub strength: u8,
    /// Its commanders (mask over the data's commanders).
    pub commanders: u16,
}

/// The compiled data of the Military Game.
#[derive(Debug, Clone)]
pub struct MilitaryRules {
    /// Fleet combat data shared with `jc.fleet`.
    pub data: JcData,
    /// The map.
    pub map: BarsoomMap,
    /// The movement deck.
    pub deck: MovementDeck,
    /// Diplomatic in-fighting tables.
    pub diplomacy: DiplomacyTables,
    /// Turn-sequence numbers.
    pub standing: StandingRules,
    /// The two players, Helium first.
    pub sides: [SideRules; 2],
    /// The neutrals.
    pub neutrals: Vec<NeutralRules>,
    /// Owner (0, 1, or 2 + neutral) of each commander; `u8::MAX` if none.
    pub commander_owner: Vec<u8>,
    /// Cities that are capitals.
    pub capital_cities: Vec<usize>,
}

impl MilitaryRules {
    /// The neutral (index into `neutrals`) whose city `city` is, if any.
    pub(crate) fn neutral_in(&self, city: usize) -> Option<usize> {
        let nation = self.map.cities[city].neutral?;
        self.neutrals.iter().position(|x| x.nation == nation)
    }

    /// The intrinsic defense a fleet of `nation` gets in `city` [23.4].
    pub(crate) fn intrinsic_defense(&self, city: usize, nation: usize) -> u8 {
        match self.map.cities[city].capital {
            Some(k) if self.data.capitals[k].nation == nation => {
                self.data.capitals[k].intrinsic_defense
            }
            _ => 0,
        }
    }
}

impl Load for MilitaryRules {
    /// Loads every data file from `dir`.
    fn load_with(dir: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let data = JcData::load_with(dir, loader)?;
        if data.commanders.len() > MAX_COMMANDERS {
            return Err(ScenarioError::new(
                &dir.join("commanders.toml"),
                "commanders",
                format!(
                    "expected at most {MAX_COMMANDERS} commanders, found {}",
                    data.commanders.len()
                ),
            ));
        }
        let map = BarsoomMap::load_with(&dir.join("barsoom-map.toml"), &data, loader)?;
        let deck = MovementDeck::load_with(&dir.join("movement-deck.toml"), loader)?;
        let diplomacy = DiplomacyTables::load_with(&dir.join("diplomacy.toml"), &data, loader)?;
        let file = dir.join("military.toml");
        let raw: MilitaryFile = loader.read_toml(&file)?;
        let err = |field: String, message: String| ScenarioError::new(&file, field, message);
        check_provenance(&file, "provenance", &raw.provenance)?;
        let r = &raw.rules;
        let ranged = |v: i64, lo: i64, hi: i64, field: &str| -> Result<i64, ScenarioError> {
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(err(
                    format!("rules.{field}"),
                    format!("expected {lo} to {hi}, found {v}"),
                ))
            }
        };
        let standing = StandingRules {
            reinforcement_interval: ranged(
                r.reinforcement_interval,
                1,
                100,
                "reinforcement_interval",
            )? as u16,
            reinforcement_strength: ranged(
                r.reinforcement_strength,
                0,
                9,
                "reinforcement_strength",
            )? as u8,
            hold_turns_for_extra: ranged(r.hold_turns_for_extra, 1, 100, "hold_turns_for_extra")?
                as u16,
            storm_period: ranged(r.storm_period, 1, 1000, "storm_period")? as u16,
            storm_roll: ranged(r.storm_roll, 0, 6, "storm_roll")? as u32,
            influence_to_win: ranged(r.influence_to_win, 1, 99, "influence_to_win")? as u8,
            capture_turns: ranged(r.capture_turns, 1, 100, "capture_turns")? as u16,
        };
        if raw.belligerents.len() != 2 {
            return Err(err(
                "belligerents".into(),
                format!(
                    "expected 2 [[belligerents]] (Helium, then its enemy), found {}",
                    raw.belligerents.len()
                ),
            ));
        }
        let mut commander_owner = vec![u8::MAX; data.commanders.len()];
        // One "expected one of the <kind> ..., found ..." error for every id
        // looked up in a list.
        let lookup = |found: Option<usize>, kind: &str, ids: String, id: &str, field: String| {
            found.ok_or_else(|| {
                err(
                    field,
                    format!("expected one of the {kind} {ids}, found {id:?}"),
                )
            })
        };
        let city_of = |id: &str, field: String| {
            let ids = id_list(map.cities.iter().map(|c| c.id.as_str()));
            lookup(map.city(id), "cities", ids, id, field)
        };
        let nation_of = |id: &str, field: String| {
            let ids = id_list(data.nations.iter().map(|n| n.id.as_str()));
            lookup(data.nation(id), "nations", ids, id, field)
        };
        let commander_of = |id: &str, field: String| {
            let ids = id_list(data.commanders.iter().map(|c| c.id.as_str()));
            lookup(data.commander(id), "commanders", ids, id, field)
        };
        let mut sides = Vec::new();
        for (s, side) in raw.belligerents.iter().enumerate() {
            let field = |f: &str| format!("belligerents[{s}].{f}");
            let mut nations = Vec::new();
            for n in &side.nations {
                nations.push(nation_of(n, field("nations"))?);
            }
            if nations.is_empty() {
                return Err(err(field("nations"), "expected at least one nation".into()));
            }
            let strength = ranged(side.strength, 1, 99, "strength").map_err(|_| {
                err(
                    field("strength"),
                    format!("expected 1 to 99, found {}", side.strength),
                )
            })? as u8;
            let mut commanders = Vec::new();
            for (c, city) in &side.commanders {
                let k = commander_of(c, field("commanders"))?;
                let city = city_of(city, format!("belligerents[{s}].commanders.{c}"))?;
                if !nations.contains(&data.commanders[k].nation) {
                    return Err(err(
                        format!("belligerents[{s}].commanders.{c}"),
                        format!("expected a commander of {}'s nations", side.name),
                    ));
                }
                if commander_owner[k] != u8::MAX {
                    return Err(err(
                        format!("belligerents[{s}].commanders.{c}"),
                        "expected each commander on one side only".into(),
                    ));
                }
                commander_owner[k] = s as u8;
                commanders.push((k, city));
            }
            let home_capitals: Vec<usize> = (0..map.cities.len())
                .filter(|c| {
                    map.cities[*c]
                        .capital
                        .is_some_and(|k| nations.contains(&data.capitals[k].nation))
                })
                .collect();
            if home_capitals.is_empty() {
                return Err(err(
                    field("nations"),
                    format!(
                        "expected {} to have at least one capital on the map",
                        side.name
                    ),
                ));
            }
            sides.push(SideRules {
                id: side.id.clone(),
                name: side.name.clone(),
                nations,
                strength,
                commanders,
                home_capitals,
            });
        }
        if raw.neutrals.len() > MAX_NEUTRALS {
            return Err(err(
                "neutrals".into(),
                format!(
                    "expected at most {MAX_NEUTRALS} neutrals, found {}",
                    raw.neutrals.len()
                ),
            ));
        }
        let mut neutrals = Vec::new();
        for (i, n) in raw.neutrals.iter().enumerate() {
            let field = |f: &str| format!("neutrals[{i}].{f}");
            let nation = nation_of(&n.nation, field("nation"))?;
            if sides.iter().any(|s| s.nations.contains(&nation)) {
                return Err(err(
                    field("nation"),
                    format!(
                        "expected a nation that neither player owns, found {:?}",
                        n.nation
                    ),
                ));
            }
            let city = city_of(&n.city, field("city"))?;
            if map.cities[city].neutral != Some(nation) {
                return Err(err(
                    field("city"),
                    format!(
                        "expected the city the map marks as {:?}'s own, found {:?}",
                        n.nation, n.city
                    ),
                ));
            }
            let strength = u8::try_from(n.strength)
                .ok()
                .filter(|s| (1..=99).contains(s))
                .ok_or_else(|| {
                    err(
                        field("strength"),
                        format!("expected 1 to 99, found {}", n.strength),
                    )
                })?;
            let mut commanders = 0u16;
            for c in &n.commanders {
                let k = commander_of(c, field("commanders"))?;
                if commander_owner[k] != u8::MAX {
                    return Err(err(
                        field("commanders"),
                        format!("expected each commander on one side only, found {c:?} twice"),
                    ));
                }
                commander_owner[k] = (2 + i) as u8;
                commanders |= 1 << k;
            }
            neutrals.push(NeutralRules {
                nation,
                city,
                strength,
                commanders,
            });
        }
        let capital_cities = (0..map.cities.len())
            .filter(|c| map.cities[*c].capital.is_some())
            .collect();
        let [helium, alliance]: [SideRules; 2] = match sides.try_into() {
            Ok(s) => s,
            Err(_) => unreachable!("two sides checked above"),
        };
        Ok(MilitaryRules {
            data,
            map,
            deck,
            diplomacy,
            standing,
            sides: [helium, alliance],
            neutrals,
            commander_owner,
            capital_cities,
        })
    }
}
