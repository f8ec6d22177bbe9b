//! `wom.air`: Warriors of Mars aerial warfare (TSR 1974, Part II and the
//! Fliers, Aerial Combat Tables). Fleets of fliers manoeuvre on a plane
//! with altitude blocks, exchange gunfire, ram, grapple, board and bomb.
//!
//! - [`ships`]: the tables (ships, guns, fire, hit location, criticals,
//!   damage effects, boarding, morale, bombing) loaded and checked.
//! - [`geometry`]: exact integer positions, headings, arcs and ranges.
//! - [`fire`]: to-hit, hit location, critical and bombing lookups.
//! - [`damage`]: a ship's state and what damage and criticals do to it.
//! - [`boarding`]: grapple and cut odds, morale, odds bands, casualties.
//! - [`ground`]: ground targets, the ground tables and landings.
//! - [`tactics`]: the per-side policies.
//! - [`battle`]: the model and its turn sequence.

pub mod battle;
pub mod boarding;
pub mod damage;
pub mod fire;
pub mod geometry;
pub mod ground;
pub mod ships;
pub mod tactics;

#[cfg(test)]
pub(crate) mod testdata {
    use super::ships::AirData;
    use barsoom_engine::scenario::Load;

    /// The bundled aerial tables.
    pub fn data() -> AirData {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("scenarios/wom/data");
        match AirData::load(&dir) {
            Ok(d) => d,
            Err(e) => panic!("bundled air data: {e}"),
        }
    }
}
