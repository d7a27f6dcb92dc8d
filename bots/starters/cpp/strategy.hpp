// The bot's decision methods; their definitions in strategy.cpp are the file to edit.
#pragma once

#include <string>
#include <vector>

#include "protocol.hpp"

namespace spades {

/// Log a line to stderr: stdout carries answers only.
void log(const std::string& text);

/// One method per request type, plus an event hook. Put whatever the bot remembers
/// between requests in its members.
class Bot {
public:
    std::string hello(const Hello& hello);
    void on_event(const Event& event);
    bool blind_nil(const State& s);
    bool keep(const State& s, const Card& card);
    std::vector<Card> discard(const State& s, int max);
    std::vector<Card> pass_cards(const State& s, int count, int to);
    int bid(const State& s, const std::vector<int>& legal);
    Card play(const State& s, const std::vector<Card>& legal);

private:
    Hello hello_;
};

/// Aces, guarded kings, the spade queen with two guards, spades beyond three.
int estimate_tricks(const std::vector<Card>& hand, int seats);

} // namespace spades
