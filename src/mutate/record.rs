//! A variant's own spec-strength record (`rules/<variant>/spec-strength.yaml`): the mutation
//! score it has reached, which `deckspec mutate --ratchet` holds it to. A new variant starts
//! with none (it is told what it reached); raising the record is a one-line change.

use super::MutateError;
use std::path::Path;

/// The file holding a variant's record.
pub const RECORD_FILE: &str = "spec-strength.yaml";

/// What a variant has reached.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The mutation score, in percent: a run below it fails.
    pub mutation_score: f64,
}

/// The record in the variant's folder (`None`: no file yet).
pub fn read(variant_dir: &Path) -> Result<Option<Record>, MutateError> {
    let path = variant_dir.join(RECORD_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let fail = |message: String| MutateError::Record {
        path: path.display().to_string(),
        message,
    };
    if text.len() > 64 * 1024 {
        return Err(fail("larger than 64 KiB".into()));
    }
    let record: Record = serde_yaml::from_str(&text).map_err(|e| fail(e.to_string()))?;
    if !(0.0..=100.0).contains(&record.mutation_score) {
        return Err(fail(format!(
            "mutation_score is a percentage from 0 to 100, not {}",
            record.mutation_score
        )));
    }
    Ok(Some(record))
}
