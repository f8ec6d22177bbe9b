//! Tactical policies: how a side plays its fighters. A policy only picks
//! among legal actions (movement, facing, jumping, the once-per-duel extra
//! movement, the target); the rules are enforced by [`super::sequence`].
//!
//! - `aggressive`: closes at once and strikes with the best attack it can
//!   reach this phase (most expected levels taken), moving and taking the −2
//!   [7.33] when that is what it takes; uses the extra movement when only it
//!   brings a target into reach.
//! - `patient`: strikes without moving when it can; moves and strikes only
//!   from behind, where +3 [7.32] outweighs −2 [7.33]; otherwise moves into
//!   an attack position (behind the enemy if it can) and waits to strike
//!   unpenalised in the next phase.
//! - `random`: a uniform legal destination and facing, then a uniform choice
//!   among the targets in arc and not attacking at all; the floor of play.

use std::cell::RefCell;

use super::geometry::COUNTER;
use super::geometry::{
    EAST, NORTH, Picked, Reach, SOUTH, TOUCHING, WEST, WalkScratch, Walked, in_arc,
    offset_of_position,
};
use super::sequence::{Attack, Duel, MAX_FIGHTERS, State, Status};
use barsoom_engine::Dice;

/// A side's policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Close and strike at once.
    Aggressive,
    /// Strike unpenalised or from behind; otherwise set up.
    Patient,
    /// Uniform over legal actions.
    Random,
}

impl Policy {
    /// Parses a policy name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "aggressive" => Some(Policy::Aggressive),
            "patient" => Some(Policy::Patient),
            "random" => Some(Policy::Random),
            _ => None,
        }
    }

    /// The policy's name.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Aggressive => "aggressive",
            Policy::Patient => "patient",
            Policy::Random => "random",
        }
    }

    /// Picks fighter `a`'s action for this phase.
    #[inline]
    pub fn choose(self, duel: &Duel, s: &State, a: usize, dice: &mut Dice) -> Action {
        match self {
            Policy::Aggressive => aggressive(duel, s, a),
            Policy::Patient => patient(duel, s, a),
            Policy::Random => random(duel, s, a, dice),
        }
    }
}

/// One fighter's action in a phase: where he ends and faces, and whom he
/// melees afterwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Action {
    /// Top-left box at the end of movement.
    pub to: (i16, i16),
    /// Facing at the end of movement.
    pub facing: u8,
    /// Whether the movement jumped over a counter [5.34].
    pub jumped: bool,
    /// Whether it used the once-per-duel extra movement [5.31, 5.32].
    pub used_extra: bool,
    /// Melee target, if any.
    pub target: Option<usize>,
    /// What else he does after moving, instead of melee [5.18, 5.41, 19.4].
    pub task: Task,
}

/// Something a fighter does after his movement other than melee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Task {
    /// Nothing.
    #[default]
    None,
    /// Leave the display by the exit he stands on (or, on one that asks for
    /// a turn's wait, stay to leave at the turn's end) [5.18, 5.56].
    Leave,
    /// Pick up the unconscious character beside him; he may not melee
    /// [5.41].
    PickUp(u8),
    /// Kar Komak materialises his phantom warriors [19.41].
    Summon,
    /// Ghek holds this enemy with his mind [19.42].
    Immobilise(u8),
    /// Put down the character he carries before he moves; he may then move
    /// and melee as usual [5.4].
    PutDown,
}

impl Action {
    pub(super) fn strike(attack: &Attack, used_extra: bool) -> Self {
        Action {
            to: attack.at,
            facing: attack.facing,
            jumped: false,
            used_extra,
            target: Some(attack.target),
            task: Task::None,
        }
    }

    /// Staying where he stands, facing as he does, with `task`.
    pub fn stay(s: &State, a: usize, task: Task) -> Self {
        Action {
            to: s.pos[a],
            facing: s.facing[a],
            jumped: false,
            used_extra: false,
            target: None,
            task,
        }
    }
}

/// Whether `x` is a better attack than `best` for a policy that ranks by
/// value, then prefers not moving, then attacks from behind.
#[inline]
fn better(x: &Attack, best: &Option<Attack>) -> bool {
    match best {
        None => true,
        Some(b) => {
            let key = |a: &Attack| (a.value, u8::from(!a.moved), u8::from(a.behind));
            let (kx, kb) = (key(x), key(b));
            kx.0 > kb.0 + 1e-12 || ((kx.0 - kb.0).abs() <= 1e-12 && (kx.1, kx.2) > (kb.1, kb.2))
        }
    }
}

/// The best attack among those `keep` accepts, with `movements`.
#[inline]
pub(super) fn best_attack(
    duel: &Duel,
    s: &State,
    a: usize,
    movements: u8,
    reach: &Reach,
    keep: impl Fn(&Attack) -> bool,
) -> Option<Attack> {
    let targets = duel.targets(s, a);
    let gap = duel.gap_among(s, targets, s.pos[a]);
    best_attack_at_gap(duel, s, a, (movements, targets, gap), reach, keep)
}

/// Whether an enemy `gap` boxes away may be within a counter of the reach
/// of `movements`: if not, there is nothing to strike.
#[inline]
fn in_striking_range(movements: u8, gap: i16) -> bool {
    gap <= i16::from(movements * 4) + COUNTER
}

/// [`best_attack`] for a fighter whose targets are `targets` (bit per
/// fighter), the nearest `gap` boxes away.
#[inline]
fn best_attack_at_gap(
    duel: &Duel,
    s: &State,
    a: usize,
    (movements, targets, gap): (u8, u32, i16),
    reach: &Reach,
    keep: impl Fn(&Attack) -> bool,
) -> Option<Attack> {
    let steps = movements * 4;
    if !in_striking_range(movements, gap) {
        return None;
    }
    let mut best: Option<Attack> = None;
    duel.for_each_attack(s, a, Some((reach, steps)), |x| {
        if keep(&x) && better(&x, &best) && duel.keeps_closing_from(s, (targets, gap), x.at) {
            best = Some(x);
        }
    });
    best
}

/// The facing from `at` towards the counter at `to` (along the longer
/// axis).
#[inline]
pub(super) fn facing_towards(at: (i16, i16), to: (i16, i16)) -> u8 {
    let (dx, dy) = (to.0 - at.0, to.1 - at.1);
    if dx.abs() > dy.abs() {
        if dx > 0 { EAST } else { WEST }
    } else if dy > 0 {
        SOUTH
    } else {
        NORTH
    }
}

thread_local! {
    /// Scratch for the walking search of [`close_in`].
    static FIELD: RefCell<WalkScratch> = RefCell::new(WalkScratch::default());
    /// The goal boxes of [`walk_closer`], reused (up to a thousand boxes:
    /// zeroing a fresh array for each search cost more than the search's
    /// set-up).
    static GOALS: RefCell<Vec<(i16, i16)>> = const { RefCell::new(Vec::new()) };
}

/// [`close_in`] on open ground for a fighter of one movement (no jumps)
/// out of striking range (`gap` boxes from the nearest of `targets`): the
/// same action, found without the full reach; `None` when no box he can
/// reach is nearer an enemy (he then walks round, by [`close_in`]).
#[inline]
fn close_in_from_afar(
    duel: &Duel,
    s: &State,
    a: usize,
    movements: u8,
    (targets, gap): (u32, i16),
) -> Option<Action> {
    if movements != 1 || !duel.display.open_ground || targets == 0 {
        return None;
    }
    let to = Reach::first_within_one_movement(
        duel.movement_display(s, a),
        s.pos[a],
        Picked {
            boxes: &s.pos,
            among: duel.obstacle_mask(s, a),
        },
        s.restricted == duel.fighters[a].side + 1,
        Picked {
            boxes: &s.pos,
            among: targets,
        },
        (gap - 4).max(0)..gap,
    )?;
    Some(Action {
        to,
        facing: facing_to_nearest(duel, s, a, targets, to),
        jumped: false,
        used_extra: false,
        target: None,
        task: Task::None,
    })
}

/// The facing at `to` towards the nearest of `targets` (as he faces if
/// there is none).
#[inline]
fn facing_to_nearest(duel: &Duel, s: &State, a: usize, targets: u32, to: (i16, i16)) -> u8 {
    duel.nearest_of(s, targets, to)
        .map_or(s.facing[a], |(t, _)| facing_towards(to, s.pos[t]))
}

/// Closes in (a fighter with no attack this phase): from afar on open
/// ground without the full reach if that can tell, else by [`close_in`].
#[inline]
fn close_in_out_of_range(
    duel: &Duel,
    s: &State,
    a: usize,
    movements: u8,
    (targets, here): (u32, Option<(usize, i16)>),
) -> Action {
    let gap = here.map_or(i16::MAX, |(_, gap)| gap);
    if let Some(x) = close_in_from_afar(duel, s, a, movements, (targets, gap)) {
        return x;
    }
    close_in(
        duel,
        s,
        a,
        movements,
        &duel.reach(s, a, movements),
        (targets, here),
    )
}

/// Moves as close as possible to the nearest enemy and faces him, with
/// the reach of his `movements`: by the plain distance on a display
/// without walls, by walking distance round the walls otherwise.
fn close_in(
    duel: &Duel,
    s: &State,
    a: usize,
    movements: u8,
    reach: &Reach,
    (targets, here): (u32, Option<(usize, i16)>),
) -> Action {
    let jumps = duel.fighters[a].movement.jumps() && movements >= 2;
    let mut best = (here.map_or(i16::MAX, |(_, gap)| gap), s.pos[a], false);
    if duel.display.open_ground {
        // The first reachable box (in `Reach::for_each` order) of the
        // smallest gap: the first box within d of an enemy for the
        // smallest d that has one, if below the gap where he stands.
        let enemies = Picked {
            boxes: &s.pos,
            among: targets,
        };
        // A move of r steps brings him at most r boxes nearer anyone.
        let nearest = (best.0 - i16::from(movements * 4)).max(0);
        for d in nearest..best.0 {
            if let Some((x, y, jumped)) = reach.first_within(movements * 4, jumps, enemies, d) {
                best = (d, (x, y), jumped);
                break;
            }
        }
    }
    // Off open ground, or held up behind a counter on it (an unconscious
    // hero lying between): by walking distance round walls and counters.
    if !duel.display.open_ground || (best.1 == s.pos[a] && best.0 > COUNTER) {
        match walk_closer(duel, s, a, (movements, jumps), reach, (targets, 0)) {
            Walked::To(x, y, jumped) => best = (0, (x, y), jumped),
            Walked::NoWay => {
                let cleared = if duel.extras {
                    clear_the_way(duel, s, a, (movements, jumps), reach, targets)
                } else {
                    None
                };
                if let Some(x) = cleared.or_else(|| make_way(duel, s, a, (movements, jumps), reach))
                {
                    return x;
                }
            }
            Walked::Stay => {}
        }
    }
    let (_, to, jumped) = best;
    Action {
        to,
        facing: facing_to_nearest(duel, s, a, targets, to),
        jumped,
        used_extra: false,
        target: None,
        task: Task::None,
    }
}

/// A fighter of a side that fights, finding no walk to any enemy, clears
/// the way: the first unconscious comrade but for whose counter a walk
/// would lead to one (lying in a doorway) he picks up if beside him
/// [5.41], else walks over to; where it takes more than one (two lying
/// across a corridor), the first of them he can pick up or get nearer to.
/// A carrier beside the one he must lift puts his load down first.
/// `None` if no comrade shuts the way. Once he carries him he fights on,
/// putting him down beside the enemy (`errand::put_down_to_fight`).
#[cold]
fn clear_the_way(
    duel: &Duel,
    s: &State,
    a: usize,
    (movements, jumps): (u8, bool),
    reach: &Reach,
    targets: u32,
) -> Option<Action> {
    let side = duel.fighters[a].side;
    let lying = (0..s.n)
        .filter(|&u| duel.fighters[u].side == side && s.status[u] == Status::Unconscious)
        .fold(0u32, |bits, u| bits | 1 << u);
    let shut_by = |ignored: u32| {
        walk_closer(duel, s, a, (movements, jumps), reach, (targets, ignored)) != Walked::NoWay
    };
    if lying == 0 || !shut_by(lying) {
        return None;
    }
    let alone = (0..s.n).find(|&u| lying & (1 << u) != 0 && shut_by(1 << u));
    let beside = |u: usize| {
        let (dx, dy) = (s.pos[u].0 - s.pos[a].0, s.pos[u].1 - s.pos[a].1);
        dx.abs().max(dy.abs()) == COUNTER
    };
    alone
        .into_iter()
        .chain((0..s.n).filter(|&u| lying & (1 << u) != 0))
        .find_map(|u| {
            if s.carrying[a] != 0 && beside(u) {
                // Beside one he must lift but carrying another: he puts
                // his load down here, to lift this one next.
                Some(Action::stay(s, a, Task::PutDown))
            } else {
                super::errand::pick_up_or_fetch(duel, s, a, u)
            }
        })
}

/// A fighter with no walk to any enemy whose counter alone shuts a
/// comrade's walk (two in a corridor, each in the other's way to the one
/// box beside a doorway) steps aside: to the first box of his reach from
/// which the comrade has a walk. `None` if he shuts no comrade's way or
/// no box of his reach opens it.
#[cold]
fn make_way(
    duel: &Duel,
    s: &State,
    a: usize,
    (movements, jumps): (u8, bool),
    reach: &Reach,
) -> Option<Action> {
    let side = duel.fighters[a].side;
    let walks = |s: &State, c: usize, ignored: u32| {
        let targets = duel.targets(s, c);
        let (m, _) = duel.movements(s, c);
        let j = duel.fighters[c].movement.jumps() && m >= 2 && s.carrying[c] == 0;
        targets != 0
            && walk_closer(duel, s, c, (m, j), &duel.reach(s, c, m), (targets, ignored))
                != Walked::NoWay
    };
    let shut = (0..s.n).find(|&c| {
        c != a
            && duel.fighters[c].side == side
            && s.fighting(c)
            && s.held & (1 << c) == 0
            && !walks(s, c, 0)
            && walks(s, c, 1 << a)
    })?;
    let mut moved = *s;
    let mut aside = None;
    reach.for_each(movements * 4, jumps, |x, y, jumped| {
        if aside.is_some() || (x, y) == s.pos[a] || !duel.keeps_closing(s, a, (x, y)) {
            return;
        }
        moved.pos[a] = (x, y);
        if walks(&moved, shut, 0) {
            aside = Some(((x, y), jumped));
        }
    });
    let (to, jumped) = aside?;
    Some(Action {
        to,
        facing: facing_to_nearest(duel, s, a, duel.targets(s, a), to),
        jumped,
        used_extra: false,
        target: None,
        task: Task::None,
    })
}

/// The box of `reach` (the first of those in `Reach::for_each` order)
/// nearest by walking round walls and counters to a position to attack
/// one of `targets` from, if nearer than where `a` stands: an exact
/// position [7.41] round one of them, or any box touching one (a position
/// straddling two [7.42] is still one to attack from), whichever walk is
/// shorter, the exact position on a tie. Walking to the exact positions
/// alone, a fighter would go round by another door to reach one while a
/// box touching his enemy lies on his side of the wall, and the enemy,
/// doing the same, would meet him nowhere. The counters of `ignored` (bit
/// per fighter) are walked through, as if they were not there. Kept out
/// of line: its goal lists are large, and the open display seldom needs
/// it.
#[inline(never)]
fn walk_closer(
    duel: &Duel,
    s: &State,
    a: usize,
    (movements, jumps): (u8, bool),
    reach: &Reach,
    (targets, ignored): (u32, u32),
) -> Walked {
    GOALS.with(|goals| {
        let goals = &mut goals.borrow_mut();
        // Every exact position touches its enemy: no walk to a touching
        // box, none to an exact position either.
        let touching = |_, k: usize| TOUCHING[k];
        boxes_round(s, targets, (TOUCHING.len(), touching), goals);
        let walk = (movements, jumps, ignored);
        let (near, near_distance) = walk_to(duel, s, a, walk, reach, goals);
        if near == Walked::NoWay {
            return near;
        }
        let exact = |facing, k: usize| offset_of_position(k as u8 + 1, facing);
        boxes_round(s, targets, (8, exact), goals);
        match walk_to(duel, s, a, walk, reach, goals) {
            (walked, distance) if walked != Walked::NoWay && distance <= near_distance => walked,
            _ => near,
        }
    })
}

/// The box of `reach` nearest by walking round walls and counters (but
/// those of `ignored`, bit per fighter) to one of `goals`, as
/// [`Reach::nearest_walking`] finds it for fighter `a` with `movements`
/// (jumping if `jumps`), and the walking distance from the goals to it
/// (to `a` when he stays).
pub(super) fn walk_to(
    duel: &Duel,
    s: &State,
    a: usize,
    (movements, jumps, ignored): (u8, bool, u32),
    reach: &Reach,
    goals: &[(i16, i16)],
) -> (Walked, u16) {
    let (others, count) = duel.obstacles(s, a, ignored);
    FIELD.with(|field| {
        let field = &mut field.borrow_mut();
        let walked = reach.nearest_walking(
            duel.movement_display(s, a),
            s.restricted == duel.fighters[a].side + 1,
            &others[..count],
            goals,
            (movements * 4, jumps),
            field,
            |x, y| duel.keeps_closing(s, a, (x, y)),
        );
        (walked, field.distance())
    })
}

/// Fills `goals` (cleared first) with the boxes `offset(facing, k)` from
/// each of `targets` (bit per fighter) for `k` below `per`, `facing` the
/// target's.
fn boxes_round(
    s: &State,
    targets: u32,
    (per, offset): (usize, impl Fn(u8, usize) -> (i16, i16)),
    goals: &mut Vec<(i16, i16)>,
) {
    goals.clear();
    let mut bits = targets;
    while bits != 0 {
        let t = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        goals.extend((0..per).map(|k| {
            let (ox, oy) = offset(s.facing[t], k);
            (s.pos[t].0 + ox, s.pos[t].1 + oy)
        }));
    }
}

fn aggressive(duel: &Duel, s: &State, a: usize) -> Action {
    if duel.extras
        && let Some(x) = super::errand::aggressive(duel, s, a)
    {
        return x;
    }
    let (base, extra) = duel.movements(s, a);
    let targets = duel.targets(s, a);
    let here = duel.nearest_of(s, targets, s.pos[a]);
    let gap = here.map_or(i16::MAX, |(_, gap)| gap);
    if !in_striking_range(extra.map_or(base, |m| m.max(base)), gap) {
        return close_in_out_of_range(duel, s, a, base, (targets, here));
    }
    let reach = duel.reach(s, a, base);
    if let Some(x) = best_attack_at_gap(duel, s, a, (base, targets, gap), &reach, |_| true) {
        return Action::strike(&x, false);
    }
    if let Some(m) = extra
        && let Some(x) =
            best_attack_at_gap(duel, s, a, (m, targets, gap), &duel.reach(s, a, m), |_| {
                true
            })
    {
        return Action::strike(&x, true);
    }
    close_in(duel, s, a, base, &reach, (targets, here))
}

fn patient(duel: &Duel, s: &State, a: usize) -> Action {
    if duel.extras
        && let Some(x) = super::errand::patient(duel, s, a)
    {
        return x;
    }
    let (base, _) = duel.movements(s, a);
    let targets = duel.targets(s, a);
    let here = duel.nearest_of(s, targets, s.pos[a]);
    let gap = here.map_or(i16::MAX, |(_, gap)| gap);
    // Out of range he has neither an attack nor one to set up.
    if !in_striking_range(base, gap) {
        return close_in_out_of_range(duel, s, a, base, (targets, here));
    }
    let reach = duel.reach(s, a, base);
    // Strike where he stands, or move and strike only from behind.
    if let Some(x) = best_attack_at_gap(duel, s, a, (base, targets, gap), &reach, |x| {
        !x.moved || x.behind
    }) {
        return Action::strike(&x, false);
    }
    // Set up: the attack position he can reach that is best for next phase.
    let mut setup: Option<Attack> = None;
    duel.for_each_attack(s, a, Some((&reach, base * 4)), |x| {
        let key = |a: &Attack| (u8::from(a.behind), a.value);
        if duel.keeps_closing(s, a, x.at) && setup.as_ref().is_none_or(|b| key(&x) > key(b)) {
            setup = Some(x);
        }
    });
    if let Some(x) = setup {
        return Action {
            to: x.at,
            facing: x.facing,
            jumped: false,
            used_extra: false,
            target: None,
            task: Task::None,
        };
    }
    close_in(duel, s, a, base, &reach, (targets, here))
}

/// Most destinations a random fighter chooses among.
const MAX_DESTINATIONS: usize = 33 * 33;

fn random(duel: &Duel, s: &State, a: usize, dice: &mut Dice) -> Action {
    if duel.extras
        && let Some(x) = super::errand::random(duel, s, a, dice)
    {
        return x;
    }
    let (movements, _) = duel.movements(s, a);
    let reach = duel.reach(s, a, movements);
    let jumps = duel.fighters[a].movement.jumps() && movements >= 2;
    let mut options = [((0i16, 0i16), false); MAX_DESTINATIONS];
    let mut n = 0;
    reach.for_each(movements * 4, jumps, |x, y, jumped| {
        if n < MAX_DESTINATIONS && duel.keeps_closing(s, a, (x, y)) {
            options[n] = ((x, y), jumped);
            n += 1;
        }
    });
    let (to, jumped) = if n == 0 {
        (s.pos[a], false)
    } else {
        options[dice.below(n as u32) as usize]
    };
    let facing = dice.below(4) as u8;
    let mut targets = [0usize; MAX_FIGHTERS];
    let mut k = 0;
    let fighter = &duel.fighters[a];
    let armed = super::melee::MeleeRules::may_melee(
        fighter.at(s.level[a]).strength,
        s.unarmed & (1 << a) != 0,
    );
    if !jumped && armed {
        let arc = duel.fighters[a].arc();
        for t in 0..s.n {
            if duel.may_target(s, a, t) && in_arc(arc, to.0 - s.pos[t].0, to.1 - s.pos[t].1, facing)
            {
                targets[k] = t;
                k += 1;
            }
        }
    }
    let pick = if k == 0 {
        k
    } else {
        dice.below(k as u32 + 1) as usize
    };
    Action {
        to,
        facing,
        jumped,
        used_extra: false,
        target: (pick < k).then(|| targets[pick]),
        task: Task::None,
    }
}

impl Policy {
    /// The melee `a` makes from where he stands, facing as he does (the
    /// attacker melee phase [4.0 D], after the movement phase; `moved`:
    /// he moved in it [7.33]): `aggressive` the most expected levels,
    /// `patient` the same if he did not move or strikes from behind,
    /// `random` a uniform choice among the targets and not striking.
    pub fn strike_from_here(
        self,
        duel: &Duel,
        s: &State,
        a: usize,
        moved: bool,
        dice: &mut Dice,
    ) -> Option<usize> {
        let fighter = &duel.fighters[a];
        if !super::melee::MeleeRules::may_melee(
            fighter.at(s.level[a]).strength,
            s.unarmed & (1 << a) != 0,
        ) {
            return None;
        }
        let mut targets = [0usize; MAX_FIGHTERS];
        let mut k = 0;
        let mut best: Option<(f64, usize)> = None;
        for t in 0..s.n {
            let (dx, dy) = (s.pos[a].0 - s.pos[t].0, s.pos[a].1 - s.pos[t].1);
            if !duel.may_target(s, a, t) || !in_arc(fighter.arc(), dx, dy, s.facing[a]) {
                continue;
            }
            targets[k] = t;
            k += 1;
            let (behind, needed) = duel.needed(s, a, t, s.pos[a], moved);
            let value = duel.value(s, a, t, needed);
            let wanted = self != Policy::Patient || !moved || behind;
            if wanted && best.is_none_or(|(v, _)| value > v + 1e-12) {
                best = Some((value, t));
            }
        }
        match self {
            Policy::Random if k > 0 => {
                let pick = dice.below(k as u32 + 1) as usize;
                (pick < k).then(|| targets[pick])
            }
            Policy::Random => None,
            _ => best.map(|(_, t)| t),
        }
    }
}
