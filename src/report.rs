//! The `--report FILE.html` page: one self-contained file (no network) whose inline script draws
//! the score distribution, the game-length histogram and the win rates as SVG charts.

use crate::sim::Summary;

/// The report page for a summary.
pub fn html(summary: &Summary) -> String {
    let title = format!(
        "{}: {} games, {} players ({})",
        summary.variant,
        summary.games,
        summary.players,
        summary.seats.join(", ")
    );
    let text = summary.to_text();
    let data = script_json(&summary.to_json());
    fill(PAGE, |slot| match slot {
        "TITLE" => Some(escape_html(&title)),
        "SUMMARY" => Some(escape_html(&text)),
        "DATA" => Some(data.clone()),
        _ => None,
    })
}

/// Fill a template's `{{NAME}}` placeholders in one pass over the template: a value is never
/// scanned again, so a value that contains `{{DATA}}` stays that text. `value` returns each
/// placeholder's text already escaped for where it stands; unknown names are left as written.
pub(crate) fn fill(template: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            break;
        };
        out.push_str(&rest[..open]);
        match value(&after[..close]) {
            Some(text) => out.push_str(&text),
            None => out.push_str(&rest[open..open + 2 + close + 2]),
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}

/// Text for HTML element content or a quoted attribute value.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON for a `<script type="application/json">` element: `<`, `>` and `&` (which JSON only
/// has inside strings) and the line separators U+2028/U+2029 are written as `\uXXXX` escapes,
/// so no value can close the element or open a comment, and the parsed data is unchanged.
pub fn script_json(value: &serde_json::Value) -> String {
    let json = value.to_string();
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

const PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>deckspec report: {{TITLE}}</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222; }
  h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
  pre { background: #f5f5f5; padding: 1rem; overflow-x: auto; }
  .chart svg { width: 100%; height: auto; background: #fafafa; border: 1px solid #ddd; }
  .bar { fill: #4a7ab5; } .ci { stroke: #222; stroke-width: 1.5; }
  .axis { font-size: 11px; fill: #555; }
</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<h2>Score distribution</h2><div class="chart" id="scores"></div>
<h2>Game length (actions)</h2><div class="chart" id="lengths"></div>
<h2>Win rate by seat (95% confidence intervals)</h2><div class="chart" id="seats"></div>
<h2>Win rate by level</h2><div class="chart" id="levels"></div>
<h2>Summary</h2>
<pre>{{SUMMARY}}</pre>
<script id="data" type="application/json">{{DATA}}</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const NS = "http://www.w3.org/2000/svg";
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
// bars: [{label, value, low?, high?}]; max: the value axis' top.
function chart(id, bars, max, format) {
  const W = 800, H = 260, L = 50, B = 40, T = 10;
  const box = document.getElementById(id);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" }, box);
  const w = (W - L - 10) / Math.max(bars.length, 1);
  const y = v => H - B - (v / (max || 1)) * (H - B - T);
  el("line", { x1: L, y1: H - B, x2: W - 5, y2: H - B, stroke: "#999" }, svg);
  for (let i = 0; i <= 4; i++) {
    const v = max * i / 4;
    el("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, svg).textContent = format(v);
  }
  const every = Math.ceil(bars.length / 20);
  bars.forEach((b, i) => {
    const x = L + i * w;
    el("rect", { x: x + w * 0.1, y: y(b.value), width: Math.max(w * 0.8, 1), height: Math.max(H - B - y(b.value), 0), class: "bar" }, svg)
      .appendChild(el("title", {})).textContent = `${b.label}: ${format(b.value)}`;
    if (b.low !== undefined) {
      el("line", { x1: x + w / 2, x2: x + w / 2, y1: y(b.low), y2: y(b.high), class: "ci" }, svg);
    }
    if (i % every === 0) {
      el("text", { x: x + w / 2, y: H - B + 16, "text-anchor": "middle", class: "axis" }, svg).textContent = b.label;
    }
  });
  box.dataset.rendered = String(bars.length);
}
const counts = m => Object.entries(m).map(([k, v]) => [Number(k), v]).sort((a, b) => a[0] - b[0]);
const pct = v => `${Math.round(v * 100)}%`;
const num = v => String(Math.round(v));

// A histogram on a linear axis: at most 30 bins of equal width.
function histogram(pairs) {
  if (!pairs.length) return [];
  const lo = pairs[0][0], hi = pairs[pairs.length - 1][0];
  const size = Math.max(1, Math.ceil((hi - lo + 1) / 30));
  const bins = Array.from({ length: Math.ceil((hi - lo + 1) / size) }, (_, i) =>
    ({ label: size === 1 ? String(lo + i) : `${lo + i * size}–${lo + i * size + size - 1}`, value: 0 }));
  for (const [x, n] of pairs) bins[Math.floor((x - lo) / size)].value += n;
  return bins;
}
const scores = histogram(counts(data.scores));
chart("scores", scores, Math.max(1, ...scores.map(b => b.value)), num);
const lengths = histogram(counts(data.lengths));
chart("lengths", lengths, Math.max(1, ...lengths.map(b => b.value)), num);

chart("seats", data.seat_win_rates.map((r, i) => ({ label: `seat ${i} (${data.seats[i]})`, value: r.rate, low: r.low, high: r.high })), 1, pct);
chart("levels", data.level_win_rates.map(r => ({ label: r.level, value: r.rate, low: r.low, high: r.high })), 1, pct);
document.body.dataset.charts = "ok";
</script>
</body>
</html>
"##;

#[cfg(test)]
mod tests {
    use super::*;

    const IMG: &str = "<img src=x onerror=alert(1)>";

    fn hostile() -> Summary {
        let mut s = Summary {
            variant: format!("{{{{DATA}}}}{IMG}"),
            players: 2,
            seats: vec![format!("{{{{TITLE}}}}\"{IMG}"), "random".into()],
            games: 1,
            seconds: 2.0,
            seat_wins: vec![1, 0],
            ..Summary::default()
        };
        s.end_reasons.insert(
            format!("{{{{DATA}}}}</script>{IMG}<!--\u{2028}\u{2029}&"),
            1,
        );
        s.lengths.insert(3, 1);
        s.scores.insert(5, 2);
        s
    }

    /// The JSON inside the data element, as the page's script reads it.
    fn data_of(page: &str) -> serde_json::Value {
        let open = r#"<script id="data" type="application/json">"#;
        let start = page.find(open).expect("the data element") + open.len();
        let end = start + page[start..].find("</script>").expect("its end");
        serde_json::from_str(&page[start..end]).expect("the data parses")
    }

    #[test]
    fn placeholders_are_filled_in_one_pass() {
        let out = fill("a{{X}}b{{Y}}c{{Z}}", |name| match name {
            "X" => Some("{{Y}}".into()),
            "Y" => Some("y".into()),
            _ => None,
        });
        assert_eq!(out, "a{{Y}}byc{{Z}}");
    }

    #[test]
    fn the_template_has_exactly_the_known_placeholders() {
        let names: Vec<&str> = PAGE
            .split("{{")
            .skip(1)
            .map(|s| s.split("}}").next().unwrap())
            .collect();
        assert_eq!(names, ["TITLE", "TITLE", "SUMMARY", "DATA"]);
    }

    #[test]
    fn hostile_names_and_reasons_reach_the_page_escaped() {
        let summary = hostile();
        let page = html(&summary);
        assert!(!page.contains("<img"), "{page}");
        let script = &page[page.find("<script").unwrap()..];
        assert!(!script.contains('\u{2028}') && !script.contains('\u{2029}'));
        assert_eq!(page.matches("<script").count(), 2, "{page}");
        assert_eq!(page.matches("</script>").count(), 2, "{page}");
        assert!(!page.contains("<!--"), "{page}");
        assert!(
            page.contains("&lt;img src=x onerror=alert(1)&gt;"),
            "{page}"
        );
        assert!(page.contains("{{DATA}}&lt;img"), "{page}");
        assert_eq!(data_of(&page), summary.to_json());
    }

    #[test]
    fn escapes_cover_text_attributes_and_script_json() {
        assert_eq!(
            escape_html(r#"<a href="x" title='y'>&</a>"#),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
        let json = serde_json::json!({"k": "</script>&\u{2028}"});
        assert_eq!(
            script_json(&json),
            r#"{"k":"\u003c/script\u003e\u0026\u2028"}"#
        );
    }
}
