// parl monitor, a client's jobs: the jobs it created (live and ended) and the selected job's log,
// tailed live while the page is open.
"use strict";

(() => {
  const { el, time, duration, getJson } = Parl;
  const TAIL_MS = 1000;
  const LINES = 500;
  const params = new URLSearchParams(location.search);
  const clientId = params.get("client");
  let selected = params.get("job");
  let jobs = [];
  let lastLog = null;
  let tailing = false;
  let loadingJobs = false;
  let lastJobsLoad = 0;

  function showError(text) {
    const box = document.getElementById("error");
    box.textContent = text;
    box.hidden = !text;
  }

  function stateBadge(j) {
    if (j.state === "ended") {
      return el("span", { class: "badge ended", title: j.cause || "", text: "ended" });
    }
    return el("span", { class: "badge live", text: j.state === "assigned" ? "running" : j.state });
  }

  function renderJobs() {
    Parl.patch(document.querySelector("#jobs tbody"), JSON.stringify([jobs, selected]), jobRows);
  }

  function jobRows() {
    return jobs.map(j => el("tr", {
        class: "clickable" + (j.jobId === selected ? " selected" : ""), "data-job": j.jobId,
        onclick: () => select(j.jobId) },
      el("td", { class: "mono" }, el("a", { href: `?client=${encodeURIComponent(clientId)}&job=${encodeURIComponent(j.jobId)}`,
        onclick: ev => { ev.preventDefault(); select(j.jobId); }, text: j.jobId })),
      el("td", { class: "mono", text: j.actorClass || "" }),
      el("td", { class: "mono", title: j.hostname || "", text: j.workerId || "" }),
      el("td", {}, stateBadge(j), j.cause ? el("div", { class: "meta", text: j.cause }) : null),
      el("td", { class: "mono", text: (j.gpus || []).join(",") || "–" }),
      el("td", { class: "num", text: j.pid > 0 ? j.pid : "" }),
      el("td", { text: time(j.startedAt) }),
      el("td", { text: j.endedAt ? time(j.endedAt) : "" }),
      el("td", { class: "num", text: j.calls ?? "" })));
  }

  function renderClient(c, live) {
    Parl.patch(document.getElementById("client"), JSON.stringify([c, live]), () => clientFacts(c, live));
  }

  function clientFacts(c, live) {
    if (!c) {
      return el("span", { text: "not connected" });
    }
    return [
      el("span", {}, "program ", el("b", { class: "mono", text: c.program || "?" })),
      el("span", {}, "host ", el("b", { text: c.hostname || "?" })),
      el("span", {}, "pid ", el("b", { text: c.pid ?? "?" })),
      el("span", {}, "actors ", el("b", { text: c.actors ?? 0 })),
      el("span", {}, "uptime ", el("b", { text: duration(c.uptimeS) }))];
  }

  async function loadJobs() {
    if (loadingJobs) return;
    loadingJobs = true;
    lastJobsLoad = Date.now();
    try {
      const answer = await getJson(`/api/jobs?client=${encodeURIComponent(clientId)}`);
      showError("");
      jobs = answer.jobs;
      if (!selected && jobs.length) select(jobs[jobs.length - 1].jobId);
      renderJobs();
      if (answer.unansweredWorkers && answer.unansweredWorkers.length) {
        showError("worker(s) " + answer.unansweredWorkers.join(", ") + " did not answer; their jobs are not listed");
      }
    } catch (e) {
      showError(e.message);
    } finally {
      loadingJobs = false;
    }
  }

  function select(jobId) {
    if (selected !== jobId) {
      selected = jobId;
      lastLog = null;
      document.getElementById("log").textContent = "";
      history.replaceState(null, "", `?client=${encodeURIComponent(clientId)}&job=${encodeURIComponent(jobId)}`);
    }
    document.getElementById("log-section").hidden = false;
    document.getElementById("log-title").textContent = `Log of ${jobId} (last ${LINES} lines)`;
    document.getElementById("download").href = `/api/jobs/${encodeURIComponent(jobId)}/log/download`;
    renderJobs();
    tail();
  }

  async function tail() {
    if (!selected || tailing) return;
    tailing = true;
    const jobId = selected;
    try {
      const job = await getJson(`/api/jobs/${encodeURIComponent(jobId)}/log?lines=${LINES}`);
      if (jobId !== selected) return;
      const pre = document.getElementById("log");
      document.getElementById("log-state").textContent = job.state === "ended"
        ? `ended ${time(job.endedAt)}: ${job.cause || ""}` : `running on ${job.workerId} · updated ${time(Date.now())}`;
      if (job.log !== lastLog) {
        const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 24;
        lastLog = job.log;
        pre.textContent = job.log || "(the log is empty)";
        if (document.getElementById("follow").checked || atBottom) pre.scrollTop = pre.scrollHeight;
      }
    } catch (e) {
      document.getElementById("log-state").textContent = e.message;
    } finally {
      tailing = false;
    }
  }

  if (!clientId) {
    showError("No client named: open a client's jobs from the Clients page.");
    return;
  }
  document.getElementById("title").textContent = `Client ${clientId}`;
  document.title = `parl monitor · ${clientId}`;
  if (selected) select(selected);
  loadJobs();
  Parl.follow(view => {
    const c = view.clients.find(x => x.id === clientId);
    renderClient(c || null, !!c);
    if (Date.now() - lastJobsLoad > 1500) loadJobs();
  });
  setInterval(() => { if (!document.hidden) tail(); }, TAIL_MS);
  setInterval(() => { if (!document.hidden && Date.now() - lastJobsLoad > 5000) loadJobs(); }, 1000);
})();
