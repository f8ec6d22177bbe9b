//! `barsoom report`: reads output folders (a parent folder standing for
//! those below it) and writes one self-contained HTML file (see
//! [`crate::report::html`]).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};

use super::ReportArgs;
use super::commands::InputError;
use crate::report::files::write_atomic;
use crate::report::html::{read_section, render, result_folders};

/// Where the report goes without `--out`.
const DEFAULT_REPORT: &str = "reports/report.html";

/// Runs `barsoom report`.
pub fn report(args: ReportArgs) -> Result<()> {
    // A parent folder (`reports/`) stands for the output folders below it;
    // one of those that cannot be reported (a run interrupted while writing
    // it) is left out with a note, while a folder named itself must read.
    let mut sections = Vec::with_capacity(args.dirs.len());
    let mut read: Vec<PathBuf> = Vec::new();
    for dir in &args.dirs {
        for folder in result_folders(dir) {
            if read.contains(&folder) {
                continue;
            }
            match read_section(&folder) {
                Ok(section) => sections.push(section),
                Err(e) if folder != *dir => eprintln!("note: left out {e}"),
                Err(e) => return Err(InputError(e.to_string()).into()),
            }
            read.push(folder);
        }
    }
    if sections.is_empty() {
        return Err(InputError(format!(
            "{}: no output folder below it could be reported (see the notes above)",
            args.dirs[0].display()
        ))
        .into());
    }
    let out = args.out.unwrap_or_else(|| PathBuf::from(DEFAULT_REPORT));
    if out.is_dir() {
        return Err(InputError(format!(
            "{}: is a folder; expected --out to name the HTML file to write",
            out.display()
        ))
        .into());
    }
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create the folder {}", parent.display()))?;
    }
    let written = write_atomic(&out, render(&sections).as_bytes())?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        let folders: Vec<serde_json::Value> = sections
            .iter()
            .map(|s| {
                serde_json::json!({
                    "folder": s.dir.display().to_string(),
                    "command": s.command,
                    "title": s.title,
                    "tables": s.tables.len(),
                    "charts": s.charts.iter().filter(|c| c.svg.is_ok()).count(),
                })
            })
            .collect();
        writeln!(
            stdout,
            "{}",
            serde_json::json!({ "report": written.display().to_string(), "sections": folders })
        )?;
    } else {
        for s in &sections {
            let left_out: Vec<String> = s
                .charts
                .iter()
                .filter_map(|c| c.svg.as_ref().err().map(|why| format!("{}: {why}", c.name)))
                .collect();
            for note in left_out {
                eprintln!("note: {}: {note}", s.dir.display());
            }
        }
        writeln!(
            stdout,
            "wrote {} ({} section{})",
            written.display(),
            sections.len(),
            if sections.len() == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}
