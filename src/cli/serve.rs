//! `deckspec serve`: host tables over HTTP and WebSocket (see `crate::serve`), printing where it
//! listens and what it restored from the store.

use super::{EXIT_BROKEN, EXIT_OK};
use crate::serve::{Config, Lifetimes, Startup, listen};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

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
    /// Connections one address may hold open at once (more are closed as they arrive).
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub max_connections_per_address: usize,
    /// Connections open at once in all (at most the descriptor limit, less a reserve).
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    pub max_connections: usize,
    /// Seconds a client has to send a request's head.
    #[arg(long, default_value_t = 10, value_name = "SECONDS")]
    pub header_timeout: u64,
    /// Seconds a connection may send nothing before it is closed (browsers answer the server's
    /// pings on a WebSocket, which come every third of this).
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    pub idle_timeout: u64,
    /// A page of another site allowed to make tables and connect (repeat for more); the
    /// server's own pages always are.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allowed_origins: Vec<String>,
    /// Tables one address may make a minute.
    #[arg(long, default_value_t = 30, value_name = "N")]
    pub creations_per_minute: usize,
    /// Minutes a table stays after its game is over and its players have left; then it is
    /// removed, with its row in the store.
    #[arg(long, default_value_t = 10, value_name = "MINUTES")]
    pub over_table_minutes: u64,
    /// Minutes a table whose game goes on stays with no player connected (since it was made,
    /// if nobody came); then it is removed, with its row.
    #[arg(long, default_value_t = 60, value_name = "MINUTES")]
    pub unattended_table_minutes: u64,
    /// Let a table of several players be given a `seed` (for tests and tournaments that
    /// replay a deal): every seat's sync state then says `"seeded": true`. Without it, only a
    /// table of one player and bots may have one.
    #[arg(long)]
    pub allow_seeds: bool,
    /// Messages waiting to be written to one connection at most: a client that falls further
    /// behind is closed with the reason (it reconnects for the whole view).
    #[arg(long, default_value_t = 4096, value_name = "N")]
    pub connection_queue: usize,
}

pub fn serve(args: ServeArgs) -> i32 {
    if args.max_connections_per_address == 0 || args.header_timeout == 0 || args.idle_timeout < 3 {
        errln!(
            "error: --max-connections-per-address is at least 1, --header-timeout at least 1 s, --idle-timeout at least 3 s"
        );
        return EXIT_BROKEN;
    }
    let descriptors = listen::raise_descriptor_limit();
    // Each connection is a descriptor; the store, the listener and the runtime need some too.
    let reserve = 64;
    let total = args
        .max_connections
        .min(usize::try_from(descriptors.saturating_sub(reserve)).unwrap_or(usize::MAX));
    let config = Config {
        rules: args.rules,
        addr: args.addr,
        db: args.db.clone(),
        max_tables: args.max_tables,
        connections: listen::ConnectionLimits {
            per_address: args.max_connections_per_address,
            total: total.max(1),
            header_read: Duration::from_secs(args.header_timeout),
            idle: Duration::from_secs(args.idle_timeout),
        },
        allowed_origins: args.allowed_origins,
        creations_per_minute: args.creations_per_minute.max(1),
        lifetimes: Lifetimes {
            over: minutes(args.over_table_minutes),
            unattended: minutes(args.unattended_table_minutes),
        },
        allow_seeds: args.allow_seeds,
        connection_queue: args.connection_queue,
    };
    let db = args.db.display().to_string();
    let result = crate::serve::run(config, move |addr, startup: &Startup| {
        for (name, problem) in &startup.broken_variants {
            errln!("variant {name} does not load: {problem}");
        }
        for (id, problem) in &startup.unloadable {
            errln!("table {id} could not be restored: {problem}");
        }
        for warning in &startup.warnings {
            errln!("warning: {warning}");
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
        outln!(
            "connections: {total} at most, {} from one address (descriptor limit {descriptors})",
            args.max_connections_per_address
        );
    });
    match result {
        Ok(()) => EXIT_OK,
        Err(e) => {
            errln!("error: {e}");
            EXIT_BROKEN
        }
    }
}

/// Minutes as a duration; 0 is a few seconds (for tests and demonstrations).
fn minutes(n: u64) -> Duration {
    match n {
        0 => Duration::from_secs(2),
        n => Duration::from_secs(n.saturating_mul(60)),
    }
}
