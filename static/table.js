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
