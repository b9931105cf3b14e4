// Searches side by side: two to four recorded searches (pysolve.replay's condensed traces) replayed together,
// in lockstep (event k of each) or by their own clocks (event k of a trace at k / its events x its seconds),
// each search tree drawn as it grows. Used by the Traces page and inlined into `pysolve trace --html` pages.
"use strict";

const REPLAY_SECONDS = 20;  // at speed x1 the whole replay takes this long
const SPEEDS = [0.25, 0.5, 1, 2, 4, 10, 50, 250, 1000];
const PATH_SHOWN = 6;  // labels of the current path shown under a tree (its last ones)
const INK = { edge: "#c9c9c9", open: "#555", left: "#bbb", fail: "#d62728", solution: "#2ca02c", path: "#1f5fbf" };

class Run {
  // One trace replayed: its tree (parents, depths, a layout of the first `drawn` nodes) and its state after `at`
  // events. Nodes are numbered in the order they were entered (the root is 0), as pysolve.replay numbers them.
  constructor(trace, drawn) {
    this.trace = trace;
    const kinds = trace.kinds, refs = trace.refs;
    const count = trace.labels.length;
    this.parent = new Int32Array(count + 1);
    this.depth = new Int32Array(count + 1);
    let node = 0;
    for (let k = 0; k < kinds.length; k++) {
      if (kinds[k] !== "e") continue;
      node++;
      this.parent[node] = refs[k];
      this.depth[node] = this.depth[refs[k]] + 1;
    }
    this.count = count;
    this.shown = Math.min(count, drawn);
    this.layout();
    const seconds = Number(trace.end.seconds);
    this.seconds = seconds > 0 ? seconds : 1e-6;
    this.reset();
  }

  layout() {
    // Leaf order: each drawn node above the middle of its subtree's leaves, its children left to right in the
    // order they were entered; placed on the whole tree at once, so that nodes never move as it grows.
    const shown = this.shown, parent = this.parent;
    const leaves = new Float64Array(shown + 1), children = new Int32Array(shown + 1);
    for (let i = 1; i <= shown; i++) children[parent[i]]++;
    for (let i = shown; i >= 0; i--) {
      if (!children[i]) leaves[i] = 1;
      if (i) leaves[parent[i]] += leaves[i];
    }
    const start = new Float64Array(shown + 1), cursor = new Float64Array(shown + 1);
    this.x = new Float64Array(shown + 1);
    this.x[0] = 0.5;
    this.deepest = 1;
    for (let i = 1; i <= shown; i++) {
      start[i] = cursor[parent[i]];
      cursor[parent[i]] += leaves[i];
      cursor[i] = start[i];
      this.x[i] = (start[i] + leaves[i] / 2) / leaves[0];
      this.deepest = Math.max(this.deepest, this.depth[i]);
    }
    this.leaves = leaves[0];
  }

  reset() {
    this.at = 0;
    this.entered = 0;
    this.current = 0;
    this.state = new Uint8Array(this.count + 1);  // bits: 1 entered, 2 failed, 4 a solution, 8 left (backtracked)
    this.counts = { nodes: 0, fails: 0, backtracks: 0, solutions: 0 };
  }

  seek(events) {
    // The state after `events` events (at most those kept): forward from here, or again from the start.
    const target = Math.max(0, Math.min(events, this.trace.kept));
    if (target < this.at) this.reset();
    while (this.at < target) this.apply(this.at++);
  }

  apply(k) {
    const kind = this.trace.kinds[k], ref = this.trace.refs[k];
    if (kind === "e") {
      const node = ++this.entered;
      this.state[node] |= 1;
      this.counts.nodes++;
      this.current = node;
    } else if (kind === "f") {
      this.state[ref] |= 2;
      this.counts.fails++;
      this.current = ref;
    } else if (kind === "b") {
      this.state[ref] |= 8;
      this.counts.backtracks++;
      this.current = this.parent[ref];
    } else {
      this.state[ref] |= 4;
      this.counts.solutions++;
      this.current = ref;
    }
  }

  eventsAt(seconds) {
    // By its own clock: the events this search had made `seconds` into it (its events spread evenly over the
    // time its end line gives; a file cut short ends early, at the share of the search it holds).
    return Math.min(this.trace.kept, Math.floor(seconds / this.seconds * this.trace.searched + 1e-9));
  }

  timeOf(events) {
    // When, by its own clock, this search made its first `events` events.
    return this.trace.searched ? events * this.seconds / this.trace.searched : 0;
  }

  path() {
    const nodes = [];
    for (let node = this.current; node; node = this.parent[node]) nodes.push(node);
    return nodes.reverse();
  }

  placing(canvas) {
    // Where node i is drawn on `canvas`: [x(i), y(i)] in pixels.
    const pad = 8, width = canvas.width, height = canvas.height;
    return [i => pad + this.x[i] * (width - 2 * pad), i => pad + this.depth[i] / this.deepest * (height - 2 * pad)];
  }

  nodeAt(canvas, x, y) {
    // The drawn node entered so far nearest to (x, y), within 8 pixels; -1 when none.
    const [px, py] = this.placing(canvas);
    let best = -1, near = 64;
    for (let i = 0; i <= this.shown; i++) {
      if (i && !(this.state[i] & 1)) continue;
      const d = (px(i) - x) ** 2 + (py(i) - y) ** 2;
      if (d < near) { near = d; best = i; }
    }
    return best;
  }

  told(node) {
    // A node in words: the choices that lead to it, and what became of it.
    const choices = [];
    for (let at = node; at; at = this.parent[at]) choices.push(this.trace.labels[at - 1]);
    const state = this.state[node];
    const fate = state & 4 ? "a solution" : state & 2 ? "failed" : state & 8 ? "left (backtracked)" : "open";
    return node ? `node ${node} at depth ${this.depth[node]}, ${fate}: ${choices.reverse().join(" > ")}` : "the root";
  }

  draw(canvas) {
    const g = canvas.getContext("2d"), width = canvas.width, height = canvas.height, pad = 8;
    g.clearRect(0, 0, width, height);
    const [px, py] = this.placing(canvas);
    const size = Math.max(1.5, Math.min(6, (width - 2 * pad) / this.leaves / 2.5, (height - 2 * pad) / this.deepest / 3));
    const edges = new Path2D(), marks = { open: new Path2D(), left: new Path2D(), fail: new Path2D() };
    const solutions = [];
    let drawn = 0;
    for (let i = 1; i <= this.shown; i++) {
      const state = this.state[i];
      if (!(state & 1)) continue;
      drawn++;
      edges.moveTo(px(this.parent[i]), py(this.parent[i]));
      edges.lineTo(px(i), py(i));
      if (state & 4) solutions.push(i);
      const mark = state & 2 ? marks.fail : state & 8 ? marks.left : marks.open;
      mark.rect(px(i) - size / 2, py(i) - size / 2, size, size);
    }
    g.lineWidth = size > 3 ? 1 : 0.5;
    g.strokeStyle = INK.edge;
    g.stroke(edges);
    for (const [name, mark] of Object.entries(marks)) { g.fillStyle = INK[name]; g.fill(mark); }
    const path = this.path().filter(node => node <= this.shown);
    g.strokeStyle = INK.path;
    g.lineWidth = 3;
    g.beginPath();
    g.moveTo(px(0), py(0));
    for (const node of path) g.lineTo(px(node), py(node));
    g.stroke();
    for (const node of [0, ...path]) {
      g.fillStyle = this.state[node] & 2 ? INK.fail : INK.path;
      g.fillRect(px(node) - size, py(node) - size, 2 * size, 2 * size);
    }
    g.fillStyle = INK.solution;
    for (const node of solutions) {
      g.beginPath();
      g.arc(px(node), py(node), Math.max(4, size * 1.5), 0, 2 * Math.PI);
      g.fill();
    }
    return drawn;
  }
}

let replay = null;  // the replay on the page: one at a time

function startReplay(data) {
  // Replay `data` ({traces, notes, drawn}: pysolve.replay) in #replay, with its controls.
  if (replay) replay.stop();
  replay = new Replay(data);
  return replay;
}

class Replay {
  constructor(data) {
    this.runs = data.traces.map(trace => new Run(trace, data.drawn));
    this.notes = data.notes || [];
    this.pos = 0;  // lockstep: events; clocks: seconds
    this.playing = false;
    this.frame = 0;
    this.box = document.getElementById("replay");
    this.box.hidden = false;
    this.controls();
    this.lay();
    this.show();
  }

  get mode() { return document.getElementById("mode").value; }

  span() {
    return this.spanOf(this.mode);
  }

  spanOf(mode) {
    // The length of the replay: the most events kept (lockstep), or the longest search's seconds (clocks).
    return mode === "lockstep" ? Math.max(...this.runs.map(run => run.trace.kept))
      : Math.max(...this.runs.map(run => run.seconds));
  }

  controls() {
    const $ = id => document.getElementById(id);
    const speed = $("speed");
    if (!speed.options.length) {
      for (const each of SPEEDS) speed.append(new Option(`x${each}`, String(each)));
      speed.value = "1";
    }
    $("play").onclick = () => (this.playing ? this.pause() : this.play());
    $("step").onclick = () => { this.pause(); this.step(1); };
    $("back").onclick = () => { this.pause(); this.step(-1); };
    $("restart").onclick = () => { this.pause(); this.pos = 0; this.show(); };
    $("end").onclick = () => { this.pause(); this.pos = this.span(); this.show(); };
    $("mode").onchange = () => {
      const share = this.pos / this.spanOf(this.shownMode) || 0;  // 0 when the replay has no length
      this.slider();
      this.pos = this.mode === "lockstep" ? Math.round(share * this.span()) : share * this.span();
      this.show();
    };
    document.onkeydown = event => {
      // Keys, unless one is typing: space plays or pauses, the arrows step, Home and End go to either end.
      if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName) && event.target.type !== "range") return;
      if (event.target.tagName === "BUTTON" && event.key === " ") return;  // the button pressed, as always
      const button = { " ": "play", ArrowRight: "step", ArrowLeft: "back", Home: "restart", End: "end" }[event.key];
      if (button) { event.preventDefault(); $(button).click(); }
    };
    $("slider").oninput = () => {
      const chosen = Number($("slider").value);
      this.pause();
      this.pos = chosen;
      this.show();
    };
    this.slider();
  }

  slider() {
    const slider = document.getElementById("slider");
    slider.max = String(this.span());
    slider.step = this.mode === "lockstep" ? "1" : "any";
  }

  lay() {
    // One figure per trace: its name, back end and the settings that set it apart, the tree, the current path.
    const trees = document.getElementById("trees");
    trees.replaceChildren();
    const differ = ["strategy", "flavour"].filter(key =>
      new Set(this.runs.map(run => JSON.stringify(run.trace.question[key]))).size > 1);
    const count = this.runs.length;
    const width = Math.max(220, Math.min(560, Math.floor(((trees.clientWidth || 1100) - 24 * count) / count)));
    this.figures = this.runs.map((run, index) => {
      const figure = document.createElement("figure");
      figure.className = "tree";
      figure.style.width = `${width}px`;  // the path under the tree wraps within it
      figure.dataset.index = String(index);
      const caption = document.createElement("figcaption");
      const settings = differ.map(key => `${key} ${run.trace.question[key]}`).join(", ");
      run.title = `${run.trace.backend}${settings ? ` · ${settings}` : ""}`;
      caption.textContent = `${run.title} (${run.trace.name})`;
      const canvas = Object.assign(document.createElement("canvas"), { width, height: 340 });
      const path = Object.assign(document.createElement("p"), { className: "path" });
      const note = Object.assign(document.createElement("p"), { className: "keys drawn" });
      canvas.onmousemove = event => {
        const box = canvas.getBoundingClientRect();
        const node = run.nodeAt(canvas, event.clientX - box.left, event.clientY - box.top);
        canvas.title = node < 0 ? "" : run.told(node);
      };
      figure.append(caption, canvas, path, note);
      trees.append(figure);
      return { figure, canvas, path, note };
    });
    const first = this.runs[0].trace;
    const asked = Object.entries(first.question).filter(([key]) => !differ.includes(key))
      .map(([key, value]) => `${key}=${value !== null && typeof value === "object" ? "[...]" : value}`).join(", ");
    document.getElementById("question").textContent = `${first.puzzle}: ${asked}`;
    const notes = document.getElementById("notes");
    notes.replaceChildren(...this.notes.map(text => Object.assign(document.createElement("li"), { textContent: text })));
    for (const run of this.runs) {
      if (run.count > run.shown) {
        notes.append(Object.assign(document.createElement("li"), {
          textContent: `${run.trace.name}: the tree drawn holds its first ${run.shown.toLocaleString("en")} of ` +
            `${run.count.toLocaleString("en")} nodes; the others are counted, not drawn` }));
      }
    }
  }

  show() {
    // Every trace at the replay's position, its tree drawn and its counters told.
    const span = this.span();
    this.pos = Math.max(0, Math.min(this.pos, span));
    const clocks = this.mode === "clocks";
    const rows = [["back end", "event", "nodes", "fails", "backtracks", "solutions", "seconds", "status"]];
    this.runs.forEach((run, index) => {
      run.seek(clocks ? run.eventsAt(this.pos) : Math.floor(this.pos));
      const { figure, canvas, path, note } = this.figures[index];
      const drawn = run.draw(canvas);
      const done = run.at === run.trace.kept;
      const end = run.trace.end;
      const labels = run.path().map(node => run.trace.labels[node - 1]);
      path.textContent = labels.length ? (labels.length > PATH_SHOWN ? "... > " : "") +
        labels.slice(-PATH_SHOWN).join(" > ") : "(the root)";
      note.textContent = `${drawn.toLocaleString("en")} node(s) drawn` +
        (run.entered > drawn ? `, ${(run.entered - drawn).toLocaleString("en")} counted only` : "");
      Object.assign(figure.dataset, { at: run.at, nodes: run.counts.nodes, fails: run.counts.fails,
        backtracks: run.counts.backtracks, solutions: run.counts.solutions, drawn, done: String(done) });
      const status = done ? `${end.status}${end.reason ? `: ${end.reason}` : ""}` : "searching";
      rows.push([run.title, `${run.at.toLocaleString("en")} / ${run.trace.kept.toLocaleString("en")}`,
        run.counts.nodes, run.counts.fails, run.counts.backtracks, run.counts.solutions,
        `${formatSeconds(run.timeOf(run.at))} / ${formatSeconds(run.seconds)}`, status]);
    });
    const table = document.getElementById("counters");
    table.replaceChildren(...rows.map((cells, index) => {
      const tr = document.createElement("tr");
      if (index) tr.dataset.index = String(index - 1);
      for (const cell of cells) {
        tr.append(Object.assign(document.createElement(index ? "td" : "th"), { textContent: String(cell) }));
      }
      return tr;
    }));
    const slider = document.getElementById("slider");
    slider.value = String(this.pos);
    document.getElementById("where").textContent = clocks
      ? `${formatSeconds(this.pos)} of ${formatSeconds(span)}` : `event ${Math.floor(this.pos)} of ${span}`;
    this.box.dataset.pos = String(this.pos);
    this.box.dataset.mode = this.shownMode = this.mode;
    document.getElementById("play").textContent = this.playing ? "pause" : "play";
  }

  step(direction) {
    // One event on: the next of each trace (lockstep), or the next any trace makes (clocks); or one back.
    if (this.mode === "lockstep") {
      this.pos = direction > 0 ? Math.floor(this.pos) + 1 : Math.ceil(this.pos) - 1;
    } else if (direction > 0) {
      const next = this.runs.filter(run => run.at < run.trace.kept).map(run => run.timeOf(run.at + 1));
      if (next.length) this.pos = Math.min(...next);
    } else {
      const last = this.runs.map(run => run.timeOf(run.at)).filter(time => time < this.pos + 1e-12);
      this.pos = Math.max(0, Math.max(0, ...last) * (1 - 1e-9) - 1e-12);
    }
    this.show();
  }

  play() {
    if (this.pos >= this.span()) this.pos = 0;
    this.playing = true;
    let last = performance.now();
    const tick = now => {
      if (!this.playing) return;
      const rate = this.span() / REPLAY_SECONDS * Number(document.getElementById("speed").value);
      this.pos += (now - last) / 1000 * rate;
      last = now;
      if (this.pos >= this.span()) { this.pos = this.span(); this.playing = false; }
      this.show();
      if (this.playing) this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
    this.show();
  }

  pause() {
    this.playing = false;
    cancelAnimationFrame(this.frame);
    this.show();
  }

  stop() {
    this.playing = false;
    cancelAnimationFrame(this.frame);
  }
}

function formatSeconds(seconds) {
  return seconds >= 1 ? `${seconds.toFixed(2)} s` : `${(seconds * 1000).toFixed(seconds >= 0.01 ? 1 : 3)} ms`;
}
