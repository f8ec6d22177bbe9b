//! `barsoom new MODEL [FILE]`: a commented starting scenario that runs as
//! written, for every model; an existing file is kept unless --force.

use crate::common::{barsoom, barsoom_ok};

#[test]
fn the_written_scenario_runs_and_says_where_it_came_from() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = barsoom_ok(&["new", "wom.duel"], dir.path());
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("wrote wom-duel.toml"),
        "{output:?}"
    );
    let text = std::fs::read_to_string(dir.path().join("wom-duel.toml")).expect("written");
    assert!(text.starts_with("# A new wom.duel scenario: "), "{text}");
    assert!(text.contains("docs/models/wom.duel.md"), "{text}");
    assert!(text.contains("model = \"wom.duel\""), "{text}");
    barsoom_ok(
        &["run", "wom-duel.toml", "-n", "200", "--quiet", "--out", "r"],
        dir.path(),
    );
    assert!(dir.path().join("r/summary.csv").is_file());
}

#[test]
fn every_model_gets_a_valid_scenario() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut files = Vec::new();
    for entry in barsoom::games::MODELS {
        let file = format!("{}.toml", entry.id);
        barsoom_ok(&["new", entry.id, &file], dir.path());
        files.push(file);
    }
    let mut args = vec!["validate"];
    args.extend(files.iter().map(String::as_str));
    barsoom_ok(&args, dir.path());
}

#[test]
fn an_existing_file_is_kept_unless_forced() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("mine.toml");
    std::fs::write(&file, "my own work\n").expect("write");
    let output = barsoom(&["new", "jc.fleet", "mine.toml"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("mine.toml: the file exists: pass --force"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "my own work\n"
    );
    barsoom_ok(&["new", "jc.fleet", "mine.toml", "--force"], dir.path());
    let text = std::fs::read_to_string(&file).expect("read");
    assert!(text.contains("model = \"jc.fleet\""), "{text}");
}

#[test]
fn an_unknown_model_is_one_line_listing_the_models() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = barsoom(&["new", "wom.dule"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    for part in [
        "unknown model \"wom.dule\"",
        "\"wom.duel\"",
        "\"talisman.game\"",
    ] {
        assert!(stderr.contains(part), "{part} missing: {stderr}");
    }
    assert!(
        std::fs::read_dir(dir.path()).expect("dir").next().is_none(),
        "nothing written"
    );
}
