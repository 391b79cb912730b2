//! The `deckspec` binary: parse the arguments and hand over to `cli::run`.

use clap::Parser;

// Rule scripts allocate many small values; mimalloc is markedly faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = deckspec::cli::Cli::parse();
    // Scripts run on this thread too: give it the stack every script thread gets.
    let code = std::thread::Builder::new()
        .name("deckspec".into())
        .stack_size(deckspec::script::SCRIPT_STACK_BYTES)
        .spawn(move || deckspec::cli::run(cli))
        .map(|thread| thread.join().unwrap_or(deckspec::cli::EXIT_BROKEN));
    std::process::exit(code.unwrap_or_else(|e| {
        eprintln!("error: cannot start: {e}");
        deckspec::cli::EXIT_BROKEN
    }));
}
