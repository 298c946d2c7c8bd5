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

/* The table's watch link on a TV (a wide landscape screen, as static/app.css has it) shows the
   board of the match in play: when another match is in play, or none is any more, the page is
   drawn anew within half a minute. */
(function () {
  "use strict";
  const board = document.querySelector("[data-table-board]");
  if (!board || !window.matchMedia("(min-width: 1000px) and (orientation: landscape)").matches) return;
  if (board.dataset.tableBoard) { // the board is drawn here only: a phone polls no live check
    const shown = Object.assign(document.createElement("div"), { className: "table-board" });
    shown.append(board.content.cloneNode(true));
    board.after(shown);
    htmx.process(shown);
  }
  const inPlay = (page) => (page.querySelector("[data-table-board]") || {}).dataset;
  setInterval(async () => {
    try {
      const response = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
      if (!response.ok) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const shown = inPlay(page);
      if (shown && shown.tableBoard !== board.dataset.tableBoard) location.reload();
    } catch (error) {
      console.warn("table:", error); // no network: the board stays as it is
    }
  }, 30000);
})();
