//! Imports point down: no cycle among the non-test source files of the
//! workspace's crates, and none among a crate's top-level modules.
//!
//! `docs/architecture.md` draws the layers; this test keeps the drawing true.
//! It reads the sources as text, the way a newcomer reads the folder: a file
//! depends on every module it names through `crate::`, `super::` or `self::`
//! paths, and a `mod.rs` depends on a child it names by its bare name
//! (`child::item`). Declaring a child (`mod child;`) is structure, not a
//! dependency. Test modules, comments and string literals are left out.
//!
//! When this fails, it prints each cycle with the edges that close it; move
//! the shared piece down (into its own file below both users) rather than
//! reaching back up.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const CRATES: &[&str] = &["domain/src", "verify/src", "api/src", "cli/src"];

#[test]
fn no_source_file_imports_in_a_circle() {
    let mut report = String::new();
    for dir in CRATES {
        let graph = Graph::of_crate(&workspace().join(dir));
        assert!(graph.modules.len() > 5, "{dir}: found no sources");
        for cycle in graph.cycles() {
            report.push_str(&format!("{dir}: files import one another in a circle:\n"));
            report.push_str(&graph.describe(&cycle));
        }
    }
    assert!(report.is_empty(), "{report}");
}

#[test]
fn top_level_modules_import_in_one_direction() {
    let mut report = String::new();
    for dir in CRATES {
        let graph = Graph::of_crate(&workspace().join(dir)).top_level();
        for cycle in graph.cycles() {
            report.push_str(&format!(
                "{dir}: top-level modules import one another in a circle:\n"
            ));
            report.push_str(&graph.describe(&cycle));
        }
    }
    assert!(report.is_empty(), "{report}");
}

/// The checker must see what it claims to see: a circle planted in a scratch
/// crate is found, through every kind of path it follows.
#[test]
fn the_checker_finds_a_planted_circle() {
    let root = std::env::temp_dir().join(format!("imports-check-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    let files: &[(&str, &str)] = &[
        ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
        ("a/mod.rs", "mod child;\npub fn f() { child::g() }\n"),
        ("a/child.rs", "pub fn g() { super::super::b::h() }\n"),
        ("b.rs", "use crate::{c::{self, k}};\npub fn h() { k() }\n"),
        (
            "c.rs",
            "// crate::b::h is only a comment\npub fn k() { let _ = \"crate::b\"; }\n\
             #[cfg(test)]\nmod tests { use crate::a::f; }\npub fn back() { crate::a::f() }\n",
        ),
        ("d.rs", "pub fn alone() {}\n"),
    ];
    for (path, text) in files {
        let file = root.join(path);
        fs::create_dir_all(file.parent().expect("a parent")).expect("scratch dir");
        fs::write(&file, text).expect("scratch file");
    }
    let graph = Graph::of_crate(&root);
    let cycles = graph.cycles();
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    let names: BTreeSet<String> = cycles[0].iter().map(|m| graph.name(*m)).collect();
    let expected: BTreeSet<String> = ["a", "a::child", "b", "c"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(names, expected);

    // Without the last line of c.rs the circle is open: the comment, the
    // string and the test module do not count.
    fs::write(
        root.join("c.rs"),
        "// crate::b::h is only a comment\npub fn k() { let _ = \"crate::b\"; }\n\
         #[cfg(test)]\nmod tests { use crate::a::f; }\n",
    )
    .expect("scratch file");
    assert!(Graph::of_crate(&root).cycles().is_empty());
    let _ = fs::remove_dir_all(&root);
}

/// Only the reads that tolerate lag reach the replica (docs/operations.md, "Reads from
/// a replica", lists them): a command that read it could decide on a state the primary
/// has left behind. A file reaches it when its code names `lag_tolerant`, the
/// `crate::replica` module or a `replica()`; the wiring, the figures and the header
/// are allowed too. A new reader belongs in that list and here.
#[test]
fn only_the_lag_tolerant_reads_reach_the_replica() {
    const ALLOWED: &[&str] = &[
        // The module itself, and what builds, shows and marks it.
        "replica/mod.rs",
        "replica/positions.rs",
        "replica/probe.rs",
        "app_state.rs",
        "startup.rs",
        "http/exposition.rs",
        "http/replica_lag.rs",
        "http/routes/health.rs",
        // The reads.
        "http/routes/tournaments/list.rs",
        "http/routes/tournaments/archive.rs",
        "http/pages/landing.rs",
    ];
    let root = workspace().join("api/src");
    let mut files = BTreeMap::new();
    collect_files(&root, &root, &mut files);
    let mut reaching: Vec<String> = Vec::new();
    for path in files.values() {
        let code = strip_comments_and_literals(&fs::read_to_string(path).expect("a source"));
        // The unit tests of a file are its own business.
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        if [
            "lag_tolerant",
            "crate::replica",
            "replica()",
            "super::replica",
        ]
        .iter()
        .any(|name| code.contains(name))
        {
            let relative = path.strip_prefix(&root).expect("under the root");
            reaching.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
    let unexpected: Vec<&String> = reaching
        .iter()
        .filter(|file| !ALLOWED.contains(&file.as_str()) && !file.starts_with("replica/"))
        .collect();
    assert!(
        unexpected.is_empty(),
        "these files reach the replica, which only lag-tolerant reads may: {unexpected:?}"
    );
    // The checker sees what it claims: the reads it allows are found.
    for read in &ALLOWED[8..] {
        assert!(
            reaching.iter().any(|file| file == read),
            "{read} no longer reads the replica: update this list and docs/operations.md"
        );
    }
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

type ModulePath = Vec<String>;

struct Graph {
    modules: Vec<ModulePath>,
    /// For each module, the modules it imports (indices into `modules`).
    edges: Vec<BTreeSet<usize>>,
}

impl Graph {
    fn of_crate(src: &Path) -> Graph {
        let mut files = BTreeMap::new();
        collect_files(src, src, &mut files);
        // A binary beside a library is its own crate and imports the library by name.
        if files.contains_key(&vec!["lib".to_string()]) {
            files.remove(&vec!["main".to_string()]);
        }
        let mut sources: BTreeMap<ModulePath, Source> = BTreeMap::new();
        for (raw, file) in &files {
            let module = module_of(raw);
            let text = fs::read_to_string(file).expect("a readable source");
            sources.insert(module, Source::parse(&text));
        }
        // Files under a module declared only for tests are test code.
        let test_roots: Vec<ModulePath> = sources
            .iter()
            .flat_map(|(module, source)| {
                source.test_children.iter().map(move |child| {
                    let mut path = module.clone();
                    path.push(child.clone());
                    path
                })
            })
            .collect();
        sources.retain(|module, _| !test_roots.iter().any(|root| module.starts_with(root)));

        let modules: Vec<ModulePath> = sources.keys().cloned().collect();
        let resolver = Resolver {
            index: modules
                .iter()
                .enumerate()
                .map(|(i, m)| (m.clone(), i))
                .collect(),
            reexports: sources
                .iter()
                .map(|(m, s)| (m.clone(), s.reexports(m)))
                .collect(),
            sources: &sources,
        };
        let mut edges = vec![BTreeSet::new(); modules.len()];
        for (from, (module, source)) in sources.iter().enumerate() {
            for path in source.paths(module) {
                if let Some(to) = resolver.file_of(&path, 0).filter(|to| *to != from) {
                    edges[from].insert(to);
                }
            }
        }
        Graph { modules, edges }
    }

    /// The same graph with every file folded into its top-level module.
    fn top_level(&self) -> Graph {
        let top = |m: &ModulePath| m.iter().take(1).cloned().collect::<ModulePath>();
        let modules: Vec<ModulePath> = self
            .modules
            .iter()
            .map(top)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let index: BTreeMap<&ModulePath, usize> =
            modules.iter().enumerate().map(|(i, m)| (m, i)).collect();
        let mut edges = vec![BTreeSet::new(); modules.len()];
        for (from, targets) in self.edges.iter().enumerate() {
            let a = index[&top(&self.modules[from])];
            for to in targets {
                let b = index[&top(&self.modules[*to])];
                // The crate root declares every module; its re-exports are not layering.
                if a != b && !modules[a].is_empty() {
                    edges[a].insert(b);
                }
            }
        }
        Graph { modules, edges }
    }

    fn name(&self, module: usize) -> String {
        let path = &self.modules[module];
        if path.is_empty() {
            "(crate root)".to_string()
        } else {
            path.join("::")
        }
    }

    /// Strongly connected components of more than one module (Tarjan).
    fn cycles(&self) -> Vec<Vec<usize>> {
        struct Walk<'g> {
            graph: &'g Graph,
            next: usize,
            index: Vec<Option<usize>>,
            low: Vec<usize>,
            stack: Vec<usize>,
            on_stack: Vec<bool>,
            found: Vec<Vec<usize>>,
        }
        impl Walk<'_> {
            fn visit(&mut self, v: usize) {
                self.index[v] = Some(self.next);
                self.low[v] = self.next;
                self.next += 1;
                self.stack.push(v);
                self.on_stack[v] = true;
                for &w in &self.graph.edges[v] {
                    match self.index[w] {
                        None => {
                            self.visit(w);
                            self.low[v] = self.low[v].min(self.low[w]);
                        }
                        Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                        Some(_) => {}
                    }
                }
                if Some(self.low[v]) == self.index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = self.stack.pop() {
                        self.on_stack[w] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if component.len() > 1 {
                        component.sort_unstable();
                        self.found.push(component);
                    }
                }
            }
        }
        let n = self.modules.len();
        let mut walk = Walk {
            graph: self,
            next: 0,
            index: vec![None; n],
            low: vec![0; n],
            stack: Vec::new(),
            on_stack: vec![false; n],
            found: Vec::new(),
        };
        for v in 0..n {
            if walk.index[v].is_none() {
                walk.visit(v);
            }
        }
        walk.found
    }

    fn describe(&self, cycle: &[usize]) -> String {
        let mut text = String::new();
        for &from in cycle {
            for to in self.edges[from].iter().filter(|to| cycle.contains(to)) {
                text.push_str(&format!("    {} -> {}\n", self.name(from), self.name(*to)));
            }
        }
        text
    }
}

/// Finds the file that defines what a path names, following re-exports.
struct Resolver<'s> {
    index: BTreeMap<ModulePath, usize>,
    reexports: BTreeMap<ModulePath, (BTreeMap<String, ModulePath>, Vec<ModulePath>)>,
    sources: &'s BTreeMap<ModulePath, Source>,
}

impl Resolver<'_> {
    fn file_of(&self, path: &[String], depth: usize) -> Option<usize> {
        if depth > 16 {
            return None;
        }
        let len = (0..=path.len())
            .rev()
            .find(|len| self.index.contains_key(&path[..*len]))?;
        let module = &path[..len];
        let here = self.index[module];
        let Some(name) = path.get(len) else {
            return Some(here);
        };
        if self.sources[module].defined.contains(name) {
            return Some(here);
        }
        let (names, globs) = &self.reexports[module];
        if let Some(target) = names.get(name) {
            let forwarded: ModulePath = target.iter().chain(&path[len + 1..]).cloned().collect();
            return self.file_of(&forwarded, depth + 1).or(Some(here));
        }
        for glob in globs {
            let forwarded: ModulePath = glob.iter().chain(&path[len..]).cloned().collect();
            if let Some(found) = self.file_of(&forwarded, depth + 1) {
                let module = &forwarded[..forwarded.len().min(glob.len())];
                if self.index.get(module) == Some(&found) || self.sources_define(found, name) {
                    return Some(found);
                }
            }
        }
        Some(here)
    }

    fn sources_define(&self, file: usize, name: &str) -> bool {
        self.index
            .iter()
            .find(|(_, i)| **i == file)
            .is_some_and(|(module, _)| self.sources[module].defined.contains(name))
    }
}

fn collect_files(root: &Path, dir: &Path, out: &mut BTreeMap<ModulePath, PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("a readable source folder")
        .map(|entry| entry.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            // `src/bin/` holds separate crates.
            if dir == root && path.file_name().is_some_and(|name| name == "bin") {
                continue;
            }
            collect_files(root, &path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let relative = path
                .strip_prefix(root)
                .expect("under the root")
                .with_extension("");
            let raw = relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.insert(raw, path);
        }
    }
}

/// `a/b/mod.rs` and `a/b.rs` are both module `a::b`; `lib.rs` is the root.
fn module_of(raw: &ModulePath) -> ModulePath {
    let mut module = raw.clone();
    if module.len() == 1 && (module[0] == "lib" || module[0] == "main") {
        module.clear();
    } else if module.last().is_some_and(|last| last == "mod") {
        module.pop();
    }
    module
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Star,
    Other(char),
}

/// One path a `use` tree or an expression names, made absolute.
struct Named {
    path: ModulePath,
    /// The name it binds in a `use` (its alias, or its last segment).
    binds: Option<String>,
    glob: bool,
}

struct Source {
    tokens: Vec<Token>,
    /// Children declared with `mod name;` outside test code.
    children: BTreeSet<String>,
    /// Children declared under `#[cfg(test)]`.
    test_children: BTreeSet<String>,
    /// Names of the items this file defines.
    defined: BTreeSet<String>,
    /// Token ranges of `pub use …;` statements: re-exports forward a name to
    /// the file that defines it and are not a dependency of their own.
    reexport_ranges: Vec<(usize, usize)>,
}

impl Source {
    fn parse(text: &str) -> Source {
        let tokens = tokenize(&strip_comments_and_literals(text));
        let (tokens, test_children) = drop_test_items(tokens);
        let mut children = BTreeSet::new();
        let mut defined = BTreeSet::new();
        for (i, token) in tokens.iter().enumerate() {
            let Token::Ident(word) = token else { continue };
            let next = tokens.get(i + 1);
            let kind = matches!(
                word.as_str(),
                "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union" | "mod"
            );
            if let Some(Token::Ident(name)) = next.filter(|_| kind) {
                defined.insert(name.clone());
                if word == "mod" && tokens.get(i + 2) == Some(&Token::Other(';')) {
                    children.insert(name.clone());
                }
            }
            if let (true, Some(Token::Ident(name))) = (word == "macro_rules", tokens.get(i + 2)) {
                defined.insert(name.clone());
            }
        }
        let mut reexport_ranges = Vec::new();
        for i in 0..tokens.len() {
            if tokens[i] != Token::Ident("pub".into()) {
                continue;
            }
            let mut at = i + 1;
            if tokens.get(at) == Some(&Token::Other('(')) {
                while at < tokens.len() && tokens[at] != Token::Other(')') {
                    at += 1;
                }
                at += 1;
            }
            if tokens.get(at) == Some(&Token::Ident("use".into())) {
                let end = (at..tokens.len())
                    .find(|k| tokens[*k] == Token::Other(';'))
                    .unwrap_or(tokens.len());
                reexport_ranges.push((at + 1, end));
            }
        }
        Source {
            tokens,
            children,
            test_children,
            defined,
            reexport_ranges,
        }
    }

    /// The absolute start of a path whose first word is at `i`, and where
    /// the rest of it begins; `None` when it does not start in this crate.
    fn path_start(&self, module: &ModulePath, i: usize) -> Option<(ModulePath, usize)> {
        let tokens = &self.tokens;
        let Token::Ident(first) = &tokens[i] else {
            return None;
        };
        if i > 0 && tokens[i - 1] == Token::PathSep {
            return None;
        }
        if tokens.get(i + 1) != Some(&Token::PathSep) {
            return None;
        }
        let (mut start, mut at) = match first.as_str() {
            "crate" => (Vec::new(), i + 2),
            "self" => (module.clone(), i + 2),
            "super" => (module.clone(), i),
            name if self.children.contains(name) => (module.clone(), i),
            _ => return None,
        };
        while let (Some(Token::Ident(word)), Some(Token::PathSep)) =
            (tokens.get(at), tokens.get(at + 1))
        {
            if word != "super" {
                break;
            }
            start.pop();
            at += 2;
        }
        Some((start, at))
    }

    /// Every path this file names outside its re-exports.
    fn paths(&self, module: &ModulePath) -> Vec<ModulePath> {
        let mut out = Vec::new();
        let in_reexport = |i: usize| {
            self.reexport_ranges
                .iter()
                .any(|(a, b)| (*a..*b).contains(&i))
        };
        for i in 0..self.tokens.len() {
            if in_reexport(i) {
                continue;
            }
            if let Some((start, at)) = self.path_start(module, i) {
                use_tree(&self.tokens, at, start, &mut out);
            }
        }
        out.into_iter().map(|named| named.path).collect()
    }

    /// What this file re-exports: names to the paths they forward to, and
    /// the modules it re-exports whole.
    fn reexports(&self, module: &ModulePath) -> (BTreeMap<String, ModulePath>, Vec<ModulePath>) {
        let mut names = BTreeMap::new();
        let mut globs = Vec::new();
        for &(start, end) in &self.reexport_ranges {
            let mut found = Vec::new();
            if start < end {
                if let Some((base, at)) = self.path_start(module, start) {
                    use_tree(&self.tokens[..end], at, base, &mut found);
                } else if self.tokens.get(start) == Some(&Token::Open) {
                    // `pub use {a::X, crate::b::Y};` is rare; read each branch alone.
                    continue;
                }
            }
            for named in found {
                match (named.glob, named.binds) {
                    (true, _) => globs.push(named.path),
                    (false, Some(name)) => {
                        names.insert(name, named.path);
                    }
                    (false, None) => {}
                }
            }
        }
        (names, globs)
    }
}

/// Reads a path or a use tree starting at `at`, appending every full path.
fn use_tree(
    tokens: &[Token],
    mut at: usize,
    mut prefix: ModulePath,
    out: &mut Vec<Named>,
) -> usize {
    loop {
        match tokens.get(at) {
            Some(Token::Open) => {
                at += 1;
                loop {
                    match tokens.get(at) {
                        Some(Token::Close) => return at + 1,
                        Some(Token::Comma) => at += 1,
                        None => return at,
                        Some(_) => {
                            let before = at;
                            at = use_tree(tokens, at, prefix.clone(), out);
                            if at == before {
                                at += 1;
                            }
                        }
                    }
                }
            }
            Some(Token::Ident(word)) => {
                let mut binds = prefix.last().cloned();
                if word != "self" {
                    prefix.push(word.clone());
                    binds = Some(word.clone());
                }
                at += 1;
                if tokens.get(at) == Some(&Token::PathSep) {
                    at += 1;
                    continue;
                }
                if let (Some(Token::Ident(word)), Some(Token::Ident(alias))) =
                    (tokens.get(at), tokens.get(at + 1))
                    && word == "as"
                {
                    binds = Some(alias.clone());
                    at += 2;
                }
                out.push(Named {
                    path: prefix,
                    binds,
                    glob: false,
                });
                return at;
            }
            Some(Token::Star) => {
                out.push(Named {
                    path: prefix,
                    binds: None,
                    glob: true,
                });
                return at + 1;
            }
            _ => {
                out.push(Named {
                    path: prefix,
                    binds: None,
                    glob: false,
                });
                return at;
            }
        }
    }
}

/// Comments vanish; string and character literals become empty strings, so
/// that neither can be mistaken for a path.
fn strip_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some(after) = raw_string_end(&chars, i) {
            out.push_str("\"\"");
            i = after;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// If a raw string (`r"…"`, `r#"…"#`, `br"…"`) starts at `i`, where it ends.
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    let previous_is_ident = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
    if previous_is_ident {
        return None;
    }
    let mut at = i;
    if chars.get(at) == Some(&'b') {
        at += 1;
    }
    if chars.get(at) != Some(&'r') {
        return None;
    }
    at += 1;
    let mut hashes = 0;
    while chars.get(at) == Some(&'#') {
        hashes += 1;
        at += 1;
    }
    if chars.get(at) != Some(&'"') {
        return None;
    }
    at += 1;
    while at < chars.len() {
        if chars[at] == '"' && (0..hashes).all(|k| chars.get(at + 1 + k) == Some(&'#')) {
            return Some(at + 1 + hashes);
        }
        at += 1;
    }
    Some(at)
}

fn tokenize(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(Token::Ident(chars[start..i].iter().collect()));
            continue;
        }
        i += 1;
        match c {
            ':' if chars.get(i) == Some(&':') => {
                i += 1;
                tokens.push(Token::PathSep);
            }
            '{' => tokens.push(Token::Open),
            '}' => tokens.push(Token::Close),
            ',' => tokens.push(Token::Comma),
            '*' => tokens.push(Token::Star),
            c if c.is_whitespace() => {}
            c => tokens.push(Token::Other(c)),
        }
    }
    tokens
}

/// Removes every item under `#[cfg(test)]`, returning the names of test-only
/// child modules declared as files (`#[cfg(test)] mod tests;`).
fn drop_test_items(tokens: Vec<Token>) -> (Vec<Token>, BTreeSet<String>) {
    let attribute = [
        Token::Other('#'),
        Token::Other('['),
        Token::Ident("cfg".into()),
        Token::Other('('),
        Token::Ident("test".into()),
        Token::Other(')'),
        Token::Other(']'),
    ];
    let mut kept = Vec::with_capacity(tokens.len());
    let mut test_children = BTreeSet::new();
    let mut i = 0;
    while i < tokens.len() {
        if !tokens[i..].starts_with(&attribute) {
            kept.push(tokens[i].clone());
            i += 1;
            continue;
        }
        i += attribute.len();
        // The item runs to its first `;` at depth zero, or through its braces.
        let item_start = i;
        let mut depth = 0usize;
        while i < tokens.len() {
            match &tokens[i] {
                Token::Other(';') if depth == 0 => {
                    if let [Token::Ident(kw), Token::Ident(name)] = &tokens[i.saturating_sub(2)..i]
                        && kw == "mod"
                        && i - 2 >= item_start
                    {
                        test_children.insert(name.clone());
                    }
                    i += 1;
                    break;
                }
                Token::Open => depth += 1,
                Token::Close => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    (kept, test_children)
}
