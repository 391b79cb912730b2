//! A variant's own spec-strength record (`rules/<variant>/spec-strength.yaml`): the mutation
//! score and the script coverage its scenarios have reached, which `deckspec mutate --ratchet`
//! and `deckspec coverage --ratchet` hold it to. A new variant starts with no record (each run
//! says what it reached); raising a record is a one-line change.

use std::path::{Path, PathBuf};

/// The file holding a variant's record, in the variant's folder.
pub const RECORD_FILE: &str = "spec-strength.yaml";

/// The largest record file read.
const MAX_RECORD_BYTES: usize = 64 * 1024;

/// What a variant has reached, each in percent; a measure it has no record of is not held.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The mutation score (`deckspec mutate`).
    #[serde(default)]
    pub mutation_score: Option<f64>,
    /// The share of the runnable script lines the scenarios run (`deckspec coverage`).
    #[serde(default)]
    pub line_coverage: Option<f64>,
    /// The share of the branch arms the scenarios take (`deckspec coverage`).
    #[serde(default)]
    pub branch_coverage: Option<f64>,
}

/// A record file that cannot be read as one.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct RecordError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

/// The record in the variant's folder (`None`: no file yet).
pub fn read(variant_dir: &Path) -> Result<Option<Record>, RecordError> {
    let path = variant_dir.join(RECORD_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let fail = |message: String| RecordError {
        path: path.clone(),
        message,
    };
    if text.len() > MAX_RECORD_BYTES {
        return Err(fail("larger than 64 KiB".into()));
    }
    let record: Record = serde_yaml::from_str(&text).map_err(|e| fail(e.to_string()))?;
    for (name, value) in [
        ("mutation_score", record.mutation_score),
        ("line_coverage", record.line_coverage),
        ("branch_coverage", record.branch_coverage),
    ] {
        if let Some(v) = value
            && !(0.0..=100.0).contains(&v)
        {
            return Err(fail(format!(
                "{name} is a percentage from 0 to 100, not {v}"
            )));
        }
    }
    Ok(Some(record))
}

/// How a measure compares with the variant's record of it.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// No record yet: the message says what to write.
    Unrecorded(String),
    /// At its record (or above by less than a rounding step).
    Kept,
    /// Above its record by more: still a pass; the message says to raise it.
    Above(String),
    /// Below its record: a failure; the message says by how much.
    Fell(String),
}

impl Verdict {
    /// Whether the run keeps to the record.
    pub fn holds(&self) -> bool {
        !matches!(self, Verdict::Fell(_))
    }

    /// What to tell the user, if anything.
    pub fn message(&self) -> Option<&str> {
        match self {
            Verdict::Kept => None,
            Verdict::Unrecorded(m) | Verdict::Above(m) | Verdict::Fell(m) => Some(m),
        }
    }
}

/// Compare what `variant` reached of the measure `field` (a [`Record`] field name) with its
/// record. Records are written to one decimal, rounded down, so a reached value is compared
/// with that precision.
pub fn judge(
    variant: &str,
    field: &str,
    reached: f64,
    record: Option<f64>,
    file: &Path,
) -> Verdict {
    let file = file.display();
    match record {
        None => Verdict::Unrecorded(format!(
            "{variant}: no {field} record yet: it reached {reached:.2}%; write `{field}: {:.1}` to {file} to hold it there",
            floor_tenth(reached)
        )),
        Some(record) if reached + 1e-9 < record => Verdict::Fell(format!(
            "{variant}: {field} {reached:.1}% fell below its record {record} ({file})"
        )),
        Some(record) if floor_tenth(reached) > record + 1e-9 => Verdict::Above(format!(
            "{variant}: {field} {reached:.1}% is above its record {record}: raise `{field}` in {file}"
        )),
        Some(_) => Verdict::Kept,
    }
}

/// `value` rounded down to one decimal (what a record may hold without a run falling below it).
fn floor_tenth(value: f64) -> f64 {
    (value * 10.0 + 1e-9).floor() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_holds_each_measure_it_names_and_no_other() {
        let dir = std::env::temp_dir().join(format!("strength-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(read(&dir), Ok(None));
        std::fs::write(
            dir.join(RECORD_FILE),
            "mutation_score: 100.0\nline_coverage: 99.5\n",
        )
        .unwrap();
        let record = read(&dir).unwrap().unwrap();
        assert_eq!(record.mutation_score, Some(100.0));
        assert_eq!(record.line_coverage, Some(99.5));
        assert_eq!(record.branch_coverage, None);
        std::fs::write(dir.join(RECORD_FILE), "line_coverage: 120\n").unwrap();
        assert!(
            read(&dir)
                .unwrap_err()
                .message
                .contains("0 to 100, not 120")
        );
        std::fs::write(dir.join(RECORD_FILE), "lines: 99\n").unwrap();
        assert!(
            read(&dir)
                .unwrap_err()
                .message
                .contains("unknown field `lines`")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_measure_is_judged_against_its_record_to_one_decimal() {
        let file = Path::new("rules/x/spec-strength.yaml");
        let judge = |reached, record| judge("x", "line_coverage", reached, record, file);
        assert!(
            matches!(judge(97.26, None), Verdict::Unrecorded(m) if m.contains("`line_coverage: 97.2`"))
        );
        assert_eq!(judge(97.26, Some(97.2)), Verdict::Kept);
        assert_eq!(judge(97.2, Some(97.2)), Verdict::Kept);
        assert!(
            matches!(judge(97.19, Some(97.2)), Verdict::Fell(m) if m.contains("fell below its record 97.2"))
        );
        assert!(
            matches!(judge(98.0, Some(97.2)), Verdict::Above(m) if m.contains("raise `line_coverage`"))
        );
        assert!(judge(98.0, Some(97.2)).holds() && !judge(90.0, Some(97.2)).holds());
    }
}
