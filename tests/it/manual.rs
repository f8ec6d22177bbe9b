//! `barsoom completions SHELL` and `barsoom man`, generated from the clap
//! definition: they know every command and flag.

use clap::CommandFactory;

use crate::common::{barsoom, barsoom_ok, root};

#[test]
fn bash_completions_offer_the_commands_and_their_flags() {
    let output = barsoom_ok(&["completions", "bash"], &root());
    let script = String::from_utf8(output.stdout).expect("utf8");
    assert!(script.contains("complete -F"), "a bash completion script");
    for word in ["run", "sweep", "--trials", "--until-ci", "completions"] {
        assert!(script.contains(word), "{word} missing from the script");
    }
    assert!(
        !script.contains("worker"),
        "bench's worker processes are not offered"
    );
    for (shell, flag) in [("zsh", "--trials"), ("fish", "-l trials")] {
        let output = barsoom_ok(&["completions", shell], &root());
        let script = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(
            script.contains(flag),
            "{flag} missing from the {shell} script"
        );
    }
    let output = barsoom(&["completions", "tcsh"], &root());
    assert_eq!(
        output.status.code(),
        Some(2),
        "an unknown shell is bad input"
    );
}

#[test]
fn the_man_page_names_every_command() {
    let output = barsoom_ok(&["man"], &root());
    let page = String::from_utf8(output.stdout).expect("utf8");
    assert!(
        page.starts_with(".ie") || page.contains(".TH barsoom"),
        "roff: {}",
        &page[..80.min(page.len())]
    );
    let cli = barsoom::cli::Cli::command();
    let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
    assert!(names.len() > 15, "{names:?}");
    for name in names {
        // Subcommands are listed as `barsoom-NAME(1)`, the dash escaped.
        let listed = format!("barsoom\\-{}(1)", name.replace('-', "\\-"));
        assert!(page.contains(&listed), "{listed} missing from the man page");
    }
    // Each command's own options, nested subcommands' too.
    for section in [".SH \"BARSOOM RUN\"", ".SH \"BARSOOM JETAN PERFT\""] {
        assert!(
            page.contains(section),
            "{section} missing from the man page"
        );
    }
    for flag in ["\\-\\-until\\-ci", "\\-\\-vary", "\\-\\-divide"] {
        assert!(page.contains(flag), "{flag} missing from the man page");
    }
    // bench's own worker processes are not a command for people.
    assert!(
        !page.contains("bench\\-worker"),
        "the bench worker is listed"
    );
}
