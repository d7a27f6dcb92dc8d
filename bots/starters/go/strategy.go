package main

// YOUR BOT'S DECISIONS: this is the file to edit.
//
// Each method answers one kind of request. Every default here is legal and makes a
// modest, sensible choice, so the bot plays whole matches before you change anything.
// main.go checks what you return: an illegal answer (a card not in legal, the wrong
// number of cards, ...) is logged to stderr and replaced by a safe legal one, and so
// is a panic (set SPADES_STRICT=1 to let panics crash the bot while you develop).
// Log with logf (stderr); never print to stdout.
//
// Every request carries State (your whole view of the hand), so the bot needs no
// memory; OnEvent is there if you want to track things yourself.

import "sort"

// Bot holds whatever your bot remembers between requests.
type Bot struct {
	hello *Hello
}

// Hello returns the name announced to the referee. Do slow start-up work here:
// hello has its own, longer allowance.
func (b *Bot) Hello(h *Hello) string {
	logf("seat %d of a %s match %s", h.Seat, h.Variant, h.Match)
	b.hello = h
	return "go-starter"
}

// OnEvent sees every event (a message without an id). Nothing to answer.
func (b *Bot) OnEvent(m *Message) {
	switch m.Type {
	case "hand_end":
		logf("hand %d scored %v, score %v", m.Hand, m.Points, m.Score)
	case "error":
		logf("the referee reports a fault: %s", m.Text)
	}
}

// BlindNil: bid Blind Nil before looking at your cards? Only asked where allowed.
// Default: only when our side trails by 200 or more, a gamble worth taking.
func (b *Bot) BlindNil(s *State) bool {
	return s.BehindBy() >= 200
}

// Keep (two-player draw): keep card (true: the next card goes to the discard pile)
// or discard it (false: you keep the next card, whatever it is).
// Default: keep spades and queens or better; a Blind Nil bidder keeps low side cards.
func (b *Bot) Keep(s *State, card Card) bool {
	if s.Seat < len(s.Blind) && s.Blind[s.Seat] {
		return !card.IsSpade() && card.Rank <= 6 // an 8 or lower
	}
	return card.IsSpade() || card.Rank >= Queen
}

// Discard (two-player Blind Nil): 0..max cards to swap for random cards from the
// discards. Default: the most dangerous cards, jacks or higher, spades first.
func (b *Bot) Discard(s *State, max int) []Card {
	var risky []Card
	for _, c := range s.Hand {
		if c.Rank >= Jack {
			risky = append(risky, c)
		}
	}
	sortByDanger(risky)
	if len(risky) > max {
		risky = risky[:max]
	}
	return risky
}

// PassCards (partnership Blind Nil exchange): exactly count of your cards to seat to.
// Default: the Blind Nil bidder gives away its highest cards (spades first), the
// partner gives its lowest side cards, which help the bidder duck.
func (b *Bot) PassCards(s *State, count, to int) []Card {
	cards := append([]Card(nil), s.Hand...)
	sortByDanger(cards)
	if !s.IsNil(s.Seat) {
		for i, j := 0, len(cards)-1; i < j; i, j = i+1, j-1 {
			cards[i], cards[j] = cards[j], cards[i]
		}
	}
	return cards[:count]
}

// Bid: a bid from legal (0 is Nil). Default: a simple count of sure tricks, the
// nearest legal bid to it, never Nil unless nothing else is legal.
func (b *Bot) Bid(s *State, legal []int) int {
	estimate := EstimateTricks(s.Hand, s.Seats())
	best, bestGap := legal[0], 1000
	for _, bid := range legal {
		gap := abs(bid - estimate)
		if bid == 0 {
			gap += 100
		}
		if gap < bestGap {
			best, bestGap = bid, gap
		}
	}
	return best
}

// Play: a card from legal (the referee has applied follow-suit and spade rules).
// Default: duck as a Nil bidder; otherwise let partner's winner stand, win as
// cheaply as possible, or throw the cheapest card; lead a side ace when you have one.
func (b *Bot) Play(s *State, legal []Card) Card {
	winning, following := TrickWinner(s.Trick)
	if s.IsNil(s.Seat) {
		// Nil: lead the cheapest card; follow with the highest card that does not
		// take the trick, or the highest card if every one of them wins.
		if !following {
			return cheapest(legal)
		}
		var ducks []Card
		for _, c := range legal {
			if !c.Beats(winning.Card, s.Trick[0].Card.Suit) {
				ducks = append(ducks, c)
			}
		}
		if len(ducks) == 0 {
			ducks = legal
		}
		return highest(ducks)
	}
	if !following {
		for _, c := range legal {
			if c.Rank == Ace && !c.IsSpade() {
				return c
			}
		}
		return cheapest(legal)
	}
	if winning.Seat == s.Partner() && !s.IsNil(winning.Seat) {
		return cheapest(legal)
	}
	var winners []Card
	for _, c := range legal {
		if c.Beats(winning.Card, s.Trick[0].Card.Suit) {
			winners = append(winners, c)
		}
	}
	if len(winners) > 0 {
		return cheapest(winners)
	}
	return cheapest(legal)
}

// EstimateTricks counts aces, kings with a guard, the spade queen with two guards and
// spades beyond three; two players share 13 tricks, so each takes a few more.
func EstimateTricks(hand []Card, seats int) int {
	length := map[Suit]int{}
	for _, c := range hand {
		length[c.Suit]++
	}
	tricks := 0
	for _, c := range hand {
		if c.Rank == Ace || (c.Rank == King && length[c.Suit] >= 2) || (c.IsSpade() && c.Rank == Queen && length[Spades] >= 3) {
			tricks++
		}
	}
	if length[Spades] > 3 {
		tricks += length[Spades] - 3
	}
	if seats == 2 {
		tricks++
	}
	if tricks < 1 {
		return 1
	}
	return tricks
}

// cheapest: the lowest side card, or the lowest spade if there is nothing else.
func cheapest(cards []Card) Card {
	best := cards[0]
	for _, c := range cards[1:] {
		if (c.IsSpade() == best.IsSpade() && c.Rank < best.Rank) || (!c.IsSpade() && best.IsSpade()) {
			best = c
		}
	}
	return best
}

// highest: the highest side card, or the highest spade if there is nothing else.
func highest(cards []Card) Card {
	best := cards[0]
	for _, c := range cards[1:] {
		if (c.IsSpade() == best.IsSpade() && c.Rank > best.Rank) || (!c.IsSpade() && best.IsSpade()) {
			best = c
		}
	}
	return best
}

// sortByDanger puts the cards most likely to win a trick first: spades, then by rank.
func sortByDanger(cards []Card) {
	sort.SliceStable(cards, func(i, j int) bool {
		if cards[i].IsSpade() != cards[j].IsSpade() {
			return cards[i].IsSpade()
		}
		return cards[i].Rank > cards[j].Rank
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
