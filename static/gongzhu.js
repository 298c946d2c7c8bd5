/* Gongzhu entry: tap a player, then the cards that player took; "the rest to" gives every card
   nobody has to the chosen player. It sets the owner radios the form posts without this script,
   shows each card's owner and keeps the round from being saved until every card has one. */
(function () {
  "use strict";

  function ownerOf(root, field) {
    const checked = root.querySelector(`input[name="${field}"]:checked`);
    return checked ? checked.value : null;
  }

  function give(root, field, seat) {
    root.querySelectorAll(`input[name="${field}"]`).forEach((radio) => {
      radio.checked = radio.value === seat;
    });
  }

  function refresh(root) {
    const active = root.dataset.seat;
    const seats = root.querySelectorAll(".gz-seat");
    const left = [];
    root.querySelectorAll(".gz-face").forEach((face) => {
      const owner = ownerOf(root, face.dataset.field);
      const card = face.closest(".gz-card");
      card.classList.toggle("gz-taken", owner !== null);
      card.classList.toggle("gz-mine", owner === active);
      face.querySelector(".gz-owner").textContent = owner === null ? "" : seats[owner].textContent;
      if (owner === null) left.push(face.querySelector(".gz-suit").textContent);
    });
    root.querySelector(".gz-left-cards").textContent = left.join(" ");
    root.querySelector(".gz-left-some").hidden = left.length === 0;
    root.querySelector(".gz-left-none").hidden = left.length > 0;
    seats.forEach((seat) => seat.setAttribute("aria-pressed", String(seat.dataset.seat === active)));
    root.querySelectorAll(".gz-rest .button").forEach((rest) => {
      rest.hidden = rest.value !== active;
      rest.disabled = left.length === 0;
    });
    const why = root.querySelector(".gz-save-why").textContent;
    root.closest("form").querySelectorAll("[type=submit]:not([name=rest])").forEach((save) => {
      save.dataset.label = save.dataset.label || save.textContent;
      save.disabled = left.length > 0;
      save.textContent = save.disabled ? why : save.dataset.label;  // a disabled Save says why
    });
  }

  function changed(root) {
    refresh(root);
    // Radios set from a script fire no event: tell the live preview the hand changed.
    root.querySelector(".gz-cards input").dispatchEvent(new Event("change", { bubbles: true }));
  }

  function tap(event) {
    const root = event.target.closest(".gz-js");
    if (!root) return;
    const seat = event.target.closest(".gz-seat");
    const face = event.target.closest(".gz-face");
    const rest = event.target.closest(".gz-rest .button");
    if (seat) {
      root.dataset.seat = seat.dataset.seat;
      refresh(root);
    } else if (face) {
      const field = face.dataset.field;
      give(root, field, ownerOf(root, field) === root.dataset.seat ? null : root.dataset.seat);
      changed(root);
    } else if (rest) {
      event.preventDefault();
      root.querySelectorAll(".gz-face").forEach((card) => {
        if (ownerOf(root, card.dataset.field) === null) give(root, card.dataset.field, rest.value);
      });
      changed(root);
    }
  }

  function setup() {
    document.querySelectorAll(".gz:not(.gz-js)").forEach((root) => {
      root.classList.add("gz-js");
      root.dataset.seat = "0";
      root.querySelectorAll(".gz-face").forEach((face) => { face.disabled = false; });
      refresh(root);
    });
  }

  if (!window.gongzhuReady) {
    window.gongzhuReady = true;
    document.addEventListener("click", tap);
    document.addEventListener("htmx:load", setup);
    // A hand kept on this phone, put back in the radios (static/app.js): redrawn.
    document.addEventListener("scorekeeper:restored", () => {
      document.querySelectorAll(".gz-js").forEach(refresh);
    });
  }
  setup();
})();
