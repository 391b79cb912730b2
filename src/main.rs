//! The `deckspec` binary: parse the arguments and hand over to `cli::run`.

use clap::Parser;

fn main() {
    let cli = deckspec::cli::Cli::parse();
    std::process::exit(deckspec::cli::run(cli));
}
