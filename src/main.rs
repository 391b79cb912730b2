//! The `deckspec` binary: the command line is `deckspec::command_line`.

// Rule scripts allocate many small values; mimalloc is markedly faster than the system allocator.
#[global_allocator]
static ALLOCATOR: deckspec::allocator::Allocator = deckspec::allocator::Allocator;

fn main() {
    std::process::exit(deckspec::command_line());
}
