//! docs/verification.md section 24: "The test `every_code_is_in_the_table` ... fails
//! when either verifier can emit a code this table lacks, or when the table lists one
//! neither emits." The table is read from the markdown; the codes `yaniv verify` can
//! emit from the sources that write them (the literal codes of this crate, the codes
//! of the domain errors it passes on); the reference verifier's from every `fail(...)`
//! call of its source.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("read {path}: {e}"))
}

/// Which verifier emits a code, as the table's `by` column says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum By {
    Both,
    Yaniv,
    Reference,
}

/// The rows of section 24's table: every code with its `by`.
fn table() -> BTreeMap<String, By> {
    let doc = read("docs/verification.md");
    let start = doc.find("\n## 24. Failure codes").expect("section 24");
    let section = &doc[start + 1..];
    let end = section[3..]
        .find("\n## ")
        .map_or(section.len(), |at| at + 3);
    let mut codes = BTreeMap::new();
    for line in section[..end].lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // `| codes | by | meaning | version | § |` splits into 7 cells.
        if cells.len() != 7 || !cells[1].starts_with('`') {
            continue;
        }
        let by = match cells[2] {
            "both" => By::Both,
            "yaniv" => By::Yaniv,
            "reference" => By::Reference,
            other => panic!("row {line:?}: `by` is {other:?}"),
        };
        for code in cells[1].split(',') {
            let code = code.trim().trim_matches('`');
            assert!(is_code(code), "row {line:?}: {code:?} is not a code");
            assert!(
                codes.insert(code.to_owned(), by).is_none(),
                "{code} is listed twice"
            );
        }
    }
    assert!(codes.len() > 100, "the table was not found: {codes:?}");
    codes
}

fn is_code(text: &str) -> bool {
    !text.is_empty()
        && text.starts_with(|c: char| c.is_ascii_lowercase())
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The double-quoted literals of `text` that look like codes.
fn code_literals(text: &str) -> Vec<&str> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|literal| is_code(literal))
        .collect()
}

/// The codes of a domain error's `fn code(&self)`: its `=> "code"` arms.
fn match_arms(path: &str, marker: &str) -> BTreeSet<String> {
    let source = read(path);
    let start = source
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} in {path}"));
    let body = &source[start..];
    let body = &body[..body.find("\n    }\n").expect("the end of the function")];
    let codes: BTreeSet<String> = body
        .split("=> \"")
        .skip(1)
        .filter_map(|arm| arm.split('"').next())
        .map(str::to_owned)
        .collect();
    assert!(!codes.is_empty(), "no codes in {path}");
    codes
}

/// The names of `ArchiveFailure::check` and the serde and schema words of this crate's
/// sources: literals that are not codes.
const NOT_CODES: [&str; 13] = [
    "archive",
    "chain",
    "checkpoints",
    "domain",
    "game",
    "links",
    "listing",
    "replay",
    "stream",
    "as_hex",
    "openapi",
    "snake_case",
    "type",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every code the project's verification can write: the literals of this crate's
/// code (tests, comments and attributes left out), and the codes of the domain errors
/// it reports as they are.
fn yaniv_codes() -> BTreeSet<String> {
    let mut files = Vec::new();
    rust_files(&root().join("verify/src"), &mut files);
    let mut codes = BTreeSet::new();
    for file in files {
        let source = std::fs::read_to_string(&file).expect("a source file");
        let source = source.split("#[cfg(test)]").next().unwrap_or_default();
        for line in source.lines() {
            let line = line.trim_start();
            if line.starts_with("//") || line.starts_with("#[") {
                continue;
            }
            let code = line.split("//").next().unwrap_or_default();
            for literal in code_literals(code) {
                if !NOT_CODES.contains(&literal) {
                    codes.insert(literal.to_owned());
                }
            }
        }
    }
    codes.extend(
        yaniv_domain::game::GameError::CODES
            .iter()
            .map(|c| (*c).to_owned()),
    );
    codes.extend(match_arms(
        "domain/src/tournament/error.rs",
        "pub fn code(&self)",
    ));
    codes.extend(match_arms(
        "domain/src/tournament/audit.rs",
        "pub fn code(&self)",
    ));
    codes.extend(match_arms(
        "domain/src/table/entropy/state.rs",
        "pub fn code(&self)",
    ));
    codes
}

/// Every code the reference verifier can write: the first code-like literal of each
/// `fail(...)` call that is not the name of its phase.
fn reference_codes() -> BTreeSet<String> {
    const PHASES: [&str; 4] = ["chain", "checkpoint", "game", "tournament"];
    let source = read("tools/reference-verifier/verify_archive.py");
    let mut codes = BTreeSet::new();
    for (at, _) in source.match_indices(".fail(") {
        let call = &source[at + ".fail(".len()..];
        let mut depth = 1;
        let end = call
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map(|(i, _)| i)
            .expect("a closed call");
        if let Some(code) = code_literals(&call[..end])
            .into_iter()
            .find(|literal| !PHASES.contains(literal))
        {
            codes.insert(code.to_owned());
        }
    }
    assert!(codes.len() > 50, "the fail calls were not found");
    codes
}

#[test]
fn every_code_is_in_the_table() {
    let table = table();
    let yaniv = yaniv_codes();
    let reference = reference_codes();
    let emitted: BTreeSet<&String> = yaniv.iter().chain(&reference).collect();
    let missing: Vec<&&String> = emitted
        .iter()
        .filter(|c| !table.contains_key(c.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "emitted but not in section 24: {missing:?}"
    );
    let mut wrong = Vec::new();
    for (code, by) in &table {
        let actual = match (yaniv.contains(code), reference.contains(code)) {
            (true, true) => Some(By::Both),
            (true, false) => Some(By::Yaniv),
            (false, true) => Some(By::Reference),
            (false, false) => None,
        };
        if actual != Some(*by) {
            wrong.push(format!("{code}: table says {by:?}, emitted by {actual:?}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The parsers themselves: a code of each source is found where it is written.
#[test]
fn the_parsers_find_known_codes() {
    assert!(yaniv_codes().contains("archive_head_not_checkpointed"));
    assert!(yaniv_codes().contains("card_not_in_hand"));
    assert!(yaniv_codes().contains("draw_mismatch"));
    assert!(!yaniv_codes().contains("chain"));
    assert!(reference_codes().contains("card_not_available"));
    assert!(!reference_codes().contains("checkpoint"));
    assert_eq!(table().get("hash_mismatch"), Some(&By::Both));
}
