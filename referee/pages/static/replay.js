// The replay page: renders the frames the referee computed (see
// referee/pages/replay_page.py). It decides nothing about the rules: every
// hand, trick, winner and score comes from the data.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("page-data").textContent);
  const F = {};
  D.fields.forEach((name, i) => { F[name] = i; });
  const frames = D.frames;
  const N = D.names.length;
  const TWO = D.variant === "two-player";
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const SYMBOLS = ["\u2663", "\u2666", "\u2665", "\u2660"];
  const LETTERS = ["C", "D", "H", "S"];
  const SUIT_WORDS = ["clubs", "diamonds", "hearts", "spades"];
  const SHOW_ORDER = [3, 2, 0, 1]; // spades, hearts, clubs, diamonds: the colours alternate
  const $ = (id) => document.getElementById(id);
  const state = { i: 0, view: "all" };

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const sideOf = (seat) => (TWO ? seat : seat % 2);
  const seatName = (s) => `${esc(D.names[s])}`;
  const who = (s) => `<b>${seatName(s)}</b> <span class="muted">(seat ${s})</span>`;
  const sideName = (side) => D.sides[side].map((s) => D.names[s]).filter((n, k, a) => a.indexOf(n) === k).join(" / ");

  // ------------------------------------------------------------------ cards
  function cardsOf(hex) { // the mask's hex digits -> card numbers
    const out = [];
    for (let k = 0; k < hex.length; k++) {
      const digit = parseInt(hex[hex.length - 1 - k], 16);
      for (let b = 0; b < 4; b++) if (digit & (1 << b)) out.push(4 * k + b);
    }
    return out;
  }
  function cardText(c) { return RANKS[c % 13] + SYMBOLS[Math.floor(c / 13)]; }
  function cardLabel(c) { return `${RANKS[c % 13]} of ${SUIT_WORDS[Math.floor(c / 13)]}`; }
  function cardHtml(c, extra) {
    const s = Math.floor(c / 13);
    return `<span class="card s${s}${extra ? " " + extra : ""}" data-card="${c}" title="${cardLabel(c)}" role="img" aria-label="${cardLabel(c)}">` +
      `<span class="r">${RANKS[c % 13]}</span><span class="u">${SYMBOLS[s]}</span><span class="l">${LETTERS[s]}</span></span>`;
  }
  function inline(c) { const s = Math.floor(c / 13); return `<span class="s${s}"><b>${cardText(c)}</b></span>`; }
  const inlineList = (cs) => cs.map(inline).join(" ") || "nothing";
  function sortForShow(cards) {
    return cards.slice().sort((a, b) => {
      const sa = SHOW_ORDER.indexOf(Math.floor(a / 13)), sb = SHOW_ORDER.indexOf(Math.floor(b / 13));
      return sa !== sb ? sa - sb : (b % 13) - (a % 13);
    });
  }
  function handHtml(cards) {
    let prev = -1;
    return sortForShow(cards).map((c) => {
      const s = Math.floor(c / 13), gap = prev !== -1 && s !== prev;
      prev = s;
      return cardHtml(c, gap ? "gap" : "");
    }).join("");
  }

  // ------------------------------------------------------------------ positions
  function viewer() { return state.view === "all" ? 0 : Number(state.view); }
  function posOf(seat) {
    const rel = (seat - viewer() + N) % N;
    return TWO ? ["bottom", "top"][rel] : ["bottom", "left", "top", "right"][rel];
  }
  function visible(seat) { return state.view === "all" || Number(state.view) === seat; }

  // ------------------------------------------------------------------ frames
  const fr = (i) => frames[i];
  const handOf = (i) => D.hands[fr(i)[F.hand] - 1];
  function nextTurn(i) { // who acts after frame i (the seat of the next decision in the same hand)
    const f = fr(i), n = frames[i + 1];
    return n && n[F.hand] === f[F.hand] && n[F.seat] !== null ? n[F.seat] : null;
  }
  function bidHtml(f, s) {
    const bid = f[F.bids][s];
    if (bid === null) return `<span class="bid muted" title="no bid yet">&ndash;</span>`;
    if (bid === 0 && f[F.blind][s]) return `<span class="bid blind" title="Blind Nil">BLIND NIL</span>`;
    if (bid === 0) return `<span class="bid nil" title="Nil">NIL</span>`;
    return `<span class="bid" title="bid ${bid}">bid ${bid}</span>`;
  }

  function renderTable(i) {
    const f = fr(i), turn = nextTurn(i);
    let out = "";
    for (let s = 0; s < N; s++) {
      const cards = cardsOf(f[F.hands][s]);
      // In one seat's view, a seat that has not looked at its cards yet (offered Blind Nil) sees backs too.
      const seen = state.view === "all" || (f[F.looked] >> s) & 1;
      const cardsHtml = visible(s) && seen ? handHtml(cards)
        : cards.map(() => `<span class="card back" aria-hidden="true"></span>`).slice(0, 13).join("") +
          `<span class="count">${cards.length} card${cards.length === 1 ? "" : "s"}${visible(s) ? ", not looked at yet" : ""}</span>`;
      out += `<div class="seat pos-${posOf(s)}${turn === s ? " turn" : ""}" data-seat="${s}">` +
        `<div class="plate"><span class="name">${seatName(s)}</span>` +
        `<span class="tag side${sideOf(s)}">seat ${s}${TWO ? "" : " · " + (sideOf(s) ? "B" : "A")}</span>` +
        `${bidHtml(f, s)}<span class="won" title="tricks won this hand">won <b>${f[F.won][s]}</b></span></div>` +
        `<div class="cards" data-hand="${s}">${cardsHtml}</div></div>`;
    }
    let mid = "";
    const table = f[F.table], winner = f[F.winner];
    for (const [s, c] of table) {
      mid += `<div class="slot slot-${posOf(s)}${winner === s ? " win" : ""}" data-seat="${s}">${cardHtml(c)}</div>`;
    }
    let label = "";
    const shown = exchangeHtml(f);
    if (shown) {
      $("table").className = "felt" + (TWO ? " two" : "");
      $("table").innerHTML = out + `<div class="mid">${shown}</div>`;
      return;
    }
    if (f[F.kind] === "play" || (f[F.kind] === "end" && f[F.trick])) {
      label = `Trick ${f[F.trick]} of 13`;
      if (winner !== null) label += ` · <b>${seatName(winner)}</b> wins`;
    } else if (f[F.kind] === "end") label = "Match over";
    else label = "Hand " + f[F.hand];
    $("table").className = "felt" + (TWO ? " two" : "");
    $("table").innerHTML = out + `<div class="mid"><div class="cross" id="trick">${mid}</div><div class="label">${label}</div></div>`;
  }

  // The draw, a Blind Nil replacement or a pass, shown where the trick goes (when this view may see it).
  function exchangeHtml(f) {
    const k = f[F.kind], s = f[F.seat], a = f[F.action], x = f[F.extra];
    const group = (title, cards) => `<div class="xgroup"><div class="xcards">${cards.map((c) => cardHtml(c)).join("") || "&ndash;"}</div><div class="xcap">${title}</div></div>`;
    if (k === "keep" && visible(s)) {
      const [kept, gone] = a ? [x[0], x[1]] : [x[1], x[0]];
      return `<div class="exchange">${group(`${seatName(s)} keeps`, [kept])}${group("to the discards", [gone])}</div>`;
    }
    if (k === "discard" && visible(s)) return `<div class="exchange">${group(`${seatName(s)} gives up`, a)}${group("takes from the discards", x)}</div>`;
    if (k === "pass" && (visible(s) || visible(x))) return `<div class="exchange">${group(`${seatName(s)} passes to ${seatName(x)}`, a)}</div>`;
    return "";
  }

  function actionText(i) {
    const f = fr(i), k = f[F.kind], s = f[F.seat], a = f[F.action], x = f[F.extra];
    const h = handOf(i);
    switch (k) {
      case "deal":
        return TWO ? `Hand ${f[F.hand]} begins: ${who(h.first ?? (f[F.hand] - 1) % 2)} draws first.`
          : `Hand ${f[F.hand]} is dealt by ${who(h.dealer ?? (f[F.hand] - 1) % 4)}.`;
      case "blind_nil": return a ? `${who(s)} bids <b>Blind Nil</b> without looking.` : `${who(s)} declines Blind Nil.`;
      case "bid": return `${who(s)} bids <b>${a === 0 ? "Nil" : a}</b>.`;
      case "keep": {
        if (!visible(s)) return `${who(s)} draws.`;
        return a ? `${who(s)} sees ${inline(x[0])} and keeps it (${inline(x[1])} goes to the discards).`
          : `${who(s)} sees ${inline(x[0])} and discards it, taking ${inline(x[1])}.`;
      }
      case "discard":
        return visible(s) ? `${who(s)} (Blind Nil) exchanges ${inlineList(a)} for ${inlineList(x)} from the discards.`
          : `${who(s)} (Blind Nil) exchanges ${a.length} card(s) with the discards.`;
      case "pass":
        return visible(s) || visible(x) ? `${who(s)} passes ${inlineList(a)} to ${who(x)}.`
          : `${who(s)} passes ${a.length} cards to ${who(x)}.`;
      case "play": {
        let t = `${who(s)} plays ${inline(a)}.`;
        if (f[F.winner] !== null) t += ` ${who(f[F.winner])} wins trick ${f[F.trick]}.`;
        return t;
      }
      case "end": return `<b>Match over:</b> ${esc(D.result)}.`;
    }
    return "";
  }

  function renderAction(i) {
    const f = fr(i);
    const ms = f[F.ms];
    // Under "substitute" a faulted decision is the referee's fallback, not the bot's.
    const substituted = f[F.kind] !== "end" && D.faults.some((x) => x.frame === i && x.seat === f[F.seat]);
    $("action").innerHTML = actionText(i) + (substituted ? ` <span class="ms">(decided by the referee after the fault)</span>` : "") +
      (ms !== null ? ` <span class="ms">${ms.toFixed(1)} ms</span>` : "");
  }

  function renderHandInfo(i) {
    const f = fr(i), h = handOf(i), done = f[F.hand_over] || (f[F.kind] === "end" && h.score);
    let rows = "";
    for (let side = 0; side < 2; side++) {
      const seats = D.sides[side];
      const bids = seats.map((s) => f[F.bids][s]);
      const contract = bids.every((b) => b === null) ? "–" : bids.reduce((t, b) => t + (b || 0), 0);
      const won = seats.reduce((t, s) => t + f[F.won][s], 0);
      const pts = done ? `${h.points[side] >= 0 ? "+" : ""}${h.points[side]}` : "";
      const score = done ? h.score[side] : h.before[side];
      const bags = done ? h.bags[side] : h.bags_before[side];
      rows += `<tr class="side${side}"><td title="${esc(sideName(side))}"><b>${esc(sideName(side))}</b></td><td class="num">${contract}</td>` +
        `<td class="num">${won}</td><td class="num">${pts}</td><td class="num" data-score="${score}">${score}</td>` +
        `<td class="num">${bags}</td></tr>`;
    }
    const by = TWO ? `first: ${seatName(h.first ?? 0)}` : `dealer: ${seatName(h.dealer ?? 0)}`;
    $("hand-info").innerHTML = `<p class="muted">Hand ${f[F.hand]} of ${D.hands.length} · ${by}` +
      (h.score ? "" : " · cut short") + `</p><table class="data hand-table"><thead><tr><th>${TWO ? "Player" : "Side"}</th>` +
      `<th>Bid</th><th>Won</th><th>Pts</th><th>Score</th><th>Bags</th></tr></thead><tbody>${rows}</tbody></table>` +
      `<p class="muted">${done ? "after this hand" : "score before this hand"} · playing to ${D.rules.target}</p>`;
  }

  function renderExchanges(i) {
    const f = fr(i), start = handOf(i).frame;
    const items = [];
    for (let k = start; k <= i; k++) {
      const g = fr(k), s = g[F.seat], a = g[F.action], x = g[F.extra], cls = k === i ? ' class="now"' : "";
      if (g[F.kind] === "keep") {
        const turn = items.filter((t) => t.keep).length + 1;
        const body = visible(s)
          ? (a ? `kept ${inline(x[0])}, discarded ${inline(x[1])}` : `discarded ${inline(x[0])}, took ${inline(x[1])}`)
          : "drew (hidden in this view)";
        items.push({ keep: true, html: `<li${cls}><span class="muted">${turn}.</span> ${seatName(s)}: ${body}</li>` });
      } else if (g[F.kind] === "discard") {
        items.push({ html: `<li${cls}><b>Blind Nil replacement</b>: ${who(s)} ` +
          (visible(s) ? `gave ${inlineList(a)}, got ${inlineList(x)}` : `exchanged ${a.length} card(s)`) + `</li>` });
      } else if (g[F.kind] === "pass") {
        items.push({ html: `<li${cls}><b>Blind Nil pass</b>: ${who(s)} &rarr; ${who(x)}: ` +
          (visible(s) || visible(x) ? inlineList(a) : `${a.length} cards`) + `</li>` });
      }
    }
    $("exchange-title").textContent = TWO ? "The draw and Blind Nil replacement" : "Blind Nil passes";
    $("exchanges").innerHTML = items.length ? `<ol class="xlist">${items.map((t) => t.html).join("")}</ol>`
      : `<p class="muted">${TWO ? "No draw yet in this hand." : "No Blind Nil pass in this hand."}</p>`;
    const now = $("exchanges").querySelector(".now");
    if (now) now.scrollIntoView({ block: "nearest" });
  }

  function renderFaultBanner(i) {
    const here = D.faults.filter((x) => x.frame === i);
    const banner = $("fault-banner");
    banner.hidden = here.length === 0;
    banner.innerHTML = here.map((x) => `<div><strong>&#x26A0; Fault</strong> ${who(x.seat)} ${esc(x.summary)}: ` +
      `<span class="detail">${esc(x.detail)}</span>` +
      (x.told ? `<div class="told">The referee told the bot: <code>${esc(x.told)}</code></div>` : "") + `</div>`).join("");
  }

  // ------------------------------------------------------------------ charts
  function lineChart(el, key, opts) {
    const done = D.hands.filter((h) => h[key]);
    const W = 640, H = opts.height, L = 52, R = 14, T = 12, B = 26;
    const series = [0, 1].map((side) => [opts.start].concat(done.map((h) => h[key][side])));
    // A reference line (the target, the bag limit) far beyond the data would flatten it: left out then.
    const data = series[0].concat(series[1]).concat([0]);
    const dMin = Math.min(...data), dMax = Math.max(...data);
    const lines = opts.lines.filter((l) => l.y <= dMax + 0.5 * (dMax - dMin + 1) && l.y >= dMin - 0.5 * (dMax - dMin + 1));
    const all = data.concat(lines.map((l) => l.y));
    let lo = Math.min(...all), hi = Math.max(...all);
    if (hi === lo) hi = lo + 1;
    const pad = (hi - lo) * 0.06;
    lo -= pad; hi += pad;
    const n = Math.max(done.length, 1);
    const X = (k) => L + (W - L - R) * k / n, Y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
    let svg = `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${opts.label}" data-last="${series.map((s) => s[s.length - 1]).join(",")}">`;
    const step = niceStep((hi - lo) / 5);
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      svg += `<line class="grid" x1="${L}" x2="${W - R}" y1="${Y(v)}" y2="${Y(v)}"/><text class="tick" x="${L - 6}" y="${Y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`;
    }
    const every = Math.max(1, Math.ceil(n / 12));
    for (let k = 0; k <= n; k += every) svg += `<text class="tick" x="${X(k)}" y="${H - 8}" text-anchor="middle">${k}</text>`;
    for (const l of lines) svg += `<line class="target" x1="${L}" x2="${W - R}" y1="${Y(l.y)}" y2="${Y(l.y)}"><title>${l.title}</title></line>`;
    svg += `<line class="axis" x1="${L}" x2="${W - R}" y1="${Y(0)}" y2="${Y(0)}"/>`;
    svg += `<line class="now" id="${el.id}-now" x1="0" x2="0" y1="${T}" y2="${H - B}"/>`;
    series.forEach((pts, side) => {
      svg += `<polyline class="l${side}" points="${pts.map((v, k) => X(k) + "," + Y(v)).join(" ")}"/>`;
      pts.forEach((v, k) => {
        if (k === 0 || (n > 40 && k !== pts.length - 1)) return; // many hands: the line alone, and its last point
        const title = `<title>hand ${k}: ${esc(sideName(side))} ${v}</title>`;
        svg += side === 0 ? `<circle class="p0 pt" cx="${X(k)}" cy="${Y(v)}" r="3.4" data-hand="${k}" data-value="${v}">${title}</circle>`
          : `<rect class="p1 pt" x="${X(k) - 3.2}" y="${Y(v) - 3.2}" width="6.4" height="6.4" data-hand="${k}" data-value="${v}">${title}</rect>`;
      });
    });
    for (let k = 1; k <= done.length; k++) svg += `<rect class="hit" x="${X(k - 0.5)}" y="${T}" width="${X(1) - X(0)}" height="${H - T - B}" data-hand="${k}"><title>hand ${k}</title></rect>`;
    if (!done.length) svg += `<text class="tick" x="${W / 2}" y="${H / 2}" text-anchor="middle">No hand was finished.</text>`;
    svg += `</svg><div class="legend">` + [0, 1].map((side) =>
      `<span><span class="sw ${side ? "d" : ""}" style="border-color:var(--side${side})"></span>${side ? "&#x25A0;" : "&#x25CF;"} ${esc(sideName(side))}</span>`).join("") + `</div>`;
    el.innerHTML = svg;
    el.dataset.n = n;
    el.querySelectorAll("[data-hand]").forEach((node) => node.addEventListener("click", () => {
      const h = Number(node.dataset.hand);
      go(endOfHand(h));
    }));
    el._x = X;
  }
  function niceStep(raw) {
    const p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
    for (const m of [1, 2, 2.5, 5, 10]) if (raw <= m * p) return m * p;
    return 10 * p;
  }
  function moveMarker(el, i) {
    const f = fr(i), line = document.getElementById(el.id + "-now");
    if (!line || !el._x) return;
    const k = f[F.hand_over] || (f[F.kind] === "end" && handOf(i).score) ? f[F.hand] : f[F.hand] - 1;
    line.setAttribute("x1", el._x(k));
    line.setAttribute("x2", el._x(k));
  }

  // ------------------------------------------------------------------ decision times
  function renderTimes() {
    const per = D.names.map(() => []);
    frames.forEach((f) => { if (f[F.seat] !== null && f[F.ms] !== null) per[f[F.seat]].push(f[F.ms]); });
    let rows = "";
    per.forEach((ms, s) => {
      const sorted = ms.slice().sort((a, b) => a - b);
      const med = sorted.length ? sorted[Math.floor(sorted.length / 2)] : null;
      const st = D.stats[s] || {};
      const fmt = (v) => (v === null || v === undefined ? "–" : Number(v).toFixed(1));
      const max = sorted.length ? sorted[sorted.length - 1] : 0;
      const W = 240, H = 28;
      const pts = ms.map((v, k) => `${(W * k / Math.max(ms.length - 1, 1)).toFixed(1)},${(H - 2 - (H - 4) * (max ? v / max : 0)).toFixed(1)}`).join(" ");
      rows += `<tr data-seat="${s}"><td>${who(s)}</td><td class="num">${st.decisions ?? ms.length}</td>` +
        `<td class="num">${fmt(med)}</td><td class="num">${fmt(st.mean_ms)}</td><td class="num">${fmt(st.max_ms)}</td>` +
        `<td class="spark"><svg viewBox="0 0 ${W} ${H}" width="100%" height="${H}" aria-label="decision times of seat ${s}">` +
        `<polyline points="${pts}" fill="none" stroke="var(--side${sideOf(s)})" stroke-width="1.2"/></svg></td></tr>`;
    });
    $("times").innerHTML = `<table class="data times"><thead><tr><th>Seat</th><th>Decisions</th><th>Median ms</th>` +
      `<th>Mean ms</th><th>Max ms</th><th>Each decision (transcript)</th></tr></thead><tbody>${rows}</tbody></table>` +
      `<p class="muted">Mean and max from the referee's clock; median and the line from the transcript's times.</p>`;
  }

  function renderFaults() {
    if (!D.faults.length) { $("faults").innerHTML = `<p class="muted">No faults: every answer was on time and legal.</p>`; return; }
    $("faults").innerHTML = `<ol class="fault-list">` + D.faults.map((x, k) => {
      const f = fr(x.frame);
      const where = f[F.kind] === "play" ? `hand ${f[F.hand]}, trick ${f[F.trick]}` : `hand ${x.hand}`;
      return `<li><button data-fault="${k}">show</button> <b>${where}</b>: ${who(x.seat)} ${esc(x.summary)} ` +
        `<span class="muted">(${esc(x.kind)})</span><div class="detail">${esc(x.detail)}</div>` +
        (x.told ? `<div class="muted">told the bot: <code>${esc(x.told)}</code></div>` : "") + `</li>`;
    }).join("") + `</ol>`;
    $("faults").querySelectorAll("[data-fault]").forEach((b) => b.addEventListener("click", () => go(D.faults[Number(b.dataset.fault)].frame)));
  }

  // ------------------------------------------------------------------ navigation
  function endOfHand(h) {
    const next = D.hands[h] ? D.hands[h].frame : frames.length;
    return Math.max(0, next - 1);
  }
  function nextTrick(i) {
    for (let k = i + 1; k < frames.length; k++) if (fr(k)[F.winner] !== null || fr(k)[F.kind] === "deal" || fr(k)[F.kind] === "end") return k;
    return frames.length - 1;
  }
  function prevTrick(i) {
    for (let k = i - 1; k > 0; k--) if (fr(k)[F.winner] !== null || fr(k)[F.kind] === "deal") return k;
    return 0;
  }
  function nextHand(i) { const h = fr(i)[F.hand]; return D.hands[h] ? D.hands[h].frame : frames.length - 1; }
  function prevHand(i) {
    const h = fr(i)[F.hand], start = D.hands[h - 1].frame;
    return i > start ? start : (h > 1 ? D.hands[h - 2].frame : 0);
  }
  function fragment(i) {
    const f = fr(i), start = handOf(i).frame;
    const parts = [`hand=${f[F.hand]}`];
    if (f[F.kind] === "play") {
      parts.push(`trick=${f[F.trick]}`);
      if (f[F.winner] === null) parts.push(`card=${f[F.table].length}`);
    } else if (i !== start) parts.push(`step=${i - start}`);
    if (state.view !== "all") parts.push(`view=${state.view}`);
    return "#" + parts.join("&");
  }
  function fromFragment(hash) {
    const p = new URLSearchParams(hash.replace(/^#/, ""));
    if (p.has("view") && /^\d+$/.test(p.get("view")) && Number(p.get("view")) < N) state.view = p.get("view");
    if (!p.has("hand")) return null;
    const h = Math.min(Math.max(parseInt(p.get("hand"), 10) || 1, 1), D.hands.length);
    const start = D.hands[h - 1].frame, end = endOfHand(h);
    if (p.has("trick")) {
      const t = parseInt(p.get("trick"), 10), card = p.has("card") ? parseInt(p.get("card"), 10) : null;
      let best = start;
      for (let k = start; k <= end; k++) {
        const f = fr(k);
        if (f[F.kind] !== "play" || f[F.trick] > t) continue;
        best = k;
        if (f[F.trick] === t && (card === null ? f[F.winner] !== null : f[F.table].length === card)) return k;
      }
      return best;
    }
    if (p.has("step")) return Math.min(start + (parseInt(p.get("step"), 10) || 0), end);
    return start;
  }

  function go(i) {
    state.i = Math.min(Math.max(i | 0, 0), frames.length - 1);
    render();
  }
  function render() {
    const i = state.i, f = fr(i);
    renderTable(i);
    renderAction(i);
    renderHandInfo(i);
    renderExchanges(i);
    renderFaultBanner(i);
    moveMarker($("score-chart"), i);
    moveMarker($("bags-chart"), i);
    $("slider").value = i;
    $("hand-select").value = String(f[F.hand]);
    const where = f[F.kind] === "play" ? `trick ${f[F.trick]}, card ${f[F.table].length}` : f[F.kind].replace("_", " ");
    $("position").textContent = `Hand ${f[F.hand]} · ${where} · step ${i + 1}/${frames.length}`;
    const frag = fragment(i);
    $("permalink").href = frag;
    if (location.hash !== frag) history.replaceState(null, "", frag);
    document.body.dataset.frame = i;
  }

  function setup() {
    document.title = `Replay: ${D.match}`;
    $("match-title").textContent = `${D.match} · ${TWO ? "two-player" : "partnership"} · seed ${D.seed}`;
    $("result").textContent = `${D.result[0].toUpperCase()}${D.result.slice(1)} · ${D.hands.length} hand(s) · ` +
      D.sides.map((seats, side) => `${sideName(side)} ${D.score[side]}`).join(" – ");
    if (D.back) { $("back").hidden = false; $("back").href = D.back; }
    $("view").innerHTML = `<option value="all">All hands open</option>` +
      D.names.map((n, s) => `<option value="${s}">Seat ${s} view: ${esc(n)}</option>`).join("");
    $("hand-select").innerHTML = D.hands.map((h) => `<option value="${h.n}">${h.n}</option>`).join("");
    $("slider").max = frames.length - 1;
    const target = D.rules.target;
    lineChart($("score-chart"), "score", { height: 240, start: 0, label: "score after each hand", lines: [{ y: target, title: `target ${target}` }] });
    lineChart($("bags-chart"), "bags", { height: 150, start: 0, label: "bags after each hand", lines: [{ y: D.rules.bag_limit, title: `bag limit ${D.rules.bag_limit}` }] });
    renderTimes();
    renderFaults();
    $("prev").onclick = () => go(state.i - 1);
    $("next").onclick = () => go(state.i + 1);
    $("prev-trick").onclick = () => go(prevTrick(state.i));
    $("next-trick").onclick = () => go(nextTrick(state.i));
    $("first-hand").onclick = () => go(prevHand(state.i));
    $("next-hand").onclick = () => go(nextHand(state.i));
    $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
    $("hand-select").addEventListener("change", (e) => go(D.hands[Number(e.target.value) - 1].frame));
    $("view").addEventListener("change", (e) => { state.view = e.target.value; render(); });
    document.addEventListener("keydown", (e) => {
      if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") && e.target.id !== "slider") return;
      if (e.target && e.target.id === "slider" && ["ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "ArrowUp", "ArrowDown"].includes(e.key)) e.preventDefault();
      const i = state.i;
      const moves = {
        ArrowRight: () => (e.shiftKey ? nextTrick(i) : i + 1), ArrowLeft: () => (e.shiftKey ? prevTrick(i) : i - 1),
        ArrowDown: () => nextTrick(i), ArrowUp: () => prevTrick(i), PageDown: () => nextHand(i), PageUp: () => prevHand(i),
        "]": () => nextHand(i), "[": () => prevHand(i), Home: () => 0, End: () => frames.length - 1,
      };
      if (moves[e.key]) { e.preventDefault(); go(moves[e.key]()); return; }
      if (e.key === "v") {
        const order = ["all"].concat(D.names.map((_, s) => String(s)));
        state.view = order[(order.indexOf(state.view) + 1) % order.length];
        $("view").value = state.view;
        render();
      }
    });
    window.addEventListener("hashchange", () => { const k = fromFragment(location.hash); if (k !== null && k !== state.i) go(k); });
    const start = fromFragment(location.hash);
    $("view").value = state.view;
    go(start === null ? 0 : start);
    // performance.now() when the first frame was on screen (bench/pages.py reads it).
    window.replay = { go, frame: () => state.i, frames: frames.length, renderedAt: performance.now() };
  }
  setup();
})();
