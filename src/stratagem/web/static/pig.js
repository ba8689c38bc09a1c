// Pig: a renderer of a play session (/api/sessions). The server holds the game, the
// dice (dealt by position, so a takeback meets the same roll) and the coach; this page
// shows what they answer and sends your decisions.
import { api, apiPatiently, el, pct, readState, writeState, setMeter, siteHeader, svgEl } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const AI_PAUSE_MS = 120;  // long enough to see the AI's rolls one by one
const HIDDEN_AGENTS = new Set(["table"]);  // a rule table is a file on the server
let presets = {};
let agents = [];
let game = null;   // the SessionView
let rows = null;   // the coach's rows for the decision in front of you
let busy = false;
let hintShown = false;
let feedback = null;
const query = readState();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- the new-game form ------------------------------------------------------------------

function fillPreset(name) {
  const p = presets[name];
  $("goal").value = p.goal;
  $("faces").value = p.faces;
  $("busts").value = p.bust_faces.join(",");
  $("bust-one").checked = p.bust_scores_one;
  $("catch-up").checked = p.catch_up_turn;
}

/** The form as a rules spec of the registry: the preset and what differs from it. */
function rulesSpec() {
  const p = presets[$("preset").value];
  const parts = [];
  const goal = Number($("goal").value), faces = Number($("faces").value);
  const busts = $("busts").value.split(/[\s,/]+/).filter(Boolean).join("/");
  if (goal !== p.goal) parts.push(`goal=${goal}`);
  if (faces !== p.faces) parts.push(`faces=${faces}`);
  if (busts && busts !== p.bust_faces.join("/")) parts.push(`bust_faces=${busts}`);
  if ($("bust-one").checked !== p.bust_scores_one) parts.push(`bust_scores_one=${$("bust-one").checked}`);
  if ($("catch-up").checked !== p.catch_up_turn) parts.push(`catch_up_turn=${$("catch-up").checked}`);
  return parts.length ? `${p.name}:${parts.join(",")}` : p.name;
}

function paramInput(agent, p, value) {
  const id = `opp-${p.name}`;
  const v = value ?? p.default;
  let input;
  if (p.choices && p.choices.length) {
    input = el("select", { id, "data-param": p.name }, ...p.choices.map((c) => el("option", { value: c, selected: String(c) === String(v) }, String(c))));
  } else if (p.type === "bool") {
    input = el("input", { id, type: "checkbox", "data-param": p.name, checked: v === true || v === "true" });
  } else if (p.type === "int" || p.type === "float") {
    input = el("input", { id, type: "number", "data-param": p.name, min: p.min ?? null, max: p.max ?? null,
      step: p.type === "int" ? 1 : "any", value: v ?? "", required: p.required, inputmode: "decimal" });
  } else {
    input = el("input", { id, "data-param": p.name, value: v ?? "", size: 10 });
  }
  return el("label", { title: p.help || "" }, p.name, input);
}

function showAgentParams(values = {}) {
  const agent = agents.find((a) => a.name === $("opponent").value);
  $("opp-params").replaceChildren(...agent.params.map((p) => paramInput(agent, p, values[p.name])));
  $("opp-help").textContent = agent.summary + (agent.params.length
    ? " — " + agent.params.map((p) => `${p.name}: ${p.help}`).join("; ") : "");
}

/** The opponent as an agent spec: name, name:value (its positional parameter alone) or
 * name:key=value,... with only what differs from the defaults. */
function agentSpec() {
  const agent = agents.find((a) => a.name === $("opponent").value);
  const set = [];
  for (const p of agent.params) {
    const input = document.querySelector(`#opp-params [data-param="${p.name}"]`);
    const value = input.type === "checkbox" ? String(input.checked) : input.value.trim();
    if (value === "" || (!p.required && String(value) === String(p.default))) continue;
    set.push([p.name, value]);
  }
  if (!set.length) return agent.name;
  if (set.length === 1 && set[0][0] === agent.positional) return `${agent.name}:${set[0][1]}`;
  return `${agent.name}:${set.map(([k, v]) => `${k}=${v}`).join(",")}`;
}

function readSpec(spec) {
  const [name, rest] = [spec.split(":")[0], spec.split(":").slice(1).join(":")];
  const agent = agents.find((a) => a.name === name);
  if (!agent) return null;
  const values = {};
  if (rest) {
    if (!rest.includes("=") && agent.positional) values[agent.positional] = rest;
    else for (const kv of rest.split(",")) { const [k, v] = kv.split("="); values[k] = v; }
  }
  return { name, values };
}

// --- playing ----------------------------------------------------------------------------

function humanSeat() {
  const humans = game.seats.map((s, i) => (s === "human" ? i : -1)).filter((i) => i >= 0);
  if (humans.length === 1) return humans[0];
  return game.to_move ?? 0;  // both seats people: the view follows the player to move
}

function names() {
  const me = humanSeat();
  const other = game.seats[1 - me];
  if (other === "human") return { me: `Player ${me + 1}`, other: `Player ${2 - me}` };
  return { me: "You", other: `AI (${other})` };
}

async function startGame() {
  const seed = query.seed !== undefined && !game ? Number(query.seed) : undefined;
  const ai = agentSpec();
  const seats = $("you-start").checked ? ["human", ai] : [ai, "human"];
  const body = { game: "pig", rules: rulesSpec(), seats };
  if (seed !== undefined) body.seed = seed;
  $("new-game").disabled = true;
  try {
    game = await api("/api/sessions", { body });
  } finally {
    $("new-game").disabled = false;
  }
  rows = null;
  feedback = null;
  hintShown = false;
  writeState({ id: game.id });
  $("setup").open = false;
  busy = true;  // until the forced roll is made and the coach has answered
  render();
  await proceed();
}

function newGame() {
  if (game && !game.over) {
    $("confirm-new").showModal();
    $("confirm-yes").focus();
    return;
  }
  startGame();
}

async function load(id, at) {
  const replay = at !== undefined && at !== null && at !== "";
  game = await apiPatiently(`/api/sessions/${encodeURIComponent(id)}${replay ? `?at=${Number(at)}` : ""}`);
  if (game.game !== "pig") {
    location.replace(`/${game.game}?id=${encodeURIComponent(id)}`);
    return;
  }
  writeState(replay ? { id: game.id, at: game.replay_at } : { id: game.id });
  $("setup").open = false;
  if (replay) {  // read only: the position when that decision was to be made
    $("replay-note").replaceChildren(`You are looking at the game before decision ${game.replay_at + 1} (read only). `,
      el("a", { href: `/pig?id=${encodeURIComponent(game.id)}` }, "Back to the game"));
    $("replay-note").classList.remove("hidden");
    render();
    drawMap();
    return;
  }
  busy = true;
  render();
  await proceed();
}

/** Let the AI move (one decision at a time, shown), make forced decisions (the roll
 * that starts every turn), then ask the coach about the decision in front of you. */
async function proceed() {
  busy = true;
  render();
  try {
    for (;;) {
      if (game.over) break;
      if (!game.human_to_move) {
        await sleep(AI_PAUSE_MS);
        game = await api(`/api/sessions/${game.id}/ai`, { method: "POST" });
        render();
        continue;
      }
      if (game.legal.length === 1) {
        game = await api(`/api/sessions/${game.id}/move`, { body: { decision: game.legal[0] } });
        render();
        continue;
      }
      break;
    }
    rows = null;
    if (!game.over && game.has_coaching) {
      const advice = await api(`/api/sessions/${game.id}/advice`);
      rows = advice.rows;
      if (game.view.chances === null) game = await api(`/api/sessions/${game.id}`);
    }
  } finally {
    busy = false;
  }
  render();
  drawMap();
}

async function act(decision) {
  if (!game || busy || game.over || !game.human_to_move || !game.legal.includes(decision)) return;
  const row = rows && rows.find((r) => r.action === decision);
  const best = rows && rows[0];
  busy = true;
  render();
  try {
    game = await api(`/api/sessions/${game.id}/move`, { body: { decision } });
  } catch (err) {
    busy = false;
    render();
    throw err;
  }
  feedback = row ? { row, best } : null;
  hintShown = false;
  await proceed();  // busy until the AI has moved and the coach has answered
}

async function takeBack() {
  if (!game || busy) return;
  if (!game.takeback_to.length) {
    feedback = { message: "There is no decision of yours to take back yet." };
    render();
    return;
  }
  busy = true;
  render();
  try {
    game = await api(`/api/sessions/${game.id}/takeback`, { body: { decision: null } });
    // the roll that starts a turn is no choice: go back to your last roll-or-hold
    while (game.human_to_move && game.legal.length === 1 && game.takeback_to.length) {
      game = await api(`/api/sessions/${game.id}/takeback`, { body: { decision: null } });
    }
  } catch (err) {
    busy = false;
    render();
    throw err;
  }
  feedback = { message: "Taken back: the dice you meet again are the same (they are dealt by position)." };
  hintShown = false;
  await proceed();
}

function toggleHint() {
  if (!game || !rows) return;
  hintShown = !hintShown;
  render();
}

// --- rendering --------------------------------------------------------------------------

function faceName(text) {
  const f = game.view.faces.find((x) => String(x.face) === text);
  return f || { name: text, busts: false };
}

function narrate() {
  const me = humanSeat();
  const n = names();
  const who = (p) => (p === me ? n.me : n.other);
  const lines = [];
  let mover = null;
  for (const step of game.line) {
    if (step.by !== "chance") {
      mover = step.player;
      if (step.text === "hold") lines.push({ mine: mover === me, text: `${who(mover)} held` });
      continue;
    }
    const face = faceName(step.text);
    lines.push({ mine: mover === me, text: `${who(mover)} rolled ${face.name}${face.busts ? ": bust" : ""}` });
  }
  return lines;
}

function percent(v) {
  return (100 * v).toFixed(2) + "%";
}

function renderHint() {
  const box = $("hint-box");
  $("hint").setAttribute("aria-expanded", String(hintShown && !!rows));
  if (!hintShown || !rows) {
    box.classList.add("hidden");
    return;
  }
  const reply = rows.some((r) => r.optimal_value !== undefined);
  const head = el("tr", {}, el("th", { scope: "col" }, "option"), el("th", { scope: "col", class: "num" }, "chance of winning"),
    reply ? el("th", { scope: "col", class: "num" }, "the optimum's") : null,
    el("th", { scope: "col", class: "num" }, "cost"));
  const body = rows.map((r, i) => el("tr", { class: i === 0 ? "best" : "" },
    el("td", {}, i === 0 ? el("strong", { id: "hint-best" }, r.action) : r.action,
      el("div", { class: "small muted explain" }, r.explanation)),
    el("td", { class: "num" }, percent(r.value)),
    reply ? el("td", { class: "num" }, percent(r.optimal_value)) : null,
    el("td", { class: "num" }, r.cost > 0 ? `${(100 * r.cost).toFixed(2)} pt` : "–")));
  box.replaceChildren(el("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": "the coach's options" }, el("table", { class: "hint" }, el("thead", {}, head), el("tbody", {}, ...body))));
  box.classList.remove("hidden");
}

function renderFeedback() {
  const box = $("feedback");
  if (!feedback) { box.replaceChildren(); return; }
  if (feedback.message) { box.replaceChildren(el("p", {}, feedback.message)); return; }
  const { row, best } = feedback;
  if (row.cost <= 1e-12) {
    box.replaceChildren(el("p", { class: "good" }, `Your last decision: ✓ ${row.action} was the best (${percent(row.value)}).`));
    return;
  }
  box.replaceChildren(el("p", { class: row.label === "good" ? "" : "warn" },
    `Your last decision, ${{ good: "a good one", inaccuracy: "an inaccuracy", mistake: "a mistake", blunder: "a blunder" }[row.label]}: ${row.action} gave away ${(100 * row.cost).toFixed(2)} points of your chance of winning; `
    + `${best.action} was worth ${percent(best.value)}.`));
}

function render() {
  if (!game) return;
  $("board").hidden = false;
  const v = game.view;
  const me = humanSeat();
  const n = names();
  $("variant-line").textContent = `— now: ${v.rules.description}; ${n.other === "Player 2" || n.other === "Player 1" ? "two people" : "against " + game.seats[1 - me]}`;
  $("name-you").textContent = n.me;
  $("name-ai").textContent = n.other;
  $("score-you").textContent = v.scores[me];
  $("score-ai").textContent = v.scores[1 - me];
  $("turn-total").textContent = v.turn_total;
  const last = [...game.line].reverse().find((s) => s.by === "chance");
  const die = $("last-roll");
  if (last) {
    const face = faceName(last.text);
    die.textContent = face.name.length > 3 ? face.name[0].toUpperCase() : face.name;
    die.setAttribute("aria-label", `last roll: ${face.name}${face.busts ? " (bust)" : ""}`);
    die.classList.toggle("bust", face.busts);
  }
  const whose = v.over ? "" : (v.player === me ? `${n.me === "You" ? "your" : n.me + "'s"} turn` : `${n.other}'s turn`);
  $("turn-line").textContent = whose;
  const parts = [`first to ${v.goal} wins`];
  if (v.last_turn) parts.push(`last turn: ${v.player === me ? n.me : n.other} must pass ${v.must_beat}`);
  if (v.over) parts.push(v.winner === me ? `${n.me === "You" ? "you" : n.me} won!` : `${n.other} won`);
  $("goal-line").textContent = parts.join(" · ");
  $("goal-line").className = v.over ? (v.winner === me ? "good result" : "bad result") : "small muted";
  const replay = game.replay_at !== null && game.replay_at !== undefined;
  // what the page is doing, for people (the buttons) and for tests (body[data-state])
  document.body.dataset.state = busy ? "busy" : replay ? "replay" : v.over ? "over" : game.human_to_move ? "yours" : "theirs";
  const can = (d) => !busy && !replay && !v.over && game.human_to_move && game.legal.includes(d);
  $("roll").disabled = !can("roll");
  $("hold").disabled = !can("hold");
  $("hint").disabled = !rows || v.over;
  $("takeback").disabled = replay || !game.takeback_to.length;
  $("review-link").href = `/review?id=${encodeURIComponent(game.id)}`;
  $("review-link").textContent = v.over ? "Review this game" : "Review so far";
  $("export-link").href = `/api/sessions/${encodeURIComponent(game.id)}/record`;
  $("export-link").setAttribute("download", `pig-${game.id}.json`);
  if (v.chances) {
    setMeter($("meter"), v.chances[me], percent(v.chances[me]));
    $("meter").setAttribute("aria-valuetext", percent(v.chances[me]));
  }
  else $("meter").querySelector(".label").textContent = "solving…";
  $("meter-label").textContent = n.me === "You" ? "Your chance of winning" : `${n.me}'s chance of winning`;
  $("coach-line").textContent = v.coach.sentence;
  const st = game.storage;
  $("storage").textContent = st.persistent && st.ok ? "" : st.message;
  renderHint();
  renderFeedback();
  $("log").replaceChildren(...narrate().slice(-80).reverse().map((e) => el("div", { class: e.mine ? "" : "muted" }, e.text)));
}

async function drawMap() {
  if (!game) return;
  const me = humanSeat();
  const at = game.replay_at !== null && game.replay_at !== undefined ? `&at=${game.replay_at}` : "";
  const map = await api(`/api/pig/sessions/${game.id}/map?player=${me}${at}`, { quiet: true }).catch(() => null);
  const svg = $("map");
  if (!map) return;
  const g = map.goal;
  const W = 520, H = 360, left = 46, bottom = 30, top = 10, right = 10;
  const w = W - left - right, h = H - top - bottom;
  // zoom on the boundary: up to twice the highest turn total at which the coach still rolls
  // below a hold (near the goal it rolls on to the end, which the top edge cuts)
  let edge = 0;
  map.roll.forEach((col) => { const k = col.indexOf(0); if (k > edge) edge = k; });
  const maxK = Math.min(g, Math.max(10, Math.ceil(edge * 2)));
  const sx = (i) => left + (i / g) * w;
  const sy = (k) => top + h - (k / maxK) * h;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  for (let i = 0; i < g; i++) {
    const col = map.roll[i];
    let start = 0;
    for (let k = 1; k <= col.length; k++) {
      if (k === col.length || col[k] !== col[start]) {
        const hi = Math.min(k, maxK);
        if (start < maxK) {
          svg.append(svgEl("rect", {
            class: col[start] ? "roll" : "hold", x: sx(i), width: Math.max(w / g, 0.5) + 0.3,
            y: sy(hi), height: sy(start) - sy(hi),
          }));
        }
        start = k;
      }
    }
  }
  if (map.rule_hold_at) {
    const pts = map.rule_hold_at.map((t, i) => `${sx(i + 0.5)},${sy(Math.min(t, g - i, maxK))}`).join(" ");
    svg.append(svgEl("polyline", { class: "rule", points: pts }));
  }
  if (map.me !== null && map.turn_total !== null) {
    svg.append(svgEl("circle", { class: "you", cx: sx(map.me + 0.5), cy: sy(Math.min(map.turn_total + 0.5, maxK)), r: 6 }));
  }
  svg.append(svgEl("line", { class: "axis", x1: left, x2: left + w, y1: top + h, y2: top + h }));
  svg.append(svgEl("line", { class: "axis", x1: left, x2: left, y1: top, y2: top + h }));
  const step = g <= 20 ? 5 : g <= 60 ? 10 : g <= 120 ? 20 : 50;
  for (let x = 0; x <= g; x += step) {
    const t = svgEl("text", { x: sx(x), y: H - 12, "text-anchor": "middle" });
    t.textContent = String(x);
    svg.append(t);
  }
  const ystep = maxK <= 20 ? 5 : maxK <= 60 ? 10 : 20;
  for (let k = 0; k <= maxK; k += ystep) {
    const u = svgEl("text", { x: left - 6, y: sy(k) + 4, "text-anchor": "end" });
    u.textContent = String(k);
    svg.append(u);
  }
  const yl = svgEl("text", { x: 12, y: top + h / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${top + h / 2})` });
  yl.textContent = "turn total";
  svg.append(yl);
  const xl = svgEl("text", { x: left + w / 2, y: H - 1, "text-anchor": "middle" });
  xl.textContent = "your score";
  svg.append(xl);
  const who = map.kind === "best reply" ? `the best reply to ${map.against}` : "the optimum";
  $("map-note").textContent = `Where ${who} rolls and holds, by your score (across) and turn total (up, to ${maxK}), `
    + `with the opponent on ${map.opponent_score}${map.starter ? "" : " (you move second)"}.`;
  $("rule-key").classList.toggle("hidden", !map.rule_hold_at);
  if (map.against) $("rule-name").textContent = map.against;
}

// --- start ------------------------------------------------------------------------------

function onKey(ev) {
  if (ev.target.closest("input, select, textarea, dialog") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const key = ev.key.toLowerCase();
  if (key === "r") act("roll");
  else if (key === "h") act("hold");
  else if (key === "?") toggleHint();
  else if (key === "t") takeBack();
  else if (key === "n") newGame();
  else return;
  ev.preventDefault();
}

async function main() {
  $("header").replaceWith(siteHeader("pig"));
  const [list, games] = await Promise.all([api("/api/pig/presets"), api("/api/games")]);
  for (const p of list) presets[p.name] = p;
  $("preset").replaceChildren(...list.map((p) => el("option", { value: p.name }, `${p.name} (${p.description.split(": ")[1]})`)));
  agents = games.games.find((g) => g.name === "pig").agents.filter((a) => !HIDDEN_AGENTS.has(a.name));
  $("opponent").replaceChildren(...agents.map((a) => el("option", { value: a.name }, a.name)));
  // a link may carry the form: ?rules=pig:goal=50&ai=hold:15&second=1&seed=2
  const [preset, rest] = (query.rules || "pig").split(":");
  $("preset").value = presets[preset] ? preset : "pig";
  fillPreset($("preset").value);
  for (const kv of (rest || "").split(",").filter(Boolean)) {
    const [k, val] = kv.split("=");
    if (k === "goal") $("goal").value = val;
    else if (k === "faces") $("faces").value = val;
    else if (k === "bust_faces") $("busts").value = val.split("/").join(",");
    else if (k === "bust_scores_one") $("bust-one").checked = val === "true";
    else if (k === "catch_up_turn") $("catch-up").checked = val === "true";
  }
  const wanted = readSpec(query.ai || "optimal") || readSpec("optimal");
  $("opponent").value = wanted.name;
  showAgentParams(wanted.values);
  if (query.second === "1") $("you-start").checked = false;
  $("opponent").addEventListener("change", () => showAgentParams());
  $("preset").addEventListener("change", () => fillPreset($("preset").value));
  $("new-game").addEventListener("click", newGame);
  $("confirm-yes").addEventListener("click", () => { $("confirm-new").close(); startGame(); });
  $("confirm-no").addEventListener("click", () => $("confirm-new").close());
  $("roll").addEventListener("click", () => act("roll"));
  $("hold").addEventListener("click", () => act("hold"));
  $("hint").addEventListener("click", toggleHint);
  $("takeback").addEventListener("click", takeBack);
  document.addEventListener("keydown", onKey);
  if (query.id) await load(query.id, query.at);
  else document.body.dataset.state = "setup";
}

main();
