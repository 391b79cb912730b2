//! The WebSocket protocol (the shape of the "Socket command actions" document, for every
//! variant): a client's JSON message to a kernel `Action`, an action back to the message that
//! sends it, and the generated list of messages per variant (`GET /variants`, the README's
//! "Host games" section).
//!
//! A client sends `{"type": "action_<name>", …}`. An action's word argument (Cambia's
//! `special skip`) is the field named after the action (`"special": "skip"`); its cards are
//! `card` (or `card1`) and `card2`, each `{"id": "…"}` (a card's public id, as events and views
//! show it) or `{"idx": N, "user": {"id": "<player>"}}` (a hand slot; `user` defaults to the
//! sender), or `"drawn"` for a form that takes the drawn card. Where a form takes fewer cards
//! than the message names, the extra ones are ignored (the "Socket command actions" document
//! sends the drawn card's id with `action_discard`, whose form takes none).

use crate::kernel::{Action, ActionDecl, Arg, ArgDomain, Game, Loc, Seat, Table};
use serde_json::{Value as Json, json};

/// The largest client message the server reads, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// What a client asked for.
#[derive(Debug, PartialEq)]
pub enum Request {
    /// An action of the game.
    Action(Action),
    /// `{"type": "sync"}`: send `private_sync_state` again.
    Sync,
    /// `{"type": "list_actions"}`: send `private_actions`, the sender's legal actions now, each
    /// as the message that sends it.
    ListActions,
}

/// Read one client message for the player in `seat`. The error is the text of the `error`
/// message the client gets back.
pub fn parse_request(game: &Game, seat: Seat, text: &str) -> Result<Request, String> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(format!(
            "message too long: {} bytes (at most {MAX_MESSAGE_BYTES})",
            text.len()
        ));
    }
    let message: Json = serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?;
    let Some(object) = message.as_object() else {
        return Err("a message is a JSON object with a `type`".into());
    };
    let Some(kind) = object.get("type").and_then(Json::as_str) else {
        return Err("a message needs a `type` string, such as `action_draw_stockpile`".into());
    };
    match kind {
        "sync" => return Ok(Request::Sync),
        "list_actions" => return Ok(Request::ListActions),
        _ => {}
    }
    let table = &game.table;
    let Some(name) = kind.strip_prefix("action_") else {
        return Err(format!(
            "unknown message type `{kind}`: send `action_<name>` (one of {}), `sync` or `list_actions`",
            type_list(table)
        ));
    };
    let Some(decl) = table.actions.iter().find(|a| &*a.name == name) else {
        let names: Vec<&str> = table.actions.iter().map(|a| &*a.name).collect();
        let hint = crate::suggest::did_you_mean(name, names.iter().copied())
            .map(|s| format!("did you mean `action_{s}`? "))
            .unwrap_or_default();
        return Err(format!(
            "unknown action `{kind}`: {hint}{} has {}",
            table.variant,
            type_list(table)
        ));
    };
    let word = match object.get(name) {
        None | Some(Json::Null) => None,
        Some(Json::String(w)) => Some(w.as_str()),
        Some(other) => return Err(format!("`{name}` is a word, not {other}")),
    };
    if object.contains_key("card") && object.contains_key("card1") {
        return Err("give the first card as `card` or as `card1`, not both".into());
    }
    let cards: Vec<&Json> = [
        object.get("card").or_else(|| object.get("card1")),
        object.get("card2"),
    ]
    .into_iter()
    .map_while(|c| c.filter(|c| !c.is_null()))
    .collect();
    let form = choose_form(decl, word, &cards)?;
    let mut args = Vec::with_capacity(form.len());
    let mut next_card = cards.iter();
    for domain in form {
        match domain {
            ArgDomain::Word(w) => args.push(Arg::Word(w.clone())),
            ArgDomain::Drawn => {
                // `choose_form` matched it with a `"drawn"`.
                next_card.next();
                args.push(Arg::Drawn);
            }
            ArgDomain::OwnSlot | ArgDomain::OtherSlot | ArgDomain::AnySlot => {
                let card = next_card.next().copied().unwrap_or(&Json::Null);
                args.push(card_arg(game, seat, card)?);
            }
        }
    }
    for extra in next_card {
        check_extra_card(game, seat, extra)?;
    }
    Ok(Request::Action(Action {
        seat,
        name: decl.name.clone(),
        args,
    }))
}

/// A card the message names beyond what its action takes (the "Socket command actions" document
/// sends the drawn card's id with `action_discard`): when the sender holds a drawn card (the
/// variant's `role: held` pile, a card the sender knows), a card given by id must be that card.
/// A client that names another is out of date, and learns it rather than having the card
/// ignored.
fn check_extra_card(game: &Game, seat: Seat, card: &Json) -> Result<(), String> {
    let Some(id) = card.get("id").and_then(Json::as_str) else {
        return Ok(());
    };
    let Some(held) = game.table.held_pile else {
        return Ok(());
    };
    let state = &game.state;
    let Some(&drawn) = state.pile(held).last() else {
        return Ok(());
    };
    if !state.knows(seat, drawn) {
        // Another player's drawn card: the rules refuse the action.
        return Ok(());
    }
    let named = game
        .card_from_id(id)
        .ok_or_else(|| format!("no card has the id `{id}` now"))?;
    if named != drawn {
        return Err(format!(
            "card `{id}` is not the card you drew: your view is out of date (send `sync`)"
        ));
    }
    Ok(())
}

fn type_list(table: &Table) -> String {
    let names: Vec<String> = table
        .actions
        .iter()
        .map(|a| format!("`action_{}`", a.name))
        .collect();
    names.join(", ")
}

/// The form the message means: its word (if the action has words), and the most cards it takes
/// up to the cards given, the drawn card (`"drawn"`) where the form takes it.
fn choose_form<'d>(
    decl: &'d ActionDecl,
    word: Option<&str>,
    given: &[&Json],
) -> Result<&'d [ArgDomain], String> {
    let cards = given.len();
    let kinds_fit = |form: &[ArgDomain]| {
        form.iter()
            .filter(|d| !matches!(d, ArgDomain::Word(_)))
            .zip(given)
            .all(|(domain, card)| matches!(domain, ArgDomain::Drawn) == (*card == "drawn"))
    };
    let name = &decl.name;
    let words: Vec<&str> = decl
        .forms
        .iter()
        .filter_map(|f| match f.args.first() {
            Some(ArgDomain::Word(w)) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    let fitting = decl.forms.iter().filter(|f| {
        let form_word = match f.args.first() {
            Some(ArgDomain::Word(w)) => Some(w.as_str()),
            _ => None,
        };
        form_word == word && card_count(&f.args) <= cards && kinds_fit(&f.args)
    });
    if let Some(form) = fitting.max_by_key(|f| card_count(&f.args)) {
        return Ok(&form.args);
    }
    let takes_drawn = decl
        .forms
        .iter()
        .any(|f| f.args.contains(&ArgDomain::Drawn));
    if given.iter().any(|c| **c == "drawn") && !takes_drawn {
        return Err(format!(
            "`action_{name}` does not take the drawn card: it takes {}",
            card_need(decl, word)
        ));
    }
    if !words.is_empty() {
        let mut unique = words.clone();
        unique.dedup();
        return match word {
            None => Err(format!(
                "`action_{name}` needs `\"{name}\"`: one of {}",
                unique.join(", ")
            )),
            Some(w) if !words.contains(&w) => {
                let hint = crate::suggest::did_you_mean(w, unique.iter().copied())
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                Err(format!(
                    "`action_{name}` has no `{w}`{hint}: one of {}",
                    unique.join(", ")
                ))
            }
            Some(w) => Err(format!(
                "`action_{name}` with `{w}` takes {}",
                card_need(decl, Some(w))
            )),
        };
    }
    if word.is_some() {
        return Err(format!("`action_{name}` takes no `{name}` word"));
    }
    Err(format!("`action_{name}` takes {}", card_need(decl, None)))
}

fn card_count(form: &[ArgDomain]) -> usize {
    form.iter()
        .filter(|d| !matches!(d, ArgDomain::Word(_)))
        .count()
}

fn card_need(decl: &ActionDecl, word: Option<&str>) -> String {
    let mut counts: Vec<usize> = decl
        .forms
        .iter()
        .filter(|f| match f.args.first() {
            Some(ArgDomain::Word(w)) => Some(w.as_str()) == word,
            _ => word.is_none(),
        })
        .map(|f| card_count(&f.args))
        .collect();
    counts.sort_unstable();
    counts.dedup();
    let texts: Vec<String> = counts
        .iter()
        .map(|n| match n {
            0 => "no card".to_string(),
            1 => "a `card`".to_string(),
            _ => "`card1` and `card2`".to_string(),
        })
        .collect();
    texts.join(" or ")
}

/// A card argument: `{"id": …}` or `{"idx": N, "user": {"id": …}}`; both must agree.
fn card_arg(game: &Game, sender: Seat, card: &Json) -> Result<Arg, String> {
    let Some(object) = card.as_object() else {
        return Err(format!(
            "a card is {{\"id\": \"…\"}} or {{\"idx\": N, \"user\": {{\"id\": \"…\"}}}}, not {card}"
        ));
    };
    let state = &game.state;
    let owner = match object.get("user") {
        None | Some(Json::Null) => None,
        Some(user) => {
            let Some(name) = user.get("id").and_then(Json::as_str) else {
                return Err("a card's `user` is {\"id\": \"<player>\"}".into());
            };
            Some(state.seat_of(name).ok_or_else(|| {
                format!(
                    "there is no player `{name}`: the players are {}",
                    state.players.join(", ")
                )
            })?)
        }
    };
    let idx = match object.get("idx") {
        None | Some(Json::Null) => None,
        Some(n) => Some(
            n.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| format!("a card's `idx` is a slot number from 0, not {n}"))?,
        ),
    };
    match object.get("id") {
        None | Some(Json::Null) => {
            let Some(slot) = idx else {
                return Err("a card needs its `id` (or an `idx` in a hand)".into());
            };
            Ok(Arg::Slot {
                seat: owner.unwrap_or(sender),
                slot,
            })
        }
        Some(Json::String(id)) => {
            let found = game
                .card_from_id(id)
                .ok_or_else(|| format!("no card has the id `{id}` now"))?;
            let loc = state.card(found).map_err(|e| e.to_string())?.loc;
            let Loc::Hand { seat, slot } = loc else {
                return Err(format!("card `{id}` is not in a hand"));
            };
            let slot = u32::from(slot);
            if let Some(given) = idx
                && given != slot
            {
                return Err(format!("card `{id}` is at idx {slot}, not {given}"));
            }
            if let Some(given) = owner
                && given != seat
            {
                return Err(format!(
                    "card `{id}` is in {}'s hand, not {}'s",
                    state.players[seat.index()],
                    state.players[given.index()]
                ));
            }
            Ok(Arg::Slot { seat, slot })
        }
        Some(other) => Err(format!("a card's `id` is a string, not {other}")),
    }
}

/// The message that sends `action` (its player is the connection's).
pub fn action_message(game: &Game, action: &Action) -> Json {
    let mut message = serde_json::Map::new();
    message.insert("type".into(), json!(format!("action_{}", action.name)));
    let cards: Vec<Json> = action
        .args
        .iter()
        .filter_map(|arg| match arg {
            Arg::Word(w) => {
                message.insert(action.name.to_string(), json!(w));
                None
            }
            Arg::Drawn => Some(json!("drawn")),
            Arg::Slot { seat, slot } => {
                let mut card = json!({
                    "idx": slot,
                    "user": { "id": game.state.players.get(seat.index()) },
                });
                if let Some(id) = usize::try_from(*slot)
                    .ok()
                    .and_then(|s| game.state.slot(*seat, s).ok().flatten())
                    .and_then(|c| game.state.card(c).ok())
                {
                    card["id"] = json!(crate::kernel::event::public_id_text(id.public_id));
                }
                Some(card)
            }
            Arg::Card(c) => game
                .state
                .card(*c)
                .ok()
                .map(|c| json!({ "id": crate::kernel::event::public_id_text(c.public_id) })),
            Arg::Int(n) => Some(json!(n)),
            Arg::Float(x) => Some(json!(x)),
        })
        .collect();
    match cards.len() {
        0 => {}
        1 => {
            message.insert("card".into(), cards[0].clone());
        }
        _ => {
            for (i, card) in cards.into_iter().enumerate() {
                message.insert(format!("card{}", i + 1), card);
            }
        }
    }
    Json::Object(message)
}

/// One message a client may send, as documentation.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MessageForm {
    /// The action.
    pub action: String,
    /// The message, with placeholders for card ids (`"…"`).
    pub message: String,
    /// The action's doc from `variant.yaml`.
    pub doc: String,
}

/// Every message form a client of this variant may send, in `variant.yaml`'s order.
pub fn message_forms(
    table: &Table,
    docs: &std::collections::BTreeMap<String, String>,
) -> Vec<MessageForm> {
    let mut out = Vec::new();
    for decl in &table.actions {
        let doc = docs.get(&*decl.name).cloned().unwrap_or_default();
        for form in &decl.forms {
            let mut message = format!("{{\"type\": \"action_{}\"", decl.name);
            let cards = card_count(&form.args);
            let mut card = 0;
            for domain in &form.args {
                if let ArgDomain::Word(w) = domain {
                    message.push_str(&format!(", \"{}\": \"{w}\"", decl.name));
                    continue;
                }
                card += 1;
                let field = if cards == 1 {
                    "card".to_string()
                } else {
                    format!("card{card}")
                };
                let value = match domain {
                    ArgDomain::Drawn => "\"drawn\"",
                    _ => "{\"id\": \"…\"}",
                };
                message.push_str(&format!(", \"{field}\": {value}"));
            }
            message.push('}');
            out.push(MessageForm {
                action: decl.name.to_string(),
                message,
                doc: doc.clone(),
            });
        }
    }
    out
}

/// The messages the server sends: the variant's events (rendered per player by the kernel)
/// and the host's own.
pub fn server_messages(table: &Table) -> Vec<String> {
    let mut out: Vec<String> = table.events.iter().map(|e| e.to_string()).collect();
    out.extend(
        ["private_sync_state", "private_actions", "error"]
            .iter()
            .map(|s| s.to_string()),
    );
    out
}

/// The README's message list for these variants, as Markdown (generated, checked by a test).
pub fn markdown(variants: &[(&Table, &std::collections::BTreeMap<String, String>)]) -> String {
    let mut out = String::new();
    for (table, docs) in variants {
        out.push_str(&format!("#### {}\n\n", table.variant));
        out.push_str("| client sends | what it does |\n|---|---|\n");
        for form in message_forms(table, docs) {
            out.push_str(&format!(
                "| `{}` | {} |\n",
                form.message,
                form.doc.replace('|', "\\|")
            ));
        }
        let events: Vec<String> = server_messages(table)
            .iter()
            .map(|e| format!("`{e}`"))
            .collect();
        out.push_str(&format!("\nThe server sends: {}.\n\n", events.join(", ")));
    }
    out
}
