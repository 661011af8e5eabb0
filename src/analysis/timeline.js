/* paratrace timeline: the page's viewer (embedded into every view.html by
 * src/analysis/timeline_js.c, generated from this file by
 * scripts/gen-timeline-js.sh).  Data: window.PT_DATA, written by
 * timeline_out.c.  No network, no libraries. */
(function () {
  'use strict';
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  var D = window.PT_DATA;
  var cv = document.getElementById('tl'), ctx = cv.getContext('2d');
  var uv = document.getElementById('util'), uctx = uv.getContext('2d');
  var tip = document.getElementById('tip');
  var info = document.getElementById('range');
  var ROW = 18, TOP = 26, LEFT = 170, RIGHT = 10, UROW = 8;
  var nrows = D.rows.length;
  var v0 = 0, v1 = D.span;
  var sel = -1;
  var drawn = {rows: 0, msgs: 0, bars: 0, colls: 0};

  function hash(s) {
    var h = 2166136261;
    for (var i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
    return h;
  }
  var colors = D.regions.map(function (r) {
    var h = hash(r[0]);
    if (r[1]) return 'hsl(' + (h % 45) + ',85%,' + (42 + (h >> 8) % 18) + '%)';
    return 'hsl(' + (95 + h % 230) + ',55%,' + (40 + (h >> 8) % 22) + '%)';
  });
  var byRow = [];
  for (var i = 0; i < nrows; i++) byRow.push([]);
  for (i = 0; i < D.bars.length; i += 5) byRow[D.bars[i]].push(i);
  /* outer regions first, so that nested ones are drawn over them */
  byRow.forEach(function (L) {
    L.sort(function (a, b) { return D.bars[a + 1] - D.bars[b + 1] || D.bars[a + 3] - D.bars[b + 3]; });
  });

  function width() { return cv.width - LEFT - RIGHT; }
  function X(t) { return LEFT + (t - v0) / (v1 - v0) * width(); }
  function T(px) { return v0 + (px - LEFT) / width() * (v1 - v0); }
  function fmt(ticks) {
    var s = ticks / D.tps, a = Math.abs(s);
    if (a >= 1) return s.toFixed(3) + ' s';
    if (a >= 1e-3) return (s * 1e3).toFixed(3) + ' ms';
    if (a >= 1e-6) return (s * 1e6).toFixed(3) + ' us';
    return (s * 1e9).toFixed(0) + ' ns';
  }
  /* a time on the page: from its origin (the trace's start), not from
   * the window's start, which is D.origin ticks after it */
  function at(t) { return fmt(t + (D.origin || 0)); }
  function resize() {
    cv.width = Math.max(700, window.innerWidth - 24);
    cv.height = TOP + nrows * ROW + 6;
    uv.width = cv.width;
    uv.height = 18 + nrows * UROW;
  }
  function axis() {
    var span = (v1 - v0) / D.tps, step = Math.pow(10, Math.floor(Math.log10(span / 8)));
    if (span / step > 40) step *= 5; else if (span / step > 16) step *= 2;
    var o = D.origin || 0, st = step * D.tps, t = Math.ceil((v0 + o) / st) * st - o;
    ctx.fillStyle = '#333';
    ctx.font = '11px sans-serif';
    ctx.strokeStyle = '#ddd';
    for (var k = 0; t <= v1 && k < 100; t += st, k++) {
      var x = X(t);
      ctx.beginPath(); ctx.moveTo(x, TOP - 6); ctx.lineTo(x, cv.height); ctx.stroke();
      ctx.fillText(at(t), x + 2, 12);
    }
  }
  function dimmed(reg) { return sel >= 0 && reg !== sel; }
  function draw() {
    ctx.clearRect(0, 0, cv.width, cv.height);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, cv.width, cv.height);
    axis();
    drawn = {rows: 0, msgs: 0, bars: 0, colls: 0};
    for (var r = 0; r < nrows; r++) {
      var y = TOP + r * ROW;
      ctx.fillStyle = r % 2 ? '#f6f6f6' : '#fcfcfc';
      ctx.fillRect(LEFT, y, width(), ROW);
      ctx.fillStyle = '#222';
      ctx.font = '11px sans-serif';
      ctx.fillText(D.rows[r].slice(0, 26), 4, y + 13);
      drawn.rows++;
      if (D.agg) drawBins(r, y); else drawBars(r, y);
    }
    drawColls();
    drawMsgs();
    drawUtil();
    info.textContent = 'showing ' + at(v0) + ' .. ' + at(v1) + ' (' + fmt(v1 - v0) + ' of ' + fmt(D.span) + ')' +
      (D.agg ? ' (aggregated: one bar per pixel bin, ' +
        (D.sample > 1 ? '1 in ' + D.sample + ' messages drawn)' : 'every message drawn)') : '') +
      (D.coll_sample > 1 ? ' (1 in ' + D.coll_sample + ' collectives of each row drawn)' : '') +
      (D.truncated ? ' (item limit reached: not everything drawn)' : '');
  }
  function drawBars(r, y) {
    var L = byRow[r];
    for (var k = 0; k < L.length; k++) {
      var i = L[k], t0 = D.bars[i + 3], t1 = D.bars[i + 4];
      if (t1 < v0 || t0 > v1) continue;
      var d = D.bars[i + 1], reg = D.bars[i + 2];
      var x0 = Math.max(LEFT, X(t0)), x1 = Math.min(LEFT + width(), X(t1));
      var h = Math.max(4, ROW - 2 - d * 3);
      ctx.globalAlpha = dimmed(reg) ? 0.2 : 1;
      ctx.fillStyle = colors[reg];
      ctx.fillRect(x0, y + 1 + (ROW - 2 - h), Math.max(1, x1 - x0), h);
      drawn.bars++;
    }
    ctx.globalAlpha = 1;
  }
  function drawBins(r, y) {
    var B = D.bins.n, row = D.bins.rows[r], bt = D.span / B;
    var a = Math.max(0, Math.floor(v0 / bt)), b = Math.min(B - 1, Math.floor(v1 / bt));
    for (var i = a; i <= b; i++) {
      var reg = row[i] - 1;
      if (reg < 0) continue;
      var x0 = Math.max(LEFT, X(i * bt)), x1 = Math.min(LEFT + width(), X((i + 1) * bt));
      ctx.globalAlpha = dimmed(reg) ? 0.2 : 1;
      ctx.fillStyle = colors[reg];
      ctx.fillRect(x0, y + 2, Math.max(1, x1 - x0), ROW - 4);
      drawn.bars++;
    }
    ctx.globalAlpha = 1;
  }
  function drawMsgs() {
    ctx.strokeStyle = 'rgba(20,20,20,0.55)';
    ctx.lineWidth = 1;
    for (var i = 0; i < D.msgs.length; i += 5) {
      var ts = D.msgs[i + 2], tr = D.msgs[i + 3];
      if (tr < v0 || ts > v1) continue;
      var y0 = TOP + D.msgs[i] * ROW + ROW / 2, y1 = TOP + D.msgs[i + 1] * ROW + ROW / 2;
      ctx.beginPath(); ctx.moveTo(X(ts), y0); ctx.lineTo(X(tr), y1); ctx.stroke();
      drawn.msgs++;
    }
  }
  function drawColls() {
    ctx.fillStyle = '#333';
    for (var i = 0; i < D.colls.length; i += 5) {
      var t = D.colls[i + 3];
      if (t < v0 || t > v1) continue;
      var x = X(t), y = TOP + D.colls[i] * ROW;
      ctx.beginPath(); ctx.moveTo(x - 4, y + 1); ctx.lineTo(x + 4, y + 1); ctx.lineTo(x, y + 7);
      ctx.closePath(); ctx.fill();
      drawn.colls++;
    }
  }
  function drawUtil() {
    uctx.clearRect(0, 0, uv.width, uv.height);
    uctx.fillStyle = '#222';
    uctx.font = '11px sans-serif';
    uctx.fillText('utilisation: user code (green), MPI (red), idle (grey)', 4, 12);
    var U = D.util.n, bt = D.span / U;
    for (var r = 0; r < nrows; r++) {
      var y = 16 + r * UROW, row = D.util.rows[r];
      for (var i = 0; i < U; i++) {
        var a = i * bt, b = (i + 1) * bt;
        if (b < v0 || a > v1) continue;
        var x0 = Math.max(LEFT, X(a)), x1 = Math.min(LEFT + width(), X(b)), w = Math.max(1, x1 - x0);
        var u = row[2 * i] / 1000, m = row[2 * i + 1] / 1000;
        uctx.fillStyle = '#ddd'; uctx.fillRect(x0, y, w, UROW - 1);
        uctx.fillStyle = '#3a3'; uctx.fillRect(x0, y + (UROW - 1) * (1 - u - m), w, (UROW - 1) * u);
        uctx.fillStyle = '#d33'; uctx.fillRect(x0, y + (UROW - 1) * (1 - m), w, (UROW - 1) * m);
      }
    }
  }
  function zoomAt(px, f) {
    var t = T(px), a = t - (t - v0) * f, b = t + (v1 - t) * f;
    if (b - a < 10) return;
    if (a < 0) { b -= a; a = 0; }
    if (b > D.span) { a -= b - D.span; b = D.span; if (a < 0) a = 0; }
    v0 = a; v1 = b;
    draw();
  }
  function pan(frac) {
    var d = (v1 - v0) * frac;
    if (v0 + d < 0) d = -v0;
    if (v1 + d > D.span) d = D.span - v1;
    v0 += d; v1 += d;
    draw();
  }
  function barAt(px, py) {
    var r = Math.floor((py - TOP) / ROW);
    if (r < 0 || r >= nrows || px < LEFT) return null;
    var t = T(px), best = null;
    if (D.agg) {
      var bt = D.span / D.bins.n, i = Math.floor(t / bt), reg = D.bins.rows[r][i] - 1;
      return reg >= 0 ? {reg: reg, row: r, t0: i * bt, t1: (i + 1) * bt, bin: true} : null;
    }
    var L = byRow[r], slack = (v1 - v0) / width();
    for (var k = 0; k < L.length; k++) {
      var j = L[k];
      if (D.bars[j + 3] - slack <= t && t <= D.bars[j + 4] + slack &&
          (!best || D.bars[j + 1] > best.depth))
        best = {reg: D.bars[j + 2], row: r, depth: D.bars[j + 1], t0: D.bars[j + 3], t1: D.bars[j + 4]};
    }
    return best;
  }
  function msgAt(px, py) {
    for (var i = 0; i < D.msgs.length; i += 5) {
      var x0 = X(D.msgs[i + 2]), x1 = X(D.msgs[i + 3]);
      var y0 = TOP + D.msgs[i] * ROW + ROW / 2, y1 = TOP + D.msgs[i + 1] * ROW + ROW / 2;
      var dx = x1 - x0, dy = y1 - y0, l2 = dx * dx + dy * dy;
      var u = l2 ? Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / l2)) : 0;
      var ex = x0 + u * dx - px, ey = y0 + u * dy - py;
      if (ex * ex + ey * ey < 9) return i;
    }
    return -1;
  }
  function showTip(e, text) {
    tip.textContent = text;
    tip.style.display = text ? 'block' : 'none';
    tip.style.left = (e.pageX + 12) + 'px';
    tip.style.top = (e.pageY + 12) + 'px';
  }
  var drag = null;
  cv.addEventListener('wheel', function (e) {
    e.preventDefault();
    zoomAt(e.offsetX, e.deltaY < 0 ? 0.8 : 1.25);
  }, {passive: false});
  cv.addEventListener('mousedown', function (e) { drag = {x: e.offsetX, v0: v0, v1: v1, moved: false}; });
  window.addEventListener('mouseup', function () { setTimeout(function () { drag = null; }, 0); });
  cv.addEventListener('mousemove', function (e) {
    if (drag && e.buttons) {
      var d = (drag.x - e.offsetX) / width() * (drag.v1 - drag.v0);
      if (Math.abs(drag.x - e.offsetX) > 2) drag.moved = true;
      v0 = drag.v0 + d; v1 = drag.v1 + d;
      if (v0 < 0) { v1 -= v0; v0 = 0; }
      if (v1 > D.span) { v0 -= v1 - D.span; v1 = D.span; }
      draw();
      return;
    }
    var m = msgAt(e.offsetX, e.offsetY);
    if (m >= 0) {
      showTip(e, 'message ' + D.rows[D.msgs[m]] + ' -> ' + D.rows[D.msgs[m + 1]] + ', ' +
        D.msgs[m + 4] + ' bytes, sent at ' + at(D.msgs[m + 2]) + ', received ' +
        fmt(D.msgs[m + 3] - D.msgs[m + 2]) + ' later');
      return;
    }
    var b = barAt(e.offsetX, e.offsetY);
    showTip(e, b ? D.regions[b.reg][0] + (b.bin ? ' (most of this bin)' : '') + ' on ' +
      D.rows[b.row] + ': ' + fmt(b.t1 - b.t0) + ' from ' + at(b.t0) : '');
  });
  cv.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
  cv.addEventListener('click', function (e) {
    if (drag && drag.moved) return;
    var b = barAt(e.offsetX, e.offsetY);
    sel = b && b.reg !== sel ? b.reg : -1;
    draw();
  });
  window.addEventListener('keydown', function (e) {
    var c = cv.width / 2;
    if (e.key === '+' || e.key === '=') zoomAt(c, 0.5);
    else if (e.key === '-') zoomAt(c, 2);
    else if (e.key === 'ArrowLeft') pan(-0.2);
    else if (e.key === 'ArrowRight') pan(0.2);
    else if (e.key === '0' || e.key === 'Home') { v0 = 0; v1 = D.span; draw(); }
    else if (e.key === 'Escape') { sel = -1; draw(); }
  });
  window.addEventListener('resize', function () { resize(); draw(); });
  var legend = document.getElementById('legend');
  D.legend.forEach(function (reg) {
    var s = document.createElement('span');
    s.className = 'key';
    s.innerHTML = '<i></i>';
    s.firstChild.style.background = colors[reg];
    s.appendChild(document.createTextNode(D.regions[reg][0]));
    s.addEventListener('click', function () { sel = sel === reg ? -1 : reg; draw(); });
    legend.appendChild(s);
  });
  resize();
  draw();
  window.PT_VIEW = {zoomAt: zoomAt, pan: pan, range: function () { return [v0, v1]; }, drawn: function () { return drawn; }};
  if (location.hash === '#selftest') {
    var before = v1 - v0, rowsDrawn = drawn.rows, msgs = drawn.msgs, bars = drawn.bars;
    zoomAt(LEFT + width() / 2, 0.5);
    var after = v1 - v0;
    var out = document.getElementById('selftest');
    out.textContent = JSON.stringify({rows: rowsDrawn, expected_rows: nrows, messages: msgs,
      bars: bars, zoom_before: before, zoom_after: after, zoomed: after < before,
      errors: errors});
  }
})();
