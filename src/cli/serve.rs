//! `deckspec serve`: host tables over HTTP and WebSocket (see `crate::serve`), printing where it
//! listens and what it restored from the store.

use super::{EXIT_BROKEN, EXIT_OK};
use crate::serve::{Config, Startup};
use std::net::SocketAddr;
use std::path::PathBuf;

/// The arguments of `deckspec serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
    /// Where to listen (port 0: any free port, printed when ready).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    pub addr: SocketAddr,
    /// The SQLite file holding every table (made if missing).
    #[arg(long, default_value = "deckspec.db", value_name = "FILE")]
    pub db: PathBuf,
    /// Tables the server holds at most.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub max_tables: usize,
}

pub fn serve(args: ServeArgs) -> i32 {
    let config = Config {
        rules: args.rules,
        addr: args.addr,
        db: args.db.clone(),
        max_tables: args.max_tables,
    };
    let db = args.db.display().to_string();
    let result = crate::serve::run(config, move |addr, startup: &Startup| {
        for (name, problem) in &startup.broken_variants {
            errln!("variant {name} does not load: {problem}");
        }
        for (id, problem) in &startup.unloadable {
            errln!("table {id} could not be restored: {problem}");
        }
        for id in &startup.rules_changed {
            errln!(
                "table {id}: its rules changed since it was made; it goes on under the new ones"
            );
        }
        outln!(
            "deckspec serve: {} · {} restored from {db}{}",
            startup.variants.join(", "),
            match startup.restored {
                1 => "1 table".to_string(),
                n => format!("{n} tables"),
            },
            if startup.unloadable.is_empty() {
                String::new()
            } else {
                format!(" ({} could not be)", startup.unloadable.len())
            }
        );
        outln!("open http://{addr}/ to play in a browser");
    });
    match result {
        Ok(()) => EXIT_OK,
        Err(e) => {
            errln!("error: {e}");
            EXIT_BROKEN
        }
    }
}
