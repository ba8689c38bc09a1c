// My games: the stored games (GET /api/sessions) with their result and date, each with
// a link to resume it on its game's page and one to its review.
import { api, el, resumeUrl, siteHeader, storageNote } from "/static/common.js";

function row(g) {
  const result = g.finished ? `over: ${g.result}` : "in progress";
  return el("tr", { "data-id": g.id },
    el("td", {}, g.title),
    el("td", {}, g.rules),
    el("td", {}, g.seats.join(" vs ")),
    el("td", {}, result),
    el("td", { class: "num" }, g.decisions),
    el("td", {}, el("time", { datetime: g.updated }, g.updated.replace("T", " ").replace("Z", ""))),
    el("td", { class: "row" },
      el("a", { href: resumeUrl(g.page, g.id), class: "resume", "aria-label": `${g.finished ? "Replay" : "Resume"} ${g.title} game of ${g.updated}` },
        g.finished ? "Replay" : "Resume"),
      el("a", { href: `/review?id=${encodeURIComponent(g.id)}`, class: "review", "aria-label": `Review ${g.title} game of ${g.updated}` }, "Review")));
}

async function main() {
  document.querySelector("header.site").replaceWith(siteHeader("games"));
  const data = await api("/api/sessions");
  storageNote(data.storage);
  document.getElementById("where").textContent = data.storage.ok
    ? `Games are kept by this server: ${data.storage.message}.` : "";
  document.querySelector("#my-games tbody").replaceChildren(...data.games.map(row));
  document.getElementById("count").textContent = data.games.length
    ? `${data.games.length} game${data.games.length > 1 ? "s" : ""}, the most recent first`
    : "No games yet: start one from the start page.";
}

main();
