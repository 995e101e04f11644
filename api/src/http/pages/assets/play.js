// The reference game client (pages/play): a game played through the public REST API
// from the browser, on top of the desk's log-in (window.YanivDesk) and the shared
// cards (window.YanivCards).
//
// - /play: a new table, POST /v1/tables then join. With one human seat it is started
//   at once (against the bots); with more it waits for the others on its own page.
//   The tables waiting for players are listed from GET /v1/tables?status=open, each
//   with a Join button (POST /v1/tables/{id}/join).
// - /play/tables/{id}: the player's view (GET /v1/tables/{id}/view), refreshed on
//   every message of the table's stream (GET /v1/tables/{id}/stream, read with fetch
//   because EventSource cannot send the bearer token). Before the start: the seats,
//   and Join, Leave and Start as the API allows them. In play: cards are buttons;
//   those in a throw the rules allow are marked; a move is POST .../actions, out of
//   turn too (slap-downs, add-ons, pass, return). At a table with player entropy the
//   player adds 32 bytes from the browser's own generator to each deal's seed.
(function () {
  "use strict";
  // /play: the tables that wait for players, newest first. Tournament tables are
  // seated by their draw, not joined, so they are left out. A table where the player
  // sits already is opened rather than joined.
  var listOpen = function (desk, element, me) {
    var list = document.querySelector("[data-play-open-list]");
    if (!list) { return; }
    var none = document.querySelector("[data-play-open-none]");
    var labels = document.querySelector("[data-play-open] [data-play-labels]").dataset;
    var show = function () {
      return me.then(function (account) {
        return Promise.all([
          desk.api("GET", "/v1/tables?status=open&limit=50"),
          desk.api("GET", "/v1/tables?status=open&limit=100&player=" + account.id)
        ]);
      }).then(function (answers) {
        var mine = answers[1].tables.map(function (t) { return t.id; });
        var tables = answers[0].tables.filter(function (t) { return t.tournament_id === null; });
        list.textContent = "";
        none.hidden = tables.length > 0;
        tables.forEach(function (t) {
          var item = element("li", { "data-open-table": String(t.id) });
          item.appendChild(element("span", {}, labels.table + " #" + t.id + " · " + (JSON.parse(labels.presets)[t.preset] || t.preset) + " · " +
            labels.by + " " + t.created_by_username + " · " + (t.seats - t.free_seats) + "/" + t.seats + " " + labels.seatsTaken));
          if (mine.indexOf(t.id) < 0 && t.free_seats > 0) {
            var join = element("button", { type: "button", "data-join": String(t.id) }, labels.join + " #" + t.id);
            join.addEventListener("click", function () {
              join.disabled = true;
              desk.api("POST", "/v1/tables/" + t.id + "/join")
                .then(function () { window.location.assign("/play/tables/" + t.id); }, function (message) {
                  desk.failed(message);
                  show();
                });
            });
            item.appendChild(join);
          } else {
            item.appendChild(element("a", { href: "/play/tables/" + t.id }, labels.open + " #" + t.id));
          }
          list.appendChild(item);
        });
      }).catch(desk.failed);
    };
    var refresh = document.querySelector("[data-play-open-refresh]");
    if (refresh) { refresh.addEventListener("click", show); }
    show();
  };

  // /play: the tables this account sits at that are open or in play, tournament
  // tables included, each named as its tournament names it.
  var listMine = function (desk, element, me) {
    var list = document.querySelector("[data-play-mine-list]");
    if (!list) { return; }
    var none = document.querySelector("[data-play-mine-none]");
    var labels = document.querySelector("[data-play-mine-labels]").dataset;
    var tournaments = {};
    var tournamentName = function (id) {
      if (!tournaments[id]) {
        tournaments[id] = desk.api("GET", "/v1/tournaments/" + id).then(function (t) { return t.tournament.name; },
          function () { return "#" + id; });
      }
      return tournaments[id];
    };
    me.then(function (account) {
      var mine = function (status) {
        return desk.api("GET", "/v1/tables?status=" + status + "&limit=100&player=" + account.id);
      };
      return Promise.all([mine("playing"), mine("open")]);
    }).then(function (answers) {
      var tables = answers[0].tables.concat(answers[1].tables);
      none.hidden = tables.length > 0;
      return Promise.all(tables.map(function (t) {
        var named = t.tournament_id === null ? Promise.resolve(labels.table + " #" + t.id)
          : Promise.all([tournamentName(t.tournament_id), desk.api("GET", "/v1/tables/" + t.id)])
            .then(function (both) {
              var at = both[1].tournament;
              return both[0] + " · " + labels.table + " " + (at ? at.table.table : "#" + t.id);
            });
        return named.then(function (name) {
          var item = element("li", { "data-my-table": String(t.id) });
          var link = element("a", { href: "/play/tables/" + t.id }, labels.go + ": " + name);
          item.appendChild(link);
          item.appendChild(element("span", {}, " · " + (t.status === "open" ? labels.open : labels.playing)));
          return item;
        });
      }));
    }).then(function (items) {
      list.textContent = "";
      items.forEach(function (item) { list.appendChild(item); });
    }).catch(desk.failed).then(function () {
      // Drawn (or failed): what is below has stopped moving.
      list.closest("section").setAttribute("data-loaded", "true");
    });
  };

  var start = function () {
    var desk = window.YanivDesk;
    if (!desk || document.documentElement.hasAttribute("data-play-ready")) { return; }
    document.documentElement.setAttribute("data-play-ready", "true");

    var element = function (tag, attributes, text) {
      var e = document.createElement(tag);
      Object.keys(attributes || {}).forEach(function (k) { e.setAttribute(k, attributes[k]); });
      if (text !== undefined) { e.textContent = text; }
      return e;
    };
    // Who is logged in: the start of a table is for its creator or an organizer.
    var me = desk.api("GET", "/v1/accounts/me");
    me.catch(function () { /* each use says what failed */ });

    var create = document.querySelector("[data-play-create]");
    if (create) {
      create.addEventListener("submit", function (event) {
        event.preventDefault();
        var humans = Math.max(1, Math.min(8, Number(create.humans.value) || 1));
        var bots = Math.max(0, Math.min(8 - humans, Number(create.bots.value) || 0));
        // The humans take the first seats, in the order they join; the bots the rest.
        var seats = [];
        for (var i = humans; i < humans + bots; i++) { seats.push({ seat: i, kind: "greedy" }); }
        var body = { preset: create.preset.value, seats: humans + bots, bots: seats };
        desk.api("POST", "/v1/tables", body)
          .then(function (table) {
            var page = "/play/tables/" + table.id;
            return desk.api("POST", "/v1/tables/" + table.id + "/join")
              .then(function () {
                // Alone against bots, nobody else is waited for.
                return humans === 1 ? desk.api("POST", "/v1/tables/" + table.id + "/start") : null;
              })
              .then(function () { window.location.assign(page); });
          })
          .catch(desk.failed);
      });
      listMine(desk, element, me);
      listOpen(desk, element, me);
      return;
    }

    var root = document.querySelector("[data-play-table]");
    if (!root) { return; }
    var base = "/v1/tables/" + root.getAttribute("data-play-table");
    var labels = root.querySelector("[data-play-labels]").dataset;
    var names = JSON.parse(labels.cardNames);
    // A bot's stored name ("greedy#2": no username holds a "#") in words.
    var botKinds = JSON.parse(labels.botKinds);
    var shown = function (name) {
      var bot = /^([a-z_]+)#(\d+)$/.exec(name || "");
      return bot ? labels.botName.replace("{n}", bot[2]).replace("{kind}", botKinds[bot[1]] || bot[1]) : name;
    };
    var status = root.querySelector("[data-play-status]");
    var seatsList = root.querySelector("[data-play-seats]");
    var pile = root.querySelector("[data-play-pile]");
    var hand = root.querySelector("[data-play-hand]");
    var actions = root.querySelector("[data-play-actions]");
    var lobby = root.querySelector("[data-play-lobby]");
    var after = root.querySelector("[data-play-after]");
    var lastRound = root.querySelector("[data-play-last-round]");
    var parts = root.querySelectorAll("section:not([data-play-last-round])");
    var account = null;
    var view = null;
    var selected = [];
    var deadline = null;
    // Crazy queens: the card to give and the seat to give it to, kept while the
    // player picks the throw.
    var queen = { give: null, target: null };

    // The same cards, as many of each (a hand may hold two jokers, or two decks' worth).
    var same = function (a, b) {
      return a.length === b.length && a.slice().sort().join() === b.slice().sort().join();
    };
    // `selected` holds positions in the hand, not codes: two cards may share a code.
    var chosen = function () {
      return selected.map(function (i) { return view.hand[i]; });
    };
    var legalThrow = function () {
      var throws = (view && view.legal && view.legal.throws) || [];
      return selected.length > 0 && throws.some(function (t) { return same(t, chosen()); });
    };
    var act = function (action) {
      actions.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      desk.api("POST", base + "/actions", action).then(function () { load(); }, function (message) {
        desk.failed(message);
        // Refused: the table has not moved, so draw it again to give the buttons back.
        render();
      });
    };
    var button = function (label, attributes, onClick, into) {
      var b = element("button", Object.assign({ type: "button" }, attributes || {}), label);
      b.addEventListener("click", onClick);
      (into || actions).appendChild(b);
      return b;
    };
    var cardNames = function (codes) {
      return codes.map(function (code) { return window.YanivCards.name(code, names); }).join(", ");
    };
    // A seat command before the start (join, leave, start): the stream brings the
    // table's new state, the reload after the answer is for a stream that lags.
    var command = function (path, then) {
      lobby.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      desk.api("POST", base + path).then(then || function () { load(); }, function (message) {
        desk.failed(message);
        render();
      });
    };

    // The table before its start: who sits where, and what this account may do.
    var renderLobby = function () {
      var table = view.table;
      var seated = view.seat !== null && view.seat !== undefined;
      var mayStart = account !== null && (table.created_by.account_id === account.id ||
        account.roles.indexOf("organizer") >= 0 || account.roles.indexOf("admin") >= 0);
      seatsList.textContent = "";
      table.seats.forEach(function (s, i) {
        var line = (i + 1) + ". " + (s.kind === "empty" ? labels.freeSeat
          : shown(s.name) + (account !== null && s.account_id === account.id ? " (" + labels.you + ")" : ""));
        seatsList.appendChild(element("li", { "data-seat": String(i), "data-kind": s.kind }, line));
      });
      status.textContent = table.free_seats > 0 ? labels.waitingPlayers + " " + table.free_seats + "."
        : labels.ready;
      if (!mayStart) { status.textContent += " " + labels.creatorStarts + " " + table.created_by.username + "."; }
      lobby.textContent = "";
      lobby.hidden = false;
      if (!seated && table.free_seats > 0) {
        button(labels.join, { "data-lobby": "join" }, function () { command("/join"); }, lobby);
      }
      if (seated) {
        button(labels.leave, { "data-lobby": "leave" }, function () {
          command("/leave", function () { window.location.assign("/play"); });
        }, lobby);
      }
      if (mayStart) {
        var go = button(labels.start, { "data-lobby": "start" }, function () { command("/start"); }, lobby);
        go.disabled = table.free_seats > 0;
      }
    };

    // How the last round ended, fetched once per round that ends: who called, every
    // hand shown, what it added and the totals after it.
    var roundsShown = 0;
    var showLastRound = function (finished) {
      if (finished <= roundsShown) { return; }
      roundsShown = finished;
      desk.api("GET", base + "/rounds").then(function (answer) {
        var ended = answer.rounds[answer.rounds.length - 1];
        if (!ended) { return; }
        var seatName = function (seat) {
          return seat === null || seat === undefined ? "" : shown(view.table.seats[seat].name);
        };
        var outcomes = JSON.parse(labels.outcomes);
        lastRound.querySelector("h2").textContent = labels.lastRound + " (" + labels.round + " " + ended.round + ")";
        lastRound.querySelector("[data-play-last-outcome]").textContent = (outcomes[ended.outcome] || ended.outcome)
          .replace("{caller}", seatName(ended.caller)).replace("{winner}", seatName(ended.winner));
        var list = lastRound.querySelector("[data-play-last-hands]");
        list.textContent = "";
        ended.hands.forEach(function (cards, seat) {
          var item = element("li", { "data-seat": String(seat) });
          item.appendChild(element("strong", {}, seatName(seat) + ": "));
          if (cards === null) {
            item.appendChild(element("span", {}, labels.out));
          } else {
            item.appendChild(element("span", {}, labels.handShown + " "));
            cards.forEach(function (code) { item.appendChild(window.YanivCards.card(code, names)); });
            item.appendChild(element("span", {}, " = " + ended.hand_totals[seat] + " · " + labels.points + " +" +
              ended.points[seat] + " · " + labels.total + " " + ended.totals[seat]));
          }
          list.appendChild(item);
        });
        lastRound.hidden = false;
      }, function () { roundsShown = 0; });
    };

    var showClock = function () {
      var clock = root.querySelector("[data-play-clock]");
      if (!clock) { return; }
      clock.textContent = deadline === null ? "" : " (" + Math.max(0, Math.ceil((deadline - Date.now()) / 1000)) + " s)";
    };
    window.setInterval(showClock, 1000);

    var render = function () {
      var table = view.table;
      // The version shown, for whoever watches the page (and its tests).
      root.setAttribute("data-version", String(table.version));
      root.setAttribute("data-status", table.status);
      var open = table.status === "open";
      parts.forEach(function (part) { part.hidden = open; });
      if (open) { renderLobby(); return; }
      lobby.hidden = true;
      lobby.textContent = "";
      var game = view.game;
      var over = table.status === "finished";
      after.hidden = !over;
      if (game) { showLastRound(over || game.stage === "between_rounds" || game.stage === "finished" ? game.round : game.round - 1); }
      var mine = view.seat;
      var myTurn = !over && game && game.to_act === mine;
      // Who is who, and how they stand.
      seatsList.textContent = "";
      table.seats.forEach(function (s, i) {
        var line = shown(s.name) + (game ? " — " + labels.cards + ": " + game.hand_sizes[i] + " · " + labels.score + ": " + game.totals[i] : "");
        var item = element("li", { "data-seat": String(i) }, line);
        if (game && game.to_act === i && !over) { item.className = "to-act"; }
        seatsList.appendChild(item);
      });
      // The state of play, and the clock of the seat to act.
      var waited = game && table.seats[game.to_act] ? shown(table.seats[game.to_act].name) : "";
      var standings = (table.standings || []).map(function (p) { return p.place + ". " + shown(p.name) + " (" + p.total + ")"; });
      status.textContent = over ? labels.over + " " + standings.join(" · ")
        : view.entropy ? labels.round + " " + view.entropy.round + " · " + labels.contributeNote
        : (game ? labels.round + " " + game.round + " · " : "") + (game && game.reversed ? labels.reversed + " · " : "") +
          (game && game.pinata_aside ? labels.pinataAside + " · " : "") +
          (game && game.stage === "waterfall" ? labels.waterfallGoing + " · " : "") +
          (myTurn && game.stage === "waterfall" ? labels.waterfallYourPick
            : myTurn ? labels.yourTurn : labels.waiting + " " + waited);
      status.appendChild(element("span", { "data-play-clock": "" }));
      deadline = view.clock && typeof view.clock.limit_ms === "number" ? Date.now() + view.clock.limit_ms : null;
      showClock();
      // The pile: the cards that may be taken are the takeable ones. Under Cell
      // Division each throw size has its own pile, shown with its size.
      pile.textContent = "";
      var piles = (game && game.piles) || [];
      if (piles.length > 1) {
        piles.forEach(function (p) {
          var group = element("span", { "class": "pile" + (p.dead ? " dead" : ""), "data-pile": String(p.size) },
            (p.size === 1 ? labels.pileSingles : labels.pileOf + " " + p.size + " " + labels.cards) + (p.dead ? " (" + labels.pileDead + ")" : "") + ": ");
          p.top.forEach(function (code) { group.appendChild(window.YanivCards.card(code, names)); });
          pile.appendChild(group);
        });
      } else {
        ((game && game.top_throw) || []).forEach(function (code) { pile.appendChild(window.YanivCards.card(code, names)); });
      }
      // The hand: each card a toggle; cards of an allowed throw are marked.
      hand.textContent = "";
      var throws = (view.legal && view.legal.throws) || [];
      (view.hand || []).forEach(function (code, index) {
        var playable = myTurn && throws.some(function (t) { return t.indexOf(code) >= 0; });
        var b = element("button", {
          type: "button", "class": "card" + (playable ? " playable" : ""), "data-card": code,
          "data-index": String(index), "aria-pressed": String(selected.indexOf(index) >= 0)
        });
        b.disabled = !playable;
        b.appendChild(window.YanivCards.card(code, names));
        b.addEventListener("click", function () {
          var at = selected.indexOf(index);
          if (at >= 0) { selected.splice(at, 1); } else { selected.push(index); }
          render();
        });
        hand.appendChild(b);
      });
      // The moves the rules allow now.
      actions.textContent = "";
      var legal = view.legal || {};
      if (over) { return; }
      if (legal.contribute) {
        button(labels.contribute, { "data-action": "contribute" }, function () {
          var bytes = new Uint8Array(32);
          window.crypto.getRandomValues(bytes);
          var hex = Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
          act({ type: "contribute", value: hex });
        });
      }
      if (legal["return"]) {
        status.appendChild(element("span", {}, " " + labels.absent));
        button(labels.comeBack, { "data-action": "return" }, function () { act({ type: "return" }); });
      }
      // Out of turn: the card just drawn onto one's own throw, cards onto another's.
      if (legal.slap) {
        var slap = legal.slap;
        // A slapped queen swaps as a thrown one does (Crazy queens): the same choice.
        var slapLeft = view.hand.slice();
        slapLeft.splice(slapLeft.indexOf(slap), 1);
        var slapSwaps = slap.charAt(0) === "Q" && queenChoice(slapLeft, legal.queen_targets || []);
        button(labels.slap + " " + window.YanivCards.name(slap, names), { "data-action": "slap", "data-card": slap }, function () {
          var action = { type: "slap", card: slap };
          if (slapSwaps) { action.queen = { target: queen.target, give: queen.give }; }
          act(action);
        });
      }
      (legal.add_ons || []).forEach(function (cards) {
        button(labels.addOn + " " + cardNames(cards), { "data-action": "add_on", "data-cards": cards.join(" ") }, function () {
          act({ type: "add_on", cards: cards });
        });
      });
      if (legal.pass) {
        button(labels.pass, { "data-action": "pass" }, function () { act({ type: "pass" }); });
      }
      if (legal.go_along) {
        button(labels.goAlong, { "data-action": "go_along" }, function () { act({ type: "go_along", going: true }); });
        button(labels.stayOut, { "data-action": "stay_out" }, function () { act({ type: "go_along", going: false }); });
      }
      if (legal.onderkluft) {
        button(labels.challenge, { "data-action": "challenge" }, function () { act({ type: "onderkluft", challenge: true }); });
        button(labels.noChallenge, { "data-action": "no_challenge" }, function () { act({ type: "onderkluft", challenge: false }); });
      }
      // Waterfall: keep one of the cards passed to you; the rest go on to your left.
      (legal.waterfall_pick || []).forEach(function (code) {
        button(labels.waterfallKeep + " " + window.YanivCards.name(code, names), { "data-action": "waterfall_pick", "data-card": code }, function () {
          act({ type: "waterfall_pick", card: code });
        });
      });
      if (!myTurn || (legal.waterfall_pick || []).length > 0) { return; }
      // Waterfall: at the start of the turn, a straight may be passed to the left.
      (legal.waterfalls || []).forEach(function (cards) {
        button(labels.waterfallPass + " " + cardNames(cards), { "data-action": "waterfall", "data-cards": cards.join(" ") }, function () {
          act({ type: "waterfall", cards: cards });
        });
      });
      // Fifths Disease: before the turn, the five of diamonds may kill a pile.
      (legal.kill_piles || []).forEach(function (size) {
        button(labels.killPile + " " + size + " " + labels.cards, { "data-action": "kill_pile", "data-size": String(size) }, function () {
          act({ type: "kill_pile", size: size });
        });
      });
      var ready = legalThrow();
      var swap = queenSwap(legal);
      var play = function (draw) {
        var action = { type: "play", throw: chosen(), draw: draw };
        if (swap) { action.queen = { target: queen.target, give: queen.give }; }
        act(action);
      };
      var stock = button(labels.throwStock, { "data-action": "throw-stock" }, function () {
        play("stock");
      });
      stock.disabled = !ready || !legal.draw_from_stock;
      // Cell Division: what may be drawn depends on how many cards are thrown.
      var takes = legal.draw_from_discard || [];
      if ((legal.discard_draws || []).length > 0) {
        var size = chosen().length;
        var forSize = legal.discard_draws.filter(function (d) { return d.size === size; })[0];
        takes = forSize ? forSize.cards : [];
      }
      takes.forEach(function (code) {
        var take = button(labels.throwTake + " " + window.YanivCards.name(code, names), { "data-action": "throw-take", "data-take": code }, function () {
          play({ discard: code });
        });
        take.disabled = !ready || chosen().indexOf(code) >= 0;
      });
      // A call above the threshold is accepted but penalised (Belgian): asked first.
      var call = button(labels.call, { "data-action": "call" }, function () {
        if (legal.call_penalised && !window.confirm(labels.callPenalised)) { return; }
        act({ type: "call" });
      });
      call.disabled = !legal.call;
    };

    // Crazy queens: when the throw chosen holds a queen and leaves cards, the player
    // picks which card to give and to whom (the seats the rules list); the server
    // then takes one of that player's cards for them, blindly.
    var queenSwap = function (legal) {
      var targets = legal.queen_targets || [];
      var thrown = chosen();
      var left = view.hand.filter(function (_, i) { return selected.indexOf(i) < 0; });
      var hasQueen = thrown.some(function (code) { return code.charAt(0) === "Q"; });
      if (!legalThrow() || !hasQueen) { return false; }
      return queenChoice(left, targets);
    };

    // The card to give of `left` and the seat of `targets` to give it to, as a box of
    // two choices; false when there is nothing to choose.
    var queenChoice = function (left, targets) {
      if (targets.length === 0 || left.length === 0) { return false; }
      if (left.indexOf(queen.give) < 0) { queen.give = left[0]; }
      if (targets.indexOf(queen.target) < 0) { queen.target = targets[0]; }
      var box = element("span", { "class": "queen", "data-queen": "" });
      box.appendChild(element("span", {}, labels.queenGive + " "));
      var give = element("select", { "data-queen-give": "", "aria-label": labels.queenGive });
      left.forEach(function (code) {
        var option = element("option", { value: code }, window.YanivCards.name(code, names));
        option.selected = code === queen.give;
        give.appendChild(option);
      });
      give.addEventListener("change", function () { queen.give = give.value; });
      box.appendChild(give);
      box.appendChild(element("span", {}, " " + labels.queenTo + " "));
      var to = element("select", { "data-queen-target": "", "aria-label": labels.queenTo });
      targets.forEach(function (seat) {
        var option = element("option", { value: String(seat) }, shown(view.table.seats[seat].name));
        option.selected = seat === queen.target;
        to.appendChild(option);
      });
      to.addEventListener("change", function () { queen.target = Number(to.value); });
      box.appendChild(to);
      box.appendChild(element("span", {}, " " + labels.queenNote));
      actions.appendChild(box);
      return true;
    };

    var load = function () {
      return desk.api("GET", base + "/view").then(function (v) {
        // The same version is the same table: drawing it again would only take the
        // button from under a click in progress. An older one is an answer that was
        // overtaken on the way (two loads in flight): showing it would leave the page
        // behind the table until its next move. A new version is a new hand: the
        // positions chosen before mean nothing in it.
        if (view && v.table.version <= view.table.version) { return; }
        selected = [];
        queen = { give: null, target: null };
        view = v;
        render();
      }, desk.failed);
    };

    // The table's stream, read as text: each message that moves the table reloads the
    // view (a refused or lost stream falls back to a reload every few seconds).
    var pending = null;
    var soon = function () { if (pending === null) { pending = window.setTimeout(function () { pending = null; load(); }, 50); } };
    var follow = function () {
      var token = JSON.parse(window.sessionStorage.getItem("yaniv.desk") || "null");
      if (!token || !window.fetch || !window.TextDecoder) { window.setInterval(load, 3000); return; }
      fetch(base + "/stream", { headers: { Authorization: "Bearer " + token.token, Accept: "text/event-stream" } })
        .then(function (response) {
          if (!response.ok || !response.body) { throw new Error(String(response.status)); }
          document.documentElement.setAttribute("data-following", "true");
          var reader = response.body.getReader();
          var decoder = new TextDecoder();
          var buffer = "";
          var read = function () {
            return reader.read().then(function (chunk) {
              if (chunk.done) { throw new Error("closed"); }
              buffer += decoder.decode(chunk.value, { stream: true });
              var end;
              while ((end = buffer.indexOf("\n\n")) >= 0) {
                var message = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                if (/^event: (event|view)$/m.test(message)) { soon(); }
              }
              return read();
            });
          };
          return read();
        })
        .catch(function () {
          document.documentElement.removeAttribute("data-following");
          window.setTimeout(follow, 2000);
        });
    };
    me.then(function (a) { account = a; }, desk.failed).then(load).then(follow);
  };
  if (window.YanivDesk) { start(); } else { document.addEventListener("yaniv:desk-ready", start); }
})();
