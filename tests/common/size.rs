//! How big the slow tests are: a developer's size by default, CI's with `DECKSPEC_TEST_SIZE=ci`
//! (`.ci/run` sets it). Each test that has two sizes picks its count through `by_size`, so a
//! plain `cargo test` stays quick and CI keeps the full strength.

/// The test size asked for: `false` for a developer's run (unset, empty or `dev`), `true` for
/// CI's (`ci`). Any other value stops the test, so a typo never runs the small size unnoticed.
pub fn ci_size() -> bool {
    match std::env::var("DECKSPEC_TEST_SIZE").as_deref() {
        Err(std::env::VarError::NotPresent) | Ok("" | "dev") => false,
        Ok("ci") => true,
        other => panic!("DECKSPEC_TEST_SIZE must be `ci`, `dev` or unset, not {other:?}"),
    }
}

/// `developer` for a developer's run, `ci` for CI's (see `ci_size`).
pub fn by_size<T>(developer: T, ci: T) -> T {
    if ci_size() { ci } else { developer }
}
