// node relevance_answer.js SITE ASKED.json: answers queries as the built site's search worker
// does in the browser, printing [{titles, searched}] as JSON (bench/relevance_bench.py).
// The worker and the scripts it imports are the site's own files, found through the site's
// settings script (assets/settings.js); fetch reads the site's files, so the index is read as the
// browser reads it.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const site = process.argv[2];
const asked = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const settings = fs.readFileSync(path.join(site, "assets/settings.js"), "utf8");
const config = JSON.parse(settings.slice(settings.indexOf("= ") + 2, settings.lastIndexOf(";"))).search;
const base = config.page.replace(/search\/$/, "");

/** The site's file at a URL of the manifest. */
function file(url) {
  return path.join(site, url.split("?")[0].slice(base.length));
}

const context = vm.createContext({
  console, Response, Promise, Map, Set, WeakMap, Uint8Array, Int32Array, Float64Array, TextDecoder,
  importScripts(...urls) {
    for (const url of urls) { vm.runInContext(fs.readFileSync(file(url), "utf8"), context, { filename: url }); }
  },
  fetch(url) {
    const bytes = fs.readFileSync(file(url));
    return Promise.resolve(new Response(bytes, { headers: { "Content-Length": String(bytes.length) } }));
  },
  postMessage() {}
});
context.self = context;
vm.runInContext(fs.readFileSync(file(config.worker), "utf8"), context, { filename: config.worker });

async function main() {
  const ready = await context.init(Object.assign({ type: "init", index: config.index, meta: config.meta,
    docs: config.docs }, config.scripts));
  if (ready.type !== "ready") { throw new Error("not ready: " + JSON.stringify(ready)); }
  const out = [];
  for (const q of asked.queries) {
    const reply = await context.search({ type: "search", id: 1, q: q, filters: {}, limit: asked.depth });
    out.push({ titles: reply.results.map((r) => r.title), searched: reply.searched || null, total: reply.total });
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((error) => { console.error(error); process.exit(1); });
