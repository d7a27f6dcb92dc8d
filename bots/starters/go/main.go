// Spades bot starter kit (Go, standard library only), protocol v1.
//
// This file is the protocol loop: read one JSON message per line from stdin, hand
// each request to the Bot in strategy.go, check its answer, write the answer line
// to stdout and flush. You normally edit only strategy.go.
//
// Build: go build -o spadesbot .        Run: ./spadesbot
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// logf writes a log line to stderr: stdout carries answers only.
func logf(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "[spadesbot] "+format+"\n", args...)
}

var strict = os.Getenv("SPADES_STRICT") != "" && os.Getenv("SPADES_STRICT") != "0"

func main() {
	bot := &Bot{}
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	// bufio.Writer buffers: Flush after every answer, or the referee sees nothing.
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if done := handle(bot, line, out); done {
				return
			}
		}
		if err == io.EOF {
			return // end of input: the match is over
		} else if err != nil {
			logf("cannot read stdin: %v", err)
			return
		}
	}
}

// handle deals with one line; it reports true once the match has ended.
func handle(bot *Bot, line []byte, out *bufio.Writer) bool {
	m, err := ParseMessage(line)
	if err != nil {
		logf("ignoring a message I cannot use (%v): %s", err, bytes.TrimSpace(line))
		return false
	}
	if m.ID == nil {
		guarded("OnEvent", func() { bot.OnEvent(m) })
		return m.Type == "match_end"
	}
	field, value, ok := decide(bot, m)
	if !ok {
		return false
	}
	answer, err := Answer(m.ID, field, value)
	if err == nil {
		_, err = out.Write(append(answer, '\n'))
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		logf("cannot write the answer: %v", err)
		return true
	}
	return false
}

// guarded runs a strategy call; a panic is logged with its stack and reported as false.
func guarded(what string, call func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if strict {
				panic(r)
			}
			logf("%s panicked: %v\n%s\nanswering a safe default instead (SPADES_STRICT=1 to stop here)", what, r, debug.Stack())
			ok = false
		}
	}()
	call()
	return true
}

// decide asks the strategy, then makes sure the answer is legal; if it is not, it logs
// why and answers the safe fallback instead, so a strategy bug never forfeits a match.
func decide(bot *Bot, m *Message) (field string, value interface{}, ok bool) {
	s := m.State
	switch m.Type {
	case "hello":
		name := "go-starter"
		guarded("Hello", func() { name = bot.Hello(m.Hello) })
		return "name", name, true
	case "blind_nil":
		choice := false
		guarded("BlindNil", func() { choice = bot.BlindNil(s) })
		return "blind_nil", choice, true
	case "keep":
		if m.Card == nil {
			logf("keep request without a card; keeping")
			return "keep", true, true
		}
		choice := true
		guarded("Keep", func() { choice = bot.Keep(s, *m.Card) })
		return "keep", choice, true
	case "discard":
		var cards []Card
		if guarded("Discard", func() { cards = bot.Discard(s, m.Max) }) && !heldDistinct(s.Hand, cards, 0, m.Max) {
			logf("Discard returned %v: not 0..%d distinct cards you hold; discarding nothing", cards, m.Max)
			cards = nil
		}
		return "cards", nonNil(cards), true
	case "pass":
		fallback := s.Hand[:min(m.Count, len(s.Hand))]
		cards := fallback
		if guarded("PassCards", func() { cards = bot.PassCards(s, m.Count, m.To) }) && !heldDistinct(s.Hand, cards, m.Count, m.Count) {
			logf("PassCards returned %v: not exactly %d distinct cards you hold; passing %v", cards, m.Count, fallback)
			cards = fallback
		}
		return "cards", nonNil(cards), true
	case "bid":
		legal := m.LegalBids()
		if len(legal) == 0 {
			logf("bid request without legal bids; bidding 1")
			return "bid", 1, true
		}
		fallback := legal[0] // the lowest bid that is not Nil, if there is one
		for _, b := range legal {
			if b != 0 && (fallback == 0 || b < fallback) {
				fallback = b
			}
		}
		bid := fallback
		if guarded("Bid", func() { bid = bot.Bid(s, legal) }) && !containsInt(legal, bid) {
			logf("Bid returned %d, not in legal %v; bidding %d", bid, legal, fallback)
			bid = fallback
		}
		return "bid", bid, true
	case "play":
		legal, err := m.LegalCards()
		if err != nil || len(legal) == 0 {
			// legal is always sent; recomputing it guards against a bad list.
			legal = LegalPlays(s.Hand, s.Trick, s.SpadesBroken)
		}
		if len(legal) == 0 {
			logf("play request with no legal card and an empty hand")
			return "card", "AS", true
		}
		card := legal[0]
		if guarded("Play", func() { card = bot.Play(s, legal) }) && !containsCard(legal, card) {
			logf("Play returned %v, not in legal %v; playing %v", card, legal, legal[0])
			card = legal[0]
		}
		return "card", card, true
	}
	logf("not answering a request of unknown type %q", strings.ReplaceAll(m.Type, "\n", " "))
	return "", nil, false
}

// heldDistinct: lo..hi distinct cards, each in hand.
func heldDistinct(hand, cards []Card, lo, hi int) bool {
	if len(cards) < lo || len(cards) > hi {
		return false
	}
	seen := map[Card]bool{}
	for _, c := range cards {
		if seen[c] || !containsCard(hand, c) {
			return false
		}
		seen[c] = true
	}
	return true
}

func containsCard(cards []Card, card Card) bool {
	for _, c := range cards {
		if c == card {
			return true
		}
	}
	return false
}

func containsInt(list []int, n int) bool {
	for _, v := range list {
		if v == n {
			return true
		}
	}
	return false
}

// nonNil: an empty list must be written [] (JSON null is not a list of cards).
func nonNil(cards []Card) []Card {
	if cards == nil {
		return []Card{}
	}
	return cards
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}
