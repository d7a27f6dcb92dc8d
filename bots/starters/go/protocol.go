package main

// Protocol v1 messages as Go types: what the referee sends (hello, the requests with
// their state, the events) and what the bot answers. Field names follow
// docs/protocol.md; fields this kit does not know are ignored.

import (
	"encoding/json"
	"fmt"
)

// Time is a seat's clock. MoveMs is nil for a seat without a clock.
type Time struct {
	MoveMs *int `json:"move_ms"`
	BankMs int  `json:"bank_ms"`
}

// Hello carries the match facts.
type Hello struct {
	Protocol int                        `json:"protocol"`
	Match    string                     `json:"match"`
	Variant  string                     `json:"variant"` // "two-player" or "partnership"
	Seat     int                        `json:"seat"`
	Names    []string                   `json:"names"`
	Rules    map[string]json.RawMessage `json:"rules"` // every rule option, as sent
	Time     Time                       `json:"time"`
}

// State is a request's "state": this seat's whole view of the hand.
type State struct {
	HandNo int    `json:"hand_no"`
	Seat   int    `json:"seat"`
	Phase  string `json:"phase"`
	// Hand: your cards now, sorted (empty in a partnership blind_nil request).
	Hand []Card `json:"hand"`
	// Dealer (partnership) or First (two-player: first to draw); the other is nil.
	Dealer *int `json:"dealer"`
	First  *int `json:"first"`
	// Per seat: the bid (0 = Nil), nil if not made yet; Blind Nil; tricks taken.
	Bids   []*int `json:"bids"`
	Blind  []bool `json:"blind"`
	Tricks []int  `json:"tricks"`
	// Trick: the trick in progress in play order (empty when you lead).
	Trick        []Play `json:"trick"`
	Leader       int    `json:"leader"`
	SpadesBroken bool   `json:"spades_broken"`
	// Played: every card played this hand in order, the trick in progress included.
	Played []Play `json:"played"`
	// Per side, before this hand.
	Score   []int  `json:"score"`
	Bags    []int  `json:"bags"`
	Time    Time   `json:"time"`
	Variant string `json:"variant"`
	// Discards (two-player): cards you put on the pile; Passed (partnership): cards
	// you passed; Received: cards you received this hand.
	Discards []Card `json:"discards"`
	Passed   []Card `json:"passed"`
	Received []Card `json:"received"`
}

// Seats is 2 (two-player) or 4 (partnership).
func (s *State) Seats() int {
	if s.Variant == "two-player" {
		return 2
	}
	return 4
}

// SideOf is the side (index into Score and Bags) that seat plays for.
func (s *State) SideOf(seat int) int {
	if s.Seats() == 2 {
		return seat
	}
	return seat % 2
}

// Partner is the partner's seat, -1 in the two-player game.
func (s *State) Partner() int {
	if s.Seats() == 2 {
		return -1
	}
	return (s.Seat + 2) % 4
}

// IsNil: did seat bid Nil or Blind Nil this hand?
func (s *State) IsNil(seat int) bool {
	return seat >= 0 && seat < len(s.Bids) && s.Bids[seat] != nil && *s.Bids[seat] == 0
}

// BehindBy is the best other side's score minus ours (positive: we trail).
func (s *State) BehindBy() int {
	mine, worst := 0, 0
	if side := s.SideOf(s.Seat); side < len(s.Score) {
		mine = s.Score[side]
		worst = mine
		for i, v := range s.Score {
			if i != side && v > worst {
				worst = v
			}
		}
	}
	return worst - mine
}

// Message is any line from the referee. A request has an ID; an event has none.
// Which of the other fields are set depends on Type (see docs/protocol.md).
type Message struct {
	Type string           `json:"type"`
	ID   *json.RawMessage `json:"id"` // echoed as received
	// Requests.
	State *State          `json:"state"`
	Legal json.RawMessage `json:"legal"` // bids (ints) or cards: see LegalBids, LegalCards
	Card  *Card           `json:"card"`  // keep: the card drawn
	Max   int             `json:"max"`   // discard
	Count int             `json:"count"` // pass
	To    int             `json:"to"`    // pass
	// Events.
	Hand      int             `json:"hand"`      // hand_start, hand_end
	Cards     json.RawMessage `json:"cards"`     // hand, received: cards; trick: plays
	Kept      *Card           `json:"kept"`      // drawn
	Discarded *Card           `json:"discarded"` // drawn
	Seat      int             `json:"seat"`      // bid_made, played
	Bid       int             `json:"bid"`       // bid_made
	BlindBid  bool            `json:"-"`         // bid_made's "blind" (bool), see Parse
	From      json.RawMessage `json:"from"`      // received: a seat or "discards"
	Winner    *int            `json:"winner"`    // trick (seat), match_end (side or null)
	Bids      []int           `json:"-"`         // hand_end (see Parse)
	Tricks    []int           `json:"tricks"`    // hand_end
	Points    []int           `json:"points"`    // hand_end
	Score     []int           `json:"score"`     // hand_start, hand_end, match_end
	Bags      []int           `json:"bags"`      // hand_start, hand_end
	Reason    string          `json:"reason"`    // match_end
	Text      string          `json:"message"`   // error
	Hello     *Hello          `json:"-"`         // hello: the whole message
}

// ParseMessage decodes one line; fields whose JSON type depends on the message type
// (blind, bids) are decoded here.
func ParseMessage(line []byte) (*Message, error) {
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, err
	}
	if m.Type == "" {
		return nil, fmt.Errorf("message has no \"type\"")
	}
	var extra struct {
		Blind json.RawMessage `json:"blind"`
		Bids  json.RawMessage `json:"bids"`
	}
	_ = json.Unmarshal(line, &extra)
	switch m.Type {
	case "hello":
		m.Hello = &Hello{}
		if err := json.Unmarshal(line, m.Hello); err != nil {
			return nil, err
		}
	case "bid_made":
		_ = json.Unmarshal(extra.Blind, &m.BlindBid)
	case "hand_end":
		_ = json.Unmarshal(extra.Bids, &m.Bids)
	}
	if m.ID != nil && m.Type != "hello" && m.State == nil {
		return nil, fmt.Errorf("%s request without \"state\"", m.Type)
	}
	return &m, nil
}

// LegalBids reads a bid request's "legal".
func (m *Message) LegalBids() []int {
	var bids []int
	_ = json.Unmarshal(m.Legal, &bids)
	return bids
}

// LegalCards reads a play request's "legal".
func (m *Message) LegalCards() ([]Card, error) {
	var cards []Card
	if len(m.Legal) == 0 {
		return nil, nil
	}
	err := json.Unmarshal(m.Legal, &cards)
	return cards, err
}

// CardList reads "cards" of a hand or received event.
func (m *Message) CardList() []Card {
	var cards []Card
	_ = json.Unmarshal(m.Cards, &cards)
	return cards
}

// TrickPlays reads "cards" of a trick event.
func (m *Message) TrickPlays() []Play {
	var plays []Play
	_ = json.Unmarshal(m.Cards, &plays)
	return plays
}

// FromSeat is the seat a received event's cards came from, -1 for the discard pile.
func (m *Message) FromSeat() int {
	seat := -1
	if json.Unmarshal(m.From, &seat) != nil {
		return -1
	}
	return seat
}

// Answer builds the answer line for request id: {"id": id, field: value}.
func Answer(id *json.RawMessage, field string, value interface{}) ([]byte, error) {
	return json.Marshal(map[string]interface{}{"id": id, field: value})
}
