//! Every model has a rule coverage table in `docs/models/<id>.md`, and every
//! case number the code cites appears in a table of its rulebook, so a
//! designer reading the docs sees everything the simulator plays.
//!
//! Case numbers are read from comments and string literals: John Carter's
//! `[7.61]` under `crates/games/src/jc/`, Talisman's `16:4` under
//! `crates/games/src/talisman/`. The other rulebooks are not numbered; their
//! tables name sections, and only the table's shape is checked.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::root;

const STATUSES: &[&str] = &["modelled", "reconstructed", "omitted", "not applicable"];

/// A numbered rulebook: where its code lives, its models, and how a case
/// number looks.
struct Rulebook {
    name: &'static str,
    code: &'static str,
    models: &'static [&'static str],
    style: Style,
}

#[derive(Clone, Copy)]
enum Style {
    /// `[7.61]`: section and case, in square brackets.
    Bracketed,
    /// `16:4`: section and paragraph.
    Colon,
}

const NUMBERED: &[Rulebook] = &[
    Rulebook {
        name: "John Carter, Warlord of Mars",
        code: "crates/games/src/jc",
        models: &[
            "jc.duel",
            "jc.swordsman",
            "jc.fleet",
            "jc.military",
            "jc.strategic",
        ],
        style: Style::Bracketed,
    },
    Rulebook {
        name: "Talisman",
        code: "crates/games/src/talisman",
        models: &["talisman.game", "talisman.combat"],
        style: Style::Colon,
    },
];

/// The `(case, status)` rows of the table under `## Rule coverage`.
fn coverage_rows(doc: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(doc)
        .unwrap_or_else(|e| panic!("{}: cannot read: {e}", doc.display()));
    let mut rows = Vec::new();
    let mut in_section = false;
    for line in text.lines() {
        if line.starts_with("## ") {
            in_section = line.trim() == "## Rule coverage";
            continue;
        }
        if !in_section || !line.trim_start().starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if cells.len() < 4 || cells[0] == "case" || cells[0].starts_with("---") {
            continue;
        }
        rows.push((cells[0].to_string(), cells[2].to_string()));
    }
    rows
}

/// The case numbers in `text` written in `style`.
fn cases(text: &str, style: Style) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let separator = match style {
        Style::Bracketed => b'.',
        Style::Colon => b':',
    };
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit()
            || (i > 0
                && (bytes[i - 1].is_ascii_alphanumeric()
                    || bytes[i - 1] == b'.'
                    || bytes[i - 1] == b':'))
        {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i - start > 2
            || i + 1 >= bytes.len()
            || bytes[i] != separator
            || !bytes[i + 1].is_ascii_digit()
        {
            continue;
        }
        i += 1;
        let second = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let followed = bytes.get(i).copied().unwrap_or(b' ');
        if i - second > 2
            || followed.is_ascii_digit()
            || (followed == separator && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            continue;
        }
        let case = &text[start..i];
        let inside_brackets = {
            let before = &text[..start];
            let open = before.rfind('[');
            let close = before.rfind(']');
            open.is_some_and(|o| close.is_none_or(|c| c < o))
        };
        match style {
            Style::Bracketed if inside_brackets => found.push(case.to_string()),
            Style::Colon => found.push(case.to_string()),
            Style::Bracketed => {}
        }
    }
    found
}

/// The comments and string literals of a Rust source line: where the code
/// cites rules.
fn prose(line: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    in_string = false;
                    out.push(' ');
                }
                _ => out.push(c),
            }
        } else if c == '"' {
            in_string = true;
        } else if c == '/' && line[at..].starts_with("//") {
            out.push(' ');
            out.push_str(&line[at..]);
            break;
        }
    }
    out
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn every_model_has_a_rule_coverage_table() {
    let ids: Vec<&str> = barsoom::games::MODELS.iter().map(|m| m.id).collect();
    for id in ids {
        let doc = root().join("docs/models").join(format!("{id}.md"));
        let rows = coverage_rows(&doc);
        assert!(
            !rows.is_empty(),
            "{}: no `## Rule coverage` table",
            doc.display()
        );
        for (case, status) in rows {
            assert!(
                STATUSES.contains(&status.as_str()),
                "{}: case {case}: status {status:?}, expected one of {STATUSES:?}",
                doc.display()
            );
        }
    }
}

#[test]
fn every_case_the_code_cites_is_in_its_rulebooks_coverage_tables() {
    for book in NUMBERED {
        let mut covered = BTreeSet::new();
        for id in book.models {
            let doc = root().join("docs/models").join(format!("{id}.md"));
            for (case, _) in coverage_rows(&doc) {
                covered.extend(cases(&case, book.style));
            }
        }
        let mut files = Vec::new();
        rust_files(&root().join(book.code), &mut files);
        files.sort();
        let mut missing = BTreeSet::new();
        for file in &files {
            let text = std::fs::read_to_string(file).expect("source text");
            for line in text.lines() {
                for case in cases(&prose(line), book.style) {
                    if !covered.contains(&case) {
                        let relative = file.strip_prefix(root()).unwrap_or(file);
                        missing.insert(format!("{case} ({})", relative.display()));
                    }
                }
            }
        }
        assert!(
            missing.is_empty(),
            "{}: cases cited in the code but in no coverage table of {}: {}",
            book.name,
            book.models.join(", "),
            missing.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
}

#[test]
fn case_numbers_are_read_as_the_code_writes_them() {
    assert_eq!(
        cases("a hit [7.61] and [10.22, 10.41]", Style::Bracketed),
        ["7.61", "10.22", "10.41"]
    );
    assert_eq!(
        cases("not a case: 1.5 dice, version 0.55.2", Style::Bracketed),
        Vec::<String>::new()
    );
    assert_eq!(cases("see 16:4 and 5:10", Style::Colon), ["16:4", "5:10"]);
    assert_eq!(
        prose(r#"let x = [0.5]; // [7.61] "[9.27]""#),
        " // [7.61] \"[9.27]\""
    );
    assert_eq!(prose(r#"trace("[7.61] hit", 0.5)"#), "[7.61] hit ");
}
