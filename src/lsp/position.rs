//! Byte offsets in a text and the protocol's positions (a line and a column in UTF-16 code units,
//! the encoding every client speaks), both ways.

use lsp_types::{Position, Range};

/// The position of byte `offset` of `text` (past the end: the end).
pub fn position(text: &str, offset: usize) -> Position {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column: usize = before[line_start..].chars().map(char::len_utf16).sum();
    Position {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        character: u32::try_from(column).unwrap_or(u32::MAX),
    }
}

/// The range of bytes `start..end` of `text`.
pub fn range(text: &str, start: usize, end: usize) -> Range {
    Range {
        start: position(text, start),
        end: position(text, end.max(start)),
    }
}

/// The byte offset of `at` in `text`: a column past its line's end is the line's end, a line past
/// the text's end is the end.
pub fn offset(text: &str, at: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..at.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| line_start + i);
    let mut units = 0u32;
    for (i, c) in text[line_start..line_end].char_indices() {
        if units >= at.character {
            return line_start + i;
        }
        units += u32::try_from(c.len_utf16()).unwrap_or(2);
    }
    line_end
}

/// The last character boundary of `text` at or before byte `at`.
pub(super) fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_round_trip() {
        let text = "Feature: ♠ and 😀\n  Scenario: s\r\n";
        let smile = text.find('😀').unwrap();
        assert_eq!(position(text, smile), Position::new(0, 15));
        assert_eq!(offset(text, Position::new(0, 15)), smile);
        // After the emoji: two UTF-16 units on.
        assert_eq!(position(text, smile + 4), Position::new(0, 17));
        let s = text.find("Scenario").unwrap();
        assert_eq!(position(text, s), Position::new(1, 2));
        assert_eq!(offset(text, Position::new(1, 2)), s);
        // Past a line's end (before its CR), past the text's end.
        assert_eq!(offset(text, Position::new(1, 99)), text.len() - 2);
        assert_eq!(offset(text, Position::new(9, 0)), text.len());
    }
}
