//! A run split into shards and merged gives byte-identical outputs to one
//! process; shards that do not belong together are refused.

use std::path::{Path, PathBuf};

use crate::common;
use crate::common::{assert_bad_input, barsoom, barsoom_ok};

fn run_shard(
    dir: &Path,
    scenario: &str,
    seed: &str,
    shard: Option<(u64, u64)>,
    out: &str,
) -> PathBuf {
    let mut args = vec![
        "run", scenario, "-n", "50000", "--seed", seed, "--out", out, "-q", "--json",
    ];
    let spec;
    if let Some((k, n)) = shard {
        spec = format!("{k}/{n}");
        args.extend(["--shard", spec.as_str()]);
    }
    barsoom_ok(&args, dir);
    dir.join(out).join("state.json")
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn merged_shards_equal_a_single_run_byte_for_byte() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = common::bundled("wom/three-green-warriors-vs-john-carter.toml")
        .display()
        .to_string();
    run_shard(d, &scenario, "11", None, "single");
    let single = std::fs::read(d.join("single/summary.csv")).expect("summary");
    for n in [1u64, 2, 3, 7] {
        // Shards in a scrambled order: the merge sorts them.
        let mut states: Vec<String> = (0..n)
            .rev()
            .map(|k| {
                run_shard(d, &scenario, "11", Some((k, n)), &format!("s{n}-{k}"))
                    .display()
                    .to_string()
            })
            .collect();
        states.rotate_left(1);
        let out = format!("merged{n}");
        let mut args = vec!["merge", "--out", out.as_str()];
        args.extend(states.iter().map(String::as_str));
        let o = barsoom(&args, d);
        assert!(
            o.status.success(),
            "{n} shards: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let merged = std::fs::read(d.join(&out).join("summary.csv")).expect("merged summary");
        assert_eq!(merged, single, "{n} shards");
        let state: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.join(&out).join("state.json")).expect("state"))
                .expect("json");
        assert_eq!(state["range"], serde_json::json!([0, 50000]));
        assert!(d.join(&out).join("outcomes.png").is_file());
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn shards_that_do_not_belong_together_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = common::bundled("wom/padwar-vs-regular.toml")
        .display()
        .to_string();
    let other = common::bundled("wom/padwar-vs-padwar.toml")
        .display()
        .to_string();
    let a0 = run_shard(d, &scenario, "1", Some((0, 3)), "a0")
        .display()
        .to_string();
    let a1 = run_shard(d, &scenario, "1", Some((1, 3)), "a1")
        .display()
        .to_string();
    let a2 = run_shard(d, &scenario, "1", Some((2, 3)), "a2")
        .display()
        .to_string();
    let b2 = run_shard(d, &scenario, "2", Some((2, 3)), "b2")
        .display()
        .to_string();
    let c2 = run_shard(d, &other, "1", Some((2, 3)), "c2")
        .display()
        .to_string();
    let cases: [(&[&str], &str); 4] = [
        (&[&a0, &a1], "shards missing: 2/3"),
        (&[&a0, &a1, &a1, &a2], "shard 1/3 is given twice"),
        (&[&a0, &a1, &b2], "seed differs"),
        (&[&a0, &a1, &c2], "fingerprint"),
    ];
    for (states, expected) in cases {
        let mut args = vec!["merge", "--out", "never"];
        args.extend_from_slice(states);
        assert_bad_input(&args, d, &[expected]);
    }
    assert!(!d.join("never").exists());
    let o = barsoom(&["run", &scenario, "--shard", "3/3", "--out", "x"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("0 <= K < N"));
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn a_short_search_study_splits_across_every_shard() {
    // Eight Talisman games with a search player in four shards: with the
    // fixed 16,384-trial block one shard ran all eight and three ran none.
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = common::bundled("talisman/search-vs-sensible.toml")
        .display()
        .to_string();
    let run = |extra: &[&str], out: &str| {
        let mut args = vec!["run", &scenario, "-n", "8", "--out", out, "-q"];
        args.extend_from_slice(extra);
        barsoom_ok(&args, d);
        d.join(out).join("state.json").display().to_string()
    };
    run(&[], "single");
    let states: Vec<String> = (0..4)
        .map(|k| run(&["--shard", &format!("{k}/4")], &format!("s{k}")))
        .collect();
    for (k, state) in states.iter().enumerate() {
        let state: serde_json::Value =
            serde_json::from_slice(&std::fs::read(state).expect("state")).expect("json");
        assert_eq!(
            state["range"],
            serde_json::json!([2 * k, 2 * k + 2]),
            "shard {k}/4"
        );
    }
    let mut args = vec!["merge", "--out", "merged"];
    args.extend(states.iter().map(String::as_str));
    barsoom_ok(&args, d);
    assert_eq!(
        std::fs::read(d.join("merged/summary.csv")).expect("merged"),
        std::fs::read(d.join("single/summary.csv")).expect("single")
    );
}
