//! The bounds on scenario input: how big a file, a step, a list, a number, a duration, a nesting
//! or an expansion may be. Each is documented with its message in `grammar/README.md` ("Limits").

/// Bytes in one scenario file.
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// Items in one list of a step: cards or slots, players, action arguments, `with` fields, the
/// values of a `[…]` list.
pub const MAX_LIST_ITEMS: usize = 1024;

/// A whole number in a step other than a seed: a slot, a count of cards, `N times`.
pub const MAX_COUNT: u64 = 10_000;

/// `[…]` lists inside lists in one value; `(…)` groups inside groups in a `--tags` expression.
pub const MAX_NESTING: usize = 32;

/// The longest time one `When N seconds pass` step lets pass: one day, in milliseconds.
pub const MAX_STEP_MILLIS: u64 = 86_400_000;

/// Bytes of one step's text once an outline's `<placeholders>` are filled.
pub const MAX_FILLED_STEP_BYTES: usize = 64 * 1024;

/// Steps of one file once backgrounds are repeated for each scenario and outlines for each row.
pub const MAX_EXPANDED_STEPS: usize = 1_000_000;

/// Bytes of those steps (text, doc string and table of each), filled placeholders included.
pub const MAX_EXPANDED_BYTES: usize = 64 * 1024 * 1024;

/// Problems kept for one file; the rest are counted in one last problem.
pub const MAX_PROBLEMS_PER_FILE: usize = 1000;
