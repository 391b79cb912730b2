//! `deckspec new <name> [--from <variant>]`: make a variant and its scenarios folder (see
//! `crate::scaffold`), then say what was made, the new variant's `check` line and what to run
//! next. A refusal is rendered with miette; exit 2.

use super::{EXIT_BROKEN, EXIT_OK, render};
use std::path::{Path, PathBuf};

/// The arguments of `deckspec new`.
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The new variant's name: lowercase letters, digits and `_`, starting with a letter.
    pub name: String,
    /// Copy this variant of the rules folder (and its scenarios) instead of starting from the
    /// small complete game `deckspec new` writes.
    #[arg(long, value_name = "VARIANT")]
    pub from: Option<String>,
    /// The folder holding the variants (made if missing).
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
    /// The folder holding the scenarios, one folder per variant (made if missing).
    #[arg(long, default_value = "spec-tests", value_name = "DIR")]
    pub specs: PathBuf,
}

pub fn new(args: &NewArgs) -> i32 {
    let made = match crate::scaffold::new_variant(
        &args.rules,
        &args.specs,
        &args.name,
        args.from.as_deref(),
    ) {
        Ok(made) => made,
        Err(e) => {
            err!("{}", render(&e));
            return EXIT_BROKEN;
        }
    };
    let list = |files: &[PathBuf]| {
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    outln!(
        "created {}: {}",
        made.variant_dir.display(),
        list(&made.variant_files)
    );
    outln!(
        "created {}: {}",
        made.spec_dir.display(),
        if made.spec_files.is_empty() {
            "(empty)".to_string()
        } else {
            list(&made.spec_files)
        }
    );
    outln!(
        "ok     {}: {}",
        made.variant_dir.display(),
        super::check::summary(&made.variant)
    );
    for note in &made.notes {
        outln!("note: {note}");
    }
    let rules = if args.rules == Path::new("rules") {
        String::new()
    } else {
        format!(" --rules {}", args.rules.display())
    };
    let specs = made.spec_dir.display();
    let next = [
        (
            format!("deckspec check{rules} {specs}"),
            "load it and check its scenarios",
        ),
        (format!("deckspec test{rules} {specs}"), "run its scenarios"),
        (
            format!("deckspec play {}{rules}", args.name),
            "play it against its bots",
        ),
    ];
    let width = next.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    outln!("next:");
    for (command, what) in next {
        outln!("  {command:width$}   # {what}");
    }
    EXIT_OK
}
