// The replay viewer (pages/viewer.rs), on two pages:
//
// - /desk/tables/{id} ([data-replay]): a stored table at any version, read with the
//   official's token (GET /v1/tables/{id}/audit?as_of=N) through the desk's log-in
//   (window.YanivDesk, assets/desk.js); its events in words come from
//   GET /v1/tables/{id}/diff?from=1, and POST /v1/tables/{id}/verify gives the verdict
//   on the stored history.
// - /replay ([data-replay-record]): a pasted or opened game record, sent once to
//   POST /v1/records/steps (public), which answers with the game after every step.
//
// Both are turned into the same "frame" (who sits where, every hand, the stock, the
// discard pile) and drawn by the same code, cards as inline SVG (window.YanivCards; the
// CSP fetches nothing else and allows no inline style, so colours come from classes in
// pages.css).
(function () {
  "use strict";

  var element = function (tag, attributes, text) {
    var e = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (k) { e.setAttribute(k, attributes[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  };

  // A stored event's type in words (its name without the version), from the page's
  // labels; a type the page does not know is shown as it is.
  var eventName = function (type) {
    var labels = document.querySelector("[data-replay-labels]");
    var names = labels ? JSON.parse(labels.dataset.eventNames || "{}") : {};
    return names[String(type).replace(/\.v\d+$/, "")] || type;
  };

  // The viewer in `root`: `source.go(n)` must resolve to the frame at step n (null: the
  // latest); the viewer draws it and keeps the controls and the address in step.
  var viewer = function (root, source) {
    var labels = root.querySelector("[data-replay-labels]").dataset;
    var names = JSON.parse(labels.cardNames);
    var seats = root.querySelector("[data-replay-seats]");
    var position = root.querySelector("[data-replay-position]");
    var failureHere = root.querySelector("[data-replay-failure-here]");
    var stock = root.querySelector("[data-replay-stock]");
    var pileTitle = root.querySelector("[data-replay-pile-title]");
    var pile = root.querySelector("[data-replay-pile]");
    var events = root.querySelector("[data-replay-events]");
    var jump = root.querySelector("[data-replay-jump]");
    var shown = null; // the frame on screen
    var failedAt = null; // the step marked as the failure, once known

    var cardName = function (code) { return window.YanivCards.name(code, names); };
    var cards = function (list, into) {
      (list || []).forEach(function (code) { into.appendChild(window.YanivCards.card(code, names)); });
      return into;
    };
    var seatName = function (frame, seat) { return frame.names[seat] || labels.emptySeat; };

    var showSeats = function (frame) {
      seats.textContent = "";
      frame.names.forEach(function (_, seat) {
        var acting = frame.toAct === seat;
        var tr = element("tr", { "data-seat": String(seat) });
        if (acting) { tr.className = "to-act"; }
        tr.appendChild(element("td", { "class": "num" }, String(seat)));
        var name = element("th", { scope: "row" }, seatName(frame, seat));
        if (acting) {
          name.appendChild(document.createTextNode(" "));
          name.appendChild(element("span", { "class": "tag" }, labels.toAct));
        }
        tr.appendChild(name);
        tr.appendChild(cards(frame.hands ? frame.hands[seat] : null, element("td", { "class": "hand", "data-hand": "" })));
        var total = frame.handTotals ? String(frame.handTotals[seat]) : "";
        tr.appendChild(element("td", { "class": "num", "data-hand-total": "" }, total));
        var score = frame.totals ? String(frame.totals[seat]) : "";
        tr.appendChild(element("td", { "class": "num", "data-score": "" }, score));
        seats.appendChild(tr);
      });
    };

    // Who threw what in the round, and what became of it.
    var showPile = function (frame) {
      pile.textContent = "";
      var history = frame.pile;
      pileTitle.textContent = history ? labels.pile + " · " + labels.roundWord + " " + history.round : labels.pile;
      if (!history) { pile.appendChild(element("li", {}, labels.notDealt)); return; }
      history.throws.forEach(function (thrown) {
        var li = element("li", { "data-version": String(thrown.version) });
        var who = thrown.seat === null ? labels.turnedUp : seatName(frame, thrown.seat);
        li.appendChild(element("span", { "class": "tag" }, String(thrown.version)));
        li.appendChild(document.createTextNode(" " + who + " "));
        // Cell division: the pile of each throw size is named; a five of diamonds
        // without a draw killed its pile (Fifths disease).
        if (thrown.pile > 1 || history.throws.some(function (t) { return t.pile > 1; })) {
          li.appendChild(element("span", { "class": "note", "data-pile": String(thrown.pile) },
            labels.pileOf + " " + thrown.pile + " " + labels.cards + ": "));
        }
        cards(thrown.cards, li);
        var notes = [];
        if (thrown.draw && "stock" in thrown.draw) { notes.push(labels.drewStock); }
        if (thrown.draw && "discard" in thrown.draw) { notes.push(labels.drewDiscard + " " + cardName(thrown.draw.discard)); }
        (thrown.laid_on || []).forEach(function (laid) {
          notes.push(labels.laidOn + " " + seatName(frame, laid.seat) + ": " + laid.cards.map(cardName).join(", "));
        });
        if (thrown.seat !== null && !thrown.draw) { notes.push(labels.pileKilled); }
        [thrown.taken].concat(thrown.taken_later || []).forEach(function (taken) {
          if (taken) { notes.push(cardName(taken.card) + " " + labels.takenBy + " " + seatName(frame, taken.seat)); }
        });
        if (thrown.reshuffled_at !== null && thrown.reshuffled_at !== undefined) {
          notes.push(labels.reshuffled + " (" + thrown.reshuffled_at + ")");
        }
        if (notes.length) { li.appendChild(element("span", { "class": "note" }, " " + notes.join("; "))); }
        pile.appendChild(li);
      });
    };

    var markCurrentEvent = function () {
      events.querySelectorAll("button[data-go]").forEach(function (b) {
        if (shown && Number(b.getAttribute("data-go")) === shown.at) {
          b.setAttribute("aria-current", "step");
        } else {
          b.removeAttribute("aria-current");
        }
      });
    };

    var markFailure = function () {
      var here = shown !== null && failedAt === shown.at;
      failureHere.hidden = !here;
      position.classList.toggle("failure", here);
      events.querySelectorAll("li").forEach(function (li) {
        li.classList.toggle("failure", failedAt !== null && Number(li.getAttribute("data-version")) === failedAt);
      });
    };

    var show = function (frame) {
      shown = frame;
      root.setAttribute("data-shown", String(frame.at));
      var where = labels.stepWord + " " + frame.at + " " + labels.of + " " + frame.last +
        " · " + labels.event + ": " + eventName(frame.event);
      if (frame.position) {
        where += " (" + labels.record.replace("{r}", frame.position.round)
          .replace("{a}", frame.position.action) + ")";
      }
      position.textContent = where;
      position.setAttribute("data-event", frame.event);
      stock.textContent = frame.stock === null ? "" : labels.stock + ": " + frame.stock + " " + labels.cards;
      stock.setAttribute("data-stock", frame.stock === null ? "" : String(frame.stock));
      showSeats(frame);
      showPile(frame);
      markFailure();
      markCurrentEvent();
      var atFirst = frame.at <= 1;
      var atLast = frame.at >= frame.last;
      root.querySelector("[data-step=first]").disabled = atFirst;
      root.querySelector("[data-step=back]").disabled = atFirst;
      root.querySelector("[data-step=forward]").disabled = atLast;
      root.querySelector("[data-step=last]").disabled = atLast;
      jump.elements.as_of.max = String(frame.last);
      jump.elements.as_of.value = String(frame.at);
      if (source.address) {
        // The address follows, so a referee can pass on exactly what they look at.
        var query = new URLSearchParams(window.location.search);
        query.set("as_of", String(frame.at));
        window.history.replaceState(null, "", window.location.pathname + "?" + query.toString());
      }
    };

    var go = function (at) {
      return source.go(at).then(function (frame) {
        if (frame) { show(frame); }
        return frame;
      });
    };

    root.querySelectorAll("[data-step]").forEach(function (button) {
      button.addEventListener("click", function () {
        if (!shown) { return; }
        var step = button.getAttribute("data-step");
        var target = step === "first" ? 1
          : step === "back" ? shown.at - 1
            : step === "forward" ? shown.at + 1
              : shown.last;
        go(Math.max(1, Math.min(shown.last, target)));
      });
    });
    jump.addEventListener("submit", function (event) {
      event.preventDefault();
      var wanted = Math.floor(Number(jump.elements.as_of.value));
      if (wanted >= 1) { go(wanted); }
    });

    return {
      labels: labels,
      go: go,
      // Every event as a line to jump to: [{ at, text }], in order.
      listEvents: function (list) {
        events.textContent = "";
        list.forEach(function (item) {
          var li = element("li", { "data-version": String(item.at) });
          var b = element("button", { type: "button", "class": "link", "data-go": String(item.at) });
          b.appendChild(element("span", { "class": "tag" }, String(item.at)));
          b.appendChild(document.createTextNode(" " + item.text));
          b.addEventListener("click", function () { go(item.at); });
          li.appendChild(b);
          events.appendChild(li);
        });
        markCurrentEvent();
        markFailure();
      },
      failAt: function (at) { failedAt = at; markFailure(); }
    };
  };

  // A stored table, through the audit (officials only).
  var tableViewer = function (root) {
    var desk = window.YanivDesk;
    if (!desk || root.hasAttribute("data-ready")) { return; }
    root.setAttribute("data-ready", "true");
    var base = "/v1/tables/" + root.getAttribute("data-replay");
    var frameOf = function (audit) {
      var table = audit.view.table;
      var game = audit.view.game;
      return {
        at: audit.as_of,
        last: audit.version,
        event: audit.last_event,
        position: audit.record_position,
        names: table.seats.map(function (s) { return (s && s.name) || ""; }),
        hands: audit.view.hands,
        handTotals: audit.hand_totals,
        totals: table.totals,
        toAct: game ? game.to_act : null,
        stock: game ? game.stock_size : null,
        pile: audit.discard_pile
      };
    };
    var view = viewer(root, {
      address: true,
      go: function (at) {
        var query = at === null ? "" : "?as_of=" + at;
        return desk.api("GET", base + "/audit" + query).then(frameOf, function (message) { desk.failed(message); return null; });
      }
    });
    var labels = view.labels;
    var verdict = root.querySelector("[data-replay-verdict]");
    root.querySelector("[data-replay-failure-here]").textContent = labels.thisIsTheFailure;

    var verify = root.querySelector("[data-replay-verify]");
    verify.addEventListener("click", function () {
      verify.disabled = true;
      verdict.textContent = "";
      verdict.removeAttribute("data-ok");
      desk.api("POST", base + "/verify").then(function (result) {
        var failure = result.ok ? null : result.first_failure;
        verdict.className = failure ? "problem failure" : "done";
        verdict.setAttribute("data-ok", String(!failure));
        view.failAt(failure ? failure.version : null);
        if (!failure) {
          verdict.appendChild(element("p", {}, labels.verified.replace("{n}", result.events)));
        } else {
          verdict.appendChild(element("p", { "data-failure-version": String(failure.version) },
            labels.firstFailure + ": " + labels.stepWord + " " + failure.version + " — " +
            failure.reason + " (" + failure.code + ")"));
          var link = element("a", { href: "?as_of=" + failure.version, "data-failure-link": "" }, labels.goToFailure);
          // A version the server can no longer read (a changed hash) gets its reason
          // in the status line, as any refusal.
          link.addEventListener("click", function (event) { event.preventDefault(); view.go(failure.version); });
          verdict.appendChild(element("p")).appendChild(link);
        }
      }, desk.failed).then(function () { verify.disabled = false; });
    });

    // The game record of the finished rounds (yaniv-record/1), saved as a file, to
    // replay elsewhere or hand to another verifier.
    var download = root.querySelector("[data-replay-download]");
    download.addEventListener("click", function () {
      download.disabled = true;
      desk.api("GET", base + "/record").then(function (record) {
        var blob = new Blob([JSON.stringify(record, null, 2) + "\n"], { type: "application/json" });
        var link = element("a", { href: URL.createObjectURL(blob), download: "table-" + root.getAttribute("data-replay") + ".yaniv-record.json" });
        document.body.appendChild(link);
        link.click();
        link.remove();
        download.setAttribute("data-downloaded", String(record.rounds.length));
      }, desk.failed).then(function () { download.disabled = false; });
    });

    // The events in words, from the first to the version now. A history the server no
    // longer reads (a changed hash) has no list: the status line says why.
    var listEvents = function (version) {
      if (version <= 1) { view.listEvents([{ at: 1, text: labels.tableCreated }]); return; }
      desk.api("GET", base + "/diff?from=1&to=" + version).then(function (diff) {
        var list = [{ at: 1, text: labels.tableCreated }];
        diff.events.forEach(function (e) { list.push({ at: e.version, text: e.summary || eventName(e.type) }); });
        view.listEvents(list);
      }, desk.failed);
    };

    var asked = root.getAttribute("data-as-of");
    view.go(asked === null ? null : Number(asked)).then(function (frame) {
      if (frame) { listEvents(frame.last); }
    });
  };

  // A game record, stepped through from the answer of POST /v1/records/steps.
  var recordViewer = function (form) {
    var root = document.querySelector("[data-replay-record]");
    var verdict = document.querySelector("[data-record-verdict]");
    var walked = null;
    // The round's pile as it stood at `step`: what was thrown, laid on, taken or
    // shuffled back later is not there yet.
    var pileAt = function (step) {
      var pile = step.round > 0 ? walked.discard_piles[step.round - 1] : null;
      if (!pile) { return null; }
      var at = step.step;
      var seen = function (v) { return v !== null && v !== undefined && v <= at; };
      return {
        round: pile.round,
        throws: pile.throws.filter(function (t) { return t.version <= at; }).map(function (t) {
          return {
            version: t.version,
            seat: t.seat,
            cards: t.cards,
            draw: t.draw,
            laid_on: (t.laid_on || []).filter(function (l) { return l.version <= at; }),
            taken: t.taken && seen(t.taken.version) ? t.taken : null,
            reshuffled_at: seen(t.reshuffled_at) ? t.reshuffled_at : null
          };
        })
      };
    };
    var frameAt = function (at) {
      var step = walked.steps[at - 1];
      return {
        at: step.step,
        last: walked.steps.length,
        event: step.event,
        position: step.position,
        names: walked.players,
        hands: step.hands,
        handTotals: step.round > 0 ? step.hand_totals : null,
        totals: step.totals,
        toAct: step.to_act,
        stock: step.round > 0 ? step.stock_size : null,
        pile: pileAt(step)
      };
    };
    var view = viewer(root, {
      address: false,
      go: function (at) {
        if (!walked || walked.steps.length === 0) { return Promise.resolve(null); }
        var last = walked.steps.length;
        return Promise.resolve(frameAt(at === null ? last : Math.max(1, Math.min(last, at))));
      }
    });
    var labels = view.labels;
    root.querySelector("[data-replay-failure-here]").textContent = labels.recordStopsHere;

    var say = function (ok, lines) {
      verdict.textContent = "";
      verdict.className = ok ? "done" : "problem failure";
      verdict.setAttribute("data-ok", String(ok));
      lines.forEach(function (line) { verdict.appendChild(line); });
    };
    // The record's numbering is 0-based in a yaniv-error/1 document; people count from 1.
    var where = function (problem) {
      var parts = [];
      if (problem.round !== null && problem.round !== undefined) {
        if (problem.action !== null && problem.action !== undefined) {
          parts.push(labels.record.replace("{r}", problem.round + 1).replace("{a}", problem.action + 1));
        } else {
          parts.push(labels.record.replace("{r}", problem.round + 1).replace(/,.*$/, ""));
        }
      }
      return parts.join("");
    };

    var replay = function (text) {
      verdict.textContent = "";
      var button = form.querySelector("button[type=submit]");
      button.disabled = true;
      return fetch("/v1/records/steps", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: text
      }).then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; }, function () {
          return { ok: false, body: { detail: String(response.status) } };
        });
      }).then(function (answer) {
        if (!answer.ok) {
          // Not a record at all (or too large, or not JSON): nothing to step through.
          root.hidden = true;
          walked = null;
          var detail = answer.body.detail || answer.body.title || "";
          var lines = [element("p", { "data-record-refused": answer.body.code || "" }, detail)];
          // Where the text breaks: the line the reason names, with a mark under the
          // column, as the person sees it in the box.
          var at = /line (\d+) column (\d+)/.exec(detail);
          var line = at ? text.split("\n")[Number(at[1]) - 1] : undefined;
          if (line !== undefined) {
            var column = Math.max(1, Number(at[2]));
            var hints = JSON.parse(labels.jsonHints || "{}");
            var hint = Object.keys(hints).filter(function (phrase) { return detail.indexOf(phrase) >= 0; })[0];
            lines.push(element("p", { "data-record-at": "" }, labels.atLine.replace("{line}", at[1]).replace("{column}", at[2]) +
              (hint ? " " + hints[hint] : "")));
            lines.push(element("pre", { "data-record-excerpt": "" },
              line + "\n" + new Array(column).join(" ") + "^"));
          }
          say(false, lines);
          return;
        }
        walked = answer.body;
        root.hidden = walked.steps.length === 0;
        view.listEvents(walked.steps.map(function (s) { return { at: s.step, text: s.summary }; }));
        var problem = walked.problem;
        view.failAt(problem ? walked.steps.length : null);
        if (!problem) {
          say(true, [element("p", {}, labels.recordReplays.replace("{n}", walked.steps.length))]);
        } else {
          var line = element("p", { "data-problem-code": problem.code },
            labels.recordProblem + " " + where(problem) + ": " + problem.message + " (" + problem.code + ")");
          var lines = [line];
          if (walked.steps.length > 0) {
            var link = element("a", { href: "#", "data-failure-link": "" }, labels.goToStop);
            link.addEventListener("click", function (event) { event.preventDefault(); view.go(walked.steps.length); });
            lines.push(element("p"));
            lines[1].appendChild(link);
          }
          say(false, lines);
        }
        return view.go(problem ? walked.steps.length : 1);
      }, function (error) {
        say(false, [element("p", {}, String(error))]);
      }).then(function () { button.disabled = false; });
    };

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      replay(form.elements.record.value);
    });
    // An opened file is read in the browser and shown in the text box, then replayed.
    form.elements.file.addEventListener("change", function () {
      var file = form.elements.file.files[0];
      if (!file) { return; }
      file.text().then(function (text) {
        form.elements.record.value = text;
        replay(text);
      });
    });
  };

  var tableRoot = document.querySelector("[data-replay]");
  if (tableRoot) {
    var startTable = function () { tableViewer(tableRoot); };
    if (window.YanivDesk) { startTable(); } else { document.addEventListener("yaniv:desk-ready", startTable); }
  }
  var recordForm = document.querySelector("[data-record-form]");
  if (recordForm) { recordViewer(recordForm); }
})();
