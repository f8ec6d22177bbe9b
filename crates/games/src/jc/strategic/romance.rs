//! Love and romance [13], treachery [12.2] and remorse [12.3].
//!
//! **Love.** A hero who is neither mated nor engaged falls in love with the
//! earliest female personage to befriend him (a rescued captive counts as
//! a friend here), and she with him [13.11, 13.15], unless they are kin
//! [13.24], she betrayed him [13.13] or she never loves [19.14, 19.51]. A
//! loved personage who is carried off becomes his destined princess: she
//! never betrays him and he loves no other [13.14]. John Carter starts mated
//! to Dejah Thoris [20.31].
//!
//! **Who may betray.** A minor character (never Woola, Kar Komak, Ghek
//! [19.14, 19.43], nor a warrior of Mars [12.14]) while the hero loves or is
//! mated to a personage who has travelled with him [13.32]. A female
//! personage with him: never his princess [13.14], his kin or the other
//! half of a couple of [13.24], an active slave still in her city [16.35];
//! his first love not until he has befriended another [13.11]; with an
//! engaged or mated hero only two Strategic Turns after she befriended him
//! [13.22]; and one of his female friends is always safe [13.12]. Nobody
//! named safe by cards 64-65 or made a staunch friend [13.23, 13.31].
//!
//! **Treachery** [12.2]. Away from the villain's city a card needs a
//! candidate and a loved personage with the hero (a female candidate of
//! [13.22] needs only herself); the traitor goes over to the villain (a
//! minor character as a henchman within the entourage limit [10.5], a
//! personage to his captives), the loved personage is carried off with
//! him, and the villain's discovery rolls come one easier until the hero is
//! next discovered [12.22]. In the villain's city the hero is discovered
//! and fights five warriors of Mars alone, moving secretly afterwards in
//! the final destination [12.23]. The villain's one try in his own city
//! [13.23] and his one roll per game on a minor character [13.31] are
//! played too.
//!
//! **Remorse** [12.3]. A repentant female traitor brings back the
//! personage her hero loves if the villain holds her, else kills a minor
//! character (or a warrior) of the entourage, and leaves the game; a
//! repentant minor character stops an unspeakable act and joins the hero
//! when the hero reaches his display, unless the villain first duels him
//! in the room of the act and wins [12.32].
//!
//! **Unspeakable acts** [13.4]: the villain and his captive are revealed
//! (room and all); he gets three City Sub-sequences in which to reach them, and
//! the Unspeakable Act Table is read if he fails or is beaten there [13.44],
//! with the exceptions of [19.21]. Until he reaches the villain's house the
//! hero fights berserk, and there he must reach the villain in time [13.43]
//! (`jc.duel`'s [`crate::jc::duel::cards`], wired in
//! [`Game::fight`]).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::city::Flow;
use super::consts::{CAPTIVE_QUARRY, NO_PLACE, NONE, VILLAIN_QUARRY};
use super::dice::Roller;
use super::duels::{Company, FightOptions};
use super::game::{Context, Game, Place};
use super::loading::{Look, build_rows, number, provenance};
use super::tables::{DieTable, Entries, HOUSE, PALACE, RollSpec, STREET, TableSpec};
use super::tactics;
use crate::jc::duel::model::Entry;
use crate::jc::duel::roster::Class;
use crate::jc::duel::sequence::MAX_FIGHTERS;
use barsoom_engine::Trace;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// What the Unspeakable Act Table says [13.45].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActResult {
    /// A timely interruption: nothing comes of it.
    Interrupted,
    /// She dies rather than yield.
    TakesHerLife,
    /// The act is done: her hero can never fulfil love [20.52].
    Corrupted,
}

impl ActResult {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "interrupted" => Some(ActResult::Interrupted),
            "takes-her-life" => Some(ActResult::TakesHerLife),
            "corrupted" => Some(ActResult::Corrupted),
            _ => None,
        }
    }
}

/// The rules' numbers for love and treachery, and the Unspeakable Act
/// Table.
#[derive(Debug, Clone, PartialEq)]
pub struct RomanceRules {
    /// Related characters [13.24].
    pub related: u128,
    /// Couples who never betray each other [13.24].
    pub couples: Vec<(u8, u8)>,
    /// Heroes mated from the start, with their mates [20.31].
    pub mated: Vec<(u8, u8)>,
    /// Never in love [19.14, 19.51].
    pub never_in_love: u128,
    /// Never treacherous [19.14, 19.43].
    pub never_treacherous: u128,
    /// Strategic Turns before a female friend of an engaged hero may
    /// betray him [13.22].
    pub betrayal_delay: u8,
    /// The villain's try in his city: treachery on this span [13.23].
    pub villain_city_betrayal: (u8, u8),
    /// The villain's roll on a minor character: treachery on this span
    /// [13.31].
    pub minor_betrayal: (u8, u8),
    /// Discovery rolls one easier after treachery [12.22].
    pub betrayal_discovery: u8,
    /// Warriors of Mars fought alone after treachery in the villain's city
    /// [12.23].
    pub treachery_warriors: u8,
    /// City Sub-sequences to reach a threatened captive [13.42].
    pub unspeakable_subsequences: u8,
    /// The Unspeakable Act Table [13.45].
    pub unspeakable: DieTable<ActResult>,
    /// What happens instead to these personages [19.21].
    pub instead: Vec<(u8, ActResult)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RomanceFile {
    provenance: String,
    related: Vec<String>,
    couples: Vec<[String; 2]>,
    mated: Vec<[String; 2]>,
    never_in_love: Vec<String>,
    never_treacherous: Vec<String>,
    betrayal_delay: i64,
    villain_city_betrayal: [i64; 2],
    minor_betrayal: [i64; 2],
    betrayal_discovery: i64,
    treachery_warriors: i64,
    unspeakable_subsequences: i64,
    unspeakable_act: ActFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActFile {
    provenance: String,
    rolls: Vec<ActRow>,
    #[serde(default)]
    instead: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActRow {
    roll: RollSpec,
    result: String,
}

const ACT_RESULTS: &str = "interrupted, takes-her-life or corrupted";

impl RomanceRules {
    /// Loads `romance.toml`.
    pub fn load_with(
        file: &Path,
        look: &Look,
        entries: &mut Entries,
        loader: &mut Loader,
    ) -> Result<Self, ScenarioError> {
        let raw: RomanceFile = loader.read_toml(file)?;
        provenance(file, "provenance", &raw.provenance)?;
        provenance(
            file,
            "unspeakable_act.provenance",
            &raw.unspeakable_act.provenance,
        )?;
        let pairs = |list: &[[String; 2]], field: &str| -> Result<Vec<(u8, u8)>, ScenarioError> {
            let mut out = Vec::new();
            for (i, [a, b]) in list.iter().enumerate() {
                out.push((
                    look.of_class(file, &format!("{field}[{i}][0]"), a, &[Class::Hero])?,
                    look.of_class(file, &format!("{field}[{i}][1]"), b, &[Class::Personage])?,
                ));
            }
            Ok(out)
        };
        let n = |v: i64, field: &str, range| number(file, field, v, range);
        let span = |v: [i64; 2], field: &str| -> Result<(u8, u8), ScenarioError> {
            if (1..=10).contains(&v[0]) && (v[0]..=10).contains(&v[1]) {
                Ok((v[0] as u8, v[1] as u8))
            } else {
                Err(ScenarioError::new(
                    file,
                    field,
                    format!(
                        "expected a span [low, high] of a ten-sided die, found [{}, {}]",
                        v[0], v[1]
                    ),
                ))
            }
        };
        let spec = TableSpec {
            file,
            field: "unspeakable_act.rolls".into(),
            name: "unspeakable act".into(),
            faces: (1, 10),
            open_ended: false,
        };
        let rolls = &raw.unspeakable_act.rolls;
        let unspeakable = build_rows(
            &spec,
            rolls,
            |r| r.roll,
            entries,
            |row, field| {
                ActResult::parse(&row.result).ok_or_else(|| {
                    ScenarioError::new(
                        file,
                        format!("{field}.result"),
                        format!("expected {ACT_RESULTS}, found {:?}", row.result),
                    )
                })
            },
        )?;
        let mut instead = Vec::new();
        for (id, result) in &raw.unspeakable_act.instead {
            let field = format!("unspeakable_act.instead.{id}");
            let k = look.of_class(file, &field, id, &[Class::Personage])?;
            let r = ActResult::parse(result).ok_or_else(|| {
                ScenarioError::new(
                    file,
                    &field,
                    format!("expected {ACT_RESULTS}, found {result:?}"),
                )
            })?;
            instead.push((k, r));
        }
        Ok(RomanceRules {
            related: look.set(file, "related", &raw.related)?,
            couples: pairs(&raw.couples, "couples")?,
            mated: pairs(&raw.mated, "mated")?,
            never_in_love: look.set(file, "never_in_love", &raw.never_in_love)?,
            never_treacherous: look.set(file, "never_treacherous", &raw.never_treacherous)?,
            betrayal_delay: n(raw.betrayal_delay, "betrayal_delay", 0..=20)?,
            villain_city_betrayal: span(raw.villain_city_betrayal, "villain_city_betrayal")?,
            minor_betrayal: span(raw.minor_betrayal, "minor_betrayal")?,
            betrayal_discovery: n(raw.betrayal_discovery, "betrayal_discovery", 0..=9)?,
            treachery_warriors: n(
                raw.treachery_warriors,
                "treachery_warriors",
                1..=MAX_FIGHTERS as i64 / 2,
            )?,
            unspeakable_subsequences: n(
                raw.unspeakable_subsequences,
                "unspeakable_subsequences",
                1..=20,
            )?,
            unspeakable,
            instead,
        })
    }

    /// Whether hero character `h` and personage `k` are kin [13.24].
    pub(crate) fn kin(&self, h: u8, k: u8) -> bool {
        self.related & (1u128 << h) != 0 && self.related & (1u128 << k) != 0
    }

    /// Whether `h` and `k` are a couple who never betray each other
    /// [13.24].
    pub(crate) fn couple(&self, h: u8, k: u8) -> bool {
        self.couples.iter().any(|&(a, b)| a == h && b == k)
    }
}

/// Whether roster character `k` is a female personage [3.23].
pub(crate) fn female(ctx: &Context, k: u8) -> bool {
    let c = &ctx.data.roster.characters[usize::from(k)];
    c.class == Class::Personage && matches!(c.code, 401..=450 | 501..=550 | 601..=650)
}

impl Game {
    /// Whether a female personage travels with hero `p`.
    pub(crate) fn has_female_personage(&self, ctx: &Context, p: usize) -> bool {
        self.heroes[p].retinue().iter().any(|&k| female(ctx, k))
    }

    /// The hero's character for the rules of kin and couples (his own, not
    /// a body he borrows [19.31]).
    fn own_character(&self, p: usize) -> u8 {
        let s = &self.story.heroes[p];
        if s.body != NONE {
            s.body
        } else {
            self.heroes[p].character
        }
    }

    /// Sets up what hero `p` starts with: a mate [20.31].
    pub(crate) fn start_story(&mut self, ctx: &Context, p: usize) {
        let h = self.own_character(p);
        if let Some(&(_, mate)) = ctx.data.story.romance.mated.iter().find(|(a, _)| *a == h) {
            let s = &mut self.story.heroes[p];
            s.princess = mate;
            s.mated = true;
        }
    }

    /// Notes every female personage with hero `p` as having befriended him
    /// (from this turn if new), and lets him fall in love [13.11].
    pub(crate) fn note_companions<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let turn = self.turn;
        let city = match self.heroes[p].place {
            Place::City(c) => c,
            Place::Transit(_) => NO_PLACE,
        };
        let hero = self.own_character(p);
        let rules = &ctx.data.story.romance;
        for i in 0..self.heroes[p].retinue().len() {
            let k = self.heroes[p].retinue()[i];
            if !female(ctx, k) || self.story.heroes[p].bond(k).is_some() {
                continue;
            }
            self.story.heroes[p].add_bond(k, turn, city);
            let s = &self.story.heroes[p];
            let may_love = s.love == NONE
                && !s.engaged()
                && !rules.kin(hero, k)
                && (rules.never_in_love & ((1u128 << k) | (1u128 << hero))) == 0
                && s.betrayed_by & (1u128 << k) == 0;
            if may_love {
                self.story.heroes[p].love = k;
                trace.event("JC 13.11 love", || {
                    format!(
                        "{} and {} fall in love",
                        self.name(ctx, p),
                        ctx.data.roster.characters[usize::from(k)].name
                    )
                });
            }
        }
    }

    /// Whether the hero's love or princess travels with him: the personage
    /// in love with him, and he with her, of [12.22].
    pub(crate) fn love_present(&self, p: usize) -> Option<u8> {
        let s = &self.story.heroes[p];
        [s.love, s.princess]
            .into_iter()
            .find(|&k| k != NONE && self.heroes[p].has(k))
    }

    /// Whether `k`, with hero `p`, may betray him now [12.2, 13.1-13.3].
    pub(crate) fn may_betray(&self, ctx: &Context, p: usize, k: u8) -> bool {
        let rules = &ctx.data.story.romance;
        let s = &self.story.heroes[p];
        let bit = 1u128 << k;
        if !self.heroes[p].has(k)
            || rules.never_treacherous & bit != 0
            || s.safe == k
            || s.staunch & bit != 0
            || (s.slave.0 == k && self.heroes[p].city() == Some(s.slave.1))
        {
            return false;
        }
        let c = &ctx.data.roster.characters[usize::from(k)];
        let hero = self.own_character(p);
        if female(ctx, k) {
            if k == s.princess || rules.kin(hero, k) || rules.couple(hero, k) {
                return false;
            }
            let Some(since) = s.bond(k) else {
                return false;
            };
            // [13.11] his first love, only once he has another friend.
            if k == s.love && s.bonds_len < 2 {
                return false;
            }
            // [13.22] two Turns' grace with an engaged or mated hero.
            if s.engaged() && self.turn < since.saturating_add(u16::from(rules.betrayal_delay)) {
                return false;
            }
            // [13.12] one of his female friends is always safe.
            let female_traitors = s
                .bonds()
                .iter()
                .filter(|b| s.betrayed_by & (1u128 << b.character) != 0)
                .count();
            return female_traitors + 1 < usize::from(s.bonds_len);
        }
        // [13.32] a minor character, while the hero loves a personage who
        // has travelled with him.
        c.class == Class::Minor
            && [s.love, s.princess]
                .iter()
                .any(|&l| l != NONE && s.bond(l).is_some())
    }

    /// The candidates for treachery with hero `p` (roster indices, as a
    /// bit set).
    pub(crate) fn treachery_candidates(&self, ctx: &Context, p: usize) -> u128 {
        self.heroes[p]
            .retinue()
            .iter()
            .filter(|&&k| self.may_betray(ctx, p, k))
            .fold(0u128, |set, &k| set | (1u128 << k))
    }

    /// Whether a treachery card may be played against hero `p` on `k`
    /// [12.22]: in his villain's city any candidate will do; elsewhere a
    /// loved personage must be with him, unless `k` is a female friend of
    /// an engaged hero [13.22].
    pub(crate) fn treachery_allowed(&self, ctx: &Context, p: usize, k: u8) -> bool {
        if !self.may_betray(ctx, p, k) {
            return false;
        }
        self.in_villain_city(p)
            || self.love_present(p).is_some_and(|l| l != k)
            || (female(ctx, k) && self.story.heroes[p].engaged())
    }

    /// `k` betrays hero `p` [12.2]: over to the villain, with the loved
    /// personage; in the villain's city the fight of [12.23]. Returns what
    /// the city game does next (in the villain's city).
    pub(crate) fn betray<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        k: u8,
        r: &mut R,
        trace: &mut T,
    ) -> Option<Flow> {
        trace.event("JC 12.2 treachery", || {
            format!(
                "turn {}: {} betrays {}",
                self.turn,
                ctx.data.roster.characters[usize::from(k)].name,
                self.name(ctx, p)
            )
        });
        let loved = self.love_present(p).filter(|&l| l != k);
        self.story.heroes[p].betrayed_by |= 1u128 << k;
        self.send_to_villain(ctx, p, k);
        // [13.13] his love goes to another friend.
        if self.story.heroes[p].love == k {
            let s = &self.story.heroes[p];
            let next =
                s.bonds().iter().map(|b| b.character).find(|&o| {
                    o != k && self.heroes[p].has(o) && s.betrayed_by & (1u128 << o) == 0
                });
            self.story.heroes[p].love = next.unwrap_or(NONE);
        }
        if let Some(l) = loved {
            self.abduct(ctx, p, l, trace);
        }
        if !self.in_villain_city(p) || !self.heroes[p].city.active {
            self.story.heroes[p].betrayed_discovery = true;
            return None;
        }
        // [12.23] discovered, and five warriors of Mars to fight alone.
        let h = &mut self.heroes[p];
        h.stats.discoveries = h.stats.discoveries.saturating_add(1);
        h.city.discoveries = h.city.discoveries.saturating_add(1);
        let warriors = ctx.data.places[usize::from(self.parties[p].city)].warriors;
        let n = usize::from(ctx.data.story.romance.treachery_warriors).min(MAX_FIGHTERS / 2);
        let foes = [(warriors, 0u8); MAX_FIGHTERS];
        let alone = FightOptions {
            company: Company::Alone([NONE, NONE]),
            ..FightOptions::on(STREET)
        };
        let fought = self.fight(ctx, p, &foes[..n], alone, r, trace);
        if !fought.won {
            return Some(self.imprison(ctx, p, r, trace));
        }
        if self.parties[p].at_final {
            self.heroes[p].city.secret = true;
        }
        Some(Flow::Continue)
    }

    /// Character `k` leaves hero `p` for the villain: a fighter as a
    /// henchman (within the limit [10.5], else gone), a personage among
    /// the villain's captives.
    fn send_to_villain(&mut self, ctx: &Context, p: usize, k: u8) {
        self.heroes[p].leave_character(k);
        if !super::game::party_present(&self.parties[p]) {
            // Nobody is left to take him in: he goes his own way, alive
            // (he may be met again).
            self.in_play &= !(1u128 << k);
        } else if ctx.data.roster.characters[usize::from(k)].class == Class::Personage {
            self.hold(ctx, p, k);
        } else if self.add_henchmen(p, &[k]) == 0 {
            // No room in the entourage [10.5]: he leaves alive.
            self.in_play &= !(1u128 << k);
        }
    }

    /// The villain of hero `p` holds personage `k`: as the captive if she
    /// is the hero's own captive or his princess and the slot is free
    /// (he must rescue her for his love [20.52]), else among the others he
    /// holds.
    fn hold(&mut self, ctx: &Context, p: usize, k: u8) {
        let princess = self.story.heroes[p].princess == k;
        if self.parties[p].captive == NONE && (princess || self.is_captive_of(ctx, p, k)) {
            self.parties[p].captive = k;
        } else {
            self.story.heroes[p].held |= 1u128 << k;
        }
    }

    /// Personage `k` is carried off from hero `p` to his villain; if he
    /// loved her she becomes his destined princess [13.14].
    pub(crate) fn abduct<T: Trace>(&mut self, ctx: &Context, p: usize, k: u8, trace: &mut T) {
        let s = &mut self.story.heroes[p];
        if s.love == k {
            s.princess = k;
        }
        self.send_to_villain(ctx, p, k);
        trace.event("JC 13.14 abducted", || {
            format!(
                "{} is carried off from {} to the villain",
                ctx.data.roster.characters[usize::from(k)].name,
                self.name(ctx, p)
            )
        });
    }

    /// Personages held besides the captive come back with her [17.1, 20.32].
    pub(crate) fn free_held<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let held = self.story.heroes[p].held;
        self.freed_from_dungeon(ctx, p, held, trace);
    }

    /// The held personages of `freed` (bit per character) join hero `p`:
    /// freed from the palace's dungeon [5.55, 17.1] or with the captive.
    pub(crate) fn freed_from_dungeon<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        freed: u128,
        trace: &mut T,
    ) {
        let held = self.story.heroes[p].held & freed;
        self.story.heroes[p].held &= !held;
        for k in 0..128u8 {
            if held & (1u128 << k) != 0 {
                self.heroes[p].join(k);
                trace.event("JC 17.1 freed", || {
                    format!(
                        "{} frees {}",
                        self.name(ctx, p),
                        ctx.data.roster.characters[usize::from(k)].name
                    )
                });
            }
        }
    }

    /// The traitors of hero `p` a remorse card may be played on [12.3].
    pub(crate) fn remorse_targets(&self, p: usize) -> u128 {
        let s = &self.story.heroes[p];
        let party = &self.parties[p];
        let mut with_villain = s.held;
        if party.captive != NONE {
            with_villain |= 1u128 << party.captive;
        }
        for &k in party.henchmen() {
            with_villain |= 1u128 << k;
        }
        s.betrayed_by & !s.repented & with_villain
    }

    /// Remorse on traitor `k` of hero `p` [12.31, 12.32].
    pub(crate) fn repent<T: Trace>(&mut self, ctx: &Context, p: usize, k: u8, trace: &mut T) {
        self.story.heroes[p].repented |= 1u128 << k;
        if !female(ctx, k) {
            trace.event("JC 12.32 remorse", || {
                format!(
                    "{} repents his treachery against {}",
                    ctx.data.roster.characters[usize::from(k)].name,
                    self.name(ctx, p)
                )
            });
            return;
        }
        // [12.31] she saves his love, or kills a henchman, and dies.
        let s = self.story.heroes[p];
        let party = self.parties[p];
        let love = [s.love, s.princess]
            .into_iter()
            .find(|&l| l != NONE && l != k && (party.captive == l || s.held & (1u128 << l) != 0));
        let deed = if let Some(l) = love {
            if self.parties[p].captive == l {
                self.parties[p].captive = NONE;
            }
            self.story.heroes[p].held &= !(1u128 << l);
            self.heroes[p].join(l);
            format!(
                "brings {} back",
                ctx.data.roster.characters[usize::from(l)].name
            )
        } else {
            let roster = &ctx.data.roster;
            let henchmen = party.henchmen();
            let victim = henchmen
                .iter()
                .position(|&h| roster.characters[usize::from(h)].class == Class::Minor)
                .or_else(|| {
                    henchmen
                        .iter()
                        .position(|&h| roster.characters[usize::from(h)].class == Class::Warrior)
                });
            match victim {
                Some(i) => {
                    let v = henchmen[i];
                    let party = &mut self.parties[p];
                    let n = usize::from(party.henchmen_len);
                    party.henchmen.copy_within(i + 1..n, i);
                    party.henchmen_len -= 1;
                    self.slay(ctx, v);
                    format!("kills {}", roster.characters[usize::from(v)].name)
                }
                None => "finds nobody to strike".to_string(),
            }
        };
        if self.parties[p].captive == k {
            self.parties[p].captive = NONE;
        }
        self.story.heroes[p].held &= !(1u128 << k);
        self.slay(ctx, k);
        trace.event("JC 12.31 remorse", || {
            format!(
                "{} repents, {deed} for {}, and takes her own life",
                ctx.data.roster.characters[usize::from(k)].name,
                self.name(ctx, p)
            )
        });
    }

    /// Repentant traitors of hero `p` among his villain's henchmen come
    /// over to him as he reaches the villain's display [12.32].
    pub(crate) fn repentant_join<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let repented = self.story.heroes[p].repented;
        let mut i = 0;
        while i < usize::from(self.parties[p].henchmen_len) {
            let k = self.parties[p].henchmen[i];
            if repented & (1u128 << k) != 0 {
                let party = &mut self.parties[p];
                let n = usize::from(party.henchmen_len);
                party.henchmen.copy_within(i + 1..n, i);
                party.henchmen_len -= 1;
                self.heroes[p].join(k);
                self.story.heroes[p].betrayed_by &= !(1u128 << k);
                trace.event("JC 12.32 joins the hero", || {
                    format!(
                        "{} comes over to {}",
                        ctx.data.roster.characters[usize::from(k)].name,
                        self.name(ctx, p)
                    )
                });
            } else {
                i += 1;
            }
        }
    }

    /// The villain of hero `p` threatens his captive [13.41]: the hero
    /// learns where, and the count of [13.42] starts.
    pub(crate) fn start_unspeakable_act<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        trace: &mut T,
    ) {
        let party = &mut self.parties[p];
        party.spots[VILLAIN_QUARRY] = party.spots[CAPTIVE_QUARRY];
        let c = &mut self.heroes[p].city;
        c.knows = [3, 3];
        self.story.heroes[p].act = ctx.data.story.romance.unspeakable_subsequences;
        trace.event("JC 13.41 unspeakable act", || {
            format!(
                "turn {}: {}'s villain means to dishonour {}; the hero knows where",
                self.turn,
                self.name(ctx, p),
                ctx.data.roster.characters[usize::from(self.parties[p].captive)].name
            )
        });
    }

    /// The hero failed to stop the act [13.44]: unless a repentant traitor
    /// prevents it [12.32], the Unspeakable Act Table.
    pub(crate) fn unspeakable_act_table<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        self.story.heroes[p].act = 0;
        let victim = self.parties[p].captive;
        if victim == NONE {
            return;
        }
        let repented = self.story.heroes[p].repented;
        if let Some(k) = self.parties[p]
            .henchmen()
            .iter()
            .copied()
            .find(|&k| repented & (1u128 << k) != 0)
        {
            trace.event("JC 12.32 act prevented", || {
                "a repentant traitor prevents the act".to_string()
            });
            self.villain_duels_repentant(ctx, p, k, r, trace);
            return;
        }
        let rules = &ctx.data.story.romance;
        let (result, entry) = rules.unspeakable.get(r.d10());
        self.fire(entry);
        let result = match *result {
            ActResult::Corrupted => rules
                .instead
                .iter()
                .find(|(k, _)| *k == victim)
                .map_or(ActResult::Corrupted, |(_, r)| *r),
            other => other,
        };
        trace.event("JC 13.45 unspeakable act", || {
            format!(
                "{}: {result:?}",
                ctx.data.roster.characters[usize::from(victim)].name
            )
        });
        match result {
            ActResult::Interrupted => {}
            ActResult::TakesHerLife => self.captive_dies(ctx, p),
            ActResult::Corrupted => self.heroes[p].love_barred = true,
        }
    }

    /// [12.32] The villain of hero `p` may at once duel `k`, the repentant
    /// who prevented his act, in the room where it was to be done (house or
    /// palace): beaten, the repentant dies; the victor stays and comes over
    /// when the hero reaches the villain, as before. A beaten villain lives:
    /// the rules end a villain only by his hero's hand [20.51].
    fn villain_duels_repentant<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        k: u8,
        r: &mut R,
        trace: &mut T,
    ) {
        let roster = &ctx.data.roster;
        let Some(v) = self.parties[p]
            .villains()
            .iter()
            .copied()
            .find(|&v| roster.characters[usize::from(v)].fights())
        else {
            return;
        };
        if !tactics::duel_repentant(ctx, self, p, v, k, r) {
            return;
        }
        let entry = |c: u8| Entry {
            character: usize::from(c),
            level: roster.characters[usize::from(c)].top_level,
            ..Entry::default()
        };
        let display = if self.parties[p].spots[VILLAIN_QUARRY].area == ctx.data.city_map.palace {
            PALACE
        } else {
            HOUSE
        };
        let Some(villain_won) = self.side_duel(ctx, display, &[entry(v)], &[entry(k)], r) else {
            return;
        };
        if villain_won {
            let party = &mut self.parties[p];
            if let Some(i) = party.henchmen().iter().position(|&h| h == k) {
                let n = usize::from(party.henchmen_len);
                party.henchmen.copy_within(i + 1..n, i);
                party.henchmen_len -= 1;
            }
            self.story.heroes[p].repented &= !(1u128 << k);
            self.slay(ctx, k);
        }
        trace.event("JC 12.32 duel with the repentant", || {
            format!(
                "{} duels {}: {}",
                roster.characters[usize::from(v)].name,
                roster.characters[usize::from(k)].name,
                if villain_won {
                    "the repentant is slain"
                } else {
                    "the repentant holds his own"
                }
            )
        });
    }

    /// Hero `p`'s captive dies [13.45, 19.32]: his love condition can no
    /// longer be met [20.52].
    pub(crate) fn captive_dies(&mut self, ctx: &Context, p: usize) {
        let k = self.parties[p].captive;
        if k == NONE {
            return;
        }
        self.parties[p].captive = NONE;
        self.slay(ctx, k);
        if self.is_captive_of(ctx, p, k) {
            self.heroes[p].love_barred = true;
        }
        let s = &mut self.story.heroes[p];
        if s.love == k {
            s.love = NONE;
        }
    }
}
