/* Least Score entry: the card picker. Marks and disables the cards another player picked, stops
   a hand at five cards and shows each picked hand with its total. The form works without this
   script: the checkboxes simply post. */
(function () {
  "use strict";
  const MOST = 5; // a hand holds 1 to 5 cards

  function refresh() {
    const held = new Map(); // card -> how many players picked it
    document.querySelectorAll(".ls-cards input:checked").forEach((box) => {
      held.set(box.value, (held.get(box.value) || 0) + 1);
    });
    document.querySelectorAll(".ls-picker").forEach((picker) => {
      const boxes = Array.from(picker.querySelectorAll(".ls-cards input"));
      const mine = boxes.filter((box) => box.checked);
      boxes.forEach((box) => {
        const elsewhere = (held.get(box.value) || 0) > (box.checked ? 1 : 0);
        box.classList.toggle("ls-elsewhere", elsewhere);
        box.disabled = !box.checked && (elsewhere || mine.length >= MOST);
      });
      const total = mine.reduce((sum, box) => sum + Number(box.dataset.value), 0);
      const labels = mine.map((box) => box.nextElementSibling.textContent);
      picker.querySelector(".ls-picked").textContent = mine.length ? `${labels.join(" ")} = ${total}` : "";
    });
  }

  if (!window.leastScoreReady) {
    window.leastScoreReady = true;
    document.addEventListener("change", (event) => {
      if (event.target.closest(".ls-cards")) refresh();
    });
    document.addEventListener("htmx:load", refresh);
  }
  refresh();
})();
