//! `deckspec fmt`: a `.feature` file laid out one way. Headers, steps, tables and doc strings are
//! indented by what they belong to (two spaces a level), table columns are aligned, tags and
//! comments sit at the indentation of what follows them, runs of blank lines become one and
//! trailing spaces go. Only a file that parses is formatted, and the result must parse to the
//! same scenarios (spans aside): formatting never changes what a file says.

use super::grammar::{Rule, ScenarioParser};
use super::parse_feature;
use crate::spec::diag::Problem;
use pest::Parser as _;
use pest::iterators::Pair;
use unicode_width::UnicodeWidthStr;

/// Why a file was not formatted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FormatError {
    /// It does not parse: formatting it could only guess.
    #[error("the file does not parse ({} problem(s)): `deckspec check` shows them", .0.len())]
    Unparsed(Vec<Problem>),
    /// The formatted text would say something else: a formatter bug, reported rather than written.
    #[error(
        "formatting would change what the file says (a deckspec bug; the file is left as it is)"
    )]
    Changed,
}

/// What a line of the file is, as the file grammar reads it.
#[derive(Clone, Debug, PartialEq)]
enum Item {
    Blank,
    Comment(String),
    Tags(String),
    /// A header: its kind and its text as it is to be written (`Scenario: a title`).
    Header(Header, String),
    Step(String),
    /// A table row's cells, trimmed.
    Row(Vec<String>),
    /// A doc string: its lines after the opening quotes' indentation is taken off (the opening
    /// and closing lines included).
    Doc(Vec<String>),
    /// Description text, trimmed.
    Text(String),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Header {
    Feature,
    Rule,
    Scenario,
    Examples,
}

/// `src` laid out as `deckspec fmt` lays out every file.
pub fn format_feature(src: &str) -> Result<String, FormatError> {
    let before = parse_feature(src).map_err(FormatError::Unparsed)?;
    let (bom, body) = match src.strip_prefix('\u{FEFF}') {
        Some(rest) => ("\u{FEFF}", rest),
        None => ("", src),
    };
    // The file's first line break is written for every line; the grammar reads `\r\n`, `\n` and
    // a lone `\r` alike, so each becomes one `\n` first.
    let newline = match body.find(['\n', '\r']) {
        Some(i) if body[i..].starts_with("\r\n") => "\r\n",
        _ => "\n",
    };
    let body = body.replace("\r\n", "\n").replace('\r', "\n");
    let items = items(&body);
    let lines = layout(&items);
    let mut out = String::with_capacity(src.len() + 64);
    out.push_str(bom);
    for line in &lines {
        out.push_str(line);
        out.push_str(newline);
    }
    let after = parse_feature(&out).map_err(|_| FormatError::Changed)?;
    if shape(&format!("{before:?}")) != shape(&format!("{after:?}")) {
        return Err(FormatError::Changed);
    }
    Ok(out)
}

/// Each line of the file, classified (a doc string is one item for all its lines).
fn items(src: &str) -> Vec<Item> {
    let mut out = Vec::new();
    let Ok(mut pairs) = ScenarioParser::parse(Rule::file, src) else {
        return out; // the file grammar accepts every text; parse_feature has checked it
    };
    let Some(file) = pairs.next() else {
        return out;
    };
    // The line after the last item: the lines in between are blank.
    let mut next_line = 1;
    for pair in file.into_inner() {
        if pair.as_rule() == Rule::EOI {
            continue;
        }
        let (line, _) = pair.line_col();
        for _ in next_line..line {
            out.push(Item::Blank);
        }
        let lines_spanned = pair.as_str().lines().count().max(1);
        next_line = line + lines_spanned;
        out.push(item(pair, src));
    }
    out
}

fn item(pair: Pair<'_, Rule>, src: &str) -> Item {
    let text = pair.as_str().trim_end();
    match pair.as_rule() {
        Rule::comment => Item::Comment(text.to_string()),
        Rule::tags_line => {
            let mut tags: Vec<&str> = Vec::new();
            let mut comment = None;
            for inner in pair.into_inner() {
                match inner.as_rule() {
                    Rule::tag => tags.push(inner.as_str()),
                    Rule::comment => comment = Some(inner.as_str().trim_end()),
                    _ => {}
                }
            }
            let mut line = tags.join(" ");
            if let Some(c) = comment {
                line.push(' ');
                line.push_str(c);
            }
            Item::Tags(line)
        }
        rule @ (Rule::feature_line
        | Rule::rule_line
        | Rule::background_line
        | Rule::outline_line
        | Rule::scenario_line
        | Rule::examples_line) => {
            let header = match rule {
                Rule::feature_line => Header::Feature,
                Rule::rule_line => Header::Rule,
                Rule::examples_line => Header::Examples,
                _ => Header::Scenario,
            };
            let colon = text.find(':').unwrap_or(text.len());
            // The keyword as written (`Scenario Outline`, `Example`), one space inside it.
            let keyword = text[..colon]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let title = text.get(colon + 1..).unwrap_or("").trim();
            let line = match title.is_empty() {
                true => format!("{keyword}:"),
                false => format!("{keyword}: {title}"),
            };
            Item::Header(header, line)
        }
        Rule::step_line => {
            let mut keyword = "";
            let mut rest = "";
            for inner in pair.into_inner() {
                match inner.as_rule() {
                    Rule::step_keyword => keyword = inner.as_str(),
                    Rule::step_text => rest = inner.as_str().trim(),
                    _ => {}
                }
            }
            Item::Step(match rest.is_empty() {
                true => keyword.to_string(),
                false => format!("{keyword} {rest}"),
            })
        }
        Rule::table_row => Item::Row(
            pair.into_inner()
                .filter(|p| p.as_rule() == Rule::cell)
                .map(|c| c.as_str().trim_matches([' ', '\t']).to_string())
                .collect(),
        ),
        Rule::doc_string => {
            // Each line loses as much leading space as the opening quotes stand in, as the
            // parser reads it: written back under a new indentation, it says the same.
            let start = pair.as_span().start();
            let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
            let indent = start - line_start;
            let lines = pair
                .as_str()
                .split('\n')
                .enumerate()
                .map(|(i, l)| {
                    if i == 0 {
                        return l.trim_end().to_string();
                    }
                    let strip = l
                        .bytes()
                        .take(indent)
                        .take_while(|b| *b == b' ' || *b == b'\t')
                        .count();
                    l[strip..].to_string()
                })
                .collect();
            Item::Doc(lines)
        }
        _ => Item::Text(text.trim_start().to_string()),
    }
}

/// The lines of the formatted file, without line breaks.
fn layout(items: &[Item]) -> Vec<String> {
    let indents = indents(items);
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let pad = " ".repeat(indents[i]);
        match &items[i] {
            Item::Blank => {
                // One blank line at most, none at the start or the end.
                let next_is_text = items[i..].iter().any(|it| *it != Item::Blank);
                if out.last().is_some_and(|l| !l.is_empty()) && next_is_text {
                    out.push(String::new());
                }
            }
            Item::Row(_) => {
                let end = items[i..]
                    .iter()
                    .position(|it| !matches!(it, Item::Row(_)))
                    .map_or(items.len(), |n| i + n);
                let rows: Vec<&Vec<String>> = items[i..end]
                    .iter()
                    .filter_map(|it| match it {
                        Item::Row(cells) => Some(cells),
                        _ => None,
                    })
                    .collect();
                let columns = rows.iter().map(|r| r.len()).max().unwrap_or(0);
                let widths: Vec<usize> = (0..columns)
                    .map(|c| {
                        rows.iter()
                            .filter_map(|r| r.get(c))
                            .map(|cell| cell.width())
                            .max()
                            .unwrap_or(0)
                    })
                    .collect();
                for row in rows {
                    let mut line = format!("{pad}|");
                    for (c, cell) in row.iter().enumerate() {
                        let fill = widths[c].saturating_sub(cell.width());
                        line.push(' ');
                        line.push_str(cell);
                        line.push_str(&" ".repeat(fill));
                        line.push_str(" |");
                    }
                    out.push(line);
                }
                i = end;
                continue;
            }
            Item::Doc(lines) => {
                for (n, line) in lines.iter().enumerate() {
                    let is_quote_line = n == 0 || n + 1 == lines.len();
                    match (is_quote_line, line.is_empty()) {
                        (_, true) => out.push(String::new()),
                        (true, false) => out.push(format!("{pad}{}", line.trim_start())),
                        // Content keeps its own spaces, trailing ones too.
                        (false, false) => out.push(format!("{pad}{line}")),
                    }
                }
            }
            Item::Comment(t)
            | Item::Tags(t)
            | Item::Header(_, t)
            | Item::Step(t)
            | Item::Text(t) => out.push(format!("{pad}{t}")),
        }
        i += 1;
    }
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// Each item's indentation: by what it belongs to; tags and comments take that of what follows.
fn indents(items: &[Item]) -> Vec<usize> {
    let mut out = vec![0; items.len()];
    let mut in_rule = false;
    // The indentation of the last header's body, and of a table or doc string under it.
    let mut body = 2;
    let mut under = 4;
    for (i, item) in items.iter().enumerate() {
        out[i] = match item {
            Item::Header(Header::Feature, _) => {
                in_rule = false;
                (body, under) = (2, 4);
                0
            }
            Item::Header(Header::Rule, _) => {
                in_rule = true;
                (body, under) = (4, 6);
                2
            }
            Item::Header(Header::Scenario, _) => {
                let at = if in_rule { 4 } else { 2 };
                (body, under) = (at + 2, at + 4);
                at
            }
            Item::Header(Header::Examples, _) => {
                let at = if in_rule { 6 } else { 4 };
                (body, under) = (at + 2, at + 2);
                at
            }
            Item::Step(_) => body,
            Item::Text(_) => body,
            Item::Row(_) | Item::Doc(_) => under,
            Item::Blank | Item::Comment(_) | Item::Tags(_) => 0,
        };
    }
    // Tags and comments: the indentation of the next line that is neither (or of the line
    // before them, at the end of the file).
    let mut next: Option<usize> = None;
    for i in (0..items.len()).rev() {
        match items[i] {
            Item::Blank => {}
            Item::Comment(_) | Item::Tags(_) => {
                out[i] = next.unwrap_or_else(|| last_indent(items, &out, i));
            }
            _ => next = Some(out[i]),
        }
    }
    out
}

/// The indentation of the last line before `i` that is not blank, a tag or a comment.
fn last_indent(items: &[Item], indents: &[usize], i: usize) -> usize {
    (0..i)
        .rev()
        .find(|&j| !matches!(items[j], Item::Blank | Item::Comment(_) | Item::Tags(_)))
        .map_or(0, |j| match items[j] {
            // A comment after a table or a doc string lines up with the step it belongs to.
            Item::Row(_) | Item::Doc(_) => indents[j].saturating_sub(2),
            _ => indents[j],
        })
}

/// A parsed file's debug text without its spans: what it says, wherever it says it.
fn shape(debug: &str) -> String {
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let end = after.find(" }").map_or(after.len(), |e| e + 2);
        out.push_str("Span");
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::{FormatError, format_feature};

    #[test]
    fn a_messy_file_is_laid_out_and_a_laid_out_file_stays() {
        let messy = "@cambia\nFeature:   Drawing\n\n\n  Background:\nGiven a cambia game with players ann, bob\n\n @rule:CAM-DRAW-1   @smoke\n      Scenario:ann draws\n  # why\n When ann does draw_stockpile   \n      Then everyone sees player_draw_stockpile with user ann\n";
        let tidy = "@cambia\nFeature: Drawing\n\n  Background:\n    Given a cambia game with players ann, bob\n\n  @rule:CAM-DRAW-1 @smoke\n  Scenario: ann draws\n    # why\n    When ann does draw_stockpile\n    Then everyone sees player_draw_stockpile with user ann\n";
        assert_eq!(format_feature(messy).as_deref(), Ok(tidy));
        assert_eq!(format_feature(tidy).as_deref(), Ok(tidy));
    }

    #[test]
    fn table_columns_line_up_and_doc_strings_keep_their_text() {
        let src = "Feature: f\n  Scenario Outline: o\n    Given a cambia game with players ann, bob\n    When ann does <a>\n    Examples:\n    |a|note|\n    | draw_stockpile | x \\| y |\n";
        let want = "Feature: f\n  Scenario Outline: o\n    Given a cambia game with players ann, bob\n    When ann does <a>\n    Examples:\n      | a              | note   |\n      | draw_stockpile | x \\| y |\n";
        assert_eq!(format_feature(src).as_deref(), Ok(want));
    }

    #[test]
    fn a_file_that_does_not_parse_is_not_formatted() {
        let got = format_feature("Feature: f\n  Scenaro: typo\n");
        assert!(matches!(got, Err(FormatError::Unparsed(p)) if !p.is_empty()));
    }

    #[test]
    fn crlf_and_a_byte_order_mark_are_kept() {
        let src =
            "\u{FEFF}Feature: f\r\n Scenario: s\r\n  Given a cambia game with players ann, bob\r\n";
        let got = format_feature(src).unwrap();
        assert_eq!(
            got,
            "\u{FEFF}Feature: f\r\n  Scenario: s\r\n    Given a cambia game with players ann, bob\r\n"
        );
    }
}
