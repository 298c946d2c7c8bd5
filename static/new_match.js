/* New match form: a default that another option moves (Least Score's threshold, the Yaniv way)
   shows the value it will take, as the field's placeholder or its blank choice, and a line under
   the choice says them all ("By default then: threshold = 200, ..."); the typed pairs
   show only with "custom" chosen. Without this script the help under each field says both
   defaults and the pairs field is always there (read only with "custom"). */
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
  }

  document.addEventListener("change", refresh);
  refresh();
})();
