//! `strategic-rules.toml`: the set-up and standing numbers [20], the City
//! Sub-game's rules and each hero's rules and villain table.

use std::path::Path;

use serde::Deserialize;

use super::charts::{ChartsFile, FinalRows};
use super::common::Places;
use crate::jc::duel::roster::{Class, Roster};
use crate::jc::map::BarsoomMap;
use crate::jc::strategic::consts;
use crate::jc::strategic::consts::{MAX_HENCHMEN, MAX_VILLAINS};
use crate::jc::strategic::tables::{
    self, DieTable, Entries, Foes, Lookup, RawFoe, RawRow, TableSpec, Who,
};
use barsoom_engine::scenario::check_provenance;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// Most characters a hero starts with.
pub const MAX_START_RETINUE: usize = 4;

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

/// The set-up and standing numbers of `strategic-rules.toml`.
pub(super) struct Setup {
    pub(super) start: u8,
    pub(super) quiet: Vec<u64>,
    pub(super) humanoid: Vec<String>,
    pub(super) prison_heroes: Vec<u8>,
    pub(super) nameless_villain: u8,
    pub(super) city: CityRules,
    pub(super) heroes: Vec<HeroRules>,
}

/// `strategic-rules.toml`: set-up and standing numbers [20], with each
/// hero's column of the Final Destination Chart [10.43].
pub(super) fn load_rules(
    dir: &Path,
    roster: &Roster,
    map: &BarsoomMap,
    places_of: &Places,
    raw_charts: &ChartsFile,
    entries: &mut Entries,
    loader: &mut Loader,
) -> Result<Setup, ScenarioError> {
    // Set-up and standing numbers.
    let file = dir.join("strategic-rules.toml");
    let raw: RulesFile = loader.read_toml(&file)?;
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
    if heroes.is_empty() || heroes.len() > consts::MAX_PLAYERS {
        return Err(ScenarioError::new(
            &file,
            "heroes",
            format!(
                "expected 1 to {} heroes, found {}",
                consts::MAX_PLAYERS,
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
