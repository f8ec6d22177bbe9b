//! Cards around fights: those that avoid an encounter or save a hero from
//! a defeat [11.33], help an escape, bring an arena companion, and what
//! cards and special characters add as a fight begins.

use crate::jc::duel::roster::Class;
use crate::jc::event_deck::Effect;
use crate::jc::strategic::dice::Roller;
use crate::jc::strategic::game;
use crate::jc::strategic::game::{Context, Game};
use crate::jc::strategic::romance::female;
use crate::jc::strategic::tables::{Foes, HOUSE, PALACE, STREET, Who};
use crate::jc::strategic::tactics;
use barsoom_engine::Trace;

/// A defeat a card may save a hero from [11.33, 18.2].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defeat {
    /// Beaten by beasts of Mars: out of the game [11.33].
    Beasts,
    /// Beaten by warriors of Mars outdoors: captured [11.34].
    Capture,
    /// Beaten in a city: interned [11.44].
    Internment,
    /// Beaten (or found a third time) in the villain's city: imprisoned
    /// [15.23, 15.32].
    Imprisonment,
    /// Beaten in the arena: out of the game [17.3].
    Arena,
}

/// What cards and special characters add to one fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FightAid {
    /// Allies for the hero's side: how many, and their counter [19.41].
    pub allies: (u8, u8),
    /// The hero has taken the invisibility pills (card 27): agility 10 and
    /// a free blow inside the duel.
    pub hero_invisible: bool,
    /// A foe who has taken them (the villain's card 27): its index in the
    /// foes.
    pub foe_invisible: Option<usize>,
    /// Another Player's hero fighting beside him [9.27].
    pub helper: Option<usize>,
}

impl Game {
    /// Whether hero `p` avoids the encounter with `foes` (outdoors or in a
    /// city) [18.2, 19.22].
    pub(crate) fn encounter_avoided<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        foes: &Foes,
        outdoor: bool,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        if self.banths_soothed(ctx, p, foes) {
            trace.event("JC 19.22 Thuvia", || {
                format!(
                    "Thuvia soothes the banths: {} has no encounter",
                    self.name(ctx, p)
                )
            });
            return true;
        }
        let roster = &ctx.data.roster;
        let beasts = foes
            .iter()
            .any(|(w, _)| matches!(w, Who::Character(k) if roster.characters[usize::from(k)].class == Class::Beast));
        let warriors = foes.iter().any(|(w, _)| match w {
            Who::CityWarrior => true,
            Who::Character(k) => roster.characters[usize::from(k)].class == Class::Warrior,
        });
        let dangerous = beasts || foes.total() >= 3;
        let card = if outdoor {
            self.hero_card(ctx, p, |e| *e == Effect::AvoidOutdoorEncounter, r)
                .filter(|_| self.hero_chooses(ctx, p, dangerous, r))
        } else if warriors {
            self.hero_card(ctx, p, |e| *e == Effect::AvoidCityGuard, r)
                .filter(|_| self.hero_chooses(ctx, p, false, r))
        } else {
            None
        };
        let card = card.or_else(|| {
            self.hero_card(ctx, p, |e| matches!(e, Effect::EvadeAtCost { .. }), r)
                .filter(|_| self.hero_chooses(ctx, p, false, r))
        });
        let Some((n, e)) = card else {
            return false;
        };
        self.play_card(ctx, p, p, n, trace);
        if let Effect::EvadeAtCost { turns } = e {
            self.heroes[p].skip = self.heroes[p].skip.saturating_add(turns);
        }
        true
    }

    /// Whether a card saves hero `p` from `defeat` [11.33, 18.2]; the
    /// cheapest card his policy will play (a miraculous escape only after
    /// an outdoor encounter or an arena duel). Against beasts every Player
    /// holding a miraculous escape must play it, the hero's own first
    /// [11.33]. An arena defeat not saved kills a doomed captive [19.32].
    pub(crate) fn saved_from_defeat<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        defeat: Defeat,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        // Card 24 was played inside the duel: the hero's side got away.
        if std::mem::take(&mut self.story.heroes[p].broke_off) {
            trace.event("JC 18.2 card 24", || {
                format!("{} got away from the melee ({defeat:?})", self.name(ctx, p))
            });
            return true;
        }
        let men = !matches!(defeat, Defeat::Beasts | Defeat::Arena);
        let mut choices: [Option<(u8, Effect)>; 3] = [
            if men {
                self.hero_card(ctx, p, |e| *e == Effect::EvadeCapture, r)
            } else {
                None
            },
            // Cards 01-08 take the hero off the outdoor or arena display
            // [18.2]: not the city's internment or imprisonment.
            if matches!(defeat, Defeat::Beasts | Defeat::Capture | Defeat::Arena) {
                self.hero_card(ctx, p, |e| matches!(e, Effect::MiraculousEscape { .. }), r)
            } else {
                None
            },
            if men {
                self.hero_card(ctx, p, |e| matches!(e, Effect::EvadeAtCost { .. }), r)
            } else {
                None
            },
        ];
        if !tactics::hero_sensible(self, p) {
            // The random policy tries its cards in a random order.
            let start = r.pick(choices.len());
            choices.rotate_left(start);
        }
        let mut played = None;
        for c in choices.into_iter().flatten() {
            let forced = defeat == Defeat::Beasts && matches!(c.1, Effect::MiraculousEscape { .. });
            if forced || self.hero_chooses(ctx, p, true, r) {
                played = Some((p, c));
                break;
            }
        }
        if played.is_none() && defeat == Defeat::Beasts {
            // [11.33] any other Player's miraculous escape.
            for o in 0..usize::from(self.players) {
                if o != p
                    && let Some(c) = self.held(ctx, o, true, |e| {
                        matches!(e, Effect::MiraculousEscape { .. })
                    })
                {
                    played = Some((o, c));
                    break;
                }
            }
        }
        let Some((q, (n, effect))) = played else {
            if defeat == Defeat::Arena && self.story.heroes[p].doomed {
                self.captive_dies(ctx, p);
                trace.event("JC 19.32 doomed", || {
                    format!("{}'s captive is lost with him", self.name(ctx, p))
                });
            }
            return false;
        };
        self.play_card(ctx, q, p, n, trace);
        match effect {
            Effect::MiraculousEscape { turns } | Effect::EvadeAtCost { turns } => {
                let h = &mut self.heroes[p];
                h.skip = h.skip.saturating_add(turns);
            }
            _ => {}
        }
        trace.event("JC 18.2 saved", || {
            format!(
                "{} escapes the consequences of defeat ({defeat:?})",
                self.name(ctx, p)
            )
        });
        true
    }

    /// Help with hero `p`'s escape roll [17.21]: Ghek [19.44], the escape
    /// cards (38-39 make it certain), the escape bonus (card 55).
    pub(crate) fn special_escape_help<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> u8 {
        if self.hero_plays(ctx, p, Effect::PrisonEscape, r, trace) {
            return 10;
        }
        let mut help = self.ghek_help(ctx, p);
        if let Some((n, Effect::EscapeBonus { escape })) =
            self.hero_card(ctx, p, |e| matches!(e, Effect::EscapeBonus { .. }), r)
            && self.hero_chooses(ctx, p, true, r)
        {
            self.play_card(ctx, p, p, n, trace);
            help = help.saturating_add(escape);
        }
        help
    }

    /// Whether hero `p`'s minor character cellmate fights beside him in the
    /// arena (cards 46-48) [17.14].
    pub(crate) fn arena_companion<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        let Some((n, _)) = self.hero_card(ctx, p, |e| *e == Effect::ArenaCompanion, r) else {
            return false;
        };
        if !self.hero_chooses(ctx, p, true, r) {
            return false;
        }
        self.play_card(ctx, p, p, n, trace);
        true
    }
}

impl Game {
    /// What cards and special characters add as hero `p` starts a fight on
    /// `display` against `foes`: the abduction of cards 28-31 in a city,
    /// Kar Komak's phantoms, a fellow hero's aid in a hostile encounter
    /// [9.27], the free blows of invisibility; a fight in the villain's city
    /// game ends a transferred hero's cover [19.31].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn fight_begins<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        retinue: bool,
        foes: &[(u8, u8)],
        display: u8,
        r: &mut R,
        trace: &mut T,
    ) -> FightAid {
        let mut aid = FightAid::default();
        if self.heroes[p].city.active {
            self.story.heroes[p].unseen = false;
        }
        let q = self.villain_player(p);
        // Cards 28-31: a female personage is spirited away.
        if matches!(display, STREET | HOUSE | PALACE)
            && self.heroes[p].city().is_some()
            && game::party_present(&self.parties[p])
            && self.has_female_personage(ctx, p)
            && let Some((n, _)) = self.villain_card(ctx, p, |e| *e == Effect::AbductPersonage, r)
            && self.villain_chooses(ctx, p, true, r)
        {
            let s = &self.story.heroes[p];
            let females = self.heroes[p]
                .retinue()
                .iter()
                .filter(|&&k| female(ctx, k))
                .fold(0u128, |set, &k| set | (1u128 << k));
            let loved = [s.love, s.princess];
            let sensible = tactics::villain_sensible(self, p);
            if let Some(k) =
                tactics::pick_character(sensible, females, |k| i32::from(loved.contains(&k)), r)
            {
                self.play_card(ctx, q, p, n, trace);
                self.abduct(ctx, p, k, trace);
            }
        }
        if retinue {
            aid.allies = self.phantom_warriors(ctx, p, foes.len(), r);
            if aid.allies.0 > 0 {
                trace.event("JC 19.41 phantom warriors", || {
                    format!(
                        "Kar Komak raises {} phantom warriors for {}",
                        aid.allies.0,
                        self.name(ctx, p)
                    )
                });
            }
        }
        if std::mem::take(&mut self.story.heroes[p].hostile) {
            aid.helper = self.fellow_aid(ctx, p, r, trace);
        }
        // Card 27 before the duel with the villain's group: the pills act
        // inside the duel (agility 10, a free blow at first contact).
        if std::mem::take(&mut self.story.heroes[p].villain_duel) && !foes.is_empty() {
            let roster = &ctx.data.roster;
            if let Some((n, _)) = self.hero_card(ctx, p, |e| *e == Effect::Invisibility, r)
                && self.hero_chooses(ctx, p, true, r)
            {
                self.play_card(ctx, p, p, n, trace);
                aid.hero_invisible = true;
            }
            if let Some((n, _)) = self.villain_card(ctx, p, |e| *e == Effect::Invisibility, r)
                && self.villain_chooses(ctx, p, true, r)
            {
                self.play_card(ctx, q, p, n, trace);
                aid.foe_invisible = Some(
                    foes.iter()
                        .position(|&(k, _)| {
                            roster.characters[usize::from(k)].class == Class::Villain
                        })
                        .unwrap_or(0),
                );
            }
        }
        aid
    }

    /// Before hero `p` duels his villain: repentant traitors come over
    /// [12.32], Tario or Luud may be called on [19.32], and the next fight
    /// is the villain's (invisibility, card 27).
    pub(crate) fn before_villain_duel<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        self.repentant_join(ctx, p, trace);
        self.mind_control(ctx, p, r, trace);
        self.story.heroes[p].villain_duel = true;
    }

    /// After a duel in a quarry's house: a threatened captive is saved by
    /// a win and lost to the table by a defeat [13.42, 13.44].
    pub(crate) fn house_duel_ends<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        won: bool,
        r: &mut R,
        trace: &mut T,
    ) {
        self.story.heroes[p].villain_duel = false;
        if self.story.heroes[p].act == 0 {
            return;
        }
        if won {
            self.story.heroes[p].act = 0;
            trace.event("JC 13.42 in time", || {
                format!("{} reaches the villain in time", self.name(ctx, p))
            });
        } else {
            self.unspeakable_act_table(ctx, p, r, trace);
        }
    }
}
