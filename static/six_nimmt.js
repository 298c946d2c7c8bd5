/* 6 nimmt! entry: pick a player, tap the cards they took. Counts each player's bullheads and
   disables cards another player took. The form works without this script. */
(function () {
  "use strict";

  function refresh() {
    const held = new Map(); // card number -> how many players ticked it
    document.querySelectorAll(".sn-pad input:checked").forEach((box) => {
      held.set(box.value, (held.get(box.value) || 0) + 1);
    });
    document.querySelectorAll(".sn-pad").forEach((pad) => {
      let bullheads = 0;
      pad.querySelectorAll("input").forEach((box) => {
        const elsewhere = (held.get(box.value) || 0) > (box.checked ? 1 : 0);
        box.classList.toggle("sn-elsewhere", elsewhere);
        box.disabled = elsewhere && !box.checked;
        if (box.checked) bullheads += Number(box.dataset.bullheads);
      });
      document.querySelectorAll(`[data-count="${pad.dataset.seat}"]`).forEach((count) => {
        count.textContent = bullheads;
      });
    });
  }

  function pick(seat) {
    document.querySelectorAll(".sn-who").forEach((button) => {
      button.setAttribute("aria-pressed", String(button.dataset.seat === seat));
    });
    document.querySelectorAll(".sn-pad").forEach((pad) => {
      pad.classList.toggle("sn-on", pad.dataset.seat === seat);
    });
  }

  function setup() {
    const cards = document.querySelector(".sn-cards:not(.sn-js)");
    if (!cards) return;
    cards.classList.add("sn-js");
    cards.querySelectorAll(".sn-pad").forEach((pad) => { pad.open = true; });
    pick("0");
    refresh();
  }

  if (!window.sixNimmtReady) {
    window.sixNimmtReady = true;
    document.addEventListener("change", (event) => {
      if (event.target.closest(".sn-pad")) refresh();
    });
    document.addEventListener("click", (event) => {
      const button = event.target.closest(".sn-who");
      if (button) pick(button.dataset.seat);
    });
    document.addEventListener("htmx:load", setup);
  }
  setup();
})();
