//! Unit tests of step parsing: typed bodies, spans, kinds and the closest-form hints.

use super::*;
use crate::kernel::{Face, Rank, Suit};
use crate::spec::ast::{ArgExpr, Literal};

fn body(text: &str, kind: StepKind) -> StepBody {
    match parse_step_body(text, 0, kind) {
        Ok(body) => body,
        Err(p) => panic!("{text}: {p:?}"),
    }
}

fn problem(text: &str, kind: StepKind) -> Problem {
    match parse_step_body(text, 0, kind) {
        Ok(body) => panic!("{text} parsed: {body:?}"),
        Err(p) => p,
    }
}

fn face(rank: u8, suit: Suit) -> Face {
    Face::new(Rank(rank), suit)
}

#[test]
fn placeholders_are_found_with_spans() {
    let found = placeholders("<player> holds <card>, <a b> and <>, <x", 10);
    let names: Vec<&str> = found.iter().map(|p| p.node.as_str()).collect();
    assert_eq!(names, ["player", "card", "a b"]);
    assert_eq!(found[1].span, Span::new(25, 31));
}

#[test]
fn substitute_replaces_known_columns_only() {
    let cell = |s: &str| Spanned::new(s.to_string(), Span::default());
    let header = Row {
        span: Span::default(),
        cells: vec![cell("player"), cell("card")],
    };
    let row = Row {
        span: Span::default(),
        cells: vec![cell("bob"), cell("7S")],
    };
    assert_eq!(
        substitute("<player> holds <card>, <other>", &header, &row),
        "bob holds 7S, <other>"
    );
}

#[test]
fn fixed_forms_win_over_properties() {
    assert_eq!(
        body("ann's slot 2 is KH", StepKind::Then),
        StepBody::SlotIs {
            player: Spanned::new("ann".into(), Span::new(0, 3)),
            slot: 2,
            card: Some(face(13, Suit::Hearts)),
        }
    );
    assert!(matches!(
        body("ann's slot 2 is empty", StepKind::Then),
        StepBody::SlotIs { card: None, .. }
    ));
    assert!(matches!(
        body("ann's score is -3", StepKind::Then),
        StepBody::ScoreIs { .. }
    ));
    assert!(
        matches!(body("the discard pile is empty", StepKind::Then), StepBody::DiscardPileIs(v) if v.is_empty())
    );
    assert!(matches!(
        body("the game is not over", StepKind::Then),
        StepBody::NotOver
    ));
    match body("the discard pile sealed is true", StepKind::Then) {
        StepBody::Property {
            player: None,
            name,
            value,
        } => {
            assert_eq!(name.node, "discard pile sealed");
            assert_eq!(value.node, Literal::Bool(true));
        }
        other => panic!("{other:?}"),
    }
    // `the game is …` is reserved for the fixed forms.
    assert_eq!(
        problem("the game is lost", StepKind::Then).message,
        "unknown step"
    );
}

#[test]
fn time_is_exact_in_milliseconds() {
    assert_eq!(
        body("5 seconds pass", StepKind::When),
        StepBody::TimePasses { millis: 5000 }
    );
    assert_eq!(
        body("1 second passes", StepKind::When),
        StepBody::TimePasses { millis: 1000 }
    );
    assert_eq!(
        body("2.5 seconds pass", StepKind::When),
        StepBody::TimePasses { millis: 2500 }
    );
    assert_eq!(
        body("0.001 seconds pass", StepKind::When),
        StepBody::TimePasses { millis: 1 }
    );
    assert_eq!(
        problem("-1 seconds pass", StepKind::When).message,
        "time cannot run backwards"
    );
    assert!(
        problem("0.0005 seconds pass", StepKind::When)
            .message
            .contains("finer")
    );
}

#[test]
fn action_arguments_are_typed() {
    let StepBody::Does { action, .. } = body(
        "ann does swap slot 0 and bob's slot 1, drawn 7S -1 left",
        StepKind::When,
    ) else {
        panic!("not does")
    };
    assert_eq!(action.name.node, "swap");
    let args: Vec<ArgExpr> = action.args.into_iter().map(|a| a.node).collect();
    assert_eq!(
        args,
        [
            ArgExpr::Slot {
                owner: None,
                slot: 0
            },
            ArgExpr::Slot {
                owner: Some(Spanned::new("bob".into(), Span::new(25, 28))),
                slot: 1
            },
            ArgExpr::Drawn,
            ArgExpr::Card(face(7, Suit::Spades)),
            ArgExpr::Number("-1".into()),
            ArgExpr::Word("left".into()),
        ]
    );
}

#[test]
fn spans_are_offset() {
    let StepBody::Holds { player, cards } =
        parse_step_body("ann holds 7S, _", 100, StepKind::Given).expect("ok")
    else {
        panic!("not holds")
    };
    assert_eq!(player.span, Span::new(100, 103));
    assert_eq!(cards[1].span, Span::new(114, 115));
    let p = problem("ann holds 7S, 1S", StepKind::Given);
    assert_eq!(
        (p.message.as_str(), p.span),
        ("`1S` is not a card", Span::new(14, 16))
    );
    assert_eq!(
        p.help.as_deref(),
        Some("did you mean `AS`? (an ace is written `A`)")
    );
}

#[test]
fn kinds_are_checked() {
    let p = problem("ann does snap 9C", StepKind::Then);
    assert_eq!(
        p.message,
        "`<player> does <action> [<args>]` is a When step, not a Then step"
    );
    assert_eq!(p.help.as_deref(), Some("write `When ann does snap 9C`"));
    let p = problem("ann holds 7S, ?", StepKind::Given);
    assert_eq!(p.message, "`?` (any card) is only for Then steps");
    assert!(matches!(
        body("ann holds 7S, ?", StepKind::Then),
        StepBody::Holds { .. }
    ));
}

#[test]
fn unknown_steps_name_the_closest_form() {
    let cases = [
        (
            "ann hodls 7S, KH",
            StepKind::Given,
            "`<player> holds <card>, <card>, …`",
            "hodls",
        ),
        (
            "ann hold 5 cards",
            StepKind::Then,
            "`<player> holds <n> cards`",
            "hold",
        ),
        (
            "the draw pile is 5C 9H",
            StepKind::Given,
            "`the draw pile is <card>, <card>, …`",
            "9H",
        ),
        ("teh seed is 4", StepKind::Given, "`the seed is <n>`", "teh"),
        (
            "the game is lost",
            StepKind::Then,
            "`the game is over`",
            "lost",
        ),
        (
            "ann snaps 9C",
            StepKind::When,
            "`<player> does <action> [<args>]`",
            "snaps",
        ),
        (
            "only ann and bob see x",
            StepKind::Then,
            "`only <player> sees <event> [with <field> <value>] [<n> times]`",
            "and",
        ),
        ("time run out", StepKind::When, "`time runs out`", "run"),
        (
            "ann does",
            StepKind::When,
            "`<player> does <action> [<args>]`",
            "does",
        ),
        (
            "ann holds 5 cards",
            StepKind::When,
            "`Then <player> holds <n> cards`",
            "",
        ),
    ];
    for (text, kind, template, word) in cases {
        let p = parse_step_body(text, 0, kind).expect_err(text);
        if word.is_empty() && p.message != "unknown step" {
            continue;
        }
        assert_eq!(p.message, "unknown step", "{text}");
        assert_eq!(p.help, Some(format!("did you mean {template}?")), "{text}");
        assert_eq!(&text[p.span.start..p.span.end], word, "{text}");
    }
}

#[test]
fn house_rule_values() {
    let value = |text: &str| match body(text, StepKind::Given) {
        StepBody::HouseRule { value, .. } => value.node,
        other => panic!("{other:?}"),
    };
    assert_eq!(value("the house rule a is true"), Literal::Bool(true));
    assert_eq!(
        value("the house rule a is -2.5"),
        Literal::Number("-2.5".into())
    );
    assert_eq!(value("the house rule a is AS"), Literal::Word("AS".into()));
    assert_eq!(
        value("the house rule a is [0, 1]"),
        Literal::List(vec![
            Literal::Number("0".into()),
            Literal::Number("1".into())
        ])
    );
    assert_eq!(
        problem("the house rule a is 1S", StepKind::Given).message,
        "`1S` is not a house-rule value"
    );
}
