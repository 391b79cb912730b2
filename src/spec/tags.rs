//! Tag expressions for `--tags` (Cucumber style: `@fast`, `not @slow`, `@a or (@b and not @c)`).
//!
//! The grammar is `grammar/tags.pest`; `not` binds tighter than `and`, `and` tighter than `or`.

use super::limits::MAX_NESTING;
use pest::Parser as _;
use pest::error::InputLocation;
use pest::iterators::Pair;
use std::fmt;
use std::str::FromStr;

mod grammar {
    //! The pest parser generated from `grammar/tags.pest`.
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar/tags.pest"]
    pub struct TagParser;
}

use grammar::{Rule, TagParser};

/// A parsed tag expression; `matches` decides whether a scenario with some tags is selected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagExpr {
    node: Node,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    /// A tag name, without the `@`.
    Tag(String),
    Not(Box<Node>),
    And(Vec<Node>),
    Or(Vec<Node>),
}

impl TagExpr {
    /// Parse an expression such as `@fast and not @slow`. The error is one line for the CLI.
    pub fn parse(s: &str) -> Result<TagExpr, String> {
        // The grammar reads groups recursively: refuse deep nesting before parsing.
        let mut depth = 0usize;
        for (at, c) in s.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => continue,
            }
            if depth > MAX_NESTING {
                let column = s[..at].chars().count() + 1;
                return Err(format!(
                    "invalid tag expression: parentheses nest more than {MAX_NESTING} deep at column {column}"
                ));
            }
        }
        let mut pairs = TagParser::parse(Rule::tag_expr, s).map_err(|e| describe_error(s, &e))?;
        let node = pairs
            .next()
            .and_then(|top| top.into_inner().find(|p| p.as_rule() == Rule::or_expr))
            .and_then(build)
            .ok_or_else(|| format!("invalid tag expression `{s}`"))?;
        Ok(TagExpr { node })
    }

    /// Whether a scenario with these tags (names without `@`) is selected.
    pub fn matches(&self, tags: &[&str]) -> bool {
        self.node.matches(tags)
    }
}

impl FromStr for TagExpr {
    type Err = String;

    fn from_str(s: &str) -> Result<TagExpr, String> {
        TagExpr::parse(s)
    }
}

impl Node {
    fn matches(&self, tags: &[&str]) -> bool {
        match self {
            Node::Tag(name) => tags.contains(&name.as_str()),
            Node::Not(inner) => !inner.matches(tags),
            Node::And(parts) => parts.iter().all(|p| p.matches(tags)),
            Node::Or(parts) => parts.iter().any(|p| p.matches(tags)),
        }
    }

    /// Precedence for printing: 0 `or`, 1 `and`, 2 `not` and tags.
    fn precedence(&self) -> u8 {
        match self {
            Node::Or(_) => 0,
            Node::And(_) => 1,
            Node::Not(_) | Node::Tag(_) => 2,
        }
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, min: u8) -> fmt::Result {
        let parens = self.precedence() < min;
        if parens {
            f.write_str("(")?;
        }
        match self {
            Node::Tag(name) => write!(f, "@{name}")?,
            Node::Not(inner) => {
                f.write_str("not ")?;
                inner.write(f, 2)?;
            }
            Node::And(parts) | Node::Or(parts) => {
                let (op, level) = if matches!(self, Node::And(_)) {
                    (" and ", 2)
                } else {
                    (" or ", 1)
                };
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(op)?;
                    }
                    part.write(f, level)?;
                }
            }
        }
        if parens {
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// The canonical text of the expression, with parentheses only where needed.
impl fmt::Display for TagExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.node.write(f, 0)
    }
}

/// Build a node from an `or_expr`, `and_expr`, `not_expr` or `tag` pair.
fn build(pair: Pair<'_, Rule>) -> Option<Node> {
    match pair.as_rule() {
        Rule::tag => Some(Node::Tag(pair.as_str().trim_start_matches('@').to_string())),
        Rule::or_expr | Rule::and_expr => {
            let is_or = pair.as_rule() == Rule::or_expr;
            let mut parts = pair
                .into_inner()
                .filter(|p| matches!(p.as_rule(), Rule::and_expr | Rule::not_expr))
                .map(build)
                .collect::<Option<Vec<Node>>>()?;
            if parts.len() == 1 {
                return parts.pop();
            }
            Some(if is_or {
                Node::Or(parts)
            } else {
                Node::And(parts)
            })
        }
        Rule::not_expr => {
            let mut nots = 0;
            let mut node = None;
            for inner in pair.into_inner() {
                match inner.as_rule() {
                    Rule::not_op => nots += 1,
                    Rule::tag | Rule::or_expr => node = build(inner),
                    _ => {}
                }
            }
            // `not not @a` is `@a`: only the parity of a run of `not`s matters.
            let node = node?;
            Some(if nots % 2 == 1 {
                Node::Not(Box::new(node))
            } else {
                node
            })
        }
        _ => None,
    }
}

/// A one-line message for a syntax error: where, what was expected, and what was found.
fn describe_error(s: &str, e: &pest::error::Error<Rule>) -> String {
    let pos = match e.location {
        InputLocation::Pos(p) | InputLocation::Span((p, _)) => p.min(s.len()),
    };
    let column = s[..pos].chars().count() + 1;
    let rest = &s[pos..];
    let found_word: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '(' && *c != ')')
        .collect();
    let found = match rest.chars().next() {
        None => "the end".to_string(),
        Some(c @ ('(' | ')')) => format!("`{c}`"),
        Some(_) => format!("`{found_word}`"),
    };
    let mut expected: Vec<&str> = Vec::new();
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &e.variant {
        for rule in positives {
            let name = match rule {
                Rule::tag => "a tag such as `@fast`",
                Rule::not_op => "`not`",
                Rule::open_paren => "`(`",
                Rule::and_op => "`and`",
                Rule::or_op => "`or`",
                Rule::close_paren => "`)`",
                Rule::EOI => "the end",
                _ => continue,
            };
            if !expected.contains(&name) {
                expected.push(name);
            }
        }
    }
    // Wherever a tag may come, so may `not` and `(`.
    if expected.contains(&"a tag such as `@fast`") {
        for also in ["`not`", "`(`"] {
            if !expected.contains(&also) {
                expected.push(also);
            }
        }
    }
    let order = [
        "a tag such as `@fast`",
        "`not`",
        "`(`",
        "`and`",
        "`or`",
        "`)`",
        "the end",
    ];
    expected.sort_by_key(|e| order.iter().position(|o| o == e));
    let expected = match expected.as_slice() {
        [] => "a tag such as `@fast`, `not` or `(`".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    };
    let mut message = format!(
        "invalid tag expression `{s}`: expected {expected} at column {column}, found {found}"
    );
    let bare = !found_word.is_empty()
        && found_word
            .chars()
            .all(|c| c.is_alphanumeric() || "_-:.".contains(c))
        && !["and", "or", "not"].contains(&found_word.as_str());
    if bare {
        message.push_str(&format!(" (tags start with `@`: `@{found_word}`)"));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(expr: &str, tags: &[&str]) -> bool {
        TagExpr::parse(expr)
            .expect("a valid expression")
            .matches(tags)
    }

    #[test]
    fn single_tags_and_not() {
        assert!(m("@fast", &["fast"]));
        assert!(!m("@fast", &["slow"]));
        assert!(!m("@fast", &[]));
        assert!(m("not @slow", &["fast"]));
        assert!(!m("not @slow", &["slow", "fast"]));
        assert!(m("not not @a", &["a"]));
        assert!(m("@rule:CAM-SNAP-3", &["rule:CAM-SNAP-3"]));
    }

    #[test]
    fn precedence_is_not_then_and_then_or() {
        // @a or @b and @c == @a or (@b and @c)
        assert!(m("@a or @b and @c", &["a"]));
        assert!(!m("@a or @b and @c", &["b"]));
        assert!(m("@a or @b and @c", &["b", "c"]));
        // not @a and @b == (not @a) and @b
        assert!(m("not @a and @b", &["b"]));
        assert!(!m("not @a and @b", &["a", "b"]));
        assert!(!m("not @a and @b", &[]));
        assert!(m("@a or (@b and not @c)", &["b"]));
        assert!(!m("@a or (@b and not @c)", &["b", "c"]));
        assert!(m("(@a or @b) and @c", &["b", "c"]));
        assert!(!m("(@a or @b) and @c", &["a"]));
    }

    #[test]
    fn display_is_canonical() {
        let show = |s: &str| TagExpr::parse(s).expect("valid").to_string();
        assert_eq!(show("@a or @b and not @c"), "@a or @b and not @c");
        assert_eq!(show("(@a or @b) and @c"), "(@a or @b) and @c");
        assert_eq!(show("not (@a and @b)"), "not (@a and @b)");
        assert_eq!(show("((@a))"), "@a");
        assert_eq!(show("  @a   and\t@b "), "@a and @b");
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = |n: usize| format!("{}@a{}", "(".repeat(n), ")".repeat(n));
        assert!(m(&deep(MAX_NESTING), &["a"]));
        assert_eq!(
            TagExpr::parse(&deep(5000)).expect_err("too deep"),
            "invalid tag expression: parentheses nest more than 32 deep at column 33"
        );
        // A long run of `not`s is no deeper than one.
        let nots = format!("{}@a", "not ".repeat(100_001));
        assert!(m(&nots, &[]));
        assert!(!m(&nots, &["a"]));
    }

    #[test]
    fn errors_say_where_and_what() {
        let err = |s: &str| TagExpr::parse(s).expect_err("invalid");
        assert_eq!(
            err("@a and"),
            "invalid tag expression `@a and`: expected a tag such as `@fast`, `not` or `(` at column 7, found the end"
        );
        assert_eq!(
            err("@a @b"),
            "invalid tag expression `@a @b`: expected `and`, `or` or the end at column 4, found `@b`"
        );
        assert!(
            err("fast").ends_with("(tags start with `@`: `@fast`)"),
            "{}",
            err("fast")
        );
        assert!(err("(@a").contains("`)`"), "{}", err("(@a"));
        assert!(err("").contains("found the end"));
        assert!(
            err("@a andnot @b").contains("column 4"),
            "{}",
            err("@a andnot @b")
        );
    }
}
