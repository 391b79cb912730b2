//! The scenario language: parse `.feature` files (pest), check them against a variant, run them.
//!
//! This is the only module that imports pest. It reaches variants only through the kernel's
//! `Rules` trait, never through `script`.

pub mod ast;
pub mod diag;
pub mod junit;
pub mod limits;
pub mod parse;
pub mod runner;
pub mod suite;
pub mod tags;
