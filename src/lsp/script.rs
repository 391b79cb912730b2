//! What the server knows of a `.rhai` buffer: the game API after a `.` (with how each function
//! is called and what it does), the names a string argument must be (a pile, phase, variable,
//! event, timer or house rule the variant declares), the scripts' own functions; hover over
//! either; and where a function is defined (across `extends:` and `modules:`) or a name declared
//! (`variant.yaml`, or the base it extends).

use super::position::{Target, floor_char_boundary, line_at, range, word_around};
use crate::scenarios::ScriptProvider;
use crate::script::Variant;
use crate::script::host::reference::{API, NameKind, api_fn, name_argument};
use lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind, Range,
};
use std::path::{Path, PathBuf};

/// A string literal the cursor is in, and the call it is an argument of.
#[derive(Debug, PartialEq)]
struct InString<'s> {
    /// The text of the literal before the cursor.
    typed: &'s str,
    /// The function called.
    function: &'s str,
    /// Which argument (0 is the first after the receiver).
    position: usize,
}

/// The string literal the cursor at byte `at` is in, on its line, with the call it is an
/// argument of (`game.to_pile(card, "disc|` → `to_pile`, 1).
fn in_string(src: &str, at: usize) -> Option<InString<'_>> {
    let (line_start, line) = line_at(src, at);
    let upto = &line[..at - line_start];
    // An odd number of unescaped quotes before the cursor: inside a literal.
    let mut open = None;
    let mut escaped = false;
    for (i, c) in upto.char_indices() {
        match c {
            '\\' if !escaped => {
                escaped = true;
                continue;
            }
            '"' if !escaped => open = if open.is_some() { None } else { Some(i) },
            _ => {}
        }
        escaped = false;
    }
    let quote = open?;
    let typed = &upto[quote + 1..];
    // Back from the quote to the unclosed `(`, counting the commas between.
    let mut depth = 0usize;
    let mut position = 0;
    let mut paren = None;
    for (i, c) in upto[..quote].char_indices().rev() {
        match c {
            ')' | ']' | '}' => depth += 1,
            '(' | '[' | '{' if depth > 0 => depth -= 1,
            '(' => {
                paren = Some(i);
                break;
            }
            ',' if depth == 0 => position += 1,
            _ => {}
        }
    }
    let before = &upto[..paren?];
    let name_start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_')
        .last()
        .map(|(i, _)| i)?;
    Some(InString {
        typed,
        function: &before[name_start..],
        position,
    })
}

/// The functions the variant's scripts (and `extra`, the buffer itself) define: name, parameter
/// list, file and byte of `fn`.
fn defined_functions(variant: &Variant, extra: Option<(&Path, &str)>) -> Vec<Defined> {
    let mut out = Vec::new();
    let scripts = variant.rule_scripts();
    let files = extra
        .map(|(p, t)| (p.to_path_buf(), t.to_string()))
        .into_iter()
        .chain(
            scripts
                .into_iter()
                .filter(|(p, _)| extra.is_none_or(|(e, _)| super::position::absolute(p) != e)),
        );
    for (path, text) in files {
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            let rest = trimmed.strip_prefix("private ").unwrap_or(trimmed);
            if let Some(sig) = rest.strip_prefix("fn ")
                && let Some(open) = sig.find('(')
            {
                let name = sig[..open].trim();
                let close = sig.find(')').unwrap_or(sig.len());
                if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    let start = offset + indent + (trimmed.len() - rest.len());
                    out.push(Defined {
                        name: name.to_string(),
                        params: sig[open..close.max(open)]
                            .trim_start_matches('(')
                            .to_string(),
                        path: path.clone(),
                        text: text.clone(),
                        start,
                        end: start + 3 + open,
                    });
                }
            }
            offset += line.len();
        }
    }
    out
}

/// A function a script defines.
struct Defined {
    name: String,
    params: String,
    path: PathBuf,
    text: String,
    start: usize,
    end: usize,
}

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

/// What may be typed at byte `at` of a script: in a string argument, the names of what it takes;
/// after a `.`, the game API; elsewhere, the scripts' functions.
pub fn completions(src: &str, at: usize, path: &Path, variant: &Variant) -> Vec<CompletionItem> {
    let at = floor_char_boundary(src, at.min(src.len()));
    let mut out = Vec::new();
    if let Some(s) = in_string(src, at) {
        if let Some(sort) = name_argument(s.function, s.position) {
            for name in sort.declared(variant.table()) {
                if name.starts_with(s.typed) {
                    out.push(CompletionItem {
                        label: name.to_string(),
                        kind: Some(CompletionItemKind::ENUM_MEMBER),
                        detail: Some(format!("{} of {}", sort.describe(), variant.name)),
                        ..CompletionItem::default()
                    });
                }
            }
        }
        return out;
    }
    let (line_start, _) = line_at(src, at);
    let typed = &src[line_start..at];
    let partial_len = typed
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .map(char::len_utf8)
        .sum::<usize>();
    let partial = &typed[typed.len() - partial_len..];
    let before = &typed[..typed.len() - partial_len];
    if before.ends_with('.') {
        for f in API.iter().filter(|f| f.name.starts_with(partial)) {
            if !f.usage.starts_with("game.") {
                continue;
            }
            out.push(CompletionItem {
                label: f.name.to_string(),
                kind: Some(if f.usage.contains('(') {
                    CompletionItemKind::METHOD
                } else {
                    CompletionItemKind::PROPERTY
                }),
                detail: Some(f.usage.to_string()),
                documentation: Some(markdown(f.doc.to_string())),
                ..CompletionItem::default()
            });
        }
        return out;
    }
    if partial.is_empty() {
        return out;
    }
    let mut seen = std::collections::BTreeSet::new();
    for f in defined_functions(variant, Some((path, src))) {
        if f.name.starts_with(partial) && seen.insert(f.name.clone()) {
            out.push(CompletionItem {
                label: f.name.clone(),
                kind: Some(CompletionItemKind::FUNCTION),
                detail: Some(format!("fn {}({})", f.name, f.params)),
                ..CompletionItem::default()
            });
        }
    }
    if "refuse".starts_with(partial)
        && let Some(f) = api_fn("refuse")
    {
        out.push(CompletionItem {
            label: f.name.to_string(),
            kind: Some(CompletionItemKind::FUNCTION),
            detail: Some(f.usage.to_string()),
            documentation: Some(markdown(f.doc.to_string())),
            ..CompletionItem::default()
        });
    }
    out
}

/// The name under the cursor of a script: a string argument that names a declaration, or an
/// identifier (a method of the game after `.`, else a function).
enum Under<'s> {
    Name(NameKind, &'s str, usize, usize),
    Method(&'s str, usize, usize),
    Function(&'s str, usize, usize),
}

fn under(src: &str, at: usize) -> Option<Under<'_>> {
    let at = floor_char_boundary(src, at.min(src.len()));
    if let Some(s) = in_string(src, at) {
        let sort = name_argument(s.function, s.position)?;
        let (start, end) = word_around(src, at, &['-'])?;
        return Some(Under::Name(sort, &src[start..end], start, end));
    }
    let (start, end) = word_around(src, at, &[])?;
    let word = &src[start..end];
    if src[..start].ends_with('.') {
        Some(Under::Method(word, start, end))
    } else {
        Some(Under::Function(word, start, end))
    }
}

/// What a hover over byte `at` of a script shows: an API function's usage and doc, a script
/// function's signature and file, a name's declaration.
pub fn hover(src: &str, at: usize, path: &Path, variant: &Variant) -> Option<(String, Range)> {
    match under(src, at)? {
        Under::Method(name, start, end) => {
            let f = api_fn(name)?;
            Some((
                format!("`{}`\n\n{}", f.usage, f.doc),
                range(src, start, end),
            ))
        }
        Under::Function(name, start, end) => {
            let text = match defined_functions(variant, Some((path, src)))
                .into_iter()
                .find(|f| f.name == name)
            {
                Some(f) => format!(
                    "`fn {}({})`\n\nin {}",
                    f.name,
                    f.params,
                    crate::coverage::short_path(&f.path.display().to_string())
                ),
                None => {
                    let f = api_fn(name).filter(|f| !f.usage.starts_with("game."))?;
                    format!("`{}`\n\n{}", f.usage, f.doc)
                }
            };
            Some((text, range(src, start, end)))
        }
        Under::Name(sort, name, start, end) => {
            let declared = sort.declared(variant.table()).contains(&name);
            let text = if declared {
                format!(
                    "`{name}`: {} of {}, declared under `{}:`",
                    sort.describe(),
                    variant.name,
                    sort.section().join(": ")
                )
            } else {
                format!("`{name}` is not {} of {}", sort.describe(), variant.name)
            };
            Some((text, range(src, start, end)))
        }
    }
}

/// Where the name at byte `at` of a script is defined: a function in the scripts (its own file
/// first), a declared name in `variant.yaml`.
pub fn definition(
    src: &str,
    at: usize,
    path: &Path,
    variant: &Variant,
    provider: &ScriptProvider,
) -> Option<Target> {
    match under(src, at)? {
        Under::Name(sort, name, ..) => declaration(provider, variant, sort, name),
        Under::Function(name, ..) | Under::Method(name, ..) => {
            let f = defined_functions(variant, Some((path, src)))
                .into_iter()
                .find(|f| f.name == name)?;
            Some(Target {
                path: f.path,
                text: f.text,
                start: f.start,
                end: f.end,
            })
        }
    }
}

/// Where `name` of `sort` is declared: in the variant's `variant.yaml`, else in the variants it
/// extends, nearest first.
pub fn declaration(
    provider: &ScriptProvider,
    variant: &Variant,
    sort: NameKind,
    name: &str,
) -> Option<Target> {
    let mut current = Some(variant.dir.clone());
    let mut base = variant.extends.clone();
    for _ in 0..=crate::script::MAX_EXTENDS_DEPTH {
        let dir = current.take()?;
        let path = dir.join("variant.yaml");
        if let Ok(text) = std::fs::read_to_string(&path)
            && let Some((start, end)) = find_declaration(&text, sort.section(), name)
        {
            return Some(Target {
                path,
                text,
                start,
                end,
            });
        }
        let next = provider.load(base.as_deref()?).ok()?;
        current = Some(next.dir.clone());
        base = next.extends.clone();
    }
    None
}

/// The bytes of `name` where the YAML `text` declares it under the keys `section` (`phases:`, a
/// list; `piles:`, a mapping; `vars:` then `game:`): the first whole-word `name` in the last
/// key's block (the rest of its line, as a flow list, and the lines indented under it).
pub fn find_declaration(text: &str, section: &[&str], name: &str) -> Option<(usize, usize)> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        lines.push((offset, line));
        offset += line.len();
    }
    let blank = |line: &str| {
        let t = line.trim();
        t.is_empty() || t.starts_with('#')
    };
    let indent = |line: &str| line.len() - line.trim_start().len();
    let (mut lo, mut hi) = (0, lines.len());
    let mut key_at = None;
    for (level, key) in section.iter().enumerate() {
        let (i, depth) = (lo..hi).find_map(|i| {
            let line = lines[i].1;
            let t = line.trim_start();
            let fits = level > 0 || indent(line) == 0;
            (!blank(line) && fits && t.strip_prefix(key)?.starts_with(':'))
                .then_some((i, indent(line)))
        })?;
        let end = (i + 1..hi)
            .find(|&j| !blank(lines[j].1) && indent(lines[j].1) <= depth)
            .unwrap_or(hi);
        key_at = Some((i, depth));
        (lo, hi) = (i + 1, end);
    }
    let (key_line, depth) = key_at?;
    // From after the key's colon to the end of its block.
    let (line_start, _) = lines[key_line];
    let from = line_start + depth + section.last()?.len() + 1;
    let to = lines.get(hi).map_or(text.len(), |(o, _)| *o);
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text[from..to]
        .match_indices(name)
        .map(|(i, _)| from + i)
        .find(|&i| {
            text[..i].chars().next_back().is_none_or(|c| !is_word(c))
                && text[i + name.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !is_word(c))
        })
        .map(|i| (i, i + name.len()))
}

#[cfg(test)]
mod tests {
    use super::{InString, find_declaration, in_string};

    #[test]
    fn a_string_argument_is_found_with_its_call_and_position() {
        let src = "  game.to_pile(card, \"disc";
        assert_eq!(
            in_string(src, src.len()),
            Some(InString {
                typed: "disc",
                function: "to_pile",
                position: 1
            })
        );
        let src = "  game.pset(p, \"lo\", f(a, b), \"x";
        assert_eq!(
            in_string(src, src.find("lo").unwrap() + 2)
                .unwrap()
                .position,
            1
        );
        let src = "  let s = \"done\"; game.top(";
        assert_eq!(in_string(src, src.len()), None);
        let src = "  game.set_phase(\"a\\\"b";
        assert_eq!(in_string(src, src.len()).unwrap().typed, "a\\\"b");
    }

    #[test]
    fn a_declaration_is_the_name_inside_its_section() {
        let yaml = "name: x\nphases:\n  - awaiting_draw\n  - { name: peek, setup: true }\nvars:\n  game:\n    peek: 1\n  player:\n    locked: false\nevents: [peek, game_end]\n";
        let at = |s: &[&str], n: &str| find_declaration(yaml, s, n).map(|(a, _)| a);
        assert_eq!(at(&["phases"], "peek"), yaml.find("peek,"));
        assert_eq!(at(&["vars", "game"], "peek"), yaml.find("peek: 1"));
        assert_eq!(at(&["vars", "player"], "locked"), yaml.find("locked"));
        assert_eq!(at(&["events"], "peek"), yaml.find("[peek").map(|i| i + 1));
        assert_eq!(at(&["vars", "player"], "peek"), None);
        assert_eq!(at(&["piles"], "peek"), None);
    }
}
