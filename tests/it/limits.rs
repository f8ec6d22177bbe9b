//! Resource limits of the Monte Carlo commands: trial counts up to
//! `u64::MAX` run as many trials as asked (no wrap to 0), memory does not
//! grow with the trial count, and `--threads` is bounded.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::{assert_bad_input, barsoom_ok, bundled, send_signal, spawn_barsoom as spawn};

/// The largest `-n`: 2^64 - 1.
const MAX: &str = "18446744073709551615";

fn padwar() -> String {
    bundled("wom/padwar-vs-padwar.toml").display().to_string()
}

fn json_of(args: &[&str], dir: &Path) -> serde_json::Value {
    let o = barsoom_ok(args, dir);
    serde_json::from_slice(&o.stdout).expect("JSON on stdout")
}

#[test]
fn the_last_shard_of_the_largest_run_runs_its_trials() {
    // 2^64 - 1 trials are 2^50 blocks of 16,384; the last shard of 2^50 is
    // the last block, 16,383 trials ending at 2^64 - 1. Its end used to wrap
    // to 0, leaving a run of 0 trials and NaN means.
    let dir = tempfile::tempdir().expect("tempdir");
    let (p, d) = (padwar(), dir.path());
    let json = json_of(
        &[
            "run",
            &p,
            "-n",
            MAX,
            "--shard",
            "1125899906842623/1125899906842624",
            "--threads",
            "1",
            "--json",
            "-q",
            "--out",
            "last",
        ],
        d,
    );
    assert_eq!(json["trials"], 16_383, "{json}");
    assert_eq!(
        json["range"],
        serde_json::json!([18_446_744_073_709_535_232_u64, u64::MAX])
    );
}

#[test]
fn until_ci_with_the_largest_max_trials_stops_on_its_rule() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (p, d) = (padwar(), dir.path());
    let json = json_of(
        &[
            "run",
            &p,
            "--until-ci",
            "0.05",
            "--max-trials",
            MAX,
            "--json",
            "-q",
            "--out",
            "ci",
        ],
        d,
    );
    // The first block already gives a half-width under 0.05.
    assert_eq!(json["trials"], 16_384, "{json}");
}

#[test]
fn tune_refuses_a_trial_count_its_rounds_would_overflow() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = padwar();
    // Three settings: the last round runs 4 × -n trials.
    assert_bad_input(
        &[
            "tune",
            &p,
            "--vary",
            "sides[0].figures[0].level=6,7,8",
            "--target",
            "First padwar wins=0.5",
            "-n",
            "9223372036854775807",
        ],
        dir.path(),
        &["-n 9223372036854775807", "tune doubles the trials"],
    );
}

/// The peak resident memory of process `pid`, in KiB (Linux).
fn peak_memory_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

/// Far more than any memory limit should allow before the first result.
const MEMORY_LIMIT_KIB: u64 = 512 * 1024;

/// Starts `command` (its scenario and own flags) on 10^13 trials, one
/// thread, into `huge/`: 610 million blocks, which used to be listed (9.5
/// GB for `run`) before the first trial ran.
fn spawn_huge(command: &[&str], dir: &Path) -> std::process::Child {
    let mut args = command.to_vec();
    args.extend(["-n", "10000000000000", "--threads", "1", "--out", "huge"]);
    spawn(&args, dir)
}

#[test]
#[cfg(target_os = "linux")]
fn a_huge_run_checkpoints_at_once_in_flat_memory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (p, d) = (padwar(), dir.path());
    let mut child = spawn_huge(&["run", &p, "--checkpoint-secs", "0", "-q"], d);
    let checkpoint = d.join("huge/checkpoint.json");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !checkpoint.exists() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("no checkpoint within 20 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(500));
    let peak = peak_memory_kib(child.id());
    send_signal(&child, "TERM");
    let output = child.wait_with_output().expect("wait");
    assert_eq!(
        output.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(peak < MEMORY_LIMIT_KIB, "peak memory {peak} KiB");
}

#[test]
#[cfg(target_os = "linux")]
fn a_huge_comparison_runs_in_flat_memory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (p, d) = (padwar(), dir.path());
    let mut child = spawn_huge(
        &["compare", &p, "--set-b", "sides[0].figures[0].level=8"],
        d,
    );
    std::thread::sleep(Duration::from_secs(3));
    let peak = peak_memory_kib(child.id());
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    assert!(peak < MEMORY_LIMIT_KIB, "peak memory {peak} KiB");
}

#[test]
fn threads_beyond_four_per_core_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = padwar();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let too_many = (4 * cores + 1).to_string();
    for command in [
        vec!["run", &p, "-n", "10", "--out", "o"],
        vec![
            "sweep",
            &p,
            "--vary",
            "sides[0].figures[0].level=6,7",
            "-n",
            "10",
        ],
        vec![
            "compare",
            &p,
            "--set-b",
            "sides[0].figures[0].level=8",
            "-n",
            "10",
        ],
        vec!["bench", &p, "-n", "10"],
        vec!["run", &p, "-n", "10", "--out", "o", "--threads", MAX],
    ] {
        let mut args = command.clone();
        if !args.contains(&"--threads") {
            args.extend(["--threads", &too_many]);
        }
        assert_bad_input(&args, dir.path(), &["--threads", "expected at most"]);
    }
    // The cap itself is allowed.
    let most = (4 * cores).to_string();
    barsoom_ok(
        &[
            "run",
            &p,
            "-n",
            "10",
            "--threads",
            &most,
            "--out",
            "o",
            "-q",
        ],
        dir.path(),
    );
}
