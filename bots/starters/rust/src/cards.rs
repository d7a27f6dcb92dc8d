//! Cards and the rules of play: parse and print protocol card names, compare cards
//! in a trick, and work out which cards may be played.

use std::fmt;

pub const RANKS: &str = "23456789TJQKA";
pub const SUITS: &str = "CDHS";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    pub fn letter(self) -> char {
        SUITS.as_bytes()[self as usize] as char
    }
    fn from_letter(c: char) -> Option<Suit> {
        Some(match c {
            'C' => Suit::Clubs,
            'D' => Suit::Diamonds,
            'H' => Suit::Hearts,
            'S' => Suit::Spades,
            _ => return None,
        })
    }
}

/// A card. `rank` is 0 for a two up to 12 for an ace. Ordering (derived: suit, then
/// rank) is the protocol's sort order: clubs, diamonds, hearts, spades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    pub suit: Suit,
    pub rank: u8,
}

pub const ACE: u8 = 12;
pub const KING: u8 = 11;
pub const QUEEN: u8 = 10;

impl Card {
    /// Parse a protocol card name such as `"TH"` (rank, then suit, upper case).
    pub fn parse(name: &str) -> Option<Card> {
        let mut chars = name.chars();
        let (r, s) = (chars.next()?, chars.next()?);
        if chars.next().is_some() {
            return None;
        }
        let rank = RANKS.find(r)? as u8;
        Some(Card { suit: Suit::from_letter(s)?, rank })
    }

    pub fn is_spade(self) -> bool {
        self.suit == Suit::Spades
    }

    /// Does `self` beat `other` in a trick led in `led`? A spade beats any other
    /// suit; otherwise only a higher card of the led suit wins.
    pub fn beats(self, other: Card, led: Suit) -> bool {
        if self.suit == other.suit {
            self.rank > other.rank
        } else {
            self.is_spade() || (other.suit != Suit::Spades && self.suit == led)
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", RANKS.as_bytes()[self.rank as usize] as char, self.suit.letter())
    }
}

/// The seat and card winning `trick` (plays in order), or `None` for an empty trick.
pub fn trick_winner(trick: &[(usize, Card)]) -> Option<(usize, Card)> {
    let (&first, rest) = trick.split_first()?;
    let led = first.1.suit;
    Some(rest.iter().fold(first, |best, &play| if play.1.beats(best.1, led) { play } else { best }))
}

/// The cards of `hand` that may be played to `trick`: follow the led suit if you
/// can; when leading, no spade until spades are broken unless you hold only spades.
/// (Requests already carry `legal`; this is for looking ahead in your strategy.)
pub fn legal_plays(hand: &[Card], trick: &[(usize, Card)], spades_broken: bool) -> Vec<Card> {
    if let Some(&(_, led)) = trick.first() {
        let follow: Vec<Card> = hand.iter().copied().filter(|c| c.suit == led.suit).collect();
        if !follow.is_empty() {
            return follow;
        }
        return hand.to_vec();
    }
    let side: Vec<Card> = hand.iter().copied().filter(|c| !c.is_spade()).collect();
    if spades_broken || side.is_empty() {
        hand.to_vec()
    } else {
        side
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str) -> Card {
        Card::parse(name).unwrap()
    }

    #[test]
    fn names() {
        assert_eq!(c("TH").to_string(), "TH");
        assert_eq!(c("AS"), Card { suit: Suit::Spades, rank: ACE });
        for bad in ["10H", "th", "AX", "A", "ASS", ""] {
            assert!(Card::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn rules() {
        let trick = [(1, c("4H")), (2, c("2S")), (3, c("AH"))];
        assert_eq!(trick_winner(&trick), Some((2, c("2S"))));
        let hand = [c("3C"), c("5H"), c("KS")];
        assert_eq!(legal_plays(&hand, &trick[..1], false), vec![c("5H")]);
        assert_eq!(legal_plays(&hand, &[], false), vec![c("3C"), c("5H")]);
        assert_eq!(legal_plays(&[c("KS")], &[], false), vec![c("KS")]);
    }
}
