//! Shards: `Shard` is the K-th of N disjoint slices of a study's games (what one `--shard K/N`
//! run plays); `Shards` is the set of slices a summary holds (one, or several after a merge), kept
//! as ranges so that a study of any size and shard count stays small and arithmetic.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The K-th of N disjoint slices of a study's games (1-based `index`): the games `i` with
/// `i % count == index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    /// K: which slice, from 1 to `count`.
    pub index: u64,
    /// N: how many slices the study is cut into (at least 1).
    pub count: u64,
}

impl Shard {
    /// The whole study.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// `K/N` with 1 ≤ K ≤ N.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }

    /// How many games of a study of `games` this shard plays.
    pub fn planned(self, games: u64) -> u64 {
        games.saturating_sub(self.index - 1).div_ceil(self.count)
    }

    /// The study's index of this shard's `j`-th game, if `j` is below `planned(games)`.
    pub fn game_index(self, j: u64, games: u64) -> Option<u64> {
        let i = j.checked_mul(self.count)?.checked_add(self.index - 1)?;
        (i < games).then_some(i)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N` with 1 ≤ K ≤ N, as in `2/8`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard takes K/N with 1 ≤ K ≤ N, as in 2/8, not `{text}`");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse::<u64>().map_err(|_| bad())?;
        let n = n.trim().parse::<u64>().map_err(|_| bad())?;
        Shard::new(k, n).ok_or_else(bad)
    }
}

/// The slices `index` in `first..=last` of `count`, as written in summaries: `2`, `3-5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ShardRange {
    /// The first slice of the range, 1-based.
    pub first: u64,
    /// The last slice of the range, included (equal to `first` for one slice).
    pub last: u64,
}

impl std::fmt::Display for ShardRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}-{}", self.first, self.last)
        }
    }
}

/// Which slices of N a summary holds: disjoint, sorted, non-adjacent ranges of 1-based indices.
/// Written `K/N` for one slice and `1-3,5/8` for several; a summary holding all N slices is the
/// whole study and is written `1/1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shards {
    count: u64,
    ranges: Vec<ShardRange>,
}

impl Default for Shards {
    fn default() -> Shards {
        Shards::from(Shard::WHOLE)
    }
}

impl From<Shard> for Shards {
    fn from(shard: Shard) -> Shards {
        Shards {
            count: shard.count,
            ranges: vec![ShardRange {
                first: shard.index,
                last: shard.index,
            }],
        }
        .normalized()
    }
}

impl Shards {
    /// N: how many slices the study was cut into.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The slices held, as sorted, disjoint, non-adjacent ranges.
    pub fn ranges(&self) -> &[ShardRange] {
        &self.ranges
    }

    /// Whether these are all the slices: the whole study.
    pub fn is_whole(&self) -> bool {
        self.ranges
            == [ShardRange {
                first: 1,
                last: self.count,
            }]
    }

    /// All N slices are the whole study, which one run writes `1/1`.
    fn normalized(self) -> Shards {
        if self.is_whole() {
            Shards {
                count: 1,
                ranges: vec![ShardRange { first: 1, last: 1 }],
            }
        } else {
            self
        }
    }

    /// The ranges both sets hold (the same `count` is the caller's to check).
    pub fn overlap(&self, other: &Shards) -> Vec<ShardRange> {
        let mut out = Vec::new();
        for a in &self.ranges {
            for b in &other.ranges {
                let (first, last) = (a.first.max(b.first), a.last.min(b.last));
                if first <= last {
                    out.push(ShardRange { first, last });
                }
            }
        }
        out
    }

    /// Add the slices of `other` (same `count`, no overlap: the caller checks both).
    pub fn add(&mut self, other: &Shards) {
        // A whole study written 1/1 is all of any count's slices.
        let mut ranges: Vec<ShardRange> = self
            .expanded(other.count)
            .into_iter()
            .chain(other.expanded(self.count))
            .collect();
        ranges.sort();
        let mut merged: Vec<ShardRange> = Vec::with_capacity(ranges.len());
        for r in ranges {
            match merged.last_mut() {
                Some(last) if r.first <= last.last.saturating_add(1) => {
                    last.last = last.last.max(r.last)
                }
                _ => merged.push(r),
            }
        }
        self.count = self.count.max(other.count);
        self.ranges = merged;
        *self = std::mem::take(self).normalized();
    }

    /// The ranges, with a whole study (1/1) spread over `count` slices.
    fn expanded(&self, count: u64) -> Vec<ShardRange> {
        if self.count == 1 {
            vec![ShardRange {
                first: 1,
                last: count.max(1),
            }]
        } else {
            self.ranges.clone()
        }
    }

    /// The slices missing from the whole study.
    pub fn missing(&self) -> Vec<ShardRange> {
        let mut out = Vec::new();
        let mut next = 1u64;
        for r in &self.ranges {
            if r.first > next {
                out.push(ShardRange {
                    first: next,
                    last: r.first - 1,
                });
            }
            next = r.last.saturating_add(1);
        }
        if next <= self.count {
            out.push(ShardRange {
                first: next,
                last: self.count,
            });
        }
        out
    }

    /// Games these slices hold in a study of `games`; `None` if the count overflows.
    pub fn planned(&self, games: u64) -> Option<u64> {
        // Slices 1..=r get one game more than the others: games = q * count + r.
        let (q, r) = (games / self.count, games % self.count);
        self.ranges.iter().try_fold(0u64, |sum, range| {
            let slices = range.last - range.first + 1;
            let longer = range.last.min(r).saturating_sub(range.first - 1);
            slices.checked_mul(q)?.checked_add(longer)?.checked_add(sum)
        })
    }

    /// Ranges as written: `2`, `1-3, 5`.
    pub fn list(ranges: &[ShardRange]) -> String {
        ranges
            .iter()
            .map(ShardRange::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl std::fmt::Display for Shards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list: Vec<String> = self.ranges.iter().map(ShardRange::to_string).collect();
        write!(f, "{}/{}", list.join(","), self.count)
    }
}

impl std::str::FromStr for Shards {
    type Err = String;

    /// `K/N`, or ranges of slices: `1-3,5/8`.
    fn from_str(text: &str) -> Result<Shards, String> {
        let bad = || {
            format!("`{text}` is not a shard: write K/N (1 ≤ K ≤ N), or slices of N as in 1-3,5/8")
        };
        let (list, count) = text.split_once('/').ok_or_else(bad)?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        let mut ranges = Vec::new();
        for item in list.split(',') {
            let (first, last) = item.split_once('-').unwrap_or((item, item));
            let first: u64 = first.trim().parse().map_err(|_| bad())?;
            let last: u64 = last.trim().parse().map_err(|_| bad())?;
            let previous = ranges.last().map_or(0, |r: &ShardRange| r.last);
            // Sorted, disjoint and not adjacent: one way to write each set.
            if first == 0
                || first > last
                || last > count
                || first <= previous.saturating_add(1) && previous > 0
            {
                return Err(bad());
            }
            ranges.push(ShardRange { first, last });
        }
        let shards = Shards { count, ranges };
        if shards.count > 1 && shards.is_whole() {
            return Err(bad());
        }
        Ok(shards)
    }
}

impl Serialize for Shards {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shards {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Shards, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games of a shard, listed the slow way.
    fn listed(shard: Shard, games: u64) -> Vec<u64> {
        (0..games)
            .filter(|i| i % shard.count == shard.index - 1)
            .collect()
    }

    #[test]
    fn shard_arithmetic_matches_the_listing() {
        for games in 0..40 {
            for count in 1..12 {
                for index in 1..=count {
                    let shard = Shard::new(index, count).unwrap();
                    let list = listed(shard, games);
                    assert_eq!(
                        shard.planned(games),
                        list.len() as u64,
                        "{shard} of {games}"
                    );
                    for (j, &i) in list.iter().enumerate() {
                        assert_eq!(shard.game_index(j as u64, games), Some(i));
                    }
                    assert_eq!(shard.game_index(list.len() as u64, games), None);
                }
            }
        }
    }

    #[test]
    fn huge_studies_and_shards_are_arithmetic() {
        let shard = Shard::new(100_000_000, 100_000_000).unwrap();
        assert_eq!(shard.planned(u64::MAX), u64::MAX / 100_000_000);
        assert_eq!(Shard::WHOLE.planned(u64::MAX), u64::MAX);
        assert_eq!(
            Shard::WHOLE.game_index(u64::MAX - 1, u64::MAX),
            Some(u64::MAX - 1)
        );
        assert_eq!(shard.game_index(u64::MAX, u64::MAX), None);
        assert_eq!(Shard::new(3, 5).unwrap().planned(2), 0);
    }

    #[test]
    fn shards_parse_and_print() {
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(Shard::new(2, 8).unwrap().to_string(), "2/8");
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/3", "1/3/4"] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(format!(
                    "--shard takes K/N with 1 ≤ K ≤ N, as in 2/8, not `{bad}`"
                ))
            );
        }
    }
}

#[cfg(test)]
mod set_tests {
    use super::*;

    fn set(text: &str) -> Shards {
        text.parse().unwrap()
    }

    #[test]
    fn sets_parse_print_and_reject_other_spellings() {
        for text in ["1/1", "2/8", "1-3,5/8", "2,4,6-7/8"] {
            assert_eq!(set(text).to_string(), text);
        }
        for bad in [
            "0/3", "4/3", "3-2/5", "1,1/3", "2,3/5", "1-3/3", "x/3", "1/0", "/3",
        ] {
            assert!(bad.parse::<Shards>().is_err(), "{bad}");
        }
    }

    #[test]
    fn adding_all_slices_gives_the_whole_study() {
        let mut s = Shards::from(Shard::new(2, 3).unwrap());
        s.add(&Shards::from(Shard::new(3, 3).unwrap()));
        assert_eq!(s.to_string(), "2-3/3");
        assert_eq!(Shards::list(&s.missing()), "1");
        s.add(&Shards::from(Shard::new(1, 3).unwrap()));
        assert_eq!(s, Shards::default());
        assert!(s.missing().is_empty());
    }

    #[test]
    fn planned_games_of_a_set_add_up_the_slices() {
        for games in 0..30 {
            for count in 1..9u64 {
                let all: Vec<Shard> = (1..=count).map(|k| Shard::new(k, count).unwrap()).collect();
                for a in 0..all.len() {
                    for b in a..all.len() {
                        let mut s = Shards::from(all[a]);
                        for shard in &all[a + 1..=b] {
                            s.add(&Shards::from(*shard));
                        }
                        let sum: u64 = all[a..=b].iter().map(|s| s.planned(games)).sum();
                        assert_eq!(s.planned(games), Some(sum), "{s} of {games}");
                    }
                }
            }
        }
        let one = Shards::from(Shard::new(1, 100_000_000).unwrap());
        assert_eq!(one.planned(u64::MAX), Some(u64::MAX / 100_000_000 + 1));
        assert_eq!(
            set("1-99999999/100000000").missing(),
            [ShardRange {
                first: 100_000_000,
                last: 100_000_000
            }]
        );
    }

    #[test]
    fn overlaps_are_found() {
        assert_eq!(Shards::list(&set("1-3,6/8").overlap(&set("3-6/8"))), "3, 6");
        assert!(set("1-2/8").overlap(&set("3/8")).is_empty());
    }
}
