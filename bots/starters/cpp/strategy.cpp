// YOUR BOT'S DECISIONS: this is the file to edit.
//
// Each method answers one kind of request. Every default here is legal and makes a
// modest, sensible choice, so the bot plays whole matches before you change anything.
// main.cpp checks what you return: an illegal answer (a card not in legal, the wrong
// number of cards, ...) is logged to stderr and replaced by a safe legal one, and so
// is an exception (set SPADES_STRICT=1 to let it crash the bot while you develop).
// Log with log() (stderr); never write to std::cout (that is stdout).
//
// Every request carries its State (your whole view of the hand), so the bot needs no
// memory; on_event is there if you want to track things yourself.
#include "strategy.hpp"

#include <algorithm>
#include <cstdlib>

namespace spades {

namespace {
/// Cheapest first: side cards before spades, then by rank.
bool by_cost(const Card& a, const Card& b) {
    return a.is_spade() != b.is_spade() ? !a.is_spade() : a.rank < b.rank;
}
/// Most dangerous first: spades before side cards, then by rank, high first.
bool by_danger(const Card& a, const Card& b) { return by_cost(b, a); }

Card cheapest(const std::vector<Card>& cards) { return *std::min_element(cards.begin(), cards.end(), by_cost); }
Card highest(const std::vector<Card>& cards) { return *std::max_element(cards.begin(), cards.end(), by_cost); }

std::string join(const std::vector<int>& v) {
    std::string out;
    for (int x : v) out += (out.empty() ? "" : " ") + std::to_string(x);
    return out;
}
} // namespace

// The name announced in hello. Do slow start-up work here: hello has its own,
// longer allowance.
std::string Bot::hello(const Hello& hello) {
    log("seat " + std::to_string(hello.seat) + " of a " + hello.variant + " match " + hello.match);
    hello_ = hello;
    return "cpp-starter";
}

// Every event (a message without an id). Nothing to answer.
void Bot::on_event(const Event& e) {
    if (e.type == "hand_end") log("hand " + std::to_string(e.hand) + " scored " + join(e.points) + ", score " + join(e.score));
    if (e.type == "error") log("the referee reports a fault: " + e.message);
}

// Bid Blind Nil before looking at your cards? Only asked where the rules allow it.
// Default: only when our side trails by 200 or more, a gamble worth taking.
bool Bot::blind_nil(const State& s) { return s.behind_by() >= 200; }

// Two-player draw: keep `card` (true: the next card goes to the discard pile) or
// discard it (false: you keep the next card, whatever it is).
// Default: keep spades and queens or better; a Blind Nil bidder keeps low side cards.
bool Bot::keep(const State& s, const Card& card) {
    if (s.is_blind(s.seat)) return !card.is_spade() && card.rank <= 6; // an 8 or lower
    return card.is_spade() || card.rank >= QUEEN;
}

// Two-player Blind Nil: 0..max cards to swap for random cards from the discards.
// Default: the most dangerous cards, jacks or higher, spades first.
std::vector<Card> Bot::discard(const State& s, int max) {
    std::vector<Card> risky;
    for (const Card& c : s.hand) if (c.rank >= JACK) risky.push_back(c);
    std::sort(risky.begin(), risky.end(), by_danger);
    if ((int)risky.size() > max) risky.resize(max);
    return risky;
}

// Partnership Blind Nil exchange: exactly `count` of your cards to seat `to`.
// Default: the Blind Nil bidder gives away its highest cards (spades first), the
// partner gives its lowest side cards, which help the bidder duck.
std::vector<Card> Bot::pass_cards(const State& s, int count, int /*to*/) {
    std::vector<Card> cards = s.hand;
    std::sort(cards.begin(), cards.end(), s.is_nil(s.seat) ? by_danger : by_cost);
    if ((int)cards.size() > count) cards.resize(count);
    return cards;
}

// A bid from `legal` (0 is Nil). Default: a simple count of sure tricks, the nearest
// legal bid to it, never Nil unless nothing else is legal.
int Bot::bid(const State& s, const std::vector<int>& legal) {
    int target = estimate_tricks(s.hand, s.seats());
    auto gap = [&](int b) { return std::abs(b - target) + (b == 0 ? 100 : 0); };
    return *std::min_element(legal.begin(), legal.end(), [&](int a, int b) { return gap(a) < gap(b); });
}

// A card from `legal` (the referee has applied follow-suit and spade rules).
// Default: duck as a Nil bidder; otherwise let partner's winner stand, win as cheaply
// as possible, or throw the cheapest card; lead a side ace when you have one.
Card Bot::play(const State& s, const std::vector<Card>& legal) {
    auto winning = trick_winner(s.trick);
    if (s.is_nil(s.seat)) {
        // Nil: lead the cheapest card; follow with the highest card that does not take
        // the trick, or the highest card if every one of them wins.
        if (!winning) return cheapest(legal);
        std::vector<Card> ducks;
        for (const Card& c : legal) if (!c.beats(winning->card, s.trick[0].card.suit)) ducks.push_back(c);
        return highest(ducks.empty() ? legal : ducks);
    }
    if (!winning) {
        for (const Card& c : legal) if (c.rank == ACE && !c.is_spade()) return c;
        return cheapest(legal);
    }
    if (winning->seat == s.partner() && !s.is_nil(winning->seat)) return cheapest(legal);
    std::vector<Card> winners;
    for (const Card& c : legal) if (c.beats(winning->card, s.trick[0].card.suit)) winners.push_back(c);
    return cheapest(winners.empty() ? legal : winners);
}

int estimate_tricks(const std::vector<Card>& hand, int seats) {
    int length[4] = {0, 0, 0, 0}, tricks = 0;
    for (const Card& c : hand) length[c.suit]++;
    for (const Card& c : hand)
        if (c.rank == ACE || (c.rank == KING && length[c.suit] >= 2) || (c.is_spade() && c.rank == QUEEN && length[SPADES] >= 3))
            tricks++;
    tricks += std::max(0, length[SPADES] - 3) + (seats == 2 ? 1 : 0); // two players share 13 tricks
    return std::max(1, tricks);
}

} // namespace spades
