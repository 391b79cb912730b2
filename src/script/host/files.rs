//! Reading rule files safely: every path a variant names (`extends:`, `script:`, `modules:`,
//! bots' `modules:`, Rhai `import`) resolves inside the rules folder, names a regular file, and
//! is read up to a size cap. A refused path is reported by name; its content is never shown.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The largest rule file (YAML or script) that is read.
pub const MAX_RULE_FILE_BYTES: u64 = 1024 * 1024;

/// Why a path was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PathProblem {
    /// An absolute path, where rule files name files relative to themselves.
    #[error("`{written}` is an absolute path: rule files name other files relative to themselves")]
    Absolute {
        /// The path as written.
        written: String,
    },
    /// A path that resolves outside the rules folder.
    #[error("`{written}` leaves the rules folder {root}")]
    OutsideRoot {
        /// The path as written.
        written: String,
        /// The rules folder, as the user gave it.
        root: String,
    },
    /// Nothing is there.
    #[error("`{written}` does not exist ({path})")]
    Missing {
        /// The path as written.
        written: String,
        /// The path it resolves to.
        path: String,
    },
    /// A folder or a special file, not a regular file.
    #[error("`{written}` is not a regular file ({path})")]
    NotAFile {
        /// The path as written.
        written: String,
        /// The path it resolves to.
        path: String,
    },
    /// Bigger than `MAX_RULE_FILE_BYTES`.
    #[error("`{written}` is {size} bytes; rule files are at most {MAX_RULE_FILE_BYTES} bytes")]
    TooLarge {
        /// The path as written.
        written: String,
        /// Its size in bytes; for a file that grew while it was read, one more than the limit.
        size: u64,
    },
    /// Not UTF-8 text.
    #[error("`{written}` is not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 {
        /// The path as written.
        written: String,
        /// The byte offset of the first invalid byte.
        offset: usize,
    },
    /// Reading failed.
    #[error("cannot read `{written}`: {message}")]
    Unreadable {
        /// The path as written.
        written: String,
        /// The I/O error.
        message: String,
    },
}

/// The folder every rule file must be inside (`--rules`, or a variant folder's parent).
#[derive(Clone, Debug)]
pub(crate) struct RulesRoot {
    /// As the user gave it, for messages.
    shown: PathBuf,
    /// Resolved (symlinks followed), for containment checks.
    canonical: PathBuf,
    /// Texts read instead of files' contents, by canonical path (a mutant of a script): the file
    /// must still exist and pass every check.
    overlay: std::sync::Arc<std::collections::HashMap<PathBuf, String>>,
}

impl RulesRoot {
    /// `None` when the folder does not exist or is not a folder.
    pub fn new(dir: &Path) -> Option<RulesRoot> {
        let canonical = dir.canonicalize().ok()?;
        canonical.is_dir().then(|| RulesRoot {
            shown: dir.to_path_buf(),
            canonical,
            overlay: Default::default(),
        })
    }

    /// The same root, reading these texts instead of the files at those paths (each an existing
    /// file inside the root; others are ignored).
    pub fn with_overlay(mut self, texts: &[(PathBuf, String)]) -> RulesRoot {
        let overlay = texts
            .iter()
            .filter_map(|(path, text)| Some((path.canonicalize().ok()?, text.clone())))
            .filter(|(path, _)| path.starts_with(&self.canonical))
            .collect();
        self.overlay = std::sync::Arc::new(overlay);
        self
    }

    /// The folder as the user gave it, for messages.
    pub fn shown(&self) -> &Path {
        &self.shown
    }

    /// The file a rule file at `from` names as `written` (relative to `from`'s folder), as a path
    /// to show the user, after checking that it stays inside the root and is a regular file.
    pub fn resolve(&self, from: &Path, written: &str) -> Result<PathBuf, PathProblem> {
        let relative = Path::new(written);
        if relative.is_absolute()
            || relative
                .components()
                .any(|c| matches!(c, Component::Prefix(_)))
        {
            return Err(PathProblem::Absolute {
                written: written.to_string(),
            });
        }
        let base = from.parent().unwrap_or(Path::new(""));
        let path = super::normalize(&base.join(relative));
        self.check(&path, written)?;
        Ok(path)
    }

    /// Check that an existing path is a regular file inside the root.
    pub fn check(&self, path: &Path, written: &str) -> Result<(), PathProblem> {
        let canonical = path.canonicalize().map_err(|_| PathProblem::Missing {
            written: written.to_string(),
            path: path.display().to_string(),
        })?;
        if !canonical.starts_with(&self.canonical) {
            return Err(PathProblem::OutsideRoot {
                written: written.to_string(),
                root: self.shown.display().to_string(),
            });
        }
        let meta = std::fs::metadata(&canonical).map_err(|e| PathProblem::Unreadable {
            written: written.to_string(),
            message: e.to_string(),
        })?;
        if !meta.is_file() {
            return Err(PathProblem::NotAFile {
                written: written.to_string(),
                path: path.display().to_string(),
            });
        }
        if meta.len() > MAX_RULE_FILE_BYTES {
            return Err(PathProblem::TooLarge {
                written: written.to_string(),
                size: meta.len(),
            });
        }
        Ok(())
    }

    /// Read a checked file as text, never more than the cap (a file growing after the check is
    /// still cut off).
    pub fn read(&self, path: &Path, written: &str) -> Result<String, PathProblem> {
        self.check(path, written)?;
        if !self.overlay.is_empty()
            && let Some(text) = path.canonicalize().ok().and_then(|c| self.overlay.get(&c))
        {
            return Ok(text.clone());
        }
        let unreadable = |e: std::io::Error| PathProblem::Unreadable {
            written: written.to_string(),
            message: e.to_string(),
        };
        let file = std::fs::File::open(path).map_err(unreadable)?;
        let mut bytes = Vec::new();
        file.take(MAX_RULE_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        if bytes.len() as u64 > MAX_RULE_FILE_BYTES {
            return Err(PathProblem::TooLarge {
                written: written.to_string(),
                size: bytes.len() as u64,
            });
        }
        String::from_utf8(bytes).map_err(|e| PathProblem::NotUtf8 {
            written: written.to_string(),
            offset: e.utf8_error().valid_up_to(),
        })
    }
}

/// The deepest nesting of YAML flow collections (`[`, `{`) or block indentation levels accepted
/// before parsing: deeper input is refused at once instead of costing the parser seconds.
pub const MAX_YAML_DEPTH: usize = 64;

/// Refuse YAML text nested deeper than `MAX_YAML_DEPTH`, with the byte offset where it gets too
/// deep. A linear scan that ignores brackets inside quotes and comments.
pub fn check_yaml_depth(src: &str) -> Result<(), usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut comment = false;
    let mut indents: Vec<usize> = Vec::new();
    let mut line_start = true;
    let mut column = 0usize;
    // A quote opens a quoted scalar only where a value can start (not in `don't`).
    let mut value_can_start = true;
    for (i, c) in src.char_indices() {
        if c == '\n' || c == '\r' {
            comment = false;
            line_start = true;
            column = 0;
            value_can_start = true;
            continue;
        }
        if line_start {
            if c == ' ' {
                column += 1;
                continue;
            }
            line_start = false;
            if c != '#' && depth == 0 && quote.is_none() {
                while indents.last().is_some_and(|&l| l >= column) {
                    indents.pop();
                }
                indents.push(column);
                if indents.len() > MAX_YAML_DEPTH {
                    return Err(i);
                }
            }
        }
        if comment {
            continue;
        }
        let could_start = value_can_start;
        value_can_start = c.is_whitespace() && value_can_start
            || matches!(c, ':' | '-' | '[' | '{' | ',' | '?')
            || (c.is_whitespace() && quote.is_none());
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if could_start => quote = Some(c),
            (None, '#') => comment = true,
            (None, '[' | '{') => {
                depth += 1;
                if depth > MAX_YAML_DEPTH {
                    return Err(i);
                }
            }
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_depth_counts_flow_and_block_nesting() {
        assert_eq!(check_yaml_depth("a: [1, {b: [2]}]\n"), Ok(()));
        let deep = format!("a: {}{}", "[".repeat(65), "]".repeat(65));
        assert_eq!(check_yaml_depth(&deep), Err(3 + 64));
        assert_eq!(
            check_yaml_depth(
                "a: \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"\n"
            ),
            Ok(())
        );
        let block: String = (0..70)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        assert!(check_yaml_depth(&block).is_err());
    }
}
