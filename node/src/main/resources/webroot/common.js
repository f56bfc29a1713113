// parl monitor: helpers shared by the pages (no build step, no framework).
"use strict";

const Parl = (() => {
  /** Creates an element; text goes in as text, never as HTML. */
  function el(tag, props, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("data-")) e.setAttribute(k, v);
      else if (k === "style") e.setAttribute("style", v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function mb(v) {
    if (v === null || v === undefined) return "–";
    return v >= 1024 ? (v / 1024).toFixed(1) + " GiB" : Math.round(v) + " MiB";
  }

  function duration(s) {
    if (s === null || s === undefined) return "–";
    s = Math.max(0, Math.floor(s));
    const d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60), sec = s % 60;
    if (d) return `${d}d ${h}h`;
    if (h) return `${h}h ${m}m`;
    if (m) return `${m}m ${sec}s`;
    return `${sec}s`;
  }

  function time(ms) {
    if (!ms) return "–";
    const d = new Date(ms);
    return d.toLocaleTimeString([], { hour12: false });
  }

  function meter(used, total, cls, label) {
    const pct = total > 0 ? Math.min(100, 100 * used / total) : 0;
    return el("div", { class: "meter " + (cls || ""), title: label },
      el("span", { style: `width:${pct.toFixed(1)}%` }), el("em", { text: label }));
  }

  function tile(label, value, extra, alert) {
    return el("div", { class: "tile" + (alert ? " alert" : "") },
      el("div", { class: "label", text: label }),
      el("div", { class: "value" }, String(value), extra ? el("small", { text: " " + extra }) : null));
  }

  /** Shows the header's cluster line and live indicator. */
  function header(view) {
    const meta = document.getElementById("cluster-meta");
    if (meta && view) {
      const masters = (view.masters || []).map(m => `${m.address} (${m.active ? "active" : "standby"})`);
      meta.textContent = `${(view.clusterType || "?").toUpperCase()} cluster at ${view.address || "?"}`
        + (masters.length > 1 ? " · masters " + masters.join(", ") : "")
        + (view.jobCenter === "ok" ? "" : " · JobCenter not answering");
    }
  }

  function liveState(state, text) {
    const live = document.getElementById("live");
    if (!live) return;
    live.className = "live " + state;
    live.textContent = text;
  }

  /**
   * Follows the cluster view pushed by the monitor (Server-Sent Events); the browser reconnects
   * by itself when the connection drops.
   */
  function follow(onView) {
    const source = new EventSource("/api/events");
    source.addEventListener("cluster", ev => {
      const view = JSON.parse(ev.data);
      liveState("on", "live · " + time(Date.now()));
      header(view);
      onView(view);
    });
    source.addEventListener("open", () => liveState("on", "live"));
    source.addEventListener("error", () => {
      liveState("off", "reconnecting…");
      // a refused stream is not retried by the browser: find out whether the session ended
      if (source.readyState === EventSource.CLOSED) fetch("/api/cluster", { cache: "no-store" }).then(loggedOut).catch(() => {});
    });
    // do not wait for the first push to show something
    fetch("/api/cluster", { cache: "no-store" }).then(r => loggedOut(r) ? null : r.json())
      .then(view => { if (view) { header(view); onView(view); } }).catch(() => {});
    return source;
  }

  /** A 401 means the login has expired: reloading shows the page that asks for the token. */
  function loggedOut(response) {
    if (response.status !== 401) return false;
    location.reload();
    return true;
  }

  /**
   * Replaces a container's children with build()'s only when key changed, so that unchanged parts
   * of a page keep their elements (and what the user is hovering or selecting) across pushes.
   */
  function patch(container, key, build) {
    if (container.dataset.key === key) return;
    container.dataset.key = key;
    const parts = build();
    container.replaceChildren(...(Array.isArray(parts) ? parts : [parts]));
  }

  async function getJson(url) {
    const r = await fetch(url, { cache: "no-store" });
    loggedOut(r);
    const body = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  }

  return { el, mb, duration, time, meter, tile, follow, getJson, liveState, patch };
})();
