/* The scoreboard scrolls sideways when its players do not fit the phone: mark it (.scrolls) so
   the page says so, and note when it is scrolled to its end (.scrolled-end). Runs again after
   every htmx swap, on resize and while the table is scrolled. */
(function () {
  "use strict";
  if (window.scoreboardHint) return;
  window.scoreboardHint = true;

  function check() {
    document.querySelectorAll(".scoreboard").forEach((board) => {
      const wide = board.scrollWidth > board.clientWidth + 1;
      // scrollLeft is negative in a right-to-left page: how far from the start either way.
      const scrolled = Math.abs(board.scrollLeft);
      board.classList.toggle("scrolls", wide);
      board.classList.toggle("scrolled-end", wide && scrolled + board.clientWidth >= board.scrollWidth - 2);
    });
  }

  document.addEventListener("scroll", (event) => {
    if (event.target.classList && event.target.classList.contains("scoreboard")) check();
  }, true);
  document.addEventListener("htmx:afterSettle", check);
  window.addEventListener("resize", check);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", check);
  else check();
})();
