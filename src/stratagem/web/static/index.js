// The start page: one section per game of the registry (GET /api/games), none written here.
import { el, games, showError, siteHeader } from "/static/common.js";

function section(g) {
  const players = g.min_players === g.max_players ? `${g.min_players}` : `${g.min_players}–${g.max_players}`;
  const facts = [
    `${players} player${g.max_players > 1 ? "s" : ""}`,
    `${g.presets.length} rule preset${g.presets.length > 1 ? "s" : ""}`,
    `${g.agents.length} opponents`,
  ];
  if (g.unit) facts.push(`coach priced in ${g.unit.name}`);
  return el("section", { class: "panel", id: `game-${g.name}` },
    el("h2", {}, el("a", { href: g.page }, g.title)),
    g.summary ? el("p", { class: "small muted" }, g.summary) : null,
    el("p", { class: "small" }, facts.join(" · ")),
    el("p", {}, el("a", { class: "button primary", href: g.page }, `Play ${g.title}`)));
}

async function main() {
  document.querySelector("header.site").replaceWith(siteHeader(null));
  const box = document.getElementById("games");
  try {
    box.replaceChildren(...(await games()).map(section));
  } catch (err) {
    showError(`the list of games did not load: ${err.message}`);
  } finally {
    box.removeAttribute("aria-busy");
  }
}

main();
