//! The special characters of [19] in a duel: Woola, who appears behind
//! John Carter once he is at level 2 and turns ferocious when his master
//! is unconscious [19.11-19.16]; Tavia and Llana of Gathol, whose
//! parenthesised values come into play when the hero they love falls
//! [19.23, 5.74, 7.16]; Kar Komak's phantom warriors [19.41] and Ghek's
//! immobilisation [19.42], neither used while engaged [19.43]. The numbers
//! come from `scenarios/jc/data/duel-specials.toml`.

use barsoom_engine::scenario::Load;

use std::path::Path;

use serde::Deserialize;

use super::geometry::{COUNTER, adjacent, offset_of_position};
use super::roster::{Class, Special};
use super::sequence::{Duel, State, Status};
use barsoom_engine::Trace;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// The numbers of [5.42, 5.55, 7.7, 19].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecialRules {
    /// Guards that keep a prisoner's base chance [7.72].
    pub guards_needed: u8,
    /// Added to the escape roll with a single guard [7.72].
    pub one_guard: i32,
    /// Added to the escape roll per guard beyond those needed [7.73].
    pub extra_guard: i32,
    /// A captured hero escapes on this roll or less whatever the guards
    /// [7.75].
    pub hero_escapes_on: u32,
    /// Turns next to the dungeon door that open it [5.55].
    pub door_turns: u8,
    /// Turns next to a chained prisoner that free him [5.55].
    pub chain_turns: u8,
    /// Extra movements a carrying hero loses [5.42].
    pub carrier_movements_lost: u8,
    /// John Carter's level at which Woola appears [19.12].
    pub woola_appears_at: u8,
    /// Woola's strength bonus while John Carter is unconscious [19.16].
    pub woola_fury_strength: u8,
    /// Levels Woola gains while John Carter is unconscious [19.16].
    pub woola_fury_levels: u8,
    /// Woola's fallback distance from John Carter [19.11].
    pub woola_fallback: (i16, i16),
    /// The loved hero's level at which Tavia's or Llana's values come into
    /// play (or when he is unconscious) [19.23].
    pub reserve_from_level: u8,
    /// Warriors in one materialisation [19.41].
    pub phantom_warriors: u8,
    /// Roster id of a phantom warrior [19.41].
    pub phantom_character: String,
    /// Materialisations a duel grants by default.
    pub phantom_uses: u8,
    /// Most materialisations a scenario may grant [19.41].
    pub phantom_most_uses: u8,
    /// Ghek's immobilisations per duel [19.42].
    pub immobilise_uses: u8,
    /// The agility the invisibility pills give for the whole duel [18.2
    /// card 27].
    pub invisible_agility: u8,
    /// Roster ids whom the pills give the 10/6 of [7.39] instead (John
    /// Carter and Carthoris [18.2 card 27]).
    pub invisible_ten_six: Vec<String>,
    /// Tactical turns after melee is joined within which a hero told of
    /// the unspeakable act must reach the villain [13.43].
    pub deadline_turns: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpecials {
    provenance: String,
    escape: RawEscape,
    dungeon: RawDungeon,
    carrying: RawCarrying,
    woola: RawWoola,
    tavia: RawTavia,
    phantoms: RawPhantoms,
    immobilise: RawImmobilise,
    strategic: RawStrategic,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStrategic {
    provenance: String,
    invisible_agility: i64,
    invisible_ten_six: Vec<String>,
    deadline_turns: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEscape {
    provenance: String,
    guards_needed: i64,
    one_guard: i64,
    extra_guard: i64,
    hero_escapes_on: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDungeon {
    provenance: String,
    door_turns: i64,
    chain_turns: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCarrying {
    provenance: String,
    movements_lost: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWoola {
    provenance: String,
    appears_at_level: i64,
    fury_strength: i64,
    fury_levels: i64,
    fallback_distance: [i64; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTavia {
    provenance: String,
    reserve_from_level: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPhantoms {
    provenance: String,
    warriors: i64,
    character: String,
    uses_per_duel: i64,
    most_uses: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawImmobilise {
    provenance: String,
    uses_per_duel: i64,
}

impl SpecialRules {
    /// Checks that the roster ids these rules name are in `roster`.
    pub(crate) fn check_roster(
        &self,
        file: &Path,
        roster: &super::roster::Roster,
    ) -> Result<(), ScenarioError> {
        let missing = |field: &str, id: &str| {
            ScenarioError::new(
                file,
                field,
                format!("expected a character of the roster, found {id:?}"),
            )
        };
        for (i, id) in self.invisible_ten_six.iter().enumerate() {
            if roster.get(id).is_none() {
                return Err(missing(&format!("strategic.invisible_ten_six[{i}]"), id));
            }
        }
        Ok(())
    }
}

impl Load for SpecialRules {
    /// Loads and checks `duel-specials.toml`.
    fn load_with(file: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let raw: RawSpecials = loader.read_toml(file)?;
        let err = |field: &str, message: String| ScenarioError::new(file, field, message);
        for (field, text) in [
            ("provenance", &raw.provenance),
            ("escape.provenance", &raw.escape.provenance),
            ("dungeon.provenance", &raw.dungeon.provenance),
            ("carrying.provenance", &raw.carrying.provenance),
            ("woola.provenance", &raw.woola.provenance),
            ("tavia.provenance", &raw.tavia.provenance),
            ("phantoms.provenance", &raw.phantoms.provenance),
            ("immobilise.provenance", &raw.immobilise.provenance),
            ("strategic.provenance", &raw.strategic.provenance),
        ] {
            if text.trim().is_empty() {
                return Err(err(
                    field,
                    "expected where the numbers come from (rules [case] or reconstructed: why)"
                        .into(),
                ));
            }
        }
        let within = |field: &str, v: i64, lo: i64, hi: i64| {
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(err(field, format!("expected {lo} to {hi}, found {v}")))
            }
        };
        let [near, far] = raw.woola.fallback_distance;
        within("woola.fallback_distance[0]", near, COUNTER.into(), 40)?;
        within("woola.fallback_distance[1]", far, near, 40)?;
        let most_uses = within("phantoms.most_uses", raw.phantoms.most_uses, 0, 4)? as u8;
        Ok(SpecialRules {
            guards_needed: within("escape.guards_needed", raw.escape.guards_needed, 1, 8)? as u8,
            one_guard: within("escape.one_guard", raw.escape.one_guard, -9, 9)? as i32,
            extra_guard: within("escape.extra_guard", raw.escape.extra_guard, -9, 9)? as i32,
            hero_escapes_on: within("escape.hero_escapes_on", raw.escape.hero_escapes_on, 0, 10)?
                as u32,
            door_turns: within("dungeon.door_turns", raw.dungeon.door_turns, 1, 20)? as u8,
            chain_turns: within("dungeon.chain_turns", raw.dungeon.chain_turns, 1, 20)? as u8,
            carrier_movements_lost: within(
                "carrying.movements_lost",
                raw.carrying.movements_lost,
                0,
                3,
            )? as u8,
            woola_appears_at: within("woola.appears_at_level", raw.woola.appears_at_level, 1, 5)?
                as u8,
            woola_fury_strength: within("woola.fury_strength", raw.woola.fury_strength, 0, 3)?
                as u8,
            woola_fury_levels: within("woola.fury_levels", raw.woola.fury_levels, 0, 3)? as u8,
            woola_fallback: (near as i16, far as i16),
            reserve_from_level: within(
                "tavia.reserve_from_level",
                raw.tavia.reserve_from_level,
                1,
                5,
            )? as u8,
            phantom_warriors: within("phantoms.warriors", raw.phantoms.warriors, 1, 8)? as u8,
            phantom_character: raw.phantoms.character,
            phantom_uses: within(
                "phantoms.uses_per_duel",
                raw.phantoms.uses_per_duel,
                0,
                i64::from(most_uses),
            )? as u8,
            phantom_most_uses: most_uses,
            immobilise_uses: within(
                "immobilise.uses_per_duel",
                raw.immobilise.uses_per_duel,
                0,
                4,
            )? as u8,
            invisible_agility: within(
                "strategic.invisible_agility",
                raw.strategic.invisible_agility,
                1,
                i64::from(super::roster::MAX_AGILITY),
            )? as u8,
            invisible_ten_six: raw.strategic.invisible_ten_six,
            deadline_turns: within(
                "strategic.deadline_turns",
                raw.strategic.deadline_turns,
                1,
                200,
            )? as u32,
        })
    }
}

impl Duel {
    /// Whether fighter `a` may use his mental power now: Kar Komak or Ghek
    /// with a use left and not engaged in melee [19.43].
    pub fn may_use_power(&self, s: &State, a: usize) -> bool {
        matches!(
            self.fighters[a].special,
            Some(Special::PhantomWarriors | Special::Immobilise)
        ) && s.fighting(a)
            && s.x.powers[a] > 0
            && !self.next_to_enemy(s, a)
            && (self.fighters[a].special != Some(Special::PhantomWarriors)
                || self.phantom_slots(s, a).next().is_some())
    }

    /// Kar Komak's phantom warriors still off the display [19.41].
    fn phantom_slots<'a>(&'a self, s: &'a State, a: usize) -> impl Iterator<Item = usize> + 'a {
        (0..s.n).filter(move |&p| {
            self.special.phantom_of[p] == Some(a as u8) && s.status[p] == Status::Absent
        })
    }

    /// Whether Ghek may hold `t` [19.42]: an enemy on his feet, not a
    /// personage, not already held.
    pub fn may_immobilise(&self, s: &State, a: usize, t: usize) -> bool {
        self.fighters[a].special == Some(Special::Immobilise)
            && self.may_use_power(s, a)
            && self.fighters[t].side != self.fighters[a].side
            && s.fighting(t)
            && self.fighters[t].class != Class::Personage
            && s.held & (1 << t) == 0
    }

    /// Kar Komak materialises his phantom warriors [19.41]: up to the
    /// rules' number, in the free squares nearest him, facing as he does.
    pub(crate) fn summon_phantoms<T: Trace>(&self, s: &mut State, a: usize, trace: &mut T) {
        if !self.may_use_power(s, a) || self.fighters[a].special != Some(Special::PhantomWarriors) {
            return;
        }
        s.x.powers[a] -= 1;
        let mut placed = 0;
        let slots: Vec<usize> = self
            .phantom_slots(s, a)
            .take(usize::from(self.special.rules.phantom_warriors))
            .collect();
        for p in slots {
            let deck = self.display.decks(s.pos[a].0, s.pos[a].1);
            let Some(at) = self.free_square_near(s, p, s.pos[a], 0, i16::MAX, deck) else {
                break;
            };
            s.pos[p] = at;
            s.facing[p] = s.facing[a];
            s.status[p] = Status::Fighting;
            placed += 1;
        }
        trace.event("JC 19.41 phantom warriors", || {
            format!(
                "{} materialises {placed} phantom warriors of Mars beside him",
                self.fighters[a].name
            )
        });
    }

    /// Ghek holds `t` until he is struck [19.42].
    pub(crate) fn immobilise<T: Trace>(&self, s: &mut State, a: usize, t: usize, trace: &mut T) {
        if !self.may_immobilise(s, a, t) {
            return;
        }
        s.x.powers[a] -= 1;
        s.held |= 1 << t;
        trace.event("JC 19.42 immobilised", || {
            format!(
                "{} holds {} with his mind: no move or melee until struck",
                self.fighters[a].name, self.fighters[t].name
            )
        });
    }

    /// A free top-left box for fighter `p`'s counter as near `from` as can
    /// be, between `near` and `far` boxes away (the larger of the row and
    /// column distances): open to him, clear of every counter that blocks,
    /// and covering no flier deck but those of `deck` (if not 0).
    pub(crate) fn free_square_near(
        &self,
        s: &State,
        p: usize,
        from: (i16, i16),
        near: i16,
        far: i16,
        deck: u8,
    ) -> Option<(i16, i16)> {
        let display = self.movement_display(s, p);
        let far = far.min(display.width.max(display.height));
        (near..=far).find_map(|r| {
            let ring = (-r..=r).flat_map(move |dy| (-r..=r).map(move |dx| (dx, dy)));
            ring.filter(|&(dx, dy)| dx.abs().max(dy.abs()) == r)
                .map(|(dx, dy)| (from.0 + dx, from.1 + dy))
                .find(|&(x, y)| {
                    display.open(x, y)
                        && (deck == 0 || display.decks(x, y) & !deck == 0)
                        && !(0..s.n).any(|o| {
                            o != p
                                && s.blocks(o)
                                && (s.pos[o].0 - x).abs() < COUNTER
                                && (s.pos[o].1 - y).abs() < COUNTER
                        })
                })
        })
    }

    /// Woola joins the duel once John Carter is at level 2 or below
    /// [19.12]: in the first free square straight behind him, else 9 to 12
    /// boxes away [19.11], on John Carter's own flier [19.13]. Returns
    /// whether he appeared now (he then acts at once).
    pub fn woola_appears<T: Trace>(&self, s: &mut State, trace: &mut T) -> bool {
        let Some((w, jc)) = self.special.woola else {
            return false;
        };
        if s.status[w] != Status::Absent
            || (s.level[jc] > self.special.rules.woola_appears_at
                && s.status[jc] != Status::Unconscious)
            || matches!(
                s.status[jc],
                Status::Dead | Status::Escaped | Status::Absent
            )
        {
            return false;
        }
        let display = self.movement_display(s, w);
        let (bx, by) = offset_of_position(8, s.facing[jc]);
        let deck = display.decks(self.fighters[jc].start.0, self.fighters[jc].start.1);
        let mut at = None;
        for k in 1.. {
            let square = (s.pos[jc].0 + bx * k, s.pos[jc].1 + by * k);
            if !display.open(square.0, square.1) {
                break;
            }
            let free = !(0..s.n).any(|o| {
                o != w
                    && s.blocks(o)
                    && (s.pos[o].0 - square.0).abs() < COUNTER
                    && (s.pos[o].1 - square.1).abs() < COUNTER
            });
            if free && (deck == 0 || display.decks(square.0, square.1) & !deck == 0) {
                at = Some(square);
                break;
            }
        }
        let behind = at.is_some();
        let (near, far) = self.special.rules.woola_fallback;
        // On John Carter's own flier when he started on one [19.13].
        let at = at.or_else(|| self.free_square_near(s, w, s.pos[jc], near, far, deck));
        let Some(at) = at else {
            trace.event("JC 19.11 Woola", || {
                "Woola finds no free square near John Carter".to_string()
            });
            return false;
        };
        s.pos[w] = at;
        s.facing[w] = s.facing[jc];
        s.status[w] = Status::Fighting;
        trace.event("JC 19.12 Woola", || {
            format!(
                "Woola bounds in at ({},{}) {}",
                at.0,
                at.1,
                if behind {
                    "behind John Carter (19.11)"
                } else {
                    "9 to 12 boxes from John Carter (19.11)"
                }
            )
        });
        true
    }

    /// Woola's ferocity [19.16]: with John Carter unconscious his strength
    /// is one up and he must be struck once more before he falls.
    pub fn woola_ferocity<T: Trace>(&self, s: &mut State, trace: &mut T) {
        let Some((w, jc)) = self.special.woola else {
            return;
        };
        if s.status[jc] != Status::Unconscious || s.fury & (1 << w) != 0 || !s.fighting(w) {
            return;
        }
        s.fury |= 1 << w;
        s.level[w] += self.special.rules.woola_fury_levels;
        trace.event("JC 19.16 Woola's ferocity", || {
            format!(
                "John Carter is down: Woola's strength +{} and level {}",
                self.special.rules.woola_fury_strength, s.level[w]
            )
        });
    }

    /// Tavia's and Llana's values come into play when the hero they love
    /// falls unconscious or to level 2 [19.23]; one standing on another
    /// counter moves to the nearest free square [5.74].
    pub fn personages_take_up_swords<T: Trace>(&self, s: &mut State, trace: &mut T) {
        for p in 0..s.n {
            let Some(h) = self.fighters[p].loves else {
                continue;
            };
            if s.status[p] != Status::Bystander
                || s.x.active & (1 << p) != 0
                || (s.level[h] > self.special.rules.reserve_from_level
                    && s.status[h] != Status::Unconscious)
            {
                continue;
            }
            let crowded = (0..s.n).any(|o| {
                o != p
                    && s.blocks(o)
                    && (s.pos[o].0 - s.pos[p].0).abs() < COUNTER
                    && (s.pos[o].1 - s.pos[p].1).abs() < COUNTER
            });
            if crowded {
                let deck = self.display.decks(s.pos[p].0, s.pos[p].1);
                match self.free_square_near(s, p, s.pos[p], 1, i16::MAX, deck) {
                    Some(at) => s.pos[p] = at,
                    None => continue,
                }
            }
            s.x.active |= 1 << p;
            s.status[p] = Status::Fighting;
            trace.event("JC 19.23 personage takes up a sword", || {
                format!(
                    "{} sees {} fall and fights with her own values{}",
                    self.fighters[p].name,
                    self.fighters[h].name,
                    if crowded { " (moved clear, 5.74)" } else { "" }
                )
            });
        }
    }

    /// The personages who have initiated melee may be meleed from now on
    /// [7.16].
    pub fn note_personage_blow(&self, s: &mut State, a: usize) {
        if self.fighters[a].class == Class::Personage {
            s.x.struck |= 1 << a;
        }
    }

    /// Whether `a` and `b` stand next to each other [7.12].
    #[inline]
    pub fn touching(&self, s: &State, a: usize, b: usize) -> bool {
        adjacent(s.pos[a].0 - s.pos[b].0, s.pos[a].1 - s.pos[b].1)
    }
}
