//! Errors from loading a variant (bad YAML, script compile errors, missing hooks) and from running
//! its scripts, as miette diagnostics that point at the line in the file at fault.

use miette::{Diagnostic, NamedSource, SourceSpan};
use std::path::Path;

/// A problem in `variant.yaml` or `rulebook.yaml`, with the byte span it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigProblem {
    /// What is wrong.
    pub message: String,
    /// The byte range it concerns, `(start, end)`.
    pub span: (usize, usize),
}

impl ConfigProblem {
    /// A YAML error of `src`, on the rest of the line where serde_yaml found it.
    pub(crate) fn from_yaml(src: &str, e: &serde_yaml::Error) -> ConfigProblem {
        let start = e.location().map_or(0, |l| l.index().min(src.len()));
        let end = src[start..]
            .find('\n')
            .map_or(src.len(), |n| start + n)
            .max(start);
        // serde_yaml appends " at line N column M"; the diagnostic shows that itself.
        let text = e.to_string();
        let message = match text.find(" at line ") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        let message = unknown_field_hint(&message).unwrap_or(message);
        ConfigProblem {
            message,
            span: (start, end),
        }
    }
}

/// serde's `unknown field `descripton`, expected one of `name`, `description`, …` as
/// `unknown field `descripton`: did you mean `description`?` when one field is that close; the
/// whole list is noise next to the one the author meant.
fn unknown_field_hint(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (field, rest) = rest.split_once('`')?;
    let expected = rest.strip_prefix(", expected one of ")?;
    let fields = expected
        .split(", ")
        .filter_map(|f| f.strip_prefix('`')?.strip_suffix('`'));
    let hint = crate::suggest::suggestion(field, fields)?;
    Some(format!("unknown field `{field}`: {hint}"))
}

/// One problem in one file of a variant, ready to render.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
pub struct SourceDiagnostic {
    /// What is wrong.
    pub message: String,
    /// The file's name and whole text.
    #[source_code]
    pub src: NamedSource<String>,
    /// Where in the file.
    #[label("{label}")]
    pub span: SourceSpan,
    /// The text under the underline.
    pub label: String,
    /// What to do about it, if there is a hint.
    #[help]
    pub help: Option<String>,
    /// 1-based line of the span, for plain-text reports.
    pub line: usize,
    /// 1-based column (in characters) of the span.
    pub column: usize,
    /// The file, as messages name it.
    pub path: String,
}

impl SourceDiagnostic {
    /// A diagnostic on the bytes `span` of `src` (clamped to the text), without a hint.
    pub(crate) fn new(
        path: &Path,
        src: &str,
        span: (usize, usize),
        message: String,
        label: &str,
    ) -> SourceDiagnostic {
        let start = span.0.min(src.len());
        let end = span.1.clamp(start, src.len());
        let (line, column) = line_col(src, start);
        SourceDiagnostic {
            message,
            src: NamedSource::new(path.display().to_string(), src.to_string()),
            span: (start, end - start).into(),
            label: label.to_string(),
            help: None,
            line,
            column,
            path: path.display().to_string(),
        }
    }

    /// A diagnostic from a 1-based line and column of `src` to the end of that line.
    pub(crate) fn at_line(
        path: &Path,
        src: &str,
        line: usize,
        column: usize,
        message: String,
        label: &str,
    ) -> SourceDiagnostic {
        let start = offset_of(src, line, column);
        let line_end = src[start..].find('\n').map_or(src.len(), |n| start + n);
        let end = extent(&src[start..line_end]).map_or(line_end, |n| start + n);
        let end = if end == start {
            (start + 1).min(src.len())
        } else {
            end
        };
        SourceDiagnostic::new(path, src, (start, end), message, label)
    }

    /// `PATH:LINE:COL: MESSAGE`, for logs and `.expected` files.
    pub fn short(&self) -> String {
        format!(
            "{}:{}:{}: {}",
            self.path, self.line, self.column, self.message
        )
    }
}

/// How far the expression starting `text` (the rest of its line) reaches, so that an underline
/// covers the call, literal or operator at fault rather than the rest of the line: a string
/// literal to its closing quote; a name or `.method` with its `(…)` arguments; a run of
/// operator characters. `None` when nothing of the kind starts there, or a bracket is not closed
/// on the line.
fn extent(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let string_end = |from: usize| -> Option<usize> {
        let mut i = from + 1;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'"' => return Some(i + 1),
                _ => i += 1,
            }
        }
        None
    };
    let is_name = |b: u8| b.is_ascii_alphanumeric() || b"_:.".contains(&b);
    match *bytes.first()? {
        b'"' => string_end(0),
        b'.' | b'_' | b'a'..=b'z' | b'A'..=b'Z' => {
            let mut i = usize::from(bytes[0] == b'.');
            while i < bytes.len() && is_name(bytes[i]) {
                i += 1;
            }
            if bytes.get(i) != Some(&b'(') {
                return Some(i);
            }
            let mut depth = 0usize;
            while i < bytes.len() {
                match bytes[i] {
                    b'"' => {
                        i = string_end(i)?;
                        continue;
                    }
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        b if b"=!<>&|+-*/%^".contains(&b) => Some(
            bytes
                .iter()
                .position(|b| !b"=!<>&|+-*/%^".contains(b))
                .unwrap_or(bytes.len()),
        ),
        _ => None,
    }
}

/// Everything that can go wrong loading a variant.
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum VariantError {
    /// A file could not be read.
    #[error("cannot read {path}: {message}")]
    #[diagnostic(code(deckspec::io))]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        message: String,
    },
    /// The rules folder holds no variant of that name.
    #[error("no variant `{name}` in {dir}")]
    #[diagnostic(code(deckspec::unknown_variant), help("{help}"))]
    Unknown {
        /// The name asked for.
        name: String,
        /// The rules folder.
        dir: String,
        /// What to do: the closest name, the variants there are, or that the folder holds none.
        help: String,
    },
    /// The rules folder does not exist or is not a folder.
    #[error("there is no rules folder `{dir}` here")]
    #[diagnostic(
        code(deckspec::no_rules_folder),
        help(
            "run deckspec in the folder that holds `rules/` (the repository's root), or point at the variants with `--rules DIR`"
        )
    )]
    NoRulesFolder {
        /// The folder as given.
        dir: String,
    },
    /// The name asked for is not a variant name (letters, digits, `_` and `-`).
    #[error("`{name}` is not a variant name: variant names are letters, digits, `_` and `-`")]
    #[diagnostic(code(deckspec::bad_variant_name))]
    BadName {
        /// The name as given.
        name: String,
    },
    /// A path a rule file names was refused (outside the rules folder, missing, too big, …).
    #[error("{path}: {problem}")]
    #[diagnostic(code(deckspec::rule_file))]
    File {
        /// The rule file that names it.
        path: String,
        /// Why it was refused.
        problem: super::files::PathProblem,
    },
    /// A problem in a YAML file (`variant.yaml`, `rulebook.yaml`, `bots.yaml`).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Config(Box<SourceDiagnostic>),
    /// A script that does not compile, or lacks a hook or function it needs.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Script(Box<SourceDiagnostic>),
}

impl VariantError {
    /// The error in one line: `PATH:LINE:COL: MESSAGE` when it points into a file, else its
    /// message.
    pub fn short(&self) -> String {
        match self {
            VariantError::Config(d) | VariantError::Script(d) => d.short(),
            other => other.to_string(),
        }
    }
}

/// 1-based line and column of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let before = &src[..offset.min(src.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Byte offset of a 1-based line and column.
pub fn offset_of(src: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in src.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let col: usize = l
                .chars()
                .take(column.saturating_sub(1))
                .map(char::len_utf8)
                .sum();
            return (offset + col).min(src.len());
        }
        offset += l.len();
    }
    src.len()
}

/// Find where a YAML key path (and optionally a value token under it) is written, as a byte span.
/// A plain text search guided by indentation: serde_yaml keeps no positions for values.
pub fn locate(src: &str, path: &[&str], needle: Option<&str>) -> (usize, usize) {
    let lines: Vec<(usize, &str)> = src
        .split_inclusive('\n')
        .scan(0, |off, l| {
            let start = *off;
            *off += l.len();
            Some((start, l))
        })
        .collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut from = 0;
    let mut min_indent = 0;
    let mut found: Option<(usize, usize)> = None;
    for key in path {
        let hit = lines[from..].iter().enumerate().find(|(_, (_, l))| {
            let t = l.trim_start().trim_start_matches("- ");
            indent(l) >= min_indent
                && (t.starts_with(&format!("{key}:"))
                    || t.starts_with(&format!("\"{key}\":"))
                    || t.starts_with(&format!("'{key}':")))
        });
        match hit {
            Some((i, (start, l))) => {
                from += i + 1;
                min_indent = indent(l) + 1;
                let key_start = start + indent(l);
                found = Some((key_start, start + l.trim_end().len()));
            }
            None => break,
        }
    }
    // An empty needle (a YAML key written `""`) would match everywhere without advancing.
    if let Some(needle) = needle.filter(|n| !n.is_empty()) {
        let search_from = found.map_or(0, |f| f.0);
        let mut pos = search_from;
        while let Some(i) = src[pos..].find(needle) {
            let s = pos + i;
            let e = s + needle.len();
            let before_ok = s == 0 || !is_word(src[..s].chars().last().unwrap_or(' '));
            let after_ok = e >= src.len() || !is_word(src[e..].chars().next().unwrap_or(' '));
            if before_ok && after_ok {
                return (s, e);
            }
            pos = e.max(s + 1);
            while !src.is_char_boundary(pos) {
                pos += 1;
            }
        }
    }
    found.unwrap_or((0, src.find('\n').unwrap_or(src.len())))
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `", did you mean `x`?"` or nothing.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    crate::suggest::did_you_mean(word, candidates)
        .map(|c| format!(": did you mean `{c}`?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::extent;

    #[test]
    fn an_underline_covers_the_call_literal_or_operator_at_fault() {
        let cases = [
            (".top(\"dekc\");", Some(".top(\"dekc\")")),
            ("game.get(\"a)\") && x == 1 {", Some("game.get(\"a)\")")),
            ("f(g(1), [2, 3]) + 1", Some("f(g(1), [2, 3])")),
            ("\"nots\", game.get(\"note\") + 1);", Some("\"nots\"")),
            ("== c {", Some("==")),
            ("x.y && z", Some("x.y")),
            ("recall::win(game, p);", Some("recall::win(game, p)")),
            ("f(1,", None),
            ("\"open", None),
            ("(a)", None),
        ];
        for (text, want) in cases {
            assert_eq!(extent(text).map(|n| &text[..n]), want, "{text}");
        }
    }
}
