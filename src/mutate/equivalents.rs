//! A variant's equivalent mutants (`equivalent-mutants.yaml`): entries keyed by content (the
//! file, the hook, the mutated text and which occurrence of it in that hook), so an edit
//! elsewhere in the script never moves one; entries still keyed by position (`at:`) are
//! matched there, or to the same mutant where it moved, and `--fix-equivalents` rewrites them.

use super::MutateError;
use std::collections::HashMap;
use std::path::Path;

/// The file listing a variant's equivalent mutants.
pub const EQUIVALENTS_FILE: &str = "equivalent-mutants.yaml";

/// The most bytes the file may have.
const MAX_BYTES: usize = 1024 * 1024;

/// An equivalent mutant as the file lists it.
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Entry {
    /// The script, as under the variant's folder (`check.rhai`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The function the mutant is in (`(top level)` outside any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<String>,
    /// `original -> replacement`.
    pub mutant: String,
    /// Which mutant of this text in this hook, from 1 in file order (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occurrence: Option<usize>,
    /// The old key: `file:line:column`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// Why it behaves like the script.
    pub why: String,
}

/// One mutant of a run, as the file can name it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Key {
    /// The script under the variant's folder.
    pub file: String,
    /// Its hook, or `(top level)`.
    pub hook: String,
    /// `original -> replacement`.
    pub text: String,
    /// From 1, among the mutants of this text in this hook of this file.
    pub occurrence: usize,
    /// `file:line:column`.
    pub at: String,
    /// Its line.
    pub line: usize,
}

/// What the file says of a run's mutants.
pub(super) struct Matched {
    /// For each mutant (by index): the entry that lists it as equivalent.
    pub entries: Vec<Option<usize>>,
    /// Entries keyed by a position where their mutant no longer is, matched where it is now:
    /// `old at -> new at`.
    pub moved: Vec<String>,
    /// Entries that match no mutant.
    pub stale: Vec<String>,
}

/// The content keys of mutants given in file order as (file, hook, text, line, column).
pub(super) fn keys<'a>(
    mutants: impl IntoIterator<Item = (String, Option<&'a str>, String, usize, usize)>,
) -> Vec<Key> {
    let mut seen: HashMap<(String, String, String), usize> = HashMap::new();
    mutants
        .into_iter()
        .map(|(file, hook, text, line, column)| {
            let hook = hook.unwrap_or("(top level)").to_string();
            let n = seen
                .entry((file.clone(), hook.clone(), text.clone()))
                .or_insert(0);
            *n += 1;
            Key {
                at: format!("{file}:{line}:{column}"),
                file,
                hook,
                text,
                occurrence: *n,
                line,
            }
        })
        .collect()
}

/// Match the file's entries to a run's mutants: by content; an old entry by its position, or
/// else to the nearest mutant of its text in its file that no entry names (then it moved).
pub(super) fn match_entries(entries: &[Entry], keys: &[Key]) -> Matched {
    let mut by_mutant: Vec<Option<usize>> = vec![None; keys.len()];
    let mut moved = Vec::new();
    let mut stale = Vec::new();
    let mut unmatched_old = Vec::new();
    for (e, entry) in entries.iter().enumerate() {
        let found = match (&entry.hook, &entry.at) {
            (Some(hook), _) => keys.iter().position(|k| {
                entry.file.as_deref().is_none_or(|f| f == k.file)
                    && k.hook == *hook
                    && k.text == entry.mutant
                    && k.occurrence == entry.occurrence.unwrap_or(1)
            }),
            (None, Some(at)) => keys
                .iter()
                .position(|k| k.at == *at && k.text == entry.mutant),
            (None, None) => None,
        };
        match found {
            Some(i) if by_mutant[i].is_none() => by_mutant[i] = Some(e),
            _ if entry.hook.is_none() && entry.at.is_some() => unmatched_old.push(e),
            _ => stale.push(describe(entry)),
        }
    }
    // An old entry whose position moved: the nearest unnamed mutant of its text in its file.
    for e in unmatched_old {
        let entry = &entries[e];
        let at = entry.at.as_deref().unwrap_or("");
        let mut parts = at.rsplitn(3, ':');
        let (_column, line, file) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
        let line: usize = line.and_then(|l| l.parse().ok()).unwrap_or(0);
        let nearest = keys
            .iter()
            .enumerate()
            .filter(|(i, k)| by_mutant[*i].is_none() && k.file == file && k.text == entry.mutant)
            .min_by_key(|(_, k)| k.line.abs_diff(line));
        match nearest {
            Some((i, k)) => {
                by_mutant[i] = Some(e);
                moved.push(format!("{at} -> {} {}", k.at, entry.mutant));
            }
            None => stale.push(describe(entry)),
        }
    }
    Matched {
        entries: by_mutant,
        moved,
        stale,
    }
}

fn describe(entry: &Entry) -> String {
    match (&entry.hook, &entry.at) {
        (Some(hook), _) => format!(
            "{}{hook} #{} {}",
            entry
                .file
                .as_deref()
                .map(|f| format!("{f} "))
                .unwrap_or_default(),
            entry.occurrence.unwrap_or(1),
            entry.mutant
        ),
        (None, Some(at)) => format!("{at} {}", entry.mutant),
        (None, None) => format!("(no hook or position) {}", entry.mutant),
    }
}

/// The entries of the variant's file (none when there is no file).
pub(super) fn read(dir: &Path) -> Result<Vec<Entry>, MutateError> {
    let path = dir.join(EQUIVALENTS_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    let fail = |message: String| MutateError::Equivalents {
        path: path.display().to_string(),
        message,
    };
    if text.len() > MAX_BYTES {
        return Err(fail("larger than 1 MiB".into()));
    }
    let listed: Option<Vec<Entry>> =
        serde_yaml::from_str(&text).map_err(|e| fail(e.to_string()))?;
    let listed = listed.unwrap_or_default();
    if let Some(entry) = listed.iter().find(|e| e.hook.is_none() && e.at.is_none()) {
        return Err(fail(format!(
            "the entry for `{}` needs a `hook:` (and `file:`, `occurrence:`) or an `at:`",
            entry.mutant
        )));
    }
    Ok(listed)
}

/// Rewrite the file with every matched entry keyed by content (its leading comment kept,
/// unmatched entries kept as they were): positions never need fixing again.
pub(super) fn rewrite(
    dir: &Path,
    entries: &[Entry],
    keys: &[Key],
    matched: &Matched,
) -> Result<(), MutateError> {
    let path = dir.join(EQUIVALENTS_FILE);
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let header: String = old
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut keyed: Vec<Entry> = entries.to_vec();
    for (i, entry) in matched.entries.iter().enumerate() {
        if let Some(e) = entry {
            let key = &keys[i];
            keyed[*e] = Entry {
                file: Some(key.file.clone()),
                hook: Some(key.hook.clone()),
                mutant: key.text.clone(),
                occurrence: (key.occurrence > 1).then_some(key.occurrence),
                at: None,
                why: entries[*e].why.clone(),
            };
        }
    }
    let body = serde_yaml::to_string(&keyed).map_err(|e| MutateError::Equivalents {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    std::fs::write(&path, format!("{header}{body}")).map_err(|e| MutateError::Equivalents {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}
