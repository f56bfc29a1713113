// parl monitor, workers page: one card per worker (CPU view or GPU view) with a recent-history chart.
"use strict";

(() => {
  const { el, mb, meter, tile } = Parl;
  const MAX_POINTS = 150;
  const COLORS = ["#2f6fde", "#e8773a", "#2e9d6a", "#9b51e0", "#d92d20", "#0e9384", "#c11574", "#6172f3"];
  const cards = new Map();   // worker id -> { root, head, resources, jobs, chartBox, plot, keys, data, statsAt }
  let history = {};
  let historyLoaded = false;

  function jobLink(jobId, view) {
    const job = (view.jobs || []).find(j => j.jobId === jobId);
    if (!job) return el("span", { class: "mono", text: jobId });
    return el("a", { class: "mono", href: `/jobs.html?client=${encodeURIComponent(job.clientId)}&job=${encodeURIComponent(jobId)}`,
      title: `${job.actorClass || ""} of client ${job.clientId}`, text: jobId });
  }

  function renderTotals(view) {
    const t = view.totals;
    Parl.patch(document.getElementById("totals"), JSON.stringify([view.clusterType, t]), () => totalTiles(view, t));
  }

  function totalTiles(view, t) {
    const tiles = [tile("Workers", t.workers)];
    if (view.clusterType !== "cpu") {
      tiles.push(tile("GPUs used", t.gpus.used, `/ ${t.gpus.total}`), tile("GPUs vacant", t.gpus.vacant));
    }
    if (view.clusterType !== "gpu") {
      tiles.push(tile("CPUs used", t.cpus.used, `/ ${t.cpus.total}`), tile("CPUs vacant", t.cpus.vacant));
    }
    tiles.push(tile("Jobs", t.jobs), tile("Clients", t.clients),
      tile("Waiting requests", t.waiting, t.waiting ? `oldest ${Math.round(t.longestWaitMs / 1000)} s` : "", t.waiting > 0));
    return tiles;
  }

  function gpuState(d, view) {
    const jobs = d.jobIds && d.jobIds.length ? d.jobIds : (d.jobId ? [d.jobId] : []);
    const links = jobs.flatMap((j, i) => i ? [", ", jobLink(j, view)] : [jobLink(j, view)]);
    const share = d.shareUsed && d.shareUsed < 1000 ? `${(d.shareUsed / 1000).toFixed(3).replace(/0+$/, "")} used by ` : "used by ";
    const budget = d.memoryBudgetMb ? ` · ${mb(d.memoryBudgetMb)} budgeted` : "";
    if (d.state === "quarantined") return el("span", { class: "badge quarantined gpu-state", title: d.fault || "", text: "quarantined" + (d.fault ? ": " + d.fault : "") });
    if (d.state === "drained") return el("span", { class: "badge drained gpu-state" }, jobs.length ? "drained, " + share : "drained", ...links);
    if (d.state === "used") return el("span", { class: "badge used gpu-state" }, share, ...(links.length ? links : ["a job"]), budget);
    return el("span", { class: "badge vacant gpu-state", text: "vacant" });
  }

  /** Drains or undrains a worker (gpu null) or one of its GPUs; the page updates from the next push. */
  async function setDrained(worker, gpu, drained, button) {
    button.disabled = true;
    try {
      const r = await fetch("/api/drain", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(gpu === null ? { worker, drained } : { worker, gpu, drained }) });
      if (!r.ok) {
        const body = await r.json().catch(() => ({ error: r.statusText }));
        button.title = body.error || r.statusText;
        button.classList.add("failed");
      }
    } finally {
      button.disabled = false;
    }
  }

  function drainButton(worker, gpu, drained, what) {
    const b = el("button", { class: "drain", type: "button", "data-drain": gpu === null ? worker : `${worker}:${gpu}`,
      title: drained ? `put ${what} back in service` : `take ${what} out of service: nothing new is placed there, running actors finish`,
      text: drained ? "undrain" : "drain" });
    b.addEventListener("click", () => setDrained(worker, gpu, !drained, b));
    return b;
  }

  function gpuRow(d, view, workerId) {
    const state = gpuState(d, view);
    return el("div", { class: "gpu " + d.state, "data-gpu": d.index },
      el("div", { class: "gid", text: `GPU ${d.index}` }),
      el("div", { class: "gname", title: d.uuid || "", text: d.name || "" }),
      meter(d.memoryUsedMb || 0, d.memoryTotalMb || 0, "", `${mb(d.memoryUsedMb)} / ${mb(d.memoryTotalMb)}`),
      el("div", { class: "util", title: "utilisation", text: d.utilization === null || d.utilization === undefined ? "–" : `${d.utilization} %` }),
      el("div", {}, state, " ", drainButton(workerId, d.index, d.state === "drained" || d.state === "quarantined",
        `GPU ${d.index}`)));
  }

  function cardHead(w) {
    const facts = [];
    if (w.load !== null && w.load !== undefined) facts.push(`load ${Number(w.load).toFixed(2)}`);
    if (w.memory) facts.push(`memory ${mb(w.memory.usedMb)} / ${mb(w.memory.totalMb)}`);
    facts.push(`${w.callsServed || 0} calls served`);
    return [
      el("span", { class: "id mono", text: w.id }),
      el("span", { class: "host", text: `${w.hostname || "?"} (${w.address || "?"})` }),
      el("span", { class: "facts", text: facts.join(" · ") + (w.drained ? " · drained" : "") }),
      drainButton(w.id, null, !!w.drained, "this worker"),
      w.gpuProblem ? el("div", { class: "problem", text: "nvidia-smi: " + w.gpuProblem }) : null,
    ].filter(Boolean);
  }

  function resources(w, view) {
    const gpus = (w.gpuDevices || []).map(d => gpuRow(d, view, w.id));
    if (view.clusterType === "gpu") {
      return gpus;
    }
    return [gpus.length ? el("div", { class: "gpus", style: "grid-column: 1 / -1" }, ...gpus) : null,
      el("div", { class: "k", text: "CPUs" }),
      meter(w.cpus.used, w.cpus.total, "cpu", `${w.cpus.used} used / ${w.cpus.total} · ${w.cpus.vacant} vacant`),
      el("div", { class: "k", text: "memory" }),
      w.memory ? meter(w.memory.usedMb, w.memory.totalMb, "", `${mb(w.memory.usedMb)} / ${mb(w.memory.totalMb)}`) : el("div", { text: "–" }),
    ];
  }

  function jobList(w, view) {
    const jobs = w.jobs || [];
    return jobs.length ? ["jobs: ", ...jobs.map(j => jobLink(j, view))] : ["no jobs"];
  }

  /** The jobs a worker's links point to, so that a part is redrawn when they change. */
  function jobsKey(w, view) {
    return JSON.stringify((view.jobs || []).filter(j => j.workerId === w.id).map(j => [j.jobId, j.clientId]));
  }

  function updateCard(card, w, view) {
    const gpu = view.clusterType === "gpu";
    Parl.patch(card.head, JSON.stringify([w.id, w.hostname, w.address, w.load, w.memory, w.callsServed, w.gpuProblem, w.drained]),
      () => cardHead(w));
    card.resources.className = gpu ? "gpus" : "cpus";
    Parl.patch(card.resources, JSON.stringify([view.clusterType, w.cpus, w.memory && !gpu ? w.memory : null, w.gpuDevices, jobsKey(w, view)]),
      () => resources(w, view));
    Parl.patch(card.jobs, JSON.stringify([w.jobs, jobsKey(w, view)]), () => jobList(w, view));
  }

  // ---- charts ---------------------------------------------------------------------------------

  function seriesKeys(w, gpu) {
    return gpu ? (w.gpuDevices || []).map(d => String(d.index)) : ["load"];
  }

  function emptyData(keys) {
    return [[], ...keys.map(() => [])];
  }

  function dataFromHistory(h, keys, gpu) {
    if (!h) return emptyData(keys);
    const cols = keys.map(k => gpu ? ((h.gpus[k] || {}).utilization || h.t.map(() => null)) : h.load);
    return [h.t.slice(), ...cols.map(c => c.slice())];
  }

  function makePlot(card, keys, gpu) {
    const width = Math.max(200, card.chartBox.clientWidth || 480);
    const opts = {
      width, height: 130,
      legend: { show: true, live: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: gpu ? { range: [0, 100] } : { range: (u, min, max) => [0, Math.max(1, (max || 0) * 1.25)] } },
      axes: [{ stroke: "#667085", grid: { stroke: "#eef0f3" } },
             { stroke: "#667085", grid: { stroke: "#eef0f3" }, size: 56, values: (u, v) => v.map(x => gpu ? x + " %" : x) }],
      series: [{}, ...keys.map((k, i) => ({
        label: gpu ? `GPU ${k}` : "load", stroke: COLORS[i % COLORS.length], width: 1.6, spanGaps: true,
        points: { show: false },
        value: (u, v) => v === null || v === undefined ? "–" : (gpu ? v + " %" : Number(v).toFixed(2)),
      }))],
    };
    card.plot = new uPlot(opts, card.data, card.chartBox);
  }

  function updateChart(card, w, gpu) {
    if (typeof uPlot === "undefined") return;
    const keys = seriesKeys(w, gpu);
    if (!card.plot || card.keys.join() !== keys.join()) {
      if (card.plot) card.plot.destroy();
      card.keys = keys;
      card.data = dataFromHistory(history[w.id], keys, gpu);
      card.statsAt = card.data[0].length ? Math.round(card.data[0][card.data[0].length - 1] * 1000) : null;
      makePlot(card, keys, gpu);
    }
    if (w.statsAt && w.statsAt !== card.statsAt && (!card.statsAt || w.statsAt > card.statsAt)) {
      card.statsAt = w.statsAt;
      card.data[0].push(w.statsAt / 1000);
      keys.forEach((k, i) => {
        const d = (w.gpuDevices || []).find(g => String(g.index) === k);
        card.data[i + 1].push(gpu ? (d ? d.utilization : null) : w.load);
      });
      for (const col of card.data) while (col.length > MAX_POINTS) col.shift();
      card.plot.setData(card.data);
    }
  }

  // ---- page -----------------------------------------------------------------------------------

  function render(view) {
    renderTotals(view);
    const gpu = view.clusterType === "gpu";
    const box = document.getElementById("workers");
    const seen = new Set();
    for (const w of view.workers) {
      seen.add(w.id);
      let card = cards.get(w.id);
      if (!card) {
        const head = el("div", { class: "card-head" });
        const res = el("div", {});
        const jobs = el("div", { class: "joblist" });
        const chartBox = el("div", { class: "chart-plot" });
        const root = el("article", { class: "card worker-card", "data-worker": w.id }, head, res, jobs,
          el("div", { class: "chart" }, el("div", { class: "chart-title", text: gpu ? "GPU utilisation, recent minutes" : "host load, recent minutes" }), chartBox));
        card = { root, head, resources: res, jobs, chartBox, plot: null, keys: [], data: null, statsAt: null };
        cards.set(w.id, card);
        box.append(root);
      }
      updateCard(card, w, view);
      if (historyLoaded) updateChart(card, w, gpu);
    }
    for (const [id, card] of cards) {
      if (!seen.has(id)) {
        if (card.plot) card.plot.destroy();
        card.root.remove();
        cards.delete(id);
      }
    }
    document.getElementById("no-workers").hidden = view.workers.length > 0;
  }

  let latest = null;
  Parl.getJson("/api/history")
    .then(h => { history = h; })
    .catch(() => {})
    .finally(() => { historyLoaded = true; if (latest) render(latest); });
  Parl.follow(view => { latest = view; render(view); });
  window.addEventListener("resize", () => {
    for (const card of cards.values()) {
      if (card.plot) card.plot.setSize({ width: Math.max(200, card.chartBox.clientWidth), height: 130 });
    }
  });
})();
