//! The layer above the games: experiment designs ([`analysis`]) and
//! outputs (the summary, polars frames and files, charts, the HTML report).

pub mod analysis;
pub mod bench;
pub mod breakdown;
pub mod charts;
pub mod files;
pub mod frames;
pub mod html;
pub mod summary;
pub mod sweep;

pub use summary::{MetricRow, OutcomeRow, Summary, SummaryContext};
