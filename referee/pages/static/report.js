// The report page: sortable tables. Everything else is drawn at write time.
"use strict";
(function () {
  // A cell's sort key: the first number in it ("12-3-1" by its first figure,
  // "45.0% (9/20)" by 45.0, "+12" by 12); text otherwise; "-" sorts last.
  function key(text) {
    const t = text.trim();
    if (t === "-" || t === "" || t === "–") return { blank: true };
    const m = t.match(/^[+-]?\d+(\.\d+)?/);
    return m ? { num: parseFloat(m[0]) } : { text: t.toLowerCase() };
  }
  function compare(a, b) {
    if (a.blank || b.blank) return (a.blank ? 1 : 0) - (b.blank ? 1 : 0);
    if (a.num !== undefined && b.num !== undefined) return a.num - b.num;
    return String(a.text ?? a.num).localeCompare(String(b.text ?? b.num));
  }
  function sortBy(table, th) {
    const col = Number(th.dataset.col);
    const dir = th.getAttribute("aria-sort") === "descending" ? "ascending" : "descending";
    table.querySelectorAll("th[data-col]").forEach((h) => h.setAttribute("aria-sort", "none"));
    th.setAttribute("aria-sort", dir);
    const body = table.tBodies[0];
    const rows = Array.from(body.rows).map((r, i) => ({ r, i, k: key(r.cells[col].textContent) }));
    rows.sort((x, y) => {
      const c = compare(x.k, y.k);
      if (x.k.blank || y.k.blank) return c || x.i - y.i; // blanks last either way
      return (dir === "ascending" ? c : -c) || x.i - y.i;
    });
    rows.forEach((x) => body.appendChild(x.r));
  }
  document.querySelectorAll("table.sortable").forEach((table) => {
    table.querySelectorAll("th[data-col]").forEach((th) => {
      th.addEventListener("click", () => sortBy(table, th));
      th.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(table, th); } });
    });
  });
})();
