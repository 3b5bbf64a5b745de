// Injected by `build.py serve` into every HTML page it serves (never into the built files).
// Reloads the page when the site's version changes; shows build errors over the page.
(function () {
  "use strict";
  // why: the version this tab is at, on its script: one it takes without reloading too
  var script = document.currentScript;
  var version = script.dataset.version;
  var overlay = null;
  var messages = {};  // why: the overlay's words come with each status, in the site's language

  function showErrors(errors) {
    if (!errors.length) {
      if (overlay) { overlay.remove(); overlay = null; }
      return;
    }
    if (!overlay) { overlay = makeOverlay(); }
    // Error messages quote the curator's text: always textContent, never markup.
    overlay.shadowRoot.querySelector("pre").textContent = errors.join("\n");
  }

  function makeOverlay() {
    var host = document.createElement("digest-build-errors");
    var root = host.attachShadow({ mode: "open" });
    var style = document.createElement("style");
    style.textContent = ":host{all:initial;position:fixed;inset:auto 0 0 0;z-index:2147483647;" +
      "max-height:60vh;overflow:auto;background:#2b0d0d;color:#fde8e8;border-top:4px solid #e5484d;" +
      "font:14px/1.5 system-ui,sans-serif;padding:12px 16px;box-shadow:0 -4px 16px #0006}" +
      "pre{font:13px/1.5 ui-monospace,monospace;white-space:pre-wrap;margin:8px 0 0}" +
      "button{float:right;font:inherit;cursor:pointer}";
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = messages.hide || "";
    close.addEventListener("click", function () { host.remove(); overlay = null; });
    var title = document.createElement("strong");
    title.textContent = messages.buildFailed || "";
    root.append(style, close, title, document.createElement("pre"));
    host.setAttribute("role", "alert");
    document.body.appendChild(host);
    return host;
  }

  function onStatus(status) {
    if (status.version !== version) {
      if (!showsNoneOf(status)) { location.reload(); return; }
      version = script.dataset.version = status.version;
    }
    messages = status.messages || {};
    showErrors(status.errors);
  }

  // Whether a status names the only files that changed since this tab's version (the
  // server's quick pages, or what a build wrote or removed) and this tab neither shows any
  // nor has read any: its styles and scripts, a list's data, pages fetched for their
  // abstracts, or (read by a worker, so not in the resource timing) the search index.
  function showsNoneOf(status) {
    if (!status.only || status.previous !== version) { return false; }
    var read = [location.pathname.replace(/index\.html$/, "")];
    performance.getEntriesByType("resource").forEach(function (entry) {
      var url = new URL(entry.name, location.href);
      if (url.origin === location.origin) { read.push(url.pathname); }
    });
    var aside = (window.Digest && window.Digest.readAside) || [];
    return status.only.every(function (changed) {
      return read.every(function (path) { return !same(path, changed); }) &&
        aside.every(function (start) {
          return changed.indexOf(new URL(start, location.href).pathname) !== 0;
        });
    });
  }

  // Whether an address as the browser spells it is the path a status names.
  function same(path, named) {
    if (path === named) { return true; }
    try { return decodeURI(path) === named || path === encodeURI(named); } catch (e) {
      return false;  // a malformed address: compared as it is
    }
  }

  // why: the default of 250 entries fills on a page that has fetched many others' abstracts
  if (performance.setResourceTimingBufferSize) { performance.setResourceTimingBufferSize(100000); }

  // A page restored from the back/forward cache missed the events sent meanwhile.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { location.reload(); }
  });

  // One event stream shared by every tab (a SharedWorker): browsers allow only six
  // connections to a host, and a stream per tab would stall the seventh tab.
  if (window.SharedWorker) {
    var port = new SharedWorker("/__digest/livereload-worker.js").port;
    port.onmessage = function (event) { onStatus(event.data); };
    window.addEventListener("pagehide", function () { port.postMessage("bye"); });
  } else {
    new EventSource("/__digest/events").addEventListener("build", function (event) {
      onStatus(JSON.parse(event.data));
    });
  }
})();
