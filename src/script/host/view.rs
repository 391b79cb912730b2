//! The view a bot's decision script sees (`BotView`): its seat's hand and the table as far as it
//! remembers, with the game lent to the view for one decision. The bot view API's natives
//! (`bot_natives.rs`) read it; loading bots and deciding are `script::bots`.

use crate::kernel::{Candidates, CardIdx, Game, Seat};
#[cfg(test)]
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

thread_local! {
    /// The last decision's candidates on this thread, refilled in place for the next.
    pub(super) static SPARE_CANDIDATES: std::cell::RefCell<Candidates> = std::cell::RefCell::default();
    /// The last decision's view on this thread, used again by the next: its game is an empty
    /// one the lent game trades places with, so lending moves no game and allocates nothing.
    pub(crate) static SPARE_VIEW: std::cell::RefCell<Option<Arc<ViewData>>> = const { std::cell::RefCell::new(None) };
}

/// What a bot sees: its own hand and the table as far as it remembers, public variables,
/// and the actions it may try.
#[derive(Clone)]
pub struct BotView(pub(crate) Arc<ViewData>);

impl BotView {
    /// A view of an empty game, for tests of the API table.
    #[cfg(test)]
    pub(crate) fn sample() -> BotView {
        BotView(Arc::new(ViewData {
            me: Seat(0),
            forgotten: Vec::new(),
            game: Game::default(),
            candidates: OnceLock::new(),
            rng: Mutex::new(ChaCha8Rng::seed_from_u64(0)),
        }))
    }
}

/// A game lent to a bot's view for one decision: back in its place when the decision ends, on
/// every exit path (a panic included), its candidates and the view kept for the thread's next
/// decision.
pub(crate) struct LentToView<'a> {
    place: &'a mut Game,
    data: Option<Arc<ViewData>>,
}

impl<'a> LentToView<'a> {
    /// The view of `seat`, with its bot's `forgotten` flags and `rng`, lent the game in `place`
    /// (which holds an empty game until the view gives it back).
    pub(crate) fn new(
        place: &'a mut Game,
        seat: Seat,
        forgotten: &[bool],
        rng: ChaCha8Rng,
    ) -> LentToView<'a> {
        let spare = SPARE_VIEW.with_borrow_mut(Option::take);
        let mut data = spare.unwrap_or_else(|| {
            Arc::new(ViewData {
                me: seat,
                forgotten: Vec::new(),
                game: Game::default(),
                candidates: OnceLock::new(),
                rng: Mutex::new(rng.clone()),
            })
        });
        let view = Arc::get_mut(&mut data).expect("a spare view is held by nothing else");
        view.me = seat;
        view.forgotten.clear();
        view.forgotten.extend_from_slice(forgotten);
        view.candidates = OnceLock::new();
        *view.rng.get_mut().unwrap_or_else(PoisonError::into_inner) = rng;
        std::mem::swap(&mut view.game, place);
        LentToView {
            place,
            data: Some(data),
        }
    }

    pub(crate) fn data(&self) -> &Arc<ViewData> {
        self.data.as_ref().expect("lent until dropped")
    }
}

impl Drop for LentToView<'_> {
    fn drop(&mut self) {
        let Some(mut data) = self.data.take() else {
            return;
        };
        match Arc::get_mut(&mut data) {
            Some(view) => {
                std::mem::swap(&mut view.game, self.place);
                if let Some(candidates) = view.candidates.take() {
                    SPARE_CANDIDATES.with_borrow_mut(|spare| *spare = candidates);
                }
                SPARE_VIEW.with_borrow_mut(|spare| *spare = Some(data));
            }
            // A value still holds the view (none should once the call is over): the game
            // stays with it, and its place gets a copy.
            None => *self.place = data.game.clone(),
        }
    }
}

pub(crate) struct ViewData {
    pub(crate) me: Seat,
    /// The bot's forgotten cards (by index): it remembers a card its seat knows and it has not
    /// forgotten, and only those faces are shown to it.
    pub(crate) forgotten: Vec<bool>,
    /// The game (a copy, or the game itself lent for the decision), for the public structure
    /// (hands, piles, variables); faces are read from it only through `known`.
    pub(crate) game: Game,
    /// The actions the bot may try now (built one by one only for `view.candidates`), found
    /// when the script first asks (`view.can`, `view.candidates`).
    pub(crate) candidates: OnceLock<Candidates>,
    pub(crate) rng: Mutex<ChaCha8Rng>,
}

impl ViewData {
    /// Whether the bot remembers `card` (as `BotBook::remembers` says; `false` for no card of
    /// the game).
    pub(crate) fn remembers(&self, card: CardIdx) -> bool {
        remembers(&self.game, self.me, &self.forgotten, card)
    }

    /// The actions the bot may try now.
    pub(crate) fn candidates(&self) -> &Candidates {
        self.candidates.get_or_init(|| {
            let mut candidates = SPARE_CANDIDATES.with_borrow_mut(std::mem::take);
            candidates.refill(&self.game, Some(self.me));
            candidates
        })
    }
}

/// The one rule of a bot's memory: a card of the game its seat knows and it has not forgotten,
/// or one lying face up in front of it (`false` for no card of the game).
pub(crate) fn remembers(game: &Game, seat: Seat, forgotten: &[bool], card: CardIdx) -> bool {
    let i = card.0 as usize;
    i < game.state.cards.len()
        && game.state.knows(seat, card)
        && (game.state.is_face_up(card) || !forgotten.get(i).copied().unwrap_or(true))
}
