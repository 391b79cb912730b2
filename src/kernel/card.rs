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

/// A card's suit. Written `S`, `H`, `D`, `C` (or `♠♥♦♣`) in scenarios; the order here is the
/// order of a fresh deck ([`standard_deck`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Suit {
    /// ♠, black.
    Spades,
    /// ♥, red.
    Hearts,
    /// ♦, red.
    Diamonds,
    /// ♣, black.
    Clubs,
}

impl Suit {
    /// The four suits in deck order: spades, hearts, diamonds, clubs.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The one-letter form used in card text such as `7H`: `S`, `H`, `D` or `C`.
    pub fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    /// The English name players see in events and views: `Spades`, `Hearts`, `Diamonds`, `Clubs`.
    pub fn name(self) -> &'static str {
        match self {
            Suit::Spades => "Spades",
            Suit::Hearts => "Hearts",
            Suit::Diamonds => "Diamonds",
            Suit::Clubs => "Clubs",
        }
    }

    /// Whether the suit is red (hearts, diamonds); rules such as "red kings" use it.
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
    /// The joker's rank (0); a joker face has no suit.
    pub const JOKER: Rank = Rank(0);
    /// The ace (1): the lowest rank of a suit.
    pub const ACE: Rank = Rank(1);
    /// The jack (11).
    pub const JACK: Rank = Rank(11);
    /// The queen (12).
    pub const QUEEN: Rank = Rank(12);
    /// The king (13): the highest rank.
    pub const KING: Rank = Rank(13);

    /// The short form used in scenarios and scripts: `A`, `2`..`10`, `J`, `Q`, `K`, `JK`.
    ///
    /// # Panics
    ///
    /// If the rank is above 13 (no rank the kernel makes is).
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

    /// Parse the short form ([`Rank::short`]): `A`, `2`..`10`, `J`, `Q`, `K` or `JK`.
    /// `None` for anything else, including `1` and lower-case letters.
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

/// What is printed on a card: its rank and suit. `Display` writes `7H`, `10S`, `JK`;
/// `FromStr` reads those and also suit symbols (`10♠`).
///
/// Jokers have no suit and all share one face; the kernel tells two jokers apart by their
/// [`CardIdx`], players by their public ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Face {
    /// The rank; [`Rank::JOKER`] for a joker.
    pub rank: Rank,
    /// The suit; `None` exactly when the card is a joker.
    pub suit: Option<Suit>,
}

impl Face {
    /// A suited card. Pass a rank from 1 to 13: a joker is made with [`Face::joker`].
    pub const fn new(rank: Rank, suit: Suit) -> Face {
        Face {
            rank,
            suit: Some(suit),
        }
    }

    /// The joker face (rank 0, no suit). All jokers of a deck share this face.
    pub const fn joker() -> Face {
        Face {
            rank: Rank::JOKER,
            suit: None,
        }
    }

    /// Whether this is a joker.
    pub fn is_joker(self) -> bool {
        self.rank == Rank::JOKER
    }

    /// Whether the card is a red suit; `false` for a joker.
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

/// Text that is not a card face (see `Face`'s `FromStr`); holds the text as given.
/// Its message says how a card is written.
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
