/* New match form: a default that another option moves (Least Score's threshold, the Yaniv way)
   shows the value it will take, as the field's placeholder or its blank choice, and a line under
   the choice says them all ("By default then: Out past this total: 200, ..."); the typed pairs
   show only with "custom" chosen; an option that the other choices leave unused (data-when: a
   floor when the match ends after a number of hands) is hidden, and not sent. Without this
   script the help under each field says both defaults, the pairs field is always there (read
   only with "custom") and so is every option (the server ignores an unused one left as it was,
   and says why when it was changed). */
(function () {
  "use strict";

  function valueOf(name) {
    return document.querySelector(`select[name="${name}"]`).value;
  }

  function refresh() {
    document.querySelectorAll("[data-default-of]").forEach((field) => {
      const shown = JSON.parse(field.dataset.defaults)[valueOf(field.dataset.defaultOf)] || "";
      if (field.tagName === "SELECT") field.options[0].text = shown;
      else field.placeholder = shown;
    });
    document.querySelectorAll("[data-moves]").forEach((choice) => {
      const line = document.getElementById(`${choice.id}_moves`);
      line.textContent = JSON.parse(choice.dataset.moves)[choice.value] || "";
    });
    document.querySelectorAll("[data-custom-of]").forEach((typed) => {
      typed.hidden = valueOf(typed.dataset.customOf) !== "custom";
    });
    document.querySelectorAll("form [data-when]").forEach(showWhenUsed);
  }

  // An option's field shows (and is sent) only while the option it depends on has a value
  // that uses it: a select's value as posted, a checkbox's as JSON (true / false).
  function showWhenUsed(field) {
    const when = JSON.parse(field.dataset.when);
    const other = field.closest("form").elements[when.name];
    const value = other.type === "checkbox" ? JSON.stringify(other.checked) : other.value;
    const used = when.values.includes(value);
    field.hidden = !used;
    field.querySelectorAll("input, select").forEach((input) => { input.disabled = !used; });
  }

  document.addEventListener("change", refresh);
  refresh();
})();

/* The players: only as many seats as the game's least table (or this phone's last table, or the
   seats typed) with "Add a player"; this phone's recent tables fill every seat in one tap, its
   recent names one seat each. They are kept on the phone (localStorage) when a match is started:
   nothing about who plays is sent anywhere else. Without this script every seat shows. */
(function () {
  "use strict";

  const TABLES = "recent:tables";
  const NAMES = "recent:names";

  function stored(key) {
    try {
      const value = JSON.parse(localStorage.getItem(key));
      return Array.isArray(value) ? value : [];
    } catch {
      return []; // no storage here (a private window), or something else under the key
    }
  }

  const seats = (form) => Array.from(form.querySelectorAll("input[name^=player_]"));
  const typed = (form) => seats(form).map((input) => input.value.trim()).filter(Boolean);

  function showSeats(form, count) {
    const all = seats(form);
    form.dataset.shown = String(Math.min(all.length, count));
    all.forEach((input, seat) => {
      input.closest(".field").hidden = seat >= Number(form.dataset.shown);
    });
    form.querySelector("[data-add-seat]").hidden = Number(form.dataset.shown) >= all.length;
    drawNames(form);
  }

  function button(text, className, onTap) {
    const tap = Object.assign(document.createElement("button"), { type: "button", className, textContent: text, dir: "auto" });
    tap.addEventListener("click", onTap);
    return tap;
  }

  function useTable(form, names) {
    seats(form).forEach((input, seat) => { input.value = names[seat] || ""; });
    showSeats(form, Math.max(Number(form.dataset.minPlayers), names.length));
  }

  function useName(form, name) {
    let empty = seats(form).find((input, seat) => seat < Number(form.dataset.shown) && !input.value.trim());
    if (!empty) {
      showSeats(form, Number(form.dataset.shown) + 1);
      empty = seats(form)[Number(form.dataset.shown) - 1];
      if (empty.value.trim()) return; // every seat is taken
    }
    empty.value = name;
    drawNames(form);
  }

  // The recent names not at this table yet.
  function drawNames(form) {
    const here = new Set(typed(form));
    const names = stored(NAMES).filter((name) => !here.has(name));
    form.querySelector("[data-recent-names]").replaceChildren(
      ...names.slice(0, 8).map((name) => button(name, "button chip", () => useName(form, name))));
    form.querySelector("[data-recent-names]").hidden = names.length === 0;
  }

  // The recent tables this game can seat.
  function drawTables(form) {
    const most = seats(form).length;
    const tables = stored(TABLES).filter((names) => names.length >= Number(form.dataset.minPlayers) && names.length <= most);
    form.querySelector("[data-recent-tables]").replaceChildren(
      ...tables.slice(0, 3).map((names) => button(names.join(", "), "button", () => useTable(form, names))));
    form.querySelector("[data-recent-tables]").hidden = tables.length === 0;
    form.querySelector("[data-recent]").hidden = tables.length === 0 && stored(NAMES).length === 0;
  }

  function setUp(form) {
    if (!form || form.dataset.shown) return;
    const filled = seats(form).reduce((last, input, seat) => (input.value.trim() || input.closest(".field").querySelector(".error") ? seat + 1 : last), 0);
    const lastTable = (stored(TABLES)[0] || []).length;
    showSeats(form, Math.max(Number(form.dataset.minPlayers), filled, Math.min(lastTable, seats(form).length)));
    drawTables(form);
  }

  function remember(form) {
    const names = typed(form);
    const same = (table) => table.join("\n") === names.join("\n");
    try {
      localStorage.setItem(TABLES, JSON.stringify([names, ...stored(TABLES).filter((table) => !same(table))].slice(0, 5)));
      localStorage.setItem(NAMES, JSON.stringify([...names, ...stored(NAMES).filter((name) => !names.includes(name))].slice(0, 16)));
    } catch {
      // no storage here: nothing is remembered
    }
  }

  document.addEventListener("click", (event) => {
    const add = event.target.closest("#new-match [data-add-seat]");
    if (!add) return;
    const form = add.form;
    showSeats(form, Number(form.dataset.shown) + 1);
    seats(form)[Number(form.dataset.shown) - 1].focus();
  });
  document.addEventListener("input", (event) => {
    if (event.target.closest("#new-match")) drawNames(event.target.form);
  });
  document.addEventListener("submit", (event) => {
    if (event.target.id === "new-match") remember(event.target);
  });
  // The form drawn again by the phone with no network (static/offline/start.js) says "change".
  document.addEventListener("change", () => setUp(document.getElementById("new-match")));
  setUp(document.getElementById("new-match"));
})();
