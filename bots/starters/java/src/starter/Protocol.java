package starter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Protocol v1 messages as Java types: what the referee sends ({@code hello}, the
 * requests with their {@code state}, the events) and how a message is read from its
 * JSON. Field names follow docs/protocol.md; fields this kit does not know are ignored.
 */
public final class Protocol {
    private Protocol() {}

    /** A message this kit cannot use (logged, never answered). */
    public static final class BadMessage extends Exception {
        private static final long serialVersionUID = 1L;

        public BadMessage(String message) {
            super(message);
        }
    }

    /** The match facts from hello. {@code moveMs} is null for a seat without a clock. */
    public record Hello(int protocol, String match, String variant, int seat, List<String> names,
                        Map<String, Object> rules, Long moveMs, long bankMs) {
        public boolean twoPlayer() {
            return "two-player".equals(variant);
        }
    }

    /** A request's state: this seat's whole view of the hand. */
    public static final class State {
        public int handNo, seat, leader;
        public String phase = "", variant = "partnership";
        /** Your cards now, sorted (empty in a partnership blind_nil request). */
        public List<Card> hand = new ArrayList<>();
        /** Partnership: the dealer; two-player: the first player (first to draw). The other is null. */
        public Integer dealer, first;
        /** Per seat: the bid (0 = Nil), null if not made yet. */
        public List<Integer> bids = new ArrayList<>();
        /** Per seat: bid Blind Nil. */
        public List<Boolean> blind = new ArrayList<>();
        /** Per seat: tricks taken this hand. */
        public List<Integer> tricks = new ArrayList<>();
        /** The trick in progress in play order (empty when you lead). */
        public List<Card.Play> trick = new ArrayList<>();
        public boolean spadesBroken;
        /** Every card played this hand in order, the trick in progress included. */
        public List<Card.Play> played = new ArrayList<>();
        /** Per side, before this hand. */
        public List<Integer> score = new ArrayList<>(), bags = new ArrayList<>();
        public Long moveMs;
        public long bankMs;
        /** Two-player: cards you discarded; partnership: cards you passed; cards you received. */
        public List<Card> discards = new ArrayList<>(), passed = new ArrayList<>(), received = new ArrayList<>();
        /** The object as sent, for fields a later protocol may add. */
        public Map<String, Object> raw = Map.of();

        public int seats() {
            return "two-player".equals(variant) ? 2 : 4;
        }

        /** The side (index into score and bags) that {@code seat} plays for. */
        public int sideOf(int s) {
            return seats() == 2 ? s : s % 2;
        }

        public int side() {
            return sideOf(seat);
        }

        /** The partner's seat, or -1 in the two-player game. */
        public int partner() {
            return seats() == 4 ? (seat + 2) % 4 : -1;
        }

        /** Did {@code s} bid Nil or Blind Nil this hand? */
        public boolean isNil(int s) {
            return s >= 0 && s < bids.size() && bids.get(s) != null && bids.get(s) == 0;
        }

        public boolean isBlind(int s) {
            return s >= 0 && s < blind.size() && blind.get(s);
        }

        /** The best other side's score minus ours (positive: we trail). */
        public int behindBy() {
            if (side() >= score.size()) return 0;
            int mine = score.get(side()), best = mine;
            for (int k = 0; k < score.size(); k++) if (k != side()) best = Math.max(best, score.get(k));
            return best - mine;
        }
    }

    /**
     * A request. {@code type} is hello, blind_nil, keep, discard, pass, bid or play;
     * the other fields are set for the types named beside them.
     */
    public static final class Request {
        public String type;
        /** Echoed as received. */
        public Object id;
        public Hello hello;              // hello
        public State state;              // every request but hello
        public Card card;                // keep: the card just drawn
        public int max;                  // discard: at most this many
        public int count, to;            // pass: exactly count cards, to seat to
        public List<Integer> legalBids;  // bid
        public List<Card> legalCards;    // play
    }

    /**
     * An event (no id, never answered). {@code type} says which fields are set:
     * hand_start (hand, dealer or first, score, bags), hand (cards), drawn (kept,
     * discarded), bid_made (seat, bid, blindBid), received (cards, from: a seat or -1
     * for the discard pile), played (seat, card), trick (plays, winner), hand_end (hand,
     * bids, blind, tricks, points, score, bags), match_end (score, winner: a side or
     * null for a draw, reason), error (message).
     */
    public static final class Event {
        public String type;
        public int hand, seat, bid, from = -1;
        public Integer dealer, first, winner;
        public boolean blindBid;
        public Card card, kept, discarded;
        public List<Card> cards = new ArrayList<>();
        public List<Card.Play> plays = new ArrayList<>();
        public List<Integer> bids = new ArrayList<>(), tricks = new ArrayList<>(), points = new ArrayList<>(),
                score = new ArrayList<>(), bags = new ArrayList<>();
        public List<Boolean> blind = new ArrayList<>();
        public String reason = "", message = "";
        public Map<String, Object> raw = Map.of();
    }

    // ------------------------------------------------------------------ reading

    /** Parse one line into a {@link Request} or an {@link Event}. */
    public static Object parse(String line, Hello hello) throws BadMessage {
        Object value;
        try {
            value = Json.parse(line);
        } catch (Json.ParseException e) {
            throw new BadMessage("not JSON: " + e.getMessage());
        }
        if (!(value instanceof Map<?, ?>)) throw new BadMessage("not a JSON object");
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) value;
        if (!(m.get("type") instanceof String type)) throw new BadMessage("message has no \"type\"");
        if (m.containsKey("id")) return request(type, m, hello);
        return event(type, m);
    }

    private static Request request(String type, Map<String, Object> m, Hello hello) throws BadMessage {
        Request r = new Request();
        r.type = type;
        r.id = m.get("id");
        switch (type) {
            case "hello" -> {
                Map<String, Object> time = map(m.get("time"));
                r.hello = new Hello(intOr(m.get("protocol"), 1), str(m.get("match")), str(m.get("variant")),
                        intOr(m.get("seat"), 0), strings(m.get("names")), map(m.get("rules")),
                        time.get("move_ms") instanceof Long ms ? ms : null, longOr(time.get("bank_ms"), 0));
                return r;
            }
            case "blind_nil" -> { }
            case "keep" -> r.card = card(m.get("card"));
            case "discard" -> r.max = intOr(m.get("max"), 0);
            case "pass" -> {
                r.count = intOr(m.get("count"), 0);
                r.to = intOr(m.get("to"), 0);
            }
            case "bid" -> r.legalBids = ints(m.get("legal"));
            case "play" -> r.legalCards = cards(m.get("legal"));
            default -> throw new BadMessage("unknown request type \"" + type + "\"");
        }
        if (!(m.get("state") instanceof Map<?, ?>)) throw new BadMessage(type + " request without \"state\"");
        r.state = state(map(m.get("state")), hello);
        return r;
    }

    private static State state(Map<String, Object> s, Hello hello) throws BadMessage {
        State st = new State();
        st.raw = s;
        st.handNo = intOr(s.get("hand_no"), 0);
        st.seat = intOr(s.get("seat"), hello != null ? hello.seat() : 0);
        st.phase = str(s.get("phase"));
        st.variant = s.get("variant") instanceof String v ? v : hello != null ? hello.variant() : "partnership";
        st.hand = cards(s.get("hand"));
        st.hand.sort(null);
        st.dealer = intOrNull(s.get("dealer"));
        st.first = intOrNull(s.get("first"));
        st.bids = new ArrayList<>();
        for (Object b : list(s.get("bids"))) st.bids.add(intOrNull(b));
        st.blind = bools(s.get("blind"));
        st.tricks = ints(s.get("tricks"));
        st.trick = plays(s.get("trick"));
        st.leader = intOr(s.get("leader"), 0);
        st.spadesBroken = Boolean.TRUE.equals(s.get("spades_broken"));
        st.played = plays(s.get("played"));
        st.score = ints(s.get("score"));
        st.bags = ints(s.get("bags"));
        Map<String, Object> time = map(s.get("time"));
        st.moveMs = time.get("move_ms") instanceof Long ms ? ms : null;
        st.bankMs = longOr(time.get("bank_ms"), 0);
        st.discards = cards(s.get("discards"));
        st.passed = cards(s.get("passed"));
        st.received = cards(s.get("received"));
        return st;
    }

    private static Event event(String type, Map<String, Object> m) throws BadMessage {
        Event e = new Event();
        e.type = type;
        e.raw = m;
        e.hand = intOr(m.get("hand"), 0);
        e.seat = intOr(m.get("seat"), 0);
        e.dealer = intOrNull(m.get("dealer"));
        e.first = intOrNull(m.get("first"));
        e.winner = intOrNull(m.get("winner"));
        e.score = ints(m.get("score"));
        e.bags = ints(m.get("bags"));
        e.reason = str(m.get("reason"));
        e.message = str(m.get("message"));
        switch (type) {
            case "hand", "received" -> {
                e.cards = cards(m.get("cards"));
                e.from = m.get("from") instanceof Long seat ? seat.intValue() : -1;
            }
            case "drawn" -> {
                e.kept = card(m.get("kept"));
                e.discarded = card(m.get("discarded"));
            }
            case "bid_made" -> {
                e.bid = intOr(m.get("bid"), 0);
                e.blindBid = Boolean.TRUE.equals(m.get("blind"));
            }
            case "played" -> e.card = card(m.get("card"));
            case "trick" -> e.plays = plays(m.get("cards"));
            case "hand_end" -> {
                e.bids = ints(m.get("bids"));
                e.blind = bools(m.get("blind"));
                e.tricks = ints(m.get("tricks"));
                e.points = ints(m.get("points"));
            }
            default -> { }
        }
        return e;
    }

    // Typed field readers: a missing or mistyped field gets a neutral value, except a
    // card, which is essential wherever it appears.

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object v) {
        return v instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object v) {
        return v instanceof List<?> l ? (List<Object>) l : List.of();
    }

    private static String str(Object v) {
        return v instanceof String s ? s : "";
    }

    private static int intOr(Object v, int dflt) {
        return v instanceof Long n ? n.intValue() : dflt;
    }

    private static long longOr(Object v, long dflt) {
        return v instanceof Long n ? n : dflt;
    }

    private static Integer intOrNull(Object v) {
        return v instanceof Long n ? n.intValue() : null;
    }

    private static List<Integer> ints(Object v) {
        List<Integer> out = new ArrayList<>();
        for (Object x : list(v)) out.add(intOr(x, 0));
        return out;
    }

    private static List<Boolean> bools(Object v) {
        List<Boolean> out = new ArrayList<>();
        for (Object x : list(v)) out.add(Boolean.TRUE.equals(x));
        return out;
    }

    private static List<String> strings(Object v) {
        List<String> out = new ArrayList<>();
        for (Object x : list(v)) out.add(str(x));
        return out;
    }

    private static Card card(Object v) throws BadMessage {
        Card c = Card.parse(v);
        if (c == null) throw new BadMessage("not a card: " + Json.write(v));
        return c;
    }

    private static List<Card> cards(Object v) throws BadMessage {
        List<Card> out = new ArrayList<>();
        for (Object x : list(v)) out.add(card(x));
        return out;
    }

    private static List<Card.Play> plays(Object v) throws BadMessage {
        List<Card.Play> out = new ArrayList<>();
        for (Object x : list(v)) {
            List<Object> pair = list(x);
            if (pair.size() != 2 || !(pair.get(0) instanceof Long seat)) throw new BadMessage("not a [seat, card] pair: " + Json.write(x));
            out.add(new Card.Play(seat.intValue(), card(pair.get(1))));
        }
        return out;
    }
}
