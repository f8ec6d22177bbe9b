//! Outputs: the summary, polars frames and files, and charts.

pub mod bench;
pub mod charts;
pub mod files;
pub mod frames;
pub mod html;
pub mod summary;
pub mod sweep;

pub use summary::{MetricRow, OutcomeRow, Summary, SummaryContext};
