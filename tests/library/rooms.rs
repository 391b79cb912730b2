//! The rooms of `src/` point one way: each imports only what its row of ARCHITECTURE.md's
//! "Rooms and their directions" table allows, none is imported by a room its row forbids, and no
//! two rooms import each other, however indirectly. The check reads `use` lines and paths
//! (`crate::…`, `super::…`, `self::…`), as a reader would; fixtures under `tests/rooms/` hold a
//! small tree with an upward import and one with a circle, beside the problems expected.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One row of the table: a room (a module path such as `kernel` or `script/host`), what it may
/// import (`script/*` is the room and every room under it) and what must never import it.
#[derive(Debug)]
struct Row {
    room: String,
    may_import: Vec<String>,
    never_imported_by: Vec<String>,
}

/// The rows of the markdown table under the heading `## Rooms and their directions`.
fn rows(markdown: &str) -> Vec<Row> {
    let section = markdown
        .split("\n## ")
        .find(|s| s.starts_with("Rooms and their directions"))
        .expect("a section `## Rooms and their directions`");
    let names = |cell: &str| -> Vec<String> {
        cell.split(',')
            .map(|n| n.trim().trim_matches('`').to_string())
            .filter(|n| !n.is_empty() && n != "nothing" && n != "—")
            .collect()
    };
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').collect();
            assert!(
                cells.len() >= 3,
                "a row of room, may import, never imported by: {l}"
            );
            Row {
                room: cells[0].trim().trim_matches('`').to_string(),
                may_import: names(cells[1]),
                never_imported_by: names(cells[2]),
            }
        })
        .collect()
}

/// Every `.rs` file under `src`, by its module path (`src/script/host/api.rs` → `script/host/api`,
/// a `mod.rs` by its folder, `lib.rs` and `main.rs` as the root, `[]`).
fn files(src: &Path) -> Vec<(Vec<String>, PathBuf)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("a readable folder")
            .map(|e| e.expect("an entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(src, &mut paths);
    paths
        .into_iter()
        .map(|path| {
            let rel = path
                .strip_prefix(src)
                .expect("under src")
                .with_extension("");
            let mut module: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                module.pop();
            }
            (module, path)
        })
        .collect()
}

/// The paths a file names: `use` items (braces expanded; `pub use` included) and `crate::`/`super::` paths in code,
/// each with its line and the inline modules around it (`mod tests { … }`), whose `super` is
/// the file's own module. Comments are left out.
fn named_paths(text: &str) -> Vec<(usize, Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    let code: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let inline = inline_modules(&code);
    let around = |at: usize| -> Vec<String> {
        inline
            .iter()
            .filter(|(_, range)| range.contains(&at))
            .map(|(name, _)| name.clone())
            .collect()
    };
    // `use a::b::{c, d::{e}};`, possibly over several lines.
    let mut from = 0;
    while let Some(i) = code[from..].find("use ") {
        let at = from + i;
        from = at + 4;
        let word_start =
            at == 0 || !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let Some(end) = code[at..].find(';') else {
            break;
        };
        let item = code[at + 4..at + end].trim();
        // A path that is not rooted starts at the file's module (`pub use host::error;` in
        // a `mod.rs`) or in another crate, which names no module of ours.
        let item = item.strip_prefix("::").unwrap_or(item);
        // Only a path looks like one: `use` in a string or a word is something else.
        let path_like = item.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && item
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_:{}, *\n\t".contains(c))
            && item.matches('{').count() == item.matches('}').count();
        if word_start && path_like {
            for path in expand(item) {
                out.push((line_of(at), path, around(at)));
            }
        }
    }
    // `crate::x::y` and `super::x` anywhere else.
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            let before = at.checked_sub(1).map(|b| bytes[b] as char);
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '$') {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            let path: Vec<String> = code[at..end]
                .split("::")
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect();
            out.push((line_of(at), path, around(at)));
        }
    }
    out
}

/// Each inline module of a file (`mod name {`) with the byte range of its body, outermost
/// first, found by matching braces.
fn inline_modules(code: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find("mod ") {
        let at = from + i;
        from = at + 4;
        if at > 0 && code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + 4..];
        let name_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        if name.is_empty() || !rest[name_end..].trim_start().starts_with('{') {
            continue;
        }
        let open = at + 4 + name_end + rest[name_end..].find('{').unwrap_or(0);
        let mut depth = 0usize;
        let mut end = code.len();
        for (j, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + j;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((name.to_string(), open..end));
    }
    out
}

/// `a::{b, c::{d, e as f}}` as the paths it names.
fn expand(item: &str) -> Vec<Vec<String>> {
    let split = |p: &str| -> Vec<String> {
        p.split(" as ")
            .next()
            .unwrap_or(p)
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let Some(open) = item.find('{') else {
        return vec![split(item)];
    };
    let prefix = split(item[..open].trim_end_matches("::"));
    let body = &item[open + 1..item.rfind('}').unwrap_or(item.len())];
    let mut parts = Vec::new();
    let (mut depth, mut current) = (0, String::new());
    for c in body.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            expand(p).into_iter().map(|rest| {
                let mut path = prefix.clone();
                if rest != ["self"] {
                    path.extend(rest);
                }
                path
            })
        })
        .collect()
}

/// The room a module is in: its first two levels (`script/host/api` → `script/host`,
/// `kernel/game` → `kernel/game`), the root `lib`.
fn room_of(module: &[String]) -> String {
    if module.is_empty() {
        "lib".into()
    } else {
        module[..module.len().min(2)].join("/")
    }
}

/// The row a room belongs to: the longest row name that is the room or a folder above it.
fn row_of<'a>(rows: &'a [Row], room: &str) -> Option<&'a Row> {
    rows.iter()
        .filter(|r| room == r.room || room.starts_with(&format!("{}/", r.room)))
        .max_by_key(|r| r.room.len())
}

/// Whether a row's list names `room` (`x/*` names `x` and every room under it, `*` every room).
fn names(list: &[String], room: &str) -> bool {
    list.iter().any(|n| match n.strip_suffix("/*") {
        _ if n == "*" => true,
        Some(folder) => room == folder || room.starts_with(&format!("{folder}/")),
        None => n == room,
    })
}

/// Every problem with the rooms of `src` against the table in `architecture`: an import its
/// row does not allow, one its target's row forbids, a room no row covers, a table that
/// contradicts itself, and each circle between rooms.
fn problems(src: &Path, architecture: &str) -> Vec<String> {
    check(src, architecture).0
}

/// The problems (as `problems`) and the arrows between the table's rows, for the picture.
fn check(src: &Path, architecture: &str) -> (Vec<String>, BTreeMap<String, BTreeSet<String>>) {
    let rows = rows(architecture);
    let files = files(src);
    let modules: BTreeSet<&Vec<String>> = files.iter().map(|(m, _)| m).collect();
    let mut problems = Vec::new();
    for row in &rows {
        for other in &row.never_imported_by {
            if let Some(importer) = rows.iter().find(|r| &r.room == other)
                && names(&importer.may_import, &row.room)
            {
                problems.push(format!(
                    "the table says `{other}` may import `{}` and must never import it",
                    row.room
                ));
            }
        }
    }
    let mut arrows: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut between_rows: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, path) in &files {
        let room = room_of(module);
        let Some(row) = row_of(&rows, &room) else {
            problems.push(format!(
                "{}: room `{room}` has no row in the table",
                path.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(path).expect("a readable source file");
        for (line, named, inline) in named_paths(&text) {
            // Inside `mod tests { … }`, `self` and `super` start from the inline module.
            let here: Vec<String> = module.iter().chain(&inline).cloned().collect();
            let (mut base, rest): (Vec<String>, &[String]) = match named.first().map(String::as_str)
            {
                Some("crate") => (Vec::new(), &named[1..]),
                Some("self") => (here, &named[1..]),
                _ => (here, &named[..]),
            };
            let mut rest = rest;
            // `super` from a file module is its folder's parent module's sibling: the file's
            // module path minus one level per `super` (a folder's `mod.rs` is the folder).
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
            let mut full = base;
            full.extend(rest.iter().cloned());
            let target = (1..=full.len())
                .rev()
                .map(|n| &full[..n])
                .find(|prefix| modules.contains(&prefix.to_vec()));
            let Some(target) = target else {
                continue;
            };
            let to = room_of(target);
            // A folder's own module declares the rooms in it and holds what they share: its
            // `mod` and `pub use` of them are not imports (a room's use of it is).
            if to == room || to.starts_with(&format!("{room}/")) {
                continue;
            }
            arrows.entry(room.clone()).or_default().insert(to.clone());
            let Some(to_row) = row_of(&rows, &to) else {
                continue;
            };
            if to_row.room == row.room {
                continue;
            }
            between_rows
                .entry(row.room.clone())
                .or_default()
                .insert(to_row.room.clone());
            let shown = format!("{}:{line}", path.display());
            if !names(&row.may_import, &to) {
                problems.push(format!(
                    "{shown}: `{room}` imports `{to}`, which its row (`{}`) does not allow",
                    row.room
                ));
            } else if names(&to_row.never_imported_by, &row.room) {
                problems.push(format!(
                    "{shown}: `{room}` imports `{to}`, whose row says `{}` must never import it",
                    row.room
                ));
            }
        }
    }
    for circle in circles(&arrows) {
        problems.push(format!(
            "rooms that import each other: {}",
            circle.join(" → ")
        ));
    }
    problems.sort();
    problems.dedup();
    (problems, between_rows)
}

/// The arrows between rows as a Graphviz graph, each row a node, lower rooms drawn lower; `lib`
/// and `cli`, which import everything, left out.
fn dot(arrows: &BTreeMap<String, BTreeSet<String>>) -> String {
    let mut out = String::from(
        "// The rooms of src/ and their imports, one arrow per importing row (tests/library/rooms.rs writes\n\
         // it; `lib` and `cli`, which import everything, left out). Draw: dot -Tsvg docs/rooms.dot\n\
         digraph rooms {\n  rankdir=BT;\n  node [shape=box, fontname=\"sans-serif\"];\n",
    );
    for (from, tos) in arrows {
        if from == "lib" || from == "cli" {
            continue;
        }
        for to in tos {
            out.push_str(&format!("  \"{from}\" -> \"{to}\";\n"));
        }
    }
    out.push_str("}\n");
    out
}

/// The strongly connected sets of more than one room (Tarjan), each sorted, in order.
fn circles(arrows: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        arrows: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.arrows.get(v).into_iter().flatten() {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w.as_str()]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w.as_str()) {
                    let low = self.low[v].min(self.index[w.as_str()]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    set.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort();
                    self.found.push(set);
                }
            }
        }
    }
    let mut walk = Walk {
        arrows,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    let rooms: BTreeSet<&str> = arrows
        .iter()
        .flat_map(|(a, bs)| std::iter::once(a.as_str()).chain(bs.iter().map(String::as_str)))
        .collect();
    for room in rooms {
        if !walk.index.contains_key(room) {
            walk.visit(room);
        }
    }
    walk.found.sort();
    walk.found
}

#[test]
fn the_rooms_of_src_point_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture =
        std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let (found, arrows) = check(&root.join("src"), &architecture);
    assert!(
        found.is_empty(),
        "rooms against ARCHITECTURE.md's \"Rooms and their directions\":\n{}",
        found.join("\n")
    );
    // The picture in docs/ is this graph: written anew with DECKSPEC_BLESS=1.
    let picture = root.join("docs/rooms.dot");
    let drawn = dot(&arrows);
    if std::env::var_os("DECKSPEC_BLESS").is_some() {
        std::fs::write(&picture, &drawn).expect("docs/rooms.dot written");
    }
    let kept = std::fs::read_to_string(&picture).unwrap_or_default();
    assert!(
        kept == drawn,
        "docs/rooms.dot is not the rooms' graph any more: run `DECKSPEC_BLESS=1 cargo test --test library rooms` \
         and `dot -Tsvg docs/rooms.dot -o docs/rooms.svg`"
    );
}

/// Each fixture under `tests/rooms/` (a `src/` tree and its `ROOMS.md`) gives the problems in
/// its `expected` file, paths shown from the fixture's folder.
#[test]
fn a_fixture_tree_gives_the_problems_expected() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rooms");
    let mut checked = 0;
    for entry in std::fs::read_dir(&fixtures).expect("tests/rooms") {
        let dir = entry.expect("an entry").path();
        if !dir.is_dir() {
            continue;
        }
        let table = std::fs::read_to_string(dir.join("ROOMS.md")).expect("ROOMS.md");
        let mut found: Vec<String> = problems(&dir.join("src"), &table)
            .into_iter()
            .map(|p| p.replace(&format!("{}/", dir.display()), ""))
            .collect();
        found.sort();
        let expected = std::fs::read_to_string(dir.join("expected")).expect("expected");
        assert_eq!(
            found.join("\n"),
            expected.trim_end(),
            "fixture {}",
            dir.display()
        );
        checked += 1;
    }
    assert!(checked >= 2, "the fixtures ran: {checked}");
}
