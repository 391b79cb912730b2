//! A game that knows a variant: an import upward.
// A comment naming crate::script::Variant is not an import.
use crate::script::Variant;

pub struct Game(pub Variant);
