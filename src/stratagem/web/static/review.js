// The review of any game (GET /api/sessions/{sid}/review): the person's decisions priced
// in the game's unit, the thresholds of the labels, a graph of the evaluation move by
// move (with a table for screen readers), totals with luck and skill. This page only
// renders; the numbers and the names of the moves (played_text, best_text: the game's own
// notation) are core/review.py's (docs/sessions.md, "Review").
import { api, el, readState, siteHeader, svgEl } from "/static/common.js";

const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"];
const $ = (id) => document.getElementById(id);

function at(page, query) {
  return page + (page.includes("?") ? "&" : "?") + query;
}

/** Numbers in the unit: chances as percentage points (times 100), else 2 decimals. */
function formatter(unit) {
  return (x, signed = false) => {
    if (x === null || x === undefined) return "–";
    const v = unit.percent ? 100 * x : x;
    const text = v.toFixed(unit.percent ? 1 : 2);
    return signed && v > 0 ? "+" + text : text;
  };
}

function describeUnit(unit) {
  return unit.percent ? `${unit.name} in percentage points (${unit.short})` : `${unit.name} (${unit.short})`;
}

function render(data, sid) {
  const unit = data.unit;
  const f = formatter(unit);
  const humans = new Set(data.decisions.map((d) => d.player));
  const seatName = (i) => `player ${i + 1} (${data.seats[i] === "human" ? "a person" : data.seats[i]})`;
  document.title = `Review of ${data.title} — Stratagem`;
  $("title").textContent = `Review: ${data.title}`;

  const winners = data.returns ? data.returns.map((r, i) => [r, i]).filter(([r]) => r === 1) : [];
  const oneWinner = data.returns && winners.length === 1 && data.returns.every((r) => r === 0 || r === 1);
  const result = !data.finished || !data.returns ? "The game is not over: this reviews it so far."
    : oneWinner ? `Player ${winners[0][1] + 1} (${data.seats[winners[0][1]] === "human" ? "a person" : data.seats[winners[0][1]]}) won.`
      : "Result: " + data.returns.map((r, i) => `${seatName(i)} ${r}`).join(", ") + ".";
  $("summary").textContent = `${data.title} (${data.rules}), ${data.seats.map((_, i) => seatName(i)).join(" against ")}. ${result}`;
  const t = unit.thresholds;
  $("thresholds").textContent =
    `Costs are in ${describeUnit(unit)}: what the best decision was worth minus what the played one was worth. ` +
    `Labels: best (cost 0), good (less than ${f(t.inaccuracy)}), inaccuracy (from ${f(t.inaccuracy)}), ` +
    `mistake (from ${f(t.mistake)}), blunder (from ${f(t.blunder)}).` +
    (data.cost_note ? " " + data.cost_note : "");
  const notes = [];
  if (data.takebacks) notes.push(`${data.takebacks} takeback${data.takebacks > 1 ? "s" : ""} during the game (the review prices the line as finally played).`);
  if (!data.complete) notes.push(`The review stopped at decision ${data.stopped_at + 1}: it prices at most ${data.positions} positions.`);
  if (humans.size > 1) notes.push(`Two people played: both are reviewed; the graph and the luck are ${seatName(data.player)}'s.`);
  $("notes").textContent = notes.join(" ");
  const page = data.page;
  $("back").href = at(page, `id=${encodeURIComponent(sid)}`);

  renderTotals(data, f);
  renderGraph(data, f);
  let pending = null;  // redrawn at the new width when the window changes size (a phone turned)
  window.addEventListener("resize", () => {
    clearTimeout(pending);
    pending = setTimeout(() => renderGraph(data, f), 150);
  });
  renderDecisions(data, f, sid, humans.size > 1);
}

function renderTotals(data, f) {
  const tt = data.totals;
  const rows = [
    ["Decisions reviewed", String(tt.decisions)],
    // a coach may count thrown-away proven results apart: the costs are then the other decisions'
    ...(tt.results_changed ? [
      ["Proven results thrown away", String(tt.results_changed)],
      ["Total cost of the other decisions", f(tt.cost)],
      ["Mean cost of the other decisions", f(tt.mean_cost)],
    ] : [
      ["Total cost", f(tt.cost)],
      ["Mean cost per decision", f(tt.mean_cost)],
    ]),
    ...LABELS.map((l) => [`${l[0].toUpperCase()}${l.slice(1)}`, String(tt.labels[l])]),
  ];
  if (tt.luck !== null) {
    rows.push(
      [`Start (${tt.start_at === "deal" ? "before the first chance" : "at the first decision"})`, f(tt.start)],
      ["Skill: what the decisions cost", f(tt.skill)],
      ["Expected after the decisions (start − skill)", f(tt.start - tt.skill)],
      ["Outcome", f(tt.outcome)],
      ["Luck (outcome − expected)", f(tt.luck, true)],
    );
  }
  $("totals").replaceChildren(el("caption", { class: "small muted" }, `In ${describeUnit(data.unit)}`),
    el("tbody", {}, ...rows.map(([k, v]) => el("tr", {}, el("th", { scope: "row" }, k), el("td", { class: "num" }, v)))));
  $("luck-def").textContent = tt.luck !== null
    ? "Skill is the sum of what the reviewed player's decisions cost. Luck is how far the outcome landed from " +
      "what was to be expected after those decisions: outcome − (start − skill). It holds the dice or tiles, " +
      "and in a game against an opponent the opponent's errors too. So outcome = start − skill + luck."
    : (data.has_chance ? "Luck and skill are given once the game is over and every position is evaluated."
      : "This game has no chance: its result is decided by the decisions alone.");
}

function renderGraph(data, f) {
  const svg = $("graph");
  const points = data.graph;
  // drawn at the width it is shown (SVG units = CSS pixels), so its text stays readable on a phone
  const width = Math.round(Math.max(300, Math.min(900, svg.getBoundingClientRect().width || 640)));
  const height = width < 500 ? 190 : 230, left = 44, right = 14, top = 12, bottom = 30;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  for (const node of [...svg.children]) if (!["title", "desc"].includes(node.tagName)) node.remove();
  const values = points.map((p) => p.value).filter((v) => v !== null);
  // the coach's words where it has them (Score Four's "wins in 3": the line is drawn at
  // the capped evaluation), else the number in the unit
  const said = (p) => (p.value === null ? f(null) : p.text || f(p.value));
  const who = (p) => p.player === null ? "the end" : (p.by === "human" ? `player ${p.player + 1} (a person)` : `player ${p.player + 1} (${data.seats[p.player]})`);
  const rows = points.map((p) => el("tr", {}, el("td", { class: "num" }, p.player === null ? "end" : String(p.decision + 1)),
    el("td", {}, who(p)), el("td", { class: "num" }, said(p))));
  $("graph-table").replaceChildren(
    el("caption", { class: "small muted" }, `${describeUnit(data.unit)} for player ${data.player + 1}, before each decision`),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "num" }, "Decision"), el("th", { scope: "col" }, "To decide"),
      el("th", { scope: "col", class: "num" }, "Evaluation"))),
    el("tbody", {}, ...rows));
  if (!values.length) {
    $("graph-desc").textContent = "The coach gives no evaluation of these positions.";
    $("graph-legend").textContent = "The coach gives no evaluation of these positions: no graph.";
    return;
  }
  let lo = Math.min(...values), hi = Math.max(...values);
  if (data.unit.percent) { lo = 0; hi = 1; }
  if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
  const n = Math.max(1, points[points.length - 1].decision);
  const sx = (d) => left + (d / n) * (width - left - right);
  const sy = (v) => top + (1 - (v - lo) / (hi - lo)) * (height - top - bottom);
  svg.append(svgEl("line", { class: "axis", x1: left, x2: width - right, y1: sy(lo), y2: sy(lo) }));
  svg.append(svgEl("line", { class: "axis", x1: left, x2: left, y1: top, y2: sy(lo) }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(svgEl("line", { class: "grid", x1: left, x2: width - right, y1: sy(v), y2: sy(v) }));
    const label = svgEl("text", { x: left - 6, y: sy(v) + 4, "text-anchor": "end" });
    label.textContent = f(v);
    svg.append(label);
  }
  const step = Math.max(1, Math.ceil(n / 10));
  for (let d = 0; d <= n; d += step) {
    const label = svgEl("text", { x: sx(d), y: height - 10, "text-anchor": "middle" });
    label.textContent = d === n ? "end" : String(d + 1);
    svg.append(label);
  }
  if ((n % step) !== 0) {
    const end = svgEl("text", { x: sx(n), y: height - 10, "text-anchor": "middle" });
    end.textContent = "end";
    svg.append(end);
  }
  let path = "", pen = false;
  for (const p of points) {
    if (p.value === null) { pen = false; continue; }
    path += `${pen ? "L" : "M"}${sx(p.decision).toFixed(1)},${sy(p.value).toFixed(1)}`;
    pen = true;
  }
  svg.append(svgEl("path", { class: "line", d: path }));
  const judged = new Map(data.decisions.map((d) => [d.decision, d]));
  for (const p of points) {
    if (p.value === null || !judged.has(p.decision)) continue;
    svg.append(svgEl("circle", { class: `mark ${judged.get(p.decision).label}`, cx: sx(p.decision), cy: sy(p.value), r: 4.5 }));
  }
  const valued = points.filter((p) => p.value !== null);
  const first = said(valued[0]), last = said(valued[valued.length - 1]);
  const lowest = said(valued.reduce((a, b) => (b.value < a.value ? b : a)));
  const highest = said(valued.reduce((a, b) => (b.value > a.value ? b : a)));
  const worst = data.decisions.filter((d) => ["mistake", "blunder"].includes(d.label));
  const summary = `Player ${data.player + 1}'s ${describeUnit(data.unit)}: ${first} before the first decision, ` +
    `${last} at the ${data.finished ? "end" : "last position"}; lowest ${lowest}, highest ${highest}. ` +
    (worst.length ? `Mistakes and blunders at decision${worst.length > 1 ? "s" : ""} ${worst.map((d) => d.decision + 1).join(", ")}.` : "No mistakes or blunders.");
  $("graph-desc").textContent = summary;
  $("graph-legend").textContent = summary + " Dots: the reviewed decisions (red: a blunder, orange: a mistake). Decisions are numbered from 1 along the bottom.";
}

function renderDecisions(data, f, sid, showPlayer) {
  if (showPlayer) $("decisions-title").textContent = "The people's decisions";
  const costTitle = `Cost (${data.unit.short})`;
  const head = el("tr", {},
    el("th", { scope: "col", class: "num" }, "Decision"),
    showPlayer ? el("th", { scope: "col" }, "Player") : null,
    el("th", { scope: "col" }, "Played"),
    el("th", { scope: "col" }, "Best"),
    el("th", { scope: "col", class: "num" }, costTitle),
    el("th", { scope: "col" }, "Label"),
    el("th", { scope: "col" }, "Look again"));
  const body = data.decisions.map((d) => el("tr", { "data-label": d.label },
    el("td", { class: "num", "data-title": "Decision" }, String(d.decision + 1)),
    showPlayer ? el("td", { "data-title": "Player" }, String(d.player + 1)) : null,
    el("td", { "data-title": "Played" }, el("span", {}, d.played_text ?? d.played, d.explanation ? el("span", { class: "small muted explain" }, d.explanation) : null)),
    el("td", { "data-title": "Best" }, d.best === d.played ? "= played" : d.best_text ?? d.best),
    el("td", { class: "num", "data-title": costTitle }, el("span", {}, f(d.cost), " ", el("span", { class: `xmark ${d.exact ? "exact" : "estimated"}` }, d.exact ? "exact" : "estimated"),
      d.extra?.result_change ? el("span", { class: "small result-change" }, d.extra.result_change) : null)),
    el("td", { "data-title": "Label" }, el("span", { class: `lbl ${d.label}` }, d.label)),
    el("td", { class: "links", "data-title": "Look again" },
      el("a", { href: at(data.page, `id=${encodeURIComponent(sid)}&at=${d.decision}`),
        "aria-label": `position of decision ${d.decision + 1}` }, "position"),
      " ",
      el("button", { type: "button", class: "link-button", "aria-label": `open decision ${d.decision + 1} in the assistant`,
        onclick: (ev) => openInAssistant(ev.currentTarget, sid, d.decision, data.page) }, "open in the assistant"))));
  $("decisions").replaceChildren(
    el("caption", { class: "small muted" }, data.decisions.length
      ? `${data.decisions.length} decision${data.decisions.length > 1 ? "s" : ""} of ${showPlayer ? "the people" : "yours"}, in the order played`
      : "No decision of a person to review yet."),
    el("thead", {}, head), el("tbody", {}, ...body));
}

async function openInAssistant(button, sid, decision, page) {
  button.disabled = true;
  try {
    const game = await api(`/api/sessions/${encodeURIComponent(sid)}/branch`, { body: { at: decision } });
    window.location.href = at(page, `id=${encodeURIComponent(game.id)}`);
  } catch {
    button.disabled = false;
  }
}

async function main() {
  $("header").replaceWith(siteHeader(null));
  const sid = readState().id;
  const status = $("status");
  if (!sid) {
    status.textContent = "No game given: open a review from My games or from a game's page (/review?id=<game>).";
    $("review").setAttribute("aria-busy", "false");
    return;
  }
  try {
    const data = await api(`/api/sessions/${encodeURIComponent(sid)}/review`, { quiet: true });
    $("content").hidden = false;  // shown first: the graph is drawn at its width on screen
    render(data, sid);
    status.textContent = `Reviewed ${data.decisions.length} decision${data.decisions.length === 1 ? "" : "s"}.`;
  } catch (err) {
    status.textContent = `This game cannot be reviewed: ${err.message}`;
    status.classList.add("bad");
  } finally {
    $("review").setAttribute("aria-busy", "false");
  }
}

main();
