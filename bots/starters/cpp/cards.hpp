// Cards and the rules of play: parse and print protocol card names, compare cards in
// a trick, and work out which cards may be played.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace spades {

inline const std::string RANKS = "23456789TJQKA";
inline const std::string SUITS = "CDHS";
enum Suit { CLUBS = 0, DIAMONDS = 1, HEARTS = 2, SPADES = 3 };
constexpr int JACK = 9, QUEEN = 10, KING = 11, ACE = 12;

/// A card: rank 0 (a two) to 12 (an ace). `<` is the protocol's sort order: by suit,
/// then rank.
struct Card {
    int rank = 0;
    Suit suit = CLUBS;

    /// A protocol card name such as "TH" (rank, then suit, upper case), if it is one.
    static std::optional<Card> parse(const std::string& name) {
        if (name.size() != 2) return std::nullopt;
        auto r = RANKS.find(name[0]), s = SUITS.find(name[1]);
        if (r == std::string::npos || s == std::string::npos) return std::nullopt;
        return Card{static_cast<int>(r), static_cast<Suit>(s)};
    }
    std::string name() const { return std::string{RANKS[rank], SUITS[suit]}; }
    bool is_spade() const { return suit == SPADES; }

    /// Does this card beat `other` in a trick led in `led`? A spade beats any other
    /// suit; otherwise only a higher card of the led suit wins.
    bool beats(const Card& other, Suit led) const {
        if (suit == other.suit) return rank > other.rank;
        return is_spade() || (!other.is_spade() && suit == led);
    }
    bool operator==(const Card& o) const { return rank == o.rank && suit == o.suit; }
    bool operator!=(const Card& o) const { return !(*this == o); }
    bool operator<(const Card& o) const { return suit != o.suit ? suit < o.suit : rank < o.rank; }
};

/// One card played by one seat: [seat, card] in the protocol.
struct Play {
    int seat = 0;
    Card card;
};

/// The play winning `trick` so far; nullopt for an empty trick.
inline std::optional<Play> trick_winner(const std::vector<Play>& trick) {
    if (trick.empty()) return std::nullopt;
    Play best = trick[0];
    for (const Play& p : trick) if (p.card.beats(best.card, trick[0].card.suit)) best = p;
    return best;
}

/// The cards of `hand` that may be played to `trick`: follow the led suit if you can;
/// when leading, no spade until spades are broken unless you hold only spades.
/// (Requests already carry "legal"; this is for looking ahead in your strategy.)
inline std::vector<Card> legal_plays(const std::vector<Card>& hand, const std::vector<Play>& trick, bool spades_broken) {
    std::vector<Card> out;
    if (!trick.empty()) {
        for (const Card& c : hand) if (c.suit == trick[0].card.suit) out.push_back(c);
        return out.empty() ? hand : out;
    }
    for (const Card& c : hand) if (!c.is_spade()) out.push_back(c);
    return spades_broken || out.empty() ? hand : out;
}

} // namespace spades
