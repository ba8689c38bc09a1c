// Yahtzee / Yatzy: a game of /api/sessions (alone with the coach, or against 1-3 agents of
// the registry) and the assistant. The numbers come from the game's coach
// (games/yahtzee/coach.py) through /api/sessions/{id}/advice and
// /api/yahtzee/sessions/{id}/verdicts; this page only renders them.
import {
  ApiError, PlaySession, api, confirmNewGame, el, fmt, gameInfo, pct, histogram, readState, writeState, setMeter,
  siteHeader, showError, svgEl, takebackButton,
} from "/static/common.js";

const $ = (id) => document.getElementById(id);
const API = "/api/yahtzee";
const NICE = {
  ones: "Ones", twos: "Twos", threes: "Threes", fours: "Fours", fives: "Fives", sixes: "Sixes",
  three_of_a_kind: "Three of a kind", four_of_a_kind: "Four of a kind", full_house: "Full house",
  small_straight: "Small straight", large_straight: "Large straight", yahtzee: "Yahtzee",
  chance: "Chance", one_pair: "One pair", two_pairs: "Two pairs", yatzy: "Yatzy",
};
const UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"];
// A reduced card (rules "yahtzee:boxes=ones+twos+chance,bonus=true"): the agents that play
// one (the full card's table-driven players refuse it), and duel-optimal only with one
// opponent (the exact two-player strategy, its table solved on the server if small).
const VARIANT_AGENTS = ["duel-optimal", "optimal", "random", "mcts"];

function isVariant(rules) { return String(rules || "").includes(":"); }
const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

let presets = {};
const query = readState();
const mode = query.mode === "assistant" ? "assistant" : "play";

// --- shared -------------------------------------------------------------------------------

function niceAction(action) {
  if (action.startsWith("score ")) return "score " + (NICE[action.slice(6)] || action.slice(6));
  if (action === "keep -") return "reroll all";
  return action;
}

async function loadPresets() {
  const list = await api(`${API}/presets`);
  for (const p of list) presets[p.name] = p;
  for (const id of ["rules", "a-rules"]) {
    const select = $(id);
    select.replaceChildren(...list.map((p) => el("option", { value: p.name }, p.name)));
  }
}

/** Ask the server to prepare the tables of `rules` (solve; with `needRemaining`, also
 * load or build the remaining-score tables in the background). Resolves once the rules
 * are solved; a build goes on, its progress shown by watchTables, and `onReady` runs when
 * the tables are ready (the game is played meanwhile with the advice that needs none). */
async function prepareTables(rules, { needRemaining = false, onReady = null } = {}) {
  const panel = $("tables-panel");
  let view = await api(`${API}/tables/${rules}`);
  if (!view.solved) {
    panel.classList.remove("hidden");
    $("tables-text").textContent = `solving the ${rules} rules (once; a few seconds)…`;
    $("tables-bar").style.width = "0%";
  }
  const remaining = needRemaining || mode === "assistant";
  view = await api(`${API}/tables/${rules}`, { body: { remaining } });
  if (!remaining || view.remaining.state === "ready" || (view.remaining_cached && view.remaining.state !== "building")) {
    panel.classList.add("hidden");  // ready, or in the cache where the coach opens them itself
    return view;
  }
  watchTables(rules, view, onReady);
  return view;
}

let watching = null;
let watchedRules = null;
let tablesState = null;  // the remaining-score tables' build: building, cancelled, ready...

/** The banner's Cancel: the server stops the build (it unwinds at its next progress
 * report, freeing its memory and its half-written cache file); the banner goes at once and
 * the game goes on with the advice that needs no tables. */
async function cancelTables() {
  const rules = watchedRules;
  watching = watchedRules = null;
  tablesState = "cancelled";
  $("tables-panel").classList.add("hidden");
  renderBasis();
  if (rules) await api(`${API}/tables/${rules}`, { method: "DELETE" }).catch(() => null);
}
$("tables-cancel").addEventListener("click", cancelTables);

/** Poll the build every second: the real fraction done, the time it has taken (ticking),
 * and an estimate of the time left once the fraction says enough; the panel goes when the
 * job ends (or is cancelled). */
async function watchTables(rules, view, onReady) {
  const panel = $("tables-panel");
  const ticket = watching = {};
  watchedRules = rules;
  const show = (v) => {
    const r = v.remaining;
    tablesState = r.state;
    renderBasis();
    $("tables-cancel").hidden = r.state !== "building";
    if (r.state === "ready" || r.state === "cancelled") { panel.classList.add("hidden"); return; }
    panel.classList.remove("hidden");
    const secs = Math.round(r.seconds);
    const f = r.progress ?? 0;
    let text;
    if (r.state === "building") {
      const left = f > 0.1 && f < 1 ? ` · about ${Math.ceil((r.seconds * (1 - f)) / f)} s left` : "";
      text = `${r.message || "preparing the probability tables"} — ${Math.round(100 * f)}% · ${secs} s${left}. `
        + "You can play on: the chance of winning shows when the tables are ready.";
    } else if (r.state === "failed") {
      text = `building the probability tables failed: ${r.message}`;
    } else {
      text = "this server does not build the probability tables (they are not in its cache): "
        + "the chance of winning is not available; expected scores are.";
    }
    $("tables-text").textContent = text;
    $("tables-bar").style.width = `${Math.round(100 * f)}%`;
  };
  show(view);
  while (view.remaining.state === "building" && watching === ticket) {
    await new Promise((res) => setTimeout(res, 1000));
    const next = await api(`${API}/tables/${rules}`, { quiet: true }).catch(() => view);
    if (watching !== ticket) return;  // cancelled, or another build is watched now
    view = next;
    show(view);
  }
  if (view.remaining.state === "ready" && onReady && watching === ticket) onReady();
}

// --- play: a session of /api/sessions (PlaySession), the coach's rows and verdicts -----

const play = new PlaySession({ onView: renderGame });
const takeback = takebackButton(play);
let kept = [false, false, false, false, false];
let keptFor = "";
let hintRows = null;
let hintUnit = null;  // the unit of hintRows, as the advice answered (not the view's)
let hintWanted = false;  // the player asked for the hint in this position
let verdicts = null;
let info = null;

function view() { return play.view ? play.view.view : null; }

function isReplay(pv) { return pv.replay_at !== null && pv.replay_at !== undefined; }

function isPercent() { return !!(play.view && play.view.unit && play.view.unit.percent); }

function amount(x, unit = play.view && play.view.unit) {
  if (x === null || x === undefined) return "–";
  return unit && unit.percent ? `${fmt(100 * x, 1)}%` : fmt(x, 1);
}

function costWords(x, unit = play.view && play.view.unit) {
  return unit && unit.percent ? `${fmt(100 * x, 1)} percentage points of your chance of winning` : `${fmt(x, 1)} expected points`;
}

function labelTag(label) {
  return el("span", { class: `lab lab-${label}` }, label);
}

function seatName(i) {
  const seat = play.view.seats[i];
  // "duel-optimal:solve=true" is duel-optimal (solving its table is the server's business)
  return seat === "human" ? "you" : `${seat.replace(/:solve=true$/, "")} (${i + 1})`;
}

function renderDice() {
  const v = view();
  const box = $("dice");
  const deciding = play.view && (play.view.human_to_move || isReplay(play.view)) && v && v.dice.length;
  box.replaceChildren(...(deciding ? v.dice : []).map((d, i) => el("button", {
    type: "button", class: "die" + (kept[i] ? " kept" : ""), "aria-pressed": String(kept[i]),
    "aria-label": `die ${i + 1} shows ${d}${kept[i] ? ", kept" : ""}`, dataset: { face: d, index: i },
    onclick: () => toggle(i), disabled: v.rolls_left === 0,
  }, String(d), el("span", { class: "key", "aria-hidden": "true" }, String(i + 1)))));
}

function toggle(i) {
  const v = view();
  if (!v || !play.view.human_to_move || v.rolls_left === 0 || play.busy || i >= v.dice.length) return;
  kept[i] = !kept[i];
  renderDice();
  const b = $("dice").querySelectorAll("button")[i];
  if (b && document.activeElement && document.activeElement.closest("#dice")) b.focus();
}

function keepAction() {
  const faces = view().dice.filter((_, i) => kept[i]).sort((a, b) => a - b);
  return faces.length ? "keep " + faces.join(" ") : "keep -";
}

async function decide(text) {
  if (play.busy || !play.view || !play.view.human_to_move) return;
  if (!play.view.legal.includes(text)) {
    showError(`cannot ${text} now`);
    return;
  }
  hintRows = null;
  hintUnit = null;
  hintWanted = false;
  await play.move(text);
  await afterMove();
}

async function afterMove() {
  await play.runAgents();
  renderGame(play.view);
  await loadVerdicts();
  if (play.view && !play.view.over && isPercent() && play.view.human_to_move) loadMeter();
}

async function loadVerdicts() {
  if (!play.id) return;
  const id = play.id;
  try {
    const data = await api(`${API}/sessions/${encodeURIComponent(id)}/verdicts`, { quiet: true });
    if (play.id !== id) return;
    verdicts = data;
  } catch (err) {
    verdicts = null;
    $("feedback").replaceChildren(el("div", {}, `The coach could not judge your decisions: ${err.message}`));
    return;
  }
  renderFeedback();
  renderSummary();
}

async function loadMeter() {
  const id = play.id;
  $("meter-panel").hidden = false;
  $("meter-note").textContent = "pricing the position…";
  try {
    const data = await api(`/api/sessions/${encodeURIComponent(id)}/advice`, { quiet: true });
    if (play.id !== id) return;
    hintRows = data.rows;
    hintUnit = data.unit;
    const best = data.rows[0];
    setMeter($("meter"), best.value, pct(best.value, 1));
    $("meter-note").textContent = view().note;
    if (!$("hint-panel").hidden) renderHint();
  } catch (err) {
    $("meter-note").textContent = `The chance of winning is not available: ${err.message}`;
  }
}

function renderCard() {
  keepFocus("table.card button.score", "box", drawCard);
}

function drawCard() {
  const v = view();
  const pv = play.view;
  const n = v.cards.length;
  const me = pv.seats.indexOf("human");
  const canScore = pv.human_to_move && !pv.over;
  const lastScore = pv.decisions.length ? pv.decisions[pv.decisions.length - 1] : null;
  const head = el("tr", {}, el("th", { scope: "col" }, "box"),
    ...v.cards.map((_, i) => el("th", { scope: "col", class: "num" }, n === 1 ? "you" : seatName(i))));
  const body = el("tbody");
  for (const name of v.categories) {
    const can = canScore && name in v.box_points && v.cards[pv.to_move].boxes[name] === null;
    const cells = v.cards.map((card, i) => {
      const value = card.boxes[name];
      if (value !== null) return el("td", { class: "num" }, String(value));
      if (can && i === pv.to_move) {
        return el("td", { class: "num" }, el("button", {
          type: "button", class: "score", dataset: { box: name },
          "aria-label": `score ${v.box_points[name]} in ${NICE[name] || name}`,
          onclick: () => decide(`score ${name}`),
        }, `→ ${v.box_points[name]}`));
      }
      return el("td", { class: "num" }, "");
    });
    const last = lastScore && lastScore.text === `score ${name}`;
    body.append(el("tr", { class: ["box-row", can ? "open can" : "", last ? "last" : ""].join(" "), dataset: { box: name } },
      el("th", { scope: "row", class: "box" }, NICE[name] || name), ...cells));
    if (name === v.upper[v.upper.length - 1] && v.upper_bonus_on !== false) {
      body.append(el("tr", { class: "sum" }, el("th", { scope: "row" }, "Upper total (bonus)"),
        ...v.cards.map((c) => el("td", { class: "num", title: c.upper_bonus ? "bonus won" : `${c.upper_bonus_needed} more for the bonus` },
          `${c.upper_total}/${c.upper_bonus_threshold}` + (c.upper_bonus ? ` +${c.upper_bonus}` : c.upper_bonus_possible ? "" : " ✗")))));
    }
  }
  if (v.cards.some((c) => c.yahtzee_bonus)) {
    body.append(el("tr", {}, el("th", { scope: "row" }, "Yahtzee bonus"), ...v.cards.map((c) => el("td", { class: "num" }, String(c.yahtzee_bonus)))));
  }
  body.append(el("tr", { class: "sum" }, el("th", { scope: "row" }, "Total"),
    ...v.cards.map((c, i) => el("td", { class: "num", id: i === me ? "total-you" : `total-${i}` }, String(c.total)))));
  $("card").replaceChildren(el("caption", { class: "small muted" }, "Score card: Tab to a box and press Enter or S to score it"), el("thead", {}, head), body);
}

function renderFeedback() {
  const box = $("feedback");
  if (!verdicts) { box.replaceChildren(); return; }
  const unit = verdicts.unit;
  const n = verdicts.verdicts.length;
  const stats = el("div", { class: "small" }, `decisions ${n} · ${unit.percent ? "chance of winning given up" : "expected points lost"} `,
    el("span", { id: "total-cost" }, amount(verdicts.total_cost, unit)));
  const last = n ? verdicts.verdicts[n - 1] : null;
  if (!last) {
    box.replaceChildren(el("div", {}, "Your first decision: keep dice and roll, or score a box."), stats);
    return;
  }
  const line = last.cost <= 1e-9
    ? el("div", { id: "last-cost" }, labelTag("best"), ` ${niceAction(last.played)}: the best choice`)
    : el("div", { id: "last-cost" }, labelTag(last.label),
      ` ${niceAction(last.played)} cost ${costWords(last.cost, unit)}; best was ${niceAction(last.best)}.`);
  box.replaceChildren(line, el("div", { class: "small" }, last.explanation), stats);
}

async function showHint() {
  if (!play.view || play.view.over || !play.view.human_to_move) return;
  hintWanted = true;
  $("hint-panel").hidden = false;
  if (!hintRows) {
    const key = `${play.id}:${play.view.decisions.length}`;
    $("hint-note").textContent = "pricing every option…";
    const data = await api(`/api/sessions/${encodeURIComponent(play.id)}/advice`);
    if (!play.view || key !== `${play.id}:${play.view.decisions.length}`) return;  // moved on
    hintRows = data.rows;
    hintUnit = data.unit;
  }
  if (!hintWanted) return;
  $("hint-panel").hidden = false;
  renderHint();
  const first = $("hint-table").querySelector("button.play");
  if (first) first.focus();
}

/** Re-rendering replaces buttons: keep the keyboard's place (the same option or box). */
function keepFocus(selector, key, render) {
  const active = document.activeElement;
  const was = active && active.matches(selector) ? active.dataset[key] : null;
  render();
  if (was !== null) {
    const again = [...document.querySelectorAll(selector)].find((b) => b.dataset[key] === was);
    if (again) again.focus();
  }
}

function renderHint() {
  keepFocus("#hint-table button.play", "action", drawHint);
}

function drawHint() {
  // the rows' own unit: expected points while the probability tables are not ready,
  // even in a game against opponents (the view may be older than the rows)
  const percent = hintUnit ? !!hintUnit.percent : isPercent();
  const v = view();
  $("hint-exact").textContent = v.exact ? "exact" : "estimated";
  $("hint-exact").className = `tag ${v.exact ? "y-exact" : "y-estimated"}`;
  $("hint-note").textContent = percent === isPercent() ? v.note : "";
  $("hint-table").querySelector("thead").replaceChildren(el("tr", {},
    el("th", { scope: "col" }, "option (Enter plays it)"),
    el("th", { scope: "col", class: "num" }, percent ? "chance of winning" : "expected final score"),
    el("th", { scope: "col", class: "num" }, "cost"),
    percent ? el("th", { scope: "col", class: "num" }, "expected final score") : null,
    el("th", { scope: "col" }, "verdict")));
  $("hint-table").querySelector("tbody").replaceChildren(...hintRows.map((r, i) => el("tr", { class: i === 0 ? "best" : "", dataset: { action: r.action } },
    el("td", {}, el("button", { type: "button", class: "play", title: r.words, dataset: { action: r.action }, onclick: () => playOption(r.action) }, niceAction(r.action))),
    el("td", { class: "num" }, percent ? pct(r.value, 1) : fmt(r.value, 2)),
    el("td", { class: "num" }, percent ? `${fmt(100 * r.cost, 1)} pp` : fmt(r.cost, 2)),
    percent ? el("td", { class: "num" }, fmt(r.expected_score, 1)) : null,
    el("td", {}, labelTag(r.label)))));
}

function playOption(action) {
  return decide(action);
}

function renderAiLog() {
  const pv = play.view;
  if (pv.seats.length < 2) { $("ai-log-panel").hidden = true; return; }
  // the agents' decisions since the person's last decision (the line holds every step)
  const steps = [];
  for (let i = pv.line.length - 1; i >= 0; i--) {
    const s = pv.line[i];
    if (s.by === "human") break;
    if (s.by === "agent") steps.unshift(s);
  }
  $("ai-log-panel").hidden = false;
  $("ai-log").replaceChildren(...(steps.length ? steps.map((s) => el("div", {}, `${seatName(s.player)}: ${niceAction(s.text)}`))
    : [el("span", {}, "—")]));
}

function renderSummary() {
  const box = $("summary");
  const pv = play.view;
  if (!pv || !pv.over || !verdicts || !verdicts.report) { box.hidden = true; return; }
  const r = verdicts.report;
  const me = Math.max(0, pv.seats.indexOf("human"));
  const lost = r.expected_points_lost;
  const sign = (x) => (x >= 0 ? "+" : "−") + fmt(Math.abs(x), 1);
  const result = pv.seats.length > 1
    ? `${r.result === "win" ? "you win" : r.result === "tie" ? "a tie" : "you lose"}: ${r.final.map((t, i) => `${seatName(i)} ${t}`).join(", ")}`
    : `final score ${r.final[me]}`;
  const rows = [
    el("tr", {}, el("th", { scope: "row" }, `The optimum's expected final score (${pv.view.rules || pv.rules})`), el("td", { class: "num", id: "report-optimum" }, fmt(r.optimum_expected, 1))),
    el("tr", {}, el("th", { scope: "row" }, "Skill: expected points your decisions gave up"), el("td", { class: "num", id: "report-skill" }, "−" + fmt(lost, 1))),
    el("tr", {}, el("th", { scope: "row" }, "Luck: what the dice gave beyond expectation"), el("td", { class: "num", id: "report-luck" }, sign(r.luck))),
    el("tr", { class: "total" }, el("th", { scope: "row" }, "Your final score"), el("td", { class: "num", id: "report-final" }, String(r.final[me]))),
  ];
  if (r.unit.percent) {
    rows.splice(2, 0, el("tr", {}, el("th", { scope: "row" }, "Chance of winning your decisions gave up"), el("td", { class: "num" }, `${fmt(100 * r.total_cost, 1)} pp`)));
  }
  box.replaceChildren(
    el("h2", {}, "Game over: " + result),
    el("table", { id: "report", class: "report" }, el("tbody", {}, ...rows)),
    el("p", { id: "report-note" }, `Expected scores are the optimum's expected final scores from the solver's table; luck = final score − ${fmt(r.optimum_expected, 1)} + the points given up.`),
    el("p", {}, `Decisions: ${Object.entries(r.counts).map(([k, c]) => `${k} ${c}`).join(", ")} (thresholds: `
      + `${Object.entries(r.unit.thresholds).map(([k, t]) => `${k} from ${amount(t, r.unit)}${r.unit.percent ? "" : " points"}`).join(", ")}).`),
    el("p", {}, el("a", { class: "button", id: "read-review", href: play.reviewUrl() }, "Read the review of every decision")));
  box.hidden = false;
}

function renderGame(pv) {
  if (!pv) return;
  const v = pv.view;
  $("board").hidden = false;
  $("setup").hidden = true;
  const key = `${pv.id}:${pv.decisions.length}`;
  if (key !== keptFor) { kept = [false, false, false, false, false]; keptFor = key; }
  const over = pv.over;
  $("turn-label").textContent = isReplay(pv)
    ? `Replay: the position before decision ${pv.replay_at + 1} of ${pv.total_decisions} (turn ${v.round})`
    : over ? "Game over" : pv.human_to_move
      ? `Turn ${v.round} of ${v.rounds}` : `${seatName(pv.to_move)} is playing…`;
  $("rolls-label").textContent = over || !pv.human_to_move ? "" : ` · ${v.rolls_left} roll${v.rolls_left === 1 ? "" : "s"} left`;
  $("roll").disabled = over || !pv.human_to_move || v.rolls_left === 0;
  $("hint").disabled = over || !pv.human_to_move;
  if (over || !pv.human_to_move || !hintWanted) $("hint-panel").hidden = true;
  else if (hintRows) renderHint();
  $("meter-panel").hidden = !isPercent() || over;
  renderBasis();
  renderDice();
  renderCard();
  renderAiLog();
  renderFeedback();
  renderSummary();
  takeback.update();
}

/** Against opponents, say which advice the coach gives and why: the chance of winning
 * (the view's note), or, while the probability tables are not ready, expected final
 * scores (the coach's stand-in) with the state of the tables' build. */
function renderBasis() {
  const box = $("advice-basis");
  const pv = play.view;
  if (!pv || pv.seats.length < 2 || pv.over || isReplay(pv)) { box.hidden = true; return; }
  box.hidden = false;
  if (isPercent()) {
    box.textContent = `Advice: your chance of winning. ${pv.view.note}`;
    return;
  }
  const why = {
    building: "their build is running (the banner above shows how far)",
    cancelled: "their build was cancelled",
    failed: "their build failed",
    missing: "this server does not build them",
  }[tablesState] || "they are not loaded yet";
  const text = "Advice: expected final scores (exact), not yet your chance of winning: "
    + `that needs the probability tables, and ${why}. The chance-of-winning column appears once they are ready.`;
  // a build the player cancelled (or that failed) can be started again from here
  const again = ["cancelled", "failed"].includes(tablesState) && !isVariant(pv.rules)
    ? el("button", { type: "button", id: "tables-again", onclick: buildAgain }, "Build the tables now") : null;
  box.replaceChildren(text, ...(again ? [" ", again] : []));
}

async function buildAgain() {
  if (!play.view) return;
  tablesState = "building";
  renderBasis();
  await prepareTables(play.view.rules, { needRemaining: true, onReady: tablesReady }).catch((err) => {
    tablesState = "failed";
    renderBasis();
    showError(err.message);
  });
}

/** The remaining-score tables became ready: the view (its unit and note) is the chance of
 * winning's now; price the position and the decisions again. */
async function tablesReady() {
  tablesState = "ready";
  hintRows = null;
  hintUnit = null;
  const wanted = hintWanted && !$("hint-panel").hidden;
  if (play.id) await play.refresh().catch(() => null);
  if (play.view && !play.view.over && play.view.human_to_move && isPercent()) loadMeter();
  loadVerdicts();
  if (wanted) showHint();
}

function seatBox(i, n) {
  const variant = isVariant(chosenRules());
  const offered = info.agents.filter((a) => (variant
    ? VARIANT_AGENTS.includes(a.name) && (a.name !== "duel-optimal" || n === 1)
    : !a.params.some((p) => p.default === null)));
  // duel-optimal reads the variant's solved table, solving it first when it is small
  const value = (a) => (a.name === "duel-optimal" ? "duel-optimal:solve=true" : a.name);
  const select = el("select", { id: `opponent${i}`, "aria-label": `Opponent ${i + 1}` },
    ...offered.map((a) => el("option", { value: value(a), title: a.summary }, a.name)));
  select.value = variant && n === 1 ? "duel-optimal:solve=true" : "optimal";
  return el("label", {}, `Opponent ${i + 1} `, select);
}

/** The rules spec of the form: a preset, or a reduced card of its boxes. */
function chosenRules() {
  const boxes = $("boxes").value.trim().replace(/[\s,]+/g, "+").replace(/^\++|\++$/g, "");
  if (!boxes) return $("rules").value;
  return `${$("rules").value}:boxes=${boxes}${$("bonus").checked ? ",bonus=true" : ""}`;
}

function drawSeats() {
  const n = Number($("opponents").value);
  $("seats").replaceChildren(...Array.from({ length: n }, (_, i) => seatBox(i, n)));
}

function newGameBody() {
  const n = Number($("opponents").value);
  const seats = ["human", ...Array.from({ length: n }, (_, i) => $(`opponent${i}`).value)];
  const seed = $("seed").value;
  return { game: "yahtzee", rules: chosenRules(), seats, seed: seed === "" ? null : Number(seed), coach: "optimal" };
}

function openSetup() {
  if (!confirmNewGame(play.view)) return;
  $("setup").hidden = false;
  $("rules").focus();
}

function actions() {
  const newGame = el("button", { type: "button", id: "new-game" }, "New game");
  newGame.addEventListener("click", openSetup);
  const exportRecord = el("button", { type: "button", id: "export" }, "Export record");
  exportRecord.addEventListener("click", () => play.exportRecord("json"));
  const review = el("a", { class: "button", id: "review", href: "/review" }, "Review");
  review.addEventListener("click", (ev) => { if (play.id) review.href = play.reviewUrl(); else ev.preventDefault(); });
  $("actions").replaceChildren(takeback, newGame, exportRecord, review, el("a", { class: "button", href: "/games" }, "My games"));
}

async function setUpPlay() {
  $("play").classList.remove("hidden");
  info = await gameInfo("yahtzee");
  if (query.rules && presets[query.rules]) $("rules").value = query.rules;
  $("opponents").addEventListener("change", drawSeats);
  $("boxes").addEventListener("input", drawSeats);
  drawSeats();
  actions();
  $("setup").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("start").disabled = true;
    try {
      const body = newGameBody();
      if (!isVariant(body.rules)) await prepareTables(body.rules, { needRemaining: body.seats.length > 1, onReady: tablesReady });
      hintRows = null;
      verdicts = null;
      const pv = await play.start(body);
      if (!pv) return;
      await afterMove();
    } finally {
      $("start").disabled = false;
    }
  });
  $("cancel-setup").addEventListener("click", () => { if (play.view) $("setup").hidden = true; });
  $("roll").addEventListener("click", () => decide(keepAction()));
  $("hint").addEventListener("click", showHint);
  takeback.addEventListener("click", () => { hintRows = null; hintWanted = false; setTimeout(loadVerdicts, 300); });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, select, textarea, dialog") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key >= "1" && ev.key <= "5") toggle(Number(ev.key) - 1);
    else if (ev.key === "r" || ev.key === "R") decide(keepAction());
    else if (ev.key === "h" || ev.key === "H") showHint();
    else if ((ev.key === "s" || ev.key === "S") && ev.target.matches("button.score")) ev.target.click();
    else if (ev.key === "Backspace" && !takeback.disabled) { ev.preventDefault(); takeback.click(); }
  });
  if (query.id && query.at !== undefined) {  // a review's link: the position, read only
    const replay = await api(`/api/sessions/${encodeURIComponent(query.id)}?at=${encodeURIComponent(query.at)}`);
    play.view = replay;
    renderGame(replay);
    $("keys").hidden = true;
    $("actions").replaceChildren(el("a", { class: "button", href: `/yahtzee?id=${encodeURIComponent(replay.id)}` }, "Back to the game"),
      el("a", { class: "button", href: `/review?id=${encodeURIComponent(replay.id)}` }, "Back to the review"));
    return;
  }
  const resumed = query.id ? await play.resume() : null;
  if (resumed) {
    if (!isVariant(resumed.rules)) await prepareTables(resumed.rules, { needRemaining: resumed.seats.length > 1, onReady: tablesReady });
    await afterMove();
  } else {
    $("setup").hidden = false;
  }
}

// --- assistant ----------------------------------------------------------------------------

let aOptions = [];
let aRequest = 0;
let aSelected = null;
let aBest = null;

function assistantUrl(pos) {
  const params = new URLSearchParams({ mode: "assistant", rules: pos.rules, dice: pos.dice.join(""), rolls: String(pos.rolls_left) });
  if (pos.filled.length) params.set("filled", pos.filled.join(","));
  if (pos.upper) params.set("upper", String(pos.upper));
  if (pos.score !== null && pos.score !== undefined) params.set("score", String(pos.score));
  if (pos.yahtzee_box !== null && pos.yahtzee_box !== undefined) params.set("ybox", String(pos.yahtzee_box));
  return "/yahtzee?" + params.toString();
}

function parseDice(text) {
  const digits = String(text || "").replace(/[^0-9]/g, "");
  return digits.split("").map(Number);
}

function aRules() { return presets[$("a-rules").value]; }

function buildCardEditor(points = {}) {
  const rules = aRules();
  const body = el("tbody");
  for (const name of rules.categories) {
    const has = name in points;
    const pts = has && points[name] !== null ? String(points[name]) : "";
    body.append(el("tr", { dataset: { box: name } },
      el("td", {}, el("label", {}, el("input", { type: "checkbox", class: "a-filled", "data-box": name, checked: has, onchange: recompute }), NICE[name] || name)),
      el("td", { class: "num" }, el("input", { type: "number", class: "a-points", "data-box": name, min: "0", max: "1600", value: pts, placeholder: "pts", oninput: onPoints }))));
  }
  const extra = rules.yahtzee_bonus
    ? el("tr", {}, el("td", {}, "Yahtzee bonuses (count)"), el("td", { class: "num" }, el("input", { id: "a-ybonus", type: "number", min: "0", max: "12", value: "0", "aria-label": "Yahtzee bonuses (count)", oninput: recompute })))
    : null;
  $("a-card").replaceChildren(el("thead", {}, el("tr", {}, el("th", {}, "filled box"), el("th", { class: "num" }, "points"))), body, extra ? el("tbody", {}, extra) : "");
}

function onPoints(ev) {
  const box = ev.target.dataset.box;
  const check = document.querySelector(`.a-filled[data-box="${box}"]`);
  if (ev.target.value !== "") check.checked = true;
  recompute();
}

/** Upper total and score from the box points (when every filled box has points). */
function recompute() {
  const rules = aRules();
  let upper = 0, total = 0, complete = true;
  for (const check of document.querySelectorAll(".a-filled")) {
    if (!check.checked) continue;
    const input = document.querySelector(`.a-points[data-box="${check.dataset.box}"]`);
    if (input.value === "") { complete = false; continue; }
    const v = Number(input.value);
    total += v;
    if (UPPER.includes(check.dataset.box)) upper += v;
  }
  if (!complete) return;
  const bonus = upper >= rules.upper_bonus_threshold ? rules.upper_bonus : 0;
  const yb = $("a-ybonus") ? Number($("a-ybonus").value || 0) * rules.yahtzee_bonus : 0;
  $("a-upper").value = String(upper);
  $("a-score").value = String(total + bonus + yb);
}

function readPosition() {
  const rules = aRules();
  const filled = [...document.querySelectorAll(".a-filled")].filter((c) => c.checked).map((c) => c.dataset.box);
  const pos = {
    rules: rules.name, dice: parseDice($("a-dice").value), rolls_left: Number($("a-rolls").value),
    filled, upper: Number($("a-upper").value || 0), score: $("a-score").value === "" ? null : Number($("a-score").value),
    yahtzee_box: null,
  };
  if (rules.family === "yahtzee" && filled.includes("yahtzee") && rules.yahtzee_bonus) {
    const v = document.querySelector('.a-points[data-box="yahtzee"]').value;
    pos.yahtzee_box = v === "" ? null : Number(v);
  }
  return pos;
}

function boxPoints() {
  const out = {};
  for (const check of document.querySelectorAll(".a-filled")) {
    if (!check.checked) continue;
    const v = document.querySelector(`.a-points[data-box="${check.dataset.box}"]`).value;
    out[check.dataset.box] = v;
  }
  return out;
}

function saveUrl(pos) {
  const pts = boxPoints();
  const card = Object.entries(pts).map(([k, v]) => (v === "" ? k : `${k}:${v}`)).join(",");
  return writeState({
    mode: "assistant", rules: pos.rules, dice: pos.dice.join(""), rolls: pos.rolls_left,
    card, upper: pos.upper || null, score: pos.score, target: $("a-target").value,
    ybonus: $("a-ybonus") && $("a-ybonus").value !== "0" ? $("a-ybonus").value : null,
    opt: aSelected,
  });
}

function renderDiceView() {
  $("a-dice-view").replaceChildren(...parseDice($("a-dice").value).slice(0, 5).map((d) => el("span", { class: "die" }, String(d))));
}

async function advise() {
  const pos = readPosition();
  if (pos.dice.length !== 5 || pos.dice.some((d) => d < 1 || d > 6)) {
    showError("enter five dice, each 1 to 6, e.g. 11114");
    return;
  }
  const target = $("a-target").value === "" ? null : Number($("a-target").value);
  saveUrl(pos);
  const ticket = ++aRequest;
  const data = await api(`${API}/advise`, { body: { ...pos, target } });
  if (ticket !== aRequest) return;  // a newer question was asked meanwhile
  aOptions = data.options;
  aBest = aOptions[0].action;
  if (!aOptions.some((o) => o.action === aSelected)) aSelected = null;
  const withP = target !== null;
  $("a-table").querySelector("thead").replaceChildren(el("tr", {}, el("th", {}, "option"),
    el("th", { class: "num" }, "expected final score ", el("span", { class: "tag exact" }, "exact")),
    el("th", { class: "num" }, "regret"),
    withP ? el("th", { class: "num" }, `P(final ≥ ${target}) `, el("span", { class: "tag exact" }, "exact")) : null));
  $("a-table").querySelector("tbody").replaceChildren(...aOptions.map((o, i) => el("tr", {
    class: "clickable" + (i === 0 ? " best" : "") + (o.action === aSelected ? " selected" : ""),
    dataset: { action: o.action }, onclick: () => selectOption(o.action),
  }, el("td", {}, niceAction(o.action)), el("td", { class: "num" }, fmt(o.value, 3)), el("td", { class: "num" }, fmt(o.regret, 3)),
  withP ? el("td", { class: "num" }, o.p_target === null ? "…" : pct(o.p_target, 2)) : null)));
  const notes = [];
  if (withP) notes.push(data.target_note);
  $("a-note").textContent = notes.join(" ");
  if (data.tables.state === "building") {
    setTimeout(advise, 2000);  // the probability tables are loading: ask again when they are
  }
  drawDistribution();
}

async function selectOption(action) {
  aSelected = action === aBest ? null : action;
  for (const tr of $("a-table").querySelectorAll("tbody tr")) tr.classList.toggle("selected", tr.dataset.action === action);
  saveUrl(readPosition());
  drawDistribution();
}

async function drawDistribution() {
  const pos = readPosition();
  const target = $("a-target").value === "" ? null : Number($("a-target").value);
  const ask = (action) => api(`${API}/distribution`, { body: { ...pos, action, target }, quiet: true });
  try {
    const best = await ask(aBest);
    const other = aSelected ? await ask(aSelected) : null;
    // 5-point bins over the central 99.8% of either distribution (the Yahtzee bonus tail
    // reaches past 1000 with tiny probabilities)
    const dists = other ? [best, other] : [best];
    const quantile = (d, q) => {
      let acc = 0;
      for (let i = 0; i < d.p.length; i++) { acc += d.p[i]; if (acc >= q) return d.low + i; }
      return d.low + d.p.length - 1;
    };
    const lo = Math.min(...dists.map((d) => quantile(d, 0.001)));
    const hi = Math.max(...dists.map((d) => quantile(d, 0.999)));
    const width = 5;
    const binned = (d) => {
      const out = new Map();
      d.p.forEach((p, i) => {
        const x = d.low + i;
        if (x < lo || x > hi) return;
        const b = Math.floor(x / width) * width;
        out.set(b, (out.get(b) || 0) + p);
      });
      return [...out.entries()];
    };
    const series = [{ bins: binned(best), cls: "bar" }];
    const parts = [`best (${niceAction(best.action)}): mean ${fmt(best.mean, 2)}, SD ${fmt(best.sd, 2)}`
      + (target !== null ? `, P(≥ ${target}) ${pct(best.p_at_least, 2)}` : "")];
    if (other) {
      series.push({ bins: binned(other), cls: "bar2" });
      parts.push(`${niceAction(other.action)}: mean ${fmt(other.mean, 2)}, SD ${fmt(other.sd, 2)}`
        + (target !== null ? `, P(≥ ${target}) ${pct(other.p_at_least, 2)}` : ""));
    }
    histogram($("a-hist"), series, {
      binWidth: width,
      label: `probability per ${width} points of final score, central 99.8% (blue: best, orange: clicked option)`,
    });
    $("a-dist-note").textContent = parts.join(" · ") + ". Exact, playing the expected-score optimum afterwards.";
  } catch (err) {
    $("a-hist").replaceChildren();
    $("a-dist-note").textContent = err.message;
  }
}

function sparkline(hist) {
  const entries = Object.entries(hist).map(([k, v]) => [Number(k), v]);
  const svg = svgEl("svg", { width: "120", height: "28", viewBox: "0 0 120 28", class: "chart spark" });
  if (!entries.length) return svg;
  const lo = Math.min(...entries.map((e) => e[0])), hi = Math.max(...entries.map((e) => e[0])) + 1;
  const bins = new Array(24).fill(0);
  for (const [x, n] of entries) bins[Math.min(23, Math.floor(((x - lo) / (hi - lo)) * 24))] += n;
  const top = Math.max(...bins);
  bins.forEach((n, i) => svg.append(svgEl("rect", { class: "bar", x: i * 5, width: 4.2, y: 28 - (n / top) * 26, height: (n / top) * 26 })));
  return svg;
}

let mctsJob = null;

async function loadMctsAbout() {
  const about = await api(`${API}/mcts/about`);
  $("m-method").textContent = about.method;
  $("m-rule").textContent = `Two options are compared only when each has at least ${about.min_playouts} playouts `
    + `(fewer: "too few"); "tied" then means not significantly worse than the best (Welch's t-test, ${Math.round(about.alpha * 100)}%). `
    + "The distance is the estimate minus the exact expected final score of the same option.";
}

function mctsProgress(job) {
  const secs = Math.round(job.seconds);
  let text;
  if (job.state === "running") {
    const left = job.seconds_left === null ? "" : ` · about ${Math.ceil(job.seconds_left)} s left`;
    text = job.done === 0 && job.message
      ? `${job.message} — ${secs} s so far`
      : `${job.done} of ${job.simulations} simulations (${Math.round(100 * job.fraction)}%) · ${secs} s so far${left}`;
  } else if (job.state === "cancelled") {
    text = `cancelled after ${job.done} of ${job.simulations} simulations (${job.message})`;
  } else if (job.state === "failed") {
    text = `the search failed: ${job.message}`;
  } else {
    text = `${job.simulations} simulations in ${job.seconds.toFixed(1)} s`;
  }
  $("m-bar").style.width = `${Math.round(100 * job.fraction)}%`;
  $("m-progress-text").textContent = text;
}

function renderMcts(data) {
  const distance = (d) => (d === null ? "–" : (d >= 0 ? "+" : "−") + fmt(Math.abs(d), 1));
  const verdict = (r) => (r.verdict === "best" ? el("span", { class: "tag exact" }, "search's best")
    : r.verdict === "tied" ? el("span", { class: "tag exact" }, "tied")
      : r.verdict === "too few" ? el("span", { class: "tag estimated" }, `too few (< ${data.min_playouts})`) : "worse");
  $("m-table").querySelector("tbody").replaceChildren(...data.rows.map((r, i) => el("tr", { class: i === 0 ? "best" : "", "data-action": r.action },
    el("td", {}, niceAction(r.action), r.action === data.exact_best ? el("span", { class: "tag exact" }, "exact best") : ""),
    el("td", { class: "num" }, fmt(r.mean, 1)), el("td", { class: "num" }, fmt(r.se, 1)),
    el("td", { class: "num" }, String(r.n)), el("td", {}, sparkline(r.histogram)),
    el("td", {}, verdict(r)), el("td", { class: "num" }, fmt(r.exact_value, 1)),
    el("td", { class: "num distance" }, distance(r.distance)))));
  const pick = data.rows[0];
  $("m-summary").textContent = data.search_best === data.exact_best
    ? `The search's pick, ${niceAction(pick.action)}, is also the exact best (expected final score ${fmt(data.exact_best_value, 1)}).`
    : `The search picks ${niceAction(pick.action)} (estimate ${fmt(pick.mean, 1)}); the exact best is ${niceAction(data.exact_best)} `
      + `(expected final score ${fmt(data.exact_best_value, 1)}), so the pick gives up ${fmt(data.pick_cost, 1)} expected points.`;
}

async function runMcts() {
  const pos = readPosition();
  const body = { ...pos, simulations: Number($("m-sims").value), rollout: $("m-rollout").value, seed: Number($("m-seed").value || 0) };
  $("m-go").disabled = true;
  $("m-cancel").classList.remove("hidden");
  $("m-progress").hidden = false;
  $("m-summary").textContent = "";
  $("m-table").querySelector("tbody").replaceChildren();
  try {
    let job = mctsJob = await startMctsJob(body);
    if (!job) return;
    mctsProgress(job);
    while (job.state === "running") {
      await new Promise((r) => setTimeout(r, 400));
      job = await api(`${API}/mcts/jobs/${job.id}`);
      mctsProgress(job);
    }
    if (job.state === "ready") renderMcts(job.result);
  } finally {
    mctsJob = null;
    $("m-go").disabled = false;
    $("m-cancel").classList.add("hidden");
  }
}

let mctsStopWaiting = false;

/** Start the search; while the server's heavy work is full (429) or its engines are still
 * warming up (503), say so and try again every few seconds instead of failing at once. */
async function startMctsJob(body) {
  mctsStopWaiting = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return await api(`${API}/mcts/jobs`, { body, quiet: true });
    } catch (err) {
      if (!(err instanceof ApiError) || ![429, 503].includes(err.status) || attempt >= 40) {
        showError(err.message);
        throw err;
      }
      $("m-progress-text").textContent = `waiting: ${err.message} (trying again in 3 s)`;
      await new Promise((r) => setTimeout(r, 3000));
      if (mctsStopWaiting) {
        $("m-progress-text").textContent = "cancelled before it started";
        return null;
      }
    }
  }
}

async function cancelMcts() {
  if (!mctsJob) mctsStopWaiting = true;
  if (mctsJob) await api(`${API}/mcts/jobs/${mctsJob.id}`, { method: "DELETE" });
}

/** Read `--dice 2,2,3,3,3 --rolls-left 0 --filled ones,twos --upper 6 --score 30` or a JSON line. */
function parsePaste(text) {
  text = text.trim().replace(/^stratagem\s+yahtzee\s+advise\s*/, "");
  let obj = {};
  if (text.startsWith("{")) {
    obj = JSON.parse(text);
  } else {
    const words = text.split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (!w.startsWith("--")) throw new Error(`cannot read ${JSON.stringify(w)}: expected --dice, --rolls-left, --filled, --upper, --score, --yahtzee-box, --rules, --target`);
      const [key, inline] = w.slice(2).split("=", 2);
      const value = inline ?? words[++i];
      if (value === undefined) throw new Error(`--${key} needs a value`);
      const k = key.replace(/-/g, "_");
      if (k === "dice") obj.dice = parseDice(value);
      else if (k === "filled") obj.filled = value.split(",").filter(Boolean);
      else if (["rolls_left", "upper", "score", "yahtzee_box", "target"].includes(k)) obj[k] = Number(value);
      else if (k === "rules") obj.rules = value;
      else throw new Error(`unknown option --${key}`);
    }
  }
  return obj;
}

function applyPosition(obj, points = null) {
  if (obj.rules) {
    if (!presets[obj.rules]) throw new Error(`unknown rules ${obj.rules}; the presets are ${Object.keys(presets).join(", ")}`);
    $("a-rules").value = obj.rules;
  }
  const pts = points || {};
  if (!points) for (const name of obj.filled || []) pts[name] = null;
  if (obj.yahtzee_box !== undefined && obj.yahtzee_box !== null) pts.yahtzee = obj.yahtzee_box;
  buildCardEditor(pts);
  if (obj.dice) $("a-dice").value = obj.dice.join("");
  if (obj.rolls_left !== undefined) $("a-rolls").value = String(obj.rolls_left);
  if (obj.target !== undefined && obj.target !== null) $("a-target").value = String(obj.target);
  recompute();
  if (obj.upper !== undefined && obj.upper !== null) $("a-upper").value = String(obj.upper);
  if (obj.score !== undefined && obj.score !== null) $("a-score").value = String(obj.score);
  renderDiceView();
}

async function setUpAssistant() {
  $("assistant").classList.remove("hidden");
  const q = query;
  if (q.rules && presets[q.rules]) $("a-rules").value = q.rules;
  const points = {};
  for (const part of (q.card || "").split(",").filter(Boolean)) {
    const [name, v] = part.split(":");
    points[name] = v === undefined ? null : Number(v);
  }
  for (const name of (q.filled || "").split(",").filter(Boolean)) points[name] = points[name] ?? null;
  if (q.ybox !== undefined) points.yahtzee = Number(q.ybox);
  buildCardEditor(points);
  if (q.ybonus && $("a-ybonus")) $("a-ybonus").value = q.ybonus;
  $("a-dice").value = q.dice || "11114";
  $("a-rolls").value = ["0", "1", "2"].includes(q.rolls) ? q.rolls : "2";
  if (q.target) $("a-target").value = q.target;
  recompute();
  if (q.upper !== undefined) $("a-upper").value = q.upper;
  if (q.score !== undefined) $("a-score").value = q.score;
  aSelected = q.opt || null;
  renderDiceView();
  $("a-rules").addEventListener("change", async () => {
    buildCardEditor({});
    recompute();
    await api(`${API}/tables/${$("a-rules").value}`, { body: {} }).catch(() => null);
    prepareTables($("a-rules").value, { needRemaining: true }).catch(() => null);
    advise();
  });
  $("a-dice").addEventListener("input", renderDiceView);
  $("a-go").addEventListener("click", advise);
  $("m-go").addEventListener("click", runMcts);
  $("m-cancel").addEventListener("click", cancelMcts);
  loadMctsAbout().catch(() => null);
  $("a-share").addEventListener("click", async () => {
    const url = saveUrl(readPosition());
    try { await navigator.clipboard.writeText(url); $("a-share").textContent = "Link copied"; } catch { $("a-share").textContent = "Link in the address bar"; }
  });
  for (const id of ["a-dice", "a-target", "a-upper", "a-score"]) {
    $(id).addEventListener("keydown", (ev) => { if (ev.key === "Enter") advise(); });
  }
  $("a-paste-go").addEventListener("click", () => {
    try {
      applyPosition(parsePaste($("a-paste").value));
    } catch (err) {
      showError(err.message);
      return;
    }
    api(`${API}/tables/${$("a-rules").value}`, { body: {} }).catch(() => null).then(advise);
  });
  await api(`${API}/tables/${$("a-rules").value}`, { body: {} }).catch(() => null);
  // the probability tables may take a while to load: show their progress meanwhile
  prepareTables($("a-rules").value, { needRemaining: true }).catch(() => null);
  advise();
}

// --- start --------------------------------------------------------------------------------

async function main() {
  $("header").replaceWith(siteHeader("yahtzee"));
  for (const a of $("tabs").querySelectorAll("a")) a.classList.toggle("active", a.dataset.mode === mode);
  document.title = { play: "Yahtzee", assistant: "Yahtzee assistant" }[mode] + " — Stratagem";
  await loadPresets();
  if (mode === "assistant") setUpAssistant();
  else setUpPlay();
}

main();
