// The referee's replay viewer (pages/desk/replay.rs): a table at any version, read
// with the official's token from GET /v1/tables/{id}/audit?as_of=N and drawn here,
// cards as inline SVG (the CSP fetches nothing else and allows no inline style, so
// colours come from classes in pages.css). POST /v1/tables/{id}/verify gives the
// verdict on the stored history. Builds on assets/desk.js (window.YanivDesk).
(function () {
  "use strict";
  var root = document.querySelector("[data-replay]");
  if (!root) { return; }

  var start = function () {
    var desk = window.YanivDesk;
    if (!desk || root.hasAttribute("data-ready")) { return; }
    root.setAttribute("data-ready", "true");
    var labels = root.querySelector("[data-replay-labels]").dataset;
    var names = JSON.parse(labels.cardNames);
    var base = "/v1/tables/" + root.getAttribute("data-replay");
    var seats = root.querySelector("[data-replay-seats]");
    var position = root.querySelector("[data-replay-position]");
    var failureHere = root.querySelector("[data-replay-failure-here]");
    var stock = root.querySelector("[data-replay-stock]");
    var pileTitle = root.querySelector("[data-replay-pile-title]");
    var pile = root.querySelector("[data-replay-pile]");
    var verdict = root.querySelector("[data-replay-verdict]");
    var jump = root.querySelector("[data-replay-jump]");
    var shown = null; // the audit on screen
    var failedAt = null; // the version of verify's first failure, once asked

    var element = function (tag, attributes, text) {
      var e = document.createElement(tag);
      Object.keys(attributes || {}).forEach(function (k) { e.setAttribute(k, attributes[k]); });
      if (text !== undefined) { e.textContent = text; }
      return e;
    };

    var cardName = function (code) { return window.YanivCards.name(code, names); };
    var card = function (code) { return window.YanivCards.card(code, names); };
    var cards = function (list, into) {
      (list || []).forEach(function (code) { into.appendChild(card(code)); });
      return into;
    };

    var seatName = function (audit, seat) {
      var info = audit.view.table.seats[seat];
      return (info && info.name) || labels.emptySeat;
    };

    var showSeats = function (audit) {
      seats.textContent = "";
      var table = audit.view.table;
      var game = audit.view.game;
      table.seats.forEach(function (info, seat) {
        var acting = !!game && game.to_act === seat;
        var tr = element("tr", { "data-seat": String(seat) });
        if (acting) { tr.className = "to-act"; }
        tr.appendChild(element("td", { "class": "num" }, String(seat)));
        var name = element("th", { scope: "row" }, seatName(audit, seat));
        if (acting) {
          name.appendChild(document.createTextNode(" "));
          name.appendChild(element("span", { "class": "tag" }, labels.toAct));
        }
        tr.appendChild(name);
        var hand = audit.view.hands ? audit.view.hands[seat] : null;
        tr.appendChild(cards(hand, element("td", { "class": "hand", "data-hand": "" })));
        var total = audit.hand_totals ? String(audit.hand_totals[seat]) : "";
        tr.appendChild(element("td", { "class": "num", "data-hand-total": "" }, total));
        var score = table.totals ? String(table.totals[seat]) : "";
        tr.appendChild(element("td", { "class": "num", "data-score": "" }, score));
        seats.appendChild(tr);
      });
    };

    // Who threw what in the round, and what became of it.
    var showPile = function (audit) {
      pile.textContent = "";
      var history = audit.discard_pile;
      pileTitle.textContent = history ? labels.pile + " " + history.round : labels.pile;
      if (!history) { pile.appendChild(element("li", {}, labels.notDealt)); return; }
      history.throws.forEach(function (thrown) {
        var li = element("li", { "data-version": String(thrown.version) });
        var who = thrown.seat === null ? labels.turnedUp : seatName(audit, thrown.seat);
        li.appendChild(element("span", { "class": "tag" }, "v" + thrown.version));
        li.appendChild(document.createTextNode(" " + who + " "));
        cards(thrown.cards, li);
        var notes = [];
        if (thrown.draw && "stock" in thrown.draw) { notes.push(labels.drewStock); }
        if (thrown.draw && "discard" in thrown.draw) { notes.push(labels.drewDiscard + " " + cardName(thrown.draw.discard)); }
        (thrown.laid_on || []).forEach(function (laid) {
          notes.push(labels.laidOn + " " + seatName(audit, laid.seat) + ": " + laid.cards.map(cardName).join(", "));
        });
        if (thrown.taken) { notes.push(cardName(thrown.taken.card) + " " + labels.takenBy + " " + seatName(audit, thrown.taken.seat)); }
        if (thrown.reshuffled_at !== null && thrown.reshuffled_at !== undefined) {
          notes.push(labels.reshuffled + " (v" + thrown.reshuffled_at + ")");
        }
        if (notes.length) { li.appendChild(element("span", { "class": "note" }, " " + notes.join("; "))); }
        pile.appendChild(li);
      });
    };

    var markFailure = function () {
      var here = shown !== null && failedAt === shown.as_of;
      failureHere.hidden = !here;
      position.classList.toggle("failure", here);
    };

    var show = function (audit) {
      shown = audit;
      root.setAttribute("data-shown", String(audit.as_of));
      var where = labels.version + " " + audit.as_of + " " + labels.of + " " + audit.version +
        " · " + labels.event + ": " + audit.last_event;
      if (audit.record_position) {
        where += " (" + labels.record.replace("{r}", audit.record_position.round)
          .replace("{a}", audit.record_position.action) + ")";
      }
      position.textContent = where;
      position.setAttribute("data-event", audit.last_event);
      var game = audit.view.game;
      stock.textContent = game ? labels.stock + ": " + game.stock_size + " " + labels.cards : "";
      stock.setAttribute("data-stock", game ? String(game.stock_size) : "");
      showSeats(audit);
      showPile(audit);
      markFailure();
      var atFirst = audit.as_of <= 1;
      var atLast = audit.as_of >= audit.version;
      root.querySelector("[data-step=first]").disabled = atFirst;
      root.querySelector("[data-step=back]").disabled = atFirst;
      root.querySelector("[data-step=forward]").disabled = atLast;
      root.querySelector("[data-step=last]").disabled = atLast;
      jump.elements.as_of.max = String(audit.version);
      jump.elements.as_of.value = String(audit.as_of);
      // The address follows, so a referee can pass on exactly what they look at.
      var query = new URLSearchParams(window.location.search);
      query.set("as_of", String(audit.as_of));
      window.history.replaceState(null, "", window.location.pathname + "?" + query.toString());
    };

    // The table at `version` (the latest without one).
    var go = function (version) {
      var query = version === null ? "" : "?as_of=" + version;
      return desk.api("GET", base + "/audit" + query).then(show, desk.failed);
    };

    root.querySelectorAll("[data-step]").forEach(function (button) {
      button.addEventListener("click", function () {
        if (!shown) { return; }
        var step = button.getAttribute("data-step");
        var target = step === "first" ? 1
          : step === "back" ? shown.as_of - 1
            : step === "forward" ? shown.as_of + 1
              : shown.version;
        go(Math.max(1, Math.min(shown.version, target)));
      });
    });
    jump.addEventListener("submit", function (event) {
      event.preventDefault();
      var wanted = Math.floor(Number(jump.elements.as_of.value));
      if (wanted >= 1) { go(wanted); }
    });

    var verify = root.querySelector("[data-replay-verify]");
    verify.addEventListener("click", function () {
      verify.disabled = true;
      verdict.textContent = "";
      verdict.removeAttribute("data-ok");
      desk.api("POST", base + "/verify").then(function (result) {
        var failure = result.ok ? null : result.first_failure;
        verdict.className = failure ? "problem failure" : "done";
        verdict.setAttribute("data-ok", String(!failure));
        failedAt = failure ? failure.version : null;
        if (!failure) {
          verdict.appendChild(element("p", {}, labels.verified.replace("{n}", result.events)));
        } else {
          verdict.appendChild(element("p", { "data-failure-version": String(failure.version) },
            labels.firstFailure + ": " + labels.version + " " + failure.version + " — " +
            failure.reason + " (" + failure.code + ")"));
          var link = element("a", { href: "?as_of=" + failure.version, "data-go-to-failure": "" }, labels.goToFailure);
          // A version the server can no longer read (a changed hash) gets its reason
          // in the status line, as any refusal.
          link.addEventListener("click", function (event) { event.preventDefault(); go(failure.version); });
          verdict.appendChild(element("p")).appendChild(link);
        }
        markFailure();
      }, desk.failed).then(function () { verify.disabled = false; });
    });

    var asked = root.getAttribute("data-as-of");
    go(asked === null ? null : Number(asked));
  };
  if (window.YanivDesk) { start(); } else { document.addEventListener("yaniv:desk-ready", start); }
})();
