//! Which kernel API entries change the game and which refuse, and the stop a legality check
//! makes at the first change (`until_change`): what `sources::refusals` reads scripts by and
//! what every changing entry calls before it changes anything.

use rhai::{Dynamic, EvalAltResult, Position};

type R<T> = Result<T, Box<EvalAltResult>>;

/// The entries that change the game (cards, knowledge, phases, turns, variables, events, timers,
/// the generator, the end): each stops a legality check that may stop at the first change
/// (`changing`), and `sources::refusals` reads a call of one as a change.
pub(crate) const CHANGES: &[&str] = &[
    "set_current",
    "to_pile",
    "under_pile",
    "to_slot",
    "add_to_hand",
    "append_to_hand",
    "compact",
    "swap",
    "shuffle",
    "recycle",
    "deal",
    "reveal",
    "reveal_all",
    "set_face_up",
    "set_phase",
    "begin_turns",
    "set",
    "pset",
    "broadcast",
    "tell",
    "set_timer",
    "cancel_timer",
    "random",
    "end",
];

/// The entries that may refuse the action (`refuse`, and `card_arg` on a slot with no card).
pub(crate) const REFUSES: &[&str] = &["refuse", "card_arg"];

/// Whether `name` is among `CHANGES` (at compile time, for each entry).
pub(crate) const fn changes_game(name: &str) -> bool {
    let mut i = 0;
    while i < CHANGES.len() {
        if const_eq(CHANGES[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Raised by an entry that changes the game while a legality check runs that stops there
/// (`until_change`): the action got that far without a refusal, and, its hook being
/// refusals-first (`sources::refusals`), nothing after could refuse it.
#[derive(Clone, Copy, Debug)]
pub struct StoppedAtChange;

thread_local! {
    /// Whether the script call running on this thread is a legality check that stops at the
    /// first change of the game.
    static UNTIL_CHANGE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Called by every entry that changes the game before it changes it: `StoppedAtChange` when
/// a legality check that stops there runs.
#[inline]
pub(crate) fn changing() -> R<()> {
    if UNTIL_CHANGE.get() {
        return Err(Box::new(EvalAltResult::ErrorRuntime(
            Dynamic::from(StoppedAtChange),
            Position::NONE,
        )));
    }
    Ok(())
}

/// Run `f` (a script call) so that the first entry that changes the game stops it with
/// `StoppedAtChange`; the flag is cleared on every way out.
pub(crate) fn until_change<T>(f: impl FnOnce() -> T) -> T {
    struct Clear(bool);
    impl Drop for Clear {
        fn drop(&mut self) {
            UNTIL_CHANGE.set(self.0);
        }
    }
    let _clear = Clear(UNTIL_CHANGE.replace(true));
    f()
}

/// Whether `e` is `StoppedAtChange`, through the calls it came out of.
pub(crate) fn stopped_at_change(e: &EvalAltResult) -> bool {
    match e {
        EvalAltResult::ErrorRuntime(v, _) => v.is::<StoppedAtChange>(),
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _)
        | EvalAltResult::ErrorInModule(_, inner, _) => stopped_at_change(inner),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_named_is_one_of_the_api() {
        let api: Vec<&str> = super::super::natives::NATIVES
            .iter()
            .map(|n| n.name)
            .collect();
        for name in CHANGES.iter().chain(REFUSES) {
            assert!(api.contains(name), "`{name}` is not an entry of NATIVES");
            assert_eq!(changes_game(name), CHANGES.contains(name));
        }
        assert!(!changes_game("top") && !changes_game("se") && !changes_game("sets"));
    }

    #[test]
    fn a_change_stops_only_inside_until_change_and_the_flag_is_cleared_after() {
        assert!(changing().is_ok());
        let inside = until_change(changing);
        assert!(inside.is_err_and(|e| stopped_at_change(&e)));
        assert!(changing().is_ok());
        let panicked = std::panic::catch_unwind(|| until_change(|| panic!("a script panicked")));
        assert!(panicked.is_err());
        assert!(changing().is_ok(), "the flag is cleared on a panic too");
    }
}
