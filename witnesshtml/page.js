// Builds the witness view from the embedded data: nothing is fetched.
(function () {
  "use strict";
  var page = JSON.parse(document.getElementById("witness-data").textContent);
  var main = document.getElementById("witnesses");
  var jump = document.getElementById("jump");
  var svgNS = "http://www.w3.org/2000/svg";
  var laneW = 70, rowH = 34;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // longIDs writes text into a code element with every run longer than
  // longRun characters (an id, a key, a hex blob) shortened to its ends
  // inside a details element whose body holds it whole and wraps: a long
  // id neither runs off the page nor is lost.
  var longRun = 40;
  function codeLine(cls, text) {
    var c = el("code", cls);
    var re = new RegExp("\\S{" + (longRun + 1) + ",}", "g"), at = 0, m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > at) c.appendChild(document.createTextNode(text.slice(at, m.index)));
      var d = el("details", "long-id");
      d.appendChild(el("summary", "", m[0].slice(0, 16) + "\u2026" + m[0].slice(-8) + " (" + m[0].length + " chars)"));
      d.appendChild(el("span", "full-id", m[0]));
      c.appendChild(d);
      at = m.index + m[0].length;
    }
    if (at < text.length || at === 0) c.appendChild(document.createTextNode(text.slice(at)));
    return c;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(svgNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function x(d) { return laneW / 2 + d * laneW; }

  // lanes draws one step's row: the device lanes, and the step as a dot
  // (local action), a dot with arrows to every peer (publication), or an
  // arrow between two lanes (delivery, duplicate; a drop is dashed).
  function lanes(w, s, marker) {
    var width = Math.max(1, w.devices) * laneW;
    var g = svg("svg", { width: width, height: rowH, "class": "lane-row" });
    for (var d = 0; d < w.devices; d++) {
      g.appendChild(svg("line", { x1: x(d), y1: 0, x2: x(d), y2: rowH, stroke: "#bbb" }));
    }
    var y = rowH / 2;
    if (s.kind === "local" && s.device >= 0) {
      g.appendChild(svg("circle", { cx: x(s.device), cy: y, r: 6, fill: "#36c", "class": "act" }));
    } else if (s.kind === "publish") {
      g.appendChild(svg("circle", { cx: x(s.device), cy: y, r: 6, fill: "#090", "class": "publication" }));
      for (var p = 0; p < w.devices; p++) {
        if (p === s.device) continue;
        g.appendChild(svg("line", { x1: x(s.device), y1: y, x2: x(p), y2: y + 10, stroke: "#090", "stroke-dasharray": "2 3", "marker-end": "url(#" + marker + ")" }));
      }
    } else if (s.from >= 0 && s.to >= 0) {
      var a = svg("line", { x1: x(s.from), y1: 6, x2: x(s.to), y2: rowH - 6, stroke: s.kind === "drop" ? "#999" : "#c60",
        "marker-end": "url(#" + marker + ")", "class": "delivery" });
      if (s.kind === "drop") a.setAttribute("stroke-dasharray", "4 3");
      g.appendChild(a);
    }
    return g;
  }

  function arrowDefs(id) {
    var s = svg("svg", { width: 0, height: 0 });
    var defs = svg("defs", {});
    var m = svg("marker", { id: id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" });
    m.appendChild(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#c60" }));
    defs.appendChild(m);
    s.appendChild(defs);
    return s;
  }

  function header(w) {
    var width = Math.max(1, w.devices) * laneW;
    var g = svg("svg", { width: width, height: 18 });
    for (var d = 0; d < w.devices; d++) {
      var t = svg("text", { x: x(d), y: 13, "text-anchor": "middle" });
      t.textContent = "d" + d;
      g.appendChild(t);
    }
    return g;
  }

  // loadLanes draws one row of a load scenario on two lanes, the client
  // and the relay: a query is an arrow to the relay, a delivery one back,
  // a stored event a dot on the relay, the verdict a dot on the client.
  var loadNames = ["client", "relay"];
  function loadLanes(r, marker) {
    var g = svg("svg", { width: 2 * laneW, height: rowH, "class": "lane-row" });
    for (var d = 0; d < 2; d++) {
      g.appendChild(svg("line", { x1: x(d), y1: 0, x2: x(d), y2: rowH, stroke: "#bbb" }));
    }
    var y = rowH / 2;
    if (r.lane === "query") {
      g.appendChild(svg("line", { x1: x(0), y1: 6, x2: x(1), y2: rowH - 6, stroke: "#36c", "marker-end": "url(#" + marker + ")", "class": "query" }));
    } else if (r.lane === "delivery") {
      g.appendChild(svg("line", { x1: x(1), y1: 6, x2: x(0), y2: rowH - 6, stroke: "#c60", "marker-end": "url(#" + marker + ")", "class": "delivery" }));
    } else if (r.lane === "relay") {
      g.appendChild(svg("circle", { cx: x(1), cy: y, r: 5, fill: "#090", "class": "stored" }));
    } else if (r.lane === "verdict") {
      g.appendChild(svg("circle", { cx: x(0), cy: y, r: 7, fill: r.violation ? "#c00" : "#36c", "class": "verdict" }));
    }
    return g;
  }

  function loadTable(w, i, marker) {
    var table = el("table", "steps load");
    var head = el("tr");
    var h0 = el("td", "lanes");
    var hs = svg("svg", { width: 2 * laneW, height: 18 });
    loadNames.forEach(function (n, d) {
      var t = svg("text", { x: x(d), y: 13, "text-anchor": "middle" });
      t.textContent = n;
      hs.appendChild(t);
    });
    h0.appendChild(hs);
    head.appendChild(h0); head.appendChild(el("td", "action", "#")); head.appendChild(el("td", "lines", "relay, queries and deliveries"));
    table.appendChild(head);
    w.load.forEach(function (r) {
      var tr = el("tr", r.lane === "phase" ? "phase" : "step" + (r.violation ? " violating" : ""));
      tr.id = "w" + (i + 1) + "-row-" + r.index;
      if (r.lane === "phase") {
        var td = el("td", "phase", r.text);
        td.colSpan = 3;
        tr.appendChild(td);
      } else {
        var l = el("td", "lanes"); l.appendChild(loadLanes(r, marker));
        tr.appendChild(l);
        tr.appendChild(el("td", "action num", String(r.n)));
        var c = el("td", "lines");
        c.appendChild(codeLine(r.lane, r.text));
        tr.appendChild(c);
      }
      table.appendChild(tr);
    });
    return table;
  }

  // pointTable lays out a directed witness's point: the check and its run,
  // then each parameter.
  function pointTable(fields, cls) {
    var table = el("table", cls);
    fields.forEach(function (f) {
      var tr = el("tr");
      tr.appendChild(el("th", "", f.name));
      tr.appendChild(el("td", "", f.value));
      table.appendChild(tr);
    });
    return table;
  }

  // verdictBox is the witness's verdict in the command line's words, what
  // was changed from the production rules, and what the replay found: the
  // first thing the witness's section shows.
  function verdictBox(w, i) {
    var v = el("div", "violation " + (w.observed ? "observed" : w.documented ? "documented" : "violated"));
    v.id = "w" + (i + 1) + "-violation";
    v.appendChild(el("h3", "verdict", w.verdict || ("violation: " + w.invariant + " fails")));
    var det = codeLine("", w.detail || "");
    var dp = el("p", "detail"); dp.appendChild(det);
    v.appendChild(dp);
    if (w.harm && w.harm.length) {
      v.appendChild(el("p", "harm-head", "what a user would see:"));
      var hl = el("ul", "harm");
      w.harm.forEach(function (h) { hl.appendChild(el("li", /^where they disagree/.test(h) ? "disagree" : "", h)); });
      v.appendChild(hl);
    }
    (w.load || []).forEach(function (r) {
      if (!r.violation) return;
      var at = el("a", "at-row", "at row " + r.n + ": " + r.text);
      at.href = "#w" + (i + 1) + "-row-" + r.index;
      v.appendChild(at);
    });
    if (w.changed && w.changed.length) {
      v.appendChild(el("p", "changed-head", "what was changed:"));
      var cl = el("ul", "changed");
      w.changed.forEach(function (c) { cl.appendChild(el("li", "", c)); });
      v.appendChild(cl);
    }
    if (w.found && w.found.length) {
      v.appendChild(el("p", "", "the replay found:"));
      var ul = el("ul", "found");
      w.found.forEach(function (f) { ul.appendChild(el("li", "", f)); });
      v.appendChild(ul);
    }
    return v;
  }

  page.witnesses.forEach(function (w, i) {
    // One witness that cannot be drawn says so in its own section and
    // leaves the others drawn: a blank page would hide every witness.
    try {
      drawWitness(w, i);
    } catch (e) {
      var sec = el("section", "witness broken");
      sec.id = "witness-" + (i + 1);
      sec.appendChild(el("h2", "", w.title));
      sec.appendChild(el("p", "draw-error", "this witness could not be drawn: " + e));
      main.appendChild(sec);
      document.body.setAttribute("data-draw-error", String(e));
    }
  });
  document.body.setAttribute("data-rendered", String(page.witnesses.length));

  function drawWitness(w, i) {
    var sec = el("section", "witness kind-" + w.kind);
    sec.id = "witness-" + (i + 1);
    sec.appendChild(el("h2", "", w.title));
    var marker = "arrow-" + (i + 1);
    sec.appendChild(arrowDefs(marker));
    var v = verdictBox(w, i);
    sec.appendChild(v);
    var legend = el("ul", "legend");
    (w.legend || []).forEach(function (l) { legend.appendChild(el("li", "", l)); });
    if (legend.childNodes.length) {
      sec.appendChild(el("h3", "legend-head", "how to read it"));
      sec.appendChild(legend);
    }
    if (w.initial && w.initial.length) {
      var det = el("details", "initial");
      det.appendChild(el("summary", "", "initial state (" + w.initial.length + " lines)"));
      w.initial.forEach(function (l) { det.appendChild(codeLine("", l)); });
      sec.appendChild(det);
    }
    if (w.walk) {
      if (w.budgets && w.budgets.length) {
        sec.appendChild(el("h3", "", "the universe's budgets"));
        sec.appendChild(pointTable(w.budgets, "point budgets"));
      }
      sec.appendChild(witnessPictures.walkTable(w, i));
    } else if (w.load && w.load.length) {
      if (w.axis) sec.appendChild(witnessPictures.loadAxis(w));
      sec.appendChild(loadTable(w, i, marker));
    } else if (w.fields && w.fields.length) {
      sec.appendChild(el("h3", "", "the point"));
      sec.appendChild(pointTable(w.fields, "point"));
    } else {
      sec.appendChild(stepsTable(w, i, marker));
    }
    main.appendChild(sec);
    var a = el("a", "", "jump to " + (w.observed ? "observation " : w.documented ? "documented limitation " : "violation ") + (i + 1) + ": " + w.invariant);
    a.href = "#" + v.id;
    jump.appendChild(a);
  }

  // stepsTable draws an explorer witness: a row per step on the device
  // lanes, the register and verdict changes beside it.
  function stepsTable(w, i, marker) {
    var table = el("table", "steps");
    var head = el("tr");
    var h0 = el("td", "lanes"); if (w.devices) h0.appendChild(header(w));
    head.appendChild(h0); head.appendChild(el("td", "action", "step")); head.appendChild(el("td", "lines", "registers and verdicts after the step"));
    table.appendChild(head);
    (w.steps || []).forEach(function (s) {
      var tr = el("tr", "step");
      tr.id = "w" + (i + 1) + "-step-" + s.n;
      var l = el("td", "lanes"); if (w.devices) l.appendChild(lanes(w, s, marker));
      tr.appendChild(l);
      tr.appendChild(el("td", "action", s.n + ". " + s.action));
      var lines = el("td", "lines");
      (s.lines && s.lines.length ? s.lines : ["(no change)"]).forEach(function (t) {
        lines.appendChild(codeLine(/ live( |$)/.test(t) ? "live" : "", t));
      });
      tr.appendChild(lines);
      table.appendChild(tr);
    });
    return table;
  }
})();
