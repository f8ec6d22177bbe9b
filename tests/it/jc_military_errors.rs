//! `jc.military`: bad map and scenario data, each a one-line error
//! naming the file and field.

use std::path::{Path, PathBuf};

use crate::common;

// ---------------------------------------------------------------- bad input

pub(crate) fn data_copy(dir: &Path) -> PathBuf {
    let data = dir.join("data");
    common::copy_tree(&common::bundled("jc/data"), &data);
    let scenarios = dir.join("military");
    std::fs::create_dir_all(&scenarios).expect("mkdir");
    std::fs::copy(
        common::bundled("jc/military/greedy-vs-greedy.toml"),
        scenarios.join("s.toml"),
    )
    .expect("copy");
    common::use_data(&scenarios.join("s.toml"), &data);
    data
}

pub(crate) fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).expect("read");
    assert!(text.contains(from), "{from}");
    std::fs::write(path, text.replacen(from, to, 1)).expect("write");
}

#[test]
fn a_link_to_an_unknown_city_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tmp");
    let data = data_copy(dir.path());
    edit(
        &data.join("barsoom-map.toml"),
        "between = [\"dusar\", \"kamtol\"]",
        "between = [\"dusar\", \"kamtool\"]",
    );
    let s = dir.path().join("military/s.toml");
    common::assert_bad_input(
        &["validate", s.to_str().expect("utf8")],
        dir.path(),
        &[
            "barsoom-map.toml",
            "links[8].between",
            "kamtool",
            "expected one of the cities",
        ],
    );
}

#[test]
fn an_unreachable_capital_is_a_clear_error() {
    // Cut Jahar and Tjanath (and Amhor's side) off: drop the lines and the
    // fork that reach them.
    let dir = tempfile::tempdir().expect("tmp");
    let data = data_copy(dir.path());
    let map = data.join("barsoom-map.toml");
    edit(
        &map,
        "legs = { gathol = 70, tjanath = 60, amhor = 80 }",
        "legs = { gathol = 70, amhor = 80 }",
    );
    edit(
        &map,
        "between = [\"kamtol\", \"tjanath\"]",
        "between = [\"kamtol\", \"manator\"]",
    );
    edit(
        &map,
        "between = [\"manator\", \"jahar\"]",
        "between = [\"manator\", \"thark\"]",
    );
    let s = dir.path().join("military/s.toml");
    common::assert_bad_input(
        &["validate", s.to_str().expect("utf8")],
        dir.path(),
        &["barsoom-map.toml", "cities.jahar", "reachable"],
    );
}

#[test]
fn more_strength_than_allowed_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tmp");
    data_copy(dir.path());
    let s = dir.path().join("military/s.toml");
    edit(&s, "greater-helium = 4", "greater-helium = 6");
    common::assert_bad_input(
        &["validate", s.to_str().expect("utf8")],
        dir.path(),
        &["sides.helium.setup", "totalling 7", "found 9"],
    );
    // A set-up outside the side's capitals.
    let s2 = dir.path().join("military/s.toml");
    edit(&s2, "greater-helium = 6", "zodanga = 4");
    common::assert_bad_input(
        &["validate", s2.to_str().expect("utf8")],
        dir.path(),
        &["sides.helium.setup.zodanga", "capitals"],
    );
}
