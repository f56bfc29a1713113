// parl monitor, waiting page: each create that waits for resources, with the JobCenter's reason (asked on every push).
"use strict";

(() => {
  const { el, tile, duration } = Parl;
  let asking = false;

  function row(w) {
    const details = (w.details || []).map(d => el("li", { class: "mono", text: d }));
    return el("tr", { "data-request": w.requestId, class: "reason-" + w.reasonClass },
      el("td", { class: "num", text: w.ahead + 1 }),
      el("td", {}, el("a", { class: "mono", href: `/jobs.html?client=${encodeURIComponent(w.clientId)}`, text: w.clientId })),
      el("td", { class: "mono", text: w.actorClass }),
      el("td", { text: duration(Math.floor(w.ageMs / 1000)) }),
      el("td", { text: w.asks }),
      el("td", {}, el("div", { class: "reason", text: w.reason }), details.length ? el("ul", { class: "details" }, ...details) : null));
  }

  async function refresh(view) {
    const t = view.totals;
    Parl.patch(document.getElementById("totals"), JSON.stringify([t.waiting, t.longestWaitMs, t.waitingByReason]), () => [
      tile("Waiting requests", t.waiting, t.waiting ? `oldest ${Math.round(t.longestWaitMs / 1000)} s` : "", t.waiting > 0),
      ...Object.entries(t.waitingByReason || {}).map(([k, n]) => tile(k.replaceAll("_", " "), n))]);
    if (asking) return;
    asking = true;
    const error = document.getElementById("waiting-error");
    try {
      const body = await Parl.getJson("/api/waiting");
      const list = body.waiting || [];
      document.querySelector("#waiting tbody").replaceChildren(...list.map(row));
      document.getElementById("waiting").hidden = list.length === 0;
      document.getElementById("no-waiting").hidden = list.length > 0;
      error.hidden = true;
    } catch (e) {
      error.textContent = "the waiting creates cannot be read: " + e.message;
      error.hidden = false;
    } finally {
      asking = false;
    }
  }

  Parl.follow(refresh);
})();
