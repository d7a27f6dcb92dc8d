// Cards and the rules of play. A card is the protocol's two-character string:
// rank (2-9, T, J, Q, K, A) then suit (C, D, H, S), e.g. "TH".
"use strict";

const RANKS = "23456789TJQKA";
const SUITS = "CDHS";
const JACK = 9, QUEEN = 10, KING = 11, ACE = 12;

/** @param {string} card @returns {boolean} */
const isCard = (card) => typeof card === "string" && card.length === 2 &&
  RANKS.includes(card[0]) && SUITS.includes(card[1]);
/** Rank index: 0 for a two up to 12 for an ace. @param {string} card */
const rank = (card) => RANKS.indexOf(card[0]);
/** Suit letter: "C", "D", "H" or "S". @param {string} card */
const suit = (card) => card[1];
/** @param {string} card */
const isSpade = (card) => card[1] === "S";
/** Protocol sort order: by suit (C, D, H, S), then rank. @param {string} a @param {string} b */
const compare = (a, b) => SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]) || rank(a) - rank(b);

/**
 * Does `card` beat `other` in a trick led in suit `led`? A spade beats any other
 * suit; otherwise only a higher card of the led suit wins.
 */
function beats(card, other, led) {
  if (card[1] === other[1]) return rank(card) > rank(other);
  return isSpade(card) || (!isSpade(other) && card[1] === led);
}

/**
 * The [seat, card] winning `trick` (plays in order), or null for an empty trick.
 * @param {Array<[number, string]>} trick
 * @returns {[number, string] | null}
 */
function trickWinner(trick) {
  if (trick.length === 0) return null;
  const led = trick[0][1][1];
  return trick.reduce((best, play) => (beats(play[1], best[1], led) ? play : best));
}

/**
 * The cards of `hand` that may be played to `trick`: follow the led suit if you can;
 * when leading, no spade until spades are broken unless you hold only spades.
 * (Requests already carry `legal`; this is for looking ahead in your strategy.)
 * @param {string[]} hand @param {Array<[number, string]>} trick @param {boolean} spadesBroken
 */
function legalPlays(hand, trick, spadesBroken) {
  if (trick.length > 0) {
    const follow = hand.filter((c) => c[1] === trick[0][1][1]);
    return follow.length > 0 ? follow : hand.slice();
  }
  const side = hand.filter((c) => !isSpade(c));
  return spadesBroken || side.length === 0 ? hand.slice() : side;
}

module.exports = { RANKS, SUITS, JACK, QUEEN, KING, ACE, isCard, rank, suit, isSpade, compare, beats, trickWinner, legalPlays };
