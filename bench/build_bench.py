"""How long a build takes and what it costs for large synthetic digests, beside REV, Hugo, Pelican.

    .venv/bin/python bench/build_bench.py [--papers 1000 10000] [--rounds 3] [--against REV]
                                          [--compare] [--no-pss]

The project (generator/, templates/, static/, build.py, node_modules) is first copied into a
temporary folder and checked with a small build (retried after a minute while it fails, since
others may be editing it), so every measurement builds the same code. With --against REV, a
second frozen copy is made from git revision REV (`git archive`, node_modules linked) beside
it. For each size a seeded digest is generated (bench/synthetic.py) and each round runs, as
subprocesses of `build.py build --content C --out O --cache K` (flags every revision knows):

- ours, four builds: cold (empty output, empty cache folder), no-op (the same content again,
  warm cache and output), one-edit (one paper's title changed) and next-edit (that title
  changed again: the second save in a row, as a curator's next edit meets it; it costs what
  one-edit does unless a build does work once after a cold build or leaves some for the next);
- with --against, the same four builds of REV's copy in folders of its own, before ours in
  even rounds and after them in odd ones, so both meet the same load on average;
- with --compare, Hugo (Debian's 0.111.x) and Pelican 4.12 (bench/.venv-pelican), cold builds of
  the same papers (bench/compare_tools.py; Hugo paginated 50 to a page with feeds of the newest
  50, as ours), alternating with ours round by round.

It prints medians over the rounds: time per stage (from the build's own report), wall time, CPU
time, HTML pages per second, memory, files written and output bytes, the search index raw and
gzipped at level 6, then (with --against) both revisions side by side with the ratio
this tree ÷ REV, then a Markdown table for the README. Every build keeps Python's bytecode
cache (.pyc), as a curator's Python does by default (see BYTECODE). Everything is written
under one temporary folder, removed at the end; the network is used only to install Hugo and
Pelican.

Memory is given two ways. Max RSS is that of the largest single process (the build or one of
its workers, from os.wait4): its shared pages count in full, the other processes' not at all.
Peak PSS (whole tree) is what the issue's 512 MB budget is about: while a build runs, a thread
of this script reads /proc/<pid>/smaps_rollup of the build and of every descendant (found
through the parent pids in /proc/*/stat) every 20 ms, sums their `Pss:` lines (a page shared
by n processes counts 1/n in each) and keeps the largest sum. It is a sampled figure: a peak shorter
than 20 ms can be missed. Linux only (smaps_rollup: kernel 4.14 or later); elsewhere it is
reported as not measured. The sampler's own CPU time (~5-10% of one core, mostly the kernel
writing /proc files) is printed; it is this script's, not in the build's CPU time. It slows
the builds it samples by more than that: reading a process's smaps takes the lock of its
memory map, which the process needs to grow its heap (a cold 10,000-paper build took ~36 s
sampled against ~25 s). For times, run with --no-pss (no memory figures); for memory, without.

Run time on 2 shared cores: a cold 10,000-paper build of ours takes ~30-60 s, Pelican's ~1 min;
3 rounds of 1,000 + 10,000 papers take ~5 min, ~10 min with --against and ~9-12 min with
--compare. 100,000 papers (on request) take ~10x the 10,000-paper figures, and ~3 GB of
temporary disk per system.
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
import threading
import time
from dataclasses import dataclass, field
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
MEMORY_BUDGET_MB = 512
"""The issue's budget for peak PSS summed over the build's whole process tree."""
SAMPLE_EVERY = 0.02
"""Seconds between two readings of the process tree's PSS."""
PROC = Path("/proc")


class TreeSampler(threading.Thread):
    """The peak PSS of a process and all its descendants, summed, read every SAMPLE_EVERY
    seconds from /proc/<pid>/smaps_rollup until finish() (Linux only: see available())."""

    def __init__(self, pid: int) -> None:
        super().__init__(name=f"pss-{pid}", daemon=True)
        self.pid = pid
        self.peak_kb = 0
        self.samples = 0
        self.cpu = 0.0
        """This thread's own CPU seconds (reading /proc is kernel time, charged to it)."""
        self._done = threading.Event()

    @staticmethod
    def available() -> bool:
        """True where /proc gives each process's smaps_rollup (Linux 4.14 and later)."""
        return (PROC / "self" / "smaps_rollup").is_file()

    def run(self) -> None:
        started = time.thread_time()
        while True:
            self.peak_kb = max(self.peak_kb, sum(map(pss_kb, tree(self.pid))))
            self.samples += 1
            if self._done.wait(SAMPLE_EVERY):
                break
        self.cpu = time.thread_time() - started

    def finish(self) -> float:
        """Stops sampling (call while `pid` is not yet reaped); the peak in MB."""
        self._done.set()
        self.join()
        return self.peak_kb / 1024


def tree(root: int) -> list[int]:
    """`root` and its descendants, from the parent pid of every /proc/<pid>/stat (a process's
    children files are often missing: they need CONFIG_PROC_CHILDREN)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir(PROC):
        if name.isdigit() and (data := read_proc(f"/proc/{name}/stat", 1024)):
            try:  # why: the command name, in parentheses, may hold spaces and parentheses
                ppid = int(data[data.rindex(b")") + 4:].split(b" ", 1)[0])  # after ") S "
            except ValueError:
                continue
            children.setdefault(ppid, []).append(int(name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def pss_kb(pid: int) -> int:
    """The process's proportional set size in kB; 0 once it has ended (or is a zombie)."""
    data = read_proc(f"/proc/{pid}/smaps_rollup", 4096)
    at = data.find(b"\nPss:")
    return int(data[at + 5:data.index(b"kB", at)]) if at >= 0 else 0


def read_proc(path: str, size: int) -> bytes:
    """The first `size` bytes of a /proc file, or b"" if its process has ended. With os.open
    and os.read: a third cheaper than Python's file objects, read ~5,000 times a second."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return b""
    try:
        return os.read(fd, size)
    except OSError:
        return b""
    finally:
        os.close(fd)


@dataclass
class Run:
    """One finished subprocess: wall and CPU seconds, max RSS of its largest process and peak
    PSS of its whole tree in MB (None where not measured), exit code, output, and the PSS
    sampler's own CPU seconds."""

    seconds: float
    cpu: float
    rss_mb: float
    pss_mb: float | None
    code: int
    output: str
    sampler_cpu: float = 0.0


def measure(cmd: list[str], cwd: Path, log: Path, sample: bool = True) -> Run:
    """Run `cmd` to completion; its rusage (children included) comes from os.wait4, its peak
    PSS from a TreeSampler unless not `sample` (reading a process's smaps takes its memory lock:
    sampled, a cold 10,000-paper build took ~36 s against ~25 s). Python keeps its bytecode
    cache, as it does on a curator's machine by default (see BYTECODE)."""
    env = {name: value for name, value in os.environ.items() if name != BYTECODE}
    os.sync()  # why: else the disk is still writing the last build's files while this one runs
    with open(log, "w+", encoding="utf-8") as sink:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT, env=env)
        sampler = TreeSampler(proc.pid) if sample and TreeSampler.available() else None
        pss_mb = None
        if sampler is not None:
            sampler.start()
            try:
                # why: not reaped yet, so the sampler never reads another process by its pid
                os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
            finally:
                pss_mb = sampler.finish()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        sink.seek(0)
        output = sink.read()
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, pss_mb,
               proc.returncode, output, sampler.cpu if sampler else 0.0)


def checked(run: Run, what: str) -> Run:
    """The run, or SystemExit with its output when it failed."""
    if run.code != 0:
        raise SystemExit(f"{what} failed (exit {run.code}):\n{run.output[-3000:]}")
    return run


def smoke_build(project: Path, dest: Path) -> Run:
    """A build of a small digest by `project`; its output and cache removed afterwards."""
    smoke = dest / "smoke-content"
    if not smoke.exists():
        write_digest(smoke, 30)
    try:
        return measure(our_command(project, smoke, dest / "smoke-site", dest / "smoke-cache"),
                       project, dest / "smoke.log")
    finally:
        shutil.rmtree(dest / "smoke-site", ignore_errors=True)
        shutil.rmtree(dest / "smoke-cache", ignore_errors=True)


def snapshot(dest: Path, attempts: int = 5) -> Path:
    """A frozen copy of the project that builds a small digest; retried while it does not."""
    for attempt in range(1, attempts + 1):
        shutil.rmtree(dest / "project", ignore_errors=True)
        project = dest / "project"
        project.mkdir()
        for part in PROJECT_PARTS:
            (shutil.copytree if (REPO / part).is_dir() else shutil.copy2)(REPO / part, project / part)
        (project / "node_modules").symlink_to(REPO / "node_modules")
        run = smoke_build(project, dest)
        if run.code == 0:
            return project
        print(f"the project does not build right now (attempt {attempt}/{attempts}); "
              f"retrying in 60 s:\n{run.output[-800:]}", flush=True)
        time.sleep(60)
    raise SystemExit("the project did not build in 5 attempts; try again later")


def revision_snapshot(rev: str, dest: Path) -> tuple[Path, str]:
    """A copy of the project as it was at git revision `rev` (and its short commit name)."""
    resolved = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", f"{rev}^{{commit}}"],
                              capture_output=True, text=True)
    if resolved.returncode != 0:
        raise SystemExit(f"--against {rev}: not a commit of {REPO}: {resolved.stderr.strip()}")
    name = resolved.stdout.strip()
    project = dest / f"project-{name}"
    project.mkdir()
    archive = subprocess.Popen(["git", "-C", str(REPO), "archive", name, *PROJECT_PARTS],
                               stdout=subprocess.PIPE)
    untar = subprocess.run(["tar", "-x", "-C", str(project)], stdin=archive.stdout)
    archive.stdout.close()
    if archive.wait() != 0 or untar.returncode != 0:
        raise SystemExit(f"--against {rev}: git archive | tar failed")
    (project / "node_modules").symlink_to(REPO / "node_modules")
    checked(smoke_build(project, dest), f"a small build of {name}")
    return project, name


def our_command(project: Path, content: Path, out: Path, cache: Path) -> list[str]:
    """`build.py build` of a frozen copy, with the project's interpreter; only flags that
    every revision understands."""
    return [sys.executable, str(project / "build.py"), "build", "--content", str(content),
            "--out", str(out), "--cache", str(cache)]


def site_stats(out: Path) -> dict[str, float]:
    """Files, bytes and HTML pages of a built site folder."""
    files = [p for p in out.rglob("*") if p.is_file()]
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
            "pages": sum(p.suffix == ".html" for p in files)}


def index_sizes(out: Path) -> tuple[int, int]:
    """Raw and gzip -6 bytes of search/index.json + search/meta.json (fetched before an answer)."""
    data = [(out / "search" / name).read_bytes() for name in ("index.json", "meta.json")]
    return sum(map(len, data)), sum(len(gzip.compress(d, compresslevel=6, mtime=0)) for d in data)


def memory(run: Run) -> dict[str, float]:
    """The run's memory figures (peak PSS only where it was measured)."""
    figures = {"rss_mb": run.rss_mb, "sampler_cpu": run.sampler_cpu}
    if run.pss_mb is not None:
        figures["pss_mb"] = run.pss_mb
    return figures


def our_build(project: Path, content: Path, out: Path, cache: Path, log: Path,
              sample: bool = True) -> dict:
    """One build with its per-stage report parsed into figures (memory if `sample`)."""
    run = checked(measure(our_command(project, content, out, cache), project, log, sample),
                  f"the build of {project.name}")
    figures = {f"stage:{name}": float(ms) / 1000 for name, _, ms in STAGE.findall(run.output)}
    write = WRITE.search(run.output)  # why: an older revision's no-op build may stop before it
    files, size = BUILT.search(run.output).groups()
    stats = site_stats(out)
    figures.update(seconds=run.seconds, cpu=run.cpu, **memory(run),
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


def our_round(project: Path, content: Path, work: Path, name: str,
              sample: bool = True) -> dict[str, dict]:
    """Cold, no-op, one-edit and next-edit builds by `project` in fresh output and cache
    folders named after `name` (memory sampled if `sample`); the content is as it was
    afterwards."""
    out, cache, log = work / f"{name}-site", work / f"{name}-cache", work / f"{name}.log"
    results = {"cold": our_build(project, content, out, cache, log, sample)}
    results["cold"].update(zip(("index_raw", "index_gz"), index_sizes(out)))
    results["no-op"] = our_build(project, content, out, cache, log, sample)
    original = edit_title(content)
    try:
        results["one-edit"] = our_build(project, content, out, cache, log, sample)
        edit_title(content)
        results["next-edit"] = our_build(project, content, out, cache, log, sample)
    finally:
        (content / "papers" / EDITED).write_text(original, encoding="utf-8")
    shutil.rmtree(out)
    shutil.rmtree(cache, ignore_errors=True)  # why: a build without a cache makes none
    for left in out.parent.glob(f".{out.name}.*"):  # why: the spare site would make the
        shutil.rmtree(left)                         # next round's cold build a warm one
    return results


def tool_build(name: str, command: list[str], out: Path, log: Path, sample: bool = True) -> dict:
    """One cold build by Hugo or Pelican into an empty `out`, then `out` removed."""
    run = checked(measure(command, out.parent, log, sample), name)
    stats = site_stats(out)
    shutil.rmtree(out, ignore_errors=True)
    return {"seconds": run.seconds, "cpu": run.cpu, **memory(run), "files": stats["files"],
            "bytes": stats["bytes"], "pages_per_s": stats["pages"] / run.seconds}


@dataclass
class Projects:
    """The frozen copies measured: this tree's, and REV's with its name when --against."""

    ours: Path
    against: Path | None = None
    against_name: str = ""


@dataclass
class SizeResults:
    """Every round's figures for one digest size."""

    papers: int
    ours: dict[str, list[dict]] = field(default_factory=lambda: {kind: [] for kind in KINDS})
    against: dict[str, list[dict]] = field(default_factory=lambda: {kind: [] for kind in KINDS})
    tools: dict[str, list[dict]] = field(default_factory=dict)

    def all_runs(self) -> list[dict]:
        return [run for group in (self.ours, self.against, self.tools)
                for runs in group.values() for run in runs]


def bench_size(papers: int, rounds: int, projects: Projects, found: dict,
               tmp: Path, sample: bool = True) -> SizeResults:
    """All rounds for one digest size (memory sampled if `sample`)."""
    work = tmp / f"n{papers}"
    content = write_digest(work / "content", papers)
    sites = {}
    if "hugo" in found:
        sites["hugo"] = tools.hugo_site(content, work / "hugo", found["hugo"][1])
    if "pelican" in found:
        sites["pelican"] = tools.pelican_site(content, work / "pelican")
    results = SizeResults(papers, tools={name: [] for name in sites})
    builders = [("ours", projects.ours, results.ours)]
    if projects.against:
        builders.append((projects.against_name, projects.against, results.against))
    for number in range(1, rounds + 1):
        print(f"{papers:,} papers, round {number}/{rounds}:", end="", flush=True)
        order = builders if number % 2 else builders[::-1]  # why: neither always goes first
        for name, project, into in order:
            print(f" {name}", end="", flush=True)
            for kind, figures in our_round(project, content, work, name, sample).items():
                into[kind].append(figures)
        for name, site in sites.items():
            print(f", {name}", end="", flush=True)
            make = tools.hugo_command if name == "hugo" else tools.pelican_command
            results.tools[name].append(tool_build(name, make(found[name][0], site,
                                                             work / f"{name}-out"),
                                                  work / f"{name}-out", work / f"{name}.log",
                                                  sample))
        latest = [f"{name} cold {into['cold'][-1]['seconds']:.1f} s" for name, _, into in builders]
        latest += [f"{name} {runs[-1]['seconds']:.1f} s" for name, runs in results.tools.items()]
        print(f" ({', '.join(latest)})", flush=True)
    shutil.rmtree(work)
    return results


def medians(runs: list[dict]) -> dict[str, float]:
    """The median of every figure over the rounds that have it."""
    keys = dict.fromkeys(key for run in runs for key in run)
    return {key: statistics.median(run[key] for run in runs if key in run) for key in keys}


def mb(row: dict, key: str) -> str:
    """A memory figure in MB, or a dash where it was not measured."""
    return f"{row[key]:,.0f}" if key in row else "–"


def print_stages(title: str, kinds: dict[str, list[dict]]) -> None:
    """The detailed table of one revision at one size: stages, totals, memory, output."""
    rows = {kind: medians(runs) for kind, runs in kinds.items()}
    stages = [key for key in medians(list(rows.values())) if key.startswith("stage:")]
    print(f"\n### {title} (medians of {len(kinds['cold'])} rounds)\n")
    print("| build | " + " | ".join(s[6:] for s in stages) + " | total | CPU | pages/s "
          "| max RSS (MB, largest process) | peak PSS (MB, whole tree) | files written "
          "| output |")
    print("|---" * (len(stages) + 8) + "|")
    for kind, row in rows.items():
        print(f"| {kind} | " + " | ".join(f"{row[s]:.2f} s" if s in row else "–" for s in stages)
              + f" | {row['seconds']:.2f} s | {row['cpu']:.2f} s | {row['pages_per_s']:,.0f} "
              f"| {mb(row, 'rss_mb')} | {mb(row, 'pss_mb')} "
              f"| {row['written']:,.0f} of {row['files']:,.0f} | {row['bytes'] / 1e6:,.1f} MB |")
    cold = rows["cold"]
    print(f"\nsearch index (search/index.json + meta.json): {cold['index_raw']:,.0f} bytes raw, "
          f"{cold['index_gz']:,.0f} gzipped (level 6)")
    peaks = [run["pss_mb"] for runs in kinds.values() for run in runs if "pss_mb" in run]
    if peaks:
        worst = max(peaks)
        print(f"largest peak PSS of any build (whole tree): {worst:,.0f} MB, "
              f"{'within' if worst <= MEMORY_BUDGET_MB else 'OVER'} the {MEMORY_BUDGET_MB} MB "
              "budget")


def print_size(results: SizeResults, projects: Projects) -> None:
    """Every table for one size: ours, REV's, both side by side, and the other tools."""
    papers = f"{results.papers:,} papers"
    print_stages(f"Ours, {papers}", results.ours)
    if projects.against:
        print_stages(f"{projects.against_name}, {papers}", results.against)
        print_against(results, projects.against_name)
    for name, runs in results.tools.items():
        theirs = medians(runs)
        print(f"{name}: {theirs['seconds']:.2f} s wall, {theirs['cpu']:.2f} s CPU, "
              f"{theirs['pages_per_s']:,.0f} pages/s, {mb(theirs, 'rss_mb')} MB max RSS, "
              f"{mb(theirs, 'pss_mb')} MB peak PSS, {theirs['files']:,.0f} files, "
              f"{theirs['bytes'] / 1e6:,.1f} MB; our cold build takes "
              f"{ratio(results.ours['cold'], runs)} as long")
    every = [(f"ours {kind}", runs) for kind, runs in results.ours.items()]
    if projects.against:
        every += [(f"{projects.against_name} {kind}", runs)
                  for kind, runs in results.against.items()]
    every += list(results.tools.items())
    print("every round, wall s: " + "; ".join(
        f"{key} " + ", ".join(f"{r['seconds']:.1f}" for r in runs) for key, runs in every))
    sampled = [run["sampler_cpu"] / run["seconds"] for run in results.all_runs()
               if run.get("sampler_cpu")]
    if sampled:
        print(f"the PSS sampler's own CPU: median {100 * statistics.median(sampled):.1f}% of "
              f"one core while a build ran (at most {100 * max(sampled):.1f}%)")
    elif not TreeSampler.available():
        print("peak PSS not measured: it needs Linux's /proc/<pid>/smaps_rollup (kernel 4.14 "
              "or later); max RSS is of the largest single process only")


def print_against(results: SizeResults, name: str) -> None:
    """This tree and REV side by side per build kind, with this tree ÷ REV."""
    print(f"\n### This tree and {name}, {results.papers:,} papers (medians of "
          f"{len(results.ours['cold'])} alternating rounds; ratio = this tree ÷ {name})\n")
    print(f"| build | wall, this tree | wall, {name} | wall ratio | CPU, this tree | CPU, {name} "
          f"| CPU ratio | peak PSS, this tree | peak PSS, {name} | PSS ratio | max RSS, this "
          f"tree | max RSS, {name} | files written, this tree | files written, {name} |")
    print("|---" * 14 + "|")
    for kind in KINDS:
        mine, theirs = medians(results.ours[kind]), medians(results.against[kind])
        part = lambda key: (f"{mine[key] / theirs[key]:.2f}x"  # noqa: E731
                            if key in mine and key in theirs and theirs[key] else "–")
        print(f"| {kind} | {mine['seconds']:.2f} s | {theirs['seconds']:.2f} s | {part('seconds')} "
              f"| {mine['cpu']:.2f} s | {theirs['cpu']:.2f} s | {part('cpu')} "
              f"| {mb(mine, 'pss_mb')} MB | {mb(theirs, 'pss_mb')} MB | {part('pss_mb')} "
              f"| {mb(mine, 'rss_mb')} MB | {mb(theirs, 'rss_mb')} MB "
              f"| {mine['written']:,.0f} | {theirs['written']:,.0f} |")


def ratio(ours: list[dict], theirs: list[dict]) -> str:
    """Our median wall time over theirs, and the same for CPU time."""
    mine, other = medians(ours), medians(theirs)
    return f"{mine['seconds'] / other['seconds']:.1f}x ({mine['cpu'] / other['cpu']:.1f}x CPU)"


def readme_table(by_size: list[SizeResults], found: dict, projects: Projects) -> None:
    """The compact Markdown table for the README: systems by digest size."""
    timing = lambda m: f"{m['seconds']:.1f} s ({m['cpu']:.1f} s CPU)"  # noqa: E731
    memory_cell = lambda m: f"{mb(m, 'pss_mb')} MB PSS ({mb(m, 'rss_mb')} MB RSS)"  # noqa: E731
    cell = lambda m: f"{timing(m)}, {m['pages_per_s']:,.0f} pages/s, {memory_cell(m)}"  # noqa: E731
    rows = [("paper-digest, cold build", lambda r: cell(medians(r.ours["cold"])),
             "empty output and cache; pages, feeds, BibTeX, sitemap, search index")]
    for kind in KINDS[1:]:
        rows.append((f"paper-digest, {kind} rebuild", lambda r, k=kind: timing(medians(r.ours[k]))
                     + f", {memory_cell(medians(r.ours[k]))}, "
                     f"{medians(r.ours[k])['written']:,.0f} files rewritten",
                     "warm cache and output"))
    if projects.against:
        rev = projects.against_name
        for kind in KINDS:
            rows.append((f"this tree ÷ {rev}, {kind}",
                         lambda r, k=kind: ratio(r.ours[k], r.against[k]),
                         "wall (CPU) time of this tree's build over the older revision's"))
    notes = {"hugo": "pages and tag pages 50 to a page, RSS of the newest 50, sitemap; "
                     "no search index",
             "pelican": "simple theme; pages, tag/category/archive pages, Atom feeds"}
    for name, (_, version) in found.items():
        label = f"{name.capitalize()} {version}"
        rows.append((f"{label}, cold build", lambda r, n=name: cell(medians(r.tools[n])),
                     notes[name]))
        rows.append((f"ours ÷ {label}, cold", lambda r, n=name: ratio(r.ours["cold"], r.tools[n]),
                     "our cold build's wall (CPU) time over theirs"))
    print("\n### For the README\n")
    print("| system | " + " | ".join(f"{r.papers:,} papers" for r in by_size) + " | note |")
    print("|---" * (len(by_size) + 2) + "|")
    for label, figure, note in rows:
        print(f"| {label} | " + " | ".join(figure(r) for r in by_size) + f" | {note} |")
    print("\nMedians of alternating rounds on a shared, noisy 2-core machine: wall time (CPU "
          "time of the build and its workers), HTML pages per second, peak PSS summed over the "
          "build's whole process tree (sampled every 20 ms) and max RSS of its largest process.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", metavar="REV",
                        help="also build with the project as it was at git revision REV, "
                             "alternating with this tree, and print this tree ÷ REV")
    parser.add_argument("--compare", action="store_true", help="also build with Hugo and Pelican")
    parser.add_argument("--no-pss", dest="sample", action="store_false",
                        help="time the builds without sampling their memory, which slows them")
    args = parser.parse_args()
    print(f"Machine: {os.cpu_count()} cores, shared with other work and noisy (load average "
          f"{os.getloadavg()[0]:.1f}): single builds vary up to 2x, so compare medians of "
          "alternating rounds.", flush=True)
    if not TreeSampler.available():
        print("peak PSS will not be measured: no /proc/<pid>/smaps_rollup here (Linux 4.14+ "
              "only); max RSS of the largest single process is all there is", flush=True)
    found = {}
    if args.compare:
        found = {name: got for name, got in (("hugo", tools.ensure_hugo()),
                                             ("pelican", tools.ensure_pelican())) if got}
    with tempfile.TemporaryDirectory(prefix="build-bench-") as tmp:
        projects = Projects(snapshot(Path(tmp)))
        if args.against:
            projects.against, projects.against_name = revision_snapshot(args.against, Path(tmp))
        by_size = [bench_size(n, args.rounds, projects, found, Path(tmp), args.sample)
                   for n in args.papers]
    for results in by_size:
        print_size(results, projects)
    readme_table(by_size, found, projects)


if __name__ == "__main__":
    main()
