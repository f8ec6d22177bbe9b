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

/// Prints the man page (roff) on stdout: `barsoom man | man -l -`. After
/// clap_mangen's page (synopsis, global options, the list of commands)
/// comes a section per command and subcommand, with its synopsis and
/// options, so the one page holds every flag.
pub fn man() -> Result<()> {
    let mut root = Cli::command();
    root.build();
    let mut page = Vec::new();
    clap_mangen::Man::new(root.clone()).render(&mut page)?;
    for command in root.get_subcommands() {
        command_sections(command, &mut page)?;
    }
    let mut out = std::io::stdout().lock();
    out.write_all(&page)?;
    out.flush()?;
    Ok(())
}

/// Appends `command`'s section (its full name as the heading, its summary,
/// synopsis and options), then its subcommands'.
fn command_sections(command: &clap::Command, page: &mut Vec<u8>) -> Result<()> {
    use clap_mangen::roff::{Roff, roman};
    let name = command.get_bin_name().unwrap_or(command.get_name());
    let mut heading = Roff::default();
    heading.control("SH", [name.to_uppercase().as_str()]);
    if let Some(about) = command.get_long_about().or(command.get_about()) {
        heading.text([roman(about.to_string())]);
    }
    heading.to_writer(page)?;
    let man = clap_mangen::Man::new(command.clone());
    man.render_synopsis_section(page)?;
    if command.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(page)?;
    }
    for sub in command.get_subcommands() {
        command_sections(sub, page)?;
    }
    Ok(())
}
