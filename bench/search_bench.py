"""How big the search index is and how fast it answers in Chromium, for large synthetic digests.

    .venv/bin/python bench/search_bench.py [--papers 1000 10000] [--runs 5] [--chinese-notes 0.1]

For each size: generates a digest (bench/synthetic.py, seeded), builds it, prints the bytes a
reader downloads before the first answer (packed index + facet table, raw and gzipped, per
paper; lunr's own JSON beside it), then serves the site and, in Debian's chromium, times
focus -> search ready (fetching and reading the index, making lunr's index in the Web Worker),
focusing once the page is idle (the worker has loaded its scripts) and at once on load, the
longest main-thread task meanwhile, and each query's round trip (median of --runs, and the
first run, which pays for whatever the query is the first to need). With --chinese-notes, that
share of the papers has notes in Chinese, and Chinese queries are timed too.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import statistics
import sys
import tempfile
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from generator.building.pipeline import BuildOptions, build  # noqa: E402
from generator.search.packed import unpack  # noqa: E402
from generator.serve.handlers import SiteHandler  # noqa: E402
from synthetic import write_digest  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
QUERIES = ["model", "language models", '"neural network"', "graph learning inference",
           "tag:graph-learning", "-model neural", "netw", "netwrk"]
CHINESE_QUERIES = ["知识蒸馏", "蒸馏", "多模态大模型", "LLM的知识蒸馏", "法"]
READY_JS = """async (settled) => {
  if (settled) { await DigestSearch.engine.warm(); }
  const longest = [0];
  new PerformanceObserver(list => list.getEntries().forEach(e => {
    longest[0] = Math.max(longest[0], e.duration); })).observe({type: "longtask"});
  const t0 = performance.now();
  await DigestSearch.engine.start();
  return [performance.now() - t0, longest[0]];
}"""
QUERY_JS = """async ([q, runs]) => {
  const times = [];
  let total = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const reply = await DigestSearch.engine.search(q, {}, 20);
    times.push(performance.now() - t0);
    total = reply.total;
  }
  const first = times[0];
  times.sort((a, b) => a - b);
  return [times[Math.floor(times.length / 2)], total, first];
}"""


def sizes(site: Path, papers: int) -> dict[str, float]:
    """Bytes fetched before the first answer, and lunr's unpacked JSON for comparison."""
    index = (site / "search/index.json").read_bytes()
    meta = (site / "search/meta.json").read_bytes()
    lunr_json = json.dumps(unpack(json.loads(index)), separators=(",", ":")).encode()
    gz = lambda data: len(gzip.compress(data, compresslevel=6, mtime=0))  # noqa: E731
    chunks = list((site / "search/docs").glob("*.json"))
    return {"raw": (len(index) + len(meta)) / papers, "gzip": (gz(index) + gz(meta)) / papers,
            "lunr_raw": len(lunr_json) / papers, "lunr_gzip": gz(lunr_json) / papers,
            "total_gzip_kb": (gz(index) + gz(meta)) / 1024,
            "chunk_gzip_kb": statistics.mean(gz(c.read_bytes()) for c in chunks) / 1024}


@functools.lru_cache(maxsize=1)
def _playwright():
    from playwright.sync_api import sync_playwright
    return sync_playwright().start()


def browser_figures(site: Path, runs: int, queries_asked: list[str]) -> tuple[
        dict[str, list[float]], list[float], dict[str, tuple]]:
    """Ready times (focus once the page is idle, and at once on load) and longest main-thread
    tasks over `runs` fresh pages each, and query medians."""
    handler = functools.partial(type("H", (SiteHandler,), {"base_path": "/synthetic/",
                                                           "log_message": lambda *a: None}),
                                directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    browser = _playwright().chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
    ready: dict[str, list[float]] = {"settled": [], "at once": []}
    longest, queries = [], {}
    try:
        for _ in range(runs):
            for when in ready:  # why: alternately, so that both meet the same load
                context = browser.new_context()  # why: a first visit, nothing cached
                page = context.new_page()
                page.goto(origin + "/synthetic/")
                if when == "settled":  # why: the worker and its scripts load once it is idle
                    page.wait_for_function("DigestSearch.engine.worker !== null")
                took, task = page.evaluate(READY_JS, when == "settled")
                ready[when].append(took)
                longest.append(task)
                context.close()
        page = browser.new_page()
        page.goto(origin + "/synthetic/")
        page.evaluate("DigestSearch.engine.start()")
        for query in queries_asked:
            queries[query] = tuple(page.evaluate(QUERY_JS, [query, runs]))
    finally:
        browser.close()
        server.shutdown()
    return ready, longest, queries


def bench(papers: int, runs: int, chinese: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        content = write_digest(Path(tmp) / "content", papers, chinese=chinese)
        started = time.perf_counter()
        build(BuildOptions(content=content, out=Path(tmp) / "site", project=REPO))
        built = time.perf_counter() - started
        size = sizes(Path(tmp) / "site", papers)
        ready, longest, queries = browser_figures(Path(tmp) / "site", runs,
                                                  QUERIES + (CHINESE_QUERIES if chinese else []))
    print(f"\n{papers:,} papers, {chinese:.0%} with Chinese notes (build {built:.1f} s)")
    print(f"  index + facets per paper: {size['raw']:,.0f} B raw, {size['gzip']:,.0f} B gzipped "
          f"({size['total_gzip_kb']:,.0f} KB in all); lunr's own JSON would be "
          f"{size['lunr_raw']:,.0f} B raw, {size['lunr_gzip']:,.0f} B gzipped")
    print(f"  one document chunk: {size['chunk_gzip_kb']:.1f} KB gzipped (fetched per page of results)")
    for when, label in (("settled", "once the page is idle"), ("at once", "focusing at once on load")):
        times = ready[when]
        print(f"  focus -> ready, {label}: median {statistics.median(times):,.0f} ms "
              f"(min {min(times):,.0f}, max {max(times):,.0f})")
    print(f"  longest main-thread task meanwhile: {max(longest):,.0f} ms")
    for query, (median, total, first) in queries.items():
        print(f"  query {query!r:32} {median:7.1f} ms  ({total:,} results; first run {first:,.1f} ms)")
    print(f"  median query: {statistics.median(m for m, _, _ in queries.values()):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chinese-notes", type=float, default=0.0, metavar="SHARE",
                        help="the share of papers with notes in Chinese (0 to 1)")
    args = parser.parse_args()
    for papers in args.papers:
        bench(papers, args.runs, args.chinese_notes)


if __name__ == "__main__":
    main()
