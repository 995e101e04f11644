// A paper table's score sheet on the desk (pages/desk/paper.rs): one line per round,
// checked by the tournament's rules as it is filled in
// (POST /v1/tournaments/{id}/paper-check), then recorded or corrected through the
// tournament's commands. Builds on assets/desk.js (window.YanivDesk).
(function () {
  "use strict";
  var root = document.querySelector("[data-sheet]");
  if (!root) { return; }
  var start = function () {
    var desk = window.YanivDesk;
    if (!desk || root.hasAttribute("data-ready")) { return; }
    root.setAttribute("data-ready", "true");
    var table = JSON.parse(root.getAttribute("data-table"));
    var seats = JSON.parse(root.getAttribute("data-seats"));
    var correcting = root.hasAttribute("data-correct");
    var labels = root.querySelector("[data-sheet-labels]").dataset;
    var rows = root.querySelector("[data-sheet-rounds]");
    var summary = root.querySelector("[data-sheet-summary]");
    var record = root.querySelector("[data-sheet-record]");
    var base = "/v1/tournaments/" + root.getAttribute("data-desk-tournament");
    var names = Array.prototype.map.call(root.querySelectorAll("thead th[data-seat]"), function (th) {
      return th.textContent;
    });
    var timer = null;

    var element = function (tag, attributes, text) {
      var e = document.createElement(tag);
      Object.keys(attributes || {}).forEach(function (k) { e.setAttribute(k, attributes[k]); });
      if (text !== undefined) { e.textContent = text; }
      return e;
    };

    // A new line, filled in with `kept` (a round as the sheet sends it) when given.
    var addRound = function (kept) {
      var k = rows.rows.length + 1;
      var tr = element("tr", { "data-round": String(k) });
      tr.appendChild(element("th", { scope: "row" }, String(k)));
      var ending = element("td");
      var kind = element("select", { "data-kind": "", "aria-label": labels.called + " / " + labels.emptied + " (" + k + ")" });
      kind.appendChild(element("option", { value: "call" }, labels.called));
      kind.appendChild(element("option", { value: "empty_hand" }, labels.emptied));
      var who = element("select", { "data-who": "", "aria-label": labels.called + " (" + k + ")" });
      names.forEach(function (name, seat) { who.appendChild(element("option", { value: String(seat) }, name)); });
      ending.appendChild(kind);
      ending.appendChild(document.createTextNode(" "));
      ending.appendChild(who);
      tr.appendChild(ending);
      names.forEach(function (name, seat) {
        var cell = element("td", { "data-seat": String(seat) });
        cell.appendChild(element("input", {
          type: "number", min: "0", max: "999", inputmode: "numeric", "data-hand": "",
          "aria-label": labels.hand + " " + name + " (" + k + ")"
        }));
        var declared = element("label", { "class": "declared" });
        declared.appendChild(element("input", { type: "checkbox", "data-declared": "" }));
        declared.appendChild(document.createTextNode(" " + labels.declared));
        cell.appendChild(declared);
        cell.appendChild(element("div", { "data-total": "", "class": "total" }));
        tr.appendChild(cell);
      });
      tr.appendChild(element("td", { "data-problem": "", "class": "problem" }));
      rows.appendChild(tr);
      if (kept && kept.ending && kept.hand_totals) {
        kind.value = kept.ending.kind === "empty_hand" ? "empty_hand" : "call";
        who.value = String(kept.ending.kind === "empty_hand" ? kept.ending.seat : kept.ending.caller);
        tr.querySelectorAll("[data-hand]").forEach(function (input, seat) {
          var hand = kept.hand_totals[seat];
          input.value = hand === null || hand === undefined ? "" : String(hand);
        });
        tr.querySelectorAll("[data-declared]").forEach(function (box, seat) {
          box.checked = (kept.ending.declared || []).indexOf(seat) >= 0;
        });
      } else {
        var first = tr.querySelector("[data-hand]");
        if (first && k > 1) { first.focus(); }
      }
      schedule();
    };

    // What is typed is kept in this browser as a draft until it is recorded, so a
    // reload or a closed tab loses nothing; a recorded sheet is kept by the server
    // (the result's paper rounds) and a correction starts from it.
    var draftKey = "yaniv.sheet." + root.getAttribute("data-desk-tournament") + "." +
      [table.stage, table.round, table.table].join(".");
    var saveDraft = function () {
      try { window.localStorage.setItem(draftKey, JSON.stringify(sheet())); } catch (e) { /* private mode */ }
    };
    var draft = function () {
      try { return JSON.parse(window.localStorage.getItem(draftKey) || "null"); } catch (e) { return null; }
    };

    // The rounds of the lines filled in completely, up to the first that is not.
    var sheet = function () {
      var rounds = [];
      for (var i = 0; i < rows.rows.length; i++) {
        var tr = rows.rows[i];
        var hands = Array.prototype.map.call(tr.querySelectorAll("[data-hand]"), function (input) {
          return input.value === "" ? null : Number(input.value);
        });
        if (hands.some(function (h) { return h === null; })) { break; }
        var who = Number(tr.querySelector("[data-who]").value);
        var ending = tr.querySelector("[data-kind]").value === "call"
          ? { kind: "call", caller: who, declared: [] }
          : { kind: "empty_hand", seat: who };
        if (ending.kind === "call") {
          tr.querySelectorAll("[data-declared]").forEach(function (box, seat) {
            if (box.checked && seat !== who) { ending.declared.push(seat); }
          });
        }
        rounds.push({ ending: ending, hand_totals: hands });
      }
      return rounds;
    };

    var show = function (result) {
      for (var i = 0; i < rows.rows.length; i++) {
        var tr = rows.rows[i];
        var score = result.rounds[i];
        tr.querySelectorAll("[data-total]").forEach(function (cell, seat) {
          cell.textContent = score ? "= " + score.totals[seat] : "";
        });
        var problem = tr.querySelector("[data-problem]");
        var refused = result.error && result.error.round === i;
        // The rules count seats from 0; the sheet names its players.
        problem.textContent = refused ? result.error.message.replace(/\bseat (\d+)/g, function (m, n) {
          return names[Number(n)] || m;
        }) : "";
        if (refused) { problem.setAttribute("role", "alert"); } else { problem.removeAttribute("role"); }
      }
      if (result.finished) {
        summary.textContent = result.standings.map(function (s) {
          return s.place + ". " + names[s.seat] + " (" + s.total + ")";
        }).join(" · ");
      } else {
        summary.textContent = "";
      }
      record.disabled = !result.finished || !!result.error;
    };

    // Checks may overlap while someone types, and their answers can come back in any
    // order: only the answer to the latest is shown (an older one shown last would
    // leave a finished sheet looking unfinished).
    // Each check resolves with the lines it sent and the rules' answer to them (null
    // when the check failed), so what is recorded is exactly what was checked.
    var asked = 0;
    var check = function () {
      timer = null;
      var mine = ++asked;
      var rounds = sheet();
      return desk.api("POST", base + "/paper-check", { seats: seats.length, rounds: rounds })
        .then(function (result) {
          if (mine === asked) { show(result); }
          return { rounds: rounds, result: result };
        }, function (message) { desk.failed(message); return null; });
    };
    // Checks shortly after the typing stops. The record button stays as it is
    // meanwhile: leaving a field to click it must not disable it under the pointer.
    var schedule = function () {
      if (timer !== null) { window.clearTimeout(timer); }
      timer = window.setTimeout(check, 200);
    };
    // The check of what is on the sheet now, before it is recorded: an earlier check
    // may still be on its way, and the result shown must be the one sent.
    var settled = function () {
      if (timer !== null) { window.clearTimeout(timer); }
      return check();
    };

    rows.addEventListener("input", function () { schedule(); saveDraft(); });
    rows.addEventListener("change", function () { schedule(); saveDraft(); });
    root.querySelector("[data-sheet-add]").addEventListener("click", addRound);
    root.querySelector("[data-sheet-remove]").addEventListener("click", function () {
      if (rows.rows.length > 1) { rows.deleteRow(rows.rows.length - 1); schedule(); saveDraft(); }
    });
    record.addEventListener("click", function () {
      settled().then(function (verified) {
        if (verified && verified.result.finished && !verified.result.error) { send(verified); }
      });
    });
    var send = function (verified) {
      var input = { source: "paper_rounds", seats: seats, rounds: verified.rounds };
      var command = correcting
        ? { command: "correct_result", table: table, input: input, reason: (root.querySelector("#reason") || {}).value || "" }
        : { command: "record_result", table: table, input: input };
      record.disabled = true;
      var recorded = verified.result;
      desk.api("POST", base + "/commands", command).then(function () {
        try { window.localStorage.removeItem(draftKey); } catch (e) { /* private mode */ }
        // The result just recorded replaces the one shown; from now on the sheet
        // corrects it, with a reason.
        var result = root.parentNode.querySelector("[data-sheet-result]");
        var list = result.querySelector("ol");
        list.textContent = "";
        recorded.standings.forEach(function (s) {
          list.appendChild(element("li", {}, names[s.seat] + " — " + s.total));
        });
        result.hidden = false;
        correcting = true;
        root.querySelector("[data-sheet-reason]").hidden = false;
        record.textContent = labels.correctLabel;
        record.disabled = false;
        desk.changed();
      }, function (message) {
        desk.failed(message);
        record.disabled = false;
      });
    };
    // The final totals only (desk/totals.rs): places follow the totals, lowest
    // first, ties sharing a place, until one is typed by hand.
    var totals = root.querySelector("[data-totals-form]");
    if (totals) {
      var totalOf = function (player) { return totals.querySelector("[data-total-of='" + player + "']"); };
      var placeOf = function (player) { return totals.querySelector("[data-place-of='" + player + "']"); };
      totals.addEventListener("input", function (event) {
        if (event.target.hasAttribute("data-place-of")) { event.target.setAttribute("data-typed", ""); return; }
        var typed = seats.map(function (p) { return totalOf(p).value === "" ? null : Number(totalOf(p).value); });
        seats.forEach(function (p, i) {
          var place = placeOf(p);
          if (place.hasAttribute("data-typed") || typed[i] === null) { return; }
          place.value = String(1 + typed.filter(function (t) { return t !== null && t < typed[i]; }).length);
        });
      });
      totals.addEventListener("submit", function (event) {
        event.preventDefault();
        var input = {
          source: "game",
          standings: seats.map(function (p) {
            return { player: p, total: Number(totalOf(p).value), place: Number(placeOf(p).value) };
          })
        };
        var reason = totals.querySelector("#totals-reason");
        var command = reason
          ? { command: "correct_result", table: table, input: input, reason: reason.value }
          : { command: "record_result", table: table, input: input };
        desk.api("POST", base + "/commands", command).then(function () {
          try { window.localStorage.removeItem(draftKey); } catch (e) { /* private mode */ }
          window.location.reload();
        }, desk.failed);
      });
    }

    var kept = draft() || JSON.parse(root.getAttribute("data-kept") || "[]");
    if (kept.length) {
      kept.forEach(addRound);
      // One empty line after a sheet that is not over yet.
      check().then(function (first) { if (first && !first.result.finished) { addRound(); } });
    } else {
      addRound();
    }
  };
  if (window.YanivDesk) { start(); } else { document.addEventListener("yaniv:desk-ready", start); }
})();
