//! What a side's goal asks of its fighters, for the policies: freeing
//! prisoners from the dungeon [5.55], carrying the unconscious [5.4],
//! getting out by the exits [5.18, 5.56], and the mental powers of Kar Komak
//! and Ghek [19.41, 19.42]. Only legal actions are proposed; the rules are
//! enforced in [`super::escape`] and [`super::special`].
//!
//! - A side whose goal is `rescue` sends its first hero on his feet to the
//!   dungeon door, then beside each chained prisoner in turn, and keeps him
//!   there [5.55]; its other fighters fight. Once no prisoner of the side
//!   is held, it leaves as a side whose goal is `escape` does.
//! - A side leaving (`escape`, or a finished `rescue`): a fighter beside an
//!   unconscious comrade picks him up [5.41]; the comrade nearest one who is
//!   not beside him walks over; the rest walk towards the nearest exit the
//!   side may use but leave by it [5.18] only once no freed prisoner of the
//!   side is left on the display, waiting out a turn where the exit asks
//!   for it [5.56]. Freed prisoners and carriers head out at once.
//! - A side that fights picks up a comrade only to clear its way: a
//!   fighter with no walk to any enemy picks up (or walks over to) the
//!   unconscious comrade whose counter shuts it, a hero fallen in a
//!   doorway (`policy::clear_the_way`). A carrier of such a side fights
//!   on, putting his load down when an enemy is beside him.
//! - Kar Komak materialises his phantoms and Ghek holds the strongest enemy
//!   at their first chance once the attackers are discovered, never when
//!   engaged [19.43].
//!
//! `aggressive` strikes first when it has an attack (except a carrier of a
//! side leaving or a fighter on his way out); `patient` does the errand
//! first unless an enemy is beside him (then it defends itself as it
//! always does); `random` picks uniformly between its ordinary random
//! action and each special action open to it (leaving by the exit it
//! stands on, picking up a character beside it, a power).

use super::geometry::{Reach, TOUCHING};
use super::policy::{Action, Task, best_attack, facing_towards, walk_to};
use super::roster::{Class, Special};
use super::sequence::{Duel, State, Status};
use barsoom_engine::Dice;

/// What a fighter's side asks of him this phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    /// Nothing special: fight.
    Fight,
    /// Leave by an exit, walking there first.
    HeadOut,
    /// Walk with freed prisoners towards the exit, not leaving before them.
    Escort,
    /// Work at the dungeon, walking there first.
    Work,
    /// Pick up the unconscious comrade beside him.
    PickUp(usize),
    /// Walk over to an unconscious comrade.
    Fetch(usize),
    /// A villain of a losing side makes for an exit and leaves, striking no
    /// blow on the way [`super::escape::Goal::Withdraw`].
    Withdraw,
}

/// The side's plan for fighter `a` [5.4, 5.18, 5.55].
fn plan(duel: &Duel, s: &State, a: usize) -> Plan {
    use super::escape::Goal;
    let side = duel.fighters[a].side;
    let goal = duel.special.goals[usize::from(side)];
    if goal == Goal::Fight {
        return Plan::Fight;
    }
    if goal == Goal::Withdraw {
        // [10.22] only the villains leave, once the side is losing.
        let villain = duel.fighters[a].class == Class::Villain;
        return if villain && duel.losing(s, side) {
            Plan::Withdraw
        } else {
            Plan::Fight
        };
    }
    if s.carrying[a] != 0 || duel.fighters[a].prisoner {
        return Plan::HeadOut;
    }
    let held = |i: usize| duel.fighters[i].side == side && s.captive(i);
    if goal == Goal::Rescue && (0..s.n).any(held) {
        let chained = (0..s.n).any(|i| held(i) && duel.fighters[i].in_dungeon);
        return if chained && worker(duel, s, side) == Some(a) {
            Plan::Work
        } else {
            Plan::Fight
        };
    }
    let comrade = |u: usize| duel.fighters[u].side == side && s.status[u] == Status::Unconscious;
    if let Some(u) = (0..s.n).find(|&u| comrade(u) && duel.may_pick_up(s, a, u)) {
        return Plan::PickUp(u);
    }
    if let Some(u) = (0..s.n).find(|&u| comrade(u)) {
        let fetcher = (0..s.n)
            .filter(|&c| may_carry(duel, s, c) && duel.fighters[c].side == side)
            .min_by_key(|&c| chebyshev(s.pos[c], s.pos[u]));
        if fetcher == Some(a) {
            return Plan::Fetch(u);
        }
    }
    let waiting = (0..s.n).any(|i| {
        duel.fighters[i].side == side
            && duel.fighters[i].prisoner
            && s.x.freed & (1 << i) != 0
            && matches!(s.status[i], Status::Fighting | Status::Bystander)
    });
    if waiting { Plan::Escort } else { Plan::HeadOut }
}

/// Whether `c` could carry someone: on his feet (a personage only with
/// her values in play [19.23], as [`Duel::may_pick_up`] has it), not
/// carrying, not a prisoner on his way out.
fn may_carry(duel: &Duel, s: &State, c: usize) -> bool {
    s.fighting(c) && s.carrying[c] == 0 && !duel.fighters[c].prisoner && s.held & (1 << c) == 0
}

/// The hero of `side` who works at the dungeon: the first on his feet who
/// carries no one and is not held [5.55].
fn worker(duel: &Duel, s: &State, side: u8) -> Option<usize> {
    (0..s.n).find(|&h| {
        duel.fighters[h].side == side
            && duel.fighters[h].class == Class::Hero
            && s.fighting(h)
            && s.carrying[h] == 0
            && s.held & (1 << h) == 0
    })
}

/// The larger of the row and column distances between two top-left boxes.
fn chebyshev(a: (i16, i16), b: (i16, i16)) -> i16 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

/// The step that brings `a` nearest to where `score` is lowest among the
/// boxes he can reach this phase; `None` if none beats where he stands.
/// `task` goes with the step where `finish` holds at its end.
fn steer(
    duel: &Duel,
    s: &State,
    a: usize,
    score: impl Fn(i16, i16) -> u16,
    finish: impl Fn(i16, i16) -> bool,
    task: Task,
) -> Option<Action> {
    let (movements, _) = duel.movements(s, a);
    let reach = duel.reach(s, a, movements);
    let jumps = duel.fighters[a].movement.jumps() && movements >= 2 && s.carrying[a] == 0;
    let mut best = (score(s.pos[a].0, s.pos[a].1), s.pos[a], false);
    reach.for_each(movements * 4, jumps, |x, y, jumped| {
        let here = score(x, y);
        if here < best.0 && duel.keeps_closing(s, a, (x, y)) {
            best = (here, (x, y), jumped);
        }
    });
    let (_, to, jumped) = best;
    if to == s.pos[a] {
        return None;
    }
    let facing = duel
        .nearest_enemy(s, a, to)
        .map_or(s.facing[a], |t| facing_towards(to, s.pos[t]));
    Some(Action {
        to,
        facing,
        jumped,
        used_extra: false,
        target: None,
        task: if finish(to.0, to.1) { task } else { Task::None },
    })
}

/// Fighter `a` walks towards (or, if `leave`, leaves by) an exit his side
/// may use.
fn head_out(duel: &Duel, s: &State, a: usize, leave: bool) -> Option<Action> {
    let task = if leave { Task::Leave } else { Task::None };
    if duel.exit_at(a, s.pos[a]).is_some() {
        return Some(Action::stay(s, a, task));
    }
    let field = &duel.fields(s, a)?.exits[usize::from(duel.fighters[a].side)];
    let index = |x: i16, y: i16| duel.display.index(x, y);
    steer(
        duel,
        s,
        a,
        |x, y| field[index(x, y)],
        |x, y| duel.exit_at(a, (x, y)).is_some(),
        task,
    )
}

/// A villain of a losing side withdraws [10.22]: leaves by the exit he
/// stands on, else walks round the walls and counters towards the nearest
/// square of an exit his side may use. `None` (he fights on) when no walk
/// leads to one: steering by the walls alone, he would make for an exit
/// whose way a counter shuts, find himself stuck, turn to fight, and make
/// for it again, to the end of the duel.
fn withdraw(duel: &Duel, s: &State, a: usize) -> Option<Action> {
    if duel.exit_at(a, s.pos[a]).is_some() {
        return Some(Action::stay(s, a, Task::Leave));
    }
    let squares = &duel.fields(s, a)?.exit_squares[usize::from(duel.fighters[a].side)];
    walk_towards(duel, s, a, squares, |at| {
        if duel.exit_at(a, at).is_some() {
            Task::Leave
        } else {
            Task::None
        }
    })
}

/// The worker stays at his job or walks to it [5.55].
fn work(duel: &Duel, s: &State, a: usize) -> Option<Action> {
    if duel.job_of(s, a) != 0 {
        return Some(Action::stay(s, a, Task::None));
    }
    let fields = duel.fields(s, a)?;
    let field = if s.x.door_open {
        let side = duel.fighters[a].side;
        let i = (0..s.n).find(|&i| {
            duel.fighters[i].side == side && duel.fighters[i].in_dungeon && s.captive(i)
        })?;
        fields.beside.get(i)?
    } else {
        &fields.door
    };
    let index = |x: i16, y: i16| duel.display.index(x, y);
    steer(
        duel,
        s,
        a,
        |x, y| field[index(x, y)],
        |_, _| false,
        Task::None,
    )
}

/// Fighter `a` walks over to his unconscious comrade `u`, round the walls
/// and the counters, to a box touching him; `None` if he can get no
/// nearer.
fn fetch(duel: &Duel, s: &State, a: usize, u: usize) -> Option<Action> {
    let mut goals = [(0i16, 0i16); TOUCHING.len()];
    for (goal, (dx, dy)) in goals.iter_mut().zip(TOUCHING) {
        *goal = (s.pos[u].0 + dx, s.pos[u].1 + dy);
    }
    walk_towards(duel, s, a, &goals, |_| Task::None)
}

/// Fighter `a`'s step nearest by walking round the walls and counters to
/// one of `goals`, facing the nearest enemy, with the task `task_at` gives
/// where he ends; `None` if no walk brings him nearer.
fn walk_towards(
    duel: &Duel,
    s: &State,
    a: usize,
    goals: &[(i16, i16)],
    task_at: impl Fn((i16, i16)) -> Task,
) -> Option<Action> {
    let (movements, _) = duel.movements(s, a);
    let reach = duel.reach(s, a, movements);
    let jumps = duel.fighters[a].movement.jumps() && movements >= 2 && s.carrying[a] == 0;
    let (walked, _) = walk_to(duel, s, a, (movements, jumps, 0), &reach, goals);
    let (x, y, jumped) = walked.to()?;
    let facing = duel
        .nearest_enemy(s, a, (x, y))
        .map_or(s.facing[a], |t| facing_towards((x, y), s.pos[t]));
    Some(Action {
        to: (x, y),
        facing,
        jumped,
        used_extra: false,
        target: None,
        task: task_at((x, y)),
    })
}

/// The action a plan other than fighting asks for, if it can be done.
fn carry_out(duel: &Duel, s: &State, a: usize, plan: Plan) -> Option<Action> {
    match plan {
        Plan::Fight => None,
        Plan::HeadOut => head_out(duel, s, a, true),
        Plan::Withdraw => withdraw(duel, s, a),
        Plan::Escort => head_out(duel, s, a, false),
        Plan::Work => work(duel, s, a),
        Plan::PickUp(u) | Plan::Fetch(u) => pick_up_or_fetch(duel, s, a, u),
    }
}

/// Fighter `a` picks up the unconscious `u` if he may [5.41], else walks
/// over to him.
pub(super) fn pick_up_or_fetch(duel: &Duel, s: &State, a: usize, u: usize) -> Option<Action> {
    if duel.may_pick_up(s, a, u) {
        Some(Action::stay(s, a, Task::PickUp(u as u8)))
    } else {
        fetch(duel, s, a, u)
    }
}

/// Kar Komak's or Ghek's power, at the first chance once the attackers
/// are discovered [19.41-19.43]; Ghek holds the enemy with the highest
/// strength.
fn power(duel: &Duel, s: &State, a: usize) -> Option<Action> {
    if !s.discovered || !duel.may_use_power(s, a) {
        return None;
    }
    match duel.fighters[a].special? {
        Special::PhantomWarriors => Some(Action::stay(s, a, Task::Summon)),
        Special::Immobilise => {
            let t = (0..s.n)
                .filter(|&t| duel.may_immobilise(s, a, t))
                .max_by_key(|&t| {
                    (
                        duel.fighters[t].at(s.level[t]).strength,
                        std::cmp::Reverse(t),
                    )
                })?;
            Some(Action::stay(s, a, Task::Immobilise(t as u8)))
        }
        Special::Woola => None,
    }
}

/// `aggressive` with extras in play: a power first; a carrier with an
/// enemy beside him puts his load down and strikes; a carrier of a side
/// leaving, a fighter standing on his way out, or one picking up does
/// that; otherwise the best attack within reach; otherwise the errand;
/// `None`: the ordinary aggressive play.
pub fn aggressive(duel: &Duel, s: &State, a: usize) -> Option<Action> {
    if let Some(x) = power(duel, s, a) {
        return Some(x);
    }
    if let Some(x) = put_down_to_fight(duel, s, a, false) {
        return Some(x);
    }
    let plan = plan(duel, s, a);
    if plan == Plan::Fight {
        return None;
    }
    if !urgent(duel, s, a, plan) {
        let (base, _) = duel.movements(s, a);
        let reach = duel.reach(s, a, base);
        if let Some(x) = best_attack(duel, s, a, base, &reach, |_| true) {
            return Some(Action::strike(&x, false));
        }
    }
    carry_out(duel, s, a, plan)
}

/// `patient` with extras in play: a power; a carrier, a fighter standing
/// on his way out, or one picking up does that; one with an enemy beside
/// him defends himself (the ordinary patient play); otherwise the errand
/// first. `None`: the ordinary patient play.
pub fn patient(duel: &Duel, s: &State, a: usize) -> Option<Action> {
    if let Some(x) = power(duel, s, a) {
        return Some(x);
    }
    let plan = plan(duel, s, a);
    if let Some(x) = put_down_to_fight(duel, s, a, true) {
        return Some(x);
    }
    if plan == Plan::Fight || (!urgent(duel, s, a, plan) && duel.next_to_enemy(s, a)) {
        return None;
    }
    carry_out(duel, s, a, plan)
}

/// A carrier with an enemy beside him who has a blow to strike puts his
/// load down and strikes [5.4]: the enemy would follow him out anyway, and
/// the load costs him a point in melee and a movement [5.42, 7.35].
/// `aggressive` takes the best attack within the carrier's reach, `patient`
/// only one from where he stands. The attack is reckoned as carrying (a
/// point short of what he will roll).
fn put_down_to_fight(duel: &Duel, s: &State, a: usize, standing: bool) -> Option<Action> {
    if s.carrying[a] == 0 || !duel.next_to_enemy(s, a) {
        return None;
    }
    let movements = duel.movements(s, a).0;
    let reach = duel.reach(s, a, movements);
    let x = best_attack(duel, s, a, movements, &reach, |x| !(standing && x.moved))?;
    Some(Action {
        task: Task::PutDown,
        ..Action::strike(&x, false)
    })
}

/// Whether the plan comes before any melee: carrying, picking up, or
/// standing on the exit on the way out.
fn urgent(duel: &Duel, s: &State, a: usize, plan: Plan) -> bool {
    s.carrying[a] != 0
        || matches!(plan, Plan::PickUp(_) | Plan::Withdraw)
        || (plan == Plan::HeadOut && duel.exit_at(a, s.pos[a]).is_some())
}

/// `random` with extras in play: a uniform choice between the ordinary
/// random action (`None`) and each special action open to `a`.
pub fn random(duel: &Duel, s: &State, a: usize, dice: &mut Dice) -> Option<Action> {
    let mut options = [Task::None; 2 * super::sequence::MAX_FIGHTERS + 2];
    let mut k = 0;
    if duel.exit_at(a, s.pos[a]).is_some() {
        options[k] = Task::Leave;
        k += 1;
    }
    if s.carrying[a] != 0 {
        options[k] = Task::PutDown;
        k += 1;
    }
    for u in 0..s.n {
        if duel.may_pick_up(s, a, u) {
            options[k] = Task::PickUp(u as u8);
            k += 1;
        }
    }
    if duel.may_use_power(s, a) {
        match duel.fighters[a].special {
            Some(Special::PhantomWarriors) => {
                options[k] = Task::Summon;
                k += 1;
            }
            Some(Special::Immobilise) => {
                for t in 0..s.n {
                    if duel.may_immobilise(s, a, t) {
                        options[k] = Task::Immobilise(t as u8);
                        k += 1;
                    }
                }
            }
            _ => {}
        }
    }
    if k == 0 {
        return None;
    }
    let pick = dice.below(k as u32 + 1) as usize;
    (pick < k).then(|| Action::stay(s, a, options[pick]))
}

/// Whether fighter `a`, moving from `from`, takes along the enemy
/// personage `p` who stood beside him [5.72]. Every policy does the same:
/// a side on its way out (goal `escape`, or `rescue`) takes her off the
/// display with it, a prize; a side that fights keeps a captive it holds
/// with her guard as he falls back or moves along, never closer to the
/// nearest enemy (so she is not led into the rescuers' reach), and leaves
/// a free personage where she is.
pub fn leads(duel: &Duel, s: &State, a: usize, p: usize, from: (i16, i16)) -> bool {
    let side = usize::from(duel.fighters[a].side);
    if duel.special.goals[side].leaves_at_once() {
        return true;
    }
    s.status[p] == Status::CaptivePersonage
        && duel.gap_to_enemy(s, a, s.pos[a]) >= duel.gap_to_enemy(s, a, from)
}

/// How a free personage without combat values moves at the end of the
/// joint action phase [5.71]: for a side leaving, towards an exit and out
/// [5.18, 5.56]; at random, a uniform step (or leaving where she stands);
/// otherwise she stays. She passes through other counters [5.73].
pub(crate) fn personage_move(
    duel: &Duel,
    s: &State,
    p: usize,
    policy: super::policy::Policy,
    dice: &mut Dice,
) -> Option<Action> {
    let side = duel.fighters[p].side;
    let display = duel.movement_display(s, p);
    let reach = Reach::compute_for(
        display,
        s.pos[p],
        super::geometry::STEPS_PER_MOVEMENT,
        &[],
        false,
        s.restricted == side + 1,
    );
    let on_exit = duel.exit_at(p, s.pos[p]).is_some();
    if policy == super::policy::Policy::Random {
        let mut n = 0u32;
        reach.for_each(4, false, |_, _, _| n += 1);
        let pick = dice.below(n + u32::from(on_exit));
        if pick == n {
            return Some(Action::stay(s, p, Task::Leave));
        }
        let mut i = 0;
        let mut to = s.pos[p];
        reach.for_each(4, false, |x, y, _| {
            if i == pick {
                to = (x, y);
            }
            i += 1;
        });
        return Some(Action {
            to,
            ..Action::stay(s, p, Task::None)
        });
    }
    if !duel.special.goals[usize::from(side)].leaves_at_once() {
        return None;
    }
    if on_exit {
        return Some(Action::stay(s, p, Task::Leave));
    }
    let field = &duel.fields(s, p)?.exits[usize::from(side)];
    let here = field[duel.display.index(s.pos[p].0, s.pos[p].1)];
    let mut best = (here, s.pos[p]);
    reach.for_each(4, false, |x, y, _| {
        let d = field[duel.display.index(x, y)];
        if d < best.0 {
            best = (d, (x, y));
        }
    });
    let to = best.1;
    Some(Action {
        to,
        task: if duel.exit_at(p, to).is_some() {
            Task::Leave
        } else {
            Task::None
        },
        ..Action::stay(s, p, Task::None)
    })
}
