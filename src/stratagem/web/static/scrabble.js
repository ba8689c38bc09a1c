// Scrabble: play against the registry's AI; the assistant lists the best moves of any position.
import { api, apiPatiently, ApiError, el, readState, writeState, siteHeader, showError, clearError } from "/static/common.js";

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
function drawBoard(container, ts, rows, marks, onSquare, focusAt = null) {
  const hadFocus = container.contains(document.activeElement);
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
        class: classes.join(" "), type: "button", "aria-label": label,
        // roving tabindex: one square of the board takes Tab, the arrows move it
        tabindex: focusAt && focusAt[0] === r && focusAt[1] === c ? "0" : "-1",
        dataset: { r: String(r), c: String(c), dir: mark.dir || "" },
        onclick: onSquare ? () => onSquare(r, c) : null,
      };
      cells.push(el("button", attrs, ...content));
    }
  }
  container.replaceChildren(...cells);
  if (hadFocus && focusAt) container.querySelector(`[data-r="${focusAt[0]}"][data-c="${focusAt[1]}"]`)?.focus();
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

// Each word-list select names the lists of the tile set chosen beside it (ENABLE for
// English, the informal list for Czech), from GET /options.
const LEXICON_TILES = { lexicon: "tiles", "a-lexicon": "a-tiles" };
let lexiconNames = [];

function nameLexicons() {
  for (const select of document.querySelectorAll(".lexicon-select")) {
    const tiles = $(LEXICON_TILES[select.id])?.value ?? "english";
    for (const option of select.options) {
      const found = lexiconNames.find((l) => l.tiles === tiles && l.lexicon === option.value);
      if (found && found.name) option.textContent = option.value === "builtin" ? `built-in: ${found.name}` : found.name;
    }
  }
}

async function loadOptions() {
  const opts = await api(`${API}/options`);
  const server = opts.lexicons.some((l) => l.lexicon === "server" && l.available);
  lexiconNames = opts.lexicons;
  for (const select of document.querySelectorAll(".lexicon-select")) {
    select.replaceChildren(el("option", { value: "builtin" }, "built-in"));
    if (server) select.append(el("option", { value: "server" }, "this server's word list"));
  }
  nameLexicons();
  for (const id of Object.values(LEXICON_TILES)) $(id)?.addEventListener("change", nameLexicons);
  // The opponents are the registry's agents (GET /api/games): the equity player first (the
  // default: a reply in well under a second), then the simulating player (stronger, 55% in
  // docs/results/scrabble_strength.md, but it thinks up to its budget every move), then
  // the weaker ones; an agent not named here comes last.
  const listed = await api("/api/games");
  scrabbleInfo = (listed.games || []).find((g) => g.name === "scrabble");
  const order = ["equity", "sim", "heuristic", "greedy", "endgame", "random"];
  const rank = (a) => (order.includes(a.name) ? order.indexOf(a.name) : order.length);
  const agents = [...(scrabbleInfo?.agents || [])].sort((a, b) => rank(a) - rank(b));
  $("ai").replaceChildren(...agents.map((a) => el("option", { value: a.name, title: `${a.summary} (${a.usage})` }, `${a.name}: ${a.summary}`)));
}

// --- play ---------------------------------------------------------------------------------
// A game is a session of the one REST shape (/api/sessions): the page renders its view and
// sends decisions; the agent's replies are asked for one at a time (POST /ai), so the page
// shows its thinking. A move typed or laid in the CLI's notation ("8H WORD") is read by the
// Scrabble extra /api/scrabble/sessions/{id}/read into the session's text ("8H WORD 30").
// Under a challenge rule (rules "english:challenge=double") a phony may be laid, and
// "challenge" is a decision of the session, legal while the last placement may be challenged.

const SESSIONS = "/api/sessions";
let game = null;
let pending = new Map(); // "r,c" -> {letter, index}
let selected = null; // rack index
let preview = null; // a hint row shown on the board
let busy = false;
let replay = null; // a read-only position of a game (?id=&at=)
let scrabbleInfo = null; // GET /api/games's Scrabble: agents with their typed parameters
const verdicts = new Map(); // decision index -> the coach's verdict on your move
const focus = { play: [7, 7], assistant: [7, 7] }; // the square that takes Tab on each board

function rackLetters() {
  return game ? [...game.rack] : [];
}

const isSession = () => game && game.mode === "session";

function decisionScore(text) {
  const w = text.split(" ");
  return w.length === 3 && /^\d+$/.test(w[2]) ? Number(w[2]) : 0;
}

/** The squares a placement's word covers ("8H WORD 30": 8H to 8K). */
function wordSquares(text) {
  const w = text.split(" ");
  if (w.length !== 3) return [];
  const across = /^(\d+)([A-O])$/.exec(w[0]);
  const down = /^([A-O])(\d+)$/.exec(w[0]);
  if (!across && !down) return [];
  const r = Number(across ? across[1] : down[2]) - 1;
  const c = COLS.indexOf(across ? across[2] : down[1]);
  return [...w[1]].map((_, i) => ({ row: across ? r : r + i, col: across ? c + i : c }));
}

function thinkOf(spec) {
  const m = /think=([\d.]+)/.exec(spec || "");
  return m ? Number(m[1]) : 5;
}

const CHALLENGE_HELP = {
  none: "invalid words are refused",
  single: "a phony stands unless challenged; a challenged phony is taken back, turn lost",
  double: "as single, and a challenge of good words loses the challenger a turn",
};

/** The page's picture of a session: the view, the log (challenges with their verdicts, a
 * phony taken back struck through), whose turn, what may be done. */
function fromSession(sv) {
  const v = sv.view;
  // the seat shown: the view's (the person to move; between people at one board, each in turn)
  const human = v.viewer ?? Math.max(0, sv.seats.indexOf("human"));
  const ai = 1 - human;
  const history = [];
  let k = 0; // the challenges so far, in order (the view's verdicts)
  for (const d of sv.decisions) {
    const by = d.player === human ? "you" : "ai";
    if (d.text === "challenge") {
      const c = (v.challenges || [])[k++] || { text: "", phony: false };
      if (c.phony) {
        const taken = [...history].reverse().find((t) => t.kind === "move" && t.score > 0 && !t.withdrawn);
        if (taken) taken.withdrawn = true;
      }
      history.push({ by, kind: "challenge", text: c.text, index: d.index, score: 0, squares: [] });
      continue;
    }
    history.push({
      by, kind: "move", text: d.text, index: d.index, score: decisionScore(d.text), squares: wordSquares(d.text),
      behind: verdicts.get(d.index)?.cost ?? null, best: verdicts.get(d.index)?.cost > 0 ? verdicts.get(d.index).best : null,
    });
  }
  if (sv.over) {
    const logged = [0, 0];
    for (const t of history) if (!t.withdrawn) logged[t.by === "you" ? human : ai] += t.score;
    for (const p of [0, 1]) {
      const delta = v.scores[p] - logged[p];
      if (delta) history.push({ by: p === human ? "you" : "ai", kind: "end", score: delta, squares: [],
        text: delta > 0 ? `the tiles left on the other rack (${v.racks[1 - p] || "-"})` : `tiles left ${v.racks[p] || ""}` });
    }
  }
  const [mine, theirs] = [v.scores[human], v.scores[ai]];
  const verdict = mine > theirs ? "you win" : theirs > mine ? "the AI wins" : "a draw";
  return {
    mode: "session", id: sv.id, sv, human, tiles: v.tiles, lexicon: v.lexicon, ai: sv.seats[ai],
    board: v.board, rack: v.racks[human] ?? "", your_score: mine, ai_score: theirs, bag: v.bag,
    ai_rack_size: v.rack_sizes[ai], your_turn: sv.human_to_move, finished: sv.over,
    result: sv.over ? `game over: ${verdict}, ${mine} to ${theirs}` : sv.human_to_move ? "your turn" : "the AI's turn",
    history, tracking: v.tracking, challenge: v.challenge || "none",
    challenge_help: CHALLENGE_HELP[v.challenge || "none"],
    // the view says so: the legal list is cut at 2,000 decisions, and a rack with a blank
    // has more placements than that, which pushed "challenge" (listed last) out of it
    can_challenge: sv.human_to_move && Boolean(v.challenge_open), think: thinkOf(sv.seats[ai]), thought: null,
    storage: sv.storage,
  };
}

function drawPlay() {
  const ts = tileSets[game.tiles];
  const marks = new Map();
  const lastAi = [...game.history].reverse().find((t) => t.by === "ai" && t.kind === "move");
  if (lastAi) for (const s of lastAi.squares) marks.set(`${s.row},${s.col}`, { cls: "last-ai" });
  if (preview) for (const t of preview.tiles) marks.set(`${t.row},${t.col}`, { letter: t.letter, cls: "preview" });
  for (const [key, p] of pending) marks.set(key, { letter: p.letter, cls: "pending" });
  drawBoard($("board"), ts, game.board, marks, onPlaySquare, focus.play);

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
  const session = isSession();
  $("session-links").classList.toggle("hidden", !session);
  $("takeback").disabled = !session || busy || !game.sv.takeback_to.length;
  if (session) {
    $("save-gcg").href = `${SESSIONS}/${game.id}/record?format=gcg`;
    $("save-json").href = `${SESSIONS}/${game.id}/record`;
    $("review-link").href = `/review?id=${encodeURIComponent(game.id)}`;
    $("review-link").textContent = game.finished ? "Review this game" : "Review so far";
    $("storage").textContent = game.storage && !game.storage.persistent ? game.storage.message : "";
  }
  // the JSON record holds the deal (every hidden tile): offered once the game is over
  $("save-json").classList.toggle("hidden", !session || !game.finished);
  const log = $("history");
  const who = (t) => (t.by === "ai" ? "AI" : "You");
  let n = 0;
  const line = (t) => {
    if (t.kind === "challenge") return el("div", { class: "verdict " + (t.by === "ai" ? "ai" : "mine") }, `${who(t)} challenged: ${t.text}`);
    if (t.kind === "end") return el("div", { class: "end " + (t.by === "ai" ? "ai" : "mine") }, `End: ${who(t)}, ${t.text} (${t.score > 0 ? "+" : t.score < 0 ? "−" : ""}${Math.abs(t.score)})`);
    n += 1;
    const scored = t.text.startsWith("exchange") || t.text === "pass" || session ? "" : ` (+${t.score})`;
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
  focus.play = [r, c];
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
  if (game.board[r][c] !== "." || selected === null) { drawPlay(); return; }
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

/** Keys on the play board: arrows move the focus, a letter lays that tile of the rack on the
 * focused square (then the focus moves on across), Backspace lifts it, Enter plays. */
function onPlayKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || !game) return;
  const [r, c] = focus.play;
  const step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[e.key];
  if (step) {
    e.preventDefault();
    focus.play = [Math.min(14, Math.max(0, r + step[0])), Math.min(14, Math.max(0, c + step[1]))];
    drawPlay();
    return;
  }
  if (!game.your_turn || busy) return;
  if (e.key === "Enter") { e.preventDefault(); if ($("move").value.trim()) playMove($("move").value); return; }
  if (e.key === "Backspace" || e.key === "Delete") {
    e.preventDefault();
    if (pending.delete(`${r},${c}`)) { $("move").value = ""; syncNotation(); drawPlay(); }
    return;
  }
  if (e.key.length !== 1 || e.key === " ") return;
  const want = e.key === "?" ? "?" : e.key.toUpperCase();
  const used = new Set([...pending.values()].map((p) => p.index));
  let i = rackLetters().findIndex((ch, k) => ch === want && !used.has(k));
  if (i < 0 && want !== "?" && e.shiftKey) i = rackLetters().findIndex((ch, k) => ch === "?" && !used.has(k));
  if (i < 0 || game.board[r][c] !== "." || pending.has(`${r},${c}`)) return;
  e.preventDefault();
  selected = i;
  onPlaySquare(r, c);
  focus.play = [r, Math.min(14, c + 1)];
  drawPlay();
}

function resetMove() {
  pending = new Map();
  selected = null;
  preview = null;
  $("move").value = "";
}

/** The opponent's agent spec: the registry's agent, with its thinking budget if it takes one. */
function opponentSpec() {
  const name = $("ai").value;
  const agent = scrabbleInfo?.agents.find((a) => a.name === name);
  const think = agent && agent.params.some((p) => p.name === "think") ? `:think=${$("think").value}` : "";
  return name + think;
}

/** The setup form shows the game in play, not its defaults: the opponent's agent (and its
 * thinking budget), who moved first, the tiles and the challenge rule (a game opened by its
 * URL may be against another agent than the form's default). */
function formFromGame(sv) {
  const agent = sv.seats.findIndex((s) => s !== "human");
  if (agent < 0) return;  // two people at one board: no opponent to show
  const [name, params = ""] = sv.seats[agent].split(/:(.*)/s);
  if ([...$("ai").options].some((o) => o.value === name)) $("ai").value = name;
  const think = params.split(",").map((kv) => kv.split("=")).find(([k]) => k === "think");
  if (think && [...$("think").options].some((o) => Number(o.value) === Number(think[1]))) {
    $("think").value = [...$("think").options].find((o) => Number(o.value) === Number(think[1])).value;
  }
  $("ai-first").checked = agent === 0;
  const v = sv.view || {};
  if (v.tiles && [...$("tiles").options].some((o) => o.value === v.tiles)) $("tiles").value = v.tiles;
  if (v.challenge && [...$("challenge").options].some((o) => o.value === v.challenge)) $("challenge").value = v.challenge;
  nameLexicons();
}

function rulesOf(tiles, choice, challenge = "none") {
  const found = lexiconNames.find((l) => l.tiles === tiles && l.lexicon === choice);
  const rules = found?.rules || tiles;
  if (challenge === "none") return rules;
  // "english:/path" (a word list given by its path) becomes "english:lexicon=/path,challenge=..."
  const [preset, rest] = [rules.split(":")[0], rules.slice(rules.indexOf(":") + 1)];
  if (!rules.includes(":")) return `${rules}:challenge=${challenge}`;
  return `${preset}:${rest.includes("=") ? rest : `lexicon=${rest}`},challenge=${challenge}`;
}

async function newGame(event, { ask = true } = {}) {
  event?.preventDefault();
  if (ask && game && !game.finished && !window.confirm("Start a new game? This one is kept in My games, where you can resume it.")) return;
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
  const challenge = $("challenge").value;
  try {
    const tiles = $("tiles").value;
    await tileSet(tiles);
    verdicts.clear();
    const spec = opponentSpec();
    const seats = $("ai-first").checked ? [spec, "human"] : ["human", spec];
    const sv = await api(SESSIONS, { body: { game: "scrabble", rules: rulesOf(tiles, $("lexicon").value, challenge), seats } });
    game = fromSession(sv);
    writeState({ mode: "play", id: sv.id });
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
  if (isSession() && !game.your_turn && !game.finished) await agentsMove();
  if (game.your_turn) $("move").focus();
}

/** Wait for something that makes the AI move, with its thinking shown against its budget. */
async function thinkingFor(request) {
  busy = true;
  const stop = thinking((secs) => { $("status").textContent = `The AI is thinking… ${secs.toFixed(0)} s (up to ${game.think} s)`; }, game.think);
  drawPlay();
  try {
    await request();
    return true;
  } catch {
    return false; // the banner says why; the tiles stay where they were
  } finally {
    busy = false;
    stop();
  }
}

/** Let the agent move until it is your turn or the game is over (a session). */
async function agentsMove() {
  await thinkingFor(async () => {
    while (!game.sv.over && !game.sv.human_to_move) {
      game = fromSession(await api(`${SESSIONS}/${game.id}/ai`, { body: {} }));
      drawPlay();
    }
  });
  drawPlay();
}

async function playMove(text) {
  if (!game || busy || !text.trim() || !isSession()) return;
  busy = true;
  let decision;
  try {
    decision = (await api(`${API}/sessions/${game.id}/read`, { body: { move: text.trim() } })).decision;
    const index = game.sv.decisions.length;
    game = fromSession(await api(`${SESSIONS}/${game.id}/move`, { body: { decision } }));
    judgeLater(index);
  } catch {
    busy = false;
    drawPlay();
    return; // the banner says why; the tiles stay where they were
  }
  busy = false;
  resetMove();
  $("hint-panel").classList.add("hidden");
  drawPlay();
  if (!game.finished && !game.your_turn) await agentsMove();
  if (game.your_turn) $("move").focus();
}

/** The coach's verdict on your move, fetched after it (shown in the log when it comes). */
function judgeLater(index) {
  const id = game.id;
  api(`${API}/sessions/${id}/position?at=${index}`, { quiet: true }).then((p) => {
    if (!p.judged || !game || game.id !== id) return;
    verdicts.set(index, p.judged);
    if (!busy) { game = fromSession(game.sv); drawPlay(); }
  }).catch(() => {});
}

async function takeBack() {
  if (!isSession() || busy) return;
  busy = true;
  try {
    game = fromSession(await api(`${SESSIONS}/${game.id}/takeback`, { body: {} }));
  } finally {
    busy = false;
  }
  for (const k of [...verdicts.keys()]) if (k >= game.sv.decisions.length) verdicts.delete(k);
  game = fromSession(game.sv);
  resetMove();
  $("hint-panel").classList.add("hidden");
  drawPlay();
}

/** Challenge the last placement (a decision of the session), then let the agent move. */
async function challengeLast() {
  if (!game || busy || !game.can_challenge) return;
  busy = true;
  try {
    game = fromSession(await api(`${SESSIONS}/${game.id}/move`, { body: { decision: "challenge" } }));
  } catch {
    busy = false;
    drawPlay();
    return; // the banner says why
  }
  busy = false;
  resetMove();
  drawPlay();
  if (!game.finished && !game.your_turn) await agentsMove();
  if (game.your_turn) $("move").focus();
}

/** A signed number to one decimal, with a true minus sign; -0.04 reads 0.0. */
function fmt(x) {
  const r = Math.round(x * 10) / 10;
  return (r > 0 ? "+" : r < 0 ? "−" : "") + Math.abs(r).toFixed(1);
}

async function showHint() {
  if (!game || !game.your_turn) return;
  const panel = $("hint-panel");
  if (!isSession()) return;
  const advice = await api(`${SESSIONS}/${game.id}/advice`);
  const moves = advice.rows.slice(0, 10).map((r) => ({ ...r, behind: r.cost }));
  const closing = game.sv.view.phase === "closing";
  const note = `In ${advice.unit.name}; inaccuracy from ${advice.unit.thresholds.inaccuracy}, mistake from ${advice.unit.thresholds.mistake}, blunder from ${advice.unit.thresholds.blunder} (estimated).`;
  $("hint-note").textContent = (closing
    ? "The bag is empty: ranked by score, plus twice the AI's tiles for going out, minus the tiles you keep. "
    : "Ranked by score + the learned value of the tiles you keep. ")
    + `${note} Click a move to see it on the board and in the move box.`;
  $("hint-leave-head").textContent = closing ? "end" : "leave";
  $("hint-why").textContent = "";
  $("hint-table").querySelector("tbody").replaceChildren(...moves.map((m) => el("tr", {
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

/** A position of a game, read only (?id=&at=): the board then, the move taken, the coach's word. */
async function showReplay(id, at) {
  replay = await api(`${API}/sessions/${encodeURIComponent(id)}/position?at=${at}`);
  await tileSet(replay.tiles);
  game = {
    mode: "replay", id, tiles: replay.tiles, lexicon: replay.rules, ai: "", board: replay.board, rack: replay.rack,
    your_score: replay.scores[0], ai_score: replay.scores[1], bag: 0, ai_rack_size: 0, your_turn: false,
    finished: false, result: "", history: [], tracking: { by_letter: [], bag: 0, unseen_total: 0, opponent_tiles: 0, vowels: 0, consonants: 0, blanks: 0 },
    challenge: "none", challenge_help: "", can_challenge: false, think: 0, thought: null,
  };
  $("game").hidden = false;
  drawPlay();
  const j = replay.judged;
  $("status").textContent = `Decision ${at + 1} of ${replay.decisions} (player ${replay.player + 1} to move, rack ${replay.rack}), read only`
    + (replay.played ? `: played ${replay.played}` : "")
    + (j ? ` — ${j.label}${j.cost > 0 ? `, ${fmt(-j.cost)} against ${j.best}` : ""}` : "");
  $("session-links").classList.remove("hidden");
  $("review-link").href = `/review?id=${encodeURIComponent(id)}`;
  $("save-gcg").href = `${SESSIONS}/${id}/record?format=gcg`;
  $("resume-link").href = `/scrabble?id=${encodeURIComponent(id)}`;
  $("resume-link").classList.remove("hidden");
  $("assistant-link").href = `/scrabble?mode=assistant&id=${encodeURIComponent(id)}&at=${at}`;
  $("assistant-link").classList.remove("hidden");
}

async function startPlay() {
  $("setup").addEventListener("submit", (e) => newGame(e));
  $("move-form").addEventListener("submit", (e) => { e.preventDefault(); playMove($("move").value); });
  $("clear").addEventListener("click", () => { resetMove(); drawPlay(); });
  $("pass").addEventListener("click", () => playMove("pass"));
  $("hint").addEventListener("click", showHint);
  $("takeback").addEventListener("click", takeBack);
  $("challenge-btn").addEventListener("click", challengeLast);
  $("board").addEventListener("keydown", onPlayKey);
  // Enter plays the tiles laid by clicks, Escape takes them back (focus is not in a field then).
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if ($("board").contains(e.target)) return;
    if (e.key === "Enter" && $("move").value.trim() && !(e.target instanceof HTMLButtonElement)) { e.preventDefault(); playMove($("move").value); }
    if (e.key === "Escape") { resetMove(); drawPlay(); }
  });
  if (query.id && query.at !== undefined) {
    try {
      await showReplay(query.id, Number(query.at));
      return;
    } catch {
      writeState({ mode: "play", id: query.id });
    }
  }
  if (query.id) {
    try {
      const sv = await apiPatiently(`${SESSIONS}/${encodeURIComponent(query.id)}`);
      if (sv.game !== "scrabble") throw new Error(`game ${sv.id} is a ${sv.game} game`);
      await tileSet(sv.view.tiles);
      game = fromSession(sv);
      formFromGame(sv);
      $("game").hidden = false;
      drawPlay();
      if (!game.finished && !game.your_turn) await agentsMove();
      return;
    } catch (err) {
      // only a game that does not exist here (or not any more) gives way to a new one; a
      // server that could not answer keeps the URL, so a reload finds the game later
      const gone = !(err instanceof ApiError) || [404, 410, 422].includes(err.status);
      if (!gone) return;
      writeState({ mode: "play" });
    }
  }
  await newGame(null, { ask: false });
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
  } else if (deepShown !== null && deep) {
    for (const t of deep.moves[deepShown].tiles) marks.set(`${t.row},${t.col}`, { letter: t.letter, cls: "preview" });
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
    $("a-board").querySelector(`[data-r="${r}"][data-c="${c}"]`)?.focus();
  }, editor.cursor || focus.assistant);
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
  resetDeep();
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
  box.classList.toggle("hidden", !recorded && !sessionMove);
  if (!recorded && sessionMove) box.replaceChildren(...sessionMoveNodes());
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
  deepShown = null;
  drawDeep();
  drawResults();
}

// --- deep analysis: the simulating player's ranking, a job with progress and cancel --------

let deep = null; // the last deep analysis's ranking (the job's result)
let deepShown = null; // its row shown on the board
let deepJob = null; // the job running
let deepStopWaiting = false;
const DEEP_INTRO = $("deep-note").textContent;

/** The deep-analysis panel for the analysis on show: ready to start when the bag has tiles. */
function resetDeep() {
  deep = null;
  deepShown = null;
  const bag = results && results.tracking ? results.tracking.bag : 0;
  $("deep-go").disabled = !results || !results.position || bag === 0 || deepJob !== null;
  $("deep-box").classList.add("hidden");
  $("deep-table").querySelector("tbody").replaceChildren();
  if (!results) $("deep-note").textContent = DEEP_INTRO;
  else if (bag === 0) $("deep-note").textContent = "The bag is empty: nothing is left to draw, and the endgame search is exact.";
  else $("deep-note").textContent = `Simulate the coach's best moves for ${$("deep-seconds").value} s: each played on over sampled draws of the unseen tiles, ranked by the chance of winning, then by the mean spread.`;
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const signed = (x) => `${x > 0 ? "+" : ""}${x.toFixed(1)}`;

function drawDeep() {
  if (!deep) return;
  $("deep-box").classList.remove("hidden");
  const how = deep.pre_endgame
    ? "one tile in the bag: every draw counted and each endgame solved (win and spread exact under best play once the bag is empty)"
    : `${deep.deals} deals of the unseen tiles, the opponent's reply and your next move; ± is one standard error`;
  const end = deep.stopped === "cancelled" ? " Cancelled: the ranking so far." : deep.stopped === "budget" ? ` Stopped at the ${deep.budget} s budget.` : "";
  $("deep-note").textContent = `${deep.moves.length} moves simulated in ${deep.seconds.toFixed(1)} s, ${how}. Greyed: dropped early, clearly behind.${end}`;
  $("deep-table").querySelector("tbody").replaceChildren(...deep.moves.map((m, i) => el("tr", {
    class: "clickable" + (i === deepShown ? " selected" : "") + (i === 0 ? " best" : ""), tabindex: "0",
    title: `${m.action}: the coach's value ${m.static.toFixed(1)}, ${m.deals} deals` + (m.endgames ? `; ${m.proved} of ${m.endgames} endgames proved` : ""),
    onclick: () => showDeep(i), onkeydown: (e) => { if (e.key === "Enter") showDeep(i); },
  }, el("td", { class: "num" }, String(i + 1)), el("td", { class: m.pruned ? "pruned" : "" }, m.move),
  el("td", { class: "num" }, pct(m.win)), el("td", { class: "num" }, m.exact ? "exact" : pct(m.win_se)),
  el("td", { class: "num" }, signed(m.spread)), el("td", { class: "num" }, m.exact ? "exact" : m.spread_se.toFixed(1)),
  el("td", { class: "num" }, String(m.deals)))));
}

function showDeep(i) {
  deepShown = deepShown === i ? null : i;
  shown = null;
  drawDeep();
  drawResults();
}

function deepProgress(job) {
  const bar = $("deep-progress");
  const frac = job.state === "ready" ? 1 : job.fraction;
  bar.setAttribute("aria-valuenow", String(Math.round(100 * frac)));
  $("deep-bar").style.width = `${(100 * frac).toFixed(1)}%`;
  if (job.state === "running") {
    const left = job.seconds_left === null ? "" : `, about ${Math.ceil(job.seconds_left)} s left`;
    $("deep-note").textContent = job.done
      ? `Simulating… ${Math.round(100 * frac)}% (${job.done} deals${left})`
      : `Simulating… ${job.message || "starting"}`;
  } else if (job.state === "failed") {
    $("deep-note").textContent = `The deep analysis failed: ${job.message}`;
  } else if (job.state === "cancelled" && !job.result) {
    $("deep-note").textContent = job.message || "cancelled";
  }
}

async function deepAnalysis() {
  if (!results || !results.position) return;
  const body = { tiles: $("a-tiles").value, lexicon: $("a-lexicon").value, position: results.position,
    candidates: Number($("deep-candidates").value), seconds: Number($("deep-seconds").value) };
  deep = null;
  deepShown = null;
  $("deep-go").disabled = true;
  $("deep-cancel").classList.remove("hidden");
  $("deep-box").classList.add("hidden");
  $("deep-progress").classList.remove("hidden");
  $("deep-bar").style.width = "0";
  try {
    let job = deepJob = await startDeepJob(body);
    if (!job) return;
    deepProgress(job);
    while (job.state === "running") {
      await new Promise((r) => setTimeout(r, 500));
      job = await api(`${API}/deep/jobs/${job.id}`);
      deepProgress(job);
    }
    if (job.result) {
      deep = job.result;
      drawDeep();
    }
  } catch (e) {
    $("deep-note").textContent = e.message;
  } finally {
    deepJob = null;
    $("deep-go").disabled = !results || !results.position;
    $("deep-cancel").classList.add("hidden");
    $("deep-progress").classList.add("hidden");
  }
}

/** Start the job; while the server's heavy work is full (429) or still warming up (503),
 * say so and try again every few seconds. */
async function startDeepJob(body) {
  deepStopWaiting = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return await api(`${API}/deep/jobs`, { body, quiet: true });
    } catch (err) {
      if (!(err instanceof ApiError) || ![429, 503].includes(err.status) || attempt >= 40) throw err;
      $("deep-note").textContent = `Waiting: ${err.message} (trying again in 3 s)`;
      await new Promise((r) => setTimeout(r, 3000));
      if (deepStopWaiting) {
        $("deep-note").textContent = "Cancelled before it started.";
        return null;
      }
    }
  }
}

async function cancelDeep() {
  if (!deepJob) deepStopWaiting = true;
  else await api(`${API}/deep/jobs/${deepJob.id}`, { method: "DELETE" });
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
    resetDeep();
    $("a-table").querySelector("tbody").replaceChildren();
    $("a-note").textContent = "The board changed: find the best moves again (Enter).";
  }
  drawAssistant();
  saveAssistantState();
}

async function startAssistant() {
  const tiles = query.tiles === "czech" ? "czech" : "english";
  $("a-tiles").value = tiles;
  nameLexicons();
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
  $("deep-go").addEventListener("click", deepAnalysis);
  $("deep-cancel").addEventListener("click", cancelDeep);
  $("deep-seconds").addEventListener("change", () => { if (!deepJob && !deep) resetDeep(); });
  // a page closed or left stops its job at once (the server would stop it 10 s later anyway)
  window.addEventListener("pagehide", () => {
    if (deepJob) fetch(`${API}/deep/jobs/${deepJob.id}`, { method: "DELETE", keepalive: true });
  });
  $("a-board").addEventListener("keydown", onEditorKey);
  // Tab reaches one square of the board (roving tabindex); it becomes the typing cursor.
  $("a-board").addEventListener("focusin", (e) => {
    const r = Number(e.target.dataset?.r);
    const c = Number(e.target.dataset?.c);
    if (Number.isInteger(r) && Number.isInteger(c) && (!editor.cursor || editor.cursor[0] !== r || editor.cursor[1] !== c)) {
      editor.cursor = [r, c];
      drawAssistant();
    }
  });
  $("a-clear").addEventListener("click", () => {
    editor.rows = Array(15).fill(EMPTY_ROW);
    results = null;
    shown = null;
    resetDeep();
    $("a-table").querySelector("tbody").replaceChildren();
    drawAssistant();
    saveAssistantState();
  });
  $("a-tiles").addEventListener("change", () => { results = null; shown = null; resetDeep(); drawAssistant(); saveAssistantState(); });
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
  if (query.id && query.at !== undefined) {
    await openSessionMove(query.id, Number(query.at));
    return;
  }
  if (query.rack || query.board) {
    const ok = await analyse({ tiles, lexicon: $("a-lexicon").value, position: positionText(), rack: $("a-rack").value.trim(), top: Number($("a-top").value), rank: $("a-rank").value });
    const i = Number(query.show);
    if (ok && query.show !== undefined && Number.isInteger(i) && i >= 0 && i < results.moves.length) {
      shown = i;
      drawResults();
    }
  }
}

/** A move of a played game in the assistant (from the review): its position, the coach's
 * best moves, and the move played beside them with the coach's verdict. */
async function openSessionMove(id, at) {
  let p;
  try {
    p = await api(`${API}/sessions/${encodeURIComponent(id)}/position?at=${at}`);
  } catch (e) {
    $("a-note").textContent = e.message;
    return;
  }
  $("a-tiles").value = p.tiles;
  const ok = await analyse({ tiles: p.tiles, lexicon: "builtin", position: p.position, rack: p.rack,
    top: Number($("a-top").value), rank: "value", budget: Number($("a-budget").value) });
  if (!ok) return;
  sessionMove = { id, at, played: p.played, judged: p.judged };
  drawExtras();
}

let sessionMove = null; // a move of a played game opened in the assistant

function sessionMoveNodes() {
  const { id, at, played, judged: j } = sessionMove;
  return [el("strong", {}, `Decision ${at + 1} of the game, played: ${played ?? "—"}`),
    j ? ` — ${j.label}: ${j.cost > 0 ? `${fmt(-j.cost)} points of equity against the coach's best ${j.best}` : "the coach's best"}`
      + ` (rank ${j.extra?.rank ?? "?"} of ${j.extra?.of ?? "?"} moves; estimated)` : "",
    " ", el("a", { href: `/review?id=${encodeURIComponent(id)}` }, "back to the review")];
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
