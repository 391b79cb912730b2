//! Fuzz target `scenario`: any bytes as a scenario file, parsed and checked against the bundled
//! variants (`rules/`). Problems are fine; a panic, a span outside the file or off a character
//! boundary, or a diagnostic that cannot be rendered is a crash.
#![no_main]

use deckspec::scenarios::ScriptProvider;
use deckspec::spec::ast::Span;
use deckspec::spec::diag::{FileDiagnostic, SourceLines};
use deckspec::spec::suite;
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::{Arc, OnceLock};

fn provider() -> &'static ScriptProvider {
    static PROVIDER: OnceLock<ScriptProvider> = OnceLock::new();
    PROVIDER.get_or_init(|| {
        ScriptProvider::new(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules"))
    })
}

fn inside(src: &str, span: Span) -> bool {
    span.start <= span.end
        && span.end <= src.len()
        && src.is_char_boundary(span.start)
        && src.is_char_boundary(span.end)
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let (_, _, problems) = suite::check_file(src, provider());
    let src = Arc::new(src.to_string());
    let lines = Arc::new(SourceLines::new(&src));
    for problem in problems {
        assert!(inside(&src, problem.span), "{problem:?}");
        let d = FileDiagnostic::with_lines("fuzz.feature", src.clone(), lines.clone(), problem);
        let _ = d.short();
        let _ = deckspec::scenarios::render(&d);
    }
});
