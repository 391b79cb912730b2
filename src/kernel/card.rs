//! Card faces (rank and suit), their text forms, and the index type the kernel uses for a physical card.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A physical card of one game: an index into the game's card tables.
///
/// It never leaves the kernel as-is; players see a card's public id instead,
/// which is random per game and changes when the card is shuffled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CardIdx(pub u16);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Suit {
    Spades,
    Hearts,
    Diamonds,
    Clubs,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    pub fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Suit::Spades => "Spades",
            Suit::Hearts => "Hearts",
            Suit::Diamonds => "Diamonds",
            Suit::Clubs => "Clubs",
        }
    }

    pub fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }

    fn from_char(c: char) -> Option<Suit> {
        Some(match c {
            'S' | '♠' => Suit::Spades,
            'H' | '♥' => Suit::Hearts,
            'D' | '♦' => Suit::Diamonds,
            'C' | '♣' => Suit::Clubs,
            _ => return None,
        })
    }
}

/// Ranks are numbered 1 (Ace) to 13 (King); 0 is the joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Rank(pub u8);

impl Rank {
    pub const JOKER: Rank = Rank(0);
    pub const ACE: Rank = Rank(1);
    pub const JACK: Rank = Rank(11);
    pub const QUEEN: Rank = Rank(12);
    pub const KING: Rank = Rank(13);

    /// The short form used in scenarios and scripts: `A`, `2`..`10`, `J`, `Q`, `K`, `JK`.
    pub fn short(self) -> &'static str {
        const SHORT: [&str; 14] = [
            "JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ];
        SHORT[self.0 as usize]
    }

    /// The long form used in event payloads (Cambia's rule CAM-VAL-5): `Ace`, `7`, `King`, `Joker`.
    pub fn name(self) -> &'static str {
        match self.0 {
            0 => "Joker",
            1 => "Ace",
            11 => "Jack",
            12 => "Queen",
            13 => "King",
            _ => self.short(),
        }
    }

    pub fn from_short(s: &str) -> Option<Rank> {
        Some(Rank(match s {
            "JK" => 0,
            "A" => 1,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            _ => match s.parse::<u8>() {
                Ok(n @ 2..=10) => n,
                _ => return None,
            },
        }))
    }
}

/// What is printed on a card. Jokers have no suit; `ordinal` tells two jokers apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Face {
    pub rank: Rank,
    pub suit: Option<Suit>,
}

impl Face {
    pub const fn new(rank: Rank, suit: Suit) -> Face {
        Face {
            rank,
            suit: Some(suit),
        }
    }

    pub const fn joker() -> Face {
        Face {
            rank: Rank::JOKER,
            suit: None,
        }
    }

    pub fn is_joker(self) -> bool {
        self.rank == Rank::JOKER
    }

    pub fn is_red(self) -> bool {
        self.suit.is_some_and(Suit::is_red)
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.suit {
            None => f.write_str("JK"),
            Some(s) => write!(f, "{}{}", self.rank.short(), s.letter()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaceParseError(pub String);

impl fmt::Display for FaceParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a card: write a rank (A, 2-10, J, Q, K) and a suit (S, H, D, C or ♠♥♦♣), or JK for a joker",
            self.0
        )
    }
}

impl std::error::Error for FaceParseError {}

impl FromStr for Face {
    type Err = FaceParseError;

    fn from_str(s: &str) -> Result<Face, FaceParseError> {
        let err = || FaceParseError(s.to_string());
        if s == "JK" {
            return Ok(Face::joker());
        }
        let suit_char = s.chars().last().ok_or_else(err)?;
        let suit = Suit::from_char(suit_char).ok_or_else(err)?;
        let rank_text = &s[..s.len() - suit_char.len_utf8()];
        let rank = Rank::from_short(rank_text).ok_or_else(err)?;
        if rank == Rank::JOKER {
            return Err(err());
        }
        Ok(Face::new(rank, suit))
    }
}

/// The faces of a standard deck (52 cards, spades first, Ace to King) plus `jokers` jokers.
pub fn standard_deck(jokers: usize) -> Vec<Face> {
    let mut faces = Vec::with_capacity(52 + jokers);
    for suit in Suit::ALL {
        for rank in 1..=13 {
            faces.push(Face::new(Rank(rank), suit));
        }
    }
    faces.extend(std::iter::repeat_n(Face::joker(), jokers));
    faces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_round_trip_through_text() {
        for face in standard_deck(1) {
            assert_eq!(face.to_string().parse::<Face>(), Ok(face));
        }
        assert_eq!("10♥".parse::<Face>().unwrap().to_string(), "10H");
        assert!("1S".parse::<Face>().is_err());
        assert!("KX".parse::<Face>().is_err());
        assert!("JKS".parse::<Face>().is_err());
    }
}
