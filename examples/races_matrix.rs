//! The exact race-vs-race battle matrix of the six races of Mars hex
//! wargame (basic and variant warbands, open ground, no leaders): the
//! attacker's chance to win, as `matrix.csv` and a heatmap
//! (`matrix.png`/`.svg`).
//!
//! `cargo run --release --example races_matrix -- [OUT_DIR]` (default
//! `reports/races-matrix`).

use std::path::{Path, PathBuf};

use barsoom::games::races::battle::kind_matrix;
use barsoom::games::races::data::RacesData;
use barsoom::report::charts::{Heatmap, write_heatmap};

fn main() -> anyhow::Result<()> {
    let out: PathBuf = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("reports/races-matrix"), PathBuf::from);
    let data =
        RacesData::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/races/data"))?;
    let matrix = kind_matrix(&data);
    let names: Vec<String> = data.kinds.iter().map(|k| k.id.clone()).collect();
    std::fs::create_dir_all(&out)?;
    let mut csv = String::from("attacker,defender,attacker_wins,defender_wins,both_destroyed\n");
    for (a, row) in matrix.iter().enumerate() {
        for (d, o) in row.iter().enumerate() {
            csv.push_str(&format!(
                "{},{},{:.6},{:.6},{:.6}\n",
                names[a], names[d], o.attacker, o.defender, o.both
            ));
        }
    }
    std::fs::write(out.join("matrix.csv"), csv)?;
    let heatmap = Heatmap {
        title: "Six races: attacker's exact chance to win (open ground, no leaders)".into(),
        x_label: "defender".into(),
        y_label: "attacker".into(),
        x_ticks: names.clone(),
        y_ticks: names,
        cells: matrix
            .iter()
            .map(|row| row.iter().map(|o| o.attacker).collect())
            .collect(),
    };
    for file in write_heatmap(&heatmap, &out, "matrix")? {
        println!("wrote {}", file.display());
    }
    println!("wrote {}", out.join("matrix.csv").display());
    Ok(())
}
