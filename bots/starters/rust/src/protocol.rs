//! Protocol v1 messages as Rust types: what the referee sends (`hello`, the requests
//! with their `state`, the events) and what the bot answers.
//! Field names follow docs/protocol.md; fields this kit does not know are ignored.

use crate::cards::Card;
use crate::json::Json;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    TwoPlayer,
    Partnership,
}

impl Variant {
    fn parse(text: &str) -> Variant {
        if text == "two-player" {
            Variant::TwoPlayer
        } else {
            Variant::Partnership
        }
    }
    pub fn seats(self) -> usize {
        match self {
            Variant::TwoPlayer => 2,
            Variant::Partnership => 4,
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Variant::TwoPlayer => "two-player",
            Variant::Partnership => "partnership",
        })
    }
}

/// The side (index into `score` and `bags`) that `seat` plays for.
pub fn side_of(seat: usize, variant: Variant) -> usize {
    match variant {
        Variant::TwoPlayer => seat,
        Variant::Partnership => seat % 2,
    }
}

/// The match facts from `hello`.
#[derive(Clone, Debug)]
pub struct Hello {
    pub protocol: i64,
    pub match_id: String,
    pub variant: Variant,
    pub seat: usize,
    pub names: Vec<String>,
    /// Every rule option (`target`, `nil`, `blind_nil`, `blind_nil_cards`, ...), as sent.
    pub rules: Json,
    pub move_ms: Option<i64>,
    pub bank_ms: i64,
}

/// The `state` object of a request: this seat's whole view of the hand.
#[derive(Clone, Debug)]
pub struct State {
    pub hand_no: i64,
    pub seat: usize,
    pub variant: Variant,
    pub phase: String,
    /// Your cards now, sorted (empty in a partnership `blind_nil` request).
    pub hand: Vec<Card>,
    /// Partnership: the dealer of this hand.
    pub dealer: Option<usize>,
    /// Two-player: the first player (first to draw) of this hand.
    pub first: Option<usize>,
    /// Per seat: the bid (0 = Nil), or `None` if not made yet.
    pub bids: Vec<Option<i64>>,
    /// Per seat: bid Blind Nil.
    pub blind: Vec<bool>,
    /// Per seat: tricks taken this hand.
    pub tricks: Vec<i64>,
    /// The trick in progress, `(seat, card)` in play order; empty when you lead.
    pub trick: Vec<(usize, Card)>,
    pub leader: usize,
    pub spades_broken: bool,
    /// Every card played this hand in order, the trick in progress included.
    pub played: Vec<(usize, Card)>,
    /// Per side, before this hand.
    pub score: Vec<i64>,
    pub bags: Vec<i64>,
    pub move_ms: Option<i64>,
    pub bank_ms: i64,
    /// Two-player: cards you put on the discard pile this hand.
    pub discards: Vec<Card>,
    /// Partnership: cards you passed in this hand's exchange.
    pub passed: Vec<Card>,
    /// Cards you received this hand (from partner, or replacements from the pile).
    pub received: Vec<Card>,
}

impl State {
    pub fn seats(&self) -> usize {
        self.variant.seats()
    }
    pub fn side(&self) -> usize {
        side_of(self.seat, self.variant)
    }
    pub fn partner(&self) -> Option<usize> {
        match self.variant {
            Variant::Partnership => Some((self.seat + 2) % 4),
            Variant::TwoPlayer => None,
        }
    }
    /// Did `seat` bid Nil or Blind Nil this hand?
    pub fn is_nil(&self, seat: usize) -> bool {
        self.bids.get(seat).copied().flatten() == Some(0)
    }
    /// The best score among the other sides minus ours (positive: we are behind).
    pub fn behind_by(&self) -> i64 {
        let mine = self.score.get(self.side()).copied().unwrap_or(0);
        let best_other = (0..self.score.len()).filter(|&s| s != self.side()).map(|s| self.score[s]).max();
        best_other.unwrap_or(mine) - mine
    }
}

/// A request: the decision asked for, with its own fields.
#[derive(Clone, Debug)]
pub enum Decision {
    Hello(Hello),
    BlindNil,
    /// Two-player draw: the card just taken from the stock.
    Keep {
        card: Card,
    },
    /// Two-player Blind Nil: swap 0..=max cards for random discards.
    Discard {
        max: usize,
    },
    /// Partnership Blind Nil exchange: exactly `count` cards to seat `to`.
    Pass {
        count: usize,
        to: usize,
    },
    Bid {
        legal: Vec<i64>,
    },
    Play {
        legal: Vec<Card>,
    },
}

#[derive(Clone, Debug)]
pub struct Request {
    pub id: Json,
    pub decision: Decision,
    /// `None` only for `hello`, which has no state.
    pub state: Option<State>,
}

/// Who an exchange's cards came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum From {
    Seat(usize),
    Discards,
}

/// An event (a message without an id): never answered.
#[derive(Clone, Debug)]
pub enum Event {
    /// `dealer` in a partnership, `first` in two-player.
    HandStart {
        hand: i64,
        dealer: Option<usize>,
        first: Option<usize>,
        score: Vec<i64>,
        bags: Vec<i64>,
    },
    Hand {
        cards: Vec<Card>,
    },
    Drawn {
        kept: Card,
        discarded: Card,
    },
    BidMade {
        seat: usize,
        bid: i64,
        blind: bool,
    },
    Received {
        cards: Vec<Card>,
        from: From,
    },
    Played {
        seat: usize,
        card: Card,
    },
    Trick {
        cards: Vec<(usize, Card)>,
        winner: usize,
    },
    HandEnd {
        hand: i64,
        bids: Vec<i64>,
        blind: Vec<bool>,
        tricks: Vec<i64>,
        points: Vec<i64>,
        score: Vec<i64>,
        bags: Vec<i64>,
    },
    /// `winner` is a side, `None` for a draw.
    MatchEnd {
        score: Vec<i64>,
        winner: Option<usize>,
        reason: String,
    },
    /// The referee reports a fault of this bot.
    Error {
        message: String,
    },
    /// A type this kit does not know (a later protocol version may add some).
    Other {
        kind: String,
    },
}

#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // one message at a time: its size does not matter
pub enum Message {
    Request(Request),
    Event(Event),
}

/// The answer to a request: the answer field and its value.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Hello { name: String },
    BlindNil(bool),
    Keep(bool),
    Cards(Vec<Card>),
    Bid(i64),
    Card(Card),
}

impl Answer {
    /// The answer line (without the newline) for request `id`.
    pub fn to_line(&self, id: &Json) -> String {
        let (field, value) = match self {
            Answer::Hello { name } => ("name", Json::String(name.clone())),
            Answer::BlindNil(b) => ("blind_nil", Json::Bool(*b)),
            Answer::Keep(b) => ("keep", Json::Bool(*b)),
            Answer::Cards(cards) => ("cards", Json::Array(cards.iter().map(|c| Json::String(c.to_string())).collect())),
            Answer::Bid(b) => ("bid", Json::Number(*b as f64)),
            Answer::Card(c) => ("card", Json::String(c.to_string())),
        };
        Json::Object(vec![("id".into(), id.clone()), (field.into(), value)]).to_string()
    }
}

// ---------------------------------------------------------------- parsing

/// A message the kit cannot use, with the reason (logged, never answered).
pub type BadMessage = String;

fn int(v: Option<&Json>) -> Option<i64> {
    v.and_then(Json::as_i64)
}
fn seat(v: Option<&Json>) -> Option<usize> {
    int(v).filter(|&n| n >= 0).map(|n| n as usize)
}
fn ints(v: Option<&Json>) -> Vec<i64> {
    v.map(|a| a.as_array().iter().map(|x| x.as_i64().unwrap_or(0)).collect()).unwrap_or_default()
}
fn bools(v: Option<&Json>) -> Vec<bool> {
    v.map(|a| a.as_array().iter().map(|x| x.as_bool().unwrap_or(false)).collect()).unwrap_or_default()
}
fn card(v: Option<&Json>) -> Result<Card, BadMessage> {
    let text = v.and_then(Json::as_str).unwrap_or("");
    Card::parse(text).ok_or_else(|| format!("not a card: {:?}", text))
}
fn cards(v: Option<&Json>) -> Result<Vec<Card>, BadMessage> {
    v.map(|a| a.as_array().iter().map(|c| card(Some(c))).collect()).unwrap_or(Ok(Vec::new()))
}
fn plays(v: Option<&Json>) -> Result<Vec<(usize, Card)>, BadMessage> {
    let mut out = Vec::new();
    for pair in v.map(Json::as_array).unwrap_or(&[]) {
        let items = pair.as_array();
        let s = seat(items.first()).ok_or_else(|| format!("not a [seat, card] pair: {}", pair))?;
        out.push((s, card(items.get(1))?));
    }
    Ok(out)
}
fn need<T>(value: Option<T>, what: &str) -> Result<T, BadMessage> {
    value.ok_or_else(|| format!("missing or wrong {}", what))
}

fn parse_state(s: &Json, hello: Option<&Hello>) -> Result<State, BadMessage> {
    let variant = match s.get("variant").and_then(Json::as_str) {
        Some(v) => Variant::parse(v),
        None => hello.map(|h| h.variant).unwrap_or(Variant::Partnership),
    };
    let time = s.get("time");
    let mut hand = cards(s.get("hand"))?;
    hand.sort();
    Ok(State {
        hand_no: int(s.get("hand_no")).unwrap_or(0),
        seat: seat(s.get("seat")).or(hello.map(|h| h.seat)).unwrap_or(0),
        variant,
        phase: s.get("phase").and_then(Json::as_str).unwrap_or("").to_string(),
        hand,
        dealer: seat(s.get("dealer")),
        first: seat(s.get("first")),
        bids: s.get("bids").map(|a| a.as_array().iter().map(Json::as_i64).collect()).unwrap_or_default(),
        blind: bools(s.get("blind")),
        tricks: ints(s.get("tricks")),
        trick: plays(s.get("trick"))?,
        leader: seat(s.get("leader")).unwrap_or(0),
        spades_broken: s.get("spades_broken").and_then(Json::as_bool).unwrap_or(false),
        played: plays(s.get("played"))?,
        score: ints(s.get("score")),
        bags: ints(s.get("bags")),
        move_ms: int(time.and_then(|t| t.get("move_ms"))),
        bank_ms: int(time.and_then(|t| t.get("bank_ms"))).unwrap_or(0),
        discards: cards(s.get("discards"))?,
        passed: cards(s.get("passed"))?,
        received: cards(s.get("received"))?,
    })
}

fn parse_hello(m: &Json) -> Hello {
    let time = m.get("time");
    Hello {
        protocol: int(m.get("protocol")).unwrap_or(1),
        match_id: m.get("match").and_then(Json::as_str).unwrap_or("").to_string(),
        variant: Variant::parse(m.get("variant").and_then(Json::as_str).unwrap_or("")),
        seat: seat(m.get("seat")).unwrap_or(0),
        names: m
            .get("names")
            .map(|a| a.as_array().iter().map(|n| n.as_str().unwrap_or("").to_string()).collect())
            .unwrap_or_default(),
        rules: m.get("rules").cloned().unwrap_or(Json::Object(Vec::new())),
        move_ms: int(time.and_then(|t| t.get("move_ms"))),
        bank_ms: int(time.and_then(|t| t.get("bank_ms"))).unwrap_or(0),
    }
}

/// Turn one parsed line into a typed message. `hello` is the match's hello, once seen.
pub fn parse_message(m: &Json, hello: Option<&Hello>) -> Result<Message, BadMessage> {
    let kind = m.get("type").and_then(Json::as_str).ok_or("message has no \"type\"")?;
    if let Some(id) = m.get("id") {
        let decision = match kind {
            "hello" => Decision::Hello(parse_hello(m)),
            "blind_nil" => Decision::BlindNil,
            "keep" => Decision::Keep { card: card(m.get("card"))? },
            "discard" => Decision::Discard { max: need(seat(m.get("max")), "\"max\"")? },
            "pass" => Decision::Pass {
                count: need(seat(m.get("count")), "\"count\"")?,
                to: need(seat(m.get("to")), "\"to\"")?,
            },
            "bid" => Decision::Bid { legal: ints(m.get("legal")) },
            "play" => Decision::Play { legal: cards(m.get("legal"))? },
            other => return Err(format!("unknown request type {:?}", other)),
        };
        let state = match (&decision, m.get("state")) {
            (Decision::Hello(_), _) | (_, None) => None,
            (_, Some(s)) => Some(parse_state(s, hello)?),
        };
        if state.is_none() && !matches!(decision, Decision::Hello(_)) {
            return Err(format!("{} request without \"state\"", kind));
        }
        return Ok(Message::Request(Request { id: id.clone(), decision, state }));
    }
    Ok(Message::Event(match kind {
        "hand_start" => Event::HandStart {
            hand: int(m.get("hand")).unwrap_or(0),
            dealer: seat(m.get("dealer")),
            first: seat(m.get("first")),
            score: ints(m.get("score")),
            bags: ints(m.get("bags")),
        },
        "hand" => Event::Hand { cards: cards(m.get("cards"))? },
        "drawn" => Event::Drawn { kept: card(m.get("kept"))?, discarded: card(m.get("discarded"))? },
        "bid_made" => Event::BidMade {
            seat: need(seat(m.get("seat")), "\"seat\"")?,
            bid: int(m.get("bid")).unwrap_or(0),
            blind: m.get("blind").and_then(Json::as_bool).unwrap_or(false),
        },
        "received" => Event::Received {
            cards: cards(m.get("cards"))?,
            from: seat(m.get("from")).map(From::Seat).unwrap_or(From::Discards),
        },
        "played" => Event::Played { seat: need(seat(m.get("seat")), "\"seat\"")?, card: card(m.get("card"))? },
        "trick" => Event::Trick { cards: plays(m.get("cards"))?, winner: need(seat(m.get("winner")), "\"winner\"")? },
        "hand_end" => Event::HandEnd {
            hand: int(m.get("hand")).unwrap_or(0),
            bids: ints(m.get("bids")),
            blind: bools(m.get("blind")),
            tricks: ints(m.get("tricks")),
            points: ints(m.get("points")),
            score: ints(m.get("score")),
            bags: ints(m.get("bags")),
        },
        "match_end" => Event::MatchEnd {
            score: ints(m.get("score")),
            winner: seat(m.get("winner")),
            reason: m.get("reason").and_then(Json::as_str).unwrap_or("").to_string(),
        },
        "error" => Event::Error { message: m.get("message").and_then(Json::as_str).unwrap_or("").to_string() },
        other => Event::Other { kind: other.to_string() },
    }))
}

impl State {
    /// An empty view, for a request that carries no state (only `hello`).
    pub fn placeholder() -> State {
        State {
            hand_no: 0,
            seat: 0,
            variant: Variant::Partnership,
            phase: String::new(),
            hand: Vec::new(),
            dealer: None,
            first: None,
            bids: Vec::new(),
            blind: Vec::new(),
            tricks: Vec::new(),
            trick: Vec::new(),
            leader: 0,
            spades_broken: false,
            played: Vec::new(),
            score: Vec::new(),
            bags: Vec::new(),
            move_ms: None,
            bank_ms: 0,
            discards: Vec::new(),
            passed: Vec::new(),
            received: Vec::new(),
        }
    }
}
