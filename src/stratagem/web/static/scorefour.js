// Score Four: a renderer of a play session (/api/sessions, the one REST shape of every game).
// The session holds the game (seats, the AI's moves, takeback, the record); the coach
// (games/scorefour/coach.py, through the session's view and advice) says what every move is
// worth. The board in depth (isometric SVG) sits above the four level grids that take the moves.
import {
  api, apiPatiently, ApiError, confirmNewGame, el, fmt, readState, recordUrl, siteHeader, storageNote, svgEl, writeState,
} from "/static/common.js";

const $ = (id) => document.getElementById(id);
const API = "/api/sessions";
const GAME = "scorefour";
const COLS = "abcd";
const SIDES = "XO";
const pegName = (p) => `${COLS[p % 4]}${Math.floor(p / 4) + 1}`;
const pegIndex = (name) => (Number(name[1]) - 1) * 4 + COLS.indexOf(name[0].toLowerCase());

let view = null;        // the SessionView
let replayAt = null;    // a decision number: the read-only position before it (?at=)
let busy = false;
let hintShown = false;
let agents = [];
let pendingColumn = null;
const verdicts = new Map(); // decision number -> the coach's row for the move played there
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

// --- the board in depth: an isometric drawing ---------------------------------------------------

// An oblique view from the front and a little above: columns a-d run to the right, rows 1-4
// go back (up and a little right), so no two pegs share a screen column; each level is a
// plate of its own (its depth, 3 * DY, is less than DZ), so a bead's level is never in doubt.
const W = 340, H = 356, DX = 56, SKEW = 14, DY = 18, DZ = 76, LEFT = 70, BASE = 322;

/** Screen position of column x, row y, level z: row 1 in front, level 1 at the bottom. */
function iso(x, y, z) {
  return [LEFT + x * DX + y * SKEW, BASE - y * DY - z * DZ];
}

function draw3d(cells, last, win, lines) {
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
      const cls = `sf-bead ${cells[c]}` + (win.has(c) ? " win" : "") + (last === c ? " last-ai" : "");
      svg.append(svgEl("ellipse", { cx: sx, cy: sy, rx: 15, ry: 10, class: cls }));
    }
  }
  for (const line of lines) {
    const pts = line.map((c) => pt(c % 4, Math.floor((c % 16) / 4), Math.floor(c / 16)));
    svg.append(svgEl("polyline", { class: "sf-winline-under", points: pts.join(" ") }));
    svg.append(svgEl("polyline", { class: "sf-winline", points: pts.join(" ") }));
  }
  const beads = [...cells].filter((c) => c !== ".").length;
  title.textContent = `The board in depth: ${beads} beads` + (lines.length
    ? `; the winning line runs through ${lines[0].map((c) => `${pegName(c % 16)} level ${Math.floor(c / 16) + 1}`).join(", ")}`
    : "");
}

// --- what the board shows -----------------------------------------------------------------

/** The seat of the person (0 X, 1 O), "both" when every seat is a person's, null if none. */
function humanSeat() {
  const humans = view.seats.map((s, i) => (s === "human" ? i : -1)).filter((i) => i >= 0);
  if (humans.length === 2) return "both";
  return humans.length ? humans[0] : null;
}

const yourTurn = () => view && replayAt === null && view.human_to_move && !busy;

/** Cells (x/o/.) and pegs' heights: the session's view (of ?at= in a replay, by the server). */
function position() {
  return { cells: view.view.cells, heights: view.view.heights };
}

/** The cell of the last bead (its peg is the line's last decision), or null. */
function lastCell(heights) {
  const n = view.decisions.length; // a replay's view lists the decisions up to its point
  if (!n) return null;
  const peg = Number(view.decisions[n - 1].text);
  return (heights[peg] - 1) * 16 + peg;
}

function drawBoard() {
  const { cells, heights } = position();
  const last = lastCell(heights);
  const lines = view.view.winning_lines;
  const win = new Set(lines.flat());
  const open = yourTurn();
  document.querySelectorAll(".sf-cell").forEach((node) => {
    const c = Number(node.dataset.cell);
    const peg = Number(node.dataset.peg);
    const ch = cells[c];
    node.classList.toggle("x", ch === "x");
    node.classList.toggle("o", ch === "o");
    node.classList.toggle("last-ai", last === c);
    node.classList.toggle("win", win.has(c));
    // aria-disabled, not disabled: the focused cell keeps the focus while the AI replies
    node.setAttribute("aria-disabled", String(!open || heights[peg] >= 4));
    const who = ch === "x" ? "X" : ch === "o" ? "O" : "empty";
    const extra = (win.has(c) ? ", in the winning line" : "") + (last === c ? ", the last bead" : "");
    node.setAttribute("aria-label", `peg ${pegName(peg)}, level ${Math.floor(c / 16) + 1}: ${who}${extra}`);
    node.textContent = ch === "." ? "" : ch.toUpperCase();
  });
  draw3d(cells, last, win, lines);
}

/** Mark where a bead dropped on `peg` would land. */
function preview(peg, on) {
  document.querySelectorAll(".sf-cell.landing").forEach((c) => c.classList.remove("landing"));
  document.querySelectorAll("#board3d .landing").forEach((c) => c.remove());
  if (!on || !yourTurn()) return;
  const h = view.view.heights[peg];
  if (h >= 4) return;
  cellNode(h, peg)?.classList.add("landing");
  const [sx, sy] = iso(peg % 4, Math.floor(peg / 4), h);
  $("board3d").append(svgEl("circle", { cx: sx, cy: sy, r: 10, class: "landing" }));
}

// --- panels -------------------------------------------------------------------------------

const LABEL_CLASS = { best: "sf-good", good: "sf-good", inaccuracy: "sf-warn", mistake: "sf-warn", blunder: "sf-bad" };

function describeVerdict(row, best) {
  const same = row.cost <= 1e-9;
  const exact = row.exact && best.exact ? "proven by the search" : "the search's evaluation";
  return el("div", {},
    el("div", { class: "sf-big " + LABEL_CLASS[row.label] }, `${row.peg}: ${row.value_text} — ${row.label}`),
    el("div", { class: "small" }, same ? `No legal move was better (${exact})`
      + (String(row.verdict || "").includes("every move loses") ? ": every move loses." : ".")
      : `The best was ${best.peg} (${best.value_text}): this move cost ${fmt(row.cost, 0)} points (${exact}).`));
}

function drawPanels() {
  const seat = humanSeat();
  const v = view.view;
  let status;
  if (replayAt !== null) status = `The position before move ${replayAt + 1} (read-only)`;
  else if (v.winner === "draw") status = "The board is full: a draw.";
  else if (v.winner) {
    const side = "xo".indexOf(v.winner);
    status = seat === "both" || seat === null ? `${v.winner.toUpperCase()} wins.` : side === seat ? "You win!" : "The AI wins.";
  } else if (!view.human_to_move) status = "The AI is thinking…";
  else if (busy) status = "…";
  else status = seat === "both" ? `${SIDES[view.to_move]} to move` : `Your move (${SIDES[view.to_move]})`;
  $("status").textContent = status;
  $("status").className = v.winner && v.winner !== "draw" && typeof seat === "number"
    ? ("xo".indexOf(v.winner) === seat ? "sf-good" : "sf-bad") : "";
  $("ai-label").textContent = view.seats.map((s, i) => `${SIDES[i]}: ${s === "human" ? "you" : s}`).join(", ");

  const mine = [...verdicts.entries()].filter(([j]) => j < view.decisions.length).sort((a, b) => a[0] - b[0]);
  $("quality").replaceChildren(mine.length ? describeVerdict(...mine[mine.length - 1][1])
    : el("span", { class: "muted" }, "—"));
  $("unit-note").textContent = v.explain.cost;

  const log = $("moves");
  log.replaceChildren(...view.decisions.map((d, i) => {
    const judged = verdicts.get(i);
    const text = `${i + 1}. ${SIDES[d.player]} ${pegName(Number(d.text))}` + (d.by === "agent" ? " (AI)"
      : judged ? ` — ${judged[0].value_text}, ${judged[0].label}` : "");
    return el("div", { class: d.by === "human" ? "mine" : "" }, text);
  }));
  log.scrollTop = log.scrollHeight;

  $("takeback").disabled = replayAt !== null || busy || view.takeback_to.length === 0;
  $("hint").disabled = !yourTurn();
  $("review").href = `/review?id=${encodeURIComponent(view.id)}`;
  $("export").href = recordUrl(view.id);
  storageNote(view.storage);

  const replay = $("replay");
  replay.hidden = replayAt === null;
  if (replayAt !== null) {
    replay.replaceChildren(`Move ${replayAt + 1} of ${view.total_decisions} of this game, as it stood. `,
      el("button", { type: "button", id: "assistant", onclick: openAssistant }, "Open in the assistant"), " ",
      el("a", { class: "button", href: `/${GAME}?id=${encodeURIComponent(view.id)}` }, "Back to the game"));
  }
}

function render() {
  $("game").hidden = false;
  drawBoard();
  drawPanels();
  if (!yourTurn()) hideHint();
}

// --- the opponents, from the registry (GET /api/games) ---------------------------------------

function buildOpponents() {
  $("ai").replaceChildren(...agents.map((a) => el("option", { value: a.name }, a.name)));
  $("ai").value = agents.some((a) => a.name === "decision-analysis") ? "decision-analysis" : agents[0].name;
  buildParams();
}

function buildParams() {
  const entry = agents.find((a) => a.name === $("ai").value);
  const box = $("params");
  box.replaceChildren();
  $("ai-summary").textContent = entry ? entry.summary : "";
  if (!entry) return;
  for (const p of entry.params) {
    const attrs = { id: `param-${p.name}`, dataset: { name: p.name, default: p.default === null ? "" : String(p.default) } };
    let input;
    if (p.choices.length) {
      input = el("select", attrs, ...p.choices.map((c) => el("option", { value: c }, c)));
      input.value = p.default ?? p.choices[0];
    } else {
      input = el("input", {
        ...attrs, type: "number", step: p.type === "int" ? "1" : "any",
        min: p.low_open ? null : p.min, max: p.max, value: p.default,
        placeholder: p.required ? "required" : "default",
      });
    }
    box.append(el("label", { title: p.kind }, `${p.name}: ${p.help} (${p.kind}) `, input));
  }
}

/** The registry spec of the chosen opponent: name, then each parameter changed from its default. */
function opponentSpec() {
  const parts = [];
  for (const input of $("params").querySelectorAll("input, select")) {
    const value = input.value.trim();
    if (value === "" || value === input.dataset.default || Number(value) === Number(input.dataset.default) && input.dataset.default !== "") continue;
    parts.push(`${input.dataset.name}=${value}`);
  }
  return $("ai").value + (parts.length ? ":" + parts.join(",") : "");
}

// --- actions ------------------------------------------------------------------------------

async function newGame(event) {
  event?.preventDefault();
  if (replayAt === null && !confirmNewGame(view)) return;
  hideHint();
  busy = true;
  $("new-game").disabled = true;
  const ai = opponentSpec();
  const seats = $("human").value === "x" ? ["human", ai] : [ai, "human"];
  try {
    view = await api(API, { body: { game: GAME, seats } });
    verdicts.clear();
    replayAt = null;
    writeState({ id: view.id }, { push: true });
  } finally {
    busy = false;
    $("new-game").disabled = false;
  }
  render();
  await agentsMove();
  // the board takes the keys (a button: no text field, so no phone keyboard pops up)
  cellNode(0, focusPeg[0]).focus();
}

/** The AI's moves until a person is to move (one request a move: the wait is per move). */
async function agentsMove() {
  while (view && replayAt === null && !view.over && !view.human_to_move) {
    drawPanels();
    view = await api(`${API}/${view.id}/ai`, { method: "POST" });
    render();
  }
}

async function play(peg) {
  if (!yourTurn()) return;
  const p = pegIndex(peg);
  if (!(p >= 0 && p < 16) || view.view.heights[p] >= 4) return;
  busy = true;
  hideHint();
  setPending(null);
  const index = view.decisions.length;
  try {
    // the coach's rows for this position first: its verdict on the move about to be played
    const advice = await api(`${API}/${view.id}/advice`);
    const row = advice.rows.find((r) => r.action === String(p));
    view = await api(`${API}/${view.id}/move`, { body: { decision: String(p) } });
    if (row) verdicts.set(index, [row, advice.rows[0]]);
  } catch {
    view = await api(`${API}/${view.id}`);
  } finally {
    busy = false;
  }
  render();
  await agentsMove();
}

async function takeback() {
  if (!view || replayAt !== null || busy || !view.takeback_to.length) return;
  busy = true;
  hideHint();
  try {
    view = await api(`${API}/${view.id}/takeback`, { body: { decision: null } });
    for (const j of [...verdicts.keys()]) if (j >= view.decisions.length) verdicts.delete(j);
  } finally {
    busy = false;
  }
  render();
}

/** The verdicts on a resumed game's moves, from its review (GET /api/sessions/{id}/review,
 * the same coach's judge); a server without the review leaves them out. */
async function fillVerdicts(id) {
  if (!view || !view.decisions.some((d) => d.by === "human")) return;
  let review;
  try {
    review = await api(`${API}/${encodeURIComponent(id)}/review`, { quiet: true });
  } catch {
    return;
  }
  if (!view || view.id !== id) return;
  for (const d of review.decisions || []) {
    const x = d.extra || {};
    if (d.index >= view.decisions.length || verdicts.has(d.index) || !x.played_peg) continue;
    verdicts.set(d.index, [
      { peg: x.played_peg, value_text: x.played_value, label: d.label, cost: d.cost, exact: d.exact },
      { peg: x.best_peg, value_text: x.best_value, exact: d.exact },
    ]);
  }
  drawPanels();
}

async function openAssistant() {
  const branched = await api(`${API}/${view.id}/branch`, { body: { at: replayAt } });
  view = branched;
  replayAt = null;
  verdicts.clear();
  writeState({ id: view.id }, { push: true });
  render();
  await hint();
}

function hideHint() {
  hintShown = false;
  $("hint-panel").classList.add("hidden");
  document.querySelectorAll(".sf-cell.hinted").forEach((c) => c.classList.remove("hinted"));
}

async function hint() {
  if (!yourTurn()) return;
  if (hintShown) return hideHint();
  const h = await api(`${API}/${view.id}/advice`);
  hintShown = true;
  const explain = view.view.explain;
  $("hint-explain").textContent = `${explain.points} ${explain.cost} "Wins in n" counts the mover's own moves, this one included; "loses in n" counts the opponent's.`;
  $("hint-table").querySelector("tbody").replaceChildren(...h.rows.map((o) => el("tr", {
    class: "sf-row-" + o.label, onclick: () => play(o.peg),
  }, el("td", {}, el("button", { type: "button", class: "sf-play", "aria-label": `play ${o.peg}` }, o.peg)),
  el("td", {}, o.value_text + (o.exact ? "" : "")),
  el("td", { class: "num" }, o.cost <= 1e-9 ? "0" : fmt(o.cost, 0)),
  el("td", { class: LABEL_CLASS[o.label] }, o.label),
  el("td", {}, o.verdict))));
  $("hint-panel").classList.remove("hidden");
  const p = pegIndex(h.rows[0].peg);
  cellNode(view.view.heights[p], p)?.classList.add("hinted");
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
  } else if (k === "u") {
    e.preventDefault();
    takeback();
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

// --- start: the game of ?id= (reload, Back, a shared URL), else a new one -------------------------

async function load() {
  const { id, at } = readState();
  hideHint();
  verdicts.clear();
  if (!id) {
    view = null;
    return newGame();
  }
  const j = at === undefined ? null : Number(at);
  const query = j !== null && Number.isInteger(j) && j >= 0 ? `?at=${j}` : "";
  try {
    view = await apiPatiently(`${API}/${encodeURIComponent(id)}${query}`, { quiet: true });
  } catch (err) {
    // only a game that does not exist here (or not any more) gives way to a new one; a
    // server that could not answer keeps the URL, so a reload finds the game later
    if (err instanceof ApiError && ![404, 410, 422].includes(err.status)) return;
    writeState({});
    view = null;
    return newGame();
  }
  replayAt = view.replay_at ?? null;
  render();
  fillVerdicts(view.id); // not awaited: the game goes on while the review is computed
  // a position opened in the assistant (every seat a person's): the coach's rows at once
  if (humanSeat() === "both" && yourTurn()) await hint();
  await agentsMove();
}

async function start() {
  $("header").replaceWith(siteHeader(GAME));
  buildBoard();
  const games = await api("/api/games");
  agents = games.games.find((g) => g.name === GAME).agents;
  buildOpponents();
  $("ai").addEventListener("change", buildParams);
  $("setup").addEventListener("submit", newGame);
  $("hint").addEventListener("click", hint);
  $("takeback").addEventListener("click", takeback);
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", load);
  await load();
}

start();
