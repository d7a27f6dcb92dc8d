#!/usr/bin/env node
// Random Spades bot in JavaScript (protocol v1): a uniformly random legal answer to
// every request. Node 20, no dependencies. Run: node bots/js/random_bot.js
// Set BOT_SEED for a reproducible game (the seat is mixed in, so partners differ).
"use strict";
const readline = require("readline");

// mulberry32: a tiny seedable generator (Math.random cannot be seeded).
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function hash(text) {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

let random = Math.random;
const pick = (list) => list[Math.floor(random() * list.length)];
function sample(list, n) { // n distinct items, uniformly
  const copy = list.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

function answer(msg) {
  const hand = (msg.state && msg.state.hand) || [];
  switch (msg.type) {
    case "hello":
      if (process.env.BOT_SEED !== undefined) random = generator(hash(`${process.env.BOT_SEED}/${msg.seat}`));
      return { name: "js-random" };
    case "blind_nil": return { blind_nil: random() < 0.5 };
    case "keep": return { keep: random() < 0.5 };
    case "discard": return { cards: sample(hand, Math.floor(random() * (Math.min(msg.max, hand.length) + 1))) };
    case "pass": return { cards: sample(hand, msg.count) };
    case "bid": return { bid: pick(msg.legal) };
    case "play": return { card: pick(msg.legal) };
    default: return null; // a request type this bot does not know: stay silent
  }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if ("id" in msg) {
    const reply = answer(msg);
    if (reply) process.stdout.write(JSON.stringify({ id: msg.id, ...reply }) + "\n");
  } else if (msg.type === "match_end") {
    rl.close();
  }
});
// Exit once everything written has been flushed (pipes are asynchronous on some systems).
rl.on("close", () => process.stdout.write("", () => process.exit(0)));
