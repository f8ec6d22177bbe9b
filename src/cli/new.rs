//! `barsoom new MODEL [FILE]`: writes a valid starting scenario for a
//! model, the model's bundled reference scenario (the first of
//! `scenarios/data/bench.toml`) under a header of comments saying where it
//! came from, where every field is described and how to run it.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;

use super::commands::{InputError, scenarios_dir};
use crate::games;

/// Arguments of `barsoom new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The model, e.g. `wom.duel` (`barsoom list` names them all).
    pub model: String,
    /// The file to write (default: the model's id with a dash, e.g.
    /// `wom-duel.toml`, in the working directory).
    pub file: Option<PathBuf>,
    /// Replace the file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Writes the starting scenario.
pub fn new(args: NewArgs) -> Result<()> {
    let entry = super::schema::model_entry(&args.model)?;
    let dir = scenarios_dir();
    let references = games::bench_references(&dir)?;
    let Some(reference) = references.iter().find(|r| r.model == entry.id) else {
        anyhow::bail!(
            "no bundled reference scenario for {} in {}",
            entry.id,
            dir.display()
        );
    };
    let template = std::fs::read_to_string(&reference.scenario).map_err(|e| {
        anyhow::anyhow!(
            "{}: cannot read the file: {e}",
            reference.scenario.display()
        )
    })?;
    let file = args
        .file
        .unwrap_or_else(|| PathBuf::from(format!("{}.toml", entry.id.replace('.', "-"))));
    let relative = reference
        .scenario
        .strip_prefix(&dir)
        .unwrap_or(&reference.scenario);
    let text = header(entry.id, entry.description, relative, &file) + &template;
    write_new(&file, &text, args.force)?;
    println!(
        "wrote {}: run it with `barsoom run {}`",
        file.display(),
        file.display()
    );
    Ok(())
}

/// The comment lines put before the template.
fn header(model: &str, description: &str, template: &Path, file: &Path) -> String {
    let rulebook = model.split('.').next().unwrap_or(model);
    [
        format!(
            "# A new {model} scenario: {}.",
            description.trim_end_matches('.')
        ),
        format!(
            "# Started from the bundled scenarios/{}; change it freely.",
            template.display()
        ),
        format!("# Every field, its default and valid values: docs/scenarios/{model}.md"),
        format!("# (or `barsoom schema {model} --markdown`); the model: docs/models/{model}.md."),
        format!("# Data files: the bundled scenarios/{rulebook}/data/ wherever this file lies;"),
        "# data = \"folder\" (relative to this file) reads your own copy instead.".into(),
        format!(
            "# Check it: barsoom validate {0}   Run it: barsoom run {0}",
            file.display()
        ),
        String::new(),
    ]
    .join("\n")
        + "\n"
}

/// Writes `text` to `file`, refusing to replace an existing file unless
/// `force`.
fn write_new(file: &Path, text: &str, force: bool) -> Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let mut handle = options.open(file).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => InputError(format!(
            "{}: the file exists: pass --force to replace it, or name another file",
            file.display()
        )),
        _ => InputError(format!("{}: cannot write the file: {e}", file.display())),
    })?;
    handle.write_all(text.as_bytes())?;
    Ok(())
}
