// Protocol v1 messages as C++ types: what the referee sends (hello, the requests with
// their state, the events) and how they are read from JSON. Field names follow
// docs/protocol.md; fields this kit does not know are ignored.
#pragma once

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cards.hpp"
#include "json.hpp"

namespace spades {

/// A message this kit cannot use (logged, never answered).
struct BadMessage : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The match facts from hello. `move_ms` is empty for a seat without a clock.
struct Hello {
    int protocol = 1;
    std::string match, variant; // variant: "two-player" or "partnership"
    int seat = 0;
    std::vector<std::string> names;
    json::Value rules; // every rule option, as sent: rules["blind_nil_cards"].as_int()
    std::optional<long long> move_ms;
    long long bank_ms = 0;
};

/// A request's state: this seat's whole view of the hand.
struct State {
    int hand_no = 0, seat = 0, leader = 0;
    std::string phase, variant = "partnership";
    std::vector<Card> hand;           // your cards now, sorted (empty in a partnership blind_nil)
    std::optional<int> dealer, first; // partnership: dealer; two-player: first to draw
    std::vector<std::optional<int>> bids; // per seat: the bid (0 = Nil), empty if not made yet
    std::vector<bool> blind;          // per seat: bid Blind Nil
    std::vector<int> tricks;          // per seat: tricks taken this hand
    std::vector<Play> trick;          // the trick in progress (empty when you lead)
    bool spades_broken = false;
    std::vector<Play> played;         // every card played this hand, in order
    std::vector<int> score, bags;     // per side, before this hand
    std::optional<long long> move_ms;
    long long bank_ms = 0;
    std::vector<Card> discards, passed, received; // two-player pile / partnership pass / received
    json::Value raw;                  // the object as sent, for fields a later protocol may add

    int seats() const { return variant == "two-player" ? 2 : 4; }
    /// The side (index into score and bags) that `s` plays for.
    int side_of(int s) const { return seats() == 2 ? s : s % 2; }
    int side() const { return side_of(seat); }
    /// The partner's seat, or -1 in the two-player game.
    int partner() const { return seats() == 4 ? (seat + 2) % 4 : -1; }
    /// Did `s` bid Nil or Blind Nil this hand?
    bool is_nil(int s) const { return s >= 0 && s < (int)bids.size() && bids[s] && *bids[s] == 0; }
    bool is_blind(int s) const { return s >= 0 && s < (int)blind.size() && blind[s]; }
    /// The best other side's score minus ours (positive: we trail).
    int behind_by() const {
        if (side() >= (int)score.size()) return 0;
        int mine = score[side()], best = mine;
        for (int k = 0; k < (int)score.size(); k++) if (k != side()) best = std::max(best, score[k]);
        return best - mine;
    }
};

/// A request: `type` is hello, blind_nil, keep, discard, pass, bid or play; the other
/// fields are set for the types named beside them.
struct Request {
    std::string type;
    json::Value id;             // echoed as received
    Hello hello;                // hello
    State state;                // every request but hello
    Card card;                  // keep: the card just drawn
    int max = 0;                // discard: at most this many cards
    int count = 0, to = 0;      // pass: exactly count cards, to seat `to`
    std::vector<int> legal_bids;   // bid
    std::vector<Card> legal_cards; // play
};

/// An event (no id, never answered). `type` says which fields are set: hand_start
/// (hand, dealer or first, score, bags), hand (cards), drawn (kept, discarded),
/// bid_made (seat, bid, blind_bid), received (cards, from: a seat or -1 for the
/// discard pile), played (seat, card), trick (plays, winner), hand_end (hand, bids,
/// blind, tricks, points, score, bags), match_end (score, winner: a side, empty for a
/// draw, reason), error (message).
struct Event {
    std::string type;
    int hand = 0, seat = 0, bid = 0, from = -1;
    std::optional<int> dealer, first, winner;
    bool blind_bid = false;
    Card card, kept, discarded;
    std::vector<Card> cards;
    std::vector<Play> plays;
    std::vector<int> bids, tricks, points, score, bags;
    std::vector<bool> blind;
    std::string reason, message;
    json::Value raw;
};

// ------------------------------------------------------------------ reading

namespace detail {
inline std::optional<int> opt_int(const json::Value& v) {
    return v.is_integer() ? std::optional<int>(static_cast<int>(v.as_int())) : std::nullopt;
}
inline std::vector<int> ints(const json::Value& v) {
    std::vector<int> out;
    for (const auto& x : v.items()) out.push_back(static_cast<int>(x.as_int()));
    return out;
}
inline std::vector<bool> bools(const json::Value& v) {
    std::vector<bool> out;
    for (const auto& x : v.items()) out.push_back(x.as_bool());
    return out;
}
inline Card card(const json::Value& v) {
    auto c = Card::parse(v.as_string());
    if (!c) throw BadMessage("not a card: " + v.dump());
    return *c;
}
inline std::vector<Card> cards(const json::Value& v) {
    std::vector<Card> out;
    for (const auto& x : v.items()) out.push_back(card(x));
    return out;
}
inline std::vector<Play> plays(const json::Value& v) {
    std::vector<Play> out;
    for (const auto& x : v.items()) {
        if (x.items().size() != 2 || !x.items()[0].is_integer()) throw BadMessage("not a [seat, card] pair: " + x.dump());
        out.push_back(Play{static_cast<int>(x.items()[0].as_int()), card(x.items()[1])});
    }
    return out;
}
inline std::optional<long long> opt_ms(const json::Value& v) {
    return v.is_integer() ? std::optional<long long>(v.as_int()) : std::nullopt;
}

inline State state(const json::Value& s, const std::optional<Hello>& hello) {
    State st;
    st.raw = s;
    st.hand_no = static_cast<int>(s["hand_no"].as_int());
    st.seat = static_cast<int>(s["seat"].as_int(hello ? hello->seat : 0));
    st.phase = s["phase"].as_string();
    st.variant = s["variant"].is_string() ? s["variant"].as_string() : hello ? hello->variant : "partnership";
    st.hand = cards(s["hand"]);
    std::sort(st.hand.begin(), st.hand.end());
    st.dealer = opt_int(s["dealer"]);
    st.first = opt_int(s["first"]);
    for (const auto& b : s["bids"].items()) st.bids.push_back(opt_int(b));
    st.blind = bools(s["blind"]);
    st.tricks = ints(s["tricks"]);
    st.trick = plays(s["trick"]);
    st.leader = static_cast<int>(s["leader"].as_int());
    st.spades_broken = s["spades_broken"].as_bool();
    st.played = plays(s["played"]);
    st.score = ints(s["score"]);
    st.bags = ints(s["bags"]);
    st.move_ms = opt_ms(s["time"]["move_ms"]);
    st.bank_ms = s["time"]["bank_ms"].as_int();
    st.discards = cards(s["discards"]);
    st.passed = cards(s["passed"]);
    st.received = cards(s["received"]);
    return st;
}
} // namespace detail

/// A parsed line: a request (`is_request`) or an event.
struct Message {
    bool is_request = false;
    Request request;
    Event event;
};

/// Parse one line; throws BadMessage (or json::ParseError) for a line this kit cannot use.
inline Message parse_message(const std::string& line, const std::optional<Hello>& hello) {
    using namespace detail;
    json::Value m = json::Value::parse(line);
    if (!m.is_object()) throw BadMessage("not a JSON object");
    if (!m["type"].is_string()) throw BadMessage("message has no \"type\"");
    Message out;
    const std::string type = m["type"].as_string();
    if (m.has("id")) {
        out.is_request = true;
        Request& r = out.request;
        r.type = type;
        r.id = m["id"];
        if (type == "hello") {
            Hello& h = r.hello;
            h.protocol = static_cast<int>(m["protocol"].as_int(1));
            h.match = m["match"].as_string();
            h.variant = m["variant"].as_string();
            h.seat = static_cast<int>(m["seat"].as_int());
            for (const auto& n : m["names"].items()) h.names.push_back(n.as_string());
            h.rules = m["rules"];
            h.move_ms = opt_ms(m["time"]["move_ms"]);
            h.bank_ms = m["time"]["bank_ms"].as_int();
            return out;
        }
        if (type == "keep") r.card = card(m["card"]);
        else if (type == "discard") r.max = static_cast<int>(m["max"].as_int());
        else if (type == "pass") { r.count = static_cast<int>(m["count"].as_int()); r.to = static_cast<int>(m["to"].as_int()); }
        else if (type == "bid") r.legal_bids = ints(m["legal"]);
        else if (type == "play") r.legal_cards = cards(m["legal"]);
        else if (type != "blind_nil") throw BadMessage("unknown request type \"" + type + "\"");
        if (!m["state"].is_object()) throw BadMessage(type + " request without \"state\"");
        r.state = state(m["state"], hello);
        return out;
    }
    Event& e = out.event;
    e.type = type;
    e.raw = m;
    e.hand = static_cast<int>(m["hand"].as_int());
    e.seat = static_cast<int>(m["seat"].as_int());
    e.dealer = opt_int(m["dealer"]);
    e.first = opt_int(m["first"]);
    e.winner = opt_int(m["winner"]);
    e.score = ints(m["score"]);
    e.bags = ints(m["bags"]);
    e.reason = m["reason"].as_string();
    e.message = m["message"].as_string();
    if (type == "hand" || type == "received") {
        e.cards = cards(m["cards"]);
        e.from = m["from"].is_integer() ? static_cast<int>(m["from"].as_int()) : -1;
    } else if (type == "drawn") {
        e.kept = card(m["kept"]);
        e.discarded = card(m["discarded"]);
    } else if (type == "bid_made") {
        e.bid = static_cast<int>(m["bid"].as_int());
        e.blind_bid = m["blind"].as_bool();
    } else if (type == "played") {
        e.card = card(m["card"]);
    } else if (type == "trick") {
        e.plays = plays(m["cards"]);
    } else if (type == "hand_end") {
        e.bids = ints(m["bids"]);
        e.blind = bools(m["blind"]);
        e.tricks = ints(m["tricks"]);
        e.points = ints(m["points"]);
    }
    return out;
}

} // namespace spades
