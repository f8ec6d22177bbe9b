//! Checkpoint and resume: a run killed (SIGKILL) or interrupted (SIGINT)
//! part-way and resumed gives the same summary, byte for byte, as a run that
//! was never stopped; a checkpoint from another run is refused.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use crate::common::{assert_bad_input, barsoom_ok};

const TRIALS: &str = "20000000";

fn scenario() -> String {
    common::bundled("wom/three-green-warriors-vs-john-carter.toml")
        .display()
        .to_string()
}

/// The arguments of the test run on `threads` threads into `out`.
fn run_args(out: &str, threads: &str) -> Vec<String> {
    let args = [
        "run",
        &scenario(),
        "-n",
        TRIALS,
        "--seed",
        "5",
        "--threads",
        threads,
        "--chunk",
        "1024",
        "--out",
        out,
        "-q",
    ];
    args.iter().map(|a| a.to_string()).collect()
}

/// Starts a long single-threaded run that checkpoints after every wave.
fn start_run(dir: &Path, out: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_barsoom"))
        .args(run_args(out, "1"))
        .args(["--checkpoint-secs", "0"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Waits until the run has written a checkpoint covering some trials.
fn wait_for_checkpoint(path: &Path) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if let Ok(text) = std::fs::read_to_string(path) {
            let state: serde_json::Value = serde_json::from_str(&text).expect("checkpoint is JSON");
            let done = state["range"][1].as_u64().expect("range end");
            if done > 0 {
                return done;
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no checkpoint appeared at {}", path.display());
}

/// Resumes (with a different thread count: results must not depend on it)
/// or runs uninterrupted, and returns the summary.csv bytes.
fn finish(dir: &Path, out: &str, resume: bool) -> Vec<u8> {
    let mut args = run_args(out, "2");
    if resume {
        args.push("--resume".into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = barsoom_ok(&args, dir);
    if resume {
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            stdout.contains("resumed from the checkpoint at trial"),
            "{stdout}"
        );
    }
    assert!(
        !dir.join(out).join("checkpoint.json").exists(),
        "a finished run removes its checkpoint"
    );
    std::fs::read(dir.join(out).join("summary.csv")).expect("summary.csv")
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn a_killed_run_resumes_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let mut child = start_run(d, "killed");
    let done = wait_for_checkpoint(&d.join("killed/checkpoint.json"));
    child.kill().expect("SIGKILL");
    let status = child.wait().expect("wait");
    assert!(!status.success(), "the run was killed part-way");
    assert!(
        !d.join("killed/state.json").exists(),
        "the killed run must not have finished"
    );
    assert!(done < 20_000_000);
    let resumed = finish(d, "killed", true);
    let whole = finish(d, "whole", false);
    assert_eq!(resumed, whole, "resumed summary differs from the whole run");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn sigint_leaves_a_resumable_checkpoint_and_says_what_was_done() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let child = start_run(d, "interrupted");
    wait_for_checkpoint(&d.join("interrupted/checkpoint.json"));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(sent.success());
    let output = child.wait_with_output().expect("wait");
    assert_eq!(output.status.code(), Some(130), "exit code after SIGINT");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("interrupted: trials 0..") && stderr.contains("--resume"),
        "{stderr}"
    );
    let checkpoint: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(d.join("interrupted/checkpoint.json")).expect("checkpoint"),
    )
    .expect("JSON");
    let done = checkpoint["range"][1].as_u64().expect("range end");
    assert!(
        stderr.contains(&format!("0..{done} of 0..20000000")),
        "{stderr}"
    );
    let counted: u64 = checkpoint["tally"]["outcomes"]
        .as_array()
        .expect("outcome counts")
        .iter()
        .filter_map(serde_json::Value::as_u64)
        .sum();
    assert_eq!(counted, done, "the checkpoint's tally covers its range");
    let resumed = finish(d, "interrupted", true);
    let whole = finish(d, "whole", false);
    assert_eq!(resumed, whole);
}

#[test]
fn a_checkpoint_of_another_run_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let mut child = start_run(d, "other");
    wait_for_checkpoint(&d.join("other/checkpoint.json"));
    child.kill().expect("SIGKILL");
    child.wait().expect("wait");
    let scenario = scenario();
    for (flag, value, field) in [
        ("--seed", "6", "seed"),
        ("-n", "30000000", "trials"),
        ("--shard", "1/2", "shard count"),
    ] {
        let mut args = vec![
            "run", &scenario, "--chunk", "1024", "--out", "other", "-q", "--resume",
        ];
        if flag != "--seed" {
            args.extend(["--seed", "5"]);
        }
        if flag != "-n" {
            args.extend(["-n", TRIALS]);
        }
        args.extend([flag, value]);
        assert_bad_input(
            &args,
            d,
            &["checkpoint.json: cannot resume this run from it", field],
        );
    }
}
