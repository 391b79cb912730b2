//! The kernel, whose game names a script type.
pub mod game;
