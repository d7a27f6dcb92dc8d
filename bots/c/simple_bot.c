/*
 * simple_bot.c - a compiled Spades bot (protocol v1), C99 standard library only.
 *
 * Strategy: play the lowest legal card that wins the trick so far, else the lowest
 * card (a side card before a spade); bid by counting aces, guarded kings, spade
 * honours and long spades; keep spades and high cards in the two-player draw;
 * never bid Blind Nil.
 *
 * Build: make -C bots/c            Run: bots/c/simple_bot
 *
 * The referee writes one JSON object per line; this file carries a tiny JSON
 * parser (enough for protocol messages) so that it needs no library.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ JSON */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JType;

typedef struct JNode {
    JType type;
    double num;          /* J_NUM, J_BOOL (0/1) */
    char *str;           /* J_STR: decoded text; J_NUM: the literal as written */
    char *key;           /* member name when inside an object */
    struct JNode *child; /* first element / member */
    struct JNode *next;  /* next sibling */
} JNode;

typedef struct {
    const char *p;
    int failed;
} Parser;

static JNode *parse_value(Parser *ps, int depth);

static void skip_ws(Parser *ps) {
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r' || *ps->p == '\n') ps->p++;
}

static JNode *new_node(JType type) {
    JNode *n = calloc(1, sizeof *n);
    if (!n) {
        fprintf(stderr, "simple_bot: out of memory\n");
        exit(1);
    }
    n->type = type;
    return n;
}

static void free_node(JNode *n) {
    while (n) {
        JNode *next = n->next;
        free_node(n->child);
        free(n->str);
        free(n->key);
        free(n);
        n = next;
    }
}

/* Parse a JSON string at ps->p (on the opening quote); returns malloc'd text. */
static char *parse_string(Parser *ps) {
    size_t cap = 16, len = 0;
    char *out = malloc(cap);
    if (!out || *ps->p != '"') {
        free(out);
        ps->failed = 1;
        return NULL;
    }
    ps->p++;
    while (*ps->p && *ps->p != '"') {
        char c = *ps->p++;
        if (c == '\\') {
            char e = *ps->p++;
            switch (e) {
                case 'n': c = '\n'; break;
                case 't': c = '\t'; break;
                case 'r': c = '\r'; break;
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'u': /* non-ASCII never matters to this bot: keep a placeholder */
                    for (int i = 0; i < 4 && isxdigit((unsigned char)*ps->p); i++) ps->p++;
                    c = '?';
                    break;
                case '\0': ps->failed = 1; free(out); return NULL;
                default: c = e; break; /* \" \\ \/ */
            }
        }
        if (len + 2 > cap) {
            char *grown = realloc(out, cap *= 2);
            if (!grown) { free(out); ps->failed = 1; return NULL; }
            out = grown;
        }
        out[len++] = c;
    }
    if (*ps->p != '"') {
        free(out);
        ps->failed = 1;
        return NULL;
    }
    ps->p++;
    out[len] = '\0';
    return out;
}

static JNode *parse_value(Parser *ps, int depth) {
    skip_ws(ps);
    if (depth > 64) { ps->failed = 1; return NULL; }
    const char *p = ps->p;
    if (*p == '{' || *p == '[') {
        int is_obj = *p == '{';
        JNode *n = new_node(is_obj ? J_OBJ : J_ARR), *last = NULL;
        ps->p++;
        skip_ws(ps);
        if (*ps->p == (is_obj ? '}' : ']')) { ps->p++; return n; }
        for (;;) {
            char *key = NULL;
            skip_ws(ps);
            if (is_obj) {
                key = parse_string(ps);
                skip_ws(ps);
                if (ps->failed || *ps->p != ':') { free(key); ps->failed = 1; free_node(n); return NULL; }
                ps->p++;
            }
            JNode *item = parse_value(ps, depth + 1);
            if (!item) { free(key); free_node(n); ps->failed = 1; return NULL; }
            item->key = key;
            if (last) last->next = item; else n->child = item;
            last = item;
            skip_ws(ps);
            if (*ps->p == ',') { ps->p++; continue; }
            if (*ps->p == (is_obj ? '}' : ']')) { ps->p++; return n; }
            free_node(n);
            ps->failed = 1;
            return NULL;
        }
    }
    if (*p == '"') {
        JNode *n = new_node(J_STR);
        n->str = parse_string(ps);
        if (ps->failed) { free_node(n); return NULL; }
        return n;
    }
    if (strncmp(p, "true", 4) == 0 || strncmp(p, "false", 5) == 0) {
        JNode *n = new_node(J_BOOL);
        n->num = *p == 't';
        ps->p += *p == 't' ? 4 : 5;
        return n;
    }
    if (strncmp(p, "null", 4) == 0) {
        ps->p += 4;
        return new_node(J_NULL);
    }
    if (*p == '-' || isdigit((unsigned char)*p)) {
        char *end;
        JNode *n = new_node(J_NUM);
        n->num = strtod(p, &end);
        n->str = malloc((size_t)(end - p) + 1);
        if (!n->str) { free_node(n); ps->failed = 1; return NULL; }
        memcpy(n->str, p, (size_t)(end - p));
        n->str[end - p] = '\0';
        ps->p = end;
        return n;
    }
    ps->failed = 1;
    return NULL;
}

static JNode *jget(const JNode *obj, const char *key) {
    if (!obj || obj->type != J_OBJ) return NULL;
    for (JNode *c = obj->child; c; c = c->next)
        if (c->key && strcmp(c->key, key) == 0) return c;
    return NULL;
}

static const char *jstr(const JNode *n) { return n && n->type == J_STR ? n->str : ""; }
static int jint(const JNode *n, int dflt) { return n && (n->type == J_NUM || n->type == J_BOOL) ? (int)n->num : dflt; }

/* ------------------------------------------------------------------ cards */

static const char RANKS[] = "23456789TJQKA";

static int rank_of(const char *card) {
    const char *r = card[0] ? strchr(RANKS, card[0]) : NULL;
    return r ? (int)(r - RANKS) : -1;
}

/* Does card a beat card b in a trick led in suit `led`? */
static int beats(const char *a, const char *b, char led) {
    if (a[1] == b[1]) return rank_of(a) > rank_of(b);
    if (a[1] == 'S') return 1;
    if (b[1] == 'S') return 0;
    return a[1] == led;
}

/* Sort key for "cheapest": side cards before spades, then by rank. */
static int cost(const char *card) { return (card[1] == 'S') * 100 + rank_of(card); }

/* ------------------------------------------------------------------ decisions */

static int seats = 4; /* from hello: 2 or 4 */

static int count_tricks(const JNode *hand) {
    int len[4] = {0, 0, 0, 0}, ace[4] = {0, 0, 0, 0}, king[4] = {0, 0, 0, 0}, queen = 0;
    const char *suits = "CDHS";
    for (JNode *c = hand ? hand->child : NULL; c; c = c->next) {
        const char *card = jstr(c);
        const char *s = card[0] ? strchr(suits, card[1]) : NULL;
        if (!s || rank_of(card) < 0) continue;
        int si = (int)(s - suits), r = rank_of(card);
        len[si]++;
        if (r == 12) ace[si] = 1;
        if (r == 11) king[si] = 1;
        if (r == 10 && si == 3) queen = 1;
    }
    double tricks = 0;
    for (int s = 0; s < 4; s++) {
        tricks += ace[s];
        if (king[s]) tricks += len[s] >= 2 ? (s == 3 ? 0.9 : 0.65) : 0.2;
    }
    if (queen) tricks += len[3] >= 3 ? 0.7 : 0.2;
    tricks += len[3] > 4 ? (len[3] - 4) * 0.9 : 0;
    /* Fitted like the JavaScript bot's: low cards win a few late tricks, and two
       players split all 13 tricks between two strong drawn hands. */
    tricks = seats == 2 ? 1.5 + tricks * 1.1 : tricks + 1.2;
    return tricks < 1 ? 1 : (int)floor(tricks);
}

static void answer_bid(const JNode *msg, const JNode *state) {
    int target = count_tricks(jget(state, "hand"));
    int best = -1, best_gap = 1000;
    for (JNode *b = jget(msg, "legal") ? jget(msg, "legal")->child : NULL; b; b = b->next) {
        int v = jint(b, -1), gap = abs(v - target);
        if (v == 0) gap += 100; /* nil only when nothing else is legal */
        if (v >= 0 && gap < best_gap) { best = v; best_gap = gap; }
    }
    printf("\"bid\":%d", best < 0 ? 0 : best);
}

static void answer_play(const JNode *msg, const JNode *state) {
    const JNode *legal = jget(msg, "legal");
    const JNode *trick = jget(state, "trick");
    const char *win = NULL;
    char led = 0;
    if (trick && trick->child) {
        for (JNode *play = trick->child; play; play = play->next) {
            const JNode *card = play->child ? play->child->next : NULL;
            const char *c = jstr(card);
            if (strlen(c) != 2) continue;
            if (!win) { win = c; led = c[1]; }
            else if (beats(c, win, led)) win = c;
        }
    }
    const char *lowest_winner = NULL, *cheapest = NULL;
    for (JNode *n = legal ? legal->child : NULL; n; n = n->next) {
        const char *c = jstr(n);
        if (strlen(c) != 2) continue;
        if (win && beats(c, win, led) && (!lowest_winner || rank_of(c) < rank_of(lowest_winner)))
            lowest_winner = c;
        if (!cheapest || cost(c) < cost(cheapest)) cheapest = c;
    }
    printf("\"card\":\"%s\"", lowest_winner ? lowest_winner : cheapest ? cheapest : "");
}

/* Exactly `count` cards: the lowest ones. */
static void answer_pass(const JNode *msg, const JNode *state) {
    const JNode *hand = jget(state, "hand");
    int count = jint(jget(msg, "count"), 0), n = 0;
    const char *cards[64];
    for (JNode *c = hand ? hand->child : NULL; c && n < 64; c = c->next) cards[n++] = jstr(c);
    for (int i = 1; i < n; i++) /* insertion sort by cost */
        for (int j = i; j > 0 && cost(cards[j]) < cost(cards[j - 1]); j--) {
            const char *t = cards[j]; cards[j] = cards[j - 1]; cards[j - 1] = t;
        }
    printf("\"cards\":[");
    for (int i = 0; i < count && i < n; i++) printf("%s\"%s\"", i ? "," : "", cards[i]);
    printf("]");
}

static void handle(const JNode *msg) {
    const char *type = jstr(jget(msg, "type"));
    const JNode *id = jget(msg, "id");
    const JNode *state = jget(msg, "state");
    if (!id) return; /* an event: nothing to answer */
    const char *id_text = id->type == J_NUM ? id->str : NULL;
    if (strcmp(type, "hello") == 0) {
        seats = strcmp(jstr(jget(msg, "variant")), "two-player") == 0 ? 2 : 4;
    } else if (strcmp(type, "blind_nil") && strcmp(type, "keep") && strcmp(type, "discard") &&
               strcmp(type, "pass") && strcmp(type, "bid") && strcmp(type, "play")) {
        fprintf(stderr, "simple_bot: ignoring request of unknown type '%s'\n", type);
        return;
    }
    if (id_text) printf("{\"id\":%s,", id_text);
    else printf("{\"id\":\"%s\",", jstr(id));
    if (strcmp(type, "hello") == 0) printf("\"name\":\"c-simple\"");
    else if (strcmp(type, "blind_nil") == 0) printf("\"blind_nil\":false");
    else if (strcmp(type, "keep") == 0) {
        const char *card = jstr(jget(msg, "card"));
        printf("\"keep\":%s", strlen(card) == 2 && (card[1] == 'S' || rank_of(card) >= 11) ? "true" : "false");
    } else if (strcmp(type, "discard") == 0) printf("\"cards\":[]");
    else if (strcmp(type, "pass") == 0) answer_pass(msg, state);
    else if (strcmp(type, "bid") == 0) answer_bid(msg, state);
    else answer_play(msg, state);
    printf("}\n");
    fflush(stdout);
}

/* Read one line of any length; NULL at end of input. */
static char *read_line(void) {
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    int c;
    if (!buf) return NULL;
    while ((c = getchar()) != EOF && c != '\n') {
        if (len + 1 >= cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown) { free(buf); return NULL; }
            buf = grown;
        }
        buf[len++] = (char)c;
    }
    if (c == EOF && len == 0) { free(buf); return NULL; }
    buf[len] = '\0';
    return buf;
}

int main(void) {
    char *line;
    while ((line = read_line()) != NULL) {
        Parser ps = {line, 0};
        JNode *msg = parse_value(&ps, 0);
        int done = 0;
        if (!msg || ps.failed || msg->type != J_OBJ) {
            if (line[strspn(line, " \t\r")] != '\0')
                fprintf(stderr, "simple_bot: ignoring a line that is not a JSON object: %.200s\n", line);
        } else {
            handle(msg);
            done = strcmp(jstr(jget(msg, "type")), "match_end") == 0;
        }
        free_node(msg);
        free(line);
        if (done) break;
    }
    return 0;
}
