// Injected by `build.py serve` into every HTML page it serves (never into the built files).
// Reloads the page when the site's version changes; shows build errors over the page.
(function () {
  "use strict";
  var version = document.currentScript.dataset.version;
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
      version = status.version;
    }
    messages = status.messages || {};
    showErrors(status.errors);
  }

  // Whether a status names the only pages that changed since this tab's version (the
  // server's quick pages) and this tab shows none of them.
  function showsNoneOf(status) {
    if (!status.only || status.previous !== version) { return false; }
    var here = location.pathname.replace(/index\.html$/, "");
    var decoded = here;
    try { decoded = decodeURI(here); } catch (e) { /* a malformed address: compared as it is */ }
    return status.only.indexOf(here) < 0 && status.only.indexOf(decoded) < 0;
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
