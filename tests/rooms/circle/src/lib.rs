//! The crate of the fixture.
pub mod kernel;
