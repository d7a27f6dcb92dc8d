// Spades bot starter kit (C++17, standard library only), protocol v1.
//
// This file is the protocol loop: read one JSON message per line from stdin, hand
// each request to the Bot in strategy.cpp, check its answer, write the answer line
// to stdout and flush. You normally edit only strategy.cpp.
//
// Build: make        Run: ./spadesbot
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <set>
#include <string>

#include "strategy.hpp"

namespace spades {

void log(const std::string& text) { std::cerr << "[spadesbot] " << text << std::endl; }

namespace {

const bool strict = std::getenv("SPADES_STRICT") && std::string(std::getenv("SPADES_STRICT")) != "0";

/// A strategy call; an exception is logged and gives `fallback`.
template <typename T>
T guarded(const char* what, const std::function<T()>& call, T fallback) {
    try {
        return call();
    } catch (const std::exception& e) {
        if (strict) throw;
        log(std::string(what) + " threw: " + e.what() + "; answering a safe default instead (SPADES_STRICT=1 to stop here)");
        return fallback;
    }
}

std::string show(const std::vector<Card>& cards) {
    std::string out;
    for (const Card& c : cards) out += (out.empty() ? "" : " ") + c.name();
    return "[" + out + "]";
}

json::Value card_list(const std::vector<Card>& cards) {
    std::vector<json::Value> items;
    for (const Card& c : cards) items.emplace_back(c.name());
    return json::Value(items);
}

/// lo..hi distinct cards, each held.
bool held_distinct(const std::vector<Card>& cards, const std::vector<Card>& hand, int lo, int hi) {
    if ((int)cards.size() < lo || (int)cards.size() > hi) return false;
    std::set<Card> seen(cards.begin(), cards.end());
    if (seen.size() != cards.size()) return false;
    for (const Card& c : cards)
        if (std::find(hand.begin(), hand.end(), c) == hand.end()) return false;
    return true;
}

/// The answer field and value: the strategy's decision when it is legal, otherwise
/// (logged) a safe fallback, so a strategy bug never forfeits the match.
std::pair<std::string, json::Value> decide(Bot& bot, const Request& r) {
    const State& s = r.state;
    if (r.type == "hello")
        return {"name", guarded<std::string>("hello", [&] { return bot.hello(r.hello); }, "cpp-starter")};
    if (r.type == "blind_nil")
        return {"blind_nil", guarded<bool>("blind_nil", [&] { return bot.blind_nil(s); }, false)};
    if (r.type == "keep")
        return {"keep", guarded<bool>("keep", [&] { return bot.keep(s, r.card); }, true)};
    if (r.type == "discard") {
        auto cards = guarded<std::vector<Card>>("discard", [&] { return bot.discard(s, r.max); }, {});
        if (held_distinct(cards, s.hand, 0, r.max)) return {"cards", card_list(cards)};
        log("discard returned " + show(cards) + ": not 0.." + std::to_string(r.max) + " distinct cards you hold; discarding nothing");
        return {"cards", card_list({})};
    }
    if (r.type == "pass") {
        std::vector<Card> fallback(s.hand.begin(), s.hand.begin() + std::min<size_t>(r.count, s.hand.size()));
        auto cards = guarded<std::vector<Card>>("pass_cards", [&] { return bot.pass_cards(s, r.count, r.to); }, fallback);
        if (held_distinct(cards, s.hand, r.count, r.count)) return {"cards", card_list(cards)};
        log("pass_cards returned " + show(cards) + ": not exactly " + std::to_string(r.count) + " distinct cards you hold; passing " + show(fallback));
        return {"cards", card_list(fallback)};
    }
    if (r.type == "bid") {
        std::vector<int> legal = r.legal_bids.empty() ? std::vector<int>{1} : r.legal_bids;
        int fallback = legal[0]; // the lowest bid that is not Nil, if there is one
        for (int b : legal) if (b != 0 && (fallback == 0 || b < fallback)) fallback = b;
        int bid = guarded<int>("bid", [&] { return bot.bid(s, legal); }, fallback);
        if (std::find(legal.begin(), legal.end(), bid) != legal.end()) return {"bid", bid};
        log("bid returned " + std::to_string(bid) + ", not in legal; bidding " + std::to_string(fallback));
        return {"bid", fallback};
    }
    // play. legal is always sent; recomputing it guards against an empty list.
    std::vector<Card> legal = r.legal_cards.empty() ? legal_plays(s.hand, s.trick, s.spades_broken) : r.legal_cards;
    if (legal.empty()) {
        log("play request with no legal card and an empty hand");
        return {"card", "AS"};
    }
    Card card = guarded<Card>("play", [&] { return bot.play(s, legal); }, legal[0]);
    if (std::find(legal.begin(), legal.end(), card) != legal.end()) return {"card", card.name()};
    log("play returned " + card.name() + ", not in legal " + show(legal) + "; playing " + legal[0].name());
    return {"card", legal[0].name()};
}

} // namespace
} // namespace spades

int main() {
    using namespace spades;
    std::ios::sync_with_stdio(false);
    Bot bot;
    std::optional<Hello> hello;
    std::string line;
    while (std::getline(std::cin, line)) { // false at end of input: the match is over
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        Message msg;
        try {
            msg = parse_message(line, hello);
        } catch (const std::exception& e) {
            log(std::string("ignoring a message I cannot use (") + e.what() + "): " + line);
            continue;
        }
        if (!msg.is_request) {
            guarded<bool>("on_event", [&] { bot.on_event(msg.event); return true; }, false);
            if (msg.event.type == "match_end") break;
            continue;
        }
        const Request& r = msg.request;
        if (r.type == "hello") hello = r.hello;
        auto [field, value] = decide(bot, r);
        json::Value answer(std::vector<std::pair<std::string, json::Value>>{{"id", r.id}, {field, value}});
        // One line per answer, flushed at once: std::cout is fully buffered on a pipe,
        // and an answer left in the buffer looks to the referee like no answer at all.
        std::cout << answer.dump() << '\n' << std::flush;
        if (!std::cout) {
            log("cannot write the answer: stdout is closed");
            break;
        }
    }
    return 0;
}
