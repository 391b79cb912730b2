//! The crate of the fixture.
pub mod kernel;
pub mod script;
