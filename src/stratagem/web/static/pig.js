// Pig: play against the optimum or a rule of thumb, your win chance before every decision.
import { api, el, pct, readState, writeState, setMeter, siteHeader, svgEl } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const API = "/api/pig";
let presets = {};
let game = null;
let busy = false;
const query = readState();

function fillPreset(name) {
  const p = presets[name];
  $("goal").value = p.goal;
  $("faces").value = p.faces;
  $("busts").value = p.bust_faces.join(",");
  $("bust-one").checked = p.bust_scores_one;
  $("catch-up").checked = p.catch_up_turn;
}

function settings() {
  const busts = $("busts").value.split(/[\s,]+/).filter(Boolean).map(Number);
  return {
    preset: $("preset").value,
    goal: Number($("goal").value),
    faces: Number($("faces").value),
    bust_faces: busts,
    bust_scores_one: $("bust-one").checked,
    catch_up_turn: $("catch-up").checked,
    opponent: $("opponent").value,
    hold_at: Number($("hold-at").value),
    you_start: $("you-start").checked,
  };
}

function saveUrl(s) {
  writeState({
    preset: s.preset, goal: s.goal, faces: s.faces, busts: s.bust_faces.join(","),
    one: s.bust_scores_one ? 1 : null, catchup: s.catch_up_turn ? 1 : null,
    ai: s.opponent, n: s.opponent === "hold" ? s.hold_at : null, second: s.you_start ? null : 1,
    seed: query.seed,
  });
}

async function newGame() {
  const s = settings();
  if (query.seed !== undefined) s.seed = Number(query.seed);
  $("new-game").disabled = true;
  try {
    game = await api(`${API}/games`, { body: s });
    saveUrl(s);
    $("setup").open = false;
    render();
  } finally {
    $("new-game").disabled = false;
  }
}

async function act(action) {
  if (!game || busy || !game.legal.includes(action)) return;
  busy = true;
  try {
    game = await api(`${API}/games/${game.id}/act`, { body: { action } });
    render();
  } finally {
    busy = false;
  }
}

async function hint() {
  if (!game || !game.legal.length) return;
  const odds = await api(`${API}/games/${game.id}/advice`);
  const box = $("hint-box");
  const hold = odds.p_hold === null ? "not allowed" : pct(odds.p_hold, 2);
  box.replaceChildren(
    el("span", { class: odds.best === "roll" ? "good" : "" }, `roll: ${pct(odds.p_roll, 2)}`), " · ",
    el("span", { class: odds.best === "hold" ? "good" : "" }, `hold: ${hold}`), " — best: ",
    el("strong", { id: "hint-best" }, odds.best));
  box.classList.remove("hidden");
}

function render() {
  $("board").hidden = false;
  const r = game.rules;
  $("variant-line").textContent = `— ${r.description}; opponent ${game.opponent}`;
  $("score-you").textContent = game.scores[0];
  $("score-ai").textContent = game.scores[1];
  $("turn-total").textContent = game.turn_total;
  const parts = [`first to ${r.goal} wins`];
  if (game.must_beat !== null && !game.over) parts.push(`last turn: ${game.to_move === "you" ? "you" : "the AI"} must pass ${game.must_beat}`);
  if (game.over) parts.push(game.winner === "you" ? "you won!" : "the AI won");
  $("goal-line").textContent = parts.join(" · ");
  $("goal-line").className = game.over ? (game.winner === "you" ? "good" : "bad") : "small muted";
  $("goal-line").id = "goal-line";
  $("roll").disabled = !game.legal.includes("roll");
  $("hold").disabled = !game.legal.includes("hold");
  $("hint").disabled = !game.legal.length;
  $("hint-box").classList.add("hidden");
  if (game.p_win !== null) setMeter($("meter"), game.p_win, pct(game.p_win, 2));
  const fb = [];
  if (game.last_cost !== null) {
    fb.push(game.last_cost <= 1e-12
      ? el("span", { class: "good" }, "✓ your last decision was optimal")
      : el("span", { class: "warn" }, `your last decision gave away ${pct(game.last_cost, 2)} of win probability`));
  }
  fb.push(el("div", { class: "muted" }, `decisions ${game.decisions} · given away in total ${pct(game.given_away, 2)}`));
  $("feedback").replaceChildren(...fb);
  const log = $("log");
  log.replaceChildren(...game.events.slice().reverse().map((e) => el("div", { class: e.who === "you" ? "" : "muted" }, e.text)));
  drawMap();
}

async function drawMap() {
  const map = await api(`${API}/games/${game.id}/map`, { quiet: true }).catch(() => null);
  const svg = $("map");
  if (!map) return;
  const g = map.goal;
  const W = 520, H = 360, left = 46, bottom = 30, top = 10, right = 10;
  const w = W - left - right, h = H - top - bottom;
  // zoom on the boundary: up to twice the highest turn total at which the optimum still rolls
  // below a hold (near the goal the optimum rolls on to the end, which the top edge cuts)
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
  $("map-note").textContent = `Where the optimum rolls and holds, by your score (across) and turn total (up, to ${maxK}), `
    + `with the AI on ${map.opponent_score}${map.starter ? "" : " (you move second)"}.`;
  $("rule-key").classList.toggle("hidden", !map.rule_hold_at);
}

async function main() {
  $("header").replaceWith(siteHeader("pig"));
  const list = await api(`${API}/presets`);
  for (const p of list) presets[p.name] = p;
  $("preset").replaceChildren(...list.map((p) => el("option", { value: p.name }, `${p.name} (${p.description.split(": ")[1]})`)));
  const q = query;
  $("preset").value = presets[q.preset] ? q.preset : "pig";
  fillPreset($("preset").value);
  if (q.goal) $("goal").value = q.goal;
  if (q.faces) $("faces").value = q.faces;
  if (q.busts) $("busts").value = q.busts;
  if (q.one) $("bust-one").checked = q.one === "1";
  if (q.catchup) $("catch-up").checked = q.catchup === "1";
  if (["optimal", "hold", "keep-pace"].includes(q.ai)) $("opponent").value = q.ai;
  if (q.n) $("hold-at").value = q.n;
  if (q.second === "1") $("you-start").checked = false;
  const syncHold = () => $("hold-label").classList.toggle("hidden", $("opponent").value !== "hold");
  syncHold();
  $("opponent").addEventListener("change", syncHold);
  $("preset").addEventListener("change", () => fillPreset($("preset").value));
  $("new-game").addEventListener("click", newGame);
  $("roll").addEventListener("click", () => act("roll"));
  $("hold").addEventListener("click", () => act("hold"));
  $("hint").addEventListener("click", hint);
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "r" || ev.key === "R") act("roll");
    else if (ev.key === "h" || ev.key === "H") act("hold");
    else if (ev.key === "?") hint();
  });
  await newGame();
}

main();
