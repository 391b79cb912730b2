//! Tag expressions for `--tags` (work in progress).
