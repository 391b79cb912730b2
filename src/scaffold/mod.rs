//! `deckspec new`: a new variant in the rules folder (`rules/<name>/`) and its scenarios folder
//! (`spec-tests/<name>/`): either the starting game (the files of `template/`, see
//! `template.rs`), or a copy of an existing variant under the new name (`copy.rs`). Sits on top
//! of `script`: the loader checks the result. Everything is checked before anything is written,
//! only the two new folders are written, and a result that does not load is removed again.

mod copy;
mod template;

use crate::script::{Variant, VariantError};
use std::path::{Path, PathBuf};

/// The longest variant name the loader takes.
pub const MAX_NAME_LEN: usize = 64;

/// A name `deckspec new` refuses although it is a plain identifier: `spec-tests/invalid` holds
/// the scenarios that must fail, which `deckspec test` skips.
const RESERVED: [&str; 1] = ["invalid"];

/// Why a variant could not be made. Nothing is left behind by any of them.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ScaffoldError {
    /// The name is not a plain lowercase identifier (or is reserved).
    #[error("`{name}` cannot name a variant: {why}")]
    #[diagnostic(code(deckspec::new::bad_name), help("{help}"))]
    BadName {
        /// The name as given.
        name: String,
        /// What is wrong with it.
        why: String,
        /// What would do.
        help: String,
    },
    /// A file or folder of that name is already there.
    #[error("`{name}` is taken: {path} already exists")]
    #[diagnostic(
        code(deckspec::new::exists),
        help("choose another name, or move {path} away first: deckspec new never overwrites")
    )]
    Exists {
        /// The new variant's name.
        name: String,
        /// What is in the way.
        path: String,
    },
    /// `--from` names no variant of the rules folder.
    #[error("no variant `{from}` to copy in {dir}")]
    #[diagnostic(code(deckspec::new::unknown_source), help("{help}"))]
    UnknownSource {
        /// The name given to `--from`.
        from: String,
        /// The rules folder.
        dir: String,
        /// The closest name, or the variants there are.
        help: String,
    },
    /// The variant to copy does not load as it is.
    #[error("`{from}` does not load, so it is not copied: fix it first (`deckspec check`)")]
    #[diagnostic(code(deckspec::new::source_does_not_load))]
    SourceDoesNotLoad {
        /// The variant to copy.
        from: String,
        /// Its load error.
        #[source]
        #[diagnostic_source]
        error: VariantError,
    },
    /// The new variant did not load (a bug in deckspec new: please report it); its folders were
    /// removed again.
    #[error(
        "the new variant `{name}` does not load, so it was removed again (a bug in deckspec new: please report it)"
    )]
    #[diagnostic(code(deckspec::new::does_not_load))]
    DoesNotLoad {
        /// The new variant's name.
        name: String,
        /// Its load error.
        #[source]
        #[diagnostic_source]
        error: VariantError,
    },
    /// A root given is there but is not a folder.
    #[error("{path} is not a folder")]
    #[diagnostic(code(deckspec::new::not_a_folder))]
    NotAFolder {
        /// The path given.
        path: String,
    },
    /// Reading or writing a file failed.
    #[error("cannot {action} {path}: {message}")]
    #[diagnostic(code(deckspec::new::io))]
    Io {
        /// `read`, `write` or `make`.
        action: &'static str,
        /// The file or folder.
        path: String,
        /// The operating system's error.
        message: String,
    },
}

/// What `deckspec new` made.
#[derive(Debug)]
pub struct Scaffolded {
    /// The variant's folder, `<rules>/<name>`.
    pub variant_dir: PathBuf,
    /// Its files, relative to `variant_dir`, in the order written.
    pub variant_files: Vec<PathBuf>,
    /// The scenarios' folder, `<specs>/<name>`.
    pub spec_dir: PathBuf,
    /// Its files, relative to `spec_dir`.
    pub spec_files: Vec<PathBuf>,
    /// The new variant, loaded.
    pub variant: Variant,
    /// Things the maker should know (a copied variant with no scenarios, a file not copied).
    pub notes: Vec<String>,
}

/// One file to write: where under its folder, and what.
pub(crate) struct Planned {
    pub(crate) path: PathBuf,
    pub(crate) text: Vec<u8>,
}

/// The files of a new variant, before anything is written.
pub(crate) struct Files {
    /// Under `<rules>/<name>`.
    pub(crate) variant: Vec<Planned>,
    /// Under `<specs>/<name>`.
    pub(crate) scenarios: Vec<Planned>,
    /// What the maker should know.
    pub(crate) notes: Vec<String>,
}

/// Make the variant `name` in `rules` and its scenarios folder in `specs`: the starting game, or
/// with `from` a copy of that variant of `rules`, renamed. A root that does not exist yet is
/// made; nothing outside `rules/<name>` and `specs/<name>` is written.
pub fn new_variant(
    rules: &Path,
    specs: &Path,
    name: &str,
    from: Option<&str>,
) -> Result<Scaffolded, ScaffoldError> {
    check_name(name)?;
    for root in [rules, specs] {
        if root.exists() && !root.is_dir() {
            return Err(ScaffoldError::NotAFolder {
                path: root.display().to_string(),
            });
        }
    }
    let variant_dir = rules.join(name);
    let spec_dir = specs.join(name);
    for dir in [&variant_dir, &spec_dir] {
        // A dangling link is in the way too.
        if dir.symlink_metadata().is_ok() {
            return Err(ScaffoldError::Exists {
                name: name.to_string(),
                path: dir.display().to_string(),
            });
        }
    }
    let Files {
        variant: variant_files,
        scenarios: spec_files,
        notes,
    } = match from {
        None => template::files(name),
        Some(from) => {
            check_source(rules, from)?;
            copy::files(rules, specs, from, name)?
        }
    };
    let mut made = Made::default();
    let written = write_all(rules, &variant_dir, &variant_files, &mut made)
        .and_then(|()| write_all(specs, &spec_dir, &spec_files, &mut made));
    if let Err(e) = written {
        made.undo();
        return Err(e);
    }
    let variant = match Variant::load_named(rules, name) {
        Ok(v) => v,
        Err(error) => {
            made.undo();
            return Err(ScaffoldError::DoesNotLoad {
                name: name.to_string(),
                error,
            });
        }
    };
    Ok(Scaffolded {
        variant_dir,
        variant_files: variant_files.into_iter().map(|f| f.path).collect(),
        spec_dir,
        spec_files: spec_files.into_iter().map(|f| f.path).collect(),
        variant,
        notes,
    })
}

/// Whether `name` may name a new variant: a plain lowercase identifier (`a`–`z`, digits and
/// `_`, a letter first, at most 64 characters), as scenarios write it (`Given a <name> game`),
/// and not a folder `spec-tests/` keeps for itself.
pub fn check_name(name: &str) -> Result<(), ScaffoldError> {
    let why = if name.is_empty() {
        Some("it is empty".to_string())
    } else if name.chars().count() > MAX_NAME_LEN {
        Some(format!("it is longer than {MAX_NAME_LEN} characters"))
    } else if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        Some("it does not start with a lowercase letter".to_string())
    } else if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_'))
    {
        Some(format!(
            "`{}` is not a lowercase letter, a digit or `_`",
            c.escape_default()
        ))
    } else if RESERVED.contains(&name) {
        return Err(ScaffoldError::BadName {
            name: name.to_string(),
            why: format!(
                "spec-tests/{name} holds the scenarios that must fail, which `deckspec test` skips"
            ),
            help: format!("choose another name, such as `{name}_game`"),
        });
    } else {
        None
    };
    match why {
        None => Ok(()),
        Some(why) => Err(ScaffoldError::BadName {
            name: name.to_string(),
            why,
            help: match suggest_name(name) {
                Some(s) => format!(
                    "a variant's name is lowercase letters, digits and `_`, starting with a letter (at most {MAX_NAME_LEN}): `{s}`, say"
                ),
                None => format!(
                    "a variant's name is lowercase letters, digits and `_`, starting with a letter (at most {MAX_NAME_LEN}), such as `my_game`"
                ),
            },
        }),
    }
}

/// A plain name close to `name`: lowercase, other characters as `_`, a letter first.
fn suggest_name(name: &str) -> Option<String> {
    let mut s: String = name
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() {
                c
            } else {
                '_'
            }
        })
        .collect();
    s = s.trim_matches('_').to_string();
    while s.contains("__") {
        s = s.replace("__", "_");
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'v');
    }
    s.truncate(MAX_NAME_LEN);
    (!s.is_empty() && check_name(&s).is_ok()).then_some(s)
}

/// The variant to copy is in `rules` and loads.
fn check_source(rules: &Path, from: &str) -> Result<(), ScaffoldError> {
    match Variant::load_named(rules, from) {
        Ok(_) => Ok(()),
        Err(VariantError::Unknown { help, .. }) => Err(ScaffoldError::UnknownSource {
            from: from.to_string(),
            dir: rules.display().to_string(),
            help,
        }),
        Err(VariantError::NoRulesFolder { .. }) => Err(ScaffoldError::UnknownSource {
            from: from.to_string(),
            dir: rules.display().to_string(),
            help: format!(
                "there is no rules folder {}: run deckspec new where `rules/` is, or give it with --rules DIR",
                rules.display()
            ),
        }),
        Err(VariantError::BadName { .. }) => Err(ScaffoldError::UnknownSource {
            from: from.to_string(),
            dir: rules.display().to_string(),
            help: "variant names are letters, digits, `_` and `-`".into(),
        }),
        Err(error) => Err(ScaffoldError::SourceDoesNotLoad {
            from: from.to_string(),
            error,
        }),
    }
}

/// The folders made so far, to remove again when a later step fails.
#[derive(Default)]
struct Made(Vec<PathBuf>);

impl Made {
    fn undo(self) {
        for dir in self.0.iter().rev() {
            std::fs::remove_dir_all(dir).ok();
        }
    }
}

/// Make `root` if it is missing, then `dir` (which must not exist: `create_dir` refuses one
/// made meanwhile) and the files under it.
fn write_all(
    root: &Path,
    dir: &Path,
    files: &[Planned],
    made: &mut Made,
) -> Result<(), ScaffoldError> {
    let io = |action: &'static str, path: &Path, e: std::io::Error| ScaffoldError::Io {
        action,
        path: path.display().to_string(),
        message: e.to_string(),
    };
    if !root.exists() {
        std::fs::create_dir_all(root).map_err(|e| io("make", root, e))?;
        made.0.push(root.to_path_buf());
    }
    std::fs::create_dir(dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => ScaffoldError::Exists {
            name: dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            path: dir.display().to_string(),
        },
        _ => io("make", dir, e),
    })?;
    made.0.push(dir.to_path_buf());
    for file in files {
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent()
            && !parent.exists()
        {
            std::fs::create_dir_all(parent).map_err(|e| io("make", parent, e))?;
        }
        std::fs::write(&path, &file.text).map_err(|e| io("write", &path, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_lowercase_identifiers() {
        for good in ["golf", "my_game", "v2", "a", &"x".repeat(MAX_NAME_LEN)] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for (bad, suggestion) in [
            ("", None),
            ("Golf", Some("golf")),
            ("my-game", Some("my_game")),
            ("2up", Some("v2up")),
            ("_x", Some("x")),
            ("../x", Some("x")),
            ("a/b", Some("a_b")),
            ("ça", Some("a")),
            ("invalid", None),
        ] {
            let Err(ScaffoldError::BadName { help, .. }) = check_name(bad) else {
                panic!("{bad:?} was taken");
            };
            if let Some(s) = suggestion {
                assert!(help.contains(&format!("`{s}`")), "{bad:?}: {help}");
            }
        }
        assert!(check_name(&"x".repeat(MAX_NAME_LEN + 1)).is_err());
    }
}
