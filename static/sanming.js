// Sanming entry: the - / + buttons beside the cards-left and bombed inputs.
// Without this script they stay hidden and the inputs are typed. htmx re-runs it on every swap.
(function () {
  if (window.sanmingSteppers) return;
  window.sanmingSteppers = true;
  document.documentElement.classList.add("sanming-steppers");

  document.addEventListener("click", function (event) {
    var button = event.target.closest(".stepper .step");
    if (!button) return;
    var input = button.parentElement.querySelector("input");
    var low = Number(input.dataset.min), high = Number(input.dataset.max);
    // Persian, Arabic-Indic and full-width digits as typed: each block's code points end in the
    // digit (the server reads them with games.rules.base.ascii_numbers).
    var typed = input.value.replace(/[\u0660-\u0669\u06F0-\u06F9\uFF10-\uFF19]/g, function (digit) {
      return digit.charCodeAt(0) & 15;
    });
    var next = (parseInt(typed, 10) || 0) + Number(button.dataset.step);
    input.value = Math.min(high, Math.max(low, next));
    // Tell the form (and the live preview) the value changed.
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
