"""Where a cold build's CPU time goes, in one process: the libraries the design card fixes, the
features a plain static site generator does not have, and the rest.

    .venv/bin/python bench/cold_cpu.py [--papers 10000] [--content DIR] [--no-cache]

A seeded synthetic digest (bench/synthetic.py; or `--content`) is built cold in this process
with one worker, into a fresh output and a fresh cache (as `build.py build --cache` does, or
with none: `--no-cache`). The CPU time of each step below is summed where the build calls it
(a step called inside another counts for the outer one), and what is left is the rest: the
pages' values, each paper's parts (its BibTeX entry, CSL item and list entry), the site's
model, hashing, the cache and writing the files.

It says what bounds a cold build against Hugo's (bench/build_bench.py --compare): on two cores,
a build as fast as Hugo's can spend at most about twice Hugo's wall time in CPU, less what the
processes spend passing work between them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import write_digest  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

STEPS: list[tuple[str, str, str, str]] = [
    # (what, module, name in it, whose code)
    ("templates (Jinja)", "jinja2", "Template.render", "library fixed by the design card"),
    ("front matter (PyYAML)", "generator.content.documents", "read_mapping",
     "library fixed by the design card"),
    ("curator notes (Markdown)", "generator.content.papers", "notes_to_html",
     "library fixed by the design card"),
    # why: through the name papers.py reads it by, a lazy module (model/lazy.py) that copies
    # the module's functions when first read
    ("LaTeX in abstracts to MathML", "generator.content.papers", "latex.read_abstract",
     "feature"),
    ("search terms", "generator.building.pipeline", "paper_terms", "feature"),
    ("search index", "generator.building.pipeline", "index_of_terms", "feature"),
    ("related papers", "generator.building.pipeline", "related_papers", "feature"),
]


class Clock:
    """CPU time summed by step; a step called within another is the outer one's."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()
        self._inside = False

    def wrap(self, what: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self._inside:
                return function(*args, **kwargs)
            self._inside, began = True, time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.spent[what] += time.process_time() - began
                self.calls[what] += 1
                self._inside = False
        return timed


def where(module_name: str, name: str) -> tuple[Any, str]:
    """What holds the function `name` ('Class.method' or 'function') of a module, and its name
    there."""
    owner: Any = importlib.import_module(module_name)
    *outer, attribute = name.split(".")
    for part in outer:
        owner = getattr(owner, part)
    return owner, attribute


@contextlib.contextmanager
def instrumented(clock: Clock) -> Iterator[None]:
    """Each step of STEPS timed by `clock` where the build calls it, until the block ends."""
    undo = []
    for what, module_name, name, _ in STEPS:
        owner, attribute = where(module_name, name)
        undo.append((owner, attribute, getattr(owner, attribute)))
        setattr(owner, attribute, clock.wrap(what, undo[-1][2]))
    try:
        yield
    finally:
        for owner, attribute, function in reversed(undo):
            setattr(owner, attribute, function)


def cold_build(content: Path, work: Path, cached: bool) -> float:
    """A cold build of `content` in this process, one worker; its CPU seconds."""
    from generator.building.pipeline import BuildOptions, build
    out, cache = work / "site", work / "cache"
    for folder in (out, cache):
        shutil.rmtree(folder, ignore_errors=True)
    options = BuildOptions(content=content, out=out, project=REPO,
                           cache=cache if cached else None, workers=1)
    began = time.process_time()
    build(options, held=[])
    return time.process_time() - began


def report(clock: Clock, total: float) -> None:
    whose = {what: kind for what, _, _, kind in STEPS}
    print(f"{'step':34} {'CPU s':>7} {'share':>6}  calls   whose code")
    for what, _, _, _ in STEPS:
        spent = clock.spent[what]
        print(f"{what:34} {spent:7.2f} {spent / total:6.0%} {clock.calls[what]:6}   {whose[what]}")
    rest = total - sum(clock.spent.values())
    print(f"{'the rest':34} {rest:7.2f} {rest / total:6.0%}")
    print(f"{'whole build':34} {total:7.2f}")
    for kind in ("library fixed by the design card", "feature"):
        spent = sum(clock.spent[what] for what, _, _, of in STEPS if of == kind)
        print(f"  {kind}: {spent:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10000)
    parser.add_argument("--content", type=Path, help="a content folder to build instead")
    parser.add_argument("--no-cache", action="store_true", help="build without a cache")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cold-cpu-") as folder:
        work = Path(folder)
        content = options.content or write_digest(work / "content", options.papers)
        clock = Clock()
        with instrumented(clock):
            total = cold_build(content, work, cached=not options.no_cache)
        print(f"cold build of {content}, one process, "
              f"{'no cache' if options.no_cache else 'a fresh cache'}:")
        report(clock, total)


if __name__ == "__main__":
    main()
