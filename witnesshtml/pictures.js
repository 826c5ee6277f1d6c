// The pictures of the witness kinds whose trace is about time: the
// history walk (relays, store, cursor and pages per step on a created_at
// axis) and the full-state load (the relay's events against each REQ's
// window). page.js calls them; nothing here runs on its own.
var witnessPictures = (function () {
  "use strict";
  var svgNS = "http://www.w3.org/2000/svg";
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs, text) {
    var e = document.createElementNS(svgNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function has(list, t) { return list.indexOf(t) >= 0; }

  // --- the history walk ---------------------------------------------------
  var cellW = 30, laneH = 20, labelW = 56;

  function tx(t) { return labelW + (t - 0.5) * cellW; }

  // The walk draws slots (one wrap each) left to right, but the cursor and
  // the pages' windows are created_at seconds, and with ticks several
  // slots share one second. dates[t] is slot t's second (the identity when
  // the trace gives none); first and last map a second back to the slots.
  var dates = [];
  function dateOf(t) { return dates[t] !== undefined ? dates[t] : t; }
  function firstSlot(sec, maxT) {
    for (var t = 1; t <= maxT; t++) if (dateOf(t) >= sec) return t;
    return maxT + 0.5;
  }
  function lastSlot(sec, maxT) {
    for (var t = maxT; t >= 1; t--) if (dateOf(t) <= sec) return t;
    return 0.5;
  }
  // ties lists the seconds two or more slots share: [second, first, last].
  function ties(maxT) {
    var out = [];
    for (var t = 1; t <= maxT; t++) {
      var u = t;
      while (u + 1 <= maxT && dateOf(u + 1) === dateOf(t)) u++;
      if (u > t) out.push([dateOf(t), t, u]);
      t = u;
    }
    return out;
  }
  function slotList(a, b) {
    var l = [];
    for (var t = a; t <= b; t++) l.push(t);
    return l.length === 2 ? l.join(" and ") : l.slice(0, -1).join(", ") + " and " + l[l.length - 1];
  }

  // walkAxis is the header: each slot's number, and when slots share a
  // second, a row of created_at with a bracket over each shared second.
  function walkAxis(maxT) {
    var tied = ties(maxT);
    var g = svg("svg", { width: labelW + maxT * cellW + 4, height: tied.length ? 40 : 18, "class": "walk-axis" });
    g.appendChild(svg("text", { x: 2, y: 13 }, "wrap"));
    for (var t = 1; t <= maxT; t++) g.appendChild(svg("text", { x: tx(t), y: 13, "text-anchor": "middle" }, String(t)));
    if (tied.length) {
      g.appendChild(svg("text", { x: 2, y: 34 }, "second"));
      for (var u = 1; u <= maxT; u++) g.appendChild(svg("text", { x: tx(u), y: 34, "text-anchor": "middle" }, String(dateOf(u))));
      tied.forEach(function (d) {
        var x0 = tx(d[1]) - cellW / 2 + 2, x1 = tx(d[2]) + cellW / 2 - 2;
        g.appendChild(svg("path", { d: "M" + x0 + ",20 L" + x0 + ",17 L" + x1 + ",17 L" + x1 + ",20", fill: "none", stroke: "#a50", "stroke-width": 2, "class": "same-second" }));
      });
    }
    return g;
  }

  // missingAt says why the store lacks a wrap some relay holds: "hole"
  // when the store holds a newer wrap at or above the cursor's oldest (the
  // walk passed over it: no newest page will ask for it again), "behind"
  // below oldest or with no cursor yet (the older pass may still fetch it),
  // "ahead" newer than everything stored (the next newest page asks for
  // it); "" when stored, pending, or held by no relay where addressable.
  function missingAt(s, t) {
    if (has(s.store, t)) return "";
    var held = false;
    s.relays.forEach(function (r) { held = held || has(r, t); });
    if (!held || (t === 1 && s.sealed)) return "";
    var d = dateOf(t);
    if (s.pending && d >= s.pending[0] && (s.pending[1] < 0 || d <= s.pending[1])) return "";
    if (s.oldest < 0 || d < s.oldest) return "behind";
    // Within the cursor's [oldest, newest] the cursor counts the second as
    // walked; a wrap missing there (one sharing a stored wrap's second
    // too) is a hole, as is one below a newer stored wrap.
    var newer = s.newest >= 0 && d <= s.newest;
    s.store.forEach(function (x) { newer = newer || x > t; });
    return newer ? "hole" : "ahead";
  }

  // walkState draws one state: a lane per relay and the store, the
  // cursor's bracket over the store, and the pages the round asked.
  function walkState(s, maxT) {
    var pages = s.pages || [];
    var lanes = s.relays.length + 1;
    var h = lanes * laneH + pages.length * laneH + 6;
    var width = labelW + maxT * cellW + 4;
    var g = svg("svg", { width: width, height: h, "class": "walk-state" });
    function lane(row, name, fill) {
      var y = row * laneH;
      g.appendChild(svg("text", { x: 2, y: y + 14 }, name));
      for (var t = 1; t <= maxT; t++) {
        var f = fill(t);
        var attrs = { x: tx(t) - cellW / 2 + 3, y: y + 3, width: cellW - 6, height: laneH - 6, rx: 3,
          fill: f.fill, stroke: f.stroke || "#ccc", "class": f.cls || "slot" };
        if (f.dash) attrs["stroke-dasharray"] = "3 2";
        g.appendChild(svg("rect", attrs));
      }
    }
    s.relays.forEach(function (held, r) {
      lane(r, "relay" + r, function (t) {
        if (!has(held, t)) return { fill: "#fff" };
        if (t === 1 && s.sealed) return { fill: "#bbb", cls: "held sealed" };
        return { fill: "#5b8def", stroke: "#36c", cls: "held" };
      });
    });
    var storeRow = s.relays.length;
    lane(storeRow, "store", function (t) {
      if (has(s.store, t)) return { fill: "#3a3", stroke: "#070", cls: "stored" };
      switch (missingAt(s, t)) {
        case "hole": return { fill: "#f44", stroke: "#a00", cls: "hole" };
        case "behind": return { fill: "#fff", stroke: "#888", dash: true, cls: "behind" };
        case "ahead": return { fill: "#e8f5e8", stroke: "#3a3", dash: true, cls: "ahead" };
      }
      return { fill: "#fff" };
    });
    // The cursor's [oldest, newest] as a bracket over the store row.
    if (s.oldest >= 0 && s.newest >= 0) {
      var y = storeRow * laneH + 1, x0 = tx(firstSlot(s.oldest, maxT)) - cellW / 2 + 1, x1 = tx(lastSlot(s.newest, maxT)) + cellW / 2 - 1;
      g.appendChild(svg("path", { d: "M" + x0 + "," + (y + 6) + " L" + x0 + "," + y + " L" + x1 + "," + y + " L" + x1 + "," + (y + 6),
        fill: "none", stroke: "#000", "stroke-width": 2, "class": "cursor" }));
      if (s.exhausted) g.appendChild(svg("line", { x1: x0, y1: y - 1, x2: x0, y2: y + laneH - 2, stroke: "#000", "stroke-width": 4, "class": "exhausted" }));
    }
    if (s.pending) {
      var py = storeRow * laneH + laneH - 1;
      var p0 = s.pending[0] < 0 ? labelW : tx(firstSlot(s.pending[0], maxT)) - cellW / 2, p1 = s.pending[1] < 0 ? width - 4 : tx(lastSlot(s.pending[1], maxT)) + cellW / 2;
      g.appendChild(svg("line", { x1: p0, y1: py, x2: p1, y2: py, stroke: "#a60", "stroke-width": 2, "stroke-dasharray": "4 2", "class": "pending" }));
    }
    pages.forEach(function (p, k) {
      var y = (lanes + k) * laneH + 6;
      var x0 = p.since < 0 ? labelW : tx(firstSlot(p.since, maxT)) - cellW / 2;
      var x1 = p.until < 0 ? width - 4 : tx(lastSlot(p.until, maxT)) + cellW / 2;
      if (x1 < x0) x1 = x0 + 2;
      g.appendChild(svg("text", { x: 2, y: y + 12, "class": "page-label" }, "page " + (k + 1)));
      g.appendChild(svg("rect", { x: x0, y: y + 3, width: x1 - x0, height: laneH - 8, rx: 4, fill: "#fde9b8", stroke: "#c90",
        "class": "page page-" + p.pass }));
      g.appendChild(svg("text", { x: x0 + 4, y: y + 12, "class": "page-pass" }, p.pass));
    });
    return g;
  }

  function bound(v) { return v < 0 ? "-" : String(v); }

  // walkTable draws a history witness: one row per state, the action, the
  // picture, and the pages and findings in words.
  function walkTable(w, i) {
    var v = w.walk;
    dates = v.dates || [];
    var box = el("div", "walk");
    ties(v.max_t).forEach(function (d) {
      box.appendChild(el("p", "same-second", "wraps " + slotList(d[1], d[2]) + " share one second (created_at " + d[0] +
        "): the cursor and every page's window are seconds, so a bound at " + d[0] + " covers them all"));
    });
    var table = el("table", "steps walk");
    var head = el("tr");
    head.appendChild(el("td", "action", "step"));
    var ax = el("td", "lanes"); ax.appendChild(walkAxis(v.max_t));
    head.appendChild(ax);
    head.appendChild(el("td", "lines", "cursor and pages (seconds), findings"));
    table.appendChild(head);
    v.steps.forEach(function (s) {
      var tr = el("tr", "step" + (s.findings && s.findings.length ? " violating" : ""));
      tr.id = "w" + (i + 1) + "-step-" + s.n;
      var act = el("td", "action", (s.n ? s.n + ". " : "") + s.action);
      tr.appendChild(act);
      var pic = el("td", "lanes"); pic.appendChild(walkState(s, v.max_t));
      tr.appendChild(pic);
      var lines = el("td", "lines");
      var cur = "cursor [oldest " + bound(s.oldest) + ", newest " + bound(s.newest) + "]" + (s.exhausted ? " exhausted" : "") +
        (s.pending ? " pending [" + bound(s.pending[0]) + ", " + bound(s.pending[1]) + "]" : "");
      lines.appendChild(el("code", "cursor-line", cur));
      if (s.modes && s.modes.length) lines.appendChild(el("code", "", "relays: " + s.modes.map(function (m, r) { return "relay" + r + " " + m; }).join(", ")));
      (s.pages || []).forEach(function (p, k) {
        lines.appendChild(el("code", "page-line", "page " + (k + 1) + ": " + p.pass + " [" + bound(p.since) + ", " + bound(p.until) + "] limit " + p.limit +
          " to " + p.relays.map(function (r) { return "relay" + r; }).join(", ")));
      });
      (s.findings || []).forEach(function (f) {
        lines.appendChild(el("code", f.documented ? "finding documented" : "finding live",
          (f.documented ? "documented limitation " : "violation ") + f.invariant + ": " + f.detail));
      });
      tr.appendChild(lines);
      table.appendChild(tr);
    });
    box.appendChild(table);
    return box;
  }

  // --- the full-state load ------------------------------------------------
  // loadAxis draws the relay's events and every REQ's window on one axis of
  // created_at: a dot per stored event (stacked within a second), a band
  // per REQ with the events it delivered, a red ring on a missing event.
  function loadAxis(w) {
    var lo = w.axis[0], hi = w.axis[1];
    var beyond = w.load.some(function (r) { return r.lane === "query" && r.beyond; });
    var left = 130, right = beyond ? 150 : 40, unit = Math.max(24, Math.min(60, 640 / Math.max(1, hi - lo)));
    var width = left + (hi - lo) * unit + right;
    function px(t) { return left + (t - lo) * unit; }
    var stored = w.load.filter(function (r) { return r.lane === "relay" && r.at !== undefined; });
    var reqs = w.load.filter(function (r) { return r.lane === "query" && r.sub; });
    var perSec = {};
    stored.forEach(function (r) { perSec[r.at] = (perSec[r.at] || 0) + 1; });
    var stack = 1;
    for (var k in perSec) stack = Math.max(stack, perSec[k]);
    var relayH = 14 + stack * 14, bandH = 26;
    var h = 22 + relayH + reqs.length * bandH + 8;
    var g = svg("svg", { width: width, height: h, "class": "load-axis" });
    // The axis, a tick per second when they fit, else at the ends.
    g.appendChild(svg("line", { x1: left, y1: 16, x2: width - right, y2: 16, stroke: "#888" }));
    var step = Math.max(1, Math.ceil((hi - lo) / 16));
    for (var t = lo; t <= hi; t += step) {
      g.appendChild(svg("line", { x1: px(t), y1: 12, x2: px(t), y2: h, stroke: "#eee" }));
      g.appendChild(svg("text", { x: px(t), y: 10, "text-anchor": "middle" }, String(t)));
    }
    g.appendChild(svg("text", { x: 2, y: 10 }, "created_at"));
    g.appendChild(svg("text", { x: 2, y: 22 + 14 }, "relay holds"));
    var seen = {};
    stored.forEach(function (r) {
      var n = seen[r.at] = (seen[r.at] || 0) + 1;
      var cy = 22 + n * 14, cx = px(r.at);
      g.appendChild(svg("circle", { cx: cx, cy: cy, r: 5, fill: "#3a3", "class": "held-event" }));
      if (r.missing) g.appendChild(svg("circle", { cx: cx, cy: cy, r: 8, fill: "none", stroke: "#c00", "stroke-width": 2, "class": "missing" }));
      g.appendChild(svg("text", { x: cx + 10, y: cy + 4, "class": "event-label" + (r.missing ? " missing-label" : "") }, r.event + (r.missing ? " (missing)" : "")));
    });
    reqs.forEach(function (q, k) {
      var y = 22 + relayH + k * bandH;
      var x0 = q.since !== undefined ? px(q.since) - unit / 2 + 2 : left;
      var x1 = q.until !== undefined ? px(q.until) + unit / 2 - 2 : width - right;
      g.appendChild(svg("text", { x: 2, y: y + 16, "class": "band-label" }, q.sub + " n=" + q.limit));
      g.appendChild(svg("rect", { x: x0, y: y + 4, width: Math.max(4, x1 - x0), height: bandH - 8, rx: 4, fill: "#dde8fb", stroke: "#36c", "class": "band" }));
      if (q.beyond) g.appendChild(svg("text", { x: x1 + 6, y: y + 16, "class": "band-beyond" }, "\u2192 " + q.beyond + " (open end)"));
      var got = {};
      w.load.forEach(function (r) {
        if (r.lane !== "delivery" || r.sub !== q.sub || r.at === undefined) return;
        var m = got[r.at] = (got[r.at] || 0) + 1;
        g.appendChild(svg("circle", { cx: px(r.at) + (m - 1) * 8 - 4, cy: y + bandH / 2, r: 4, fill: "#36c", "class": "delivered" }));
      });
    });
    var box = el("div", "load-picture");
    box.appendChild(el("h3", "", "the bands against what the relay holds"));
    box.appendChild(g);
    return box;
  }

  return { walkTable: walkTable, loadAxis: loadAxis };
})();
