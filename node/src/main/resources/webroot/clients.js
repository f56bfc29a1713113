// parl monitor, clients page: the programs connected to the cluster and links to their jobs.
"use strict";

(() => {
  const { el, tile, duration } = Parl;
  const rows = new Map(); // client id -> { tr, uptime }

  function row(c) {
    const uptime = el("td", { title: "connected at " + Parl.time(c.connectedAt) });
    const tr = el("tr", { "data-client": c.id },
      el("td", {}, el("a", { class: "mono", href: `/jobs.html?client=${encodeURIComponent(c.id)}`, text: c.id })),
      el("td", { class: "mono", text: c.program || "?" }),
      el("td", { text: `${c.hostname || "?"}${c.address ? " (" + c.address + ")" : ""}` }),
      el("td", { class: "num", text: c.pid ?? "" }),
      el("td", { class: "num actors", text: c.actors }),
      uptime,
      el("td", {}, el("a", { href: `/jobs.html?client=${encodeURIComponent(c.id)}`, text: "jobs and logs →" })));
    return { tr, uptime };
  }

  function render(view) {
    const t = view.totals;
    Parl.patch(document.getElementById("totals"), JSON.stringify([t.clients, t.jobs, t.waiting, t.longestWaitMs]), () => [
      tile("Clients", t.clients), tile("Jobs", t.jobs),
      tile("Waiting requests", t.waiting, t.waiting ? `oldest ${Math.round(t.longestWaitMs / 1000)} s` : "", t.waiting > 0)]);
    const body = document.querySelector("#clients tbody");
    const seen = new Set();
    view.clients.forEach((c, i) => {
      seen.add(c.id);
      let r = rows.get(c.id);
      if (!r) {
        r = row(c);
        rows.set(c.id, r);
      }
      r.tr.querySelector(".actors").textContent = c.actors;
      r.uptime.textContent = duration(c.uptimeS);
      if (body.children[i] !== r.tr) body.insertBefore(r.tr, body.children[i] || null);
    });
    for (const [id, r] of rows) {
      if (!seen.has(id)) {
        r.tr.remove();
        rows.delete(id);
      }
    }
    document.getElementById("clients").hidden = view.clients.length === 0;
    document.getElementById("no-clients").hidden = view.clients.length > 0;
  }

  Parl.follow(render);
})();
