//! Befriendment [12.1, 16.3]: when a table says a hero is befriended, the
//! Encounter Friend Table [12.16] (or, for the hand of fate in the villain's
//! city, the City Friend Table [16.38]) says who joins him. A minor
//! character or personage is the first of his code series (lowest code
//! [12.12]) not in play and not dead, from the hero's city or else the
//! nearest city that has one [12.12, 12.15]; warriors of Mars are the
//! city's [12.14]; a hero is the first not in play and not dead in the
//! Prison Companion order [17.15]. Vad Varo's
//! first minor characters and Tan Hadron's first personage are fixed
//! [20.36, 20.37]. Ghek joins only a hero with a female personage [19.45];
//! a female personage may win the hero's heart [13.11, 16.35].

use std::path::Path;

use serde::Deserialize;

use super::consts::NONE;
use super::dice::Roller;
use super::game::{Context, Game, Place};
use super::hooks::FriendSource;
use super::loading::{Look, build_rows, number, provenance};
use super::tables::{DieTable, Entries, RollSpec, TableSpec};
use super::tactics;
use barsoom_engine::Trace;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// Most code spans of one friend row.
pub(crate) const MAX_SPANS: usize = 4;

/// Code series of [3.23] a friend is drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Series {
    /// The spans, both ends included.
    pub spans: [(u16, u16); MAX_SPANS],
    /// How many.
    pub len: u8,
}

impl Series {
    /// Whether code `c` is in one of the spans.
    pub fn contains(&self, c: u16) -> bool {
        self.spans[..usize::from(self.len)]
            .iter()
            .any(|&(a, b)| (a..=b).contains(&c))
    }
}

/// Who befriends the hero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Friend {
    /// Warriors of Mars of the city [12.14, 16.33].
    Warrior(u8),
    /// A minor character [12.12].
    Minor(Series),
    /// A male personage [12.15].
    MalePersonage(Series),
    /// A female personage [12.15].
    FemalePersonage(Series),
    /// A hero not in play [17.15, 19.51].
    Hero,
    /// A slave who admires him and does nothing [16.34].
    PassiveSlave,
    /// A slave girl who joins him [16.35].
    ActiveSlave(Series),
    /// A noble takes him as his slave: set down in this city area, a
    /// Strategic Turn lost [16.36].
    Noble(u8),
}

/// The friend tables.
#[derive(Debug, Clone, PartialEq)]
pub struct FriendTables {
    /// The Encounter Friend Table [12.16].
    pub encounter: DieTable<Friend>,
    /// The City Friend Table [16.38].
    pub city: DieTable<Friend>,
    /// Per hero character, his fixed first friends [20.36, 20.37].
    pub first_friends: Vec<(u8, Vec<u8>)>,
    /// Off every discovery chance of a hero in the city's army [16.33].
    pub army_discovery: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FriendFile {
    provenance: String,
    army_discovery: i64,
    #[serde(default)]
    first_friends: std::collections::BTreeMap<String, Vec<String>>,
    encounter: FriendTableFile,
    city: FriendTableFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FriendTableFile {
    provenance: String,
    rolls: Vec<FriendRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FriendRow {
    roll: RollSpec,
    result: String,
    count: Option<i64>,
    series: Option<Vec<[i64; 2]>>,
    area: Option<String>,
}

/// The results a friend row may have, with the fields each reads.
const RESULTS: [(&str, &[&str]); 8] = [
    ("warrior", &["count"]),
    ("minor", &["series"]),
    ("male-personage", &["series"]),
    ("female-personage", &["series"]),
    ("hero", &[]),
    ("passive-slave", &[]),
    ("active-slave", &["series"]),
    ("noble", &["area"]),
];

impl FriendTables {
    /// Loads `friend-tables.toml`.
    pub fn load_with(
        file: &Path,
        look: &Look,
        entries: &mut Entries,
        loader: &mut Loader,
    ) -> Result<Self, ScenarioError> {
        let raw: FriendFile = loader.read_toml(file)?;
        provenance(file, "provenance", &raw.provenance)?;
        let mut first_friends = Vec::new();
        for (hero, ids) in &raw.first_friends {
            let h = look.character(file, &format!("first_friends.{hero}"), hero)?;
            let mut list = Vec::new();
            for (i, id) in ids.iter().enumerate() {
                list.push(look.character(file, &format!("first_friends.{hero}[{i}]"), id)?);
            }
            first_friends.push((h, list));
        }
        let encounter = table(
            file,
            "encounter",
            "encounter friend",
            &raw.encounter,
            look,
            entries,
        )?;
        let city = table(file, "city", "city friend", &raw.city, look, entries)?;
        Ok(FriendTables {
            encounter,
            city,
            first_friends,
            army_discovery: number(file, "army_discovery", raw.army_discovery, 0..=10)?,
        })
    }
}

fn table(
    file: &Path,
    name: &str,
    label: &str,
    raw: &FriendTableFile,
    look: &Look,
    entries: &mut Entries,
) -> Result<DieTable<Friend>, ScenarioError> {
    provenance(file, &format!("{name}.provenance"), &raw.provenance)?;
    let spec = TableSpec {
        file,
        field: format!("{name}.rolls"),
        name: label.into(),
        faces: (1, 10),
        open_ended: false,
    };
    build_rows(
        &spec,
        &raw.rolls,
        |r| r.roll,
        entries,
        |row, field| friend(file, field, row, look),
    )
}

fn friend(file: &Path, field: &str, row: &FriendRow, look: &Look) -> Result<Friend, ScenarioError> {
    let err = |f: &str, m: String| ScenarioError::new(file, format!("{field}.{f}"), m);
    let Some(&(_, reads)) = RESULTS.iter().find(|(n, _)| *n == row.result) else {
        return Err(err(
            "result",
            format!(
                "expected one of {}, found {:?}",
                RESULTS
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", "),
                row.result
            ),
        ));
    };
    for (set, name) in [
        (row.count.is_some(), "count"),
        (row.series.is_some(), "series"),
        (row.area.is_some(), "area"),
    ] {
        if set && !reads.contains(&name) {
            return Err(err(
                name,
                format!("expected no {name:?} for result {:?}", row.result),
            ));
        }
    }
    let series = || -> Result<Series, ScenarioError> {
        let list = row.series.as_deref().unwrap_or(&[]);
        if list.is_empty() || list.len() > MAX_SPANS {
            return Err(err(
                "series",
                format!(
                    "expected 1 to {MAX_SPANS} code spans [low, high] [3.23], found {}",
                    list.len()
                ),
            ));
        }
        let mut s = Series {
            spans: [(0, 0); MAX_SPANS],
            len: 0,
        };
        for (i, &[a, b]) in list.iter().enumerate() {
            if !(1..=999).contains(&a) || !(a..=999).contains(&b) {
                return Err(err(
                    &format!("series[{i}]"),
                    format!(
                        "expected a code span [low, high] within 1 to 999 [3.23], found [{a}, {b}]"
                    ),
                ));
            }
            s.spans[i] = (a as u16, b as u16);
            s.len += 1;
        }
        Ok(s)
    };
    Ok(match row.result.as_str() {
        "warrior" => match row.count {
            Some(n) if (1..=4).contains(&n) => Friend::Warrior(n as u8),
            other => {
                return Err(err(
                    "count",
                    format!("expected 1 to 4 warriors of Mars, found {other:?}"),
                ));
            }
        },
        "minor" => Friend::Minor(series()?),
        "male-personage" => Friend::MalePersonage(series()?),
        "female-personage" => Friend::FemalePersonage(series()?),
        "hero" => Friend::Hero,
        "passive-slave" => Friend::PassiveSlave,
        "active-slave" => Friend::ActiveSlave(series()?),
        _ => Friend::Noble(look.area(
            file,
            &format!("{field}.area"),
            row.area.as_deref().unwrap_or(""),
        )?),
    })
}

impl Game {
    /// A table says hero `p` is befriended: the friend table of `source`
    /// says by whom [12.11, 16.32].
    pub(crate) fn befriend<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        source: FriendSource,
        r: &mut R,
        trace: &mut T,
    ) {
        let s = &mut self.heroes[p].stats;
        s.friends_offered = s.friends_offered.saturating_add(1);
        let tables = &ctx.data.story.friends;
        let table = if source == FriendSource::HandOfFate {
            &tables.city
        } else {
            &tables.encounter
        };
        let (friend, entry) = table.get(r.d10());
        self.fire(entry);
        let city = self.friend_city(p);
        let joined = match *friend {
            Friend::Warrior(n) => {
                let w = ctx.data.places[usize::from(city)].warriors;
                if source == FriendSource::HandOfFate
                    && self.heroes[p].city.active
                    && tactics::join_army(self, p, r)
                {
                    // [16.33] he joins the city's army instead.
                    self.story.heroes[p].army = true;
                    trace.event("JC 16.33 joins the army", || {
                        format!("{} joins the army of the city", self.name(ctx, p))
                    });
                    return;
                }
                for _ in 0..n {
                    self.heroes[p].join(w);
                }
                Some(w)
            }
            Friend::Minor(series) | Friend::MalePersonage(series) => {
                let fixed = self.first_friend(ctx, p, |k| {
                    series.contains(ctx.data.roster.characters[usize::from(k)].code)
                });
                fixed.or_else(|| self.nearest_free(ctx, city, &series))
            }
            Friend::FemalePersonage(series) | Friend::ActiveSlave(series) => {
                let fixed = self.first_friend(ctx, p, |k| {
                    series.contains(ctx.data.roster.characters[usize::from(k)].code)
                });
                fixed.or_else(|| self.nearest_free(ctx, city, &series))
            }
            Friend::Hero => ctx
                .data
                .prison_heroes
                .iter()
                .copied()
                .find(|&k| self.drawable(k)),
            Friend::PassiveSlave => {
                trace.event("JC 16.34 passive slave", || {
                    format!(
                        "a slave girl admires {} but gives no aid",
                        self.name(ctx, p)
                    )
                });
                return;
            }
            Friend::Noble(area) => {
                if self.heroes[p].city.active {
                    let h = &mut self.heroes[p];
                    h.city.area = area;
                    h.city.house = NONE;
                    h.skip = h.skip.saturating_add(1);
                    trace.event("JC 16.36 a noble's slave", || {
                        format!(
                            "{} becomes a noble's slave: set down in the {}, a Strategic Turn lost",
                            self.name(ctx, p),
                            ctx.data.city_map.areas[usize::from(area)].name
                        )
                    });
                }
                return;
            }
        };
        let Some(k) = joined else {
            trace.event("JC 12.1 no friend", || {
                format!(
                    "{} is befriended, but nobody of that kind is free",
                    self.name(ctx, p)
                )
            });
            return;
        };
        if matches!(friend, Friend::Warrior(_)) {
            trace.event("JC 12.14 warriors befriend", || {
                format!(
                    "{} is joined by {}",
                    self.name(ctx, p),
                    ctx.data.roster.characters[usize::from(k)].name
                )
            });
            return;
        }
        self.friend_joins(ctx, p, k, trace);
        if let Friend::ActiveSlave(_) = friend {
            // [16.35] beyond treachery until she leaves this city; he
            // loves her if he loves nobody yet.
            self.story.heroes[p].slave = (k, city);
        }
    }

    /// A named friend `k` joins hero `p` (unless Ghek finds no female
    /// personage to sing to him [19.45]).
    pub(crate) fn friend_joins<T: Trace>(&mut self, ctx: &Context, p: usize, k: u8, trace: &mut T) {
        let specials = &ctx.data.story.specials;
        if k == specials.ghek.character && !self.has_female_personage(ctx, p) {
            trace.event("JC 19.45 Ghek is hostile", || {
                format!(
                    "Ghek will not join {}: no woman sings to him",
                    self.name(ctx, p)
                )
            });
            return;
        }
        self.heroes[p].join(k);
        self.in_play |= 1u128 << k;
        trace.event("JC 12.1 befriended", || {
            format!(
                "turn {}: {} befriends {}",
                self.turn,
                ctx.data.roster.characters[usize::from(k)].name,
                self.name(ctx, p)
            )
        });
        self.tars_tarkas_joins(ctx, p, k);
        self.note_companions(ctx, p, trace);
    }

    /// The city hero `p` is in, or the one he is bound for [12.12].
    pub(crate) fn friend_city(&self, p: usize) -> u8 {
        match self.heroes[p].place {
            Place::City(c) => c,
            Place::Transit(t) => t.to,
        }
    }

    /// The hero's fixed first friend of a kind, if one is still free
    /// [20.36, 20.37].
    fn first_friend(&self, ctx: &Context, p: usize, kind: impl Fn(u8) -> bool) -> Option<u8> {
        let hero = ctx.data.heroes[usize::from(self.heroes[p].hero)].character;
        let (_, list) = ctx
            .data
            .story
            .friends
            .first_friends
            .iter()
            .find(|(h, _)| *h == hero)?;
        list.iter().copied().find(|&k| kind(k) && self.drawable(k))
    }

    /// The first character of `series` (lowest code) neither in play nor
    /// dead, living in `city` or else in the nearest city with one [12.12,
    /// 12.15].
    pub(crate) fn nearest_free(&self, ctx: &Context, city: u8, series: &Series) -> Option<u8> {
        let data = ctx.data;
        let mut best: Option<(u16, u16, u8)> = None;
        for (k, c) in data.roster.characters.iter().enumerate() {
            if !series.contains(c.code) || !self.drawable(k as u8) {
                continue;
            }
            let Some(home) = data.home(k as u8) else {
                continue;
            };
            let d = data.map.distance(usize::from(city), usize::from(home));
            if best.is_none_or(|(bd, bc, _)| (d, c.code) < (bd, bc)) {
                best = Some((d, c.code, k as u8));
            }
        }
        best.map(|(_, _, k)| k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_holds_its_spans() {
        let s = Series {
            spans: [(101, 200), (901, 950), (0, 0), (0, 0)],
            len: 2,
        };
        assert!(s.contains(101) && s.contains(200) && s.contains(901));
        assert!(!s.contains(201) && !s.contains(0));
    }
}
