// Shared by every page: the API fetch wrapper (errors shown to the player),
// URL state for shareable positions, small DOM and chart helpers. No build step.

/** An error answered by the server: `status` and its `detail` message. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

function errorBox() {
  let box = document.getElementById("error-box");
  if (!box) {
    box = document.createElement("div");
    box.id = "error-box";
    box.setAttribute("role", "alert");
    box.addEventListener("click", () => box.classList.remove("shown"));
    document.body.append(box);
  }
  return box;
}

let errorTimer = null;
/** Show a message in the error banner (click or wait to dismiss). */
export function showError(message) {
  const box = errorBox();
  box.textContent = message;
  box.classList.add("shown");
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => box.classList.remove("shown"), 8000);
}

export function clearError() {
  errorBox().classList.remove("shown");
}

/**
 * Call the JSON API. `body` (an object) makes it a POST unless `method` says otherwise.
 * A 4xx/5xx answer shows its `detail` in the error banner and throws ApiError
 * (pass `quiet: true` to only throw).
 */
export async function api(path, { method, body, quiet = false, signal } = {}) {
  const init = { method: method || (body === undefined ? "GET" : "POST"), signal, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    const e = new ApiError(0, "cannot reach the server: is `stratagem serve` still running?");
    if (!quiet) showError(e.message);
    throw e;
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!response.ok) {
    const detail = (data && typeof data.detail === "string") ? data.detail
      : `${response.status} ${response.statusText}`;
    const e = new ApiError(response.status, detail);
    if (!quiet) showError(detail);
    throw e;
  }
  return data;
}

/**
 * `api` that waits out a server still preparing its engines (503) or busy (429): it tries
 * again every 2 s for up to `patience` seconds, showing why, before it gives up. Used to
 * open a stored game, so that a page reloaded just after a server restart finds the game
 * instead of starting another.
 */
export async function apiPatiently(path, options = {}, patience = 120) {
  const until = Date.now() + patience * 1000;
  for (;;) {
    try {
      return await api(path, { ...options, quiet: true });
    } catch (err) {
      const waiting = err instanceof ApiError && (err.status === 503 || err.status === 429);
      if (!waiting || Date.now() > until) {
        if (!options.quiet) showError(err.message);
        throw err;
      }
      showError(`${err.message} (trying again)`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

/** Query-string parameters of the page as a plain object. */
export function readState() {
  return Object.fromEntries(new URLSearchParams(window.location.search));
}

/**
 * Replace the page URL's query with `state` (keys with null/undefined/"" dropped),
 * so that the address bar always restores what is shown. Returns the full URL.
 */
export function writeState(state, { push = false } = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(state)) {
    if (v === null || v === undefined || v === "") continue;
    params.set(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  const query = params.toString();
  const url = window.location.pathname + (query ? "?" + query : "");
  if (push) window.history.pushState(null, "", url);
  else window.history.replaceState(null, "", url);
  return window.location.origin + url;
}

/** Create an element: el("td", {class: "num", onclick: f}, "text", child). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** `n` with `digits` decimals (a dash for null). */
export function fmt(n, digits = 3) {
  return n === null || n === undefined || Number.isNaN(n) ? "–" : Number(n).toFixed(digits);
}

/** A probability as a percentage. */
export function pct(p, digits = 1) {
  return p === null || p === undefined ? "–" : (100 * p).toFixed(digits) + "%";
}

/** A small tag saying whether a number is exact or estimated. */
export function exactness(exact) {
  return el("span", { class: "tag " + (exact ? "exact" : "estimated") }, exact ? "exact" : "estimated");
}

/** Set a meter (`.meter > .fill + .label`) to probability `p`. */
export function setMeter(meter, p, text) {
  meter.querySelector(".fill").style.width = `${Math.round(1000 * p) / 10}%`;
  meter.querySelector(".label").textContent = text ?? pct(p);
  meter.setAttribute("aria-valuenow", String(Math.round(100 * p)));
  meter.setAttribute("aria-valuetext", text ?? pct(p)); // replaces "not known yet"
}

const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/**
 * Draw a histogram into `svg`: `series` is a list of {bins: [[x, weight], ...], cls}
 * (weights as probabilities or counts); x is an integer score.
 * Returns the svg. Bars of several series are drawn side by side.
 */
export function histogram(svg, series, { width = 640, height = 200, binWidth = 1, label = "" } = {}) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.classList.add("chart");
  const all = series.flatMap((s) => s.bins);
  if (!all.length) return svg;
  const xs = all.map((b) => b[0]);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs) + binWidth;
  const top = Math.max(...series.map((s) => {
    const total = s.bins.reduce((a, b) => a + b[1], 0) || 1;
    return Math.max(...s.bins.map((b) => b[1] / total));
  }));
  const left = 36, bottom = 22, right = 8, topPad = 14;
  const w = width - left - right, h = height - bottom - topPad;
  const sx = (x) => left + ((x - lo) / (hi - lo)) * w;
  series.forEach((s, i) => {
    const total = s.bins.reduce((a, b) => a + b[1], 0) || 1;
    const slot = (w * binWidth) / (hi - lo) / series.length;
    for (const [x, weight] of s.bins) {
      const bh = (weight / total / top) * h;
      if (bh < 0.05) continue;  // invisible at this scale
      svg.append(svgEl("rect", {
        class: s.cls || (i ? "bar2" : "bar"), x: sx(x) + i * slot, y: topPad + h - bh,
        width: Math.max(slot - 0.3, 0.6), height: bh,
      }));
    }
  });
  svg.append(svgEl("line", { class: "axis", x1: left, x2: left + w, y1: topPad + h, y2: topPad + h }));
  const step = niceStep((hi - lo) / 8);
  for (let x = Math.ceil(lo / step) * step; x <= hi; x += step) {
    const t = svgEl("text", { x: sx(x), y: height - 6, "text-anchor": "middle" });
    t.textContent = String(x);
    svg.append(t);
  }
  const t = svgEl("text", { x: left, y: 10 });
  t.textContent = label || `max ${(100 * top).toFixed(1)}% per bin`;
  svg.append(t);
  return svg;
}

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}

export { svgEl };

/** Poll `fn` every `ms` until it returns a truthy value; resolves to that value. */
export async function pollUntil(fn, ms = 800) {
  for (;;) {
    const value = await fn();
    if (value) return value;
    await new Promise((r) => setTimeout(r, ms));
  }
}

let gamesPromise = null;
/** The games this server offers (GET /api/games, fetched once per page): name, title,
 * page, presets, default_rules, rule_params, min/max players, agents with their typed
 * params, unit, has_coaching, record_formats. Every list of games on the site comes from it. */
export function games() {
  if (!gamesPromise) {
    gamesPromise = api("/api/games", { quiet: true }).then((d) => d.games).catch((err) => {
      gamesPromise = null;
      throw err;
    });
  }
  return gamesPromise;
}

/** One game's entry of `games()` (null when the server does not offer it). */
export async function gameInfo(name) {
  return (await games()).find((g) => g.name === name) || null;
}

/** The site header shared by every page; its navigation lists the registry's games
 * (filled in when GET /api/games answers) and "My games". */
export function siteHeader(active, { rules: withRules = true } = {}) {
  const nav = el("nav", { "aria-label": "Games" });
  const mine = el("a", { href: "/games", "aria-current": active === "games" ? "page" : null }, "My games");
  games().then((list) => {
    nav.replaceChildren(...list.map((g) => el("a", {
      href: g.page, "aria-current": g.name === active ? "page" : null,
    }, g.title)), mine);
  }).catch(() => nav.replaceChildren(mine));
  nav.append(mine);
  const rules = active && active !== "games" && withRules
    ? el("button", { type: "button", id: "rules-open", class: "rules-open", onclick: () => showRules(active) }, "Rules")
    : null;
  return el("header", { class: "site" }, el("a", { class: "home", href: "/" }, "Stratagem"), nav, rules);
}

// The preset a page is showing, so the rules open at it: a visible select marked
// data-rules-preset, else one of the selects the game pages name their presets by.
const PRESET_SELECTS = ["[data-rules-preset]", "#rules", "#a-rules", "#preset", "#tiles", "#a-tiles"];

function shownPreset() {
  for (const sel of PRESET_SELECTS) {
    for (const node of document.querySelectorAll(sel)) {
      if (node.offsetParent !== null && node.value) return node.value;
    }
  }
  return null;
}

/** The rules of `game` in a dialog: the presets side by side (the numbers that differ
 * marked), then each preset in plain words; served by GET /api/{game}/rules. */
export async function showRules(game) {
  let dialog = document.getElementById("rules-dialog");
  if (!dialog) {
    dialog = el("dialog", { id: "rules-dialog", class: "rules", "aria-labelledby": "rules-title" },
      el("div", { class: "row" }, el("h2", { id: "rules-title" }, "Rules"),
        el("button", { type: "button", id: "rules-close", onclick: () => dialog.close() }, "Close")),
      el("div", { id: "rules-body" }));
    // keys pressed while reading the rules are not the game's (R would roll, Esc clear a move)
    dialog.addEventListener("keydown", (ev) => ev.stopPropagation());
    document.body.append(dialog);
  }
  const body = document.getElementById("rules-body");
  // The dialog opens at once, before the rules arrive, so that keys pressed after the click
  // are the dialog's, never the game's (an R typed while the text loads would roll the
  // dice); the header, where the focus is, stays while the text below it is replaced.
  if (!dialog.open) {
    body.replaceChildren(el("p", { class: "muted", role: "status" }, "Loading the rules…"));
    dialog.showModal();
  }
  let data;
  try {
    data = await api(`/api/${game}/rules`, { quiet: true });
  } catch (err) {
    body.replaceChildren(el("p", { role: "alert" }, `The rules could not be loaded: ${err.message}`));
    return;
  }
  const current = shownPreset() || data.presets[0].preset;
  const items = [];
  if (data.presets.length > 1) {
    const labels = data.presets[0].facts.map(([label]) => label);
    const head = el("tr", {}, el("th", {}, ""), ...data.presets.map((p) => el("th", { scope: "col" }, p.preset)));
    const rows = labels.map((label, i) => {
      const values = data.presets.map((p) => p.facts[i][1]);
      const differs = new Set(values).size > 1;
      return el("tr", { class: differs ? "differs" : "" }, el("th", { scope: "row" }, label),
        ...values.map((v) => el("td", {}, v !== values[0] ? el("strong", {}, v) : v)));
    });
    items.push(el("p", { class: "muted" }, `The presets side by side; in bold, what differs from ${data.presets[0].preset}.`),
      el("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": "the presets compared" }, el("table", { id: "rules-compare" }, el("thead", {}, head), el("tbody", {}, ...rows))));
  }
  for (const p of data.presets) {
    items.push(el("details", { open: p.preset === current, class: "rules-preset", "data-preset": p.preset },
      el("summary", {}, el("h3", {}, p.title)), ...p.paragraphs.map((t) => el("p", {}, t))));
  }
  body.replaceChildren(...items);
}

// A failed API call has already been shown to the player (see `api`); do not let it
// surface again as an unhandled rejection from an event handler.
window.addEventListener("unhandledrejection", (ev) => {
  if (ev.reason instanceof ApiError) ev.preventDefault();
});

// --- play sessions: the one REST shape (/api/sessions) for every game's page ---------------

/** The game's record for download: `/api/sessions/{id}/record?format=...` (json, or a
 * format of the game's own such as gcg). */
export function recordUrl(id, format = "json") {
  return `/api/sessions/${encodeURIComponent(id)}/record?format=${encodeURIComponent(format)}`;
}

/** Download the record of game `id` (an <a download> click). */
export function downloadRecord(id, format = "json") {
  const a = el("a", { href: recordUrl(id, format), download: "" });
  document.body.append(a);
  a.click();
  a.remove();
}

/** Show (or hide) the note that games are not being saved: `storage` of a SessionView or
 * of GET /api/sessions. The note is the element #storage-note, made when missing. */
export function storageNote(storage) {
  let note = document.getElementById("storage-note");
  if (!storage || storage.ok) {
    if (note) note.hidden = true;
    return;
  }
  if (!note) {
    note = el("p", { id: "storage-note", class: "storage-note", role: "status" });
    const main = document.querySelector("main") || document.body;
    main.prepend(note);
  }
  note.textContent = `Not saved: ${storage.message}. You can go on playing; the game lives in this server's memory.`;
  note.hidden = false;
}

/** Whether "New game" may go ahead: at once when there is no game in progress, else
 * after the player confirms that the game in progress is left (it stays in My games). */
export function confirmNewGame(view) {
  if (!view || view.over || !view.decisions || view.decisions.length === 0) return true;
  return window.confirm("Leave the game in progress and start a new one? (It stays in My games.)");
}

/**
 * One game on a page, through /api/sessions. The game's id is kept in the page URL
 * (`?id=`, history.replaceState), so a reload, Back or a shared URL restore it.
 *
 *   const play = new PlaySession({ onView: render });
 *   await play.resumeOrStart(() => ({ game: "pig", seats: ["human", "optimal"] }));
 *   await play.move("roll");          // a person's decision, by its text
 *   await play.runAgents();           // agents move one by one, onView after each
 *   await play.takeback();            // back to the person's last decision
 *   await play.startNew(body);        // asks first when a game is in progress
 *   play.exportRecord("json");
 *
 * Every method resolves to the SessionView (or null when nothing was done) and calls
 * `onView(view)`; errors are shown in the error banner and rethrown as ApiError.
 */
export class PlaySession {
  constructor({ onView = () => {}, idParam = "id", agentDelay = 250 } = {}) {
    this.onView = onView;
    this.idParam = idParam;
    this.agentDelay = agentDelay;
    this.view = null;
    this.busy = false;
  }

  get id() {
    return this.view ? this.view.id : null;
  }

  _show(view) {
    this.view = view;
    const state = readState();
    if (state[this.idParam] !== view.id) writeState({ ...state, [this.idParam]: view.id });
    storageNote(view.storage);
    this.onView(view);
    return view;
  }

  async _call(path, body, method) {
    return this._show(await api(`/api/sessions/${encodeURIComponent(this.id)}${path}`, { body, method }));
  }

  /** The game of the URL's `?id=` if there is one (null when it is unknown or gone: the
   * banner says why), else null. */
  async resume() {
    const id = readState()[this.idParam];
    if (!id) return null;
    try {
      return this._show(await apiPatiently(`/api/sessions/${encodeURIComponent(id)}`));
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 410 || err.status === 422)) {
        const state = readState();
        delete state[this.idParam];
        writeState(state);
        return null;
      }
      throw err;
    }
  }

  /** Resume the URL's game, else start one from `body()` (POST /api/sessions). */
  async resumeOrStart(body) {
    return (await this.resume()) || this.start(typeof body === "function" ? body() : body);
  }

  /** A new game (no questions asked): `{game, rules?, seats, seed?, coach?}`. */
  async start(body) {
    return this._show(await api("/api/sessions", { body }));
  }

  /** A new game, after asking when one is in progress; null when the player declines. */
  async startNew(body) {
    if (!confirmNewGame(this.view)) return null;
    return this.start(typeof body === "function" ? body() : body);
  }

  /** Open a stored or shared game by its id. */
  async open(id) {
    return this._show(await apiPatiently(`/api/sessions/${encodeURIComponent(id)}`));
  }

  async refresh() {
    return this._call("");
  }

  /** A person's decision, by its text (one of `view.legal`). */
  async move(text) {
    return this._call("/move", { decision: text });
  }

  /** One decision of the agent to move. */
  async aiMove() {
    return this._call("/ai", {});
  }

  /** Agents move one at a time until a person is to move or the game is over; `onView`
   * after each, `agentDelay` ms apart so a person can follow. */
  async runAgents() {
    if (this.busy) return this.view;
    this.busy = true;
    try {
      while (this.view && !this.view.over && !this.view.human_to_move) {
        await this.aiMove();
        if (this.agentDelay && !this.view.over && !this.view.human_to_move) {
          await new Promise((r) => setTimeout(r, this.agentDelay));
        }
      }
    } finally {
      this.busy = false;
    }
    return this.view;
  }

  /** Take back to a person's decision (`decision` number; default: their last). */
  async takeback(decision = null) {
    return this._call("/takeback", { decision });
  }

  /** The coach's rows for the position now: `{unit, rows}`. */
  async advice() {
    return api(`/api/sessions/${encodeURIComponent(this.id)}/advice`);
  }

  /** A new game of the first `at` decisions with every seat a person's ("open in the
   * assistant"); the page then shows it (its id goes into the URL). */
  async branch(at) {
    return this._show(await api(`/api/sessions/${encodeURIComponent(this.id)}/branch`, { body: { at } }));
  }

  exportRecord(format = "json") {
    if (this.id) downloadRecord(this.id, format);
  }

  /** The review page of this game. */
  reviewUrl() {
    return `/review?id=${encodeURIComponent(this.id)}`;
  }
}

/** A "Take back" button for `play` (a PlaySession): enabled while the person has a
 * decision to take back and no agent is moving. Call `update()` from onView. */
export function takebackButton(play, { label = "Take back", id = "takeback" } = {}) {
  const button = el("button", { type: "button", id, title: "Take back your last decision (Backspace)" }, label);
  button.addEventListener("click", async () => {
    if (button.disabled) return;
    button.disabled = true;
    try {
      await play.takeback();
    } finally {
      update();
    }
  });
  function update() {
    const v = play.view;
    button.disabled = !v || play.busy || !v.takeback_to || v.takeback_to.length === 0;
  }
  button.update = update;
  update();
  return button;
}

/** The page that resumes a stored game: its game page with `?id=`. */
export function resumeUrl(page, id) {
  return `${page}${page.includes("?") ? "&" : "?"}id=${encodeURIComponent(id)}`;
}

/** An input for one typed parameter of an agent (GET /api/games' `params`): a select of
 * its choices, a number input with its range, or a text input; the default as placeholder. */
export function paramInput(p, idPrefix) {
  const id = `${idPrefix}-${p.name}`;
  const shown = p.default === null || p.default === undefined ? "" : String(p.default);
  let input;
  if (p.choices && p.choices.length) {
    input = el("select", { id, "data-param": p.name },
      el("option", { value: "" }, `default${shown ? ` (${shown})` : ""}`),
      ...p.choices.map((c) => el("option", { value: c }, c)));
  } else if (p.type === "int" || p.type === "float") {
    input = el("input", { id, type: "number", "data-param": p.name, min: p.min, max: p.max,
      step: p.type === "int" ? 1 : "any", placeholder: shown });
  } else if (p.type === "bool") {
    input = el("select", { id, "data-param": p.name },
      el("option", { value: "" }, `default${shown ? ` (${shown})` : ""}`),
      el("option", { value: "true" }, "yes"), el("option", { value: "false" }, "no"));
  } else {
    input = el("input", { id, type: "text", "data-param": p.name, placeholder: shown });
  }
  return el("label", { title: `${p.help} (${p.kind})` }, p.name, input);
}

/**
 * A choice of player for one seat: "You" (when `human`) or any agent of the game, with
 * the chosen agent's typed parameters as inputs (ranges and defaults from the registry).
 * `picker.spec()` is the seat's spec: "human" or `name[:key=value,...]` (the parameters
 * left empty keep their defaults), checked by the server when the game starts.
 *
 *   const info = await gameInfo("pig");
 *   const opponent = agentPicker(info.agents, { id: "opponent", label: "Opponent", value: "optimal" });
 *   form.append(opponent);  ...  seats: ["human", opponent.spec()]
 */
export function agentPicker(agents, { id, label, human = false, value = null } = {}) {
  const select = el("select", { id, "aria-label": label },
    human ? el("option", { value: "human" }, "You") : null,
    ...agents.map((a) => el("option", { value: a.name, title: a.summary }, a.name)));
  const params = el("span", { class: "row params" });
  const box = el("fieldset", { class: "row seat" }, el("legend", {}, label), select, params);
  function showParams() {
    const agent = agents.find((a) => a.name === select.value);
    params.replaceChildren(...(agent ? agent.params.map((p) => paramInput(p, id)) : []));
  }
  select.addEventListener("change", showParams);
  if (value !== null) select.value = value;
  showParams();
  box.spec = () => {
    if (select.value === "human") return "human";
    const values = [...params.querySelectorAll("[data-param]")]
      .filter((i) => i.value !== "").map((i) => `${i.dataset.param}=${i.value}`);
    return values.length ? `${select.value}:${values.join(",")}` : select.value;
  };
  box.select = select;
  return box;
}
