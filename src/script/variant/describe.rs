//! A variant's declarations said in words, as `deckspec info` prints them and an editor shows
//! them: who may send an action and when, its forms (`snap <own slot>`), a house rule's type,
//! default and range.

use super::Variant;
use super::config::HouseRuleDoc;
use crate::kernel::{ActionDecl, Actor, ArgDomain, Guard, HouseRuleType, Table, Value};

/// Who may send an action: `the current player`, `anyone`, `the player in <var>`.
pub fn actor(table: &Table, a: &Actor) -> String {
    match a {
        Actor::Current => "the current player".into(),
        Actor::Anyone => "anyone".into(),
        Actor::Var(i) => format!(
            "the player in {}",
            table.game_vars.get(*i).map_or("?", |v| v.0.as_str())
        ),
    }
}

/// An argument of an action form as a player writes it (`<own slot>`, `skip`).
pub fn arg(a: &ArgDomain) -> String {
    match a {
        ArgDomain::Word(w) => w.clone(),
        ArgDomain::OwnSlot => "<own slot>".into(),
        ArgDomain::OtherSlot => "<other's slot>".into(),
        ArgDomain::AnySlot => "<any slot>".into(),
        ArgDomain::Drawn => "drawn".into(),
    }
}

/// A value as `variant.yaml` writes it (`null` for nothing).
pub fn shown(v: &Value) -> String {
    match v {
        Value::Unit => "null".into(),
        other => other.to_string(),
    }
}

/// A condition of an action or a form (`cambia_caller is null`, `discardpile is not empty`).
pub fn guard(table: &Table, g: &Guard) -> String {
    let name =
        |names: &[(String, Value)], i: usize| names.get(i).map_or("?".to_string(), |n| n.0.clone());
    match g {
        Guard::VarIs(i, v) => format!("{} is {}", name(&table.game_vars, *i), shown(v)),
        Guard::VarIsNot(i, v) => format!("{} is not {}", name(&table.game_vars, *i), shown(v)),
        Guard::HouseIs(i, v) => format!(
            "house rule {} is {}",
            name(&table.house_rules, *i),
            shown(v)
        ),
        Guard::PileNotEmpty(p) => format!(
            "{} is not empty",
            table
                .piles
                .get(p.0 as usize)
                .map_or("?", |p| p.name.as_str())
        ),
        Guard::ActorVarIs(i, v) => {
            format!("their {} is {}", name(&table.player_vars, *i), shown(v))
        }
    }
}

/// Each of an action's forms as a player writes it (`snap <own slot>`), with its conditions.
pub fn forms(table: &Table, action: &ActionDecl) -> Vec<String> {
    action
        .forms
        .iter()
        .map(|f| {
            let mut text = std::iter::once(action.name.to_string())
                .chain(f.args.iter().map(arg))
                .collect::<Vec<_>>()
                .join(" ");
            if !f.guards.is_empty() {
                let when: Vec<String> = f.guards.iter().map(|g| guard(table, g)).collect();
                text.push_str(&format!("  (when {})", when.join(", ")));
            }
            text
        })
        .collect()
}

/// Who may send an action, in which phases and under what conditions: `by the current player,
/// in awaiting_draw, when cambia_caller is null`.
pub fn who_and_when(table: &Table, action: &ActionDecl) -> String {
    let phases = match &action.phases {
        None => "every phase".to_string(),
        Some(ps) => ps
            .iter()
            .map(|p| table.phase_name(*p))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let mut who = format!("by {}, in {phases}", actor(table, &action.actor));
    if !action.guards.is_empty() {
        let when: Vec<String> = action.guards.iter().map(|g| guard(table, g)).collect();
        who.push_str(&format!(", when {}", when.join(", ")));
    }
    who
}

/// A house rule's bounds in words (`1 to 8`, `at least 0`); `None` when it has none.
pub fn range(doc: &HouseRuleDoc) -> Option<String> {
    let n = |x: f64| Value::Float(x).to_string();
    let bounds = match (doc.range.min, doc.range.max) {
        (Some(lo), Some(hi)) => format!("{} to {}", n(lo), n(hi)),
        (Some(lo), None) => format!("at least {}", n(lo)),
        (None, Some(hi)) => format!("at most {}", n(hi)),
        (None, None) => return None,
    };
    // A list's bounds are each entry's.
    Some(match doc.kind {
        HouseRuleType::List => format!("whole numbers {bounds}"),
        _ => bounds,
    })
}

/// A house rule's type in words (`integer`, `choice of a, b`).
pub fn type_text(kind: &HouseRuleType) -> String {
    match kind {
        HouseRuleType::Choice(choices) => format!("choice of {}", choices.join(", ")),
        other => other.name().to_string(),
    }
}

/// A house rule's type, default and range: `integer, default 4, 1 to 8`.
pub fn house_rule_about(h: &HouseRuleDoc) -> String {
    let mut about = format!("{}, default {}", type_text(&h.kind), shown(&h.default));
    if let Some(r) = range(h) {
        about.push_str(&format!(", {r}"));
    }
    about
}

/// An action's doc, who may send it and its forms, as Markdown (for an editor's hover).
pub fn action_markdown(v: &Variant, action: &ActionDecl) -> String {
    let table = v.table();
    let doc = v.action_docs.get(&*action.name).map_or("", String::as_str);
    let forms: Vec<String> = forms(table, action)
        .into_iter()
        .map(|f| format!("- `{f}`"))
        .collect();
    format!(
        "**{}** (an action of {})\n\n{doc}\n\n{}\n\n{}",
        action.name,
        v.name,
        who_and_when(table, action),
        forms.join("\n")
    )
}
