// YOUR BOT'S DECISIONS: this is the file to edit.
//
// Each method answers one kind of request. Every default here is legal and makes a
// modest, sensible choice, so the bot plays whole matches before you change anything.
// protocol.js checks what you return: an illegal answer (a card not in legal, the
// wrong number of cards, ...) is logged to stderr and replaced by a safe legal one,
// and so is an exception (set SPADES_STRICT=1 to let it crash the bot while you
// develop). Log with log() (stderr); never console.log (that is stdout).
//
// Every request carries `state` (your whole view of the hand; see State in
// protocol.js), so the bot needs no memory; onEvent is there to track things yourself.
"use strict";
const { JACK, QUEEN, KING, ACE, rank, isSpade, beats, trickWinner } = require("./cards");
const { log } = require("./protocol");

/** Cheapest first: side cards before spades, then by rank. */
const byCost = (a, b) => isSpade(a) - isSpade(b) || rank(a) - rank(b);
/** Most dangerous first: spades before side cards, then by rank, high first. */
const byDanger = (a, b) => isSpade(b) - isSpade(a) || rank(b) - rank(a);
const cheapest = (cards) => cards.slice().sort(byCost)[0];

/** Aces, guarded kings, the spade queen with two guards, spades beyond three;
 * two players share 13 tricks, so each takes a few more. */
function estimateTricks(hand, seats) {
  const length = (s) => hand.filter((c) => c[1] === s).length;
  let tricks = hand.filter((c) => rank(c) === ACE || (rank(c) === KING && length(c[1]) >= 2) ||
    (isSpade(c) && rank(c) === QUEEN && length("S") >= 3)).length;
  tricks += Math.max(0, length("S") - 3) + (seats === 2 ? 1 : 0);
  return Math.max(1, tricks);
}

class Bot {
  /** Called with the hello message; returns the name to announce. Do slow start-up
   * work here: hello has its own, longer allowance. */
  hello(hello) {
    log(`seat ${hello.seat} of a ${hello.variant} match ${hello.match ?? ""}`);
    this.rules = hello.rules || {};
    return "js-starter";
  }

  /** Every event (a message without an id). Nothing to answer. */
  onEvent(event) {
    if (event.type === "hand_end") log(`hand ${event.hand} scored ${JSON.stringify(event.points)}, score ${JSON.stringify(event.score)}`);
    if (event.type === "error") log(`the referee reports a fault: ${event.message}`);
  }

  /** Bid Blind Nil before looking at your cards? Only asked where the rules allow it.
   * Default: only when our side trails by 200 or more, a gamble worth taking. */
  blindNil(state) {
    return state.behindBy >= 200;
  }

  /** Two-player draw: keep `card` (true: the next card goes to the discard pile) or
   * discard it (false: you keep the next card, whatever it is).
   * Default: keep spades and queens or better; a Blind Nil bidder keeps low side cards. */
  keep(state, card) {
    if (state.blind[state.seat]) return !isSpade(card) && rank(card) <= 6; // an 8 or lower
    return isSpade(card) || rank(card) >= QUEEN;
  }

  /** Two-player Blind Nil: 0..max cards to swap for random cards from the discards.
   * Default: the most dangerous cards, jacks or higher, spades first. */
  discard(state, max) {
    return state.hand.filter((c) => rank(c) >= JACK).sort(byDanger).slice(0, max);
  }

  /** Partnership Blind Nil exchange: exactly `count` of your cards to seat `to`.
   * Default: the Blind Nil bidder gives away its highest cards (spades first), the
   * partner gives its lowest side cards, which help the bidder duck. */
  passCards(state, count, to) {
    return state.hand.slice().sort(state.isNil(state.seat) ? byDanger : byCost).slice(0, count);
  }

  /** A bid from `legal` (0 is Nil). Default: a simple count of sure tricks, the
   * nearest legal bid to it, never Nil unless nothing else is legal. */
  bid(state, legal) {
    const target = estimateTricks(state.hand, state.seats);
    const gap = (b) => Math.abs(b - target) + (b === 0 ? 100 : 0);
    return legal.reduce((best, b) => (gap(b) < gap(best) ? b : best));
  }

  /** A card from `legal` (the referee has applied follow-suit and spade rules).
   * Default: duck as a Nil bidder; otherwise let partner's winner stand, win as
   * cheaply as possible, or throw the cheapest card; lead a side ace when you have one. */
  play(state, legal) {
    const winning = trickWinner(state.trick);
    const led = state.trick.length ? state.trick[0][1][1] : null;
    if (state.isNil(state.seat)) {
      // Nil: lead the cheapest card; follow with the highest card that does not take
      // the trick, or the highest card if every one of them wins.
      if (!winning) return cheapest(legal);
      const ducks = legal.filter((c) => !beats(c, winning[1], led));
      return (ducks.length ? ducks : legal).slice().sort(byCost).pop();
    }
    if (!winning) return legal.find((c) => rank(c) === ACE && !isSpade(c)) || cheapest(legal);
    if (winning[0] === state.partner && !state.isNil(winning[0])) return cheapest(legal);
    const winners = legal.filter((c) => beats(c, winning[1], led));
    return cheapest(winners.length ? winners : legal);
  }
}

module.exports = { Bot, estimateTricks };
