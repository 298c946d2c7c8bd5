/* The regulars' table (templates/games/table.html): a page the service worker answered from the
   copy it kept (<html data-kept-at>, static/offline/sw.js) says it is the table as of then. */
(function () {
  "use strict";
  const at = Number(document.documentElement.dataset.keptAt);
  const note = document.querySelector("[data-table-kept]");
  if (!at || !note) return;
  const when = new Date(at).toLocaleString(document.documentElement.lang, { dateStyle: "short", timeStyle: "short" });
  note.textContent = note.dataset.asOf.replace("%(time)s", when);
  note.hidden = false;
})();

/* The table's page follows the table: when its stream says the table moved on from the state
   the page was drawn at (static/app.js tells the page: scorekeeper:moved, with the tag that
   #table-live carries), its live part is drawn anew from the server, its open sections left
   open; not while a payment is being typed (its own answer brings the page anew), nor on a TV
   showing the match in play (the board below follows the match). */
(function () {
  "use strict";
  const part = () => document.getElementById("table-live");
  const typing = (live) =>
    live.querySelector("details.table-pay[open]") ||
    (live.contains(document.activeElement) && document.activeElement.matches("input, select, textarea"));
  document.addEventListener("scorekeeper:moved", async (event) => {
    const live = part();
    if (!live || live.dataset.version === event.detail.version || typing(live)) return;
    if (document.querySelector(".table-board")) return;
    const open = [...live.querySelectorAll("details")].map((details) => details.open);
    try {
      await htmx.ajax("GET", location.pathname + location.search,
                      { target: "#table-live", select: "#table-live", swap: "outerHTML" });
    } catch (error) {
      console.warn("table:", error); // no network: the page stays as it is
      return;
    }
    part().querySelectorAll("details").forEach((details, k) => { if (open[k]) details.open = true; });
  });
})();

/* The table's watch link on a TV (a wide landscape screen, as static/app.css has it) shows the
   board of the match in play, the match's own live board (its watch link's live check, which
   static/app.js asks when the table's stream says the table moved); with none in play, the
   table's balances. Whenever the table moves (every half minute where the page has no stream)
   it asks which match is in play (data-table-board: a small answer, the watch link's id or
   nothing) and draws the page anew when that changed. */
(function () {
  "use strict";
  const board = document.querySelector("[data-table-board]");
  if (!board || !window.matchMedia("(min-width: 1000px) and (orientation: landscape)").matches) return;
  const playing = async () => {
    const response = await fetch(board.dataset.tableBoard, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    return (await response.text()).trim();
  };
  const show = async (watchId) => {
    const response = await fetch(`/live/${encodeURIComponent(watchId)}/`, { credentials: "same-origin" });
    if (!response.ok) return;
    const shown = Object.assign(document.createElement("div"), { className: "table-board" });
    const body = Object.assign(document.createElement("div"), { id: "match-body" });
    body.innerHTML = await response.text();
    shown.append(body);
    board.after(shown);
    htmx.process(shown);
  };
  let shownId = null;
  const follow = async () => {
    try {
      const now = await playing();
      if (shownId === null) {
        shownId = now;
        if (now) await show(now);
      } else if (now !== shownId) {
        location.reload();
      }
    } catch (error) {
      console.warn("table:", error); // no network: the board stays as it is
    }
  };
  let seen = document.getElementById("table-live")?.dataset.version;
  document.addEventListener("scorekeeper:moved", (event) => {
    if (event.detail.version === seen) return;
    seen = event.detail.version;
    follow();
  });
  follow();
  setInterval(() => {
    if (!document.documentElement.hasAttribute("data-streaming")) follow();
  }, 30000);
})();

/* The table's board on a TV with no match in play: each unit's column, and the leaderboard beside
   them, in type as large as fits (static/app.css sets it by the number of people; a column still
   taller than the screen, or with a name cut short, takes smaller type, step by step, never a
   scroll). */
(function () {
  "use strict";
  const tv = window.matchMedia("(min-width: 1000px) and (orientation: landscape)");
  const cut = (column) => [...column.querySelectorAll(".name")].some((name) => name.scrollWidth > name.clientWidth + 1);
  const fit = () => {
    document.querySelectorAll(".watching .table-balance, .watching .table-ratings .leaderboard").forEach((column) => {
      column.style.removeProperty("--row");
      if (!tv.matches) return;
      const total = column.querySelector(".total"); // its type is the row's size (--row)
      if (!total) return;
      let row = parseFloat(getComputedStyle(total).fontSize);
      for (let step = 0; step < 30 && (column.scrollHeight > column.clientHeight + 1 || cut(column)); step++) {
        row *= 0.93;
        column.style.setProperty("--row", `${row}px`);
      }
    });
  };
  window.addEventListener("load", fit);
  window.addEventListener("resize", fit);
  document.addEventListener("htmx:afterSettle", fit); // the balances drawn anew
})();
