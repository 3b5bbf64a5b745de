// Where a query's time goes in the search worker, without a browser:
//
//     node bench/search_profile.js SITE [QUERY ...] [--runs 20] [--top 12]
//
// SITE is a built site (e.g. of bench/synthetic.py's digest). Loads static/search-*.js as the
// worker does (lunr.js, the packed index read from its bytes, the facets), runs each query's
// search() once to warm up (its first run makes the postings it needs and fetches documents),
// then --runs times under V8's sampling profiler, and prints the CPU time per run and the
// functions of the search scripts and lunr.js that took the most of it (sampled self time; on a
// busy machine the samples also count time the process waited for a core). Defaults to bench/search_bench.py's queries.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { Session } = require("node:inspector");

const root = path.join(__dirname, "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : Number(args.splice(at, 2)[1]);
};
const runs = option("--runs", 20);
const top = option("--top", 12);
const [site, ...asked] = args;
const queries = asked.length ? asked : ["model", "language models", '"neural network"',
  "graph learning inference", "tag:graph-learning", "-model neural", "netw", "netwrk"];

// why: the worker's scripts share one global scope, as in a Worker; run in this context, not a
// vm context, whose globals are several times slower to reach
globalThis.self = globalThis;
for (const file of ["node_modules/lunr/lunr.js", "static/search/query.js", "static/search/read.js",
  "static/search/index.js", "static/search/answer.js", "static/search/worker.js"]) {
  vm.runInThisContext(fs.readFileSync(path.join(root, file), "utf8"), { filename: path.join(root, file) });
}
const bytes = fs.readFileSync(path.join(site, "search/index.json"));
const packed = DigestRead.parseIndex(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
globalThis.index = DigestIndex.loadIndex(lunr, packed);
globalThis.meta = JSON.parse(fs.readFileSync(path.join(site, "search/meta.json"), "utf8"));
globalThis.docsBase = path.join(site, "search/docs") + path.sep;
globalThis.fetch = (url) => Promise.resolve({
  ok: true, json: () => Promise.resolve(JSON.parse(fs.readFileSync(url, "utf8")))
});

const session = new Session();
session.connect();
const post = (method) => new Promise((resolve, reject) => session.post(method, (error, result) => (
  error ? reject(error) : resolve(result))));

/** Self time by function (name file:line), most first. */
function selfTimes(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const times = new Map();
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id).callFrame;
    // why: the samples also fall on node's own and the profiler's code, and on waiting
    if (!/(static|lunr)[/\\][^/\\]+\.js$/.test(frame.url) && frame.functionName !== "(garbage collector)") { return; }
    const name = `${frame.functionName || "(anonymous)"} ${path.basename(frame.url)}:${frame.lineNumber + 1}`;
    times.set(name, (times.get(name) || 0) + profile.timeDeltas[i]);
  });
  return [...times].sort((a, b) => b[1] - a[1]);
}

(async () => {
  await post("Profiler.enable");
  for (const q of queries) {
    const first = await search({ q, filters: {}, limit: 20 });
    await post("Profiler.start");
    const cpu = process.cpuUsage();
    for (let i = 0; i < runs; i++) { await search({ q, filters: {}, limit: 20 }); }
    const used = process.cpuUsage(cpu);
    const { profile } = await post("Profiler.stop");
    const perRun = (used.user + used.system) / 1000 / runs;
    console.log(`\n${JSON.stringify(q)}: ${perRun.toFixed(1)} ms CPU per run (${first.total} results)`);
    for (const [name, micros] of selfTimes(profile).slice(0, top)) {
      console.log(`  ${(micros / 1000 / runs).toFixed(2).padStart(7)} ms  ${name}`);
    }
  }
  session.disconnect();
})();
