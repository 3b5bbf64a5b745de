"""What each performance device buys: the build with it and without it, alternating, in one run.

    .venv/bin/python bench/device_bench.py [--papers 1000 10000] [--rounds 5] [--device NAME]...
                                           [--no-pss]

A device is code that is there only to be fast or small. Each is listed below with the smallest
change to the generator that takes it out ("without"). The project is copied as it is
(bench/build_bench.py's snapshot), and once per device with that change made; a change that no
longer applies exactly once stops the run, so this list is kept true as the code moves.

For each size a seeded digest is generated (bench/synthetic.py), and every copy builds it cold
into an output and cache folder of its own. Then each round edits one paper's title and every
copy builds (one-edit), edits it again and every copy builds (next-edit), and every copy builds
once more (no-op); the copies take turns in an order reversed from round to round, so each
build of a copy meets the same content as the others' and about the same load. Per device it
prints "without - with" for each round, and their median: what the device buys (a negative
figure costs), in wall and CPU seconds. On a shared machine a build's time varies by a second
from one run to the next, with the disk's writing and the host's other work; a difference
taken within one round and the median over rounds leave most of that out, where the fastest
of two runs of each did not. The cold build is one of each copy, so only a large difference
there means much. The peak PSS (the median over the rounds) is sampled unless --no-pss:
sampling slows the builds it samples (see build_bench.measure).

A device that buys under 0.2 s at 10,000 papers in every kind of build, and no memory, goes
(the redesign issue's rule). The writer's outputs-as-hashes (building/files.py) and the preview
server's freeze (serve/server.py, bench/serve_bench.py) are not here: the first is how the
cache holds no second copy of the site rather than a switch, the second is not in a build.

Run time on 2 shared cores, 10 devices: ~2 min for the cold builds and ~2 min a round at 1,000
papers; ~10 min and ~5 min a round at 10,000 (the whole of --rounds 4 at both sizes: ~45 min).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from build_bench import EDITED, KINDS, checked, edit_title, our_build, smoke_build, snapshot  # noqa: E402
from synthetic import write_digest  # noqa: E402


@dataclass(frozen=True)
class Device:
    """A performance device: where it is, and the edits (file, text, replacement) that take
    it out."""

    where: str
    without: tuple[tuple[str, str, str], ...]


DEVICES = {
    "cache": Device("building/cache.py: results kept between builds", (
        ("generator/building/pipeline.py", "cache or Cache(options.cache,",
         "cache or Cache(None,"),)),
    "no-op check": Device("building/pipeline.py: the last build's inputs and output state", (
        ("generator/building/pipeline.py", "if last.inputs == inputs and site_holds(",
         "if False and site_holds("),)),
    "collector paused": Device("building/pipeline.py: Python's cycle collector off in a build", (
        ("generator/building/pipeline.py", "@_collections_paused()\ndef build(", "def build("),)),
    "reads in key order": Device("building/cache.py: kept results looked up sorted by key", (
        ("generator/building/cache.py", "keys = sorted(keys)", "keys = list(keys)"),)),
    "live site trusted": Device("building/files.py: the live site as the last build left it "
                                "(its stat) is not read to keep its files", (
        ("generator/building/files.py", "as_left = bool(before) and live.as_left",
         "as_left = False"),)),
    "long strings by id": Device("building/cache.py: a card's hash made once per build", (
        ("generator/building/cache.py", "_LONG = 256", "_LONG = 1 << 62"),)),
    "parts cached": Device("building/pipeline.py: each paper's card, BibTeX, CSL and list "
                           "entry kept as one result", (
        ("generator/building/pipeline.py",
         "parts = cache.map(paper_parts, parts_inputs(site), shared=theme.templates,\n"
         "                          workers=workers)",
         "parts = [paper_parts(theme.templates, *args) for args in parts_inputs(site)]"),)),
    "terms cached": Device("building/pipeline.py: each paper's search terms kept", (
        ("generator/building/pipeline.py",
         "terms = cache.map(paper_terms, [(paper,) for paper in site.papers], workers=workers)",
         "terms = [paper_terms(paper) for paper in site.papers]"),)),
    "spare site": Device("building/writer.py: the retired site staged in by the next build", (
        ("generator/building/writer.py", "if spare.is_dir() and not spare.is_symlink():",
         "if False:"),
        ("generator/building/writer.py", "        folder.rename(spare_folder(out))\n",
         "        shutil.rmtree(folder)\n"))),
    "workers": Device("building/workers.py: one process per core", (
        ("generator/cli.py", "default=os.cpu_count() or 1", "default=1"),)),
}


def variant(base: Path, name: str, device: Device, dest: Path) -> Path:
    """A copy of the project at `base` without `device`; SystemExit if its edits do not apply."""
    project = dest / f"without-{name.replace(' ', '-')}"
    shutil.copytree(base, project, symlinks=True)
    for file, text, replacement in device.without:
        source = (project / file).read_text(encoding="utf-8")
        if source.count(text) != 1:
            raise SystemExit(f"device '{name}': {file} no longer holds {text!r} exactly once; "
                             "update DEVICES in bench/device_bench.py")
        (project / file).write_text(source.replace(text, replacement), encoding="utf-8")
    checked(smoke_build(project, dest), f"a small build without '{name}'")
    return project


def run_size(papers: int, rounds: int, projects: dict[str, Path], tmp: Path,
             sample: bool) -> dict[str, dict[str, list[dict]]]:
    """Every project's figures per build kind at one digest size: a cold build each, then
    `rounds` rounds of one-edit, next-edit and no-op builds, all on the same content."""
    work = tmp / f"n{papers}"
    content = write_digest(work / "content", papers)
    figures: dict[str, dict[str, list[dict]]] = {
        name: {kind: [] for kind in KINDS} for name in projects}

    def build_each(kind: str, order: list[str]) -> None:
        for name in order:
            print(f" {kind}[{name}]", end="", flush=True)
            figures[name][kind].append(our_build(
                projects[name], content, work / f"{name}-site", work / f"{name}-cache",
                work / "build.log", sample))

    print(f"{papers:,} papers, cold:", end="", flush=True)
    build_each("cold", list(projects))
    print(flush=True)
    original = (content / "papers" / EDITED).read_text(encoding="utf-8")
    try:
        for number in range(1, rounds + 1):
            order = list(projects) if number % 2 else list(projects)[::-1]
            print(f"{papers:,} papers, round {number}/{rounds}:", end="", flush=True)
            edit_title(content)
            build_each("one-edit", order)
            edit_title(content)
            build_each("next-edit", order)
            build_each("no-op", order)
            # why: the next round's edit is then a change of one title from what was built
            (content / "papers" / EDITED).write_text(original, encoding="utf-8")
            print(flush=True)
    finally:
        (content / "papers" / EDITED).write_text(original, encoding="utf-8")
    shutil.rmtree(work)
    return figures


def median(runs: list[dict], key: str) -> float | None:
    values = [run[key] for run in runs if run.get(key) is not None]
    return statistics.median(values) if values else None


def bought(without: list[dict], base: list[dict], key: str) -> float:
    """The median over rounds of without - with, each round's builds paired."""
    return statistics.median(a[key] - b[key] for a, b in zip(without, base))


def print_table(papers: int, figures: dict) -> None:
    """Per device, what it buys in each kind of build: without - with."""
    rounds = len(figures["as it is"]["no-op"])
    print(f"\n### What each device buys, {papers:,} papers (without - with, in wall / CPU "
          f"seconds: the median of {rounds} rounds' paired differences, one cold build each; "
          "and the median peak PSS over the whole process tree where it was sampled)\n")
    print("| device | where | " + " | ".join(KINDS) + " | peak PSS, cold | peak PSS, one-edit |")
    print("|---" * (len(KINDS) + 4) + "|")
    base = figures["as it is"]
    for name, device in DEVICES.items():
        if name not in figures:
            continue
        without = figures[name]
        cells = [f"{bought(without[k], base[k], 'seconds'):+.2f} / "
                 f"{bought(without[k], base[k], 'cpu'):+.2f}" for k in KINDS]
        for kind in ("cold", "one-edit"):
            a, b = median(without[kind], "pss_mb"), median(base[kind], "pss_mb")
            cells.append(f"{a - b:+.0f} MB" if a is not None and b is not None else "–")
        print(f"| {name} | {device.where} | " + " | ".join(cells) + " |")
    print("\nas it is (median wall seconds): " + ", ".join(
        f"{k} {median(base[k], 'seconds'):.2f} s" for k in KINDS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--device", action="append", choices=sorted(DEVICES),
                        help="measure only these (default: all)")
    parser.add_argument("--no-pss", dest="sample", action="store_false",
                        help="time the builds without sampling their memory, which slows them")
    args = parser.parse_args()
    chosen = args.device or list(DEVICES)
    with tempfile.TemporaryDirectory(prefix="device-bench-") as folder:
        tmp = Path(folder)
        base = snapshot(tmp)
        projects = {"as it is": base}
        projects.update((name, variant(base, name, DEVICES[name], tmp)) for name in chosen)
        for papers in args.papers:
            print_table(papers, run_size(papers, args.rounds, projects, tmp, args.sample))


if __name__ == "__main__":
    main()
