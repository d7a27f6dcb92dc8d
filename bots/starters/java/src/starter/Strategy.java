package starter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import starter.Card.Play;
import starter.Protocol.Event;
import starter.Protocol.Hello;
import starter.Protocol.State;

/**
 * YOUR BOT'S DECISIONS: this is the file to edit.
 *
 * <p>Each method answers one kind of request. Every default here is legal and makes a
 * modest, sensible choice, so the bot plays whole matches before you change anything.
 * {@link Main} checks what you return: an illegal answer (a card not in legal, the
 * wrong number of cards, ...) is logged to stderr and replaced by a safe legal one,
 * and so is an exception (set SPADES_STRICT=1 to let it crash the bot while you
 * develop). Log with {@link Main#log} (stderr); never System.out (that is stdout).
 *
 * <p>Every request carries its State (your whole view of the hand), so the bot needs
 * no memory; {@link #onEvent} is there if you want to track things yourself.
 */
public class Strategy {
    /** Cheapest first: side cards before spades, then by rank. */
    static final Comparator<Card> BY_COST = Comparator.comparing(Card::isSpade).thenComparingInt(Card::rank);
    /** Most dangerous first: spades before side cards, then by rank, high first. */
    static final Comparator<Card> BY_DANGER = BY_COST.reversed();

    private Hello hello;

    /** The name announced in hello. Do slow start-up work here: hello has its own,
     *  longer allowance. */
    public String hello(Hello h) {
        Main.log("seat " + h.seat() + " of a " + h.variant() + " match " + h.match());
        hello = h;
        return "java-starter";
    }

    /** Every event (a message without an id). Nothing to answer. */
    public void onEvent(Event e) {
        if (e.type.equals("hand_end")) Main.log("hand " + e.hand + " scored " + e.points + ", score " + e.score);
        if (e.type.equals("error")) Main.log("the referee reports a fault: " + e.message);
    }

    /** Bid Blind Nil before looking at your cards? Only asked where the rules allow it.
     *  Default: only when our side trails by 200 or more, a gamble worth taking. */
    public boolean blindNil(State s) {
        return s.behindBy() >= 200;
    }

    /** Two-player draw: keep {@code card} (true: the next card goes to the discard pile)
     *  or discard it (false: you keep the next card, whatever it is).
     *  Default: keep spades and queens or better; a Blind Nil bidder keeps low side cards. */
    public boolean keep(State s, Card card) {
        if (s.isBlind(s.seat)) return !card.isSpade() && card.rank() <= 6; // an 8 or lower
        return card.isSpade() || card.rank() >= Card.QUEEN;
    }

    /** Two-player Blind Nil: 0..max cards to swap for random cards from the discards.
     *  Default: the most dangerous cards, jacks or higher, spades first. */
    public List<Card> discard(State s, int max) {
        List<Card> risky = new ArrayList<>();
        for (Card c : s.hand) if (c.rank() >= Card.JACK) risky.add(c);
        risky.sort(BY_DANGER);
        return new ArrayList<>(risky.subList(0, Math.min(max, risky.size())));
    }

    /** Partnership Blind Nil exchange: exactly {@code count} of your cards to seat {@code to}.
     *  Default: the Blind Nil bidder gives away its highest cards (spades first), the
     *  partner gives its lowest side cards, which help the bidder duck. */
    public List<Card> passCards(State s, int count, int to) {
        List<Card> cards = new ArrayList<>(s.hand);
        cards.sort(s.isNil(s.seat) ? BY_DANGER : BY_COST);
        return new ArrayList<>(cards.subList(0, Math.min(count, cards.size())));
    }

    /** A bid from {@code legal} (0 is Nil). Default: a simple count of sure tricks, the
     *  nearest legal bid to it, never Nil unless nothing else is legal. */
    public int bid(State s, List<Integer> legal) {
        int target = estimateTricks(s.hand, s.seats());
        return legal.stream().min(Comparator.comparingInt(b -> Math.abs(b - target) + (b == 0 ? 100 : 0))).orElse(1);
    }

    /** A card from {@code legal} (the referee has applied follow-suit and spade rules).
     *  Default: duck as a Nil bidder; otherwise let partner's winner stand, win as
     *  cheaply as possible, or throw the cheapest card; lead a side ace when you have one. */
    public Card play(State s, List<Card> legal) {
        Play winning = Card.trickWinner(s.trick);
        Card cheapest = legal.stream().min(BY_COST).orElseThrow();
        if (s.isNil(s.seat)) {
            // Nil: lead the cheapest card; follow with the highest card that does not
            // take the trick, or the highest card if every one of them wins.
            if (winning == null) return cheapest;
            int led = s.trick.get(0).card().suit();
            List<Card> ducks = legal.stream().filter(c -> !c.beats(winning.card(), led)).toList();
            return (ducks.isEmpty() ? legal : ducks).stream().max(BY_COST).orElseThrow();
        }
        if (winning == null) {
            return legal.stream().filter(c -> c.rank() == Card.ACE && !c.isSpade()).findFirst().orElse(cheapest);
        }
        if (winning.seat() == s.partner() && !s.isNil(winning.seat())) return cheapest;
        int led = s.trick.get(0).card().suit();
        return legal.stream().filter(c -> c.beats(winning.card(), led)).min(BY_COST).orElse(cheapest);
    }

    /** Aces, guarded kings, the spade queen with two guards, spades beyond three; two
     *  players share 13 tricks, so each takes a few more. */
    public static int estimateTricks(List<Card> hand, int seats) {
        int[] length = new int[4];
        for (Card c : hand) length[c.suit()]++;
        int tricks = 0;
        for (Card c : hand) {
            if (c.rank() == Card.ACE || (c.rank() == Card.KING && length[c.suit()] >= 2)
                    || (c.isSpade() && c.rank() == Card.QUEEN && length[Card.SPADES] >= 3)) tricks++;
        }
        tricks += Math.max(0, length[Card.SPADES] - 3) + (seats == 2 ? 1 : 0);
        return Math.max(1, tricks);
    }
}
