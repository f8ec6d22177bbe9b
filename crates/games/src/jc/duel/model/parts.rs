//! What a compiled duel derives from its display alone, built once per
//! display and shared: the display under each state of its openings
//! [5.51, 5.54, 5.55], the walking-distance fields that steer fighters
//! to exits, the dungeon door and chained prisoners, and the defenders'
//! lines of discovery [6.22].
//!
//! The Strategic Game compiles tens of thousands of duels on a dozen
//! displays; each used to build its own variants and fields (most of a
//! compiled duel's memory and of its compiling time). They are pure
//! functions of the display and what is asked, so sharing them never
//! changes a result.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::jc::duel::geometry::{Cell, Display, Openings};

/// A display compared by address. The key holds the display, so its
/// address cannot be reused by another while the entry lives.
#[derive(Debug, Clone)]
struct ByAddress(Arc<Display>);

impl PartialEq for ByAddress {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ByAddress {}

impl Hash for ByAddress {
    fn hash<H: Hasher>(&self, state: &mut H) {
        Arc::as_ptr(&self.0).hash(state);
    }
}

/// Where a field's walks end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// A square whose counter covers one of these areas (a bit each).
    Areas(u32),
    /// A square whose counter touches the dungeon door.
    Door,
    /// A square beside a counter chained at this square.
    Beside(i16, i16),
}

/// One display, with its staging area open or not [5.51] (the variants'
/// common ground), and which variant.
type VariantKey = (ByAddress, bool);
type FieldKey = (ByAddress, bool, usize, Target);
/// One display, and the square a defender set up on.
type LinesKey = (ByAddress, (i16, i16));
/// A memo of shared values by key.
type Memo<K, V> = Mutex<HashMap<K, Arc<V>>>;

/// Variants and fields by display, shared by every duel set up with it.
#[derive(Debug, Default)]
pub struct DisplayParts {
    variants: Memo<VariantKey, [Display]>,
    fields: Memo<FieldKey, [u16]>,
    squares: Memo<FieldKey, [(i16, i16)]>,
    lines: Memo<LinesKey, [bool]>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// `key`'s entry of `memo`, built by `build` on first use (outside the
/// lock: two threads building at once build the same thing).
fn memo<K: Eq + Hash, V: ?Sized>(
    memo: &Memo<K, V>,
    key: K,
    build: impl FnOnce() -> Arc<V>,
) -> Arc<V> {
    if let Some(v) = lock(memo).get(&key) {
        return Arc::clone(v);
    }
    let built = build();
    Arc::clone(lock(memo).entry(key).or_insert(built))
}

/// The variant index of `openings`: dungeon door open + 2 × passageways
/// open.
pub fn variant_openings(v: usize, staging_area: bool) -> Openings {
    Openings {
        dungeon_door: v & 1 != 0,
        secret_passages: v & 2 != 0,
        staging_area,
    }
}

impl DisplayParts {
    /// `display` under each state of its openings, index as
    /// [`variant_openings`]; empty when it has no door or passageway to
    /// open.
    pub fn variants(&self, display: &Arc<Display>, staging_area: bool) -> Arc<[Display]> {
        let key = (ByAddress(Arc::clone(display)), staging_area);
        memo(&self.variants, key, || {
            if display.has_openings() {
                (0..4)
                    .map(|v| display.with_openings(variant_openings(v, staging_area)))
                    .collect()
            } else {
                Arc::from(Vec::new())
            }
        })
    }

    /// Steps from each square of `variant` (of `display`) to `target`,
    /// ignoring counters; unreachable squares hold `u16::MAX`.
    pub fn field(
        &self,
        display: &Arc<Display>,
        staging_area: bool,
        variant: usize,
        target: Target,
    ) -> Arc<[u16]> {
        let key = (
            ByAddress(Arc::clone(display)),
            staging_area,
            variant,
            target,
        );
        memo(&self.fields, key, || {
            let variants = self.variants(display, staging_area);
            let on = variants.get(variant).unwrap_or(display);
            match target {
                Target::Areas(areas) => {
                    on.distance_field(|x, y| areas != 0 && on.areas_under(x, y) & areas != 0)
                }
                Target::Door => {
                    // A display drawn without a door has no square touching one.
                    let has_door = display.draws(Cell::Locked);
                    on.distance_field(|x, y| has_door && on.touches(x, y, |c| c == Cell::Locked))
                }
                Target::Beside(ax, ay) => on.distance_field(|x, y| {
                    (x - ax).abs().max((y - ay).abs()) == crate::jc::duel::geometry::COUNTER
                }),
            }
            .into()
        })
    }

    /// The squares of `variant` where the field to `target` is 0, row by
    /// row.
    pub fn goal_squares(
        &self,
        display: &Arc<Display>,
        staging_area: bool,
        variant: usize,
        target: Target,
    ) -> Arc<[(i16, i16)]> {
        let key = (
            ByAddress(Arc::clone(display)),
            staging_area,
            variant,
            target,
        );
        memo(&self.squares, key, || {
            let field = self.field(display, staging_area, variant, target);
            let mut squares = Vec::new();
            for y in 0..display.height {
                for x in 0..display.width {
                    if field[display.index(x, y)] == 0 {
                        squares.push((x, y));
                    }
                }
            }
            squares.into()
        })
    }

    /// The lines of discovery [6.22] of a counter set up at `from` on
    /// `display` (the drawn display: the openings change nothing a defender
    /// sees at the start).
    pub fn discovery_lines(&self, display: &Arc<Display>, from: (i16, i16)) -> Arc<[bool]> {
        let key = (ByAddress(Arc::clone(display)), from);
        memo(&self.lines, key, || display.discovery_lines(from).into())
    }
}
