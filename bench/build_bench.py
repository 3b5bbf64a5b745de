"""How long a build takes and what it costs, for large synthetic digests; optionally beside Hugo and Pelican.

    .venv/bin/python bench/build_bench.py [--papers 1000 10000] [--rounds 3] [--compare]

The project (generator/, templates/, static/, build.py, node_modules) is first copied into a
temporary folder and checked with a small build (retried after a minute while it fails, since
others may be editing it), so every measurement builds the same code. For each size a seeded
digest is generated (bench/synthetic.py) and each round runs, as subprocesses:

- ours, four builds: cold (empty output, empty cache folder), no-op (the same content again,
  warm cache and output), one-edit (one paper's title changed) and next-edit (that title
  changed again: the first edit after a cold build stages the whole site anew, later ones
  bring the site kept before last up to date, see generator/staging.py);
- with --compare, Hugo (Debian's 0.111.x) and Pelican 4.12 (bench/.venv-pelican), cold builds of
  the same papers (bench/compare_tools.py), alternating with ours round by round.

It prints medians over the rounds: time per stage (from the build's own report), wall time, CPU
time, HTML pages per second, peak memory (max RSS of the largest single process: the build or
one of its workers, from os.wait4), files written and output bytes, the search index raw and
gzipped at level 6, then a Markdown table for the README. Every build keeps Python's bytecode
cache (.pyc), as a curator's Python does by default (see BYTECODE). Everything is written
under one temporary folder, removed at the end; the network is used only to install Hugo and
Pelican.

Run time on 2 shared cores: a cold 10,000-paper build of ours takes ~30-60 s, Pelican's ~1 min;
3 rounds of 1,000 + 10,000 papers take ~5 min, and ~9-12 min with --compare. 100,000 papers
(on request) take ~10x the 10,000-paper figures, and ~3 GB of temporary disk per system.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import compare_tools as tools  # noqa: E402
from synthetic import write_digest  # noqa: E402

PROJECT_PARTS = ("generator", "templates", "static", "build.py")
STAGE = re.compile(r"^  (\w+)\s+(.*?)\s+([\d.]+) ms$", re.M)
WRITE = re.compile(r"(\d+) written, (\d+) unchanged")
BUILT = re.compile(r"^Built (\d+) files \(([\d,]+) bytes\)", re.M)
EDITED = "paper-000000.md"
BYTECODE = "PYTHONDONTWRITEBYTECODE"
"""Left out of the builds' environment: set (as on some CI machines), Python compiles the
generator's 5,000 lines again at every run, ~0.15-0.2 s, since it writes no .pyc files."""
KINDS = ("cold", "no-op", "one-edit", "next-edit")


@dataclass
class Run:
    """One finished subprocess: wall and CPU seconds, peak RSS in MB, exit code, output."""

    seconds: float
    cpu: float
    rss_mb: float
    code: int
    output: str


def measure(cmd: list[str], cwd: Path, log: Path) -> Run:
    """Run `cmd` to completion; its rusage (children included) comes from os.wait4. Python
    keeps its bytecode cache, as it does on a curator's machine by default (see BYTECODE)."""
    env = {name: value for name, value in os.environ.items() if name != BYTECODE}
    with open(log, "w+", encoding="utf-8") as sink:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        sink.seek(0)
        output = sink.read()
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode,
               output)


def checked(run: Run, what: str) -> Run:
    """The run, or SystemExit with its output when it failed."""
    if run.code != 0:
        raise SystemExit(f"{what} failed (exit {run.code}):\n{run.output[-3000:]}")
    return run


def snapshot(dest: Path, attempts: int = 5) -> Path:
    """A frozen copy of the project that builds a small digest; retried while it does not."""
    smoke = write_digest(dest / "smoke-content", 30)
    for attempt in range(1, attempts + 1):
        shutil.rmtree(dest / "project", ignore_errors=True)
        project = dest / "project"
        project.mkdir()
        for part in PROJECT_PARTS:
            (shutil.copytree if (REPO / part).is_dir() else shutil.copy2)(REPO / part, project / part)
        (project / "node_modules").symlink_to(REPO / "node_modules")
        run = measure(our_command(project, smoke, dest / "smoke-site", None), project,
                      dest / "smoke.log")
        shutil.rmtree(dest / "smoke-site", ignore_errors=True)
        if run.code == 0:
            return project
        print(f"the project does not build right now (attempt {attempt}/{attempts}); "
              f"retrying in 60 s:\n{run.output[-800:]}", flush=True)
        time.sleep(60)
    raise SystemExit("the project did not build in 5 attempts; try again later")


def our_command(project: Path, content: Path, out: Path, cache: Path | None) -> list[str]:
    """`build.py build` of the frozen copy, with the project's interpreter."""
    where = ["--cache", str(cache)] if cache else ["--no-cache"]
    return [sys.executable, str(project / "build.py"), "build", "--content", str(content),
            "--out", str(out), *where]


def site_stats(out: Path) -> dict[str, float]:
    """Files, bytes and HTML pages of a built site folder."""
    files = [p for p in out.rglob("*") if p.is_file()]
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
            "pages": sum(p.suffix == ".html" for p in files)}


def index_sizes(out: Path) -> tuple[int, int]:
    """Raw and gzip -6 bytes of search/index.json + search/meta.json (fetched before an answer)."""
    data = [(out / "search" / name).read_bytes() for name in ("index.json", "meta.json")]
    return sum(map(len, data)), sum(len(gzip.compress(d, compresslevel=6, mtime=0)) for d in data)


def our_build(project: Path, content: Path, out: Path, cache: Path, log: Path) -> dict:
    """One build of ours with its per-stage report parsed into figures."""
    run = checked(measure(our_command(project, content, out, cache), project, log), "our build")
    figures = {f"stage:{name}": float(ms) / 1000 for name, _, ms in STAGE.findall(run.output)}
    write = WRITE.search(run.output)  # why: a build that finds nothing changed stops before it
    files, size = BUILT.search(run.output).groups()
    stats = site_stats(out)
    figures.update(seconds=run.seconds, cpu=run.cpu, rss_mb=run.rss_mb,
                   written=int(write.group(1)) if write else 0,
                   files=int(files), bytes=int(size.replace(",", "")),
                   pages_per_s=stats["pages"] / run.seconds)
    return figures


def edit_title(content: Path) -> str:
    """Change one paper's title in place; returns the original text, to put back."""
    path = content / "papers" / EDITED
    original = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^title: '(.*)'$", r"title: '\1 (revised)'", original, count=1,
                           flags=re.M), encoding="utf-8")
    return original


def our_round(project: Path, content: Path, work: Path) -> dict[str, dict]:
    """Cold, no-op, one-edit and next-edit builds in fresh output and cache folders."""
    out, cache, log = work / "ours-site", work / "ours-cache", work / "ours.log"
    results = {"cold": our_build(project, content, out, cache, log)}
    results["cold"].update(zip(("index_raw", "index_gz"), index_sizes(out)))
    results["no-op"] = our_build(project, content, out, cache, log)
    original = edit_title(content)
    try:
        results["one-edit"] = our_build(project, content, out, cache, log)
        edit_title(content)
        results["next-edit"] = our_build(project, content, out, cache, log)
    finally:
        (content / "papers" / EDITED).write_text(original, encoding="utf-8")
    shutil.rmtree(out)
    shutil.rmtree(cache)
    return results


def tool_build(name: str, command: list[str], out: Path, log: Path) -> dict:
    """One cold build by Hugo or Pelican into an empty `out`, then `out` removed."""
    run = checked(measure(command, out.parent, log), name)
    stats = site_stats(out)
    shutil.rmtree(out, ignore_errors=True)
    return {"seconds": run.seconds, "cpu": run.cpu, "rss_mb": run.rss_mb, "files": stats["files"],
            "bytes": stats["bytes"], "pages_per_s": stats["pages"] / run.seconds}


def bench_size(papers: int, rounds: int, project: Path, found: dict, tmp: Path) -> dict:
    """All rounds for one digest size: {system: [figures per round]} (ours per build kind)."""
    work = tmp / f"n{papers}"
    content = write_digest(work / "content", papers)
    sites = {}
    if "hugo" in found:
        sites["hugo"] = tools.hugo_site(content, work / "hugo")
    if "pelican" in found:
        sites["pelican"] = tools.pelican_site(content, work / "pelican")
    results: dict[str, list] = {kind: [] for kind in KINDS} | {name: [] for name in sites}
    for number in range(1, rounds + 1):
        print(f"{papers:,} papers, round {number}/{rounds}: ours", end="", flush=True)
        for kind, figures in our_round(project, content, work).items():
            results[kind].append(figures)
        for name, site in sites.items():
            print(f", {name}", end="", flush=True)
            make = tools.hugo_command if name == "hugo" else tools.pelican_command
            results[name].append(tool_build(name, make(found[name][0], site, work / f"{name}-out"),
                                            work / f"{name}-out", work / f"{name}.log"))
        latest = ", ".join(f"{key} {runs[-1]['seconds']:.1f} s" for key, runs in results.items())
        print(f" ({latest})", flush=True)
    shutil.rmtree(work)
    return results


def medians(runs: list[dict]) -> dict[str, float]:
    """The median of every figure over the rounds that have it."""
    keys = dict.fromkeys(key for run in runs for key in run)
    return {key: statistics.median(run[key] for run in runs if key in run) for key in keys}


def print_stages(papers: int, results: dict) -> None:
    """Our detailed table for one size: stages, totals, memory, output, rewritten files."""
    rows = {kind: medians(results[kind]) for kind in KINDS}
    stages = [key for key in medians(list(rows.values())) if key.startswith("stage:")]
    print(f"\n### Ours, {papers:,} papers (medians of {len(results['cold'])} rounds)\n")
    print("| build | " + " | ".join(s[6:] for s in stages) + " | total | CPU | pages/s | peak RSS "
          "| files written | output |")
    print("|---" * (len(stages) + 7) + "|")
    for kind, row in rows.items():
        print(f"| {kind} | " + " | ".join(f"{row[s]:.2f} s" if s in row else "–" for s in stages)
              + f" | {row['seconds']:.2f} s | {row['cpu']:.2f} s | {row['pages_per_s']:,.0f} "
              f"| {row['rss_mb']:,.0f} MB | {row['written']:,.0f} of {row['files']:,.0f} "
              f"| {row['bytes'] / 1e6:,.1f} MB |")
    cold = rows["cold"]
    print(f"\nsearch index (search/index.json + meta.json): {cold['index_raw']:,.0f} bytes raw, "
          f"{cold['index_gz']:,.0f} gzipped (level 6)")
    for name in (k for k in results if k not in KINDS):
        theirs = medians(results[name])
        print(f"{name}: {theirs['seconds']:.2f} s wall, {theirs['cpu']:.2f} s CPU, "
              f"{theirs['pages_per_s']:,.0f} pages/s, {theirs['rss_mb']:,.0f} MB peak RSS, "
              f"{theirs['files']:,.0f} files, {theirs['bytes'] / 1e6:,.1f} MB; our cold build "
              f"takes {ratio(results['cold'], results[name])} as long")
    print("every round, wall s: " + "; ".join(
        f"{key} " + ", ".join(f"{r['seconds']:.1f}" for r in runs) for key, runs in results.items()))


def ratio(ours: list[dict], theirs: list[dict]) -> str:
    """Our median wall time over theirs, and the same for CPU time."""
    mine, other = medians(ours), medians(theirs)
    return f"{mine['seconds'] / other['seconds']:.1f}x ({mine['cpu'] / other['cpu']:.1f}x CPU)"


def readme_table(by_size: dict[int, dict], found: dict) -> None:
    """The compact Markdown table for the README: systems by digest size."""
    sizes = list(by_size)
    timing = lambda m: f"{m['seconds']:.1f} s ({m['cpu']:.1f} s CPU)"  # noqa: E731
    cell = lambda m: f"{timing(m)}, {m['pages_per_s']:,.0f} pages/s, {m['rss_mb']:,.0f} MB"  # noqa: E731
    rows = [("paper-digest, cold build", lambda r: cell(medians(r["cold"])),
             "empty output and cache; pages, feeds, BibTeX, sitemap, search index")]
    for kind in KINDS[1:]:
        rows.append((f"paper-digest, {kind} rebuild", lambda r, k=kind: timing(medians(r[k]))
                     + f", {medians(r[k])['rss_mb']:,.0f} MB, {medians(r[k])['written']:,.0f} "
                     "files rewritten", "warm cache and output"))
    notes = {"hugo": "pages, tag pages, RSS, sitemap; no search index",
             "pelican": "simple theme; pages, tag/category/archive pages, Atom feeds"}
    for name, (_, version) in found.items():
        label = f"{name.capitalize()} {version}"
        rows.append((f"{label}, cold build", lambda r, n=name: cell(medians(r[n])), notes[name]))
        rows.append((f"ours ÷ {label}, cold", lambda r, n=name: ratio(r["cold"], r[n]),
                     "our cold build's wall (CPU) time over theirs"))
    print("\n### For the README\n")
    print("| system | " + " | ".join(f"{n:,} papers" for n in sizes) + " | note |")
    print("|---" * (len(sizes) + 2) + "|")
    for label, figure, note in rows:
        print(f"| {label} | " + " | ".join(figure(by_size[n]) for n in sizes) + f" | {note} |")
    print("\nMedians of alternating rounds on a shared, noisy 2-core machine: wall time (CPU "
          "time of the build and its workers), HTML pages per second, peak RSS of the largest "
          "process.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", action="store_true", help="also build with Hugo and Pelican")
    args = parser.parse_args()
    print(f"Machine: {os.cpu_count()} cores, shared with other work and noisy (load average "
          f"{os.getloadavg()[0]:.1f}): single builds vary up to 2x, so compare medians of "
          "alternating rounds.", flush=True)
    found = {}
    if args.compare:
        found = {name: got for name, got in (("hugo", tools.ensure_hugo()),
                                             ("pelican", tools.ensure_pelican())) if got}
    with tempfile.TemporaryDirectory(prefix="build-bench-") as tmp:
        project = snapshot(Path(tmp))
        by_size = {n: bench_size(n, args.rounds, project, found, Path(tmp)) for n in args.papers}
    for papers, results in by_size.items():
        print_stages(papers, results)
    readme_table(by_size, found)


if __name__ == "__main__":
    main()
