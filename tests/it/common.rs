//! Helpers and test doubles shared by the integration tests: running the
//! binary, finding and writing scenarios, running a model, the checks that
//! several models make (one-line errors, replays against bulk rows, Monte
//! Carlo against an exact solution), and scripted dice.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use barsoom::engine::{ExactSolution, Model, RunConfig, Tally, run};

// ------------------------------------------------------------- the binary

/// Runs the `barsoom` binary with `args` in `cwd`.
pub fn barsoom(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_barsoom"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the binary runs")
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

/// Starts the `barsoom` binary with `args` in `cwd`, its stderr piped (for
/// tests that signal or measure a running command).
pub fn spawn_barsoom(args: &[&str], cwd: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_barsoom"))
        .args(args)
        .current_dir(cwd)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Sends signal `name` (`TERM`, `INT`...) to `child`.
pub fn send_signal(child: &std::process::Child, name: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(sent.success(), "kill -{name}");
}

/// Bytes of the binary's output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A command's stdout as text, its lines, and the index of the line that
/// starts with `header` (a printed table's header).
pub fn table_in(stdout: &[u8], header: &str) -> (String, Vec<String>, usize) {
    let stdout = text(stdout);
    let lines: Vec<String> = stdout.lines().map(str::to_string).collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(header))
        .unwrap_or_else(|| panic!("a table headed {header:?} in {stdout}"));
    (stdout, lines, at)
}

/// Runs the `barsoom` binary expecting bad input: exit code 2 and one line
/// on stderr, no panic, mentioning each of `expected`. Returns that line.
pub fn assert_bad_input(args: &[&str], cwd: &Path, expected: &[&str]) -> String {
    let o = barsoom(args, cwd);
    let err = text(&o.stderr);
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

/// `barsoom validate` refuses the scenario at `path` with one line
/// mentioning each of `expected`.
pub fn assert_invalid(path: &Path, expected: &[&str]) -> String {
    assert_bad_input(
        &["validate", &path.display().to_string()],
        &root(),
        expected,
    )
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
    text(&o.stdout)
}

/// The rows of a CSV file the binary wrote, split at commas (no field of
/// the files read this way holds one).
pub fn read_csv(path: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// The texts of an SVG chart the binary wrote, in order (the title first),
/// after checking that none is empty (every tick has its label).
pub fn svg_texts(path: &Path) -> Vec<String> {
    let svg = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let texts: Vec<String> = svg
        .split("<text")
        .skip(1)
        .map(|t| {
            let start = t.find('>').expect("a text tag") + 1;
            let end = t.find("</text>").expect("a closed text");
            t[start..end].trim().to_string()
        })
        .collect();
    assert!(
        texts.iter().all(|t| !t.is_empty()),
        "{}: an empty label",
        path.display()
    );
    texts
}

// -------------------------------------------------------------- scenarios

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

/// The bundled John Carter data folder.
pub fn jc_data() -> PathBuf {
    root().join("scenarios/jc/data")
}

/// Writes `dir/name.toml`, a `model` scenario reading the data folder
/// `data`, whose body (after the header) is `body`, and returns its path.
pub fn write_scenario(dir: &Path, name: &str, model: &str, data: &Path, body: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!(
        "model = \"{model}\"\ndescription = \"test\"\ndata = {:?}\n{body}",
        data.display().to_string()
    );
    std::fs::write(&path, text).expect("write scenario");
    path
}

/// Writes a `wom.duel` scenario with the given sides into `dir` and
/// returns its path. `sides` is TOML for the two `[[sides]]` tables.
pub fn write_duel(dir: &Path, name: &str, sides: &str) -> PathBuf {
    write_scenario(dir, name, "wom.duel", &wom_data(), sides)
}

/// Writes a `jc.duel` scenario into `dir` with `top` lines (display and
/// the like) and the two sides' TOML, reading the bundled John Carter data.
pub fn write_jc_duel(dir: &Path, name: &str, top: &str, sides: &str) -> PathBuf {
    write_scenario(dir, name, "jc.duel", &jc_data(), &format!("{top}\n{sides}"))
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

/// Points the scenario file at `scenario` to the data folder `data` (a
/// `data = "..."` line put first): a copied scenario otherwise reads the
/// bundled data, wherever it lies.
pub fn use_data(scenario: &Path, data: &Path) {
    let text = std::fs::read_to_string(scenario).expect("read scenario");
    let line = format!("data = {:?}\n", data.display().to_string());
    std::fs::write(scenario, line + &text).expect("write scenario");
}

/// Copies the bundled scenario `relative` into `dir` as `game.toml`, with
/// a copy of the data folder `data` (bundled, relative) beside it that the
/// copy reads: a test may then doctor either.
pub fn copy_scenario_with_data(relative: &str, data: &str, dir: &Path) -> PathBuf {
    copy_tree(&bundled(data), &dir.join("data"));
    let scenario = dir.join("game.toml");
    std::fs::copy(bundled(relative), &scenario).expect("copy");
    use_data(&scenario, &dir.join("data"));
    scenario
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

/// Writes `dir`'s manifest again over the files now in it, as if the
/// command that wrote the folder had written them (for tests that doctor
/// an output file to check what a reader does with its content).
pub fn reseal_manifest(dir: &Path) {
    use barsoom::report::files::{MANIFEST_FILE, OutputFolder, written_by};
    let writer = written_by(dir)
        .expect("a readable manifest")
        .unwrap_or_default();
    let folder = OutputFolder::open(dir, writer, true).expect("lock the folder");
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !n.starts_with('.') && n != MANIFEST_FILE)
        })
        .collect();
    folder.finish(&files).expect("write the manifest");
}

// ------------------------------------------------------------------- runs

/// The tally of trials `trials` of `model` from `seed` on `threads`
/// threads in blocks of `chunk`.
pub fn tally<M: Model>(
    model: &M,
    seed: u64,
    trials: Range<u64>,
    threads: usize,
    chunk: u64,
) -> Tally {
    let config = RunConfig {
        seed,
        trials,
        threads,
        chunk,
        progress: false,
    };
    run(model, &config, None).expect("run")
}

/// Runs `trials` trials of `model` on two threads with blocks of `chunk`,
/// keeping every row, then replays each trial in `picks` alone: its result
/// must equal the bulk row, and its trace must cite a rule whose case
/// contains `case` (empty: any event).
pub fn assert_replays_match_bulk<M: Model>(
    model: &M,
    seed: u64,
    trials: u64,
    chunk: u64,
    picks: &[u64],
    case: &str,
) {
    use barsoom::engine::{BlockRows, TrialResult, replay};
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

/// Every outcome rate of `tally` (a run of `model`) lies within four
/// standard errors of its exact probability in `exact`, the standard error
/// being sqrt(p (1 - p) / n) and at least 1 / n.
pub fn assert_rates_near_exact<M: Model>(
    label: &str,
    model: &M,
    exact: &ExactSolution,
    tally: &Tally,
) {
    let n = tally.trials() as f64;
    for (i, p) in exact.outcome_probabilities.iter().enumerate() {
        let observed = tally.outcomes[i] as f64 / n;
        let se = (p * (1.0 - p) / n).sqrt().max(1.0 / n);
        assert!(
            (observed - p).abs() <= 4.0 * se,
            "{label}: outcome {i} ({}) Monte Carlo {observed:.6} vs exact {p:.6} (se {se:.2e})",
            model.spec().outcomes[i]
        );
    }
}

// ------------------------------------------------------------------- dice

/// Every model's rules tested roll by roll use the engine's one scripted
/// double.
pub use barsoom::engine::ScriptedDice;

/// A John Carter data file, parsed as TOML.
pub fn jc_data_toml(file: &str) -> toml::Table {
    let text =
        std::fs::read_to_string(jc_data().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.parse().unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The integers of a TOML array of arrays.
pub fn toml_grid(value: &toml::Value) -> Vec<Vec<i64>> {
    value
        .as_array()
        .expect("an array of rows")
        .iter()
        .map(|row| {
            row.as_array()
                .expect("a row")
                .iter()
                .map(|v| v.as_integer().expect("an integer"))
                .collect()
        })
        .collect()
}

/// A reconstructed table generated by a formula or held to an exact
/// property says so beside it: its `provenance` names the formula or the
/// property (`parts`) and the fixed points of the text it honours.
pub fn assert_provenance_states(data: &toml::Table, section: &str, parts: &[&str]) {
    let provenance = data[section]["provenance"].as_str().expect("a provenance");
    for part in parts.iter().chain(&["Pinned by the text", "Inferred"]) {
        assert!(
            provenance.contains(part),
            "{section}.provenance does not state {part:?}: {provenance}"
        );
    }
}
