// Draws each lasso's stem and loop, for every kind alike (the walk's, the
// community's, the network's re-publish lasso and agreement witness): a
// picture before the steps (the stem left to right, one arrow per step,
// then the loop as a ring back to its first state), a heading row before
// each part in the kind's words, the loop's rows marked, and a last row
// saying the loop begins again. A loop of no steps (nothing is enabled
// where the stem ends) is a ring without arrows and a row saying why the
// state stays. It runs after the page's script, which has drawn every
// step as a row; a page without a lasso does not carry it.
(function () {
  "use strict";
  var page = JSON.parse(document.getElementById("witness-data").textContent);
  var svgNS = "http://www.w3.org/2000/svg";
  var gap = 56, pad = 24;
  var colors = { prefix: "#888", approach: "#36c", loop: "#c00" };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(svgNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }

  var drawn = 0;
  page.witnesses.forEach(function (w, i) {
    if (!w.lasso) return;
    var sec = document.getElementById("witness-" + (i + 1));
    // A lasso that cannot be drawn says so in its section; the rows the
    // page's script drew stay.
    try {
      drawLasso(w, i, sec);
      drawn++;
    } catch (e) {
      if (sec) sec.appendChild(el("p", "draw-error", "this lasso could not be drawn: " + e));
      document.body.setAttribute("data-draw-error", String(e));
    }
  });
  document.body.setAttribute("data-lassos-drawn", String(drawn));

  // loopStart names the state the loop begins and ends at.
  function loopStart(l) {
    var k = l.prefix + l.approach;
    return k === 0 ? "the initial state" : "the state after step " + k;
  }

  // partRow is the heading row of a part, in the kind's words.
  function partRow(l, i, part) {
    var h = el("tr", "lasso-part lasso-" + part);
    h.id = "w" + (i + 1) + "-" + part;
    var td = el("td", "", l.heads[part]);
    td.colSpan = 3;
    h.appendChild(td);
    return h;
  }

  function drawLasso(w, i, sec) {
    var table = sec && sec.querySelector("table.steps");
    if (!table) throw new Error("no steps table to mark");
    var l = w.lasso;
    if (w.steps.length !== l.prefix + l.approach + l.loop || (l.loop < 1 && !l.rest)) {
      throw new Error(w.steps.length + " steps for a lasso of " + l.prefix + "+" + l.approach + "+" + l.loop);
    }
    if (!l.heads) throw new Error("a lasso without its parts' headings");
    sec.insertBefore(picture(w, i), table);
    // The page's steps table heads its lines for the explorer's registers;
    // a lasso says what its lines are (the state after each step, or what
    // the step does).
    var head = table.rows[0] && table.rows[0].cells[2];
    if (head) head.textContent = l.lines;
    var prev = "";
    w.steps.forEach(function (s) {
      var tr = document.getElementById("w" + (i + 1) + "-step-" + s.n);
      if (!tr || !colors[s.part]) throw new Error("step " + s.n + " has no row or no part");
      tr.classList.add("lasso-" + s.part);
      if (s.part === prev) return;
      prev = s.part;
      tr.parentNode.insertBefore(partRow(l, i, s.part), tr);
    });
    var back = el("tr", "lasso-back");
    var text = "\u21ba back to " + loopStart(l) + ": the loop begins again" + (l.closes ? " (" + l.closes + ")" : "");
    if (l.loop < 1) {
      // No step to draw as the loop: its heading says why the state stays.
      table.appendChild(partRow(l, i, "loop"));
      text = "\u21ba " + loopStart(l) + " stays as it is for ever: " + l.rest;
    }
    var td = el("td", "", text);
    td.colSpan = 3;
    back.appendChild(td);
    table.appendChild(back);
  }

  // picture draws the states as dots and the steps as arrows: the stem's
  // on a line, the loop's along a ring that starts and ends at the stem's
  // last state. Each arrow's number links to its step's row.
  function picture(w, i) {
    var l = w.lasso, k = l.prefix + l.approach, n = l.loop;
    var r = Math.max(30, n * gap / (2 * Math.PI));
    var cy = r + pad + 8, xk = pad + k * gap, cx = xk + r;
    var width = cx + r + 2 * pad + 60, height = 2 * r + 2 * pad + 40;
    // A loop of no steps is captioned in a sentence, left-aligned.
    if (n === 0) width = Math.max(width, xk + 320);
    var marker = "lasso-arrow-" + (i + 1);
    var g = svg("svg", { width: width, height: height, "class": "lasso-picture" });
    var defs = svg("defs", {});
    var m = svg("marker", { id: marker, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" });
    m.appendChild(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#444" }));
    defs.appendChild(m);
    g.appendChild(defs);
    function label(n, x, y, color) {
      var a = svg("a", { href: "#w" + (i + 1) + "-step-" + n });
      var t = svg("text", { x: x, y: y, "text-anchor": "middle", fill: color, "class": "lasso-step" });
      t.textContent = String(n);
      a.appendChild(t);
      g.appendChild(a);
    }
    function dot(x, y, cls) {
      g.appendChild(svg("circle", { cx: x, cy: y, r: cls === "lasso-start" ? 7 : 4, fill: cls === "lasso-start" ? "#fff" : "#444", stroke: "#444", "stroke-width": 2, "class": cls }));
    }
    for (var j = 1; j <= k; j++) {
      var s = w.steps[j - 1], x0 = pad + (j - 1) * gap, x1 = pad + j * gap;
      g.appendChild(svg("line", { x1: x0 + 5, y1: cy, x2: x1 - 8, y2: cy, stroke: colors[s.part], "stroke-width": 2,
        "marker-end": "url(#" + marker + ")", "class": "lasso-edge lasso-stem" }));
      label(s.n, (x0 + x1) / 2, cy - 8, colors[s.part]);
      dot(x0, cy, "lasso-state");
    }
    function at(theta, rad) { return [cx + rad * Math.cos(theta), cy + rad * Math.sin(theta)]; }
    for (var q = 0; q < n; q++) {
      var step = w.steps[k + q];
      var t0 = Math.PI + q * 2 * Math.PI / n, t1 = t0 + 2 * Math.PI / n, tm = (t0 + t1) / 2;
      var p0 = at(t0, r), pm = at(tm, r), p1 = at(t1 - 0.12, r), lp = at(tm, r + 14);
      g.appendChild(svg("path", { d: "M" + p0[0] + "," + p0[1] + " A" + r + "," + r + " 0 0 1 " + pm[0] + "," + pm[1] + " A" + r + "," + r + " 0 0 1 " + p1[0] + "," + p1[1],
        fill: "none", stroke: colors.loop, "stroke-width": 2, "marker-end": "url(#" + marker + ")", "class": "lasso-edge lasso-loop" }));
      label(step.n, lp[0], lp[1] + 4, colors.loop);
      if (q > 0) dot(p0[0], p0[1], "lasso-state");
    }
    if (n === 0) {
      // Nothing is enabled: the loop is the state staying as it is.
      g.appendChild(svg("circle", { cx: cx, cy: cy, r: r, fill: "none", stroke: colors.loop, "stroke-width": 2,
        "stroke-dasharray": "5 4", "class": "lasso-rest" }));
    }
    dot(xk, cy, "lasso-start");
    var stem = svg("text", { x: pad, y: height - 8, "class": "lasso-caption" });
    stem.textContent = k === 0 ? "no stem: the loop starts at the initial state" :
      "stem: " + k + " step" + (k === 1 ? "" : "s") + " (prefix " + l.prefix + ", approach " + l.approach + ")";
    g.appendChild(stem);
    var ring = svg("text", { x: n === 0 ? xk : cx, y: cy + r + 16, "text-anchor": n === 0 ? "start" : "middle", "class": "lasso-caption" });
    ring.textContent = n === 0 ? "loop: no step is enabled, the state stays for ever" :
      "loop: " + n + (n === 1 ? " step" : " steps") + ", for ever";
    g.appendChild(ring);
    var box = el("div", "lasso-box");
    box.appendChild(el("h3", "", "the lasso: " + k + " step" + (k === 1 ? "" : "s") + " to " + loopStart(l) +
      (n === 0 ? ", where no step is enabled: it stays for ever" : ", then a loop of " + n + " back to it")));
    box.appendChild(g);
    return box;
  }
})();
