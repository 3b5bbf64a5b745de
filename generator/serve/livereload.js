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
  // nor has read any: its styles and scripts (the resource timing), what its scripts fetched
  // (fetched, as they asked: a fetch not done yet is not in the timing), or what the search
  // box's worker read (its fetches are in neither), which the search names in readAside.
  function showsNoneOf(status) {
    if (!status.only || status.previous !== version || script.hasAttribute("data-always")) {
      return false;
    }
    try {
      var read = {};
      read[path(location.pathname.replace(/index\.html$/, ""))] = true;
      performance.getEntriesByType("resource").forEach(function (entry) {
        var url = new URL(entry.name, location.href);
        if (url.origin === location.origin) { read[path(url.pathname)] = true; }
      });
      fetched.forEach(function (where) { read[where] = true; });
      var aside = ((window.Digest && window.Digest.readAside) || []).map(function (start) {
        return path(new URL(start, location.href).pathname);
      });
      return status.only.every(function (named) {
        var changed = path(named);
        return !read[changed] && aside.every(function (start) {
          return changed.indexOf(start) !== 0;
        });
      });
    } catch (e) {
      return false;  // why: whatever could not be told, a reload shows the new site
    }
  }

  // A path as one spelling: decoded (a browser and the server may escape it differently).
  function path(where) {
    try { return decodeURI(where); } catch (e) { return where; }
  }

  // The paths this tab's scripts have fetched from the site, as each fetch starts.
  var fetched = [];
  if (window.fetch) {
    var fetchFirst = window.fetch;
    window.fetch = function (input) {
      try {
        var url = new URL(input && input.url ? input.url : String(input), location.href);
        if (url.origin === location.origin) { fetched.push(path(url.pathname)); }
      } catch (e) { /* not a URL: fetch says so */ }
      return fetchFirst.apply(this, arguments);
    };
  }

  // why: the default of 250 entries fills on a page that has fetched many others' abstracts
  if (window.performance && performance.setResourceTimingBufferSize) {
    performance.setResourceTimingBufferSize(100000);
  }

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
