// Playing cards drawn as inline SVG, for every page that shows cards (the replay
// viewer, the game client). The CSP fetches nothing else and allows no inline style,
// so colours come from classes of the style sheet. Each card carries its name for
// screen readers (aria-label and <title>) and its code (`data-card`).
//
//   YanivCards.card("10H", names)  ->  an <svg> element
//
// `names` is the page's card vocabulary (text.rs, CARD_NAMES): ranks, suits and the
// pattern of a name in the page's language.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

  var svg = function (tag, attributes) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attributes).forEach(function (k) { e.setAttribute(k, attributes[k]); });
    return e;
  };

  // "10H" -> "10 of hearts", in the page's language.
  var name = function (code, names) {
    if (code === "JK") { return names.JK; }
    var rank = code.slice(0, -1);
    var suit = code.slice(-1);
    return names.pattern.replace("{rank}", names[rank] || rank).replace("{suit}", names[suit] || suit);
  };

  // One card as an image: its rank in the corner, its suit in the middle.
  var card = function (code, names) {
    var suit = code === "JK" ? "" : code.slice(-1);
    var red = suit === "H" || suit === "D" || code === "JK";
    var image = svg("svg", {
      "class": "playing-card" + (red ? " red" : ""), viewBox: "0 0 40 56",
      role: "img", "aria-label": name(code, names), "data-card": code
    });
    image.appendChild(svg("title", {})).textContent = name(code, names);
    image.appendChild(svg("rect", { "class": "face", x: "1", y: "1", width: "38", height: "54", rx: "4" }));
    var text = function (attributes, content) {
      image.appendChild(svg("text", attributes)).textContent = content;
    };
    if (code === "JK") {
      text({ x: "20", y: "33", "font-size": "10", "text-anchor": "middle" }, "JOKER");
    } else {
      text({ x: "4", y: "15", "font-size": "13", "text-anchor": "start" }, code.slice(0, -1));
      text({ x: "20", y: "44", "font-size": "22", "text-anchor": "middle" }, SUITS[suit] || suit);
    }
    return image;
  };

  window.YanivCards = { card: card, name: name };
})();
