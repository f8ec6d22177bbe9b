//! The special characters' strategic rules [19].
//!
//! - Woola [19.1]: always with John Carter, off the board; he is on John
//!   Carter's side of every duel the hero fights with his retinue and
//!   comes in when his master falls to level 2 [19.12], on the fliers on
//!   his master's own [19.13] (the duel's rule, `jc::duel::special`). He
//!   never loves or betrays [19.14].
//! - Thuvia [19.22]: a hero with her has no encounter with banths.
//! - Ras Thavas and Vad Varo [19.31, 19.52]: in Morbus, Gathol or Greater
//!   Helium a surgeon travelling with a hero may put his brain in a captain
//!   of the guard's body (and back); so changed he and his retinue are not
//!   looked for by the discovery checks of a city game until he fights
//!   there. The surgeon may also give companions (not the hero's love or
//!   princess) the values of a warrior of Mars, for good: a personage so
//!   changed fights in duels.
//! - Tario and Luud [19.32, 19.33]: a villain in Lothar or Bantoom may call
//!   on them before the hero duels him: the Mind Control Table.
//! - Lum Tar O [19.34]: in Horz, the City Encounter Table's die showing
//!   3 is he; the hero beats him and suffers the mind battle of [17.47].
//! - Kar Komak [19.41]: twice a game, five phantom warriors fight for his
//!   hero. Ghek [19.42-19.45]: one off his hero's escape roll, joins only a
//!   hero with a female personage. Neither betrays [19.43]. Ghek's hold on
//!   a foe inside a duel [19.42] is the duel model's (`jc::duel::escape`).
//! - Tars Tarkas [19.51]: stays three Strategic Turns with a hero who
//!   befriends him, five with John Carter.
//! - Tor-dur-bar [19.53]: always moves secretly in a city; his quest is
//!   complete only back in Helium or Morbus.

use std::path::Path;

use serde::Deserialize;

use super::consts::NONE;
use super::dice::Roller;
use super::game::{Context, Game};
use super::loading::{Look, build_rows, number, provenance};
use super::tables::{DieTable, Entries, Foes, RollSpec, TableSpec, Who};
use super::tactics;
use crate::jc::duel::roster::Class;
use crate::jc::duel::sequence::MAX_FIGHTERS;
use barsoom_engine::Trace;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// What the Mind Control Table says [19.33].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MindControl {
    /// Nothing happens.
    Resisted,
    /// The hero fights a level down for this many Strategic Turns [17.47].
    MindBattle(u8),
    /// The personage he loves is taken to the villain [19.32].
    Enthralled,
    /// His captive dies if he loses an arena duel here [19.32].
    Doomed,
    /// A minor character of his retinue goes over to the villain.
    Seized,
}

/// Woola [19.1].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Woola {
    /// Woola's counter.
    pub character: u8,
    /// His master.
    pub master: u8,
}

/// The brain transfer of [19.31].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    /// Who can perform it.
    pub surgeons: u128,
    /// Where.
    pub cities: u64,
    /// The body a hero's brain goes into.
    pub body: u8,
    /// The warrior of Mars whose values a changed companion takes.
    pub companion_body: u8,
}

/// Lum Tar O [19.34].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LumTarO {
    /// His counter.
    pub character: u8,
    /// Horz.
    pub city: u8,
    /// The die roll of the City Encounter Table that is he.
    pub roll: u8,
    /// Strategic Turns of the mind battle's lost level.
    pub turns: u8,
}

/// Kar Komak [19.41].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KarKomak {
    /// His counter.
    pub character: u8,
    /// The phantom warriors' counter.
    pub warrior: u8,
    /// How many he raises.
    pub warriors: u8,
    /// How often in a game.
    pub uses: u8,
}

/// Ghek [19.44, 19.45].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ghek {
    /// His counter.
    pub character: u8,
    /// Off his hero's escape roll.
    pub escape: u8,
}

/// Tars Tarkas [19.51].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TarsTarkas {
    /// His counter.
    pub character: u8,
    /// Strategic Turns he stays with a hero.
    pub turns: u8,
    /// His friend.
    pub friend: u8,
    /// Strategic Turns he stays with his friend.
    pub friend_turns: u8,
}

/// Tor-dur-bar [19.53].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TorDurBar {
    /// His counter.
    pub character: u8,
    /// Where his quest may be completed.
    pub homes: u64,
}

/// The special characters' rules [19].
#[derive(Debug, Clone, PartialEq)]
pub struct SpecialRules {
    /// Woola.
    pub woola: Woola,
    /// Thuvia and the beasts she commands [19.22].
    pub beast_tamer: (u8, u128),
    /// The brain transfer.
    pub transfer: Transfer,
    /// The masters of mind control and their cities: `(city, master)`.
    pub masters: Vec<(u8, u8)>,
    /// The Mind Control Table.
    pub mind_control: DieTable<MindControl>,
    /// Lum Tar O.
    pub lum_tar_o: LumTarO,
    /// Kar Komak.
    pub kar_komak: KarKomak,
    /// Ghek.
    pub ghek: Ghek,
    /// Tars Tarkas.
    pub tars_tarkas: TarsTarkas,
    /// Tor-dur-bar.
    pub tor_dur_bar: TorDurBar,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecialFile {
    provenance: String,
    woola: WoolaFile,
    beast_tamer: TamerFile,
    brain_transfer: TransferFile,
    mind_control: MindFile,
    lum_tar_o: LumFile,
    kar_komak: KarFile,
    ghek: GhekFile,
    tars_tarkas: TarsFile,
    tor_dur_bar: TorFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WoolaFile {
    character: String,
    master: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TamerFile {
    character: String,
    beasts: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TransferFile {
    surgeons: Vec<String>,
    cities: Vec<String>,
    body: String,
    companion_body: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MindFile {
    provenance: String,
    masters: Vec<MasterFile>,
    rolls: Vec<MindRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MasterFile {
    city: String,
    master: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MindRow {
    roll: RollSpec,
    result: String,
    turns: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LumFile {
    character: String,
    city: String,
    roll: i64,
    turns: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KarFile {
    character: String,
    warrior: String,
    warriors: i64,
    uses: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GhekFile {
    character: String,
    escape: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TarsFile {
    character: String,
    turns: i64,
    friend: String,
    friend_turns: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TorFile {
    character: String,
    homes: Vec<String>,
}

const MIND_RESULTS: &str = "resisted, mind-battle (with turns), enthralled, doomed or seized";

impl SpecialRules {
    /// Loads `special-characters.toml`.
    pub fn load_with(
        file: &Path,
        look: &Look,
        entries: &mut Entries,
        loader: &mut Loader,
    ) -> Result<Self, ScenarioError> {
        let raw: SpecialFile = loader.read_toml(file)?;
        provenance(file, "provenance", &raw.provenance)?;
        provenance(
            file,
            "mind_control.provenance",
            &raw.mind_control.provenance,
        )?;
        let ch = |field: &str, id: &str| look.character(file, field, id);
        let n = |v: i64, field: &str, range| number(file, field, v, range);
        let mut beasts = 0u128;
        for (i, id) in raw.beast_tamer.beasts.iter().enumerate() {
            beasts |= 1u128
                << look.of_class(
                    file,
                    &format!("beast_tamer.beasts[{i}]"),
                    id,
                    &[Class::Beast],
                )?;
        }
        let mut masters = Vec::new();
        for (i, m) in raw.mind_control.masters.iter().enumerate() {
            masters.push((
                look.place(file, &format!("mind_control.masters[{i}].city"), &m.city)?,
                ch(&format!("mind_control.masters[{i}].master"), &m.master)?,
            ));
        }
        let spec = TableSpec {
            file,
            field: "mind_control.rolls".into(),
            name: "mind control".into(),
            faces: (1, 10),
            open_ended: false,
        };
        let rolls = &raw.mind_control.rolls;
        let mind_control = build_rows(
            &spec,
            rolls,
            |r| r.roll,
            entries,
            |row, field| {
                let bad = |m: String| ScenarioError::new(file, format!("{field}.result"), m);
                if row.turns.is_some() && row.result != "mind-battle" {
                    return Err(ScenarioError::new(
                        file,
                        format!("{field}.turns"),
                        format!("expected no turns for result {:?}", row.result),
                    ));
                }
                Ok(match row.result.as_str() {
                    "resisted" => MindControl::Resisted,
                    "mind-battle" => MindControl::MindBattle(n(
                        row.turns.unwrap_or(-1),
                        &format!("{field}.turns"),
                        1..=9,
                    )?),
                    "enthralled" => MindControl::Enthralled,
                    "doomed" => MindControl::Doomed,
                    "seized" => MindControl::Seized,
                    other => return Err(bad(format!("expected {MIND_RESULTS}, found {other:?}"))),
                })
            },
        )?;
        Ok(SpecialRules {
            woola: Woola {
                character: look.of_class(
                    file,
                    "woola.character",
                    &raw.woola.character,
                    &[Class::Minor],
                )?,
                master: look.of_class(file, "woola.master", &raw.woola.master, &[Class::Hero])?,
            },
            beast_tamer: (
                ch("beast_tamer.character", &raw.beast_tamer.character)?,
                beasts,
            ),
            transfer: Transfer {
                surgeons: look.set(
                    file,
                    "brain_transfer.surgeons",
                    &raw.brain_transfer.surgeons,
                )?,
                cities: look.places(file, "brain_transfer.cities", &raw.brain_transfer.cities)?,
                body: look.of_class(
                    file,
                    "brain_transfer.body",
                    &raw.brain_transfer.body,
                    &[Class::Minor, Class::Warrior],
                )?,
                companion_body: look.of_class(
                    file,
                    "brain_transfer.companion_body",
                    &raw.brain_transfer.companion_body,
                    &[Class::Warrior],
                )?,
            },
            masters,
            mind_control,
            lum_tar_o: LumTarO {
                character: ch("lum_tar_o.character", &raw.lum_tar_o.character)?,
                city: look.place(file, "lum_tar_o.city", &raw.lum_tar_o.city)?,
                roll: n(raw.lum_tar_o.roll, "lum_tar_o.roll", 1..=10)?,
                turns: n(raw.lum_tar_o.turns, "lum_tar_o.turns", 1..=9)?,
            },
            kar_komak: KarKomak {
                character: ch("kar_komak.character", &raw.kar_komak.character)?,
                warrior: look.of_class(
                    file,
                    "kar_komak.warrior",
                    &raw.kar_komak.warrior,
                    &[Class::Warrior],
                )?,
                warriors: n(
                    raw.kar_komak.warriors,
                    "kar_komak.warriors",
                    1..=MAX_FIGHTERS as i64 / 2,
                )?,
                uses: n(raw.kar_komak.uses, "kar_komak.uses", 0..=9)?,
            },
            ghek: Ghek {
                character: ch("ghek.character", &raw.ghek.character)?,
                escape: n(raw.ghek.escape, "ghek.escape", 0..=10)?,
            },
            tars_tarkas: TarsTarkas {
                character: ch("tars_tarkas.character", &raw.tars_tarkas.character)?,
                turns: n(raw.tars_tarkas.turns, "tars_tarkas.turns", 1..=50)?,
                friend: ch("tars_tarkas.friend", &raw.tars_tarkas.friend)?,
                friend_turns: n(
                    raw.tars_tarkas.friend_turns,
                    "tars_tarkas.friend_turns",
                    1..=50,
                )?,
            },
            tor_dur_bar: TorDurBar {
                character: ch("tor_dur_bar.character", &raw.tor_dur_bar.character)?,
                homes: look.places(file, "tor_dur_bar.homes", &raw.tor_dur_bar.homes)?,
            },
        })
    }
}

impl Game {
    /// [19.22] Thuvia soothes the banths: an encounter with them is no
    /// encounter.
    pub(crate) fn banths_soothed(&self, ctx: &Context, p: usize, foes: &Foes) -> bool {
        let (tamer, beasts) = ctx.data.story.specials.beast_tamer;
        self.heroes[p].has(tamer)
            && foes
                .iter()
                .any(|(who, _)| matches!(who, Who::Character(k) if beasts & (1u128 << k) != 0))
    }

    /// [19.51] Tars Tarkas joins hero `p`: note when he will leave.
    pub(crate) fn tars_tarkas_joins(&mut self, ctx: &Context, p: usize, k: u8) {
        let t = ctx.data.story.specials.tars_tarkas;
        if k != t.character || self.story.heroes[p].tars_leaves != 0 {
            return;
        }
        let stay = if self.heroes[p].character == t.friend {
            t.friend_turns
        } else {
            t.turns
        };
        self.story.heroes[p].tars_leaves = self.turn.saturating_add(u16::from(stay));
    }

    /// [19.51] Tars Tarkas goes home when his stay is over (a stay is
    /// noted when he is first seen with the hero, however he joined).
    pub(crate) fn tars_tarkas_upkeep<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let k = ctx.data.story.specials.tars_tarkas.character;
        let Some(i) = self.heroes[p].retinue().iter().position(|&x| x == k) else {
            self.story.heroes[p].tars_leaves = 0;
            return;
        };
        self.tars_tarkas_joins(ctx, p, k);
        if self.turn >= self.story.heroes[p].tars_leaves {
            self.heroes[p].leave(i);
            // He goes home alive: he may befriend a hero again.
            self.in_play &= !(1u128 << k);
            self.story.heroes[p].tars_leaves = 0;
            trace.event("JC 19.51 Tars Tarkas leaves", || {
                format!(
                    "Tars Tarkas goes home to Thark, leaving {}",
                    self.name(ctx, p)
                )
            });
        }
    }

    /// [19.53] Tor-dur-bar's quest is complete only back in Helium or
    /// Morbus; every other hero's whenever the conditions are met.
    pub(crate) fn quest_may_end(&self, ctx: &Context, p: usize) -> bool {
        let t = ctx.data.story.specials.tor_dur_bar;
        self.heroes[p].character != t.character
            || self.heroes[p]
                .city()
                .is_some_and(|c| t.homes & (1u64 << c) != 0)
    }

    /// Whether hero `p` must move secretly in the city he enters: a
    /// stranger's race [15.31] unless disguised, always as Tor-dur-bar
    /// [19.53].
    pub(crate) fn must_move_secretly(&self, ctx: &Context, p: usize, foreign: bool) -> bool {
        self.heroes[p].character == ctx.data.story.specials.tor_dur_bar.character
            || (foreign && !self.story.heroes[p].disguised)
    }

    /// [19.31] The brain transfer, at the start of hero `p`'s Player-Turn:
    /// into the captain's body or back, when his policy wants it and a
    /// surgeon is with him in one of the cities.
    pub(crate) fn brain_transfer<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let t = ctx.data.story.specials.transfer;
        let Some(c) = self.heroes[p].city() else {
            return;
        };
        let surgeon = self.heroes[p]
            .retinue()
            .iter()
            .any(|&k| t.surgeons & (1u128 << k) != 0);
        if !surgeon || t.cities & (1u64 << c) == 0 || self.heroes[p].city.active {
            return;
        }
        self.change_companions(ctx, p, c, r, trace);
        if self.heroes[p].character == ctx.data.story.specials.tor_dur_bar.character {
            return;
        }
        let transferred = self.story.heroes[p].body != NONE;
        if !tactics::brain_transfer(ctx, self, p, transferred, r) {
            return;
        }
        let s = &mut self.story.heroes[p];
        let h = &mut self.heroes[p];
        if transferred {
            h.character = s.body;
            s.body = NONE;
        } else {
            s.body = h.character;
            h.character = t.body;
        }
        trace.event("JC 19.31 brain transfer", || {
            format!(
                "{} {} in {}",
                self.name(ctx, p),
                if transferred {
                    "gets his own body back"
                } else {
                    "has his brain put into a captain of the guard's body"
                },
                ctx.data.map.cities[usize::from(c)].name
            )
        });
    }

    /// [19.31] The surgeon with hero `p` in city `c` gives companions the
    /// values of a warrior of Mars, as the hero's policy chooses among
    /// the personages and minor characters of his company other than the
    /// surgeons, his love, his princess (a warrior's body can be slain) and
    /// those with special rules [19]. The change is for good.
    fn change_companions<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        c: u8,
        r: &mut R,
        trace: &mut T,
    ) {
        let t = ctx.data.story.specials.transfer;
        let s = self.story.heroes[p];
        for i in 0..usize::from(self.heroes[p].retinue_len) {
            let k = self.heroes[p].retinue[i];
            let ch = &ctx.data.roster.characters[usize::from(k)];
            if s.changed & (1u128 << k) != 0
                || ch.special.is_some()
                || t.surgeons & (1u128 << k) != 0
                || k == s.love
                || k == s.princess
                || !matches!(ch.class, Class::Personage | Class::Minor)
                || !tactics::change_companion(ctx, self, p, k, r)
            {
                continue;
            }
            self.story.heroes[p].changed |= 1u128 << k;
            trace.event("JC 19.31 warrior's body", || {
                format!(
                    "{} of {}'s company is given a warrior's body in {}",
                    ctx.data.roster.characters[usize::from(k)].name,
                    self.name(ctx, p),
                    ctx.data.map.cities[usize::from(c)].name
                )
            });
        }
    }

    /// [19.32, 19.33] The villain of hero `p` calls on Tario or Luud before
    /// the hero duels him, if he is in their city.
    pub(crate) fn mind_control<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let specials = &ctx.data.story.specials;
        let city = self.parties[p].city;
        let Some(&(_, master)) = specials.masters.iter().find(|(c, _)| *c == city) else {
            return;
        };
        // The master is at home unless a hero has him with him.
        if (0..usize::from(self.players)).any(|o| self.heroes[o].has(master))
            || !tactics::call_on_master(self, p, r)
        {
            return;
        }
        let (result, entry) = specials.mind_control.get(r.d10());
        self.fire(entry);
        trace.event("JC 19.33 mind control", || {
            format!(
                "{}'s villain calls on {}: {result:?}",
                self.name(ctx, p),
                ctx.data.roster.characters[usize::from(master)].name
            )
        });
        match *result {
            MindControl::Resisted => {}
            MindControl::MindBattle(turns) => self.heroes[p].penalty = (1, turns),
            MindControl::Enthralled => {
                let s = &self.story.heroes[p];
                if let Some(l) = [s.love, s.princess]
                    .into_iter()
                    .find(|&l| l != NONE && self.heroes[p].has(l))
                {
                    self.abduct(ctx, p, l, trace);
                    // [19.32] he may love her again: she is no traitor.
                    self.story.heroes[p].love = l;
                }
            }
            MindControl::Doomed => self.story.heroes[p].doomed = self.parties[p].captive != NONE,
            MindControl::Seized => {
                let never = ctx.data.story.romance.never_treacherous;
                let minor = self.heroes[p].retinue().iter().copied().find(|&k| {
                    ctx.data.roster.characters[usize::from(k)].class == Class::Minor
                        && never & (1u128 << k) == 0
                });
                if let Some(k) = minor {
                    self.heroes[p].leave_character(k);
                    if self.add_henchmen(p, &[k]) == 0 {
                        // No room in the entourage [10.5]: he leaves alive.
                        self.in_play &= !(1u128 << k);
                    }
                }
            }
        }
    }

    /// [19.34] Lum Tar O in Horz: whether die roll `die` of a city
    /// encounter is he (the hero then wins the mind battle at its cost).
    pub(crate) fn lum_tar_o<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        city: u8,
        die: i32,
        trace: &mut T,
    ) -> bool {
        let l = ctx.data.story.specials.lum_tar_o;
        if city != l.city || die != i32::from(l.roll) || !self.drawable(l.character) {
            return false;
        }
        self.heroes[p].penalty = (1, l.turns);
        trace.event("JC 19.34 Lum Tar O", || {
            format!(
                "{} overcomes Lum Tar O in Horz, at the cost of a mind battle",
                self.name(ctx, p)
            )
        });
        true
    }

    /// [19.41] Kar Komak's phantom warriors for a fight of hero `p` against
    /// `foes` (if he is in the retinue and has summonings left): how many,
    /// and of whom.
    pub(crate) fn phantom_warriors<R: Roller>(
        &mut self,
        ctx: &Context,
        p: usize,
        foes: usize,
        r: &mut R,
    ) -> (u8, u8) {
        let k = ctx.data.story.specials.kar_komak;
        if !self.heroes[p].has(k.character)
            || self.story.kar_komak_used >= k.uses
            || !tactics::summon_phantoms(self, p, foes, k.uses - self.story.kar_komak_used, r)
        {
            return (0, k.warrior);
        }
        self.story.kar_komak_used += 1;
        (k.warriors, k.warrior)
    }

    /// [19.44] Ghek's help with an escape roll.
    pub(crate) fn ghek_help(&self, ctx: &Context, p: usize) -> u8 {
        let g = ctx.data.story.specials.ghek;
        if self.heroes[p].has(g.character) {
            g.escape
        } else {
            0
        }
    }
}
