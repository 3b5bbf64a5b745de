"""What each performance device buys: the build with it and without it, alternating, in one run.

    .venv/bin/python bench/device_bench.py [--papers 1000 10000] [--rounds 2] [--device NAME]...
                                           [--no-pss]

A device is code that is there only to be fast or small. Each is listed below with the smallest
change to the generator that takes it out ("without"). The project is copied as it is
(bench/build_bench.py's snapshot), and once per device with that change made; a change that no
longer applies exactly once stops the run, so this list is kept true as the code moves. Each
round builds a seeded digest (bench/synthetic.py) cold, no-op, one-edit and next-edit with the
project as it is and with every variant, in an order reversed from round to round, and prints
"without - with": what the device buys (a negative figure costs), from the fastest round of
each (noise only slows a build) and the median peak PSS. Sampling PSS slows the builds it
samples (see build_bench.measure): --no-pss times them unsampled, and leaves the memory out.

A device that buys under 0.2 s at 10,000 papers in every kind of build, and no memory, goes
(the redesign issue's rule). The writer's outputs-as-hashes (building/files.py) and the preview
server's freeze (serve/server.py, bench/serve_bench.py) are not here: the first is how the
cache holds no second copy of the site rather than a switch, the second is not in a build.

Run time on 2 shared cores: ~2 min per round at 1,000 papers, ~8 min at 10,000 (10 devices).
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

from build_bench import KINDS, checked, our_round, smoke_build, snapshot  # noqa: E402
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
             sample: bool) -> dict:
    """Every project's figures per build kind at one digest size, round after round."""
    work = tmp / f"n{papers}"
    content = write_digest(work / "content", papers)
    figures: dict[str, dict[str, list[dict]]] = {
        name: {kind: [] for kind in KINDS} for name in projects}
    for number in range(1, rounds + 1):
        order = list(projects.items()) if number % 2 else list(projects.items())[::-1]
        print(f"{papers:,} papers, round {number}/{rounds}:", end="", flush=True)
        for name, project in order:
            print(f" [{name}]", end="", flush=True)
            for kind, result in our_round(project, content, work, "run", sample).items():
                figures[name][kind].append(result)
        print(flush=True)
    shutil.rmtree(work)
    return figures


def median(runs: list[dict], key: str) -> float | None:
    values = [run[key] for run in runs if key in run]
    return statistics.median(values) if values else None


def fastest(runs: list[dict]) -> float:
    """The fastest round's wall time: on a shared machine noise only ever slows a build."""
    return min(run["seconds"] for run in runs)


def print_table(papers: int, figures: dict) -> None:
    """Per device, what it buys in each kind of build: without - with."""
    rounds = len(figures["as it is"]["cold"])
    print(f"\n### What each device buys, {papers:,} papers (without - with: the fastest of "
          f"{rounds} alternating rounds in wall seconds, and the median peak PSS over the whole "
          "process tree where it was sampled)\n")
    print("| device | where | " + " | ".join(KINDS) + " | peak PSS, cold | peak PSS, one-edit |")
    print("|---" * (len(KINDS) + 4) + "|")
    base = figures["as it is"]
    for name, device in DEVICES.items():
        if name not in figures:
            continue
        without = figures[name]
        cells = [f"{fastest(without[k]) - fastest(base[k]):+.2f} s" for k in KINDS]
        for kind in ("cold", "one-edit"):
            a, b = median(without[kind], "pss_mb"), median(base[kind], "pss_mb")
            cells.append(f"{a - b:+.0f} MB" if a is not None and b is not None else "–")
        print(f"| {name} | {device.where} | " + " | ".join(cells) + " |")
    print("\nas it is: " + ", ".join(f"{k} {fastest(base[k]):.2f} s" for k in KINDS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--rounds", type=int, default=2)
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
