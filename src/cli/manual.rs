//! `barsoom completions SHELL` and `barsoom man`: shell completions and the
//! man page, both generated from the clap definition of the command line,
//! so they list every command and flag there is.

use std::io::Write;

use anyhow::Result;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::Cli;

/// Arguments of `barsoom completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for; e.g. `barsoom completions bash >
    /// ~/.local/share/bash-completion/completions/barsoom`.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Prints the completion script for `args.shell` on stdout.
pub fn completions(args: CompletionsArgs) -> Result<()> {
    let mut command = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, "barsoom", &mut out);
    out.flush()?;
    Ok(())
}

/// Prints the man page (roff) on stdout: `barsoom man | man -l -`.
pub fn man() -> Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&page)?;
    out.flush()?;
    Ok(())
}
