//! Byte offsets in a text and the protocol's positions (a line and a column in UTF-16 code units,
//! the encoding every client speaks), both ways; the words and lines around an offset; files and
//! their `file:` addresses.

use lsp_types::{Position, Range};
use std::path::{Path, PathBuf};

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

/// A place in a file the server points the editor to: the file, its text and the bytes there.
pub struct Target {
    /// The file (absolute, or relative to the working folder).
    pub path: std::path::PathBuf,
    /// Its text, to turn the bytes into a range.
    pub text: String,
    /// The first byte.
    pub start: usize,
    /// The byte after the last.
    pub end: usize,
}

/// The bytes `start..end` of the word of `text` around byte `at`: letters, digits, `_` and the
/// characters in `also`.
pub fn word_around(text: &str, at: usize, also: &[char]) -> Option<(usize, usize)> {
    let at = floor_char_boundary(text, at.min(text.len()));
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || also.contains(&c);
    let start = text[..at]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(at, |(i, _)| i);
    let end = text[at..]
        .char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(text.len(), |(i, _)| at + i);
    (start < end).then_some((start, end))
}

/// The line of `text` that byte `at` is on: its first byte and the text up to its end.
pub fn line_at(text: &str, at: usize) -> (usize, &str) {
    let at = floor_char_boundary(text, at.min(text.len()));
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find(['\n', '\r']).map_or(text.len(), |i| at + i);
    (start, &text[start..end])
}

/// The last character boundary of `text` at or before byte `at`.
pub fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A path made absolute against the working folder, symlinks followed where it exists.
pub fn absolute(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    std::env::current_dir()
        .map(|d| d.join(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// The file a `file:` address names.
pub fn path_of(uri: &lsp_types::Uri) -> Option<PathBuf> {
    let url = url::Url::parse(uri.as_str()).ok()?;
    let path = url.to_file_path().ok()?;
    Some(absolute(&path))
}

/// The `file:` address of a file.
pub fn uri_of(path: &Path) -> Option<lsp_types::Uri> {
    let url = url::Url::from_file_path(absolute(path)).ok()?;
    url.as_str().parse().ok()
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
