//! The view API of bot scripts as a table of native entries (like `natives::NATIVES` for the
//! rules), so that the bot engine registers them and compiled bot code calls them directly.
//!
//! A bot sees its own view only: faces of the cards it remembers, public variables, its own
//! private ones, and the actions it may try.

use super::api::{self, Card, Player, R, Slot, arg_value, from_value};
use super::items;
use super::names::{
    consumes_besides_name, is_name, name_view, named, named_arg, named_kind, param_ty,
};
use super::natives::{NATIVES, Native, Tables, borrow, entry_args, entry_body, native, take, view};
use super::view::BotView;
use crate::kernel::{CardIdx, Loc, Seat};
use rand::RngExt;
use rhai::{Array, Dynamic, INT, ImmutableString, Map};

fn view_card(c: Option<CardIdx>) -> Dynamic {
    c.map_or(Dynamic::UNIT, |c| Dynamic::from(Card(c)))
}

/// `view.known(card)`.
fn view_known(v: &BotView, c: Card) -> R<Dynamic> {
    Ok(Dynamic::from_bool(v.0.remembers(c.0)))
}

/// `view.is_face_up(card)`.
fn view_is_face_up(v: &BotView, c: Card) -> R<Dynamic> {
    let state = &v.0.game.state;
    Ok(Dynamic::from_bool(
        (c.0.0 as usize) < state.cards.len() && state.is_face_up(c.0),
    ))
}

/// `view.rank(card)`.
fn view_rank(v: &BotView, c: Card) -> R<Dynamic> {
    Ok(remembered(v, c, |v| {
        v.0.game.state.face(c.0).rank.short().to_string()
    }))
}

/// `view.points(card)`.
fn view_points(v: &BotView, c: Card) -> R<Dynamic> {
    Ok(remembered(v, c, |v| {
        let g = &v.0.game;
        g.table.points_of(g.state.face(c.0)) as INT
    }))
}

/// `view.owner(card)`.
fn view_owner(v: &BotView, c: Card) -> R<Dynamic> {
    Ok(match v.0.game.state.cards[c.0.0 as usize].loc {
        Loc::Hand { seat, .. } => Dynamic::from(Player(seat)),
        Loc::Pile(_) => Dynamic::UNIT,
    })
}

/// `view.slot(card)`.
fn view_slot(v: &BotView, c: Card) -> R<Dynamic> {
    Ok(match v.0.game.state.cards[c.0.0 as usize].loc {
        Loc::Hand { seat, slot } => Dynamic::from(Slot {
            seat,
            slot: slot as u32,
        }),
        Loc::Pile(_) => Dynamic::UNIT,
    })
}

/// An entry on a bot's view and one card (`view.rank(card)`): the body the table's entry runs,
/// and the compiled engine's direct calls.
pub(crate) type ViewCardFn = fn(&BotView, Card) -> R<Dynamic>;

/// The entries of `BOT_NATIVES` taking the view and one card, by name, with their bodies.
static VIEW_CARD_ENTRIES: &[(&str, ViewCardFn)] = &[
    ("known", view_known),
    ("is_face_up", view_is_face_up),
    ("rank", view_rank),
    ("points", view_points),
    ("owner", view_owner),
    ("slot", view_slot),
];

/// The body of the view's card entry `name` (see `VIEW_CARD_ENTRIES`).
pub(crate) fn view_card_entry(name: &str) -> Option<ViewCardFn> {
    super::natives::body_named(VIEW_CARD_ENTRIES, name)
}

/// The face of a card the bot remembers, read by `read`; `()` for one it does not.
fn remembered<T: Into<Dynamic>>(v: &BotView, c: Card, read: impl FnOnce(&BotView) -> T) -> Dynamic {
    if v.0.remembers(c.0) {
        read(v).into()
    } else {
        Dynamic::UNIT
    }
}

/// The bot engine's tables: the view API, registered after the kernel API (so a bot prints a
/// card as `card`).
pub(crate) static BOT_TABLES: Tables = &[BOT_NATIVES, NATIVES];

/// Every function of the bot view API.
pub(crate) static BOT_NATIVES: &[Native] = &[
    // A card's index survives reshuffles: a bot prints a card without it.
    native!("to_string", |c: Card| Ok({
        let _ = c;
        "card".to_string()
    })),
    native!("to_debug", |c: Card| Ok({
        let _ = c;
        "card".to_string()
    })),
    native!("get$me", |v: View| Ok(Player(v.0.me))),
    native!("get$current", |v: View| {
        Ok(v.0
            .game
            .state
            .current
            .map_or(Dynamic::UNIT, |s| Dynamic::from(Player(s))))
    }),
    native!("get$is_my_turn", |v: View| Ok(
        v.0.game.state.current == Some(v.0.me)
    )),
    native!("get$phase", |v: View| {
        let g = &v.0.game;
        Ok(super::api::phase_name(&g.table, g.state.phase))
    }),
    native!("get$clock", |v: View| Ok(
        v.0.game.state.clock as f64 / 1000.0
    )),
    native!("get$players", |v: View| {
        Ok(Dynamic::from_array(
            (0..v.0.game.state.player_count())
                .map(|i| Dynamic::from(Player(Seat(i as u8))))
                .collect::<Array>(),
        ))
    })
    .with_items(items::view_players),
    native!("hand", |v: View, p: Player| {
        Ok(v.0
            .game
            .state
            .hands
            .get(p.0.index())
            .map_or_else(Array::new, |h| h.iter().map(|&c| view_card(c)).collect()))
    })
    .with_items(items::view_hand),
    native!("known", |v: View, c: Card| view_known(v, c)),
    native!("is_face_up", |v: View, c: Card| view_is_face_up(v, c)),
    native!("rank", |v: View, c: Card| view_rank(v, c)),
    native!("points", |v: View, c: Card| view_points(v, c)),
    native!("owner", |v: View, c: Card| view_owner(v, c)),
    native!("slot", |v: View, c: Card| view_slot(v, c)),
    named!("top", |v: View, pile: Name(Pile)| {
        let g = &v.0.game;
        let id = api::pile_named(g, pile)?;
        Ok(view_card(g.state.pile(id).last().copied()))
    }),
    named!("pile_size", |v: View, pile: Name(Pile)| {
        let g = &v.0.game;
        let id = api::pile_named(g, pile)?;
        Ok(g.state.pile(id).len() as INT)
    }),
    named!("get", |v: View, name: Name(GameVar)| {
        let g = &v.0.game;
        match name.id(&g.table) {
            Some(i) => Ok(from_value(&g.state.game_vars[i])),
            None => api::unknown_var(g, name.text(), false),
        }
    }),
    named!("pget", |v: View, p: Player, name: Name(PlayerVar)| {
        let g = &v.0.game;
        let Some(i) = name.id(&g.table) else {
            return api::unknown_var(g, name.text(), true);
        };
        if !g.table.player_var_visible(i, p.0.index(), v.0.me.index()) {
            return api::err(format!(
                "`{name}` is private to each player: a bot sees only its own (declare it `{{ value: …, public: true }}` in variant.yaml if every player may see it)"
            ));
        }
        match g.state.player_vars.get(p.0.index()) {
            Some(vars) => Ok(from_value(&vars[i])),
            None => api::err(format!("there is no player in seat {}", p.0.0)),
        }
    }),
    named!("house", |v: View, name: Name(HouseRule)| api::house_rule(
        &v.0.game, name
    )),
    native!("get$candidates", |v: View| {
        Ok(Dynamic::from_array(
            v.0.candidates()
                .to_vec()
                .iter()
                .map(|a| {
                    let mut m = Map::new();
                    m.insert(
                        "action".into(),
                        Dynamic::from(ImmutableString::from(&*a.name)),
                    );
                    m.insert(
                        "args".into(),
                        Dynamic::from_array(a.args.iter().map(arg_value).collect()),
                    );
                    Dynamic::from_map(m)
                })
                .collect::<Array>(),
        ))
    }),
    native!("can", |v: View, action: Str| {
        Ok(v.0.candidates().has_action(action))
    }),
    native!("random", |v: View| {
        Ok(v.0
            .rng
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .random::<f64>())
    }),
    native!("pick", |v: View, items: Array| {
        if items.is_empty() {
            return Ok(Dynamic::UNIT);
        }
        let i =
            v.0.rng
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .random_range(0..items.len());
        Ok(items[i].clone())
    }),
];
