//! The `deckspec` binary: parse the arguments and hand over to `cli::run`.

use clap::Parser;

// Rule scripts allocate many small values; mimalloc is markedly faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = deckspec::cli::Cli::parse();
    std::process::exit(deckspec::cli::run(cli));
}
