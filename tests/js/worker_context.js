// The search worker as the browser runs it, for the node checks: lunr.js and our scripts loaded
// into one context in the worker's order (index.js takes its digits from read.js), with the
// packed index at PACKED_PATH loaded as the worker's `index`. The worker's state (`index`,
// `meta`, `loaded`) is declared with let/const, so it is not a property of the context: `state`
// reads it and `setState` sets it.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const SCRIPTS = ["node_modules/lunr/lunr.js", "static/search/query.js", "static/search/read.js", "static/search/index.js",
  "static/search/answer.js", "static/search/worker.js"];

function loadWorker(packedPath) {
  const root = path.join(__dirname, "../..");
  const context = vm.createContext({ console });
  context.self = context;
  for (const file of SCRIPTS) {
    vm.runInContext(fs.readFileSync(path.join(root, file), "utf8"), context, { filename: file });
  }
  const packed = JSON.parse(fs.readFileSync(packedPath, "utf8"));
  setState(context, "index", context.DigestIndex.loadIndex(context.lunr, packed));
  return { context, packed };
}

/** The worker's top-level binding `name`, in `context`. */
function state(context, name) {
  return vm.runInContext(name, context);
}

/** Sets the worker's top-level binding `name` to `value`. */
function setState(context, name, value) {
  context.__value = value;
  vm.runInContext(`${name} = globalThis.__value; delete globalThis.__value;`, context);
}

module.exports = { loadWorker, state, setState };
