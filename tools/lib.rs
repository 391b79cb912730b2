//! deckspec's developer tools are its examples (`examples/`) and benches (`benches/`); this
//! crate has no library of its own (Cargo wants one target besides them).
