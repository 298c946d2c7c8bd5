// The share page's Copy buttons (templates/games/share.html): the link copied, and said so; where
// the browser gives no clipboard (a plain HTTP address), the link selected for the phone's Copy.
(function () {
  document.querySelectorAll("[data-copy] button").forEach(function (button) {
    button.hidden = false;
  });

  // A link drawn as its path (a page drawn once for every host: the table's) shows its whole
  // address, breaking only after a / as the server's link_text draws it.
  document.querySelectorAll("[data-copied-link]").forEach(function (link) {
    if (link.textContent.indexOf("://") !== -1) return;
    var origin = new URL(link.href).origin;
    var parts = link.href.slice(origin.length).split("/");
    link.replaceChildren(origin);
    parts.forEach(function (part, k) {
      if (k > 0) link.append("/", document.createElement("wbr"));
      link.append(part);
    });
  });

  // Said beside the link just copied only (an older "Copied." would be about the other link).
  function said(holder, key) {
    document.querySelectorAll("[data-copy] [role=status]").forEach(function (status) {
      status.textContent = "";
    });
    var status = holder.querySelector("[role=status]");
    status.textContent = status.dataset[key];
  }

  function selected(holder, link) {
    window.getSelection().selectAllChildren(link);
    said(holder, "selected");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy] button");
    if (!button) return;
    var holder = button.closest("[data-copy]");
    var link = holder.parentElement.querySelector("[data-copied-link]");
    if (!navigator.clipboard || !window.isSecureContext) {
      selected(holder, link);
      return;
    }
    navigator.clipboard.writeText(link.textContent).then(
      function () { said(holder, "copied"); },
      function () { selected(holder, link); }
    );
  });
})();
