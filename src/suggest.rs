//! "Did you mean" suggestions for misspelled names, shared by every layer that reports them.

/// The closest candidate to `word`, if one is close enough to be a likely typo: within a small
/// edit distance (transpositions count as one edit), or very similar by Jaro-Winkler for long words.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let allowed = (word.chars().count() / 3).max(1);
    let mut best: Option<(&str, usize, f64)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let distance = strsim::damerau_levenshtein(word, candidate);
        let similarity = strsim::jaro_winkler(word, candidate);
        if distance > allowed && similarity <= 0.9 {
            continue;
        }
        let better = best.is_none_or(|(_, d, s)| distance < d || (distance == d && similarity > s));
        if better {
            best = Some((candidate, distance, similarity));
        }
    }
    best.map(|(c, _, _)| c)
}

/// `Some("did you mean `x`?")` when a candidate is close to `word`.
pub fn suggestion<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    did_you_mean(word, candidates).map(|c| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn close_names_are_suggested_and_far_ones_are_not() {
        let check = |word, candidates: &[&'static str], want: Option<&str>| {
            assert_eq!(
                did_you_mean(word, candidates.iter().copied()),
                want,
                "{word}"
            );
        };
        check("bbo", &["ann", "bob"], Some("bob"));
        check("snapp", &["snap", "cambia", "discard"], Some("snap"));
        check(
            "penalty_draw_cuont",
            &["penalty_draw_count", "compact_hands"],
            Some("penalty_draw_count"),
        );
        check(
            "awaiting_drow",
            &["awaiting_draw", "awaiting_discard"],
            Some("awaiting_draw"),
        );
        check("zed", &["ann", "bob"], None);
        check("teleport", &["snap", "discard", "replace"], None);
    }
}
