// Score Four: play the decision-analysis AI or minimax; move quality, skill estimate, hints.
import { api, el, fmt, readState, writeState, setMeter, siteHeader, svgEl } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const API = "/api/scorefour";
const COLS = "abcd";
const pegName = (p) => `${COLS[p % 4]}${Math.floor(p / 4) + 1}`;
const pegIndex = (name) => (Number(name[1]) - 1) * 4 + COLS.indexOf(name[0].toLowerCase());

let game = null;
let busy = false;
let hintShown = false;

// --- the board ----------------------------------------------------------------------------

/** Four 4x4 grids, level 1 (bottom) to level 4, each with row 4 at the top as seen from above. */
function buildBoard() {
  const levels = $("levels");
  levels.replaceChildren();
  for (let z = 0; z < 4; z++) {
    const grid = el("div", { class: "sf-grid", role: "grid", "aria-label": `level ${z + 1}` });
    for (let y = 3; y >= 0; y--) {
      grid.append(el("span", { class: "sf-rowlabel", "aria-hidden": "true" }, String(y + 1)));
      for (let x = 0; x < 4; x++) {
        const peg = y * 4 + x;
        const cell = el("button", {
          class: "sf-cell", type: "button", dataset: { peg: String(peg), cell: String(z * 16 + peg) },
          "aria-label": `peg ${pegName(peg)}, level ${z + 1}`,
          onclick: () => play(pegName(peg)),
          onmouseenter: () => preview(peg, true),
          onmouseleave: () => preview(peg, false),
          onfocus: () => preview(peg, true),
          onblur: () => preview(peg, false),
        });
        grid.append(cell);
      }
    }
    grid.append(el("span", { class: "sf-rowlabel" }));
    for (const c of COLS) grid.append(el("span", { class: "sf-collabel", "aria-hidden": "true" }, c));
    levels.append(el("figure", { class: "sf-level" }, grid, el("figcaption", { class: "small muted" }, `level ${z + 1}`)));
  }
}

/** Mark where a bead dropped on `peg` would land. */
function preview(peg, on) {
  document.querySelectorAll(".sf-cell.landing").forEach((c) => c.classList.remove("landing"));
  if (!on || !game || !game.your_turn) return;
  const h = game.heights[peg];
  if (h >= 4) return;
  document.querySelector(`.sf-cell[data-cell="${h * 16 + peg}"]`)?.classList.add("landing");
}

function drawBoard() {
  const cells = game.board.replaceAll("/", "");
  const last = game.history.length ? game.history[game.history.length - 1] : null;
  const lastAi = [...game.history].reverse().find((m) => m.by_ai);
  const win = new Set(game.winning_cells);
  document.querySelectorAll(".sf-cell").forEach((node) => {
    const c = Number(node.dataset.cell);
    const peg = Number(node.dataset.peg);
    const ch = cells[c];
    node.classList.toggle("x", ch === "x");
    node.classList.toggle("o", ch === "o");
    node.classList.toggle("last", last !== null && last.cell === c);
    node.classList.toggle("last-ai", lastAi !== undefined && lastAi.cell === c);
    node.classList.toggle("win", win.has(c));
    node.disabled = !game.your_turn || busy || game.heights[peg] >= 4;
    const who = ch === "x" ? "X" : ch === "o" ? "O" : "empty";
    node.setAttribute("aria-label", `peg ${pegName(peg)}, level ${Math.floor(c / 16) + 1}: ${who}`);
    node.textContent = ch === "." ? "" : ch.toUpperCase();
  });
}

// --- panels -------------------------------------------------------------------------------

function describeQuality(m) {
  const cls = m.quality >= 0.999 ? "good" : m.quality >= 0.6 ? "warn" : "bad";
  const verdict = m.value >= m.best_value - 1e-9 ? "as good as the best move"
    : `the best move scores ${m.best_text}`;
  return el("div", {},
    el("div", { class: "sf-big " + cls }, `${m.action}: f = ${fmt(m.quality, 2)}`),
    el("div", { class: "small" }, m.rank === 1 ? `Your best of ${m.of} moves by one-ply evaluation (f = 1).`
      : `${m.rank - 1} of the ${m.of} moves were better by one-ply evaluation (f = 1 is your best, 0 your worst).`),
    el("div", { class: "small" }, `Search value ${m.value_text}: ${verdict}.`));
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
  $("status").className = game.winner ? (game.winner === game.human ? "good" : game.winner === "draw" ? "" : "bad") : "";
  $("ai-label").textContent = `you ${you}, the AI ${ai}: ${game.ai}`;

  const mine = game.history.filter((m) => !m.by_ai);
  $("quality").replaceChildren(mine.length ? describeQuality(mine[mine.length - 1])
    : el("span", { class: "muted" }, "—"));

  const da = game.skill !== null;
  $("skill-title").textContent = da ? "The AI's estimate of your skill" : "The mean quality of your moves";
  const value = da ? game.skill : game.mean_quality;
  if (value === null) setMeter($("skill-meter"), 0, "–");
  else setMeter($("skill-meter"), value, `f = ${fmt(value, 3)}`);
  $("skill-note").textContent = da
    ? `Decision analysis models your reply as a chance event weighted by this estimate and updates it after each of your moves (f ← (1−β) f + β f of your move). Mean f of your moves so far: ${fmt(game.mean_quality, 3)}.`
    : "Minimax assumes you always find your best reply; it keeps no estimate of you. This is the mean f of your moves.";
  drawTrace(da ? game.skill_trace : mine.map((_, i) => mean(mine.slice(0, i + 1).map((m) => m.quality))));

  const log = $("moves");
  log.replaceChildren(...game.history.map((m, i) => el("div", { class: m.by_ai ? "" : "mine" },
    `${i + 1}. ${m.side.toUpperCase()} ${m.action}` + (m.by_ai ? " (AI)" : ` — f ${fmt(m.quality, 2)}, ${m.value_text}`))));
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

// --- actions ------------------------------------------------------------------------------

function settings() {
  const ai = $("ai").value;
  const body = { ai, human: $("human").value };
  if (ai === "minimax") {
    body.depth = Number($("depth").value);
    body.seconds = Number($("seconds").value);
  } else if (ai === "mcts") {
    body.sims = Number($("sims").value);
  } else {
    body.da_depth = Number($("da-depth").value);
    body.beta = Number($("beta").value);
    body.f0 = Number($("f0").value);
  }
  return body;
}

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
  focusBoard();
}

async function play(peg) {
  if (!game || busy || !game.your_turn) return;
  busy = true;
  hideHint();
  // Show the bead at once; the AI's reply follows.
  const p = pegIndex(peg);
  if (game.heights[p] < 4) {
    const cells = game.board.replaceAll("/", "").split("");
    cells[game.heights[p] * 16 + p] = game.human;
    game = { ...game, board: cells.join("").match(/.{16}/g).join("/"), your_turn: false };
    drawBoard();
    drawPanels();
  }
  try {
    game = await api(`${API}/${game.id}/act`, { body: { action: peg } });
  } catch {
    game = await api(`${API}/${game.id}`);
  } finally {
    busy = false;
  }
  render();
  focusBoard();
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
  const best = h.options[0];
  $("hint-table").querySelector("tbody").replaceChildren(...h.options.map((o) => el("tr", {
    class: "clickable" + (o.regret <= 1e-9 ? " best" : ""), tabindex: "0",
    onclick: () => play(o.action),
    onkeydown: (e) => { if (e.key === "Enter") play(o.action); },
  }, el("td", {}, o.action), el("td", { class: "num" }, o.value_text),
  el("td", { class: "num" }, fmt(o.regret, 0)), el("td", { class: "num" }, fmt(o.quality, 2)))));
  $("hint-panel").classList.remove("hidden");
  const p = pegIndex(best.action);
  document.querySelector(`.sf-cell[data-cell="${game.heights[p] * 16 + p}"]`)?.classList.add("hinted");
}

function focusBoard() {
  if (game?.your_turn) $("peg-input").focus();
}

// --- start --------------------------------------------------------------------------------

function syncSetup() {
  const ai = $("ai").value;
  document.querySelectorAll(".mm-only").forEach((n) => n.classList.toggle("hidden", ai !== "minimax"));
  document.querySelectorAll(".mcts-only").forEach((n) => n.classList.toggle("hidden", ai !== "mcts"));
  document.querySelectorAll(".da-only").forEach((n) => n.classList.toggle("hidden", ai !== "decision-analysis"));
}

async function start() {
  $("header").replaceWith(siteHeader("scorefour"));
  buildBoard();
  $("ai").addEventListener("change", syncSetup);
  $("setup").addEventListener("submit", newGame);
  $("hint").addEventListener("click", hint);
  $("type-move").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("peg-input").value.trim().toLowerCase();
    $("peg-input").value = "";
    if (text) play(text);
  });
  document.addEventListener("keydown", (e) => {
    // The peg box takes a-d and 1-4 only, so H there asks for the hint too.
    const typing = (e.target instanceof HTMLInputElement && e.target.id !== "peg-input")
      || e.target instanceof HTMLSelectElement;
    if (!typing && !e.ctrlKey && !e.metaKey && !e.altKey && (e.key === "h" || e.key === "H")) {
      e.preventDefault();
      hint();
    }
  });
  syncSetup();
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
