//! SIGTERM and SIGINT on a slow model: the stop is honoured between trials
//! (not after a whole wave of blocks), the partial block is checkpointed
//! exactly, and a second signal exits at once, saying so.

use std::time::{Duration, Instant};

use crate::common::{self, barsoom_ok, send_signal as signal, spawn_barsoom as start};

/// Jetan games of UCT search against greedy: about half a second each in
/// release, so a wave of blocks (here the whole run) takes many seconds.
fn scenario() -> String {
    common::bundled("jetan/mcts-vs-greedy.toml")
        .display()
        .to_string()
}

const TRIALS: &str = "12";

fn run_args<'a>(scenario: &'a str, out: &'a str, threads: &'a str) -> Vec<&'a str> {
    vec![
        "run",
        scenario,
        "-n",
        TRIALS,
        "--seed",
        "3",
        "--threads",
        threads,
        "--out",
        out,
        "-q",
    ]
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn sigterm_on_a_slow_model_checkpoints_within_seconds_and_resumes_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let s = scenario();
    let child = start(&run_args(&s, "stopped", "1"), d);
    std::thread::sleep(Duration::from_secs(2));
    signal(&child, "TERM");
    let sent = Instant::now();
    let output = child.wait_with_output().expect("wait");
    let took = sent.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(took < Duration::from_secs(5), "stopped after {took:?}");
    assert!(stderr.contains("interrupted: trials 0.."), "{stderr}");
    let checkpoint: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(d.join("stopped/checkpoint.json")).expect("a checkpoint"),
    )
    .expect("JSON");
    let done = checkpoint["range"][1].as_u64().expect("range end");
    assert!(done < 12, "the run stopped part-way: {done}");

    let mut resume = run_args(&s, "stopped", "2");
    resume.push("--resume");
    let o = barsoom_ok(&resume, d);
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains(&format!("resumed from the checkpoint at trial {done} ")),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    barsoom_ok(&run_args(&s, "whole", "2"), d);
    let read = |out: &str| std::fs::read(d.join(out).join("summary.csv")).expect("summary.csv");
    assert_eq!(
        read("stopped"),
        read("whole"),
        "resumed summary differs from the uninterrupted run"
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn a_second_signal_exits_at_once_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let s = scenario();
    // Games of several seconds each, so both signals land inside one.
    let mut args = run_args(&s, "twice", "1");
    args.extend(["--set", "players[0]=mcts:3000"]);
    let child = start(&args, d);
    std::thread::sleep(Duration::from_secs(1));
    signal(&child, "INT");
    std::thread::sleep(Duration::from_millis(200));
    signal(&child, "TERM");
    let sent = Instant::now();
    let output = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(sent.elapsed() < Duration::from_secs(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("interrupted twice: exiting at once"),
        "{stderr}"
    );
}
