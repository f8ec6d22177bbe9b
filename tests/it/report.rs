//! `barsoom report`: one self-contained HTML page from output folders, end
//! to end with the real binary, and its errors for bad folders.

use std::path::Path;

use crate::common;
use crate::common::{assert_bad_input, barsoom_ok, bundled};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `.svg` files a command left in `dir`.
fn svg_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list output folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".svg"))
        .collect();
    names.sort();
    names
}

/// Checks what every report must be: one HTML document with nothing
/// fetched from elsewhere and no scripts.
fn assert_self_contained(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"), "not an HTML document");
    assert!(html.trim_end().ends_with("</html>"), "HTML not closed");
    for external in ["http://", "https://", "src=", "<link", "<script", "@import"] {
        assert!(
            !html.contains(external),
            "the report is not self-contained: it contains {external:?}"
        );
    }
}

#[test]
fn a_run_and_a_sweep_become_one_self_contained_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    // Markup in a description must come out as text, not as markup.
    let description = r#"description=<i>Tars & "Sola"</i>"#;
    let run = barsoom_ok(
        &[
            "run",
            &scenario,
            "-n",
            "20000",
            "--seed",
            "7",
            "--set",
            description,
            "--out",
            "run",
            "--json",
            "-q",
        ],
        d,
    );
    let summary: serde_json::Value = serde_json::from_slice(&run.stdout).expect("run JSON");
    barsoom_ok(
        &[
            "sweep",
            &scenario,
            "--vary",
            "sides[0].figures[0].level=4..6",
            "-n",
            "5000",
            "--seed",
            "7",
            "--out",
            "sweep",
        ],
        d,
    );
    let o = barsoom_ok(&["report", "run", "sweep", "--out", "out/page.html"], d);
    assert!(String::from_utf8_lossy(&o.stdout).contains("page.html"));
    let html = read(&d.join("out/page.html"));
    assert_self_contained(&html);

    assert!(html.contains("padwar-vs-padwar"), "scenario name");
    assert!(html.contains("<dt>seed</dt><dd>7</dd>"), "seed");
    assert!(
        html.contains("<dt>trials</dt><dd>20,000</dd>"),
        "trial count"
    );
    assert!(
        html.contains(&format!(
            "<dt>barsoom version</dt><dd>{}</dd>",
            env!("CARGO_PKG_VERSION")
        )),
        "version"
    );
    // The command that reproduces each folder, escaped like any text.
    let run_info: serde_json::Value =
        serde_json::from_str(&read(&d.join("run/run.json"))).expect("run.json");
    let command = run_info["command"]
        .as_str()
        .expect("run.json records the command");
    assert!(command.starts_with("barsoom run ") && command.contains("--seed 7"));
    let escaped = command
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;");
    assert!(
        html.contains(&format!("<pre><code>{escaped}</code></pre>")),
        "the run's command"
    );
    let sweep_info: serde_json::Value =
        serde_json::from_str(&read(&d.join("sweep/sweep.json"))).expect("sweep.json");
    let sweep_command = sweep_info["command"].as_str().expect("sweep command");
    assert!(html.contains(&format!(
        "<pre><code>{}</code></pre>",
        sweep_command.replace('\'', "&#39;")
    )));
    assert!(html.contains("sides[0].figures[0].level = 4, 5, 6"));
    // Escaping: the description's markup is text.
    assert!(html.contains("&lt;i&gt;Tars &amp; &quot;Sola&quot;&lt;/i&gt;"));
    assert!(!html.contains("<i>Tars"));

    // Every outcome's rate and Wilson interval, as the run reported them.
    for outcome in summary["outcomes"].as_array().expect("outcomes") {
        let label = outcome["label"].as_str().expect("label");
        let rate = outcome["rate"].as_f64().expect("rate");
        let ci = &outcome["ci95"];
        let (lo, hi) = (ci[0].as_f64().expect("lo"), ci[1].as_f64().expect("hi"));
        let row = format!(
            "<td>{label}</td><td class=\"num\">{}</td><td class=\"num\">{rate:.4}</td><td class=\"num\">[{lo:.4}, {hi:.4}]</td>",
            common_group(outcome["count"].as_u64().expect("count"))
        );
        assert!(html.contains(&row), "outcome row {row}");
    }
    // Metrics table with the length metric's mean.
    let rounds = summary["metrics"]["rounds"]["mean"]
        .as_f64()
        .expect("rounds mean");
    assert!(html.contains(&format!(
        "<td>rounds</td><td class=\"num\">{rounds:.4}</td>"
    )));

    // One inline <svg> per chart file of the two folders, each captioned.
    let mut charts = svg_files(&d.join("run"));
    charts.extend(svg_files(&d.join("sweep")));
    assert_eq!(
        charts.len(),
        3,
        "outcomes, length and sweep charts: {charts:?}"
    );
    assert_eq!(html.matches("<svg").count(), charts.len());
    assert_eq!(html.matches("</svg>").count(), charts.len());
    for name in &charts {
        assert!(
            html.contains(&format!("<figcaption>{name}</figcaption>")),
            "{name}"
        );
    }
    assert!(!html.contains("<?xml"), "XML prologue left in");
}

/// `1234` as `1,234`, as the report groups counts.
fn common_group(n: u64) -> String {
    barsoom::report::summary::group_thousands(n)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn every_command_folder_is_reported_with_its_command() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let padwar = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let duel = bundled("wom/carthoris-vs-tars-tarkas.toml")
        .display()
        .to_string();
    let seat = |k: usize| format!("sides[{k}].figures[0].character");
    let (seat0, seat1) = (seat(0), seat(1));
    barsoom_ok(
        &[
            "compare",
            &padwar,
            "--set-b",
            "sides[0].figures[0].level=7",
            "-n",
            "5000",
            "--out",
            "compare",
        ],
        d,
    );
    barsoom_ok(
        &[
            "tune",
            &padwar,
            "--vary",
            "sides[0].figures[0].level=4..7",
            "--target",
            "rounds=8",
            "-n",
            "2000",
            "--confirm",
            "5000",
            "--out",
            "tune",
        ],
        d,
    );
    barsoom_ok(
        &[
            "tournament",
            &duel,
            "--seat",
            &seat0,
            "--seat",
            &seat1,
            "--entrants",
            "john-carter,padwar,tars-tarkas",
            "-n",
            "1000",
            "--out",
            "tournament",
        ],
        d,
    );
    barsoom_ok(
        &[
            "bench",
            &padwar,
            "-n",
            "20000",
            "--threads",
            "1",
            "--repeats",
            "1",
            "--out",
            "bench",
        ],
        d,
    );
    barsoom_ok(
        &[
            "run", &padwar, "-n", "30000", "--shard", "0/2", "--out", "s0", "-q",
        ],
        d,
    );
    barsoom_ok(
        &[
            "run", &padwar, "-n", "30000", "--shard", "1/2", "--out", "s1", "-q",
        ],
        d,
    );
    barsoom_ok(
        &["merge", "s0/state.json", "s1/state.json", "--out", "merged"],
        d,
    );
    let folders = ["compare", "tune", "tournament", "bench", "merged"];
    let mut args = vec!["report"];
    args.extend(folders);
    args.extend(["--out", "all.html", "--json"]);
    let o = barsoom_ok(&args, d);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("report --json");
    let sections = json["sections"].as_array().expect("sections");
    let commands: Vec<&str> = sections
        .iter()
        .map(|s| s["command"].as_str().expect("command"))
        .collect();
    assert_eq!(
        commands,
        ["compare", "tune", "tournament", "bench", "merge"]
    );
    let html = read(&d.join("all.html"));
    assert_self_contained(&html);
    let mut charts = 0;
    for (folder, command) in folders.iter().zip(&commands) {
        assert!(
            html.contains(&format!("<span class=\"command\">{command}</span>")),
            "{folder}: section title"
        );
        assert!(
            html.contains(&format!("<pre><code>barsoom {command} ")),
            "{folder}: the command that reproduces it"
        );
        charts += svg_files(&d.join(folder)).len();
    }
    assert!(charts >= 5, "tune, head-to-head, bench, outcomes, length");
    assert_eq!(html.matches("<svg").count(), charts);
    for caption in [
        "Change in metric means",
        "Targets and the winner",
        "Search trace",
        "Bradley–Terry ratings",
        "Head-to-head record",
        "Throughput",
        "Outcome rates with 95% Wilson intervals",
    ] {
        assert!(html.contains(caption), "table {caption:?}");
    }
    assert!(html.contains("<dt>entrants</dt><dd>john-carter, padwar, tars-tarkas</dd>"));
    assert!(html.contains("<dt>merged from</dt>"));
}

#[test]
fn a_chart_that_is_not_a_plain_drawing_is_left_out() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    barsoom_ok(&["run", &scenario, "-n", "5000", "--out", "run", "-q"], d);
    std::fs::write(
        d.join("run/outcomes.svg"),
        "<svg><script>alert('x')</script></svg>",
    )
    .expect("doctor the chart");
    common::reseal_manifest(&d.join("run"));
    let o = barsoom_ok(&["report", "run", "--out", "page.html"], d);
    assert!(String::from_utf8_lossy(&o.stderr).contains("outcomes.svg"));
    let html = read(&d.join("page.html"));
    assert_self_contained(&html);
    assert!(html.contains("outcomes.svg: left out"));
    assert_eq!(html.matches("<svg").count(), 1, "the length chart stays");
}

#[test]
fn bad_folders_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::create_dir(d.join("empty")).expect("mkdir");
    std::fs::create_dir(d.join("broken")).expect("mkdir");
    std::fs::write(d.join("broken/run.json"), "{ not json").expect("write");
    std::fs::create_dir(d.join("no-frame")).expect("mkdir");
    std::fs::write(d.join("no-frame/sweep.json"), "{}").expect("write");
    assert_bad_input(
        &["report", "missing", "--out", "r.html"],
        d,
        &["missing", "no such folder", "output folder"],
    );
    assert_bad_input(
        &["report", "empty", "--out", "r.html"],
        d,
        &["empty", "run.json", "sweep.json", "bench.json"],
    );
    assert_bad_input(
        &["report", "broken", "--out", "r.html"],
        d,
        &[
            "broken/run.json",
            "expected the JSON object barsoom run writes",
        ],
    );
    assert_bad_input(
        &["report", "no-frame", "--out", "r.html"],
        d,
        &["no-frame/sweep.csv", "missing"],
    );
    assert_bad_input(
        &["report", "broken/run.json", "--out", "r.html"],
        d,
        &["broken/run.json", "not a folder", "output folder"],
    );
    assert_bad_input(&["report"], d, &["DIR"]);
    assert!(!d.join("r.html").exists(), "nothing written on bad input");
}

#[test]
fn a_parent_folder_stands_for_the_output_folders_below_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let padwar = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let jetan = bundled("jetan/random-vs-random.toml").display().to_string();
    // Default folders: reports/wom/padwar-vs-padwar, its -sweep, and
    // reports/jetan/random-vs-random.
    barsoom_ok(&["run", &padwar, "-n", "2000", "-q"], d);
    barsoom_ok(
        &[
            "sweep",
            &padwar,
            "--vary",
            "sides[0].figures[0].level=5,6",
            "-n",
            "500",
        ],
        d,
    );
    barsoom_ok(&["run", &jetan, "-n", "10", "-q"], d);
    let o = barsoom_ok(&["report", "reports", "--out", "all.html", "--json"], d);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let folders: Vec<&str> = json["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .map(|s| s["folder"].as_str().expect("folder"))
        .collect();
    assert_eq!(
        folders,
        [
            "reports/jetan/random-vs-random",
            "reports/wom/padwar-vs-padwar",
            "reports/wom/padwar-vs-padwar-sweep"
        ]
    );
    assert_self_contained(&read(&d.join("all.html")));
    // A folder below that cannot be reported is left out with a note; the
    // same folder named itself is an error.
    std::fs::remove_file(d.join("reports/jetan/random-vs-random/manifest.json")).expect("rm");
    let o = barsoom_ok(&["report", "reports", "--out", "all.html", "--json"], d);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(json["sections"].as_array().map(Vec::len), Some(2));
    let note = common::text(&o.stderr);
    assert!(
        note.contains("note: left out reports/jetan/random-vs-random"),
        "{note}"
    );
    assert_bad_input(
        &[
            "report",
            "reports/jetan/random-vs-random",
            "--out",
            "r.html",
        ],
        d,
        &["random-vs-random", "manifest.json"],
    );
    // A folder with nothing below it says so.
    std::fs::create_dir_all(d.join("nothing/here")).expect("mkdir");
    assert_bad_input(
        &["report", "nothing", "--out", "r.html"],
        d,
        &[
            "nothing",
            "no barsoom outputs found in it or its subfolders",
        ],
    );
}
