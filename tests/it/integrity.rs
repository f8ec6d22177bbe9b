//! State files and output folders that are corrupt, mixed or hostile are
//! refused with one line and exit code 2: tallies that contradict
//! themselves or their checksum (`merge`, `--resume`), folders whose files
//! do not match their manifest or that another process is writing, a
//! default folder name taken from a file that would leave `reports/`, and
//! `--out` and `--max-trials` problems found before any work.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use barsoom::engine::shard::RunState;
use serde_json::Value;

use crate::common;
use crate::common::{assert_bad_input, barsoom, barsoom_ok};

fn padwar() -> String {
    common::bundled("wom/padwar-vs-padwar.toml")
        .display()
        .to_string()
}

/// Runs padwar-vs-padwar (40,000 trials, seed `seed`, shard `shard`) into `out`.
fn run_into(dir: &Path, out: &str, seed: &str, shard: &str) -> PathBuf {
    barsoom_ok(
        &[
            "run",
            &padwar(),
            "-n",
            "40000",
            "--seed",
            seed,
            "--shard",
            shard,
            "--out",
            out,
            "-q",
        ],
        dir,
    );
    dir.join(out)
}

/// A change to a state's JSON.
type Edit = dyn Fn(&mut Value);

/// Reads a sealed state, lets `edit` change its JSON and writes it to
/// `to`, sealed again (so only the invariant checks can catch the edit).
fn reseal(from: &Path, to: &Path, edit: impl Fn(&mut Value)) {
    let text = std::fs::read_to_string(from).expect("read state");
    let state = RunState::from_sealed_json(&text).expect("a valid state");
    let mut json = serde_json::to_value(&state).expect("to json");
    edit(&mut json);
    let edited: RunState = serde_json::from_value(json).expect("still a state");
    std::fs::write(to, edited.to_sealed_json().expect("seal")).expect("write state");
}

#[test]
fn tampered_tallies_are_refused_by_merge_and_resume() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let s0 = run_into(d, "s0", "1", "0/2").join("state.json");
    let s1 = run_into(d, "s1", "1", "1/2").join("state.json");
    // Copies outside the output folders: only the states' own checks apply.
    std::fs::create_dir(d.join("loose")).expect("mkdir");
    let b = d.join("loose/b.json");
    std::fs::copy(&s1, &b).expect("copy");
    let cases: [(&str, &Edit, &[&str]); 4] = [
        (
            "total off by one",
            &|s| {
                let total = s["tally"]["metrics"][0]["total"].as_u64().expect("total");
                s["tally"]["metrics"][0]["total"] = (total + 1).into();
            },
            &["a.json", "\"rounds\" counts 16385 observations"],
        ),
        (
            "a bin of 2^64 - 1",
            &|s| s["tally"]["metrics"][0]["counts"][0] = u64::MAX.into(),
            &["a.json", "more than 2^64 - 1"],
        ),
        (
            "metrics dropped",
            &|s| s["metrics"] = Value::Array(Vec::new()),
            &["a.json", "6 metric histograms for 0 metrics"],
        ),
        (
            "an outcome label changed",
            &|s| s["outcomes"][0] = "Third padwar wins".into(),
            &["a.json", "outcome labels differ", "Third padwar wins"],
        ),
    ];
    for (what, edit, expected) in cases {
        let a = d.join("loose/a.json");
        reseal(&s0, &a, edit);
        let a = a.display().to_string();
        let b = b.display().to_string();
        let line = assert_bad_input(&["merge", &b, &a, "--out", "m"], d, expected);
        assert!(!line.contains("expected 0..16384"), "{what}: {line}");
    }
    // An edit that keeps the JSON valid but breaks the checksum.
    let text = std::fs::read_to_string(&s0).expect("read");
    let edited = text.replacen("\"seed\":1", "\"seed\":3", 1);
    assert_ne!(text, edited);
    std::fs::write(d.join("loose/a.json"), edited).expect("write");
    assert_bad_input(
        &["merge", "loose/a.json", "loose/b.json", "--out", "m"],
        d,
        &["loose/a.json", "does not match its checksum"],
    );
    assert!(!d.join("m").exists(), "nothing merged");

    // The same checks guard --resume: the whole run's state as a finished
    // checkpoint, with one histogram bin off.
    let whole = run_into(d, "whole", "1", "0/1");
    reseal(
        &whole.join("state.json"),
        &whole.join("checkpoint.json"),
        |s| {
            s["tally"]["metrics"][2]["counts"][1] = 0.into();
        },
    );
    assert_bad_input(
        &[
            "run",
            &padwar(),
            "-n",
            "40000",
            "--out",
            "whole",
            "-q",
            "--resume",
        ],
        d,
        &[
            "whole/checkpoint.json",
            "\"wounds_a\" counts 40000 observations",
        ],
    );
}

#[test]
fn a_result_folder_changes_as_a_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let out = run_into(d, "out", "1", "0/1");
    let other = run_into(d, "other", "2", "0/1");
    barsoom_ok(&["report", "out", "--out", "r.html"], d);
    // A summary of another run beside this run's files: refused by report;
    // another run's state.json: refused by merge.
    std::fs::copy(other.join("summary.csv"), out.join("summary.csv")).expect("copy");
    assert_bad_input(
        &["report", "out", "--out", "r2.html"],
        d,
        &["out/summary.csv", "does not match manifest.json"],
    );
    std::fs::copy(other.join("state.json"), out.join("state.json")).expect("copy");
    assert_bad_input(
        &["merge", "out/state.json", "--out", "m"],
        d,
        &["out/state.json", "does not match manifest.json"],
    );
    // A folder without its manifest (its writer stopped part-way).
    std::fs::remove_file(other.join("manifest.json")).expect("remove");
    assert_bad_input(
        &["report", "other", "--out", "r3.html"],
        d,
        &["other", "no manifest.json", "incomplete"],
    );

    // While a run writes a folder, a second writer is refused and a reader
    // is told it is incomplete.
    let mut first = Command::new(env!("CARGO_BIN_EXE_barsoom"))
        .args(["run", &padwar(), "-n", "100000000", "--out", "busy", "-q"])
        .current_dir(d)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !d.join("busy/.barsoom.lock").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(200));
    let second = barsoom(&["run", &padwar(), "-n", "1000", "--out", "busy", "-q"], d);
    let _ = first.kill();
    let _ = first.wait();
    let err = common::text(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(
        err.contains("another barsoom process is writing this folder"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn merge_builds_no_path_from_file_content() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::create_dir_all(d.join("work/loose")).expect("mkdir");
    let work = d.join("work");
    let state = run_into(&work, "whole", "1", "0/1").join("state.json");
    // The default folder comes from the state's scenario path (and model,
    // outside scenarios/): a path that names no file is refused.
    for value in ["../..", "..", "", "/"] {
        reseal(&state, &work.join("loose/state.json"), |s| {
            s["scenario"] = value.into();
        });
        assert_bad_input(
            &["merge", "loose/state.json"],
            &work,
            &["loose/state.json", "default output folder", "--out"],
        );
    }
    // A path that climbs out of scenarios/ or is absolute still lands
    // inside reports/: <rulebook>/<file stem>; a model that is no folder
    // name is refused.
    reseal(&state, &work.join("loose/state.json"), |s| {
        s["scenario"] = "elsewhere/x.toml".into();
        s["model"] = "../x".into();
    });
    assert_bad_input(
        &["merge", "loose/state.json"],
        &work,
        &["loose/state.json", "default output folder", "--out"],
    );
    let absolute = d.join("absolute/escaped.toml").display().to_string();
    for value in ["scenarios/../../../escaped.toml", absolute.as_str()] {
        reseal(&state, &work.join("loose/state.json"), |s| {
            s["scenario"] = value.into();
        });
        barsoom_ok(&["merge", "loose/state.json", "--force"], &work);
        assert!(work.join("reports/wom/escaped/summary.csv").is_file());
    }
    assert!(!d.join("escaped").exists() && !d.join("absolute").exists());
}

#[test]
fn out_and_max_trials_problems_are_refused_before_any_work() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("a-file"), "").expect("write");
    assert_bad_input(
        &["run", &padwar(), "-n", "200000", "--out", "a-file", "-q"],
        d,
        &["a-file", "cannot create the output folder"],
    );
    assert_bad_input(
        &[
            "run",
            &padwar(),
            "-n",
            "200000",
            "--out",
            "a-file/below",
            "-q",
        ],
        d,
        &["a-file/below"],
    );
    // A folder that exists but cannot be written (even by root).
    if Path::new("/proc/self").is_dir() {
        assert_bad_input(
            &["run", &padwar(), "-n", "200000", "--out", "/proc", "-q"],
            d,
            &["/proc", "cannot write in the output folder"],
        );
    }
    // The analysis commands too: their second setting is out of range, so
    // an --out checked only after the work would report that instead.
    let bad_second_setting = "sides[0].figures[0].level=3,999";
    let scenario = padwar();
    for command in [
        vec!["sweep", "--vary", bad_second_setting],
        vec![
            "tune",
            "--vary",
            bad_second_setting,
            "--target",
            "First padwar wins=0.5",
        ],
        vec!["compare", "--set-b", "sides[0].figures[0].level=9"],
    ] {
        let mut args = vec![command[0], scenario.as_str()];
        args.extend(&command[1..]);
        args.extend(["-n", "100", "--out", "a-file"]);
        assert_bad_input(&args, d, &["a-file", "cannot create the output folder"]);
    }
    assert_bad_input(
        &["run", &padwar(), "-n", "1000", "--max-trials", "5000", "-q"],
        d,
        &["--max-trials", "--until-ci"],
    );
    // A trials.parquet of an earlier --trials-out run does not stay beside
    // results it does not match.
    barsoom_ok(
        &[
            "run",
            &padwar(),
            "-n",
            "2000",
            "--out",
            "o",
            "-q",
            "--trials-out",
        ],
        d,
    );
    assert!(d.join("o/trials.parquet").is_file());
    barsoom_ok(
        &[
            "run",
            &padwar(),
            "-n",
            "3000",
            "--out",
            "o",
            "-q",
            "--seed",
            "2",
        ],
        d,
    );
    assert!(!d.join("o/trials.parquet").exists());
    barsoom_ok(&["report", "o", "--out", "r.html"], d);
}
