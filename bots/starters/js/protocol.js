// Protocol v1 plumbing: read one JSON message per line from stdin, hand each request
// to the bot's decision methods, check the answer, write it to stdout. Field names
// follow docs/protocol.md; unknown fields are ignored. You normally edit only
// strategy.js.
"use strict";
const readline = require("readline");
const { isCard, compare, legalPlays } = require("./cards");

/** Log a line to stderr: stdout carries answers only. */
function log(...parts) {
  process.stderr.write(`[spadesbot] ${parts.join(" ")}\n`);
}

/** A request's `state`: this seat's whole view of the hand. */
class State {
  constructor(raw) {
    const s = raw || {};
    /** @type {number} */ this.handNo = s.hand_no ?? 0;
    /** @type {number} */ this.seat = s.seat ?? 0;
    /** @type {string} */ this.phase = s.phase ?? "";
    /** @type {"two-player"|"partnership"} */ this.variant = s.variant ?? ((s.bids || []).length === 2 ? "two-player" : "partnership");
    /** Your cards now, sorted (empty in a partnership blind_nil request). @type {string[]} */
    this.hand = (s.hand || []).slice().sort(compare);
    /** Partnership: the dealer; two-player: null. @type {number|null} */ this.dealer = s.dealer ?? null;
    /** Two-player: the first player (first to draw); partnership: null. @type {number|null} */ this.first = s.first ?? null;
    /** Per seat: the bid (0 = Nil), null if not made yet. @type {Array<number|null>} */ this.bids = s.bids || [];
    /** Per seat: bid Blind Nil. @type {boolean[]} */ this.blind = s.blind || [];
    /** Per seat: tricks taken this hand. @type {number[]} */ this.tricks = s.tricks || [];
    /** The trick in progress, [seat, card] in play order. @type {Array<[number, string]>} */ this.trick = s.trick || [];
    /** @type {number} */ this.leader = s.leader ?? 0;
    /** @type {boolean} */ this.spadesBroken = !!s.spades_broken;
    /** Every card played this hand, in order. @type {Array<[number, string]>} */ this.played = s.played || [];
    /** Per side, before this hand. @type {number[]} */ this.score = s.score || [0, 0];
    /** @type {number[]} */ this.bags = s.bags || [0, 0];
    /** move_ms is null for a seat without a clock. @type {{move_ms: number|null, bank_ms: number}} */
    this.time = s.time || { move_ms: null, bank_ms: 0 };
    /** Two-player: cards you put on the discard pile. @type {string[]} */ this.discards = s.discards || [];
    /** Partnership: cards you passed. @type {string[]} */ this.passed = s.passed || [];
    /** Cards received this hand. @type {string[]} */ this.received = s.received || [];
    /** The object as sent, for fields a later protocol may add. */ this.raw = s;
  }
  get seats() { return this.variant === "two-player" ? 2 : 4; }
  /** The side (index into score and bags) that `seat` plays for. */
  sideOf(seat) { return this.seats === 2 ? seat : seat % 2; }
  get side() { return this.sideOf(this.seat); }
  /** The partner's seat, or null in the two-player game. */
  get partner() { return this.seats === 4 ? (this.seat + 2) % 4 : null; }
  /** Did `seat` bid Nil or Blind Nil this hand? */
  isNil(seat) { return this.bids[seat] === 0; }
  /** The best other side's score minus ours (positive: we trail). */
  get behindBy() {
    const mine = this.score[this.side] ?? 0;
    return Math.max(mine, ...this.score.filter((_, i) => i !== this.side)) - mine;
  }
}

/** The first value of `msg` that should be a card and is not (undefined if none). */
function badCard(msg) {
  const second = (pair) => (Array.isArray(pair) ? pair[1] : pair);
  const list = (value) => (Array.isArray(value) ? value : []);
  const state = msg.state || {};
  const values = [msg.card, msg.kept, msg.discarded, ...list(msg.cards).map(second),
    ...(msg.type === "play" ? list(msg.legal) : []), ...list(state.hand),
    ...list(state.trick).map(second), ...list(state.played).map(second)];
  return values.find((v) => v !== undefined && !isCard(v));
}

/** lo..hi distinct cards, each held. */
function heldDistinct(cards, hand, lo, hi) {
  return Array.isArray(cards) && cards.length >= lo && cards.length <= hi &&
    new Set(cards).size === cards.length && cards.every((c) => hand.includes(c));
}

const strict = !!process.env.SPADES_STRICT && process.env.SPADES_STRICT !== "0";

/** Call a decision method; an exception is logged with its stack and gives `fallback`. */
function guarded(name, call, fallback) {
  try {
    return call();
  } catch (err) {
    if (strict) throw err;
    log(`${name} threw ${err && err.stack ? err.stack : err}\nanswering a safe default instead (SPADES_STRICT=1 to stop here)`);
    return fallback;
  }
}

/**
 * The answer field and value for one request: the bot's decision when it is legal,
 * otherwise (logged) a safe fallback, so a strategy bug never forfeits the match.
 * @returns {[string, unknown] | null}
 */
function decide(bot, msg) {
  const state = new State(msg.state);
  const hand = state.hand;
  switch (msg.type) {
    case "hello":
      return ["name", String(guarded("hello", () => bot.hello(msg), "js-starter"))];
    case "blind_nil":
      return ["blind_nil", guarded("blindNil", () => bot.blindNil(state), false) === true];
    case "keep": {
      const choice = guarded("keep", () => bot.keep(state, msg.card), true);
      return ["keep", typeof choice === "boolean" ? choice : true];
    }
    case "discard": {
      const cards = guarded("discard", () => bot.discard(state, msg.max), []);
      if (heldDistinct(cards, hand, 0, msg.max)) return ["cards", cards];
      log(`discard returned ${JSON.stringify(cards)}: not 0..${msg.max} distinct cards you hold; discarding nothing`);
      return ["cards", []];
    }
    case "pass": {
      const fallback = hand.slice(0, msg.count);
      const cards = guarded("passCards", () => bot.passCards(state, msg.count, msg.to), fallback);
      if (heldDistinct(cards, hand, msg.count, msg.count)) return ["cards", cards];
      log(`passCards returned ${JSON.stringify(cards)}: not exactly ${msg.count} distinct cards you hold; passing ${JSON.stringify(fallback)}`);
      return ["cards", fallback];
    }
    case "bid": {
      const legal = Array.isArray(msg.legal) && msg.legal.length ? msg.legal : [1];
      const nonNil = legal.filter((b) => b !== 0);
      const fallback = nonNil.length ? Math.min(...nonNil) : legal[0]; // lowest bid that is not Nil
      const bid = guarded("bid", () => bot.bid(state, legal), fallback);
      if (legal.includes(bid)) return ["bid", bid];
      log(`bid returned ${JSON.stringify(bid)}, not in legal ${JSON.stringify(legal)}; bidding ${fallback}`);
      return ["bid", fallback];
    }
    case "play": {
      // legal is always sent; recomputing it guards against a bad list.
      let legal = Array.isArray(msg.legal) && msg.legal.length && msg.legal.every(isCard) ? msg.legal : null;
      legal = legal || legalPlays(hand, state.trick, state.spadesBroken);
      if (legal.length === 0) { log("play request with no legal card and an empty hand"); return ["card", "AS"]; }
      const card = guarded("play", () => bot.play(state, legal), legal[0]);
      if (legal.includes(card)) return ["card", card];
      log(`play returned ${JSON.stringify(card)}, not in legal ${JSON.stringify(legal)}; playing ${legal[0]}`);
      return ["card", legal[0]];
    }
    default:
      log(`not answering a request of unknown type ${JSON.stringify(msg.type)}`);
      return null;
  }
}

/** Serve the referee on stdin/stdout until match_end or end of input. */
function run(bot) {
  const rl = readline.createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (!line.trim()) return;
    let msg;
    try {
      msg = JSON.parse(line);
      if (msg === null || typeof msg !== "object" || Array.isArray(msg) || typeof msg.type !== "string") throw new Error("not a message object with a type");
      const bad = badCard(msg);
      if (bad !== undefined) throw new Error(`not a card: ${JSON.stringify(bad)}`);
    } catch (err) {
      log(`ignoring a message I cannot use (${err.message}): ${line}`);
      return;
    }
    if ("id" in msg) {
      const answer = decide(bot, msg);
      // One line per answer. A pipe is written synchronously on Linux, so it leaves
      // at once; the exit below still waits for the last write to drain.
      if (answer) process.stdout.write(JSON.stringify({ id: msg.id, [answer[0]]: answer[1] }) + "\n");
      return;
    }
    guarded("onEvent", () => bot.onEvent(msg), undefined);
    if (msg.type === "match_end") rl.close();
  });
  // Exit once everything written has been flushed.
  rl.on("close", () => process.stdout.write("", () => process.exit(0)));
}

module.exports = { State, log, run };
