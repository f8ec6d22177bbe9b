//! Seeded fuzzing on stable Rust: random `--set` overrides through every
//! bundled scenario's loader, random mutations of every bundled scenario and
//! data file, and random mutations of a `state.json` read back and merged.
//! Every input must load or be refused with a one-line error; none may
//! panic. The inputs come from barsoom's own random streams (`Dice` of
//! seed `BARSOOM_FUZZ_SEED`, default 1), so a failure replays exactly;
//! `BARSOOM_FUZZ_CASES` (default 300 per target) sets how many are tried.
//! `tests/fuzz/mutate.sh` does the same through the binary (`validate` and
//! a short `run`). Counts and findings: docs/reliability.md.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use barsoom::engine::rng::Dice;
use barsoom::engine::shard::{RunState, merge};
use barsoom::scenario::Override;

use crate::common::{barsoom_ok, copy_tree, root};

fn cases() -> u64 {
    std::env::var("BARSOOM_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
}

fn dice(target: u64) -> Dice {
    let seed = std::env::var("BARSOOM_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    Dice::for_trial(seed, target)
}

fn pick<'a, T>(d: &mut Dice, items: &'a [T]) -> &'a T {
    &items[d.below(u32::try_from(items.len()).expect("few items")) as usize]
}

/// Values that have broken loaders before: extremes of every integer width,
/// signs, floats, overlong and empty strings, wrong types.
const VALUES: &[&str] = &[
    "-9223372036854775808",
    "9223372036854775807",
    "-2147483649",
    "4294967296",
    "65536",
    "256",
    "-129",
    "-1",
    "0",
    "1",
    "1e308",
    "-0.5",
    "nan",
    "true",
    "\"\"",
    "[]",
    "[1, 2]",
    "{}",
];

fn scenarios() -> Vec<PathBuf> {
    let list = barsoom::cli::bundled_scenarios(&root().join("scenarios"));
    assert!(list.len() > 50, "found only {}", list.len());
    list
}

/// Every leaf path of the TOML `value`.
fn leaves(value: &toml::Value, prefix: String, out: &mut Vec<(String, toml::Value)>) {
    match value {
        toml::Value::Table(t) => {
            for (k, v) in t {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                leaves(v, path, out);
            }
        }
        toml::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                leaves(v, format!("{prefix}[{i}]"), out);
            }
        }
        leaf => out.push((prefix, leaf.clone())),
    }
}

/// The leaf paths of the scenario and of the data files beside it.
fn paths_of(scenario: &Path) -> Vec<(String, toml::Value)> {
    let mut files = vec![scenario.to_path_buf()];
    for dir in scenario.ancestors().skip(1).take(3) {
        if let Ok(entries) = std::fs::read_dir(dir.join("data")) {
            files.extend(entries.flatten().map(|e| e.path()));
            break;
        }
    }
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        if let Ok(value) = text.parse::<toml::Table>() {
            leaves(&toml::Value::Table(value), String::new(), &mut out);
        }
    }
    out
}

/// Loads `scenario` with `overrides`, failing the test on a panic or a
/// multi-line error; whether it loaded.
fn loads(scenario: &Path, overrides: &[Override], what: &str) -> bool {
    let result = catch_unwind(AssertUnwindSafe(|| {
        barsoom::games::load_with(scenario, overrides)
    }));
    match result {
        Err(_) => panic!("{}: {what}: the loader panicked", scenario.display()),
        Ok(Err(e)) => {
            let line = e.to_string();
            assert!(!line.contains('\n'), "{what}: {line}");
            false
        }
        Ok(Ok(_)) => true,
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn random_overrides_of_every_bundled_scenario_load_or_are_refused() {
    let mut d = dice(1);
    let list = scenarios();
    let paths: Vec<Vec<(String, toml::Value)>> = list.iter().map(|s| paths_of(s)).collect();
    let (mut loaded, mut refused) = (0, 0);
    for case in 0..cases() {
        let s = d.below(list.len() as u32) as usize;
        let count = 1 + d.below(3);
        let texts: Vec<String> = (0..count)
            .map(|_| {
                let (path, old) = pick(&mut d, &paths[s]);
                // Half the time an extreme, half a value near the old one.
                let near = match old {
                    toml::Value::Integer(n) => {
                        Some(n.saturating_add(i64::from(d.below(5)) - 2).to_string())
                    }
                    toml::Value::Float(x) => Some(format!("{:?}", x * 1.5)),
                    _ => None,
                };
                match near {
                    Some(v) if d.below(2) == 0 => format!("{path}={v}"),
                    _ => format!("{path}={}", pick(&mut d, VALUES)),
                }
            })
            .collect();
        let overrides: Vec<Override> = texts
            .iter()
            .filter_map(|t| Override::parse(t).ok())
            .collect();
        let what = format!("case {case}: --set {}", texts.join(" --set "));
        if loads(&list[s], &overrides, &what) {
            loaded += 1;
        } else {
            refused += 1;
        }
    }
    eprintln!("fuzz overrides: {loaded} loaded, {refused} refused, no panic");
}

/// `text` with one random mutation: a line deleted or duplicated, a number
/// replaced by an extreme, a byte changed, or the text cut short.
fn mutate(d: &mut Dice, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        return text.to_string();
    }
    let at = d.below(lines.len() as u32) as usize;
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    match d.below(5) {
        0 => {
            out.remove(at);
        }
        1 => out.insert(at, lines[at].to_string()),
        2 => {
            let line = &out[at];
            let digit = line.find(|c: char| c.is_ascii_digit());
            if let Some(i) = digit {
                let end = line[i..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(line.len(), |e| i + e);
                let value = pick(d, VALUES);
                out[at] = format!("{}{value}{}", &line[..i], &line[end..]);
            }
        }
        3 => {
            let bytes = out[at].as_bytes();
            if !bytes.is_empty() {
                let i = d.below(bytes.len() as u32) as usize;
                let c = *pick(d, &['"', '[', ']', '=', '{', ',', '.', '-', '9', 'x']);
                let mut line = out[at].clone();
                if line.is_char_boundary(i) && line.is_char_boundary(i + 1) {
                    line.replace_range(i..i + 1, &c.to_string());
                }
                out[at] = line;
            }
        }
        _ => out.truncate(at),
    }
    out.join("\n") + "\n"
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn mutated_scenarios_and_data_files_load_or_are_refused() {
    let mut d = dice(2);
    let scenario_root = root().join("scenarios");
    let list = scenarios();
    let work = tempfile::tempdir().expect("tempdir");
    let (mut loaded, mut refused) = (0, 0);
    for case in 0..cases() {
        let original = pick(&mut d, &list);
        let relative = original.strip_prefix(&scenario_root).expect("under");
        // A copy of the rulebook's folder of scenarios and data, so the
        // scenario finds its data where it expects it.
        let rulebook = relative.components().next().expect("rulebook");
        let case_dir = work.path().join(format!("case-{case}"));
        let book = case_dir.join(rulebook);
        let data_dirs: Vec<PathBuf> = std::fs::read_dir(scenario_root.join(rulebook))
            .expect("rulebook")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.ends_with("data"))
            .collect();
        for data in &data_dirs {
            copy_tree(data, &book.join("data"));
        }
        let scenario = case_dir.join(relative);
        std::fs::create_dir_all(scenario.parent().expect("parent")).expect("mkdir");
        std::fs::copy(original, &scenario).expect("copy");
        // Read the copied data, not the bundled (the default wherever the
        // scenario lies): jetan names its piece values file, and
        // talisman.combat reads no data.
        let text = std::fs::read_to_string(&scenario).expect("read");
        if text.contains("\"jetan.game\"") {
            crate::common::use_data(&scenario, &book.join("data/pieces.toml"));
        } else if !text.contains("\"talisman.combat\"") {
            crate::common::use_data(&scenario, &book.join("data"));
        }
        let data_files: Vec<PathBuf> = std::fs::read_dir(book.join("data"))
            .map(|r| {
                r.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.is_file())
                    .collect()
            })
            .unwrap_or_default();
        let target = if data_files.is_empty() || d.below(2) == 0 {
            scenario.clone()
        } else {
            pick(&mut d, &data_files).clone()
        };
        let text = std::fs::read_to_string(&target).expect("read");
        std::fs::write(&target, mutate(&mut d, &text)).expect("write");
        let what = format!("case {case}: mutated {}", target.display());
        if loads(&scenario, &[], &what) {
            loaded += 1;
        } else {
            refused += 1;
        }
        std::fs::remove_dir_all(&case_dir).expect("clean");
    }
    eprintln!("fuzz files: {loaded} loaded, {refused} refused, no panic");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn mutated_state_files_are_read_checked_and_merged_without_panic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = root().join("scenarios/wom/padwar-vs-padwar.toml");
    barsoom_ok(
        &[
            "run",
            scenario.to_str().expect("utf8"),
            "-n",
            "3000",
            "--out",
            "r",
        ],
        dir.path(),
    );
    let text = std::fs::read_to_string(dir.path().join("r/state.json")).expect("state.json");
    let original: RunState = serde_json::from_str(&text).expect("a valid state");
    let mut d = dice(3);
    let (mut read, mut refused) = (0, 0);
    for case in 0..cases() * 4 {
        let mutated = mutate(&mut d, &text);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let Ok(state) = serde_json::from_str::<RunState>(&mutated) else {
                return false;
            };
            let _ = original.check_resumable(&state);
            let _ = state.check_resumable(&original);
            let _ = merge(vec![original.clone(), state.clone()]);
            let _ = merge(vec![state.clone(), state]);
            true
        }));
        match result {
            Err(_) => panic!("case {case}: a mutated state.json panicked:\n{mutated}"),
            Ok(true) => read += 1,
            Ok(false) => refused += 1,
        }
    }
    eprintln!("fuzz state.json: {read} parsed and checked, {refused} refused, no panic");
}
