//! Spades bot starter kit (Rust, standard library only), protocol v1.
//!
//! This file is the protocol loop: read one JSON message per line from stdin, hand
//! each request to `strategy::Bot`, check its answer, write the answer line to stdout
//! and flush. You normally edit only `strategy.rs`.
//!
//! Build: cargo build --release        Run: target/release/spadesbot

// The kit offers more types, fields and helpers than the default strategy uses.
#![allow(dead_code)]

mod cards;
mod json;
mod protocol;
mod strategy;

use std::collections::HashSet;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};

use cards::{legal_plays, Card};
use json::Json;
use protocol::{parse_message, Answer, Decision, Event, Hello, Message, Request, State};
use strategy::Bot;

/// Log a line to stderr: stdout carries answers only.
#[macro_export]
macro_rules! log {
    ($($arg:tt)*) => { eprintln!("[spadesbot] {}", format!($($arg)*)) };
}

#[allow(clippy::unnecessary_map_or)] // is_some_and needs Rust 1.70; the kit builds with 1.63
fn main() {
    let strict = std::env::var_os("SPADES_STRICT").map_or(false, |v| v != "0");
    let mut bot = Bot::default();
    let mut hello: Option<Hello> = None;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break, // end of input: the match is over
            Ok(_) => {}
            Err(e) => {
                log!("cannot read stdin: {}", e);
                break;
            }
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        let message =
            match Json::parse(&text).map_err(|e| e.to_string()).and_then(|m| parse_message(&m, hello.as_ref())) {
                Ok(m) => m,
                Err(why) => {
                    log!("ignoring a message I cannot use ({}): {}", why, text.trim_end());
                    continue;
                }
            };
        match message {
            Message::Event(event) => {
                guarded(strict, "on_event", || bot.on_event(&event));
                if let Event::MatchEnd { .. } = event {
                    break;
                }
            }
            Message::Request(request) => {
                if let Decision::Hello(h) = &request.decision {
                    hello = Some(h.clone());
                }
                let answer = decide(&mut bot, &request, strict);
                let mut out = io::stdout().lock();
                // One line per answer, flushed at once: an answer left in a buffer
                // looks to the referee exactly like no answer (a timeout).
                let written = writeln!(out, "{}", answer.to_line(&request.id)).and_then(|_| out.flush());
                if let Err(e) = written {
                    log!("cannot write the answer: {}", e);
                    break;
                }
            }
        }
    }
}

/// Run a strategy call, turning a panic into `None` (logged by the panic hook).
fn guarded<T>(strict: bool, what: &str, call: impl FnOnce() -> T) -> Option<T> {
    match panic::catch_unwind(AssertUnwindSafe(call)) {
        Ok(value) => Some(value),
        Err(payload) if strict => panic::resume_unwind(payload),
        Err(_) => {
            log!("{} panicked; answering a safe default instead (SPADES_STRICT=1 to stop here)", what);
            None
        }
    }
}

/// Ask the strategy, then make sure the answer is legal; if it is not, log why and
/// answer the safe fallback instead, so a strategy bug never forfeits the match.
fn decide(bot: &mut Bot, request: &Request, strict: bool) -> Answer {
    let empty = State::placeholder();
    let state = request.state.as_ref().unwrap_or(&empty);
    let hand: HashSet<Card> = state.hand.iter().copied().collect();
    let cards_ok = |cards: &[Card], lo: usize, hi: usize| {
        let distinct: HashSet<Card> = cards.iter().copied().collect();
        distinct.len() == cards.len() && (lo..=hi).contains(&cards.len()) && cards.iter().all(|c| hand.contains(c))
    };
    let show = |cards: &[Card]| cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
    match &request.decision {
        Decision::Hello(h) => {
            Answer::Hello { name: guarded(strict, "hello", || bot.hello(h)).unwrap_or_else(|| "rust-starter".into()) }
        }
        Decision::BlindNil => Answer::BlindNil(guarded(strict, "blind_nil", || bot.blind_nil(state)).unwrap_or(false)),
        Decision::Keep { card } => Answer::Keep(guarded(strict, "keep", || bot.keep(state, *card)).unwrap_or(true)),
        Decision::Discard { max } => match guarded(strict, "discard", || bot.discard(state, *max)) {
            Some(cards) if cards_ok(&cards, 0, *max) => Answer::Cards(cards),
            Some(cards) => {
                log!("discard returned [{}]: not 0..{} distinct cards you hold; discarding nothing", show(&cards), max);
                Answer::Cards(Vec::new())
            }
            None => Answer::Cards(Vec::new()),
        },
        Decision::Pass { count, to } => {
            let fallback = || state.hand.iter().copied().take(*count).collect::<Vec<Card>>();
            match guarded(strict, "pass_cards", || bot.pass_cards(state, *count, *to)) {
                Some(cards) if cards_ok(&cards, *count, *count) => Answer::Cards(cards),
                Some(cards) => {
                    log!(
                        "pass_cards returned [{}]: not exactly {} distinct cards you hold; passing [{}]",
                        show(&cards),
                        count,
                        show(&fallback())
                    );
                    Answer::Cards(fallback())
                }
                None => Answer::Cards(fallback()),
            }
        }
        Decision::Bid { legal } => {
            // Fallback: the lowest bid that is not Nil.
            let fallback = legal.iter().copied().filter(|&b| b != 0).min().or(legal.first().copied()).unwrap_or(1);
            match guarded(strict, "bid", || bot.bid(state, legal)) {
                Some(b) if legal.contains(&b) => Answer::Bid(b),
                Some(b) => {
                    log!("bid returned {}, not in legal {:?}; bidding {}", b, legal, fallback);
                    Answer::Bid(fallback)
                }
                None => Answer::Bid(fallback),
            }
        }
        Decision::Play { legal } => {
            // `legal` is always sent; recomputing it guards against an empty list.
            let legal = if legal.is_empty() {
                legal_plays(&state.hand, &state.trick, state.spades_broken)
            } else {
                legal.clone()
            };
            let fallback = match legal.first() {
                Some(&card) => card,
                None => {
                    log!("play request with no legal card and an empty hand; answering AS");
                    return Answer::Card(Card::parse("AS").unwrap());
                }
            };
            match guarded(strict, "play", || bot.play(state, &legal)) {
                Some(c) if legal.contains(&c) => Answer::Card(c),
                Some(c) => {
                    log!("play returned {}, not in legal [{}]; playing {}", c, show(&legal), fallback);
                    Answer::Card(fallback)
                }
                None => Answer::Card(fallback),
            }
        }
    }
}
