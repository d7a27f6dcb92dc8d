//! YOUR BOT'S DECISIONS: this is the file to edit.
//!
//! Each method answers one kind of request. Every default here is legal and makes a
//! modest, sensible choice, so the bot plays whole matches before you change anything.
//! `main.rs` checks what you return: an illegal answer (a card not in `legal`, the
//! wrong number of cards, ...) is logged to stderr and replaced by a safe legal one,
//! and so is a panic (set SPADES_STRICT=1 to let panics crash the bot while you
//! develop). Log with `log!(...)` (stderr); never print to stdout.
//!
//! Every request carries `state` (your whole view of the hand), so the bot needs no
//! memory; the `on_event` hook is there if you want to track things yourself.

use crate::cards::{trick_winner, Card, ACE, KING, QUEEN};
use crate::log;
use crate::protocol::{Event, Hello, State};

/// Jack, the lowest rank a Blind Nil bidder treats as dangerous.
const JACK: u8 = 9;

/// Put whatever your bot remembers between requests here.
#[derive(Default)]
pub struct Bot {
    pub hello: Option<Hello>,
}

impl Bot {
    /// The name announced in `hello` (display names come from whoever runs the match).
    /// Do slow start-up work here: `hello` has its own, longer allowance.
    pub fn hello(&mut self, hello: &Hello) -> String {
        log!("seat {} of a {} match {}", hello.seat, hello.variant, hello.match_id);
        self.hello = Some(hello.clone());
        "rust-starter".to_string()
    }

    /// Every event (a message without an id). Nothing to answer.
    pub fn on_event(&mut self, event: &Event) {
        match event {
            Event::HandEnd { hand, points, score, .. } => log!("hand {} scored {:?}, score {:?}", hand, points, score),
            Event::Error { message } => log!("the referee reports a fault: {}", message),
            _ => {}
        }
    }

    /// Bid Blind Nil (before looking at your cards)? Only asked where the rules allow it.
    /// Default: only when our side trails by 200 or more, a gamble worth taking.
    pub fn blind_nil(&mut self, state: &State) -> bool {
        state.behind_by() >= 200
    }

    /// Two-player draw: keep `card` (true: the next card goes to the discard pile) or
    /// discard it (false: you keep the next card, whatever it is).
    /// Default: keep spades and queens or better; a Blind Nil bidder keeps low side cards.
    pub fn keep(&mut self, state: &State, card: Card) -> bool {
        if state.blind.get(state.seat).copied().unwrap_or(false) {
            return !card.is_spade() && card.rank <= 6; // an 8 or lower
        }
        card.is_spade() || card.rank >= QUEEN
    }

    /// Two-player Blind Nil: 0..=max cards to swap for random cards from the discards.
    /// Default: the most dangerous cards, jacks or higher, spades first.
    pub fn discard(&mut self, state: &State, max: usize) -> Vec<Card> {
        let mut risky: Vec<Card> = state.hand.iter().copied().filter(|c| c.rank >= JACK).collect();
        risky.sort_by_key(|c| std::cmp::Reverse((c.is_spade(), c.rank)));
        risky.truncate(max);
        risky
    }

    /// Partnership Blind Nil exchange: exactly `count` of your cards to seat `to`.
    /// Default: the Blind Nil bidder gives away its highest cards (spades first), the
    /// partner gives its lowest side cards, which help the bidder duck.
    pub fn pass_cards(&mut self, state: &State, count: usize, _to: usize) -> Vec<Card> {
        let mut cards = state.hand.clone();
        if state.is_nil(state.seat) {
            cards.sort_by_key(|c| std::cmp::Reverse((c.is_spade(), c.rank)));
        } else {
            cards.sort_by_key(|c| (c.is_spade(), c.rank));
        }
        cards.truncate(count);
        cards
    }

    /// A bid from `legal` (0 is Nil). Default: a simple count of sure tricks, the
    /// nearest legal bid to it, never Nil unless nothing else is legal.
    pub fn bid(&mut self, state: &State, legal: &[i64]) -> i64 {
        let estimate = estimate_tricks(&state.hand, state.seats()) as i64;
        let pool: Vec<i64> = legal.iter().copied().filter(|&b| b != 0).collect();
        let pool = if pool.is_empty() { legal.to_vec() } else { pool };
        pool.into_iter().min_by_key(|&b| ((b - estimate).abs(), b)).unwrap_or(1)
    }

    /// A card from `legal` (the referee has applied follow-suit and spade rules).
    /// Default: duck as a Nil bidder; otherwise let partner's winner stand, win as
    /// cheaply as possible, or throw the cheapest card; lead a side ace when you have one.
    pub fn play(&mut self, state: &State, legal: &[Card]) -> Card {
        let cheapest = |cards: &[Card]| cards.iter().copied().min_by_key(|c| (c.is_spade(), c.rank));
        let winning = trick_winner(&state.trick);
        if state.is_nil(state.seat) {
            // Nil: lead the cheapest card; follow with the highest card that does not
            // take the trick, or the highest card if every one of them wins.
            let best = match winning {
                Some((_, card)) => card,
                None => return cheapest(legal).unwrap(),
            };
            let led = state.trick[0].1.suit;
            let ducks: Vec<Card> = legal.iter().copied().filter(|c| !c.beats(best, led)).collect();
            let pool = if ducks.is_empty() { legal } else { &ducks[..] };
            return pool.iter().copied().max_by_key(|c| (!c.is_spade(), c.rank)).unwrap();
        }
        match winning {
            None => legal.iter().copied().find(|c| !c.is_spade() && c.rank == ACE).or_else(|| cheapest(legal)).unwrap(),
            Some((seat, _)) if Some(seat) == state.partner() && !state.is_nil(seat) => cheapest(legal).unwrap(),
            Some((_, best)) => {
                let led = state.trick[0].1.suit;
                let winners: Vec<Card> = legal.iter().copied().filter(|c| c.beats(best, led)).collect();
                cheapest(&winners).or_else(|| cheapest(legal)).unwrap()
            }
        }
    }
}

/// Aces, kings with a guard, the spade queen with two guards and spades beyond
/// three; two players share 13 tricks, so each takes a few more low ones.
pub fn estimate_tricks(hand: &[Card], seats: usize) -> usize {
    let count_in = |suit| hand.iter().filter(|c| c.suit == suit).count();
    let mut tricks = 0;
    for c in hand {
        let length = count_in(c.suit);
        if c.rank == ACE || (c.rank == KING && length >= 2) || (c.is_spade() && c.rank == QUEEN && length >= 3) {
            tricks += 1;
        }
    }
    let spades = hand.iter().filter(|c| c.is_spade()).count();
    tricks += spades.saturating_sub(3);
    if seats == 2 {
        tricks += 1;
    }
    tricks.max(1)
}
