
(function () {
  "use strict";
  var SEVERITIES = ["critical", "high", "medium", "low", "info"];
  function byId(id) { return document.getElementById(id); }
  function each(list, fn) { Array.prototype.forEach.call(list, fn); }
  // pl is "1 event" or "3 events".
  function pl(n, one, many) { return n + " " + (n === 1 ? one : many); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function readJSON(id, fallback) {
    var node = byId(id);
    if (!node) { return fallback; }
    try { return JSON.parse(node.textContent) || fallback; } catch (e) { return fallback; }
  }

  // URL state: #sev=critical,high&ns=shop&node=worker-1&q=oom&pod=shop/web-1,
  // and the timelines' from=...&to=...&tnode=worker-1
  // (also read from ?query). "filter" is a severity list or a search text.
  function readState() {
    var out = {}, parts = [];
    [location.search.replace(/^\?/, ""), location.hash.replace(/^#/, "")].forEach(function (s) {
      if (s.indexOf("=") >= 0) { parts = parts.concat(s.split("&")); }
    });
    parts.forEach(function (p) {
      var i = p.indexOf("=");
      if (i <= 0) { return; }
      var k = p.slice(0, i), v = p.slice(i + 1);
      try { v = decodeURIComponent(v.replace(/\+/g, " ")); } catch (e) { return; }
      out[k] = v;
    });
    if (out.filter !== undefined) {
      var words = out.filter.toLowerCase().split(",");
      if (words.every(function (w) { return SEVERITIES.indexOf(w) >= 0; })) { out.sev = out.filter.toLowerCase(); } else { out.q = out.filter; }
    }
    return out;
  }
  function writeState(state) {
    var keys = ["sev", "ns", "node", "q", "from", "to", "tnode", "pod"], parts = [];
    keys.forEach(function (k) { if (state[k]) { parts.push(k + "=" + encodeURIComponent(state[k])); } });
    var hash = parts.length ? "#" + parts.join("&") : "";
    if (location.hash === hash || (hash === "" && location.hash === "")) { return; }
    try { history.replaceState(null, "", hash || location.pathname + location.search); } catch (e) { /* file: URLs in some browsers */ }
  }
  var urlState = {};

  var findingsUI = null;
  function setupFindings() {
    var bar = byId("finding-controls");
    if (!bar) { return; }
    var findings = document.querySelectorAll("details.finding");
    var ns = byId("finding-ns"), node = byId("finding-node"), q = byId("finding-q"), shown = byId("finding-shown");
    var section = byId("findings");
    var sevButtons = bar.querySelectorAll("button[data-sev]");
    function hiddenSev() {
      var h = {};
      each(sevButtons, function (b) { h[b.getAttribute("data-sev")] = b.getAttribute("aria-pressed") !== "true"; });
      return h;
    }
    function apply(save) {
      var want = ns.value, wantNode = node.value, text = q.value.trim().toLowerCase(), n = 0, hide = hiddenSev();
      each(findings, function (f) {
        var ok = !hide[f.getAttribute("data-sev")] &&
          (want === "" || f.getAttribute("data-ns").split("\n").indexOf(want) >= 0) &&
          (wantNode === "" || f.getAttribute("data-node").split("\n").indexOf(wantNode) >= 0) &&
          (text === "" || f.textContent.toLowerCase().indexOf(text) >= 0);
        f.hidden = !ok;
        if (ok) { n++; }
      });
      shown.textContent = n + " of " + pl(findings.length, "finding", "findings") + " shown";
      var on = [];
      each(sevButtons, function (b) { if (b.getAttribute("aria-pressed") === "true") { on.push(b.getAttribute("data-sev")); } });
      var sev = on.length === sevButtons.length ? "" : on.join(",");
      section.setAttribute("data-shown", String(n));
      section.setAttribute("data-filter", ["sev=" + sev, "ns=" + want, "node=" + wantNode, "q=" + text].join("&"));
      if (save) {
        urlState.sev = sev; urlState.ns = want; urlState.node = wantNode; urlState.q = q.value.trim();
        writeState(urlState);
      }
    }
    function setFrom(state) {
      var sev = state.sev ? state.sev.toLowerCase().split(",") : null;
      each(sevButtons, function (b) {
        b.setAttribute("aria-pressed", !sev || sev.indexOf(b.getAttribute("data-sev")) >= 0 ? "true" : "false");
      });
      ns.value = state.ns || "";
      if (ns.value !== (state.ns || "")) { ns.value = ""; }
      node.value = state.node || "";
      if (node.value !== (state.node || "")) { node.value = ""; }
      q.value = state.q || "";
      apply(false);
    }
    each(sevButtons, function (b) {
      b.addEventListener("click", function () {
        b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true");
        apply(true);
      });
    });
    ns.addEventListener("change", function () { apply(true); });
    node.addEventListener("change", function () { apply(true); });
    q.addEventListener("input", function () { apply(true); });
    byId("finding-open").addEventListener("click", function () { each(findings, function (f) { f.open = true; }); });
    byId("finding-close").addEventListener("click", function () { each(findings, function (f) { f.open = false; }); });
    bar.hidden = false;
    findingsUI = { setFrom: setFrom };
    apply(false);
  }

  // The Timelines section: rows outside the time window and timelines of
  // other nodes are hidden. A time without a zone is read as UTC.
  var timelinesUI = null;
  function parseWhen(v) {
    v = v.trim().replace(" ", "T");
    if (v === "") { return null; }
    if (/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(v)) { v += v.indexOf("T") < 0 ? "T00:00:00Z" : "Z"; }
    var t = Date.parse(v);
    return isNaN(t) ? NaN : t;
  }
  function setupTimelines() {
    var bar = byId("timeline-controls");
    if (!bar) { return; }
    var from = byId("tl-from"), to = byId("tl-to"), node = byId("tl-node"), shown = byId("tl-shown"), section = byId("timelines");
    var subjects = document.querySelectorAll("details.timeline");
    function bound(input) {
      var t = parseWhen(input.value);
      if (t !== null && isNaN(t)) { input.setAttribute("aria-invalid", "true"); return null; }
      input.removeAttribute("aria-invalid");
      return t;
    }
    function apply(save) {
      var lo = bound(from), hi = bound(to), want = node.value, rowsShown = 0, subjectsShown = 0;
      each(subjects, function (s) {
        var n = 0, nodeOK = want === "" || s.getAttribute("data-node") === want;
        each(s.querySelectorAll("tbody tr"), function (tr) {
          var t = Date.parse(tr.getAttribute("data-t")), t2 = Date.parse(tr.getAttribute("data-t2") || "");
          if (isNaN(t2)) { t2 = t; }
          var ok = nodeOK && (lo === null || t2 >= lo) && (hi === null || t <= hi);
          tr.hidden = !ok;
          if (ok) { n++; }
        });
        s.hidden = !nodeOK || n === 0;
        var c = s.querySelector(".tl-count");
        if (c) { c.textContent = pl(n, "entry", "entries"); }
        if (!s.hidden) { subjectsShown++; rowsShown += n; }
      });
      shown.textContent = pl(subjectsShown, "timeline", "timelines") + ", " + pl(rowsShown, "entry", "entries") + " shown";
      section.setAttribute("data-shown", String(rowsShown));
      section.setAttribute("data-subjects", String(subjectsShown));
      if (save) {
        urlState.from = from.value.trim(); urlState.to = to.value.trim(); urlState.tnode = want;
        writeState(urlState);
      }
    }
    function setFrom(state) {
      from.value = state.from !== undefined ? state.from : from.defaultValue;
      to.value = state.to !== undefined ? state.to : to.defaultValue;
      node.value = state.tnode || "";
      if (node.value !== (state.tnode || "")) { node.value = ""; }
      apply(false);
    }
    from.addEventListener("input", function () { apply(true); });
    to.addEventListener("input", function () { apply(true); });
    node.addEventListener("change", function () { apply(true); });
    byId("tl-clear").addEventListener("click", function () { from.value = ""; to.value = ""; node.value = ""; apply(true); });
    bar.hidden = false;
    timelinesUI = { setFrom: setFrom };
    apply(false);
  }

  function ageSeconds(s) {
    var units = { s: 1, m: 60, h: 3600, d: 86400, y: 31536000 }, total = 0, num = "", found = false;
    for (var i = 0; i < s.length; i++) {
      var c = s.charAt(i);
      if (c >= "0" && c <= "9") { num += c; continue; }
      if (units[c] && num !== "") { total += parseInt(num, 10) * units[c]; found = true; }
      num = "";
    }
    return found ? total : -1;
  }

  var rows = readJSON("pod-data", []);
  var details = readJSON("pod-detail-data", []);
  var detailIndex = {};
  details.forEach(function (d, i) { detailIndex[d.key] = i; });
  var rowIndex = {};
  rows.forEach(function (r, i) { var k = r[0] + "/" + r[1]; if (rowIndex[k] === undefined) { rowIndex[k] = i; } });

  function setupPods() {
    var table = byId("pod-table");
    if (!table) { return; }
    var pageSize = parseInt(table.getAttribute("data-page-size"), 10) || 200;
    var items = rows.map(function (r, i) {
      return { r: r, i: i, bad: r[8] === "1", text: r.slice(0, 8).join("\n").toLowerCase(),
        restarts: parseInt(r[4], 10), age: ageSeconds(r[5]) };
    });
    var state = { col: -1, dir: 1, page: 0 };
    var view = items;
    var body = byId("pod-body"), q = byId("pod-q"), only = byId("pod-unhealthy"), info = byId("pod-page");
    var heads = table.querySelectorAll("thead th");

    function key(it, col) {
      if (col === 4) { return isNaN(it.restarts) ? -1 : it.restarts; }
      if (col === 5) { return it.age; }
      return it.r[col].toLowerCase();
    }
    function compute() {
      var text = q.value.trim().toLowerCase(), onlyBad = only.checked;
      view = items.filter(function (it) {
        return (!onlyBad || it.bad) && (text === "" || it.text.indexOf(text) >= 0);
      });
      if (state.col >= 0) {
        var col = state.col, dir = state.dir;
        view.sort(function (a, b) {
          var x = key(a, col), y = key(b, col);
          if (x < y) { return -dir; }
          if (x > y) { return dir; }
          return a.i - b.i;
        });
      }
    }
    function render() {
      var pages = Math.max(1, Math.ceil(view.length / pageSize));
      state.page = Math.min(Math.max(state.page, 0), pages - 1);
      var start = state.page * pageSize, end = Math.min(view.length, start + pageSize);
      var frag = document.createDocumentFragment();
      for (var i = start; i < end; i++) {
        var it = view[i], tr = document.createElement("tr");
        if (it.bad) { tr.className = "unhealthy"; }
        var podKey = it.r[0] + "/" + it.r[1];
        if (it.r[9] !== "" && it.r[9] !== undefined) { tr.setAttribute("data-pod", podKey); tr.title = "Open the detail of " + podKey; }
        for (var c = 0; c < 8; c++) {
          var td = document.createElement("td");
          if (c === 1 && tr.hasAttribute("data-pod")) {
            var a = el("a", "pod", it.r[c]);
            a.href = "#pod=" + encodeURIComponent(podKey);
            a.setAttribute("data-pod", podKey);
            td.appendChild(a);
          } else {
            td.textContent = it.r[c];
          }
          tr.appendChild(td);
        }
        frag.appendChild(tr);
      }
      while (body.firstChild) { body.removeChild(body.firstChild); }
      body.appendChild(frag);
      info.textContent = view.length === 0 ? "no pods match" :
        "rows " + (start + 1) + "\u2013" + end + " of " + view.length + ", page " + (state.page + 1) + " of " + pages;
      byId("pod-prev").disabled = state.page === 0;
      byId("pod-next").disabled = state.page >= pages - 1;
    }
    function refresh() { state.page = 0; compute(); render(); }

    each(heads, function (th, col) {
      th.querySelector("button").addEventListener("click", function () {
        state.dir = state.col === col ? -state.dir : 1;
        state.col = col;
        each(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", state.dir === 1 ? "ascending" : "descending");
        refresh();
      });
    });
    q.addEventListener("input", refresh);
    only.addEventListener("change", refresh);
    byId("pod-prev").addEventListener("click", function () { state.page--; render(); });
    byId("pod-next").addEventListener("click", function () { state.page++; render(); });
    body.addEventListener("click", function (ev) {
      var tr = ev.target.closest ? ev.target.closest("tr[data-pod]") : null;
      if (!tr) { return; }
      ev.preventDefault();
      openPod(tr.getAttribute("data-pod"), true);
    });
    byId("pod-controls").hidden = false;
    byId("pod-hint").hidden = details.length === 0;
    refresh();
  }

  // ---- pod detail ----
  var gathered = Date.parse(document.body.getAttribute("data-gathered") || "");
  function ms(s) { var t = Date.parse(s || ""); return isNaN(t) ? null : t; }
  function fmtTime(t) { return t === null ? "" : new Date(t).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z"); }
  function span(sec) {
    sec = Math.abs(Math.round(sec));
    if (sec < 120) { return sec + "s"; }
    if (sec < 7200) { return Math.round(sec / 60) + "m"; }
    if (sec < 172800) { return Math.round(sec / 3600) + "h"; }
    return Math.round(sec / 86400) + "d";
  }
  function rel(t) {
    if (t === null || isNaN(gathered)) { return ""; }
    var d = (gathered - t) / 1000;
    if (Math.abs(d) < 1) { return "at gather"; }
    return d > 0 ? span(d) + " before gather" : span(d) + " after gather";
  }

  function fieldList(pairs) {
    var dl = el("dl", "fields");
    pairs.forEach(function (p) {
      if (p[1] === undefined || p[1] === null || p[1] === "") { return; }
      dl.appendChild(el("dt", "", p[0]));
      var dd = el("dd", p[2] || "", p[1]);
      dl.appendChild(dd);
    });
    return dl;
  }
  function dataTable(head, rowsData) {
    var t = el("table", "data"), thead = el("thead"), tr = el("tr"), tb = el("tbody");
    head.forEach(function (h) { tr.appendChild(el("th", "", h)); });
    thead.appendChild(tr); t.appendChild(thead);
    rowsData.forEach(function (r) {
      var row = el("tr");
      r.forEach(function (c) {
        if (c && c.nodeType) { var td = el("td"); td.appendChild(c); row.appendChild(td); } else { row.appendChild(el("td", "", c)); }
      });
      tb.appendChild(row);
    });
    t.appendChild(tb);
    return t;
  }

  // timelineItems merges what happened to the pod onto one list:
  // {t, t2, lane, what, cls, cite}.
  function timelineItems(d) {
    var out = [];
    function add(t, t2, lane, what, cls, cite) { out.push({ t: t, t2: t2, lane: lane, what: what, cls: cls, cite: cite || "" }); }
    if (d.stage && d.stageSince) {
      var since = ms(d.stageSince);
      add(since, !isNaN(gathered) && since !== null && gathered > since ? gathered : null, "stage",
        d.stage + " " + (d.stageReason ? "(" + d.stageReason + ") " : "") + (d.stage === "Started" || d.stage === "Terminated" ? "since" : "not True since") + (d.stageMessage ? ": " + d.stageMessage : ""),
        d.stage === "Started" ? "ok" : "bad");
    }
    d.containers.forEach(function (c) {
      var lane = "container " + c.name;
      if (c.crashLoopSince) { add(ms(c.crashLoopSince), null, lane, "first BackOff event: crash loop since at least here", "warn"); }
      if (c.nextRestart) { add(ms(c.nextRestart), null, lane, "next restart (back-off " + c.backOff + ")", "info"); }
    });
    // The rest is the pod's timeline as report.json holds it (timelines[]).
    (d.timeline || []).forEach(function (e) {
      var lane = e.source === "event" ? (e.level === "warning" ? "warning events" : "events") :
        e.source === "container" ? "containers" : e.source === "condition" ? "conditions" : "node log (" + e.source + ")";
      var t = ms(e.time), l = ms(e.last);
      add(t, l !== null && l !== t ? l : null, lane, e.what + (e.count > 1 ? " \u00d7" + e.count : ""),
        e.level === "error" ? "bad" : e.level === "warning" ? "warn" : "info", e.cite);
    });
    out.sort(function (a, b) {
      if (a.t === null) { return b.t === null ? 0 : 1; }
      if (b.t === null) { return -1; }
      return a.t - b.t;
    });
    return out;
  }

  var SVG = "http://www.w3.org/2000/svg";
  function svgEl(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) { e.setAttribute(k, String(attrs[k])); } }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function timelineSVG(items) {
    var timed = items.filter(function (it) { return it.t !== null; });
    if (timed.length === 0) { return null; }
    var lanes = [];
    timed.forEach(function (it) { if (lanes.indexOf(it.lane) < 0) { lanes.push(it.lane); } });
    var rank = function (l) { return l === "stage" ? 0 : l === "conditions" ? 1 : l === "containers" || l.indexOf("container ") === 0 ? 2 : l === "warning events" ? 3 : l === "events" ? 4 : 5; };
    lanes = lanes.map(function (l, i) { return { l: l, i: i }; }).sort(function (a, b) { return rank(a.l) - rank(b.l) || a.i - b.i; }).map(function (x) { return x.l; });
    var lo = Infinity, hi = -Infinity;
    timed.forEach(function (it) { lo = Math.min(lo, it.t); hi = Math.max(hi, it.t2 !== null ? it.t2 : it.t); });
    if (!isNaN(gathered)) { lo = Math.min(lo, gathered); hi = Math.max(hi, gathered); }
    if (hi - lo < 60000) { lo -= 30000; hi += 30000; }
    var pad = (hi - lo) * 0.03; lo -= pad; hi += pad;
    var W = 1000, left = 170, right = 16, laneH = 26, top = 12, H = top + lanes.length * laneH + 30;
    function x(t) { return left + (t - lo) / (hi - lo) * (W - left - right); }
    var svg = svgEl("svg", { "class": "timeline", viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "Timeline of the pod" });
    lanes.forEach(function (lane, i) {
      var y = top + i * laneH + laneH / 2;
      svg.appendChild(svgEl("line", { "class": "grid", x1: left, x2: W - right, y1: y, y2: y }));
      var label = lane.length > 26 ? lane.slice(0, 25) + "\u2026" : lane;
      svg.appendChild(svgEl("text", { "class": "lane", x: 8, y: y + 4 }, label));
    });
    var axisY = top + lanes.length * laneH + 6;
    svg.appendChild(svgEl("line", { "class": "grid", x1: left, x2: W - right, y1: axisY, y2: axisY }));
    var days = (hi - lo) > 2 * 86400000;
    for (var k = 0; k <= 5; k++) {
      var tt = lo + (hi - lo) * k / 5, xx = x(tt);
      svg.appendChild(svgEl("line", { "class": "grid", x1: xx, x2: xx, y1: top, y2: axisY + 4 }));
      var iso = new Date(tt).toISOString();
      svg.appendChild(svgEl("text", { x: xx, y: axisY + 18, "text-anchor": k === 0 ? "start" : k === 5 ? "end" : "middle" },
        days ? iso.slice(5, 16).replace("T", " ") : iso.slice(11, 19)));
    }
    if (!isNaN(gathered)) {
      var gx = x(gathered);
      svg.appendChild(svgEl("line", { "class": "now", x1: gx, x2: gx, y1: top - 6, y2: axisY }));
      svg.appendChild(svgEl("text", { x: gx - 4, y: top - 2, "text-anchor": "end" }, "gather"));
    }
    timed.forEach(function (it) {
      var y = top + lanes.indexOf(it.lane) * laneH + laneH / 2;
      var g = svgEl("g", {});
      g.appendChild(svgEl("title", {}, fmtTime(it.t) + (it.t2 !== null ? " \u2013 " + fmtTime(it.t2) : "") + "  " + it.what + (it.cite ? "  [" + it.cite + "]" : "")));
      if (it.t2 !== null && it.t2 > it.t) {
        g.appendChild(svgEl("rect", { "class": it.cls + " span", x: x(it.t), y: y - 5, width: Math.max(3, x(it.t2) - x(it.t)), height: 10, rx: 3 }));
        g.appendChild(svgEl("circle", { "class": it.cls, cx: x(it.t2), cy: y, r: 5 }));
      } else {
        g.appendChild(svgEl("circle", { "class": it.cls, cx: x(it.t), cy: y, r: 5 }));
      }
      svg.appendChild(g);
    });
    return svg;
  }

  function containerCard(c) {
    var card = el("div", "ccard " + (c.ready ? "ok" : c.state === "terminated" && c.exit && c.exit.indexOf("0:") === 0 ? "done" : "bad"));
    var head = el("div", "chead");
    head.appendChild(el("strong", "mono", c.name));
    head.appendChild(el("span", "pill", c.kind));
    head.appendChild(el("span", "pill nowrap " + (c.ready ? "ok" : "bad"), (c.state || "state unknown") + (c.reason ? ": " + c.reason : "") + (c.ready ? ", ready" : ", not ready")));
    head.appendChild(el("span", "muted", c.restarts + " restart" + (c.restarts === 1 ? "" : "s")));
    card.appendChild(head);
    var last = c.lastExit ? (c.lastReason || "terminated") + ", exit code " + c.lastExit + (c.lastFinished ? "; finished " + fmtTime(ms(c.lastFinished)) + " (" + rel(ms(c.lastFinished)) + ")" : "") : "";
    var back = c.backOff ? c.backOff + (c.nextRestart ? "; next restart " + fmtTime(ms(c.nextRestart)) + " (" + rel(ms(c.nextRestart)) + ")" : "") : "";
    var probes = null;
    if (c.probes && c.probes.length) { probes = el("ul", "plain"); c.probes.forEach(function (p) { probes.appendChild(el("li", "mono", p)); }); }
    var dl = fieldList([
      ["Image", c.image, "mono"], ["Message", c.message], ["Exit code", c.exit], ["Last state", last], ["Back-off", back],
      ["Crash loop", c.crashLoopSince ? "since " + fmtTime(ms(c.crashLoopSince)) + " or earlier (first BackOff event kept)" : ""]
    ]);
    if (probes) { dl.appendChild(el("dt", "", "Probes")); var dd = el("dd"); dd.appendChild(probes); dl.appendChild(dd); }
    card.appendChild(dl);
    return card;
  }

  function renderDetail(d) {
    var box = el("div");
    var stageBox = el("div", "stage" + (d.stage === "Started" ? " ok" : ""));
    stageBox.appendChild(el("strong", "", d.stage ? "Stage: " + d.stage + (d.stageReason ? " (" + d.stageReason + ")" : "") : "Stage unknown"));
    if (d.stageSince) { stageBox.appendChild(el("span", "muted", "  since " + fmtTime(ms(d.stageSince)) + " (" + rel(ms(d.stageSince)) + ")")); }
    if (d.stageMessage) { stageBox.appendChild(el("div", "", d.stageMessage)); }
    if (d.stageLookAt) { var look = el("div"); look.appendChild(el("strong", "", "Look at: ")); look.appendChild(document.createTextNode(d.stageLookAt)); stageBox.appendChild(look); }
    box.appendChild(stageBox);
    box.appendChild(fieldList([
      ["READY / STATUS", d.ready + "  " + d.status], ["RESTARTS", d.restarts], ["AGE", d.age], ["Phase", d.phase],
      ["Node", d.node, "mono"], ["Owner", d.owner, "mono"], ["Source", d.source, "mono"]
    ]));
    if (d.findings.length) {
      box.appendChild(el("h4", "", "Findings"));
      var ul = el("ul", "plain");
      d.findings.forEach(function (f) {
        var li = el("li"), b = el("span", "badge sev-" + (SEVERITIES.indexOf(f.severity) >= 0 ? f.severity : "unknown"), f.severity);
        var a = el("a", "", " " + f.title);
        a.href = "#" + f.anchor;
        a.setAttribute("data-finding", f.anchor);
        li.appendChild(b); li.appendChild(a); li.appendChild(el("span", "muted", " (" + f.rule + ")"));
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    box.appendChild(el("h4", "", "Containers"));
    if (d.containers.length === 0) { box.appendChild(el("p", "muted", "No container status in the gather.")); } else {
      var grid = el("div", "containers");
      d.containers.forEach(function (c) { grid.appendChild(containerCard(c)); });
      box.appendChild(grid);
    }
    var logs = d.logs || [];
    var items = timelineItems(d);
    box.appendChild(el("h4", "", "Timeline"));
    var svg = timelineSVG(items);
    if (svg) {
      box.appendChild(svg);
      var legend = el("div", "legend");
      [["bad", "failure"], ["warn", "warning"], ["info", "normal"], ["ok", "healthy"]].forEach(function (l) {
        var s = el("span"); s.appendChild(el("i", l[0])); s.appendChild(document.createTextNode(l[1])); legend.appendChild(s);
      });
      legend.appendChild(el("span", "", "bars: first to last time of repeated events and log lines; dashed line: gather time"));
      box.appendChild(legend);
    }
    if (items.length === 0) { box.appendChild(el("p", "muted", "No events, container starts or exits, condition changes or node-log lines for this pod in the gather.")); } else {
      var tl = dataTable(["TIME", "WHERE", "WHAT"], items.map(function (it) {
        var when = el("div", "when");
        when.appendChild(el("div", "mono", fmtTime(it.t) + (it.t2 !== null ? " \u2013" : "")));
        if (it.t2 !== null) { when.appendChild(el("div", "mono", fmtTime(it.t2))); }
        var when2 = rel(it.t);
        if (it.t2 !== null && when2 !== "") {
          when2 = it.t2 === gathered ? when2 + ", still at gather" : span((gathered - it.t) / 1000) + " \u2013 " + rel(it.t2);
        }
        when.appendChild(el("div", "muted", when2));
        var what = el("div");
        var dot = el("i", "dot " + it.cls);
        what.appendChild(dot);
        what.appendChild(el("span", "", it.what));
        if (it.cite) { what.appendChild(el("div", "muted mono cite", it.cite)); }
        return [when, it.lane, what];
      }));
      tl.className += " timeline-table";
      box.appendChild(tl);
    }
    box.appendChild(el("h4", "", "Log tail"));
    if (logs.length === 0) { box.appendChild(el("p", "muted", "The gather holds no container log of this pod.")); }
    logs.forEach(function (l) {
      var head = el("div", "mono cite", l.container + (l.rotated ? " (rotated, older lines)" : l.previous ? " (previous run)" : " (current run)") + "  " + l.cite +
        (l.lines ? "  \u00b7 " + (l.tail.length ? "last " + l.tail.length + " of " : "") + pl(l.lines, "line", "lines") : ""));
      box.appendChild(head);
      if (l.tail.length === 0) { box.appendChild(el("p", "muted", l.lines ? "Its lines were not kept by the reader (see report.json and the gather)." : "Empty.")); return; }
      box.appendChild(el("pre", "logtail", l.tail.map(function (t) { return t.line + ": " + t.text; }).join("\n")));
    });
    if (d.timelineOmitted) { box.appendChild(el("p", "muted", pl(d.timelineOmitted, "older timeline entry is", "older timeline entries are") + " not shown; report.json holds more.")); }
    if (d.noTimeline) { box.appendChild(el("p", "muted", "This report holds no timeline of the pod (written before schemaMinor 2): its events and node-log lines are in report.json.")); }
    return box;
  }

  var drawer = byId("pod-detail"), backdrop = byId("pod-backdrop"), drawerBody = byId("pod-detail-body");
  var lastFocus = null;
  function openPod(key, save) {
    if (!drawer || !key) { return; }
    var i = detailIndex[key];
    while (drawerBody.firstChild) { drawerBody.removeChild(drawerBody.firstChild); }
    byId("pod-detail-title").textContent = "Pod " + key;
    if (i === undefined) {
      var r = rows[rowIndex[key]];
      var msg = r ? (r[8] === "1" ? "This page holds no detail for this pod (over its size limit): see report.json." :
        "This pod is healthy: READY " + r[2] + ", STATUS " + r[3] + ", RESTARTS " + r[4] + ", AGE " + r[5] + ".") : "This pod is not in the gather's pod list.";
      drawerBody.appendChild(el("p", "muted", msg));
    } else {
      drawerBody.appendChild(renderDetail(details[i]));
    }
    lastFocus = document.activeElement;
    drawer.hidden = false; backdrop.hidden = false;
    drawer.setAttribute("data-pod", key);
    byId("pod-detail-close").focus();
    if (save) { urlState.pod = key; writeState(urlState); }
  }
  function closePod() {
    if (!drawer || drawer.hidden) { return; }
    drawer.hidden = true; backdrop.hidden = true;
    drawer.removeAttribute("data-pod");
    urlState.pod = "";
    writeState(urlState);
    if (lastFocus && lastFocus.focus) { lastFocus.focus(); }
  }
  function setupDetail() {
    if (!drawer) { return; }
    byId("pod-detail-close").addEventListener("click", closePod);
    backdrop.addEventListener("click", closePod);
    document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") { closePod(); } });
    document.addEventListener("click", function (ev) {
      var t = ev.target;
      if (!t || !t.closest) { return; }
      var a = t.closest("a[data-pod]");
      if (a && !byId("pod-body").contains(a)) { ev.preventDefault(); openPod(a.getAttribute("data-pod"), true); return; }
      var link = t.closest("a[href^='#']");
      if (link && !link.hasAttribute("data-finding")) {
        var dest = byId(link.getAttribute("href").slice(1));
        if (dest && dest.tagName === "DETAILS") { dest.open = true; }
      }
      var f = t.closest("a[data-finding]");
      if (f) {
        ev.preventDefault();
        closePod();
        var target = byId(f.getAttribute("data-finding"));
        if (target) { target.hidden = false; target.open = true; target.scrollIntoView(); }
      }
    });
  }

  function applyLocation() {
    urlState = readState();
    if (findingsUI) { findingsUI.setFrom(urlState); }
    if (timelinesUI) { timelinesUI.setFrom(urlState); }
    if (urlState.pod) { openPod(urlState.pod, false); } else if (drawer && !drawer.hidden) { drawer.hidden = true; backdrop.hidden = true; }
  }

  setupFindings();
  setupTimelines();
  setupPods();
  setupDetail();
  applyLocation();
  window.addEventListener("hashchange", function () {
    if (location.hash.indexOf("=") >= 0) { applyLocation(); }
  });
  document.body.setAttribute("data-script", "ready");
})();
