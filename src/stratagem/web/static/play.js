// The generic page of a game without a page of its own (the recipe game Nim): the
// position as the game describes it, its legal decisions as buttons, agents from the
// registry's typed parameters, takeback, export, and the game's id in the URL.
import {
  PlaySession, agentPicker, api, confirmNewGame, el, gameInfo, games, readState, siteHeader, takebackButton,
} from "/static/common.js";

const $ = (sel) => document.querySelector(sel);
let info = null;
const play = new PlaySession({ onView: render });
const takeback = takebackButton(play);

function seatBox(i) {
  const value = i > 0 && info.agents.length ? info.agents[0].name : "human";
  return agentPicker(info.agents, { id: `seat${i}`, label: `Player ${i + 1}`, human: true, value });
}

function drawSeats() {
  const n = Number($("#players").value);
  $("#seats").replaceChildren(...Array.from({ length: n }, (_, i) => seatBox(i)));
}

function setupForm() {
  $("#rules").replaceChildren(...info.presets.map((p) => el("option", { value: p, selected: p === info.default_rules }, p)));
  const counts = [];
  for (let n = info.min_players; n <= info.max_players; n++) counts.push(n);
  $("#players").replaceChildren(...counts.map((n) => el("option", { value: n, selected: n === Math.max(2, info.min_players) }, n)));
  $("#players").addEventListener("change", drawSeats);
  drawSeats();
  $("#setup-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const seed = $("#seed").value;
    const body = {
      game: info.name, rules: $("#rules").value,
      seats: [...document.querySelectorAll("#seats fieldset")].map((seat) => seat.spec()),
      seed: seed === "" ? null : Number(seed),
    };
    if (!(await play.startNew(body))) return;
    $("#setup").hidden = true;
    await play.runAgents();
  });
}

function describe(view) {
  const v = view.view || {};
  if (typeof v.text === "string" && Object.keys(v).length === 1) return el("pre", { class: "position" }, v.text);
  return el("dl", {}, ...Object.entries(v).flatMap(([k, value]) => [
    el("dt", {}, k), el("dd", {}, typeof value === "object" ? JSON.stringify(value) : String(value))]));
}

function statusText(view) {
  if (view.replay_at !== null && view.replay_at !== undefined) {
    return `Replay: the position before decision ${view.replay_at + 1} of ${view.total_decisions}.`;
  }
  if (view.over) {
    const r = view.result.returns || [];
    const best = Math.max(...r);
    const winners = r.map((x, i) => (x === best ? i : -1)).filter((i) => i >= 0);
    const who = winners.map((i) => (view.seats[i] === "human" ? `player ${i + 1} (you)` : `player ${i + 1} (${view.seats[i]})`));
    return `The game is over: ${r.join(" – ")}; ${who.join(" and ")} ${winners.length > 1 ? "share the top" : "won"}.`;
  }
  const seat = view.seats[view.to_move];
  return view.human_to_move ? `Player ${view.to_move + 1} (you) to move.` : `Player ${view.to_move + 1} (${seat}) is thinking…`;
}

function render(view) {
  $("#title").textContent = view.title;
  document.title = `${view.title} — Stratagem`;
  $("#board").hidden = false;
  $("#status").textContent = statusText(view);
  $("#position").replaceChildren(describe(view));
  const buttons = view.human_to_move && !play.busy
    ? view.legal.map((text, i) => el("button", { type: "button", class: "decision", "data-decision": text,
      onclick: () => decide(text) }, i < 9 ? [el("kbd", {}, String(i + 1)), " ", text] : text))
    : [];
  $("#decisions").replaceChildren(...buttons);
  if (view.legal_more) $("#decisions").append(el("span", { class: "small muted" }, `and ${view.legal_more} more`));
  $("#line").replaceChildren(...view.line.map((s) => el("li", { class: s.by },
    s.by === "chance" ? `chance: ${s.text}` : `player ${s.player + 1} (${s.by === "human" ? "you" : view.seats[s.player]}): ${s.text}`)));
  takeback.update();
}

async function decide(text) {
  if (play.busy || !play.view || !play.view.human_to_move) return;
  await play.move(text);
  await play.runAgents();
  render(play.view);
}

function actions() {
  const newGame = el("button", { type: "button", id: "new-game" }, "New game");
  newGame.addEventListener("click", () => {
    if (!confirmNewGame(play.view)) return;
    $("#setup").hidden = false;
    $("#rules").focus();
  });
  const exportRecord = el("button", { type: "button", id: "export" }, "Export record");
  exportRecord.addEventListener("click", () => play.exportRecord("json"));
  const review = el("a", { class: "button", id: "review", href: "#" }, "Review");
  review.addEventListener("click", (ev) => {
    if (play.id) review.href = play.reviewUrl();
    else ev.preventDefault();
  });
  $("#actions").replaceChildren(takeback, newGame, exportRecord, review,
    el("a", { class: "button", href: "/games" }, "My games"));
}

document.addEventListener("keydown", async (ev) => {
  if (ev.target.closest("input, select, textarea, dialog") || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const view = play.view;
  if (!view) return;
  if (ev.key === "Backspace" && !takeback.disabled) {
    ev.preventDefault();
    takeback.click();
  } else if (/^[1-9]$/.test(ev.key) && view.human_to_move) {
    const text = view.legal[Number(ev.key) - 1];
    if (text !== undefined) await decide(text);
  }
});

async function main() {
  const state = readState();
  let view = null;
  if (state.id && state.at !== undefined) {  // a review's link: the position, read only
    const replay = await api(`/api/sessions/${encodeURIComponent(state.id)}?at=${encodeURIComponent(state.at)}`);
    document.querySelector("header.site").replaceWith(siteHeader(replay.game, { rules: false }));
    render(replay);
    $("#decide-title").hidden = $("#keys").hidden = true;
    $("#actions").replaceChildren(el("a", { class: "button", href: `/play?game=${encodeURIComponent(replay.game)}&id=${encodeURIComponent(replay.id)}` }, "Back to the game"));
    return;
  }
  if (state.id) view = await play.resume();
  const name = view ? view.game : state.game;
  document.querySelector("header.site").replaceWith(siteHeader(name || null, { rules: false }));
  if (!name) {
    $("#choose").hidden = false;
    $("#game-list").replaceChildren(...(await games()).map((g) => el("li", {}, el("a", { href: g.page }, g.title))));
    return;
  }
  info = await gameInfo(name);
  if (!info) {
    $("#choose").hidden = false;
    $("#game-list").replaceChildren(el("li", {}, `This server offers no game ${name}.`),
      ...(await games()).map((g) => el("li", {}, el("a", { href: g.page }, g.title))));
    return;
  }
  actions();
  setupForm();
  if (view) await play.runAgents();
  else $("#setup").hidden = false;
}

main();
