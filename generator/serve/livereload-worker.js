// The one event stream of `build.py serve`, shared by every open tab of the site.
"use strict";
var ports = [];
var last = null;

new EventSource("/__digest/events").addEventListener("build", function (event) {
  last = JSON.parse(event.data);
  ports.forEach(function (port) { port.postMessage(last); });
});

onconnect = function (event) {
  var port = event.ports[0];
  ports.push(port);
  port.onmessage = function (message) {
    if (message.data === "bye") { ports = ports.filter(function (p) { return p !== port; }); }
  };
  if (last) { port.postMessage(last); }
};
