// A small, complete JSON reader and writer (RFC 8259), C++17 standard library only.
// The C++ standard library has no JSON, and the kit must build offline, so this
// header replaces a JSON library for the protocol's needs.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace json {

/// Why a text is not JSON, with the byte offset where parsing stopped.
struct ParseError : std::runtime_error {
    ParseError(const std::string& what, size_t offset)
        : std::runtime_error(what + " at byte " + std::to_string(offset)) {}
};

/// A JSON value. Objects keep their members in order of appearance.
class Value {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };

    Value() = default;
    Value(std::nullptr_t) {}
    Value(bool b) : type_(Type::Bool), bool_(b) {}
    Value(int n) : type_(Type::Number), num_(n) {}
    Value(long n) : type_(Type::Number), num_(static_cast<double>(n)) {}
    Value(long long n) : type_(Type::Number), num_(static_cast<double>(n)) {}
    Value(double n) : type_(Type::Number), num_(n) {}
    Value(const char* s) : type_(Type::String), str_(s) {}
    Value(std::string s) : type_(Type::String), str_(std::move(s)) {}
    Value(std::vector<Value> items) : type_(Type::Array), items_(std::move(items)) {}
    Value(std::vector<std::pair<std::string, Value>> members) : type_(Type::Object), members_(std::move(members)) {}

    Type type() const { return type_; }
    bool is_null() const { return type_ == Type::Null; }
    bool is_bool() const { return type_ == Type::Bool; }
    bool is_number() const { return type_ == Type::Number; }
    bool is_string() const { return type_ == Type::String; }
    bool is_array() const { return type_ == Type::Array; }
    bool is_object() const { return type_ == Type::Object; }
    /// A number without a fractional part (every number of protocol v1 is one).
    bool is_integer() const { return is_number() && std::floor(num_) == num_ && std::fabs(num_) < 9e15; }

    bool as_bool(bool dflt = false) const { return is_bool() ? bool_ : dflt; }
    long long as_int(long long dflt = 0) const { return is_integer() ? static_cast<long long>(num_) : dflt; }
    double as_double(double dflt = 0) const { return is_number() ? num_ : dflt; }
    const std::string& as_string() const { static const std::string empty; return is_string() ? str_ : empty; }
    const std::vector<Value>& items() const { static const std::vector<Value> none; return is_array() ? items_ : none; }
    const std::vector<std::pair<std::string, Value>>& members() const {
        static const std::vector<std::pair<std::string, Value>> none;
        return is_object() ? members_ : none;
    }

    /// Member `key` of an object, or a null value when missing (or not an object).
    const Value& operator[](const std::string& key) const {
        static const Value null;
        for (const auto& m : members()) if (m.first == key) return m.second;
        return null;
    }
    bool has(const std::string& key) const {
        for (const auto& m : members()) if (m.first == key) return true;
        return false;
    }

    /// Compact serialisation (no spaces), the form the referee writes too.
    std::string dump() const { std::string out; write(out); return out; }

    /// Parse a complete JSON text (surrounding whitespace allowed, nothing else).
    static Value parse(const std::string& text);

private:
    void write(std::string& out) const;
    Type type_ = Type::Null;
    bool bool_ = false;
    double num_ = 0;
    std::string str_;
    std::vector<Value> items_;
    std::vector<std::pair<std::string, Value>> members_;
};

inline void write_string(const std::string& s, std::string& out) {
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c); // UTF-8 passes through unchanged
                }
        }
    }
    out += '"';
}

inline void Value::write(std::string& out) const {
    switch (type_) {
        case Type::Null: out += "null"; break;
        case Type::Bool: out += bool_ ? "true" : "false"; break;
        case Type::Number:
            if (is_integer()) out += std::to_string(static_cast<long long>(num_));
            else if (std::isfinite(num_)) { char buf[32]; std::snprintf(buf, sizeof buf, "%.17g", num_); out += buf; }
            else out += "null"; // JSON has no NaN or infinity
            break;
        case Type::String: write_string(str_, out); break;
        case Type::Array:
            out += '[';
            for (size_t i = 0; i < items_.size(); i++) { if (i) out += ','; items_[i].write(out); }
            out += ']';
            break;
        case Type::Object:
            out += '{';
            for (size_t i = 0; i < members_.size(); i++) {
                if (i) out += ',';
                write_string(members_[i].first, out);
                out += ':';
                members_[i].second.write(out);
            }
            out += '}';
            break;
    }
}

namespace detail {

class Parser {
public:
    explicit Parser(const std::string& s) : s_(s) {}

    Value document() {
        ws();
        Value v = value(0);
        ws();
        if (i_ != s_.size()) fail("unexpected text after the value");
        return v;
    }

private:
    [[noreturn]] void fail(const char* what) const { throw ParseError(what, i_); }
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    void ws() { while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\n')) i_++; }
    bool literal(const char* word) {
        size_t n = std::char_traits<char>::length(word);
        if (s_.compare(i_, n, word) != 0) return false;
        i_ += n;
        return true;
    }

    Value value(int depth) {
        if (depth > 128) fail("nested too deeply");
        char c = peek();
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') return Value(string());
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        if (literal("true")) return Value(true);
        if (literal("false")) return Value(false);
        if (literal("null")) return Value();
        fail(i_ >= s_.size() ? "unexpected end of input" : "expected a JSON value");
    }

    Value object(int depth) {
        std::vector<std::pair<std::string, Value>> members;
        i_++; // '{'
        ws();
        if (peek() == '}') { i_++; return Value(std::move(members)); }
        for (;;) {
            ws();
            if (peek() != '"') fail("expected a member name");
            std::string key = string();
            ws();
            if (peek() != ':') fail("expected ':'");
            i_++;
            ws();
            Value v = value(depth + 1);
            members.emplace_back(std::move(key), std::move(v));
            ws();
            if (peek() == ',') { i_++; continue; }
            if (peek() == '}') { i_++; return Value(std::move(members)); }
            fail("expected ',' or '}'");
        }
    }

    Value array(int depth) {
        std::vector<Value> items;
        i_++; // '['
        ws();
        if (peek() == ']') { i_++; return Value(std::move(items)); }
        for (;;) {
            ws();
            items.push_back(value(depth + 1));
            ws();
            if (peek() == ',') { i_++; continue; }
            if (peek() == ']') { i_++; return Value(std::move(items)); }
            fail("expected ',' or ']'");
        }
    }

    unsigned hex4() {
        if (i_ + 4 > s_.size()) fail("short \\u escape");
        unsigned code = 0;
        for (int k = 0; k < 4; k++) {
            char c = s_[i_++];
            code <<= 4;
            if (c >= '0' && c <= '9') code |= c - '0';
            else if (c >= 'a' && c <= 'f') code |= c - 'a' + 10;
            else if (c >= 'A' && c <= 'F') code |= c - 'A' + 10;
            else fail("bad \\u escape");
        }
        return code;
    }

    static void utf8(unsigned code, std::string& out) {
        if (code < 0x80) out += static_cast<char>(code);
        else if (code < 0x800) { out += static_cast<char>(0xC0 | (code >> 6)); out += static_cast<char>(0x80 | (code & 0x3F)); }
        else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    std::string string() {
        std::string out;
        i_++; // opening quote
        for (;;) {
            if (i_ >= s_.size()) fail("unterminated string");
            char c = s_[i_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
            if (c != '\\') { out += c; continue; }
            if (i_ >= s_.size()) fail("unterminated escape");
            char e = s_[i_++];
            switch (e) {
                case '"': case '\\': case '/': out += e; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    unsigned code = hex4();
                    if (code >= 0xD800 && code < 0xDC00 && s_.compare(i_, 2, "\\u") == 0) {
                        i_ += 2;
                        unsigned low = hex4();
                        if (low < 0xDC00 || low >= 0xE000) fail("bad surrogate pair");
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    }
                    utf8(code, out);
                    break;
                }
                default: fail("bad escape");
            }
        }
    }

    Value number() {
        size_t start = i_;
        if (peek() == '-') i_++;
        if (peek() == '0') i_++; // JSON forbids leading zeros: "0" stands alone
        else if (!digits()) fail("expected digits");
        if (peek() == '.') { i_++; if (!digits()) fail("expected digits after '.'"); }
        if (peek() == 'e' || peek() == 'E') {
            i_++;
            if (peek() == '+' || peek() == '-') i_++;
            if (!digits()) fail("expected exponent digits");
        }
        return Value(std::strtod(s_.substr(start, i_ - start).c_str(), nullptr));
    }

    bool digits() {
        size_t from = i_;
        while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') i_++;
        return i_ > from;
    }

    const std::string& s_;
    size_t i_ = 0;
};

} // namespace detail

inline Value Value::parse(const std::string& text) { return detail::Parser(text).document(); }

} // namespace json
