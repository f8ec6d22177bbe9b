//! Limits, sentinels and indexes shared across the Strategic Game's
//! modules.

/// Most players [20.11].
pub const MAX_PLAYERS: usize = 6;

/// Most characters travelling with one hero.
pub(crate) const MAX_RETINUE: usize = 12;

/// Most table entries whose firings a game counts.
pub(crate) const MAX_ENTRIES: usize = 1024;

/// "None" for small index fields.
pub const NONE: u8 = u8::MAX;

/// Quarry index: the villain's group.
pub const VILLAIN_QUARRY: usize = 0;

/// Quarry index: the captive.
pub const CAPTIVE_QUARRY: usize = 1;

/// "No place" in place fields.
pub(crate) const NO_PLACE: u8 = u8::MAX;

/// Most villain characters one hero faces (with those joining at the
/// final destination).
pub(crate) const MAX_VILLAINS: usize = 6;

/// Most henchmen an entourage may hold [10.5].
pub(crate) const MAX_HENCHMEN: usize = 12;
