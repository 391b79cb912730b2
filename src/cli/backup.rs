//! `deckspec backup`: a consistent copy of a server's store, taken while the server runs (see
//! `crate::serve::store::backup`).

use super::{EXIT_BROKEN, EXIT_OK};
use std::path::PathBuf;

/// The arguments of `deckspec backup`.
#[derive(clap::Args, Debug)]
pub struct BackupArgs {
    /// The store to copy (a server may be running on it).
    #[arg(long, default_value = "deckspec.db", value_name = "FILE")]
    pub db: PathBuf,
    /// The copy: a new file (an existing one is never overwritten).
    #[arg(long, value_name = "OUT")]
    pub to: PathBuf,
}

pub fn backup(args: &BackupArgs) -> i32 {
    match crate::serve::store::backup(&args.db, &args.to) {
        Ok(tables) => {
            outln!(
                "backed up {} from {} to {}",
                match tables {
                    1 => "1 table".to_string(),
                    n => format!("{n} tables"),
                },
                args.db.display(),
                args.to.display()
            );
            EXIT_OK
        }
        Err(e) => {
            errln!("error: {e}");
            EXIT_BROKEN
        }
    }
}
