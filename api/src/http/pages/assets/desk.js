// The organizer's desk: every change through the public REST API, from the browser.
//
// - Log in: the form of /desk/login goes to POST /v1/sessions; the token is kept for
//   this tab only (sessionStorage) and sent as a bearer token with every command.
// - A button with `data-command` sends that command to the tournament
//   (POST /v1/tournaments/{id}/commands); `data-desk-draw` draws the next round
//   (POST .../draws); `data-desk-register` finds an account by name
//   (GET /v1/accounts?username=) and registers it, or admits it late once the
//   qualification has started.
// - The seasons' pages create a season (POST /v1/seasons) and add or remove its
//   tournaments (POST /v1/seasons/{id}/commands).
// - Each command carries a fresh Idempotency-Key, so a retried click does not act
//   twice. What the server refuses is shown as its problem document's detail.
// - After a change the live part of the page is fetched again (assets/live.js).
(function () {
  "use strict";
  var KEY = "yaniv.desk";
  var session = function () {
    try { return JSON.parse(window.sessionStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  };
  var status = document.querySelector("[data-desk-status]");
  // What was said is shown next to the control that asked for it (the button, or
  // the end of the form); the status line at the top stays the one live region, for
  // screen readers, and shows itself only when that control is gone. Quiet or not,
  // it keeps its height, so nothing on the page moves under a pointer.
  var said = { message: null, isError: false, find: null, shown: null };
  var controlOf = function (target) {
    var control = target && target.closest ? target.closest("form, button") : null;
    if (!control || control.closest("[data-desk-status]")) { return null; }
    var form = control.tagName === "FORM" ? control : control.form;
    if (form && control.type === "submit") { control = form; }
    // Found again by what marks it, since a refresh of the page's live part
    // replaces the element itself.
    var marks = Array.prototype.filter.call(control.attributes, function (a) { return a.name.indexOf("data-") === 0; });
    if (marks.length === 0) { return null; }
    var mark = marks[0];
    var selector = control.tagName.toLowerCase() + "[" + mark.name + (mark.value === "" ? "" : "=\"" + CSS.escape(mark.value) + "\"") + "]";
    return function () { return document.querySelector(selector); };
  };
  // A new action takes the last answer away: it must not linger beside a control it
  // no longer speaks of.
  var remember = function (event) {
    var found = controlOf(event.target);
    if (!found) { return; }
    said.find = found;
    said.message = null;
    if (said.shown) { said.shown.remove(); said.shown = null; }
    if (status) { status.textContent = ""; status.className = ""; }
  };
  document.addEventListener("click", remember, true);
  document.addEventListener("submit", remember, true);
  var showNear = function () {
    if (said.shown) { said.shown.remove(); said.shown = null; }
    if (said.message === null || !status) { return; }
    var control = said.find ? said.find() : null;
    var kind = said.isError ? "problem" : "done";
    if (!control) { status.className = kind; return; }
    var near = document.createElement("p");
    near.className = "said " + kind;
    near.setAttribute("aria-hidden", "true");
    near.textContent = said.message;
    if (control.tagName === "FORM") { control.appendChild(near); } else { control.insertAdjacentElement("afterend", near); }
    said.shown = near;
    status.className = kind + " quiet";
  };
  document.addEventListener("yaniv:updated", function () {
    if (said.shown && !document.contains(said.shown)) { said.shown = null; }
    if (said.message !== null && !said.shown) { showNear(); }
  });
  var say = function (message, isError) {
    if (!status) { return; }
    status.textContent = message;
    said.message = message;
    said.isError = isError;
    showNear();
  };
  // The page's words for what this script says itself (the server's refusals come
  // in its problem documents).
  var words = status ? status.dataset : { loggedIn: "", done: "", noAccount: "" };
  var loginPath = "/desk/login?next=" + encodeURIComponent(window.location.pathname + window.location.search);

  // Who is logged in, and the way out.
  var current = session();
  var user = document.querySelector("[data-desk-user]");
  var logout = document.querySelector("[data-desk-logout]");
  var loginForm = document.querySelector("[data-desk-login]");
  if (current && user) { user.textContent = words.loggedIn + " " + current.username; }
  if (current && logout) {
    logout.hidden = false;
    logout.addEventListener("click", function () {
      fetch("/v1/sessions/current", { method: "DELETE", headers: { Authorization: "Bearer " + current.token } })
        .catch(function () { /* the token expires anyway */ })
        .then(function () { window.sessionStorage.removeItem(KEY); window.location.assign(loginPath); });
    });
  }
  if (!current && !loginForm) { window.location.assign(loginPath); return; }

  // The server's reason, in the page's language when the desk knows its code: the
  // account it names ("player 12") is put in as {name}, by name where the page lists
  // it. Other reasons come as the server words them.
  var refusals = status && status.dataset.refusals ? JSON.parse(status.dataset.refusals) : {};
  var problemOf = function (response) {
    return response.json().then(function (problem) {
      // A field a form of the page names in its own words (a season's points).
      var fieldWords = document.querySelector("[data-field-refusals]");
      var refusedField = problem.code === "validation_failed" && problem.errors && problem.errors[0];
      if (fieldWords && refusedField) {
        var ofField = JSON.parse(fieldWords.getAttribute("data-field-refusals"))[refusedField.field];
        if (ofField) { return ofField; }
      }
      var said = refusals[problem.code];
      if (said) {
        var who = /\b(?:player|account) (\d+)\b/.exec(problem.detail || "");
        return said.replace("{name}", who ? named(who[0]) : "");
      }
      var fields = (problem.errors || []).map(function (e) { return e.field + ": " + e.message; });
      return problem.detail + (fields.length ? " (" + fields.join("; ") + ")" : "");
    }, function () { return response.status + " " + response.statusText; });
  };

  var key = function () {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return String(Date.now()) + Math.random().toString(16).slice(2);
  };

  // Sends one request with the token; resolves with the JSON answer, or rejects with
  // the message to show.
  // `contentType` sends `body` as it is (a CSV list); otherwise it goes as JSON.
  var api = function (method, path, body, contentType) {
    var headers = { Authorization: "Bearer " + current.token };
    if (body !== undefined) { headers["Content-Type"] = contentType || "application/json"; }
    if (method === "POST") { headers["Idempotency-Key"] = key(); }
    var sent = body === undefined ? undefined : contentType ? body : JSON.stringify(body);
    return fetch(path, { method: method, headers: headers, body: sent })
      .then(function (response) {
        if (response.status === 401) {
          window.sessionStorage.removeItem(KEY);
          window.location.assign(loginPath);
          return Promise.reject("");
        }
        if (!response.ok) { return problemOf(response).then(function (m) { return Promise.reject(m); }); }
        return response.json();
      });
  };

  var changed = function () {
    say(words.done, false);
    document.dispatchEvent(new CustomEvent("yaniv:refresh"));
  };
  // The server's refusals name accounts by id; the desk's list names them, so the
  // message does too.
  var named = function (message) {
    return message.replace(/\b(player|account) (\d+)\b/g, function (m, what, id) {
      var row = document.querySelector("[data-player='" + id + "']");
      return row ? row.getAttribute("data-player-name") : m;
    });
  };
  var failed = function (message) { if (message) { say(named(message), true); } };

  if (loginForm) {
    // One of the account forms (data-account): log in; create an account, then log
    // in; or set the password with a set-up code, then log in.
    var post = function (path, body) {
      return fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
        .then(function (response) {
          if (!response.ok) { return problemOf(response).then(function (m) { return Promise.reject(m); }); }
          return response.json();
        });
    };
    loginForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var kind = loginForm.getAttribute("data-account") || "login";
      var body = { username: loginForm.username.value.trim(), password: loginForm.password.value };
      if (kind !== "login" && body.password !== loginForm.confirm.value) {
        failed(loginForm.getAttribute("data-mismatch"));
        return;
      }
      var first = kind === "signup" ? post("/v1/accounts", body)
        : kind === "setup" ? post("/v1/accounts/setup", { username: body.username, code: loginForm.code.value, password: body.password })
        : Promise.resolve();
      // The device token of this account's last log-in here: a known device is not
      // held up by someone else's wrong passwords (docs/operations.md).
      var deviceKey = "yaniv.device." + body.username.toLowerCase();
      var device = null;
      try { device = window.localStorage.getItem(deviceKey); } catch (e) { device = null; }
      first
        .then(function () {
          return post("/v1/sessions", device ? { username: body.username, password: body.password, device_token: device } : body);
        })
        .then(function (answer) {
          try { window.localStorage.setItem(deviceKey, answer.device_token); } catch (e) { /* private mode */ }
          window.sessionStorage.setItem(KEY, JSON.stringify({ token: answer.token, username: answer.account.username }));
          // The server checked `next` and wrote it into the form: a page of its own.
          window.location.assign(loginForm.getAttribute("data-next") || "/desk");
        })
        .catch(failed);
    });
    return;
  }

  // For the page scripts that build on the desk (assets/sheet.js).
  window.YanivDesk = { api: api, changed: changed, failed: failed };
  document.dispatchEvent(new CustomEvent("yaniv:desk-ready"));

  // /desk: a new tournament from a preset, then its desk page.
  var createForm = document.querySelector("[data-desk-create]");
  if (createForm && current) {
    // Creating a tournament is an organizer's (or an admin's): a referee is not
    // offered a form the server would refuse.
    api("GET", "/v1/accounts/me").then(function (me) {
      var may = me.roles.indexOf("organizer") >= 0 || me.roles.indexOf("admin") >= 0;
      createForm.closest("section").hidden = !may;
    }, failed);
  }
  if (createForm) {
    // The limit field shows the chosen rules' own limit until one is typed.
    var showLimit = function () {
      var end = JSON.parse(createForm.preset.selectedOptions[0].getAttribute("data-game-end"));
      createForm.limit.placeholder = String(end[Object.keys(end)[0]].limit);
    };
    createForm.preset.addEventListener("change", showLimit);
    showLimit();
    createForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var number = function (field) { return Number(createForm[field].value); };
      var rules = { preset: createForm.preset.value };
      // A shorter game: the preset's own game end, with the limit typed in.
      if (createForm.limit.value !== "") {
        var end = JSON.parse(createForm.preset.selectedOptions[0].getAttribute("data-game-end"));
        Object.keys(end).forEach(function (kind) { end[kind].limit = number("limit"); });
        rules.overrides = { game_end: end };
      }
      var body = {
        name: createForm.elements.namedItem("name").value,
        rules: rules,
        capacity: number("capacity"),
        config: {
          qualification_rounds: number("rounds"), table_min: number("table_min"), table_max: number("table_max"),
          rounds_required: createForm.elements.namedItem("rounds_required").checked,
          seeding: createForm.elements.namedItem("seeded").checked ? "rating" : "random",
          rated: !createForm.elements.namedItem("friendly").checked
        }
      };
      api("POST", "/v1/tournaments", body).then(function (created) {
        window.location.assign("/desk/t/" + created.id);
      }, failed);
    });
  }

  // /desk/accounts: accounts found by the start of their name, each with its roles as
  // boxes; Save replaces them (admins only, as the server decides).
  var accountsForm = document.querySelector("[data-desk-accounts]");
  if (accountsForm) {
    var accountLabels = document.querySelector("[data-accounts-labels]").dataset;
    var granted = JSON.parse(accountLabels.roles);
    var found = document.querySelector("[data-accounts-found]");
    var isAdmin = api("GET", "/v1/accounts/me").then(function (me) { return me.roles.indexOf("admin") >= 0; });
    isAdmin.then(function (yes) { document.querySelector("[data-accounts-not-admin]").hidden = yes; }, failed);
    var row = function (account, admin) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-account", account.username);
      var th = document.createElement("th");
      th.scope = "row";
      th.textContent = account.username;
      tr.appendChild(th);
      var boxes = granted.map(function (role) {
        var td = document.createElement("td");
        var box = document.createElement("input");
        box.type = "checkbox";
        box.value = role;
        box.checked = account.roles.indexOf(role) >= 0;
        box.disabled = !admin;
        box.setAttribute("aria-label", role + ": " + account.username);
        td.appendChild(box);
        tr.appendChild(td);
        return box;
      });
      var td = document.createElement("td");
      var save = document.createElement("button");
      save.type = "button";
      save.textContent = accountLabels.save;
      save.disabled = !admin;
      save.addEventListener("click", function () {
        // The roles not shown here (player) stay as they are.
        var kept = account.roles.filter(function (r) { return granted.indexOf(r) < 0; });
        var chosen = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
        api("PUT", "/v1/accounts/" + account.id + "/roles", { roles: kept.concat(chosen) })
          .then(function (updated) { account.roles = updated.roles; say(words.done, false); }, failed);
      });
      td.appendChild(save);
      tr.appendChild(td);
      return tr;
    };
    accountsForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var prefix = accountsForm.prefix.value.trim();
      Promise.all([api("GET", "/v1/accounts?prefix=" + encodeURIComponent(prefix)), isAdmin]).then(function (both) {
        var body = found.querySelector("tbody");
        body.textContent = "";
        both[0].accounts.forEach(function (account) { body.appendChild(row(account, both[1])); });
        found.hidden = both[0].accounts.length === 0;
        if (!both[0].accounts.length) { say(accountLabels.none, true); } else { say("", false); }
      }, failed);
    });
  }

  // /desk/seasons: a new season (POST /v1/seasons), then its desk page.
  var seasonForm = document.querySelector("[data-desk-season-create]");
  if (seasonForm && current) {
    // As for a tournament: a season is an organizer's (or an admin's) to create.
    api("GET", "/v1/accounts/me").then(function (me) {
      var may = me.roles.indexOf("organizer") >= 0 || me.roles.indexOf("admin") >= 0;
      seasonForm.closest("section").hidden = !may;
    }, failed);
    seasonForm.addEventListener("submit", function (event) {
      event.preventDefault();
      // "25, 18, 15": the scale as the API takes it, a list of whole numbers. Whether
      // it is a scale the rules accept (never rising, at most 64) is the server's to say.
      var typed = seasonForm.points.value.split(",").map(function (p) { return p.trim(); })
        .filter(function (p) { return p !== ""; });
      if (typed.length === 0 || typed.some(function (p) { return !/^[0-9]+$/.test(p); })) {
        failed(seasonForm.getAttribute("data-not-numbers"));
        return;
      }
      var body = { name: seasonForm.elements.namedItem("name").value, points: typed.map(Number) };
      if (seasonForm.best.value !== "") { body.best = Number(seasonForm.best.value); }
      api("POST", "/v1/seasons", body).then(function (created) {
        window.location.assign("/desk/seasons/" + created.id);
      }, failed);
    });
  }

  // /desk/seasons/{id}: a tournament added or removed (POST /v1/seasons/{id}/commands).
  // A season has no stream to follow, so after a change the page fetches itself and
  // swaps its season part in, as live.js does for a tournament.
  var seasonDesk = document.querySelector("[data-desk-season]");
  if (seasonDesk) {
    var seasonCommands = "/v1/seasons/" + seasonDesk.getAttribute("data-desk-season") + "/commands";
    var seasonChanged = function () {
      return fetch(window.location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          var next = html ? new DOMParser().parseFromString(html, "text/html").querySelector("[data-desk-season]") : null;
          if (next) { seasonDesk.innerHTML = next.innerHTML; }
          say(words.done, false);
        });
    };
    seasonDesk.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-season-command]");
      if (!button) { return; }
      var confirmation = button.getAttribute("data-confirm");
      if (confirmation && !window.confirm(confirmation)) { return; }
      button.disabled = true;
      api("POST", seasonCommands, JSON.parse(button.getAttribute("data-season-command")))
        .then(seasonChanged, function (message) { button.disabled = false; failed(message); });
    });
    seasonDesk.addEventListener("submit", function (event) {
      var form = event.target.closest("form[data-desk-season-add]");
      if (!form) { return; }
      event.preventDefault();
      api("POST", seasonCommands, { command: "add_tournament", tournament: Number(form.tournament.value) })
        .then(seasonChanged, failed);
    });
  }

  var holder = document.querySelector("[data-desk-tournament]");
  var tournament = holder && holder.getAttribute("data-desk-tournament");
  if (!tournament) { return; }
  var base = "/v1/tournaments/" + tournament;

  // Buttons are inside the live part, which is replaced on refresh: listen above it.
  holder.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-command]");
    if (!button) { return; }
    var confirmation = button.getAttribute("data-confirm");
    if (confirmation && !window.confirm(confirmation)) { return; }
    button.disabled = true;
    api("POST", base + "/commands", JSON.parse(button.getAttribute("data-command")))
      .then(changed, failed)
      .then(function () { button.disabled = false; });
  });

  holder.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.hasAttribute("data-desk-draw")) {
      event.preventDefault();
      if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) { return; }
      var paper = form.paper.value.split(/[ ,]+/).filter(Boolean).map(Number);
      api("POST", base + "/draws", { paper_tables: paper }).then(function () { form.reset(); changed(); }, failed);
    } else if (form.hasAttribute("data-desk-redraw")) {
      event.preventDefault();
      var redraw = {
        stage: Number(form.getAttribute("data-stage")),
        round: Number(form.getAttribute("data-round")),
        reason: form.reason.value
      };
      var paperTables = form.paper.value.split(/[ ,]+/).filter(Boolean).map(Number);
      api("POST", base + "/draws", { redraw: redraw, paper_tables: paperTables })
        .then(function () { form.reset(); changed(); }, failed);
    } else if (form.hasAttribute("data-desk-no-show")) {
      event.preventDefault();
      var who = form.player.options[form.player.selectedIndex];
      if (!who || !window.confirm(form.dataset.confirm.replace("{name}", who.textContent))) { return; }
      var at = [form.dataset.stage, form.dataset.round, form.dataset.table].join("/");
      api("POST", base + "/tables/" + at + "/no-show", { player: Number(who.value), reason: form.reason.value })
        .then(function () { form.reset(); changed(); }, failed);
    } else if (form.hasAttribute("data-desk-clock")) {
      event.preventDefault();
      api("POST", base + "/commands", { command: "set_round_clock", minutes: Number(form.minutes.value) })
        .then(function () { form.reset(); changed(); }, failed);
    } else if (form.hasAttribute("data-desk-announce")) {
      event.preventDefault();
      api("POST", base + "/commands", { command: "announce", text: form.elements.namedItem("text").value })
        .then(changed, failed);
    } else if (form.hasAttribute("data-desk-referee")) {
      event.preventDefault();
      var referee = form.username.value.trim();
      api("GET", "/v1/accounts?username=" + encodeURIComponent(referee))
        .then(function (found) {
          if (!found.accounts.length) { return Promise.reject(words.noAccount.replace("{name}", referee)); }
          return api("POST", base + "/commands", { command: "add_referee", referee: found.accounts[0].id });
        })
        .then(function () { form.reset(); changed(); }, failed);
    } else if (form.hasAttribute("data-desk-register")) {
      event.preventDefault();
      var name = form.username.value.trim();
      api("GET", "/v1/accounts?username=" + encodeURIComponent(name))
        .then(function (found) {
          if (!found.accounts.length) {
            return Promise.reject(words.noAccount.replace("{name}", name));
          }
          return api("GET", base).then(function (summary) {
            var started = summary.tournament.current_stage !== null;
            var command = started ? "enter_late" : "register";
            return api("POST", base + "/commands", { command: command, player: found.accounts[0].id });
          });
        })
        .then(function () { form.reset(); changed(); }, failed);
    }
  });

  // A list of players (CSV), from a file or pasted: every row registered (or admitted
  // late) at once, all or nothing. A player the list creates an account for gets a
  // set-up code, shown here once, on a slip to print and hand over.
  var door = document.querySelector("[data-desk-door]");
  if (door) {
    var slips = document.querySelector("[data-desk-slips]");
    var file = door.querySelector("input[type=file]");
    file.addEventListener("change", function () {
      if (!file.files.length) { return; }
      file.files[0].text().then(function (text) { door.list.value = text; });
    });
    door.addEventListener("submit", function (event) {
      event.preventDefault();
      api("POST", base + "/registrations", door.list.value, "text/csv").then(function (answer) {
        var labels = slips.dataset;
        var outcomes = JSON.parse(labels.outcomes);
        var list = slips.querySelector("ol");
        list.textContent = "";
        var coded = 0;
        answer.rows.forEach(function (row) {
          var item = document.createElement("li");
          item.setAttribute("data-slip", row.username);
          var name = document.createElement("strong");
          name.textContent = row.username;
          item.appendChild(name);
          item.appendChild(document.createTextNode(" · " + (outcomes[row.outcome] || row.outcome)));
          if (row.setup_code) {
            coded += 1;
            var link = window.location.origin + "/desk/setup?username=" + encodeURIComponent(row.username) +
              "&code=" + encodeURIComponent(row.setup_code) + "&next=%2Fplay";
            var code = document.createElement("p");
            code.className = "slip-code";
            code.textContent = labels.code + ": " + row.setup_code;
            item.appendChild(code);
            var where = document.createElement("p");
            where.appendChild(document.createTextNode(labels.where + " "));
            var a = document.createElement("a");
            a.href = link;
            a.textContent = link;
            where.appendChild(a);
            item.appendChild(where);
            var qr = document.createElement("img");
            qr.className = "qr";
            qr.src = "/qr.svg?text=" + encodeURIComponent(link);
            qr.alt = labels.qr;
            qr.width = 120;
            qr.height = 120;
            item.appendChild(qr);
          }
          list.appendChild(item);
        });
        slips.querySelector("[data-desk-slips-note]").hidden = coded === 0;
        slips.hidden = false;
        door.reset();
        changed();
      }, failed);
    });
    slips.querySelector("[data-slips-print]").addEventListener("click", function () {
      document.body.classList.add("print-slips");
      window.print();
      document.body.classList.remove("print-slips");
    });
    // Printed and handed out: the codes leave the screen (they are shown this once).
    slips.querySelector("[data-slips-done]").addEventListener("click", function () {
      if (!window.confirm(slips.getAttribute("data-done-confirm"))) { return; }
      slips.querySelector("ol").textContent = "";
      slips.hidden = true;
    });
  }

  // The search filters the list as one types (the list is also filtered by ?q=).
  var filter = document.querySelector("[data-desk-filter]");
  var apply = function () {
    if (!filter) { return; }
    var q = filter.value.trim().toLowerCase();
    var rows = document.querySelectorAll("[data-desk-players] tbody tr");
    for (var i = 0; i < rows.length; i++) {
      rows[i].hidden = q !== "" && rows[i].getAttribute("data-name").indexOf(q) < 0;
    }
  };
  if (filter) { filter.addEventListener("input", apply); }
  document.addEventListener("yaniv:updated", apply);
})();
