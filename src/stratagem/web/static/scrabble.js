// Scrabble: play against the registry's AI; the assistant lists the best moves of any position.
import { api, el, readState, writeState, siteHeader, showError, clearError } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const API = "/api/scrabble";
const COLS = "ABCDEFGHIJKLMNO";
const EMPTY_ROW = ".".repeat(15);
const PREMIUM_TEXT = { T: "TW", D: "DW", t: "TL", d: "DL" };

const query = readState();
const mode = query.mode === "assistant" ? "assistant" : "play";
const tileSets = {}; // name -> {letters, values, premium, ...}

async function tileSet(name) {
  if (!tileSets[name]) tileSets[name] = await api(`${API}/tiles/${name}`);
  return tileSets[name];
}

function letterValue(ts, ch) {
  if (ch !== ch.toUpperCase()) return 0; // a blank
  const i = ts.letters.indexOf(ch);
  return i < 0 ? 0 : ts.values[i];
}

const coordinate = (r, c, across) => (across ? `${r + 1}${COLS[c]}` : `${COLS[c]}${r + 1}`);

/** The unseen tiles (the opponent's rack + the bag) into `grid`, a summary into `summary`. */
function drawTracking(grid, summary, where, t, opponent) {
  grid.replaceChildren(...t.by_letter.map((x) => el("span", {
    class: x.unseen ? "" : "gone", title: `${x.letter === "?" ? "blank" : x.letter}: ${x.unseen} of ${x.total} unseen`,
  }, `${x.letter}${x.unseen}`)));
  where.textContent = t.bag ? `(${opponent}'s rack + the bag)` : `(the bag is empty: ${opponent}'s rack)`;
  summary.textContent = `${t.unseen_total} unseen: bag ${t.bag}, ${opponent} ${t.opponent_tiles}; `
    + `vowels ${t.vowels}, consonants ${t.consonants}, blanks ${t.blanks}`;
}

/** A progress bar that fills over `seconds` while a request waits (the AI's or the assistant's budget). */
function thinking(label, seconds) {
  const bar = $("think-progress");
  const started = Date.now();
  bar.classList.remove("hidden");
  const tick = () => {
    const secs = (Date.now() - started) / 1000;
    $("think-bar").style.width = `${Math.min(100, (100 * secs) / seconds)}%`;
    label(secs);
  };
  tick();
  const timer = setInterval(tick, 200);
  return () => { clearInterval(timer); bar.classList.add("hidden"); $("think-bar").style.width = "0"; };
}

// --- the board ----------------------------------------------------------------------------

/**
 * Draw `rows` (15 strings) into `container`. `marks` maps "r,c" to {letter?, cls} drawn on top:
 * pending tiles, a previewed move, the AI's last move, the editor's cursor.
 */
function drawBoard(container, ts, rows, marks, onSquare) {
  const cells = [el("span", { class: "sc-label" })];
  for (const c of COLS) cells.push(el("span", { class: "sc-label", "aria-hidden": "true" }, c));
  for (let r = 0; r < 15; r++) {
    cells.push(el("span", { class: "sc-label", "aria-hidden": "true" }, String(r + 1)));
    for (let c = 0; c < 15; c++) {
      const mark = marks.get(`${r},${c}`) || {};
      const ch = mark.letter ?? rows[r][c];
      const premium = ts.premium[r][c];
      const classes = ["sc-sq"];
      let content = [];
      let label = `${COLS[c]}${r + 1}`;
      if (ch !== ".") {
        classes.push("sc-tile");
        if (ch !== ch.toUpperCase()) classes.push("blank");
        content = [ch.toUpperCase(), el("span", { class: "v" }, String(letterValue(ts, ch)))];
        label += `: ${ch.toUpperCase()}${ch !== ch.toUpperCase() ? " (blank)" : ""}`;
      } else if (r === 7 && c === 7) {
        classes.push("star");
        content = ["★"];
      } else if (premium !== ".") {
        classes.push(premium);
        content = [PREMIUM_TEXT[premium]];
        label += ` ${PREMIUM_TEXT[premium]}`;
      }
      if (mark.cls) classes.push(...mark.cls.split(" "));
      const attrs = {
        class: classes.join(" "), type: "button", "aria-label": label, tabindex: "-1",
        dataset: { r: String(r), c: String(c), dir: mark.dir || "" },
        onclick: onSquare ? () => onSquare(r, c) : null,
      };
      cells.push(el("button", attrs, ...content));
    }
  }
  container.replaceChildren(...cells);
}

/** The CLI notation of tiles laid on `rows`: "8H WORD" with the whole word, or an error text. */
function notation(rows, laid) {
  if (!laid.size) return { text: "" };
  const at = (r, c) => {
    if (r < 0 || r > 14 || c < 0 || c > 14) return null;
    const key = `${r},${c}`;
    if (laid.has(key)) return laid.get(key).letter;
    return rows[r][c] === "." ? null : rows[r][c];
  };
  const squares = [...laid.keys()].map((k) => k.split(",").map(Number));
  const rowsUsed = new Set(squares.map(([r]) => r));
  const colsUsed = new Set(squares.map(([, c]) => c));
  let across;
  if (squares.length === 1) {
    const [r, c] = squares[0];
    across = at(r, c - 1) !== null || at(r, c + 1) !== null || !(at(r - 1, c) !== null || at(r + 1, c) !== null);
  } else if (rowsUsed.size === 1) across = true;
  else if (colsUsed.size === 1) across = false;
  else return { error: "the new tiles must lie in one row or one column" };
  const [dr, dc] = across ? [0, 1] : [1, 0];
  let [r, c] = squares.reduce((a, b) => (a[0] * 15 + a[1] <= b[0] * 15 + b[1] ? a : b));
  while (at(r - dr, c - dc) !== null) { r -= dr; c -= dc; }
  const [r0, c0] = [r, c];
  let word = "";
  while (at(r, c) !== null) { word += at(r, c); r += dr; c += dc; }
  const covered = squares.every(([sr, sc]) => (across ? sr === r0 && sc >= c0 && sc < c0 + word.length
    : sc === c0 && sr >= r0 && sr < r0 + word.length));
  if (!covered) return { error: "the new tiles must form one unbroken line with the board's" };
  return { text: `${coordinate(r0, c0, across)} ${word}` };
}

function askBlankLetter(ts) {
  const answer = window.prompt(`Letter for the blank (${ts.letters.join("")}):`, "");
  if (answer === null) return null;
  const ch = answer.trim().toUpperCase();
  if (ch.length !== 1 || !ts.letters.includes(ch)) {
    showError(`a blank stands for one letter of the set: ${ts.letters.join("")}`);
    return null;
  }
  return ch.toLowerCase();
}

// --- lexicons and opponents ---------------------------------------------------------------

async function loadOptions() {
  const opts = await api(`${API}/options`);
  const server = opts.lexicons.some((l) => l.lexicon === "server" && l.available);
  for (const select of document.querySelectorAll(".lexicon-select")) {
    select.replaceChildren(el("option", { value: "builtin" }, "built-in (informal)"));
    if (server) select.append(el("option", { value: "server" }, "this server's word list"));
  }
  $("ai").replaceChildren(...opts.agents.map((a) => el("option", { value: a.name, title: `${a.about} (${a.spec})` }, a.label)));
}

// --- play ---------------------------------------------------------------------------------

let game = null;
let pending = new Map(); // "r,c" -> {letter, index}
let selected = null; // rack index
let preview = null; // a hint row shown on the board
let busy = false;

function rackLetters() {
  return game ? [...game.rack] : [];
}

function drawPlay() {
  const ts = tileSets[game.tiles];
  const marks = new Map();
  const lastAi = [...game.history].reverse().find((t) => t.by === "ai");
  if (lastAi) for (const s of lastAi.squares) marks.set(`${s.row},${s.col}`, { cls: "last-ai" });
  if (preview) for (const t of preview.tiles) marks.set(`${t.row},${t.col}`, { letter: t.letter, cls: "preview" });
  for (const [key, p] of pending) marks.set(key, { letter: p.letter, cls: "pending" });
  drawBoard($("board"), ts, game.board, marks, onPlaySquare);

  const used = new Set([...pending.values()].map((p) => p.index));
  $("rack").replaceChildren(...rackLetters().map((ch, i) => el("button", {
    type: "button",
    class: "sc-tile" + (ch === "?" ? " blank" : "") + (i === selected ? " selected" : "") + (used.has(i) ? " used" : ""),
    disabled: used.has(i) || !game.your_turn, "aria-pressed": i === selected ? "true" : "false",
    "aria-label": ch === "?" ? "blank tile" : `tile ${ch}`,
    onclick: () => { selected = selected === i ? null : i; drawPlay(); },
  }, ch === "?" ? "" : ch, el("span", { class: "v" }, ch === "?" ? "0" : String(letterValue(ts, ch))))));

  $("your-score").textContent = String(game.your_score);
  $("ai-score").textContent = String(game.ai_score);
  $("bag").textContent = String(game.bag);
  $("ai-tiles").textContent = String(game.ai_rack_size);
  if (!busy) $("status").textContent = game.finished ? game.result : game.your_turn ? "Your move" : game.result;
  $("status").className = game.finished ? (game.your_score > game.ai_score ? "good" : game.your_score < game.ai_score ? "bad" : "") : "";
  $("lexicon-label").textContent = `${game.tiles}, ${game.lexicon}; AI: ${game.ai}`;
  for (const id of ["play-move", "clear", "pass", "hint", "move"]) $(id).disabled = !game.your_turn || busy;
  $("challenge-btn").classList.toggle("hidden", game.challenge === "none");
  $("challenge-btn").disabled = !game.can_challenge || busy;
  $("rules-line").textContent = `Challenges: ${game.challenge} (${game.challenge_help}). The AI thinks up to ${game.think} s a move.`;
  $("thought").textContent = game.thought ? `The AI's ${game.thought}.` : "";
  drawTracking($("unseen"), $("tracking-summary"), $("tracking-where"), game.tracking, "the AI");
  $("save-gcg").href = `${API}/${game.id}/gcg`;
  const log = $("history");
  const who = (t) => (t.by === "ai" ? "AI" : "You");
  let n = 0;
  const line = (t) => {
    if (t.kind === "challenge") return el("div", { class: "verdict " + (t.by === "ai" ? "ai" : "mine") }, `${who(t)} challenged: ${t.text}`);
    if (t.kind === "end") return el("div", { class: "end " + (t.by === "ai" ? "ai" : "mine") }, `End: ${who(t)}, ${t.text} (${t.score > 0 ? "+" : t.score < 0 ? "−" : ""}${Math.abs(t.score)})`);
    n += 1;
    const scored = t.text.startsWith("exchange") || t.text === "pass" ? "" : ` (+${t.score})`;
    return el("div", { class: (t.by === "ai" ? "ai" : "mine") + (t.withdrawn ? " withdrawn" : "") },
      `${n}. ${who(t)}: ${t.text}${scored}` + (t.withdrawn ? " — taken back" : ""),
      t.best ? el("span", { class: "coach small" }, ` coach: ${fmt(-t.behind)}, best ${t.best}`) : "");
  };
  if (!game.history.length) log.replaceChildren(el("span", { class: "muted" }, "—"));
  else {
    const rows = game.history.map(line);
    if (game.finished) rows.push(el("div", { class: "end" }, `Totals: you ${game.your_score}, AI ${game.ai_score}`));
    log.replaceChildren(...rows);
  }
  log.scrollTop = log.scrollHeight;
}

function syncNotation() {
  if (!pending.size) return;
  const n = notation(game.board, pending);
  $("move").value = n.text || "";
  if (n.error) showError(n.error);
}

function onPlaySquare(r, c) {
  if (!game || !game.your_turn || busy) return;
  const key = `${r},${c}`;
  preview = null;
  if (pending.has(key)) {
    pending.delete(key);
    $("move").value = "";
    syncNotation();
    drawPlay();
    return;
  }
  if (game.board[r][c] !== "." || selected === null) return;
  const ts = tileSets[game.tiles];
  let letter = rackLetters()[selected];
  if (letter === "?") {
    letter = askBlankLetter(ts);
    if (letter === null) return;
  }
  pending.set(key, { letter, index: selected });
  selected = null;
  clearError();
  syncNotation();
  drawPlay();
}

function resetMove() {
  pending = new Map();
  selected = null;
  preview = null;
  $("move").value = "";
}

async function newGame(event) {
  event?.preventDefault();
  busy = true;
  const loading = $("play-loading");
  const started = Date.now();
  const tick = () => {
    const secs = Math.round((Date.now() - started) / 1000);
    loading.textContent = `Preparing the game and its word list… ${secs} s (the first use of a lexicon builds it, a few seconds to a minute; then it is cached)`;
  };
  tick();
  const timer = setInterval(tick, 1000);
  // Shown only if the answer takes a moment (a lexicon built for the first time).
  const show = setTimeout(() => loading.classList.remove("hidden"), 400);
  $("new-game").disabled = true;
  try {
    const body = { tiles: $("tiles").value, lexicon: $("lexicon").value, ai: $("ai").value, ai_first: $("ai-first").checked,
      challenge: $("challenge").value, think: Number($("think").value) };
    await tileSet(body.tiles);
    game = await api(`${API}/new`, { body });
    writeState({ mode: "play", game: game.id });
  } finally {
    busy = false;
    clearInterval(timer);
    clearTimeout(show);
    loading.classList.add("hidden");
    $("new-game").disabled = false;
  }
  resetMove();
  $("hint-panel").classList.add("hidden");
  $("game").hidden = false;
  drawPlay();
  $("move").focus();
}

/** Send a request that makes the AI move, with its thinking shown against its budget. */
async function aiTurn(path, body) {
  busy = true;
  const stop = thinking((secs) => { $("status").textContent = `The AI is thinking… ${secs.toFixed(0)} s (up to ${game.think} s)`; }, game.think);
  drawPlay();
  try {
    game = await api(`${API}/${game.id}/${path}`, body ? { body } : { method: "POST" });
    return true;
  } catch {
    return false; // the banner says why; the tiles stay where they were
  } finally {
    busy = false;
    stop();
  }
}

async function playMove(text) {
  if (!game || busy || !text.trim()) return;
  if (await aiTurn("act", { move: text.trim() })) {
    resetMove();
    $("hint-panel").classList.add("hidden");
  }
  drawPlay();
  if (game.your_turn) $("move").focus();
}

async function challengeLast() {
  if (!game || busy || !game.can_challenge) return;
  await aiTurn("challenge", null);
  resetMove();
  drawPlay();
}

/** A signed number to one decimal, with a true minus sign; -0.04 reads 0.0. */
function fmt(x) {
  const r = Math.round(x * 10) / 10;
  return (r > 0 ? "+" : r < 0 ? "−" : "") + Math.abs(r).toFixed(1);
}

async function showHint() {
  if (!game || !game.your_turn) return;
  const panel = $("hint-panel");
  const advice = await api(`${API}/${game.id}/advise?top=10`);
  const closing = advice.phase === "closing";
  $("hint-note").textContent = (closing
    ? "The bag is empty: ranked by score, plus twice the AI's tiles for going out, minus the tiles you keep. "
    : "Ranked by score + the learned value of the tiles you keep. ")
    + `${advice.total} legal placements. Click a move to see it on the board and in the move box.`;
  $("hint-leave-head").textContent = closing ? "end" : "leave";
  $("hint-why").textContent = "";
  $("hint-table").querySelector("tbody").replaceChildren(...advice.moves.map((m, i) => el("tr", {
    class: "clickable" + (m.behind === 0 ? " best" : ""), tabindex: "0", title: m.why,
    onclick: (e) => choose(m, e.currentTarget),
    onkeydown: (e) => { if (e.key === "Enter") choose(m, e.currentTarget); },
  }, el("td", {}, m.move), el("td", { class: "num" }, String(m.score)),
  el("td", { class: "num" }, fmt(closing ? m.closing : m.leave)),
  el("td", { class: "num" }, m.value.toFixed(1)),
  el("td", { class: "num" }, m.behind === 0 ? "best" : fmt(-m.behind)))));
  panel.classList.remove("hidden");
}

function choose(move, row) {
  pending = new Map();
  selected = null;
  preview = move.tiles.length ? move : null;
  document.querySelectorAll("#hint-table tr.selected").forEach((r) => r.classList.remove("selected"));
  row.classList.add("selected");
  $("move").value = move.move;
  $("hint-why").textContent = move.why;
  drawPlay();
}

async function startPlay() {
  $("setup").addEventListener("submit", newGame);
  $("move-form").addEventListener("submit", (e) => { e.preventDefault(); playMove($("move").value); });
  $("clear").addEventListener("click", () => { resetMove(); drawPlay(); });
  $("pass").addEventListener("click", () => playMove("pass"));
  $("hint").addEventListener("click", showHint);
  $("challenge-btn").addEventListener("click", challengeLast);
  // Enter plays the tiles laid by clicks, Escape takes them back (focus is not in a field then).
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === "Enter" && $("move").value.trim()) { e.preventDefault(); playMove($("move").value); }
    if (e.key === "Escape") { resetMove(); drawPlay(); }
  });
  if (query.game) {
    try {
      game = await api(`${API}/${encodeURIComponent(query.game)}`, { quiet: true });
      await tileSet(game.tiles);
      $("game").hidden = false;
      drawPlay();
      return;
    } catch {
      writeState({ mode: "play" });
    }
  }
  await newGame();
}

// --- assistant ----------------------------------------------------------------------------

const editor = { rows: Array(15).fill(EMPTY_ROW), cursor: null, across: true, blankNext: false };
let results = null;
let shown = null; // index of the result shown on the board

/** Rows as "15/15/6CAT6/..." (runs of empty squares as numbers) for the URL. */
function packBoard(rows) {
  return rows.map((row) => row.replace(/\.+/g, (m) => String(m.length))).join("/");
}

function unpackBoard(text) {
  const rows = text.split("/").map((row) => row.replace(/\d+/g, (n) => ".".repeat(Number(n))));
  if (rows.length !== 15 || rows.some((r) => [...r].length !== 15)) throw new Error("a board has 15 rows of 15 squares");
  return rows.map((r) => r);
}

function setSquare(r, c, ch) {
  const cells = [...editor.rows[r]];
  cells[c] = ch;
  editor.rows[r] = cells.join("");
}

function drawAssistant() {
  const ts = tileSets[$("a-tiles").value];
  const marks = new Map();
  if (results && results.phonies) {
    for (const p of results.phonies) for (const sq of p.squares) marks.set(`${sq.row},${sq.col}`, { cls: "phony" });
  }
  if (shown !== null && results) {
    for (const t of results.moves[shown].tiles) marks.set(`${t.row},${t.col}`, { letter: t.letter, cls: "preview" });
  }
  if (editor.cursor) {
    const [r, c] = editor.cursor;
    const key = `${r},${c}`;
    marks.set(key, { ...(marks.get(key) || {}), cls: ((marks.get(key) || {}).cls || "") + " cursor", dir: editor.across ? "→" : "↓" });
  }
  drawBoard($("a-board"), ts, editor.rows, marks, (r, c) => {
    if (editor.cursor && editor.cursor[0] === r && editor.cursor[1] === c) editor.across = !editor.across;
    editor.cursor = [r, c];
    drawAssistant();
    $("a-board").focus();
  });
}

function saveAssistantState() {
  const blank = editor.rows.every((r) => r === EMPTY_ROW);
  return writeState({
    mode: "assistant", tiles: $("a-tiles").value, lexicon: $("a-lexicon").value,
    rack: $("a-rack").value.trim(), top: $("a-top").value, rank: $("a-rank").value,
    board: blank ? null : packBoard(editor.rows), show: shown,
  });
}

function positionText() {
  return `board:\n${editor.rows.join("\n")}\n`;
}

/** The assistant's extra inputs: the scores, the unseen tiles (if typed), the budget. */
function extras() {
  const out = { budget: Number($("a-budget").value) };
  const mine = Number($("a-my-score").value || 0);
  const theirs = Number($("a-their-score").value || 0);
  if (mine || theirs) out.scores = [mine, theirs];
  const unseen = $("a-unseen").value.trim();
  if (unseen) out.unseen = unseen;
  return out;
}

/** A request that may search up to `budget` seconds, its time shown in the note. */
async function searching(budget, request) {
  const started = Date.now();
  const tick = () => {
    const secs = (Date.now() - started) / 1000;
    $("a-note").textContent = `Searching… ${secs.toFixed(0)} s (up to ${budget} s; the first use of a word list builds it: seconds to a minute, then it is cached)`;
  };
  tick();
  const timer = setInterval(tick, 250);
  try {
    return await request();
  } finally {
    clearInterval(timer);
  }
}

async function analyse(body) {
  $("a-find").disabled = true;
  try {
    results = await searching(body.budget || 5, () => api(`${API}/analyse`, { body }));
  } catch (e) {
    $("a-note").textContent = e.message;
    return false;
  } finally {
    $("a-find").disabled = false;
  }
  recorded = null;
  showAnalysis();
  return true;
}

function showAnalysis() {
  editor.rows = results.board;
  $("a-rack").value = results.rack;
  if (results.scores && results.scores.length >= 2) {
    $("a-my-score").value = String(results.scores[0]);
    $("a-their-score").value = String(results.scores[1]);
  }
  shown = null;
  drawResults();
}

function drawResults() {
  const closing = results.phase === "closing";
  const order = results.rank === "score" ? "highest-scoring placements"
    : closing ? "best by the coach: score, plus going out or minus the tiles kept"
    : "best by the coach: score + the learned value of the tiles kept";
  $("a-note").textContent = results.total
    ? `${results.total} legal placements for ${results.rack || "an empty rack"}; the ${results.moves.length} ${order}. Click a row to see it on the board.`
    : `No placement for ${results.rack || "an empty rack"} on this board.`;
  $("a-leave-head").textContent = closing ? "end" : "leave";
  $("a-why").textContent = shown !== null && results.moves[shown] ? results.moves[shown].why : "";
  drawExtras();
  $("a-table").querySelector("tbody").replaceChildren(...results.moves.map((m, i) => el("tr", {
    class: "clickable" + (i === shown ? " selected" : "") + (m.behind === 0 ? " best" : ""), tabindex: "0",
    title: m.why, onclick: () => showResult(i), onkeydown: (e) => { if (e.key === "Enter") showResult(i); },
  }, el("td", { class: "num" }, String(i + 1)), el("td", {}, m.move),
  el("td", { class: "num" }, String(m.score)), el("td", { class: "num" }, fmt(closing ? m.closing : m.leave)),
  el("td", { class: "num" }, m.value.toFixed(1)), el("td", { class: "num" }, m.behind === 0 ? "best" : fmt(-m.behind)))));
  drawAssistant();
  saveAssistantState();
}

let recorded = null; // the recorded move of a GCG turn opened in the assistant

function drawExtras() {
  const t = results.tracking;
  $("a-tracking-panel").classList.toggle("hidden", !t);
  if (t) drawTracking($("a-unseen-grid"), $("a-tracking-summary"), $("a-tracking-where"), t, "the opponent");
  $("a-phonies").textContent = results.phonies && results.phonies.length
    ? `Not in the word list (marked on the board): ${results.phonies.map((p) => p.word).join(", ")}` : "";
  const eg = results.endgame;
  $("a-endgame-panel").classList.toggle("hidden", !eg);
  if (eg) {
    $("a-endgame").textContent = `The bag is empty and the opponent's tiles are known: ${eg.best_move}, final spread `
      + `${eg.spread > 0 ? "+" : ""}${eg.spread} for you (${eg.exact ? "proved to the end" : `best found in ${results.budget} s, searched ${eg.depth} ${eg.depth === 1 ? "ply" : "plies"} ahead`}). `
      + `Line: ${eg.line.join(", ")}.`;
  }
  const box = $("a-recorded");
  box.classList.toggle("hidden", !recorded);
  if (recorded) {
    const row = recorded.recorded_row;
    const verdict = recorded.recorded_phonies.length
      ? `not in the word list (${recorded.recorded_phonies.join(", ")}): the coach cannot value it`
      : row ? `score ${row.score}, value ${row.value.toFixed(1)}, ${row.behind === 0 ? "the coach's best" : `${fmt(-row.behind)} against the coach's best ${results.moves[0].move}`}`
        : "not valued by the coach";
    box.replaceChildren(el("strong", {}, `Turn ${recorded.turn}, recorded: ${recorded.recorded}`), ` — ${verdict}`);
  }
}

function showResult(i) {
  shown = shown === i ? null : i;
  drawResults();
}

async function findMoves(event) {
  event?.preventDefault();
  const rack = $("a-rack").value.trim();
  await analyse({ tiles: $("a-tiles").value, lexicon: $("a-lexicon").value, position: positionText(),
    rack, top: Number($("a-top").value), rank: $("a-rank").value, ...extras() });
}

// --- game records (GCG) ---------------------------------------------------------------------

const MAX_GCG_CHARS = 60000;
let record = null; // the text of the record opened

async function openRecord(at) {
  const text = record;
  if (!text) return;
  if (text.length > MAX_GCG_CHARS) {
    $("gcg-note").textContent = `This record is ${text.length} characters; the page opens records of up to ${MAX_GCG_CHARS}.`;
    return;
  }
  const body = { tiles: $("a-tiles").value, lexicon: $("a-lexicon").value, text, top: Number($("a-top").value), budget: Number($("a-budget").value) };
  if (at) body.at = at;
  let view;
  try {
    view = await searching(body.budget, () => api(`${API}/gcg`, { body }));
  } catch (e) {
    $("gcg-note").textContent = e.message;
    $("a-note").textContent = "";
    return;
  }
  $("gcg-note").textContent = `${view.players[0]} ${view.totals[0]}, ${view.players[1]} ${view.totals[1]}: ${view.turns.length} turns replayed. Click a turn to open it.`;
  $("gcg-turns-box").classList.remove("hidden");
  $("gcg-turns").querySelector("tbody").replaceChildren(...view.turns.map((t, i) => el("tr", {
    class: (t.opens ? "clickable" : "muted") + (at === i + 1 ? " selected" : ""), tabindex: t.opens ? "0" : "-1",
    dataset: { turn: String(i + 1) },
    onclick: t.opens ? () => openRecord(i + 1) : null,
    onkeydown: t.opens ? (e) => { if (e.key === "Enter") openRecord(i + 1); } : null,
  }, el("td", { class: "num" }, String(i + 1)), el("td", {}, t.nick), el("td", {}, t.rack),
  el("td", {}, t.text), el("td", { class: "num" }, (t.points > 0 ? "+" : "") + t.points), el("td", { class: "num" }, String(t.total)))));
  if (view.review) {
    results = view.review.analysis;
    recorded = view.review;
    showAnalysis();
  } else {
    $("a-note").textContent = "The record is open: click a turn to see its position, the recorded move and the coach's best.";
  }
}

function onEditorKey(e) {
  if (!editor.cursor || e.ctrlKey || e.metaKey || e.altKey) return;
  const ts = tileSets[$("a-tiles").value];
  let [r, c] = editor.cursor;
  const [dr, dc] = editor.across ? [0, 1] : [1, 0];
  const move = (nr, nc) => { editor.cursor = [Math.min(14, Math.max(0, nr)), Math.min(14, Math.max(0, nc))]; };
  const key = e.key;
  if (key === "?") editor.blankNext = true;
  else if (key === " ") editor.across = !editor.across;
  else if (key === "ArrowLeft") move(r, c - 1);
  else if (key === "ArrowRight") move(r, c + 1);
  else if (key === "ArrowUp") move(r - 1, c);
  else if (key === "ArrowDown") move(r + 1, c);
  else if (key === "Backspace") {
    if (editor.rows[r][c] === ".") { r -= dr; c -= dc; move(r, c); [r, c] = editor.cursor; }
    setSquare(r, c, ".");
  } else if (key === "Delete") setSquare(r, c, ".");
  else if (key === "Enter") { findMoves(); return; }
  else if (key.length === 1 && ts.letters.includes(key.toUpperCase())) {
    setSquare(r, c, editor.blankNext ? key.toLowerCase() : key.toUpperCase());
    editor.blankNext = false;
    move(r + dr, c + dc);
  } else return;
  e.preventDefault();
  if (results && !key.startsWith("Arrow") && key !== " " && key !== "?") {
    results = null;
    shown = null;
    $("a-table").querySelector("tbody").replaceChildren();
    $("a-note").textContent = "The board changed: find the best moves again (Enter).";
  }
  drawAssistant();
  saveAssistantState();
}

async function startAssistant() {
  const tiles = query.tiles === "czech" ? "czech" : "english";
  $("a-tiles").value = tiles;
  if (query.lexicon && [...$("a-lexicon").options].some((o) => o.value === query.lexicon)) $("a-lexicon").value = query.lexicon;
  if (["10", "20", "50"].includes(query.top)) $("a-top").value = query.top;
  if (["value", "score"].includes(query.rank)) $("a-rank").value = query.rank;
  $("a-rack").value = query.rack || "";
  await tileSet("english");
  await tileSet("czech");
  if (query.board) {
    try {
      editor.rows = unpackBoard(query.board);
    } catch (e) {
      showError(`the link's board cannot be read: ${e.message}`);
    }
  }
  $("a-form").addEventListener("submit", findMoves);
  $("a-board").addEventListener("keydown", onEditorKey);
  $("a-clear").addEventListener("click", () => {
    editor.rows = Array(15).fill(EMPTY_ROW);
    results = null;
    shown = null;
    $("a-table").querySelector("tbody").replaceChildren();
    drawAssistant();
    saveAssistantState();
  });
  $("a-tiles").addEventListener("change", () => { results = null; shown = null; drawAssistant(); saveAssistantState(); });
  $("a-top").addEventListener("change", () => saveAssistantState());
  $("a-rank").addEventListener("change", () => saveAssistantState());
  $("a-lexicon").addEventListener("change", () => saveAssistantState());
  $("a-load").addEventListener("click", async () => {
    const text = $("a-text").value;
    await analyse({ tiles: $("a-tiles").value, lexicon: $("a-lexicon").value, position: text, top: Number($("a-top").value), rank: $("a-rank").value, budget: Number($("a-budget").value) });
  });
  $("gcg-open").addEventListener("click", () => { record = $("gcg-text").value; openRecord(null); });
  $("gcg-file").addEventListener("change", async () => {
    const file = $("gcg-file").files[0];
    if (!file) return;
    if (file.size > MAX_GCG_CHARS) {
      $("gcg-note").textContent = `${file.name} is ${file.size} bytes; the page opens records of up to ${MAX_GCG_CHARS} (a game is about 5,000).`;
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    try {
      record = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      $("gcg-note").textContent = `${file.name} is not UTF-8 text: save the record as UTF-8 and open it again.`;
      return;
    }
    $("gcg-text").value = record;
    openRecord(null);
  });
  $("share").addEventListener("click", (e) => {
    e.preventDefault();
    const url = saveAssistantState();
    navigator.clipboard?.writeText(url).catch(() => {});
    $("share").textContent = "link copied to the address bar";
  });
  drawAssistant();
  if (query.rack || query.board) {
    const ok = await analyse({ tiles, lexicon: $("a-lexicon").value, position: positionText(), rack: $("a-rack").value.trim(), top: Number($("a-top").value), rank: $("a-rank").value });
    const i = Number(query.show);
    if (ok && query.show !== undefined && Number.isInteger(i) && i >= 0 && i < results.moves.length) {
      shown = i;
      drawResults();
    }
  }
}

// --- start --------------------------------------------------------------------------------

async function start() {
  $("header").replaceWith(siteHeader("scrabble"));
  document.querySelectorAll("#tabs a").forEach((a) => a.classList.toggle("active", a.dataset.mode === mode));
  $(mode).classList.remove("hidden");
  await loadOptions();
  if (mode === "play") await startPlay();
  else await startAssistant();
}

start();
