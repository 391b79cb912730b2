//! Diagnostics for scenario files: one problem, where it is, and a hint; rendered by miette at the edge.

use super::ast::Span;
use std::sync::Arc;

/// One problem found in a scenario file (a parse error, an unknown name, a failed check).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Problem {
    /// What is wrong.
    pub message: String,
    /// Where in the file.
    pub span: Span,
    /// The text under the underline.
    pub label: String,
    /// A hint, such as "did you mean `snap`?".
    pub help: Option<String>,
}

impl Problem {
    /// A problem without a hint.
    pub fn new(message: impl Into<String>, span: Span, label: impl Into<String>) -> Problem {
        Problem {
            message: message.into(),
            span,
            label: label.into(),
            help: None,
        }
    }

    /// The same problem with this hint (`None`: without one).
    pub fn with_help(mut self, help: Option<String>) -> Problem {
        self.help = help;
        self
    }
}

/// A problem bound to its file, ready for miette.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{message}")]
pub struct FileDiagnostic {
    /// What is wrong (the problem's message).
    pub message: String,
    /// The file, as the diagnostic names it.
    pub path: String,
    /// The file's whole text.
    pub src: Arc<String>,
    /// Where in `src`.
    pub span: Span,
    /// The text under the underline.
    pub label: String,
    /// A hint, if any.
    pub help: Option<String>,
    /// The lines of `src`, shared by every diagnostic of the file.
    pub lines: Arc<SourceLines>,
}

impl FileDiagnostic {
    /// A diagnostic on its own: indexes the lines of `src` (linear in its size). For the many
    /// problems of one file, index once with [`SourceLines::new`] and use [`FileDiagnostic::with_lines`].
    pub fn new(path: &str, src: Arc<String>, problem: Problem) -> FileDiagnostic {
        let lines = Arc::new(SourceLines::new(&src));
        FileDiagnostic::with_lines(path, src, lines, problem)
    }

    /// A diagnostic on a file whose lines are already indexed.
    pub fn with_lines(
        path: &str,
        src: Arc<String>,
        lines: Arc<SourceLines>,
        problem: Problem,
    ) -> FileDiagnostic {
        FileDiagnostic {
            message: problem.message,
            path: path.to_string(),
            src,
            span: problem.span,
            label: problem.label,
            help: problem.help,
            lines,
        }
    }

    /// 1-based line and column of the start of the span.
    pub fn line_col(&self) -> (usize, usize) {
        self.lines.index.line_col(&self.src, self.span.start)
    }
}

/// The length of the line break at byte `at` of `bytes`: 2 for `\r\n`, 1 for `\n` or a lone `\r`
/// (old Mac files), 0 when there is none. The one definition of a line end for everything that
/// counts lines (the grammar's `NEWLINE` is the same three).
pub fn line_break_len(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b'\n') => 1,
        Some(b'\r') if bytes.get(at + 1) == Some(&b'\n') => 2,
        Some(b'\r') => 1,
        _ => 0,
    }
}

/// Where the lines of a text start, found once, so that a line/column lookup is a binary search
/// and not a count from the start of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of the start of each line; the first is 0.
    starts: Vec<usize>,
    len: usize,
    /// Some line ends with a lone `\r`.
    lone_cr: bool,
}

impl LineIndex {
    /// Index the lines of `src` (linear in its size).
    pub fn new(src: &str) -> LineIndex {
        let bytes = src.as_bytes();
        let mut starts = vec![0];
        let mut lone_cr = false;
        let mut at = 0;
        while let Some(found) = bytes[at..].iter().position(|&b| b == b'\n' || b == b'\r') {
            at += found;
            let len = line_break_len(bytes, at);
            lone_cr |= bytes[at] == b'\r' && len == 1;
            at += len;
            starts.push(at);
        }
        LineIndex {
            starts,
            len: src.len(),
            lone_cr,
        }
    }

    /// The number of lines (a text ending with a line break has an empty last line).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 1-based line of a byte offset; an offset past the end is on the last line.
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset.min(self.len))
    }

    /// The byte offset where a 1-based line starts (the end of the text after the last line).
    pub fn line_start(&self, line: usize) -> usize {
        match line.checked_sub(1).and_then(|i| self.starts.get(i)) {
            Some(&start) => start,
            None if line == 0 => 0,
            None => self.len,
        }
    }

    /// 1-based line and column (in characters) of a byte offset of `src`, the text this index was
    /// built from. An offset inside a character counts as that character.
    pub fn line_col(&self, src: &str, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line(offset);
        let start = self.line_start(line).min(offset);
        (line, src[start..offset].chars().count() + 1)
    }
}

/// 1-based line and column (in characters) of a byte offset. Indexes the whole text: for many
/// lookups in one text, build a [`LineIndex`] once.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(src).line_col(src, offset)
}

/// A file's lines, for its diagnostics: the index, and for a file whose lines end with a lone
/// `\r`, the text with `\n` in their place (same byte offsets), which is what the renderer shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLines {
    /// Where the file's lines start.
    pub index: LineIndex,
    shown: Option<String>,
}

impl SourceLines {
    /// Index the lines of `src` (linear in its size), and copy it only when some line ends with
    /// a lone `\r`.
    pub fn new(src: &str) -> SourceLines {
        let index = LineIndex::new(src);
        let shown = index.lone_cr.then(|| {
            let bytes = src.as_bytes();
            let mut out = String::with_capacity(src.len());
            let mut from = 0;
            for (at, _) in src.match_indices('\r') {
                if line_break_len(bytes, at) == 1 {
                    out.push_str(&src[from..at]);
                    out.push('\n');
                    from = at + 1;
                }
            }
            out.push_str(&src[from..]);
            out
        });
        SourceLines { index, shown }
    }
}

/// The longest line (in bytes) a diagnostic shows as a snippet. The renderer pads to columns, and
/// a column past 65,535 makes it panic; nobody reads such a line on a terminal anyway.
const SHOWN_LINE_BYTES: usize = 1000;

impl FileDiagnostic {
    /// Whether the lines around the span are short enough to be shown.
    fn showable(&self) -> bool {
        let index = &self.lines.index;
        let first = index.line(self.span.start).saturating_sub(1).max(1);
        let last = index.line(self.span.end) + 1;
        (first..=last.min(index.line_count()))
            .all(|line| index.line_start(line + 1) - index.line_start(line) <= SHOWN_LINE_BYTES)
    }
}

impl miette::Diagnostic for FileDiagnostic {
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.showable().then_some(self as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        if !self.showable() {
            return None;
        }
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_primary_with_span(Some(self.label.clone()), self.span),
        )))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        let mut help = self.help.clone();
        if !self.showable() {
            // No snippet: say where, as the snippet's header would.
            let (line, column) = self.line_col();
            let at = format!(
                "at {}:{line}:{column} (the line is too long to show)",
                self.path
            );
            help = Some(match help {
                Some(h) => format!("{at}\n{h}"),
                None => at,
            });
        }
        help.map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }
}

impl miette::SourceCode for FileDiagnostic {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        // Only the lines around the span are handed to miette (which counts lines from the start
        // of what it is given), so rendering one problem does not scan the whole file.
        let text = self.lines.shown.as_deref().unwrap_or(self.src.as_str());
        let index = &self.lines.index;
        let start = span.offset().min(text.len());
        let end = (span.offset() + span.len()).min(text.len()).max(start);
        let first = index.line(start);
        let last = index.line(end.saturating_sub(1).max(start));
        let from_line = first.saturating_sub(context_lines_before).max(1);
        let to_line = last.saturating_add(context_lines_after);
        let window_start = index.line_start(from_line);
        let window_end = index.line_start(to_line.saturating_add(1)).max(end);
        let window = text
            .get(window_start..window_end)
            .ok_or(miette::MietteError::OutOfBounds)?;
        let local = miette::SourceSpan::new((start - window_start).into(), end - start);
        let inner = window.read_span(&local, context_lines_before, context_lines_after)?;
        let skipped = from_line - 1;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.path.clone(),
            inner.data(),
            miette::SourceSpan::new(
                (inner.span().offset() + window_start).into(),
                inner.span().len(),
            ),
            inner.line() + skipped,
            inner.column(),
            inner.line_count() + skipped,
        )))
    }
}

/// A name longer than this is not compared with the candidates: none of them is that long, and
/// comparing costs time and memory in proportion to its length.
const SUGGESTED_LEN: usize = 64;

/// `crate::suggest::did_you_mean`, for a name of reasonable length.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if word.len() > SUGGESTED_LEN {
        return None;
    }
    crate::suggest::did_you_mean(word, candidates)
}

/// `crate::suggest::suggestion`, for a name of reasonable length.
pub fn suggestion<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    if word.len() > SUGGESTED_LEN {
        return None;
    }
    crate::suggest::suggestion(word, candidates)
}

impl FileDiagnostic {
    /// The plain one-problem form used by `spec-tests/invalid/*.expected` and `--format short`:
    /// `LINE:COL: MESSAGE` and, when there is a hint, `  help: HINT` on the next line (a hint
    /// of several lines goes on under `HINT`'s first).
    pub fn short(&self) -> String {
        let (line, col) = self.line_col();
        let mut out = format!("{line}:{col}: {}", self.message);
        if let Some(help) = &self.help {
            out.push_str("\n  help: ");
            out.push_str(&help.replace('\n', "\n        "));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_end_counts_the_same() {
        for (src, at, want) in [
            ("ab\ncd", 4, (2, 2)),
            ("ab\r\ncd", 5, (2, 2)),
            ("ab\rcd", 4, (2, 2)),
            ("a\r\rb\n\r\nc", 7, (5, 1)),
            // Between `\r` and `\n`: still on the line they end.
            ("ab\r\ncd", 3, (1, 4)),
            ("", 0, (1, 1)),
            ("ab", 99, (1, 3)),
            // Columns count characters; an offset inside one counts as that character.
            ("é\néa", 6, (2, 3)),
            ("é\néa", 5, (2, 2)),
            ("é\néa", 4, (2, 1)),
        ] {
            assert_eq!(line_col(src, at), want, "{src:?} at {at}");
        }
        let index = LineIndex::new("a\rb\r\nc\n");
        assert_eq!(index.line_count(), 4);
        assert_eq!(
            (1..=5).map(|l| index.line_start(l)).collect::<Vec<_>>(),
            [0, 2, 5, 7, 7]
        );
    }

    #[test]
    fn lone_cr_files_are_shown_with_line_feeds() {
        let lines = SourceLines::new("a\rb\r\nc");
        assert_eq!(lines.shown.as_deref(), Some("a\nb\r\nc"));
        assert_eq!(SourceLines::new("a\r\nb\n").shown, None);
    }
}
