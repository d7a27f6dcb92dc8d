package starter;

import java.util.ArrayList;
import java.util.List;

/**
 * A card. {@code rank} is 0 for a two up to 12 for an ace; {@code suit} is 0 clubs,
 * 1 diamonds, 2 hearts, 3 spades. Comparison is the protocol's sort order: by suit,
 * then by rank. {@link #toString} gives the protocol name, e.g. "TH".
 */
public record Card(int rank, int suit) implements Comparable<Card> {
    public static final String RANKS = "23456789TJQKA";
    public static final String SUITS = "CDHS";
    public static final int JACK = 9, QUEEN = 10, KING = 11, ACE = 12;
    public static final int CLUBS = 0, DIAMONDS = 1, HEARTS = 2, SPADES = 3;

    /** A protocol card name such as "TH" (rank, then suit, upper case); null if it is not one. */
    public static Card parse(Object name) {
        if (name instanceof String text && text.length() == 2) {
            int r = RANKS.indexOf(text.charAt(0)), s = SUITS.indexOf(text.charAt(1));
            if (r >= 0 && s >= 0) return new Card(r, s);
        }
        return null;
    }

    public boolean isSpade() {
        return suit == SPADES;
    }

    /** Does this card beat {@code other} in a trick led in {@code led}? A spade beats
     *  any other suit; otherwise only a higher card of the led suit wins. */
    public boolean beats(Card other, int led) {
        if (suit == other.suit) return rank > other.rank;
        return isSpade() || (!other.isSpade() && suit == led);
    }

    @Override
    public int compareTo(Card o) {
        return suit != o.suit ? Integer.compare(suit, o.suit) : Integer.compare(rank, o.rank);
    }

    @Override
    public String toString() {
        return "" + RANKS.charAt(rank) + SUITS.charAt(suit);
    }

    /** One card played by one seat: [seat, card] in the protocol. */
    public record Play(int seat, Card card) {}

    /** The play winning {@code trick} so far, or null for an empty trick. */
    public static Play trickWinner(List<Play> trick) {
        if (trick.isEmpty()) return null;
        Play best = trick.get(0);
        for (Play p : trick) if (p.card().beats(best.card(), trick.get(0).card().suit())) best = p;
        return best;
    }

    /** The cards of {@code hand} that may be played to {@code trick}: follow the led suit
     *  if you can; when leading, no spade until spades are broken unless you hold only
     *  spades. (Requests already carry "legal"; this is for looking ahead.) */
    public static List<Card> legalPlays(List<Card> hand, List<Play> trick, boolean spadesBroken) {
        List<Card> out = new ArrayList<>();
        if (!trick.isEmpty()) {
            int led = trick.get(0).card().suit();
            for (Card c : hand) if (c.suit() == led) out.add(c);
            return out.isEmpty() ? new ArrayList<>(hand) : out;
        }
        for (Card c : hand) if (!c.isSpade()) out.add(c);
        return spadesBroken || out.isEmpty() ? new ArrayList<>(hand) : out;
    }
}
