//! What differs between the JSON a `receives:` step expects and an event a player received: one
//! line per difference, by dotted path (`card.rank: expected "K", found "Q"`), for the failure.

use super::then::subset;
use serde_json::Value as Json;

/// At most this many differences are listed; the rest are counted.
const MAX_LINES: usize = 20;

/// The differences between `expected` (a part of an event: keys it leaves out may be anything)
/// and `actual`, one line each, in the order of `expected`'s keys.
pub fn differences(expected: &Json, actual: &Json) -> Vec<String> {
    let mut out = Vec::new();
    walk(expected, actual, "", &mut out);
    if out.len() > MAX_LINES {
        let more = out.len() - MAX_LINES;
        out.truncate(MAX_LINES);
        out.push(format!("… and {more} more"));
    }
    out
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn walk(expected: &Json, actual: &Json, path: &str, out: &mut Vec<String>) {
    if subset(expected, actual) {
        return;
    }
    let at = if path.is_empty() { "the event" } else { path };
    match (expected, actual) {
        (Json::Object(e), Json::Object(a)) => {
            for (key, want) in e {
                let here = join(path, key);
                match a.get(key) {
                    Some(found) => walk(want, found, &here, out),
                    None => out.push(format!("{here}: missing (expected {want})")),
                }
            }
        }
        (Json::Array(e), Json::Array(a)) => {
            if e.len() != a.len() {
                out.push(format!(
                    "{at}: expected {} item{}, found {}",
                    e.len(),
                    if e.len() == 1 { "" } else { "s" },
                    a.len()
                ));
            }
            for (i, pair) in e.iter().zip(a.iter()).enumerate() {
                walk(pair.0, pair.1, &join(path, &i.to_string()), out);
            }
            for (i, want) in e.iter().enumerate().skip(a.len()) {
                out.push(format!(
                    "{}: missing (expected {want})",
                    join(path, &i.to_string())
                ));
            }
            for (i, extra) in a.iter().enumerate().skip(e.len()) {
                out.push(format!("{}: extra {extra}", join(path, &i.to_string())));
            }
        }
        (want, found) => out.push(format!("{at}: expected {want}, found {found}")),
    }
}

/// The received event closest to `expected`: of the events of the same `type` (all events when
/// `expected` names none), the one with the fewest differences; `None` when no event has that type.
pub fn closest<'a>(expected: &Json, events: &'a [Json]) -> Option<(&'a Json, Vec<String>)> {
    let kind = expected.get("type");
    events
        .iter()
        .filter(|e| kind.is_none_or(|k| e.get("type") == Some(k)))
        .map(|e| (e, differences(expected, e)))
        .min_by_key(|(_, d)| d.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_difference_is_a_line_by_path() {
        let expected = json!({
            "type": "player_discard",
            "card": {"rank": "K", "value": 13},
            "winners": [{"id": "ann"}],
            "gone": 1
        });
        let actual = json!({
            "type": "player_discard",
            "card": {"rank": "Q", "value": 13.0, "suit": "Spades"},
            "winners": [{"id": "bob"}, {"id": "cat"}]
        });
        assert_eq!(
            differences(&expected, &actual),
            [
                r#"card.rank: expected "K", found "Q""#,
                "gone: missing (expected 1)",
                "winners: expected 1 item, found 2",
                r#"winners.0.id: expected "ann", found "bob""#,
                r#"winners.1: extra {"id":"cat"}"#,
            ]
        );
        assert!(differences(&expected, &expected).is_empty());
        assert_eq!(
            differences(&json!([1]), &json!({})),
            ["the event: expected [1], found {}"]
        );
    }

    #[test]
    fn the_closest_event_of_the_same_type_is_chosen() {
        let events = [
            json!({"type": "a", "x": 1, "y": 1}),
            json!({"type": "b", "x": 2, "y": 2}),
            json!({"type": "b", "x": 1, "y": 2}),
        ];
        let (event, diff) = closest(&json!({"type": "b", "x": 1, "y": 1}), &events).unwrap();
        assert_eq!(event, &events[2]);
        assert_eq!(diff, ["y: expected 1, found 2"]);
        assert!(closest(&json!({"type": "c"}), &events).is_none());
    }
}
