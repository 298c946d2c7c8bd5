// The result card (templates/games/partials/result_card.html): on a tap, the card's data (the
// server's words, in the reader's language) drawn as a picture at a phone's width, light, and
// shared through the phone's share sheet where the browser shares files, else downloaded.
(function () {
  if (window.resultCardStarted) return;
  window.resultCardStarted = true;
  var WIDTH = 390; // CSS px, drawn at twice that: sharp on a phone's screen
  var SCALE = 2;
  var PAD = 24;
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "Noto Sans SC", sans-serif';
  var INK = "#1c1b19", MUTED = "#6b6860", ACCENT = "#0b6e4f", LEAD = "#fff3c4", LINE = "#dcd8cf";

  // The button works only with this script: shown by it, in every piece htmx swaps in too.
  function reveal() {
    document.querySelectorAll("[data-result-card] button[hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }
  reveal();
  document.addEventListener("htmx:load", reveal);

  function font(ctx, size, bold) {
    ctx.font = (bold ? "700 " : "400 ") + size + "px " + FONT;
  }

  // Lines of text no wider than width: broken at spaces, or anywhere in a word (or a sentence
  // written without spaces, as Chinese is) that is wider than the line.
  function wrapped(ctx, text, width) {
    var lines = [], line = "";
    text.split(/(\s+)/).forEach(function (piece) {
      if (ctx.measureText(line + piece).width <= width) {
        line += piece;
        return;
      }
      if (line.trim()) lines.push(line.trim());
      line = "";
      Array.from(piece.trim()).forEach(function (character) {
        if (line && ctx.measureText(line + character).width > width) {
          lines.push(line);
          line = "";
        }
        line += character;
      });
    });
    if (line.trim()) lines.push(line.trim());
    return lines;
  }

  // text cut to width, with an ellipsis when it was cut.
  function fitted(ctx, text, width) {
    if (ctx.measureText(text).width <= width) return text;
    var characters = Array.from(text);
    while (characters.length && ctx.measureText(characters.join("") + "…").width > width) {
      characters.pop();
    }
    return characters.join("") + "…";
  }

  // Draws the card on ctx (or only measures it when paint is false); returns its height.
  function draw(ctx, card, words, rtl, paint) {
    // x at a distance from the edge a line starts at (the right edge, right to left)
    function x(distance) {
      return rtl ? WIDTH - distance : distance;
    }
    function text(value, distance, y, align, colour) {
      if (!paint) return;
      ctx.textAlign = align || "start";
      ctx.fillStyle = colour || INK;
      ctx.fillText(value, x(distance), y);
    }
    function paragraph(value, size, bold, colour, y) {
      font(ctx, size, bold);
      wrapped(ctx, value, WIDTH - 2 * PAD).forEach(function (line) {
        y += size * 1.35;
        text(line, PAD, y, "start", colour);
      });
      return y;
    }
    ctx.direction = rtl ? "rtl" : "ltr";
    ctx.textBaseline = "alphabetic";
    if (paint) {
      ctx.fillStyle = "#ffffff";
      ctx.fillRect(0, 0, WIDTH, ctx.canvas.height / SCALE);
      ctx.fillStyle = ACCENT;
      ctx.fillRect(0, 0, WIDTH, 8);
    }
    var y = paragraph(card.title, 26, true, INK, 16);
    if (card.date) y = paragraph(card.date, 16, false, MUTED, y + 2);
    if (card.note) y = paragraph(card.note, 16, false, MUTED, y);
    y += 16;
    var placeWidth = 36;
    card.standings.forEach(function (line) {
      var height = line.winner ? 60 : 44;
      if (paint && line.winner) {
        ctx.fillStyle = LEAD;
        ctx.fillRect(PAD - 8, y, WIDTH - 2 * (PAD - 8), height);
      }
      font(ctx, 20, true);
      var total = line.total;
      var totalWidth = ctx.measureText(total).width;
      var middle = y + 30;
      text(line.winner ? "★" : line.place, PAD, middle, "start", line.winner ? ACCENT : MUTED);
      text(total, WIDTH - PAD, middle, "end", INK);
      font(ctx, 20, line.winner);
      var room = WIDTH - 2 * PAD - placeWidth - totalWidth - 12;
      text(fitted(ctx, line.name, room), PAD + placeWidth, middle, "start", INK);
      if (line.winner) {
        font(ctx, 14, true);
        text(words.winner, PAD + placeWidth, middle + 20, "start", ACCENT);
      }
      y += height;
      if (paint) {
        ctx.fillStyle = LINE;
        ctx.fillRect(PAD - 8, y - 1, WIDTH - 2 * (PAD - 8), 1);
      }
    });
    card.payments.forEach(function (section) {
      y = paragraph(section.heading, 19, true, INK, y + 18);
      // why the amounts are not the totals (the kid rule, the money a point), when they are not
      if (section.why) y = paragraph(section.why, 16, false, MUTED, y + 2);
      y += 4;
      section.lines.forEach(function (line) {
        y = paragraph(line, 18, false, INK, y + 4);
      });
    });
    y = paragraph(words.footer, 14, false, MUTED, y + 24);
    return Math.ceil(y + PAD);
  }

  // The card as a canvas at a phone's width, as tall as it needs.
  function canvasOf(card, words) {
    var canvas = document.createElement("canvas");
    var ctx = canvas.getContext("2d");
    var rtl = document.documentElement.dir === "rtl";
    var height = draw(ctx, card, words, rtl, false);
    canvas.width = WIDTH * SCALE;
    canvas.height = height * SCALE;
    ctx.scale(SCALE, SCALE); // (resizing the canvas reset its state)
    draw(ctx, card, words, rtl, true);
    return canvas;
  }

  // The PNG made at once (not by the asynchronous toBlob): a phone shares only in the tap itself.
  function png(canvas) {
    var bytes = atob(canvas.toDataURL("image/png").split(",")[1]);
    var buffer = new Uint8Array(bytes.length);
    for (var k = 0; k < bytes.length; k++) buffer[k] = bytes.charCodeAt(k);
    return new Blob([buffer], { type: "image/png" });
  }

  function download(blob, name) {
    var url = URL.createObjectURL(blob);
    var link = document.createElement("a");
    link.href = url;
    link.download = name;
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
  }

  function send(blob, name) {
    var files = [new File([blob], name, { type: "image/png" })];
    if (navigator.canShare && navigator.canShare({ files: files })) {
      navigator.share({ files: files }).catch(function (error) {
        if (error.name !== "AbortError") download(blob, name); // closed by the player: done
      });
    } else {
      download(blob, name);
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-result-card] button");
    if (!button) return;
    var holder = button.closest("[data-result-card]");
    var card = JSON.parse(holder.querySelector("script[type='application/json']").textContent);
    var words = { winner: holder.dataset.winner, footer: holder.dataset.footer };
    send(png(canvasOf(card, words)), card.file || "result.png");
  });
})();
