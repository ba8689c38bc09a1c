// Yahtzee / Yatzy: coach, play against the AI, assistant.
import {
  ApiError, api, el, fmt, pct, histogram, readState, writeState, setMeter, siteHeader, showError, svgEl,
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
const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

let presets = {};
const query = readState();
const mode = ["coach", "ai", "assistant"].includes(query.mode) ? query.mode : "coach";

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

/** Ask the server to prepare the tables of `rules`; show progress until `need` is met. */
async function prepareTables(rules, { needRemaining = false } = {}) {
  const panel = $("tables-panel");
  let view = await api(`${API}/tables/${rules}`);
  if (!view.solved) {
    panel.classList.remove("hidden");
    $("tables-text").textContent = `solving the ${rules} rules (once; a few seconds)…`;
    $("tables-bar").style.width = "5%";
  }
  // the coach needs only the solved table; the meter, P(target) and the distributions
  // need the remaining-score tables too
  const remaining = mode !== "coach";
  view = await api(`${API}/tables/${rules}`, { body: { remaining } });
  const show = (v) => {
    const r = v.remaining;
    if (r.state === "ready" || (!needRemaining && r.state !== "building")) {
      panel.classList.add("hidden");
      return;
    }
    panel.classList.remove("hidden");
    const secs = Math.round(r.seconds);
    $("tables-text").textContent = r.state === "building"
      ? `${r.message || "preparing the probability tables"} — ${secs} s so far`
      : r.state === "failed" ? `building the tables failed: ${r.message}`
      : "this server does not build the probability tables (they are not in its cache)";
    $("tables-bar").style.width = `${Math.round(100 * (r.progress ?? 0.05))}%`;
  };
  show(view);
  while (view.remaining.state === "building" && needRemaining) {
    await new Promise((res) => setTimeout(res, 1000));
    view = await api(`${API}/tables/${rules}`);
    show(view);
  }
  return view;
}

// --- play (coach and AI) ------------------------------------------------------------------

let game = null;
let kept = [false, false, false, false, false];
let hintShown = false;
let busy = false;

function renderDice() {
  const box = $("dice");
  box.replaceChildren();
  const dice = game && !game.over ? game.dice : [];
  dice.forEach((d, i) => {
    box.append(el("button", {
      class: "die" + (kept[i] ? " kept" : ""), "aria-pressed": String(kept[i]),
      "aria-label": `die ${i + 1} shows ${d}${kept[i] ? ", kept" : ""}`, dataset: { face: d, index: i },
      onclick: () => toggle(i),
      disabled: game.rolls_left === 0,
    }, String(d), el("span", { class: "key" }, String(i + 1))));
  });
}

function toggle(i) {
  if (!game || game.over || game.rolls_left === 0 || busy) return;
  kept[i] = !kept[i];
  renderDice();
}

function keepAction() {
  const faces = game.dice.filter((_, i) => kept[i]).sort((a, b) => a - b);
  return faces.length ? "keep " + faces.join(" ") : "keep -";
}

async function act(action) {
  if (busy || !game || game.over) return;
  busy = true;
  try {
    game = await api(`${API}/games/${game.id}/act`, { body: { action } });
    kept = [false, false, false, false, false];
    hintShown = false;
    renderGame();
  } finally {
    busy = false;
  }
}

function renderCard() {
  const table = $("card");
  const ai = game.mode === "ai";
  const head = el("tr", {}, el("th", {}, "box"), el("th", { class: "num" }, "you"), ai ? el("th", { class: "num" }, "AI") : null);
  const rows = [el("thead", {}, head)];
  const body = el("tbody");
  const you = game.cards[0];
  const canScore = !game.over;
  for (const name of game.categories) {
    const mine = you.boxes[name];
    const open = mine === null;
    const can = canScore && open && name in game.box_points;
    const lastAction = game.last && game.last.action === `score ${name}` && game.last.index === game.decisions - 1;
    const cellYou = open
      ? el("td", { class: "num preview" }, can ? String(game.box_points[name]) : "")
      : el("td", { class: "num" }, String(mine));
    const tr = el("tr", {
      class: ["box-row", open ? "open" : "filled", can ? "can" : "", lastAction ? "last" : ""].join(" "),
      dataset: { box: name },
      onclick: can ? () => act(`score ${name}`) : null,
      title: can ? `score ${game.box_points[name]} in ${NICE[name] || name}` : null,
    }, el("td", { class: "box" }, NICE[name] || name), cellYou,
    ai ? el("td", { class: "num" }, game.cards[1].boxes[name] ?? "") : null);
    body.append(tr);
    if (name === "sixes") {
      const p = presets[game.rules];
      body.append(el("tr", { class: "sum" }, el("td", {}, `Upper total (bonus ${p.upper_bonus} at ${p.upper_bonus_threshold})`),
        el("td", { class: "num" }, `${you.upper_total} +${you.upper_bonus}`),
        ai ? el("td", { class: "num" }, `${game.cards[1].upper_total} +${game.cards[1].upper_bonus}`) : null));
    }
  }
  if (presets[game.rules].yahtzee_bonus) {
    body.append(el("tr", {}, el("td", {}, "Yahtzee bonus"), el("td", { class: "num" }, String(you.yahtzee_bonus)),
      ai ? el("td", { class: "num" }, String(game.cards[1].yahtzee_bonus)) : null));
  }
  body.append(el("tr", { class: "sum" }, el("td", {}, "Total"), el("td", { class: "num", id: "total-you" }, String(you.total)),
    ai ? el("td", { class: "num", id: "total-ai" }, String(game.cards[1].total)) : null));
  rows.push(body);
  table.replaceChildren(...rows);
}

function renderFeedback() {
  const box = $("feedback");
  const last = game.last;
  const mean = game.mean_loss === null ? "–" : fmt(game.mean_loss, 1);
  const stats = el("div", { class: "small muted" }, `decisions ${game.decisions} · expected points lost ${fmt(game.total_loss, 1)} · mean loss per decision `,
    el("span", { id: "mean-loss" }, mean));
  if (!last) {
    box.replaceChildren(el("div", {}, "Your first decision: keep dice and roll, or score a box."), stats);
    return;
  }
  const line = last.regret <= 1e-9
    ? el("div", { class: "good", id: "last-cost" }, `✓ ${niceAction(last.action)}: the best choice (expected ${fmt(last.value, 2)})`)
    : el("div", { class: last.size === "large" ? "bad" : "warn", id: "last-cost" },
      `${niceAction(last.action)} cost ${fmt(last.regret, 1)} points (${last.size}); best was ${niceAction(last.best)} (expected final score ${fmt(last.best_value, 1)} vs ${fmt(last.value, 1)})`);
  box.replaceChildren(line, stats);
}

async function showHint() {
  if (!game || game.over) return;
  const data = await api(`${API}/games/${game.id}/advice`);
  const tbody = $("hint-table").querySelector("tbody");
  tbody.replaceChildren(...data.options.map((o, i) => el("tr", {
    class: "clickable" + (i === 0 ? " best" : ""), dataset: { action: o.action },
    title: "play this option", onclick: () => playOption(o.action),
  }, el("td", {}, niceAction(o.action)), el("td", { class: "num" }, fmt(o.value, 3)), el("td", { class: "num" }, fmt(o.regret, 3)))));
  $("hint-panel").classList.remove("hidden");
  hintShown = true;
}

function playOption(action) {
  if (action.startsWith("score ")) return act(action);
  // mark the dice of the keep, then roll: the same as clicking them
  const want = action === "keep -" ? [] : action.slice(5).split(" ").map(Number);
  kept = game.dice.map(() => false);
  game.dice.forEach((d, i) => {
    const j = want.indexOf(d);
    if (j >= 0) { kept[i] = true; want.splice(j, 1); }
  });
  renderDice();
  return act(keepAction());
}

function renderAiLog() {
  const log = $("ai-log");
  if (!game.ai_turn.length) {
    log.replaceChildren(el("span", { class: "muted" }, "—"));
    return;
  }
  log.replaceChildren(...game.ai_turn.map((s) => el("div", {}, `${s.dice.join(" ")} (${s.rolls_left} rolls left) → ${niceAction(s.action)}`)));
}

function renderMeter() {
  const meter = $("meter");
  if (game.win_chance === null || game.win_chance === undefined) {
    meter.querySelector(".fill").style.width = "0";
    meter.querySelector(".label").textContent = "…";
  } else {
    setMeter(meter, game.win_chance, pct(game.win_chance, 1));
  }
  $("meter-note").textContent = game.win_note;
}

function renderSummary() {
  const box = $("summary");
  if (!game.over) {
    box.classList.add("hidden");
    return;
  }
  const s = game.summary;
  const skill = s.total_loss, luck = s.luck, opt = s.optimum_expected;
  const sign = (x) => (x >= 0 ? "+" : "−") + fmt(Math.abs(x), 1);
  const items = [
    el("h2", {}, "Game over: " + s.result),
    el("table", { id: "report", class: "report" },
      el("tbody", {},
        el("tr", {}, el("th", {}, "The optimum's expected final score"), el("td", { class: "num", id: "report-optimum" }, fmt(opt, 1))),
        el("tr", {}, el("th", {}, "Skill: points your decisions cost (sum of regrets)"), el("td", { class: "num", id: "report-skill" }, "−" + fmt(skill, 1))),
        el("tr", {}, el("th", {}, "Luck: what the dice gave beyond expectation"), el("td", { class: "num", id: "report-luck" }, sign(luck))),
        el("tr", { class: "total" }, el("th", {}, "Your final score"), el("td", { class: "num", id: "report-final" }, String(s.final[0]))))),
    el("p", { class: "muted", id: "report-note" },
      `Expected scores are expected final scores of optimal play, from the solver's table. The cost of a decision is how many expected points it gave up against the best option; `
      + `luck is your final score minus the optimum's expected score plus the cost of your decisions, so ${fmt(opt, 1)} − ${fmt(skill, 1)} ${luck >= 0 ? "+" : "−"} ${fmt(Math.abs(luck), 1)} = ${s.final[0]}.`),
    el("p", {}, "Mean cost per decision: ", el("strong", { id: "final-mean-loss" }, fmt(s.mean_loss, 1)),
      ` expected points over ${s.decisions} decisions.`),
    el("p", {}, `Decisions by cost: best ${s.counts.none}, small (< 1 point) ${s.counts.small}, `
      + `medium (1–5) ${s.counts.medium}, large (≥ 5) ${s.counts.large}.`),
  ];
  if (s.mistakes.length) {
    const tbody = el("tbody");
    for (const m of s.mistakes) {
      const link = assistantUrl(m.position);
      tbody.append(el("tr", { class: `mistake size-${m.size}` },
        el("td", {}, String(m.turn)), el("td", {}, m.dice.join(" ")), el("td", { class: "num" }, String(m.rolls_left)),
        el("td", {}, niceAction(m.action)), el("td", {}, niceAction(m.best)),
        el("td", { class: "num" }, fmt(m.regret, 1)), el("td", {}, el("span", { class: "tag " + (m.size === "large" ? "bad" : "estimated") }, m.size)),
        el("td", {}, el("a", { href: link, class: "replay" }, "replay"))));
    }
    items.push(el("div", { class: "scroll" }, el("table", { id: "mistakes" },
      el("thead", {}, el("tr", {}, ...["turn", "dice", "rolls left", "you", "best", "cost", "size", ""].map((h) => el("th", {}, h)))), tbody)));
  } else {
    items.push(el("p", { class: "good" }, "No mistakes: every decision was optimal."));
  }
  box.replaceChildren(...items);
  box.classList.remove("hidden");
}

function renderGame() {
  $("board").hidden = false;
  const over = game.over;
  $("turn-label").textContent = over ? "Game over" : `Turn ${game.turn} of ${game.categories.length}`;
  $("rolls-label").textContent = over ? "" : `${game.rolls_left} roll${game.rolls_left === 1 ? "" : "s"} left`;
  $("roll").disabled = over || game.rolls_left === 0;
  $("hint").disabled = over;
  renderDice();
  renderCard();
  renderFeedback();
  if (!hintShown) $("hint-panel").classList.add("hidden");
  if (game.mode === "ai") {
    renderAiLog();
    renderMeter();
  }
  renderSummary();
  writeState({ mode, rules: game.rules, ...(game.mode === "ai" ? { ai: game.opponent } : {}) });
}

async function newGame() {
  const rules = $("rules").value;
  const opponent = $("opponent").value;
  $("new-game").disabled = true;
  try {
    const view = await prepareTables(rules, { needRemaining: mode === "ai" && opponent === "win" });
    if (mode === "ai" && opponent === "win" && view.remaining.state !== "ready") {
      showError("the win-seeking AI needs the probability tables, which this server does not have; play the optimal AI");
      return;
    }
    const body = { rules, mode, opponent };
    if (query.seed !== undefined) body.seed = Number(query.seed);
    game = await api(`${API}/games`, { body });
    kept = [false, false, false, false, false];
    hintShown = false;
    renderGame();
    if (mode === "ai" && game.win_chance === null && view.remaining.state === "building") pollMeter();
  } finally {
    $("new-game").disabled = false;
  }
}

async function pollMeter() {
  // the tables were still loading when the game started: refresh the meter when ready
  for (;;) {
    await new Promise((r) => setTimeout(r, 1500));
    if (!game || game.over) return;
    const fresh = await api(`${API}/games/${game.id}`, { quiet: true }).catch(() => null);
    if (!fresh) return;
    game.win_chance = fresh.win_chance;
    game.win_note = fresh.win_note;
    renderMeter();
    if (fresh.win_chance !== null) return;
  }
}

function setUpPlay() {
  $("play").classList.remove("hidden");
  for (const node of document.querySelectorAll(".ai-only")) node.classList.toggle("hidden", mode !== "ai");
  if (query.rules && presets[query.rules]) $("rules").value = query.rules;
  if (query.ai === "win") $("opponent").value = "win";
  $("new-game").addEventListener("click", newGame);
  $("roll").addEventListener("click", () => act(keepAction()));
  $("hint").addEventListener("click", showHint);
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key >= "1" && ev.key <= "5") toggle(Number(ev.key) - 1);
    else if (ev.key === "r" || ev.key === "R") act(keepAction());
    else if (ev.key === "h" || ev.key === "H") showHint();
    else if (ev.key === "n" || ev.key === "N") newGame();
  });
  newGame();
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
    ? el("tr", {}, el("td", {}, "Yahtzee bonuses (count)"), el("td", { class: "num" }, el("input", { id: "a-ybonus", type: "number", min: "0", max: "12", value: "0", oninput: recompute })))
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
  document.title = { coach: "Yahtzee coach", ai: "Yahtzee against the AI", assistant: "Yahtzee assistant" }[mode] + " — Stratagem";
  await loadPresets();
  if (mode === "assistant") setUpAssistant();
  else setUpPlay();
}

main();
