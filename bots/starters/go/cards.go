package main

// Cards and the rules of play: parse and print protocol card names, compare cards
// in a trick, and work out which cards may be played.

import (
	"encoding/json"
	"fmt"
	"strings"
)

const (
	Ranks = "23456789TJQKA"
	Suits = "CDHS"
	Jack  = 9
	Queen = 10
	King  = 11
	Ace   = 12
)

// Suit is 0 clubs, 1 diamonds, 2 hearts, 3 spades (the protocol's sort order).
type Suit int

const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

// Card is a playing card; Rank is 0 for a two up to 12 (Ace).
type Card struct {
	Rank int
	Suit Suit
}

// ParseCard reads a protocol card name such as "TH" (rank, then suit, upper case).
func ParseCard(name string) (Card, error) {
	if len(name) == 2 {
		r, s := strings.IndexByte(Ranks, name[0]), strings.IndexByte(Suits, name[1])
		if r >= 0 && s >= 0 {
			return Card{Rank: r, Suit: Suit(s)}, nil
		}
	}
	return Card{}, fmt.Errorf("not a card: %q (rank of %s then suit of %s, e.g. \"TH\")", name, Ranks, Suits)
}

func (c Card) String() string { return string([]byte{Ranks[c.Rank], Suits[c.Suit]}) }

func (c Card) IsSpade() bool { return c.Suit == Spades }

// Less orders cards as the protocol sorts them: by suit, then rank.
func (c Card) Less(o Card) bool {
	if c.Suit != o.Suit {
		return c.Suit < o.Suit
	}
	return c.Rank < o.Rank
}

// Beats: does c beat o in a trick led in suit led? A spade beats any other suit;
// otherwise only a higher card of the led suit wins.
func (c Card) Beats(o Card, led Suit) bool {
	if c.Suit == o.Suit {
		return c.Rank > o.Rank
	}
	return c.IsSpade() || (o.Suit != Spades && c.Suit == led)
}

// MarshalJSON writes the card as its protocol name.
func (c Card) MarshalJSON() ([]byte, error) { return json.Marshal(c.String()) }

// UnmarshalJSON reads a protocol card name.
func (c *Card) UnmarshalJSON(data []byte) error {
	var name string
	if err := json.Unmarshal(data, &name); err != nil {
		return fmt.Errorf("not a card: %s", data)
	}
	card, err := ParseCard(name)
	*c = card
	return err
}

// Play is one card played by one seat: [seat, card] in the protocol.
type Play struct {
	Seat int
	Card Card
}

// UnmarshalJSON reads a [seat, card] pair.
func (p *Play) UnmarshalJSON(data []byte) error {
	var pair []json.RawMessage
	if err := json.Unmarshal(data, &pair); err != nil || len(pair) != 2 {
		return fmt.Errorf("not a [seat, card] pair: %s", data)
	}
	if err := json.Unmarshal(pair[0], &p.Seat); err != nil {
		return fmt.Errorf("not a seat: %s", pair[0])
	}
	return json.Unmarshal(pair[1], &p.Card)
}

// TrickWinner returns the play winning trick so far; ok is false for an empty trick.
func TrickWinner(trick []Play) (best Play, ok bool) {
	if len(trick) == 0 {
		return Play{}, false
	}
	best = trick[0]
	for _, p := range trick[1:] {
		if p.Card.Beats(best.Card, trick[0].Card.Suit) {
			best = p
		}
	}
	return best, true
}

// LegalPlays returns the cards of hand that may be played to trick: follow the led
// suit if you can; when leading, no spade until spades are broken unless you hold
// only spades. (Requests already carry "legal"; this is for looking ahead.)
func LegalPlays(hand []Card, trick []Play, spadesBroken bool) []Card {
	keep := func(ok func(Card) bool) []Card {
		var out []Card
		for _, c := range hand {
			if ok(c) {
				out = append(out, c)
			}
		}
		return out
	}
	if len(trick) > 0 {
		if follow := keep(func(c Card) bool { return c.Suit == trick[0].Card.Suit }); len(follow) > 0 {
			return follow
		}
		return append([]Card(nil), hand...)
	}
	if side := keep(func(c Card) bool { return !c.IsSpade() }); !spadesBroken && len(side) > 0 {
		return side
	}
	return append([]Card(nil), hand...)
}
