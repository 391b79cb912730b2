//! `deckspec merge`: the arguments, each file read as JSON within its size bound, and the files
//! handed to the merge of their kind: `simulate` summaries or `balance` studies, never both.

use super::EXIT_BROKEN;
use std::path::{Path, PathBuf};

/// The arguments of `deckspec merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// `simulate --json` (or `balance --json`) outputs: the shards of one study.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Summarize the shards given even if some are missing (the summary says which).
    #[arg(long)]
    pub allow_partial: bool,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report with charts.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

/// The largest summary file `merge` reads: real ones are a few kilobytes.
const MAX_SUMMARY_BYTES: u64 = 64 * 1024 * 1024;

/// A `--json` output, read within its size bound.
fn read_json(file: &Path) -> Result<serde_json::Value, String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_SUMMARY_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    if text.len() as u64 > MAX_SUMMARY_BYTES {
        return Err(format!(
            "{} is larger than {MAX_SUMMARY_BYTES} bytes: not a `simulate --json` summary",
            file.display()
        ));
    }
    serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a `simulate --json` summary: {e}", file.display()))
}

pub(super) fn merge(args: MergeArgs) -> i32 {
    if let Some(report) = &args.report
        && let Err(e) = super::writable("--report", report)
    {
        errln!("error: {e}");
        return EXIT_BROKEN;
    }
    let mut read = Vec::with_capacity(args.files.len());
    for file in &args.files {
        match read_json(file) {
            Ok(json) => read.push((file.display().to_string(), json)),
            Err(e) => {
                errln!("error: {e}");
                return EXIT_BROKEN;
            }
        }
    }
    // `balance --shard` outputs merge as a balance study; the kinds do not mix.
    let balance = read
        .iter()
        .filter(|(_, j)| super::balance_merge::is_balance(j))
        .count();
    if balance == read.len() {
        return super::balance_merge::merge(
            &read,
            args.allow_partial,
            args.json,
            args.report.as_deref(),
        );
    }
    if balance > 0 {
        errln!(
            "error: {} files are `balance --json` outputs and {} are not: merge the shards of one study",
            balance,
            read.len() - balance
        );
        return EXIT_BROKEN;
    }
    super::simulate::merge_summaries(read, args.allow_partial, args.json, args.report.as_deref())
}
