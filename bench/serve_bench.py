"""How fast the preview server feels: time from saving a paper to the reload event, in seconds.

    .venv/bin/python bench/serve_bench.py [--papers 1000] [--edits 9]

Runs `build.py serve` (generator/serve/server.py, from a copy of the project: see
tests/serveprocess.py) on a copy of content/ (the ICLR digest) and on a synthetic digest of
`--papers` papers (bench/synthetic.py, seeded, so every run builds the same site), each in a
temporary folder. For each it saves an edited paper `--edits` times and times save -> reload
event on the server's event stream; it prints the median, the fastest and the slowest time
to the first reload event, which reloads the tabs showing the saved paper (its quick page,
the lists that show its row and the pages of the papers that link to it: see
generator/building/quickpages.py), and to the full build's, once its site is in place, which
reloads the tabs that show or have read a file it changed, but the quick pages it made alike
(generator/serve/livereload.py), and how many pages and other files it names; how long the
server's rebuild took (its `Rebuilt in` line: the quick page and one full build, with the
cache and the process aside the server keeps); and the server's idle CPU use. The
repository's content/ is only read.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from synthetic import write_digest  # noqa: E402


def iclr_content(folder: Path) -> Path:
    """A copy of the repository's content/ (the ICLR digest)."""
    return Path(shutil.copytree(REPO / "content", folder))


def moved_title(text: str, number: int) -> str:
    """The paper's title begun with 'Edited N: ': it sorts elsewhere among the papers of its
    day, so its lists wait for the full build."""
    return re.sub(r"(?m)^title: '?(.*?)'?$", rf"title: 'Edited {number}: \1'", text, count=1)


def in_place_title(text: str, number: int) -> str:
    """The paper's title ended with ', revised N': it stays where it is in every list, so the
    lists that show it are quick pages too."""
    return re.sub(r"(?m)^title: '?(.*?)'?$", rf"title: '\1, revised {number}'", text, count=1)


def measure(name: str, make_content, edits: int,  # noqa: ANN001
            edit: Callable[[str, int], str]) -> None:
    """Start the server on fresh content, save `edits` papers, print save -> reload figures."""
    from serveprocess import ServerProcess

    with tempfile.TemporaryDirectory(prefix="serve-bench-") as tmp:
        root = Path(tmp)
        papers = sorted(p for p in (make_content(root / "content") / "papers").glob("*.md"))
        # why: a large digest's first build takes longer than the tests' timeout
        with ServerProcess("--content", "content", "--out", "_site", cwd=root,
                           first_build_timeout=600) as server:
            cold = float(server.wait_for_output(r"^Built \d+ files in ([\d.]+) s").group(1))
            _wait_until_idle(server.process.pid)  # why: as a curator's first save comes
            timings = _edit_and_time(server, papers, edits, edit)
            time.sleep(SETTLE)
            idle = _idle_cpu(server.process.pid, seconds=3.0)
    paper_tab = [t.paper_tab for t in timings]
    every_tab = [t.every_tab for t in timings]
    print(f"{name}: {len(papers)} papers, first build {cold:.2f} s")
    print(f"  save -> the paper's tab reloads: median {statistics.median(paper_tab):.3f} s "
          f"(fastest {min(paper_tab):.3f}, slowest {max(paper_tab):.3f}, {edits} saves, "
          f"{sum(t.quick for t in timings)} of them shown as quick pages first, with "
          f"{min(t.lists for t in timings)}-{max(t.lists for t in timings)} pages of lists and "
          f"{min(t.linking for t in timings)}-{max(t.linking for t in timings)} other papers' "
          "pages)")
    pages = _span(t.named and t.named[0] for t in timings)
    files = _span(t.named and t.named[1] for t in timings)
    print(f"  save -> the full build reloads the tabs showing a page it changed: median "
          f"{statistics.median(every_tab):.3f} s (fastest {min(every_tab):.3f}, slowest "
          f"{max(every_tab):.3f}); the first save: {every_tab[0]:.3f} s; it named {pages} pages "
          f"and {files} other files (a tab that shows none and has read none does not reload; "
          "'all': every tab)")
    print(f"  the server's rebuild (the quick page, then the full build): median "
          f"{statistics.median(t.rebuild for t in timings):.3f} s; the tabs are told once its "
          "site is in place, before the build has looked at the files placed and remembered "
          "what it made, so it may end after they reload")
    print(f"  idle CPU while watching: {idle:.1f} % of one core")


def _edit_and_time(server, papers: list[Path], edits: int,  # noqa: ANN001
                   edit: Callable[[str, int], str]) -> list[Timing]:
    """How long each of `edits` saves took to reach the tab that shows the paper, and every
    tab. The server prints `Rebuilt in X s` once the full build it published has ended."""
    timings = []
    with server.events() as events:
        seen = events.next()
        for number in range(edits):
            paper = papers[(number * 7) % len(papers)]
            text = paper.read_text(encoding="utf-8")
            edited = edit(text, number)
            printed = len(server.stdout)
            started = time.perf_counter()
            paper.write_text(edited, encoding="utf-8")
            seen = events.wait_for(lambda e: e["version"] != seen["version"], timeout=300)
            first = time.perf_counter() - started
            shown = seen.get("only", ())
            quick = any(path.endswith(f"/papers/{paper.stem}/") for path in shown)
            if quick:  # why: the paper's page came first; the full build follows
                seen = events.wait_for(lambda e: e["version"] != seen["version"], timeout=300)
            total = time.perf_counter() - started
            named = seen.get("only")
            build = server.wait_for_output(r"^Rebuilt in ([\d.]+) s", after=printed)
            papers_shown = sum("/papers/" in path for path in shown) if quick else 0
            timings.append(Timing(first, total, float(build.group(1)), quick,
                                  len(shown) - papers_shown if quick else 0,
                                  max(0, papers_shown - 1), _pages_and_files(named)))
    return timings


@dataclass(frozen=True)
class Timing:
    """One save, in seconds from the save."""

    paper_tab: float
    """Until the tab showing the saved paper was told to reload."""
    every_tab: float
    """Until the full build was published and every tab told to reload."""
    rebuild: float
    """The server's rebuild: its quick page and full build (`Rebuilt in`), which ends after it
    has told the tabs."""
    quick: bool
    """Whether the paper's page was shown before the full build (building/quickpages.py)."""
    lists: int
    """Pages of lists that show the paper shown with it (none when it changed lists)."""
    linking: int
    """Pages of other papers that link to it shown with it (quickpages.papers_showing)."""
    named: tuple[int, int] | None
    """Pages and other files the full build named as changed for the tabs (None: all)."""


def _pages_and_files(named: list[str] | None) -> tuple[int, int] | None:
    if named is None:
        return None
    pages = sum(path.endswith(("/", ".html")) for path in named)
    return pages, len(named) - pages


def _span(counts) -> str:  # noqa: ANN001
    """'3', '2-5', or 'all' if any of the counts is None (every file)."""
    found = list(counts)
    if any(count is None for count in found):
        return "all"
    return f"{min(found)}" if min(found) == max(found) else f"{min(found)}-{max(found)}"


SETTLE = 3.0
"""Seconds waited after the last save before idle CPU is measured, so that the tail of the
last rebuild (the watcher's scans after it, the reload requests) does not count as idle."""


def _wait_until_idle(pid: int, limit: float = 120.0) -> None:
    """Until the server has settled after its first build, as when a curator's first save
    comes: it uses under a quarter of a core over half a second (a watcher scan takes ~40 ms
    at 10,000 papers). It prepares nothing between builds, so this is usually at once."""
    time.sleep(1.0)  # why: the server has started serving and its watcher scanning
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and _idle_cpu(pid, seconds=0.5) > 25.0:
        pass


def _idle_cpu(pid: int, seconds: float) -> float:
    """Percent of one core the server used over `seconds` with nothing changing (Linux only)."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        return float("nan")

    def ticks() -> int:
        fields = stat.read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime

    before = ticks()
    time.sleep(seconds)
    return 100 * (ticks() - before) / os.sysconf("SC_CLK_TCK") / seconds


def main() -> None:
    """Measure the ICLR digest and a synthetic one; print both."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, default=1000, help="papers in the synthetic digest")
    parser.add_argument("--edits", type=int, default=9, help="saves timed per digest")
    parser.add_argument("--in-place", action="store_true",
                        help="end each title with ', revised N' (the paper stays where it is in "
                             "every list) rather than begin it with 'Edited N: ' (it moves)")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "tests"))  # why: the server harness is shared with the tests
    edit = in_place_title if args.in_place else moved_title
    measure("ICLR digest", iclr_content, args.edits, edit)
    measure("Synthetic digest", lambda folder: write_digest(folder, args.papers), args.edits,
            edit)


if __name__ == "__main__":
    main()
