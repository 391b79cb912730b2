//! Diagnostics for scenario files: one problem, where it is, and a hint; rendered by miette at the edge.

use super::ast::Span;
use std::sync::Arc;

/// One problem found in a scenario file (a parse error, an unknown name, a failed check).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub message: String,
    pub span: Span,
    /// The text under the underline.
    pub label: String,
    /// A hint, such as "did you mean `snap`?".
    pub help: Option<String>,
}

impl Problem {
    pub fn new(message: impl Into<String>, span: Span, label: impl Into<String>) -> Problem {
        Problem {
            message: message.into(),
            span,
            label: label.into(),
            help: None,
        }
    }

    pub fn with_help(mut self, help: Option<String>) -> Problem {
        self.help = help;
        self
    }
}

/// A problem bound to its file, ready for miette.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{message}")]
pub struct FileDiagnostic {
    pub message: String,
    pub path: String,
    pub src: Arc<String>,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
}

impl FileDiagnostic {
    pub fn new(path: &str, src: Arc<String>, problem: Problem) -> FileDiagnostic {
        FileDiagnostic {
            message: problem.message,
            path: path.to_string(),
            src,
            span: problem.span,
            label: problem.label,
            help: problem.help,
        }
    }

    /// 1-based line and column of the start of the span.
    pub fn line_col(&self) -> (usize, usize) {
        line_col(&self.src, self.span.start)
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, src[line_start..offset].chars().count() + 1)
}

impl miette::Diagnostic for FileDiagnostic {
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_primary_with_span(Some(self.label.clone()), self.span),
        )))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.clone()) as Box<dyn std::fmt::Display>)
    }
}

impl miette::SourceCode for FileDiagnostic {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self
            .src
            .as_str()
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.path.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

pub use crate::suggest::{did_you_mean, suggestion};

impl FileDiagnostic {
    /// The plain one-problem form used by `spec-tests/invalid/*.expected` and `--format short`:
    /// `LINE:COL: MESSAGE` and, when there is a hint, `  help: HINT` on the next line.
    pub fn short(&self) -> String {
        let (line, col) = self.line_col();
        let mut out = format!("{line}:{col}: {}", self.message);
        if let Some(help) = &self.help {
            out.push_str("\n  help: ");
            out.push_str(help);
        }
        out
    }
}
