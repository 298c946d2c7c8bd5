/* Score sheet entry. Each field's sign toggle flips the sign of the typed number (the iOS number
   pad has no minus key) and puts the cursor back in the field. On a zero-sum sheet, a line says
   what is still to place and a button fills the last empty field with what balances the round.
   "The rest scored 0" fills every empty field with 0.
   Without this script the buttons stay hidden and "-5" is typed as it is. */
(function () {
  "use strict";

  function typed(field) {
    const value = Number.parseInt(field.value, 10);
    return Number.isNaN(value) ? 0 : value;
  }

  function isEmpty(field) {
    return field.value.trim() === "" || field.value.trim() === "-";
  }

  function changed(field) {
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function flip(field) {
    const text = field.value.trim();
    field.value = text.startsWith("-") ? text.slice(1) : `-${text}`;
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
    changed(field);
  }

  function fields(sheet) {
    return Array.from(sheet.querySelectorAll("input[data-points]"));
  }

  function refresh(sheet) {
    sheet.querySelector("[data-rest-zero]").disabled = !fields(sheet).some(isEmpty);
    if (!sheet.hasAttribute("data-zero-sum")) return;
    const left = -fields(sheet).reduce((sum, field) => sum + typed(field), 0);
    const note = sheet.querySelector("[data-left]");
    if (left === 0) {
      note.textContent = sheet.dataset.evenText;
    } else {
      const [before, after] = sheet.dataset.leftText.split("%(count)s");
      const count = document.createElement("bdi");
      count.dir = "ltr";
      count.textContent = left > 0 ? `+${left}` : String(left);
      note.replaceChildren(before, count, after);
    }
    sheet.querySelector("[data-balance]").disabled = !fields(sheet).some(isEmpty);
  }

  function balance(sheet) {
    const empty = fields(sheet).filter(isEmpty);
    const last = empty[empty.length - 1];
    if (!last) return;
    last.value = String(-fields(sheet).reduce((sum, field) => sum + typed(field), 0));
    changed(last);
  }

  function restZero(sheet) {
    fields(sheet).filter(isEmpty).forEach((field) => {
      field.value = "0";
      changed(field);
    });
  }

  function start() {
    document.querySelectorAll(".sheet").forEach((sheet) => {
      sheet.querySelectorAll("[data-sign], [data-balance-row], [data-rest-zero]").forEach((shown) => {
        shown.hidden = false;
      });
      refresh(sheet);
    });
  }

  if (!window.sheetReady) {
    window.sheetReady = true;
    document.addEventListener("click", (event) => {
      const sign = event.target.closest(".sheet [data-sign]");
      if (sign) flip(sign.parentElement.querySelector("input"));
      const button = event.target.closest(".sheet [data-balance]");
      if (button) balance(button.closest(".sheet"));
      const zero = event.target.closest(".sheet [data-rest-zero]");
      if (zero) restZero(zero.closest(".sheet"));
    });
    document.addEventListener("input", (event) => {
      const sheet = event.target.closest(".sheet");
      if (sheet) refresh(sheet);
    });
    document.addEventListener("htmx:load", start);
  }
  start();
})();
