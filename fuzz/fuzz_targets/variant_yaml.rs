//! Fuzz target `variant_yaml`: any bytes as the text of a `variant.yaml`, read by
//! `deckspec::script::config::load`, which returns the variant's table or a typed error. A panic
//! is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = deckspec::script::config::load(text);
    }
});
