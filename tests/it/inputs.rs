//! Inputs that must be refused before any work (exit 2, one line naming the
//! file, the field and what was expected): integers that would wrap when
//! narrowed, repeated `--seat`/`--vary`/`--target`, overlong names, data
//! files that are not regular files or are too large, and search budgets
//! that would exhaust memory.

use crate::common::{assert_bad_input, assert_invalid, bundled, root, write_duel};

const I64_MIN: &str = "-9223372036854775808";

#[test]
fn i64_min_is_refused_where_a_range_check_used_abs() {
    for (scenario, set, field) in [
        (
            "races/game/two-player.toml",
            "terrain.farms.all_units.numbers",
            "terrain.farms.all_units",
        ),
        (
            "jc/fleet/even-fight.toml",
            "matrix.rows[0][1]",
            "matrix.rows[0][1]",
        ),
    ] {
        let set = format!("{set}={I64_MIN}");
        let scenario = bundled(scenario).display().to_string();
        assert_bad_input(
            &["validate", &scenario, "--set", &set],
            &root(),
            &[field, I64_MIN, "expected"],
        );
    }
}

#[test]
fn tournament_seats_must_be_distinct() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/carthoris-vs-tars-tarkas.toml")
        .display()
        .to_string();
    let seat = "sides[0].figures[0].character";
    {
        assert_bad_input(
            &[
                "tournament",
                &scenario,
                "--seat",
                seat,
                "--seat",
                seat,
                "--entrants",
                "padwar,john-carter",
                "-n",
                "100",
                "--out",
                "t",
            ],
            dir.path(),
            &["--seat", "twice"],
        );
    }
    assert!(!dir.path().join("t").exists(), "nothing written");
}

#[test]
fn a_repeated_vary_or_target_is_refused_before_any_work() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let level = "sides[0].figures[0].level";
    let sweep = [
        "sweep",
        &scenario,
        "--vary",
        &format!("{level}=1,2"),
        "--vary",
        &format!("{level}=3,4"),
        "-n",
        "100",
        "--out",
        "s",
    ];
    let line = assert_bad_input(&sweep, dir.path(), &["--vary", level, "twice"]);
    assert!(!line.contains("duplicate"), "{line}");
    let tune = [
        "tune",
        &scenario,
        "--vary",
        &format!("{level}=1..3"),
        "--target",
        "First padwar wins=0.5",
        "--target",
        "First padwar wins=0.4",
        "-n",
        "100",
        "--out",
        "u",
    ];
    assert_bad_input(&tune, dir.path(), &["--target", "First padwar wins"]);
    assert!(!dir.path().join("s").exists() && !dir.path().join("u").exists());
}

#[test]
fn overlong_labels_and_ids_are_refused_at_load() {
    let dir = tempfile::tempdir().expect("tempdir");
    let long = "x".repeat(20_000);
    let path = write_duel(
        dir.path(),
        "long",
        &format!(
            "[[sides]]\nlabel = \"{long}\"\nfigures = [{{ character = \"padwar\" }}]\n[[sides]]\nfigures = [{{ character = \"padwar\" }}]\n"
        ),
    );
    let line = assert_invalid(&path, &["long.toml", "sides[0].label", "200 characters"]);
    assert!(line.len() < 300, "a short line: {}", line.len());
    let id = format!("sides[0].figures[0].character={long}");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let line = assert_bad_input(
        &["validate", &scenario, "--set", &id],
        &root(),
        &["sides[0].figures[0].character", "200 characters"],
    );
    assert!(line.len() < 300, "a short line: {}", line.len());
}

#[cfg(unix)]
#[test]
fn data_files_must_be_regular_and_bounded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    crate::common::copy_tree(&crate::common::wom_data(), &data);
    let scenario = dir.path().join("duel.toml");
    std::fs::copy(bundled("wom/padwar-vs-padwar.toml"), &scenario).expect("copy");
    let text = std::fs::read_to_string(&scenario).expect("read");
    std::fs::write(&scenario, format!("data = \"data\"\n{text}")).expect("write");
    let roster = data.join("roster.toml");
    std::fs::remove_file(&roster).expect("remove");
    std::os::unix::fs::symlink("/dev/zero", &roster).expect("symlink");
    assert_invalid(&scenario, &["roster.toml", "regular file"]);
    std::fs::remove_file(&roster).expect("remove");
    let big = std::fs::File::create(&roster).expect("create");
    big.set_len(17 * 1024 * 1024).expect("sparse file");
    assert_invalid(&scenario, &["roster.toml", "16 MiB"]);
}

#[test]
fn search_budgets_are_bounded_by_memory() {
    let scenario = bundled("jetan/mcts-vs-greedy.toml").display().to_string();
    assert_bad_input(
        &["validate", &scenario, "--set", "players[0]=mcts:100000000"],
        &root(),
        &["players[0]", "mcts", "playouts", "MiB", "100000000"],
    );
}

#[test]
fn card_numbers_past_a_u16_are_refused_not_wrapped() {
    // 65,652 is 116 + 65,536: as a u16 it was card 116 again.
    let dir = tempfile::tempdir().expect("tempdir");
    crate::common::copy_tree(&bundled("jc"), &dir.path().join("jc"));
    let deck = dir.path().join("jc/data/acquisition-deck.toml");
    let text = std::fs::read_to_string(&deck).expect("read");
    let shifted: Vec<String> = text
        .lines()
        .map(|line| {
            for key in ["first_card = ", "number = "] {
                if let Some(n) = line.strip_prefix(key).and_then(|n| n.parse::<i64>().ok()) {
                    return format!("{key}{}", n + 65_536);
                }
            }
            line.to_string()
        })
        .collect();
    std::fs::write(&deck, shifted.join("\n")).expect("write");
    let scenario = dir.path().join("jc/strategic/two-heroes.toml");
    crate::common::use_data(&scenario, &dir.path().join("jc/data"));
    assert_invalid(
        &scenario,
        &[
            "acquisition-deck.toml",
            "cards[0].number",
            "65652",
            "0 to 999",
        ],
    );
}

#[test]
fn talisman_effects_past_a_u16_index_are_refused_not_wrapped() {
    // Cards keep 16-bit indices into the compiled effects: an event with
    // 65,540 effects would have wrapped the next card's start to 4.
    let dir = tempfile::tempdir().expect("tempdir");
    crate::common::copy_tree(&bundled("talisman"), &dir.path().join("talisman"));
    let deck = dir.path().join("talisman/data/adventure.toml");
    let mut text = std::fs::read_to_string(&deck).expect("read");
    text.push_str("\n[[cards]]\nname = \"Endless storm\"\nkind = \"event\"\neffects = [");
    text.push_str(&"{ effect = \"lose_turn\" },".repeat(65_540));
    text.push_str("]\n");
    std::fs::write(&deck, text).expect("write");
    let scenario = dir.path().join("talisman/two-player-random-deal.toml");
    crate::common::use_data(&scenario, &dir.path().join("talisman/data"));
    assert_invalid(
        &scenario,
        &["adventure.toml", "cards[", "expected at most 65535 effects"],
    );
}
