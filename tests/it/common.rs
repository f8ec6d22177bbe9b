//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `barsoom` binary with `args` in `cwd`.
pub fn barsoom(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_barsoom"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the binary runs")
}

/// The crate's root folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A bundled scenario by its path under `scenarios/`.
pub fn bundled(relative: &str) -> PathBuf {
    root().join("scenarios").join(relative)
}

/// The bundled Warriors of Mars data folder.
pub fn wom_data() -> PathBuf {
    root().join("scenarios/wom/data")
}

/// Writes a `wom.duel` scenario with the given sides into `dir` and
/// returns its path. `sides` is TOML for the two `[[sides]]` tables.
pub fn write_duel(dir: &Path, name: &str, sides: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!(
        "model = \"wom.duel\"\ndescription = \"test\"\ndata = {:?}\n{sides}",
        wom_data().display().to_string()
    );
    std::fs::write(&path, text).expect("write scenario");
    path
}

/// The `--trace` of trial `trial` of the scenario at `path`, replayed
/// alone (run in `cwd`).
pub fn trace_of(path: &Path, trial: u64, cwd: &Path) -> String {
    let o = barsoom_ok(
        &[
            "run",
            path.to_str().expect("utf8"),
            "--replay",
            &trial.to_string(),
            "--trace",
        ],
        cwd,
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Writes a `jc.duel` scenario into `dir` with `top` lines (display and
/// the like) and the two sides' TOML, reading the bundled John Carter data.
pub fn write_jc_duel(dir: &Path, name: &str, top: &str, sides: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!(
        "model = \"jc.duel\"\ndescription = \"test\"\ndata = {:?}\n{top}\n{sides}",
        root().join("scenarios/jc/data").display().to_string()
    );
    std::fs::write(&path, text).expect("write scenario");
    path
}

/// A one-against-one duel between two roster characters with extra
/// figure fields (TOML inline-table entries, may be empty).
pub fn one_on_one(
    dir: &Path,
    name: &str,
    a: &str,
    a_extra: &str,
    b: &str,
    b_extra: &str,
) -> PathBuf {
    let field = |extra: &str| {
        if extra.is_empty() {
            String::new()
        } else {
            format!(", {extra}")
        }
    };
    write_duel(
        dir,
        name,
        &format!(
            "[[sides]]\nfigures = [{{ character = \"{a}\"{} }}]\n[[sides]]\nfigures = [{{ character = \"{b}\"{} }}]\n",
            field(a_extra),
            field(b_extra)
        ),
    )
}

/// Runs the `barsoom` binary and asserts that it succeeded (showing its
/// stderr if not).
pub fn barsoom_ok(args: &[&str], cwd: &Path) -> Output {
    let output = barsoom(args, cwd);
    assert!(
        output.status.success(),
        "barsoom {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Runs the `barsoom` binary expecting bad input: exit code 2 and one line
/// on stderr, no panic, mentioning each of `expected`. Returns that line.
pub fn assert_bad_input(args: &[&str], cwd: &Path, expected: &[&str]) -> String {
    let o = barsoom(args, cwd);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    assert!(!err.contains("panicked"), "{err}");
    for part in expected {
        assert!(
            err.contains(part),
            "{args:?}: {err:?} should mention {part:?}"
        );
    }
    err
}

/// Runs `trials` trials of `model` on two threads with blocks of `chunk`,
/// keeping every row, then replays each trial in `picks` alone: its result
/// must equal the bulk row, and its trace must cite a rule whose case
/// contains `case` (empty: any event).
pub fn assert_replays_match_bulk<M: barsoom::engine::Model>(
    model: &M,
    seed: u64,
    trials: u64,
    chunk: u64,
    picks: &[u64],
    case: &str,
) {
    use barsoom::engine::{BlockRows, RunConfig, TrialResult, replay, run};
    let config = RunConfig {
        seed,
        trials: 0..trials,
        threads: 2,
        chunk,
        progress: false,
    };
    let mut rows: Vec<TrialResult> = Vec::new();
    let mut sink = |block: BlockRows<'_>| {
        assert_eq!(block.first as usize, rows.len(), "blocks arrive in order");
        rows.extend_from_slice(block.results);
        Ok(())
    };
    run(model, &config, Some(&mut sink)).expect("run");
    assert_eq!(rows.len() as u64, trials);
    for &trial in picks {
        let (result, log) = replay(model, seed, trial);
        assert_eq!(result, rows[trial as usize], "trial {trial}");
        assert!(
            log.events.iter().any(|e| e.case.contains(case)),
            "trial {trial}: no event citing {case:?}"
        );
    }
}

/// Copies the folder `from` with everything in it (subfolders too) to `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read folder") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}
