//! `barsoom races matrix`: the exact battle matrix of the six races hex
//! wargame for every warband kind and every pair of bonus situations.

use crate::scenario::Load;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand};

use super::commands::InputError;
use crate::games::races::battle::BonusMatrix;
use crate::games::races::data::RacesData;
use crate::report::charts::{Heatmap, write_heatmap};
use crate::report::frames::{MatrixRow, matrix_frame, write_frame};

/// Arguments of `barsoom races`.
#[derive(Debug, Args)]
pub struct RacesArgs {
    /// The tool to run.
    #[command(subcommand)]
    pub command: RacesCommand,
}

/// The six-races tools.
#[derive(Debug, Subcommand)]
pub enum RacesCommand {
    /// The exact battle matrix: every kind against every kind, for every
    /// pair of bonus situations (hex, ruins, settlement, leader), as a frame
    /// and heatmaps.
    Matrix(MatrixArgs),
}

/// Arguments of `barsoom races matrix`.
#[derive(Debug, Args)]
pub struct MatrixArgs {
    /// The data folder (races, attributes, terrain, rules).
    #[arg(long, default_value = "scenarios/races/data")]
    pub data: PathBuf,
    /// The attacker's situation for the kind-vs-kind heatmap (a label of
    /// the frame's `attacker_situation` column).
    #[arg(long, default_value = "open ground")]
    pub attacker: String,
    /// The defender's situation for the kind-vs-kind heatmap.
    #[arg(long, default_value = "open ground")]
    pub defender: String,
    /// Output folder for matrix.csv/.parquet and the heatmaps.
    #[arg(long, default_value = "reports/races-matrix")]
    pub out: PathBuf,
}

/// Runs `barsoom races`.
pub fn races(args: RacesArgs) -> Result<()> {
    match args.command {
        RacesCommand::Matrix(a) => matrix(a),
    }
}

fn matrix(args: MatrixArgs) -> Result<()> {
    let data = RacesData::load(&args.data)?;
    let m = BonusMatrix::new(&data);
    let labels: Vec<String> = m.situations.iter().map(|s| s.label.clone()).collect();
    let find = |flag: &str, label: &str| {
        m.situation(label).ok_or_else(|| {
            InputError(format!(
                "--{flag}: unknown situation {label:?}; expected one of {}",
                labels.join(", ")
            ))
        })
    };
    let (sa, sd) = (
        find("attacker", &args.attacker)?,
        find("defender", &args.defender)?,
    );
    std::fs::create_dir_all(&args.out)?;
    let (s, k) = (m.situations.len(), m.kinds.len());
    let mut rows = Vec::with_capacity(s * s * k * k);
    for a in 0..s {
        for d in 0..s {
            for ka in 0..k {
                for kd in 0..k {
                    let o = m.get(a, d, ka, kd);
                    rows.push(MatrixRow {
                        attacker: m.kinds[ka].clone(),
                        defender: m.kinds[kd].clone(),
                        attacker_situation: labels[a].clone(),
                        defender_situation: labels[d].clone(),
                        attacker_wins: o.attacker,
                        defender_wins: o.defender,
                        both_destroyed: o.both,
                    });
                }
            }
        }
    }
    let frame = matrix_frame(&rows)?;
    let mut written = write_frame(frame, &args.out, "matrix")?;
    let situations = Heatmap {
        title: "Six races: attacker's exact chance to win, mean over all kind pairs".into(),
        subtitle: format!("by situation, {} kinds of unit", k),
        value_label: "attacker's chance to win".into(),
        x_label: "defender's situation".into(),
        y_label: "attacker's situation".into(),
        x_ticks: labels.clone(),
        y_ticks: labels.clone(),
        cells: (0..s)
            .map(|a| (0..s).map(|d| m.mean_attacker_wins(a, d)).collect())
            .collect(),
    };
    written.extend(write_heatmap(&situations, &args.out, "situations")?);
    let kinds = Heatmap {
        title: format!(
            "Six races: attacker's exact chance to win ({} vs {})",
            labels[sa], labels[sd]
        ),
        subtitle: "by kind of unit".into(),
        value_label: "attacker's chance to win".into(),
        x_label: format!("defender ({})", labels[sd]),
        y_label: format!("attacker ({})", labels[sa]),
        x_ticks: m.kinds.clone(),
        y_ticks: m.kinds.clone(),
        cells: (0..k)
            .map(|ka| (0..k).map(|kd| m.get(sa, sd, ka, kd).attacker).collect())
            .collect(),
    };
    written.extend(write_heatmap(&kinds, &args.out, "kinds")?);
    println!(
        "{} situations x {} kinds: {} exact battles",
        s,
        k,
        rows.len()
    );
    for file in written {
        println!("wrote {}", file.display());
    }
    Ok(())
}
