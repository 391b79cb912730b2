//! JUnit XML for a suite's results: one testsuite per Feature (file), one testcase per scenario
//! with the time it took to run (microseconds: most scenarios take well under a millisecond), a
//! failure's message with what was expected and found, and its diagnostic as the body.
//! (Written here rather than with quick-junit, which writes times in whole milliseconds only.)

use super::runner::Failure;
use super::suite::{FileResult, Outcome, counted};
use std::fmt::Write as _;
use std::time::Duration;

/// JUnit XML: one testsuite per Feature (file), one testcase per scenario; a file's problems and
/// the variants it could not load are `error` testcases.
pub fn junit(results: &[FileResult]) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures, mut errors, mut total) = (0, 0, 0, Duration::ZERO);
    for file in results {
        let mut cases = String::new();
        let (mut s_tests, mut s_failures, mut s_errors, mut s_skipped) = (0, 0, 0, 0);
        let mut time = Duration::ZERO;
        let mut error_case = |name: String, message: &str, body: &str, cases: &mut String| {
            s_tests += 1;
            s_errors += 1;
            let _ = write!(
                cases,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"0\">\n      <error message=\"{}\">{}</error>\n    </testcase>\n",
                attr(&name),
                attr(&file.path),
                attr(message),
                text(body)
            );
        };
        for problem in file.diagnostics() {
            error_case(
                format!("{} (file)", file.path),
                &problem.message,
                &problem.short(),
                &mut cases,
            );
        }
        for u in &file.unloaded {
            error_case(
                format!("{} (variant {})", file.path, u.variant),
                &format!(
                    "variant `{}` does not load: {} not run",
                    u.variant,
                    counted(u.scenarios, "scenario")
                ),
                &u.reason,
                &mut cases,
            );
        }
        for s in &file.scenarios {
            s_tests += 1;
            time += s.duration;
            let _ = write!(
                cases,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{}\"",
                attr(&s.name),
                attr(&format!("{}:{}", file.path, s.line)),
                seconds(s.duration)
            );
            match &s.outcome {
                Outcome::Passed => cases.push_str("/>\n"),
                Outcome::Skipped => {
                    s_skipped += 1;
                    cases.push_str(">\n      <skipped/>\n    </testcase>\n");
                }
                Outcome::Failed(f) => {
                    s_failures += 1;
                    let _ = write!(
                        cases,
                        ">\n      <failure message=\"{}\" type=\"step\">{}</failure>\n    </testcase>\n",
                        attr(&failure_message(f)),
                        text(&file.failure_diagnostic(f).short())
                    );
                }
            }
        }
        let name = file.feature.as_deref().unwrap_or(&file.path);
        let _ = write!(
            suites,
            "  <testsuite name=\"{}\" tests=\"{s_tests}\" failures=\"{s_failures}\" errors=\"{s_errors}\" skipped=\"{s_skipped}\" time=\"{}\">\n    <properties>\n      <property name=\"file\" value=\"{}\"/>\n    </properties>\n{cases}  </testsuite>\n",
            attr(name),
            seconds(time),
            attr(&file.path)
        );
        tests += s_tests;
        failures += s_failures;
        errors += s_errors;
        total += time;
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"deckspec\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{}\">\n{suites}</testsuites>\n",
        seconds(total)
    )
}

/// A failure in one line: its message, and what was expected and found.
/// `this step does not hold: expected awaiting_draw, found awaiting_discard`.
pub fn failure_message(f: &Failure) -> String {
    // Lines of a several-line text (the differences of an event) are joined with `; `, after a
    // line ending in `:` with a space.
    let one_line = |t: &str| {
        let mut out = String::new();
        for line in t.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if !out.is_empty() {
                out.push_str(if out.ends_with(':') { " " } else { "; " });
            }
            out.push_str(line);
        }
        out
    };
    let mut parts = Vec::new();
    if let Some(e) = &f.expected {
        parts.push(format!("expected {}", one_line(e)));
    }
    if let Some(found) = &f.found {
        parts.push(format!("found {}", one_line(found)));
    }
    if parts.is_empty() {
        f.message.clone()
    } else {
        format!("{}: {}", f.message, parts.join(", "))
    }
}

/// Seconds with microseconds.
fn seconds(d: Duration) -> String {
    format!("{:.6}", d.as_secs_f64())
}

/// Text as XML element content: markup escaped, and characters XML 1.0 cannot hold (control
/// characters other than tab and line breaks) replaced by U+FFFD.
fn text(s: &str) -> String {
    escape(s, false)
}

/// Text as a double-quoted XML attribute value (line breaks and tabs kept as references).
fn attr(s: &str) -> String {
    escape(s, true)
}

fn escape(s: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\t' | '\n' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_xml_cannot_hold_is_escaped_or_replaced() {
        assert_eq!(
            attr("a<b>&\"c\"\n\t\u{1}"),
            "a&lt;b&gt;&amp;&quot;c&quot;&#10;&#9;\u{FFFD}"
        );
        assert_eq!(text("x < y\n\"z\"\u{0}"), "x &lt; y\n\"z\"\u{FFFD}");
    }

    #[test]
    fn a_failure_message_has_what_was_expected_and_found() {
        let f = Failure {
            span: Default::default(),
            message: "this step does not hold".into(),
            expected: Some("an event containing {}".into()),
            found: Some("the closest, a \"x\" event:\ncard.rank: expected \"K\", found \"Q\"\ngone: missing (expected 1)".into()),
            script: None,
        };
        assert_eq!(
            failure_message(&f),
            "this step does not hold: expected an event containing {}, found the closest, a \"x\" event: card.rank: expected \"K\", found \"Q\"; gone: missing (expected 1)"
        );
    }
}
