// Live pages: the part of a page marked `data-live` follows the tournament's stream
// (GET /v1/tournaments/{id}/stream, Server-Sent Events). After each change the page
// fetches itself again and swaps that part in, so what a page shows is always what
// the server renders, with or without this script. Projector pages also cycle through
// their sections. No dependency, no build step.
(function () {
  "use strict";
  var live = document.querySelector("[data-live]");
  if (live && window.EventSource && window.fetch && window.DOMParser) {
    var pending = null;
    // What the person was doing in the part about to be replaced: what they typed
    // (fields by id), where the cursor was, which folded sections were open. Put back
    // in the new part, so a change elsewhere never eats a half-typed name.
    var keep = function () {
      var typed = [];
      live.querySelectorAll("input[id], textarea[id]").forEach(function (field) {
        if (field.type !== "file" && field.value !== field.defaultValue) { typed.push([field.id, field.value]); }
      });
      var focused = document.activeElement && live.contains(document.activeElement) ? document.activeElement : null;
      var caret = null;
      try { caret = focused && focused.id ? [focused.selectionStart, focused.selectionEnd] : null; } catch (e) { caret = null; }
      var keyOf = function (details, i) { return details.className + "#" + i; };
      var open = {};
      live.querySelectorAll("details").forEach(function (details, i) { open[keyOf(details, i)] = details.open; });
      return function () {
        typed.forEach(function (entry) {
          var field = document.getElementById(entry[0]);
          if (field && live.contains(field)) { field.value = entry[1]; }
        });
        live.querySelectorAll("details").forEach(function (details, i) {
          var was = open[keyOf(details, i)];
          if (was !== undefined) { details.open = was; }
        });
        var again = focused && focused.id ? document.getElementById(focused.id) : null;
        if (again && live.contains(again)) {
          again.focus();
          try { if (caret) { again.setSelectionRange(caret[0], caret[1]); } } catch (e) { /* not a text field */ }
        }
      };
    };
    var refresh = function () {
      pending = null;
      fetch(window.location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) { return; }
          var next = new DOMParser().parseFromString(html, "text/html").querySelector("[data-live]");
          // Only a later version replaces what is shown: two refreshes in flight may
          // answer out of order, and the older must not win.
          if (!next || Number(next.getAttribute("data-version")) <= Number(live.getAttribute("data-version"))) { return; }
          var kept = keep();
          live.innerHTML = next.innerHTML;
          kept();
          live.setAttribute("data-version", next.getAttribute("data-version"));
          document.dispatchEvent(new CustomEvent("yaniv:updated"));
        })
        .catch(function () { /* the next change tries again */ });
    };
    // A change this page made itself (the desk): no need to wait for the stream.
    document.addEventListener("yaniv:refresh", refresh);
    var stream = null;
    var follow = function () {
      stream = new EventSource(live.getAttribute("data-live"));
      // Marks the page as following the stream (and no longer, while it reconnects).
      stream.onopen = function () { document.documentElement.setAttribute("data-following", "true"); };
      stream.onerror = function () { document.documentElement.removeAttribute("data-following"); };
      stream.addEventListener("tournament", function (message) {
        try {
          var version = JSON.parse(message.data).version;
          if (String(version) === live.getAttribute("data-version")) { return; }
        } catch (e) { /* refresh anyway */ }
        if (pending === null) { pending = window.setTimeout(refresh, 100); }
      });
    };
    follow();
    // A page left for another may be kept for the back button: it must not keep its
    // stream (a browser opens only a few connections to one server). Coming back, it
    // follows again and catches up.
    window.addEventListener("pagehide", function () {
      if (stream) { stream.close(); stream = null; }
      document.documentElement.removeAttribute("data-following");
    });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted && stream === null) { follow(); refresh(); }
    });
  }

  // The projector's round clock counts down from what the server rendered (so a
  // screen whose own clock is wrong still shows the right time), minute:second.
  var clockFrom = null;
  var tick = function () {
    var clock = document.querySelector("[data-clock-remaining]");
    if (!clock) { return; }
    var left = Math.max(0, Number(clock.getAttribute("data-clock-remaining")) - Math.floor((Date.now() - clockFrom) / 1000));
    clock.textContent = left === 0 ? clock.getAttribute("data-time-up")
      : Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
  };
  if (document.querySelector("[data-clock-remaining]") || live) {
    clockFrom = Date.now();
    document.addEventListener("yaniv:updated", function () { clockFrom = Date.now(); tick(); });
    window.setInterval(tick, 1000);
  }

  // The cycling part is looked up each time: a live refresh replaces it.
  var first = document.querySelector("[data-cycle]");
  if (first) {
    var seconds = Number(first.getAttribute("data-cycle")) || 15;
    var shown = 0;
    var show = function () {
      var parts = document.querySelectorAll("[data-cycle] [data-part]");
      for (var i = 0; i < parts.length; i++) { parts[i].hidden = i !== shown % parts.length; }
    };
    show();
    document.addEventListener("yaniv:updated", show);
    window.setInterval(function () { shown += 1; show(); }, seconds * 1000);
  }
})();
