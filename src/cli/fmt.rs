//! `deckspec fmt`: lay out `.feature` files one way (`spec::parse::format`), in place, or with
//! `--check` only say which files are not laid out so (for CI), with their first differing line.

use super::{EXIT_BROKEN, EXIT_FAILED, EXIT_OK, counted, render};
use crate::spec::parse::format::{FormatError, format_feature};
use crate::spec::suite;
use std::path::{Path, PathBuf};

/// The arguments of `deckspec fmt`.
#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// Files or folders of `.feature` files (folders named `invalid` are skipped).
    #[arg(default_value = "spec-tests")]
    pub paths: Vec<PathBuf>,
    /// Change nothing: list the files that are not laid out as `fmt` would lay them out, each
    /// with its first line that differs; exit 1 when there is one.
    #[arg(long)]
    pub check: bool,
}

pub(super) fn fmt(args: &FmtArgs) -> i32 {
    let files = match suite::feature_files(&args.paths) {
        Ok(f) => f,
        Err(e) => {
            errln!("error: {e}");
            return EXIT_BROKEN;
        }
    };
    let (mut changed, mut broken) = (0usize, 0usize);
    for path in &files {
        let loaded = suite::load_file(path);
        if let Some(problem) = loaded.problem {
            broken += 1;
            errln!("ERROR  {}", path.display());
            let result =
                suite::FileResult::not_run(&path.display().to_string(), loaded.src, vec![problem]);
            for d in result.diagnostics() {
                err!("{}", render(&d));
            }
            continue;
        }
        let src: &str = &loaded.src;
        let formatted = match format_feature(src) {
            Ok(f) => f,
            Err(FormatError::Unparsed(problems)) => {
                broken += 1;
                errln!("ERROR  {} does not parse: not formatted", path.display());
                let result = suite::FileResult::not_run(
                    &path.display().to_string(),
                    loaded.src.clone(),
                    problems,
                );
                for d in result.diagnostics() {
                    err!("{}", render(&d));
                }
                continue;
            }
            Err(e @ FormatError::Changed) => {
                broken += 1;
                errln!("ERROR  {}: {e}", path.display());
                continue;
            }
        };
        if formatted == src {
            continue;
        }
        changed += 1;
        if args.check {
            outln!("not formatted: {}", first_difference(path, src, &formatted));
            continue;
        }
        if let Err(e) = write_over(path, &formatted) {
            broken += 1;
            errln!("ERROR  {}: cannot write it: {e}", path.display());
            continue;
        }
        outln!("formatted: {}", path.display());
    }
    let verb = if args.check { "to format" } else { "formatted" };
    outln!(
        "{} checked, {} {verb}{}",
        counted(files.len(), "file"),
        changed,
        match broken {
            0 => String::new(),
            n => format!(", {} not formatted", counted(n, "file")),
        }
    );
    match (broken, changed, args.check) {
        (0, 0, _) | (0, _, false) => EXIT_OK,
        (0, _, true) => EXIT_FAILED,
        _ => EXIT_BROKEN,
    }
}

/// `path:LINE: found `…`, formatted `…``: the first line where the file and its formatting differ.
fn first_difference(path: &Path, src: &str, formatted: &str) -> String {
    let mut old = src.lines();
    let mut new = formatted.lines();
    let mut line = 1;
    loop {
        match (old.next(), new.next()) {
            (Some(a), Some(b)) if a == b => line += 1,
            (None, None) => {
                return format!(
                    "{}: its line breaks differ (a missing last one, blank lines at the end, or mixed line ends)",
                    path.display()
                );
            }
            (a, b) => {
                let show =
                    |l: Option<&str>| l.map_or("the end of the file".into(), |l| format!("`{l}`"));
                return format!(
                    "{}:{line}: found {}, formatted {}",
                    path.display(),
                    show(a),
                    show(b)
                );
            }
        }
    }
}

/// Replace a file's text: written beside it, then renamed over it, so that a failed write leaves
/// the file as it was.
fn write_over(path: &Path, text: &str) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.deckspec-fmt"));
    std::fs::write(&temp, text)?;
    std::fs::rename(&temp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}
