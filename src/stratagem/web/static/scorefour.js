// Score Four: play the decision-analysis AI, minimax or MCTS; the coach on every move,
// the board in depth (isometric SVG) above the four level grids that take the moves.
import { api, el, fmt, readState, writeState, setMeter, siteHeader, svgEl } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const API = "/api/scorefour";
const COLS = "abcd";
const pegName = (p) => `${COLS[p % 4]}${Math.floor(p / 4) + 1}`;
const pegIndex = (name) => (Number(name[1]) - 1) * 4 + COLS.indexOf(name[0].toLowerCase());

let game = null;
let busy = false;
let hintShown = false;
let opponents = [];
let pendingColumn = null;
const focusPeg = [0, 0, 0, 0]; // the peg of each level grid that takes Tab (roving focus)

// --- the level grids: the input surface ------------------------------------------------------

/** Four 4x4 grids, level 1 (bottom) to level 4, each with row 4 at the top as seen from above. */
function buildBoard() {
  const levels = $("levels");
  levels.replaceChildren();
  for (let z = 0; z < 4; z++) {
    const grid = el("div", { class: "sf-grid", role: "group", "aria-label": `level ${z + 1}` });
    for (let y = 3; y >= 0; y--) {
      grid.append(el("span", { class: "sf-rowlabel", "aria-hidden": "true" }, String(y + 1)));
      for (let x = 0; x < 4; x++) {
        const peg = y * 4 + x;
        grid.append(el("button", {
          class: "sf-cell", type: "button", tabindex: "-1",
          dataset: { peg: String(peg), cell: String(z * 16 + peg), level: String(z) },
          onclick: () => play(pegName(peg)),
          onkeydown: (e) => moveFocus(e, z, peg),
          onmouseenter: () => preview(peg, true),
          onmouseleave: () => preview(peg, false),
          onfocus: () => { focusPeg[z] = peg; preview(peg, true); },
          onblur: () => preview(peg, false),
        }));
      }
    }
    grid.append(el("span", { class: "sf-rowlabel" }));
    for (const c of COLS) grid.append(el("span", { class: "sf-collabel", "aria-hidden": "true" }, c));
    levels.append(el("figure", { class: "sf-level" }, grid,
      el("figcaption", { class: "small muted" }, `level ${z + 1}`)));
  }
  rove();
}

const cellNode = (z, peg) => document.querySelector(`.sf-cell[data-cell="${z * 16 + peg}"]`);

/** One Tab stop per level grid: the cell last focused there. */
function rove() {
  document.querySelectorAll(".sf-cell").forEach((n) => {
    n.tabIndex = Number(n.dataset.peg) === focusPeg[Number(n.dataset.level)] ? 0 : -1;
  });
}

function moveFocus(e, z, peg) {
  const x = peg % 4, y = Math.floor(peg / 4);
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
  if (!step) return;
  e.preventDefault();
  const nx = Math.min(3, Math.max(0, x + step[0])), ny = Math.min(3, Math.max(0, y + step[1]));
  focusPeg[z] = ny * 4 + nx;
  rove();
  cellNode(z, focusPeg[z]).focus();
}

/** Mark where a bead dropped on `peg` would land. */
function preview(peg, on) {
  document.querySelectorAll(".sf-cell.landing").forEach((c) => c.classList.remove("landing"));
  document.querySelectorAll("#board3d .landing").forEach((c) => c.remove());
  if (!on || !game || !game.your_turn || busy) return;
  const h = game.heights[peg];
  if (h >= 4) return;
  cellNode(h, peg)?.classList.add("landing");
  const [sx, sy] = iso(peg % 4, Math.floor(peg / 4), h);
  $("board3d").append(svgEl("circle", { cx: sx, cy: sy, r: 10, class: "landing" }));
}

function drawBoard() {
  const cells = game.board.replaceAll("/", "");
  const lastAi = [...game.history].reverse().find((m) => m.by_ai);
  const lastMine = [...game.history].reverse().find((m) => !m.by_ai);
  const win = new Set(game.winning_cells);
  document.querySelectorAll(".sf-cell").forEach((node) => {
    const c = Number(node.dataset.cell);
    const peg = Number(node.dataset.peg);
    const ch = cells[c];
    node.classList.toggle("x", ch === "x");
    node.classList.toggle("o", ch === "o");
    node.classList.toggle("last", lastMine !== undefined && lastMine.cell === c);
    node.classList.toggle("last-ai", lastAi !== undefined && lastAi.cell === c);
    node.classList.toggle("win", win.has(c));
    // aria-disabled, not disabled: the focused cell keeps the focus while the AI replies
    node.setAttribute("aria-disabled", String(!game.your_turn || busy || game.heights[peg] >= 4));
    const who = ch === "x" ? "X" : ch === "o" ? "O" : "empty";
    const extra = win.has(c) ? ", in the winning line" : "";
    node.setAttribute("aria-label", `peg ${pegName(peg)}, level ${Math.floor(c / 16) + 1}: ${who}${extra}`);
    node.textContent = ch === "." ? "" : ch.toUpperCase();
  });
  draw3d(cells, lastAi, win);
}

// --- the board in depth: an isometric drawing ---------------------------------------------------

// An oblique view from the front and a little above: columns a-d run to the right, rows 1-4
// go back (up and a little right), so no two pegs share a screen column; each level is a
// plate of its own (its depth, 3 * DY, is less than DZ), so a bead's level is never in doubt.
const W = 340, H = 356, DX = 56, SKEW = 14, DY = 18, DZ = 76, LEFT = 70, BASE = 322;

/** Screen position of column x, row y, level z: row 1 in front, level 1 at the bottom. */
function iso(x, y, z) {
  return [LEFT + x * DX + y * SKEW, BASE - y * DY - z * DZ];
}

function draw3d(cells, lastAi, win) {
  const svg = $("board3d");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const title = $("board3d-title");
  svg.replaceChildren(title);
  const pt = (x, y, z) => iso(x, y, z).map((v) => v.toFixed(1)).join(",");
  const corner = (x, y, z) => {
    // the plate extends half a cell beyond the outer pegs
    const [sx, sy] = iso(x, y, z);
    return `${sx.toFixed(1)},${sy.toFixed(1)}`;
  };
  // one plate a level, with its number at the left
  for (let z = 0; z < 4; z++) {
    const e = 0.5;
    svg.append(svgEl("polygon", {
      class: "sf-plate",
      points: [corner(-e, -e, z), corner(3 + e, -e, z), corner(3 + e, 3 + e, z), corner(-e, 3 + e, z)].join(" "),
    }));
    const [lx, ly] = iso(-0.5, -0.5, z);
    const t = svgEl("text", { x: lx - 6, y: ly + 5, "text-anchor": "end", class: "sf-levelname" });
    t.textContent = `L${z + 1}`;
    svg.append(t);
  }
  for (let x = 0; x < 4; x++) {
    const t = svgEl("text", { x: iso(x, -1.1, 0)[0], y: iso(x, -1.1, 0)[1] + 5, "text-anchor": "middle" });
    t.textContent = COLS[x];
    svg.append(t);
  }
  for (let y = 0; y < 4; y++) {
    const t = svgEl("text", { x: iso(3.6, y, 0)[0] + 6, y: iso(3.6, y, 0)[1] + 5, "text-anchor": "start" });
    t.textContent = String(y + 1);
    svg.append(t);
  }
  // pegs and beads, far to near, bottom to top
  const order = [];
  for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) order.push([x, y]);
  order.sort((a, b) => b[1] - a[1] || a[0] - b[0]); // back rows first
  for (const [x, y] of order) {
    const [bx, by] = iso(x, y, 0);
    const [tx, ty] = iso(x, y, 3.3);
    svg.append(svgEl("line", { class: "sf-peg", x1: bx, y1: by, x2: tx, y2: ty }));
    for (let z = 0; z < 4; z++) {
      const c = z * 16 + y * 4 + x;
      if (cells[c] === ".") continue;
      const [sx, sy] = iso(x, y, z);
      const cls = `sf-bead ${cells[c]}` + (win.has(c) ? " win" : "") + (lastAi && lastAi.cell === c ? " last-ai" : "");
      svg.append(svgEl("ellipse", { cx: sx, cy: sy, rx: 15, ry: 10, class: cls }));
    }
  }
  for (const line of game.winning_lines || []) {
    const pts = line.map((c) => pt(c % 4, Math.floor((c % 16) / 4), Math.floor(c / 16)));
    svg.append(svgEl("polyline", { class: "sf-winline-under", points: pts.join(" ") }));
    svg.append(svgEl("polyline", { class: "sf-winline", points: pts.join(" ") }));
  }
  const beads = [...cells].filter((c) => c !== ".").length;
  title.textContent = `The board in depth: ${beads} beads` + (game.winning_lines?.length
    ? `; the winning line runs through ${game.winning_lines[0].map((c) => `${pegName(c % 16)} level ${Math.floor(c / 16) + 1}`).join(", ")}`
    : "");
}

// --- panels -------------------------------------------------------------------------------

function describeQuality(m) {
  const a = m.advice, best = m.best;
  const same = a.verdict.startsWith("best") || a.verdict.startsWith("as good as the best");
  return el("div", {},
    el("div", { class: "sf-big sf-" + a.severity }, `${m.action}: ${a.value_text} — ${a.verdict}`),
    el("div", { class: "small" }, same ? `f = ${fmt(a.quality, 2)}: no legal move was better by the search.`
      : `The best was ${best.action} (${best.value_text})` + (a.behind ? `, ${fmt(a.behind, 0)} points more` : "")
        + `; f = ${fmt(a.quality, 2)}.`));
}

function drawPanels() {
  const you = game.human.toUpperCase();
  const ai = game.human === "x" ? "O" : "X";
  let status;
  if (game.winner === "draw") status = "The board is full: a draw.";
  else if (game.winner) status = game.winner === game.human ? "You win!" : "The AI wins.";
  else if (busy) status = "The AI is thinking…";
  else status = `Your move (${you})`;
  $("status").textContent = status;
  $("status").className = game.winner && game.winner !== "draw" ? (game.winner === game.human ? "sf-good" : "sf-bad") : "";
  $("ai-label").textContent = `you ${you}, the AI ${ai}: ${game.ai}`;

  const mine = game.history.filter((m) => !m.by_ai && m.advice);
  $("quality").replaceChildren(mine.length ? describeQuality(mine[mine.length - 1])
    : el("span", { class: "muted" }, "—"));

  const value = game.mean_quality;
  if (value === null) setMeter($("skill-meter"), 0, "no move yet");
  else setMeter($("skill-meter"), value, `mean f = ${fmt(value, 2)} over ${mine.length} move${mine.length === 1 ? "" : "s"}`);
  $("skill-note").textContent = game.explain.quality;
  $("ai-model").textContent = game.skill === null ? ""
    : `The AI's model of you: ${fmt(game.skill, 2)}. ${game.explain.ai_model}`;
  drawTrace(mine.map((_, i) => mean(mine.slice(0, i + 1).map((m) => m.quality))));

  const log = $("moves");
  log.replaceChildren(...game.history.map((m, i) => el("div", { class: m.by_ai ? "" : "mine" },
    `${i + 1}. ${m.side.toUpperCase()} ${m.action}` + (m.by_ai ? " (AI)"
      : m.advice ? ` — ${m.advice.value_text}, ${m.advice.verdict}` : ""))));
  log.scrollTop = log.scrollHeight;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

function drawTrace(trace) {
  const svg = $("skill-trace");
  svg.replaceChildren();
  const w = 320, h = 70, pad = 6, left = 22;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  for (const [v, text] of [[1, "1"], [0.5, "0.5"], [0, "0"]]) {
    const y = h - pad - v * (h - 2 * pad);
    svg.append(svgEl("line", { class: v ? "sf-guide" : "axis", x1: left, x2: w - pad, y1: y, y2: y }));
    const t = svgEl("text", { x: left - 3, y: y + 3, "text-anchor": "end" });
    t.textContent = text;
    svg.append(t);
  }
  if (trace.length < 1) return;
  const pts = trace.map((v, i) => {
    const x = trace.length === 1 ? left + 4 : left + (i / (trace.length - 1)) * (w - pad - left);
    return `${x.toFixed(1)},${(h - pad - v * (h - 2 * pad)).toFixed(1)}`;
  });
  svg.append(svgEl("polyline", { points: pts.join(" "), class: "sf-trace" }));
  const [lx, ly] = pts[pts.length - 1].split(",");
  svg.append(svgEl("circle", { cx: lx, cy: ly, r: 3, class: "sf-dot" }));
}

function render() {
  $("game").hidden = false;
  drawBoard();
  drawPanels();
  if (!game.your_turn) hideHint();
}

// --- the opponents' parameters, from the registry ----------------------------------------------

function buildParams() {
  const entry = opponents.find((o) => o.name === $("ai").value);
  const box = $("params");
  box.replaceChildren();
  if (!entry) return;
  for (const p of entry.params) {
    const step = p.type === "int" ? "1" : "any";
    box.append(el("label", { title: p.describe }, `${p.name}: ${p.help} `,
      el("input", {
        id: `param-${p.field}`, type: "number", step, min: p.low_open ? null : p.low, max: p.high,
        value: p.default, dataset: { field: p.field, type: p.type },
      })));
  }
}

function settings() {
  const body = { ai: $("ai").value, human: $("human").value };
  for (const input of $("params").querySelectorAll("input")) {
    if (input.value === "") continue;
    body[input.dataset.field] = input.dataset.type === "int" ? Math.round(Number(input.value)) : Number(input.value);
  }
  return body;
}

// --- actions ------------------------------------------------------------------------------

async function newGame(event) {
  event?.preventDefault();
  hideHint();
  busy = true;
  $("new-game").disabled = true;
  try {
    game = await api(`${API}/new`, { body: settings() });
    writeState({ game: game.id });
  } finally {
    busy = false;
    $("new-game").disabled = false;
  }
  render();
  // the board takes the keys (a button: no text field, so no phone keyboard pops up)
  cellNode(0, focusPeg[0]).focus();
}

async function play(peg) {
  if (!game || busy || !game.your_turn) return;
  const p = pegIndex(peg);
  if (!(p >= 0 && p < 16) || game.heights[p] >= 4) return;
  busy = true;
  hideHint();
  setPending(null);
  // Show the bead at once; the AI's reply follows.
  const cells = game.board.replaceAll("/", "").split("");
  cells[game.heights[p] * 16 + p] = game.human;
  game = { ...game, board: cells.join("").match(/.{16}/g).join("/"), your_turn: false };
  drawBoard();
  drawPanels();
  try {
    game = await api(`${API}/${game.id}/act`, { body: { action: peg } });
  } catch {
    game = await api(`${API}/${game.id}`);
  } finally {
    busy = false;
  }
  render();
}

function hideHint() {
  hintShown = false;
  $("hint-panel").classList.add("hidden");
  document.querySelectorAll(".sf-cell.hinted").forEach((c) => c.classList.remove("hinted"));
}

async function hint() {
  if (!game || !game.your_turn || busy) return;
  if (hintShown) return hideHint();
  const h = await api(`${API}/${game.id}/advise`);
  hintShown = true;
  $("hint-depth").textContent = String(h.depth);
  $("hint-explain").textContent = `${h.explain.points} ${h.explain.quality} "Wins in n" counts your own moves, this one included; "loses in n" counts the AI's.`;
  $("hint-table").querySelector("tbody").replaceChildren(...h.options.map((o) => el("tr", {
    class: "sf-row-" + o.severity, onclick: () => play(o.action),
  }, el("td", {}, el("button", { type: "button", class: "sf-play", "aria-label": `play ${o.action}` }, o.action)),
  el("td", {}, o.value_text),
  el("td", { class: "num" }, o.behind === null ? "—" : fmt(o.behind, 0)),
  el("td", { class: "num" }, fmt(o.quality, 2)),
  el("td", { class: "sf-" + o.severity }, o.verdict))));
  $("hint-panel").classList.remove("hidden");
  const p = pegIndex(h.options[0].action);
  cellNode(game.heights[p], p)?.classList.add("hinted");
}

function setPending(column) {
  pendingColumn = column;
  $("pending").textContent = column === null ? "" : `column ${column}: now a row, 1–4`;
}

function onKey(e) {
  const t = e.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key.toLowerCase();
  if (k === "h") {
    e.preventDefault();
    hint();
  } else if (COLS.includes(k) && k.length === 1) {
    e.preventDefault();
    setPending(k);
  } else if ("1234".includes(k) && k.length === 1 && pendingColumn !== null) {
    e.preventDefault();
    const peg = `${pendingColumn}${k}`;
    setPending(null);
    play(peg);
  } else if (k === "escape") {
    setPending(null);
  }
}

// --- start --------------------------------------------------------------------------------

async function start() {
  $("header").replaceWith(siteHeader("scorefour"));
  buildBoard();
  opponents = await api(`${API}/opponents`);
  buildParams();
  $("ai").addEventListener("change", buildParams);
  $("setup").addEventListener("submit", newGame);
  $("hint").addEventListener("click", hint);
  document.addEventListener("keydown", onKey);
  const { game: saved } = readState();
  if (saved) {
    try {
      game = await api(`${API}/${encodeURIComponent(saved)}`, { quiet: true });
      render();
      return;
    } catch {
      writeState({});
    }
  }
  await newGame();
}

start();
