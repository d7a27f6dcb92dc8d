package starter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, complete JSON reader and writer (RFC 8259). The Java standard library has
 * none, and the kit must build offline, so this replaces a JSON library.
 *
 * <p>Values map to plain Java objects: object = {@code Map<String, Object>} (member
 * order kept), array = {@code List<Object>}, string = {@code String}, integer =
 * {@code Long}, other number = {@code Double}, {@code Boolean}, and {@code null}.
 */
public final class Json {
    private final String s;
    private int i;

    /** Why a text is not JSON, with the offset where parsing stopped. */
    public static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;

        public ParseException(String message, int offset) {
            super(message + " at offset " + offset);
        }
    }

    private Json(String s) {
        this.s = s;
    }

    /** Parse a complete JSON text (surrounding whitespace allowed, nothing else). */
    public static Object parse(String text) throws ParseException {
        Json p = new Json(text);
        p.ws();
        Object v = p.value(0);
        p.ws();
        if (p.i != text.length()) throw p.error("unexpected text after the value");
        return v;
    }

    /** Compact serialisation (no spaces) of a value made of the types above. */
    public static String write(Object v) {
        StringBuilder out = new StringBuilder();
        write(v, out);
        return out.toString();
    }

    private static void write(Object v, StringBuilder out) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof String str) {
            writeString(str, out);
        } else if (v instanceof Boolean || v instanceof Long || v instanceof Integer) {
            out.append(v);
        } else if (v instanceof Number n) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) out.append("null"); // not representable
            else if (d == Math.rint(d) && Math.abs(d) < 9e15) out.append((long) d);
            else out.append(d);
        } else if (v instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) out.append(',');
                first = false;
                writeString(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (v instanceof Iterable<?> list) {
            out.append('[');
            boolean first = true;
            for (Object item : list) {
                if (!first) out.append(',');
                first = false;
                write(item, out);
            }
            out.append(']');
        } else {
            writeString(v.toString(), out); // e.g. a Card: its protocol name
        }
    }

    private static void writeString(String str, StringBuilder out) {
        out.append('"');
        for (int k = 0; k < str.length(); k++) {
            char c = str.charAt(k);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    private ParseException error(String message) {
        return new ParseException(message, i);
    }

    private void ws() {
        while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private Object value(int depth) throws ParseException {
        if (depth > 128) throw error("nested too deeply");
        char c = peek();
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') return string();
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
        if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
        if (s.startsWith("null", i)) { i += 4; return null; }
        throw error(i >= s.length() ? "unexpected end of input" : "expected a JSON value");
    }

    private Map<String, Object> object(int depth) throws ParseException {
        Map<String, Object> members = new LinkedHashMap<>();
        i++; // '{'
        ws();
        if (peek() == '}') { i++; return members; }
        while (true) {
            ws();
            if (peek() != '"') throw error("expected a member name");
            String key = string();
            ws();
            if (peek() != ':') throw error("expected ':'");
            i++;
            ws();
            members.put(key, value(depth + 1));
            ws();
            char c = peek();
            i++;
            if (c == '}') return members;
            if (c != ',') { i--; throw error("expected ',' or '}'"); }
        }
    }

    private List<Object> array(int depth) throws ParseException {
        List<Object> items = new ArrayList<>();
        i++; // '['
        ws();
        if (peek() == ']') { i++; return items; }
        while (true) {
            ws();
            items.add(value(depth + 1));
            ws();
            char c = peek();
            i++;
            if (c == ']') return items;
            if (c != ',') { i--; throw error("expected ',' or ']'"); }
        }
    }

    private String string() throws ParseException {
        StringBuilder out = new StringBuilder();
        i++; // opening quote
        while (true) {
            if (i >= s.length()) throw error("unterminated string");
            char c = s.charAt(i++);
            if (c == '"') return out.toString();
            if (c < 0x20) { i--; throw error("control character in a string"); }
            if (c != '\\') { out.append(c); continue; }
            if (i >= s.length()) throw error("unterminated escape");
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    // A surrogate pair arrives as two escapes; Java strings are UTF-16, so
                    // appending both halves in turn rebuilds the character.
                    if (i + 4 > s.length()) throw error("short \\u escape");
                    try {
                        out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("bad \\u escape");
                    }
                    i += 4;
                }
                default -> { i--; throw error("bad escape"); }
            }
        }
    }

    private Object number() throws ParseException {
        int start = i;
        boolean integer = true;
        if (peek() == '-') i++;
        if (peek() == '0') i++; // JSON forbids leading zeros: "0" stands alone
        else if (digits() == 0) throw error("expected digits");
        if (peek() == '.') {
            i++;
            integer = false;
            if (digits() == 0) throw error("expected digits after '.'");
        }
        if (peek() == 'e' || peek() == 'E') {
            i++;
            integer = false;
            if (peek() == '+' || peek() == '-') i++;
            if (digits() == 0) throw error("expected exponent digits");
        }
        String text = s.substring(start, i);
        if (integer) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException tooBig) {
                return Double.parseDouble(text);
            }
        }
        return Double.parseDouble(text);
    }

    private int digits() {
        int from = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
        return i - from;
    }
}
