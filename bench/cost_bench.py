"""What a paper, an author and a tag cost a site, and what one change rewrites: the cost model.

    .venv/bin/python bench/cost_bench.py [--papers 1000 10000 40000]

For each size, a seeded synthetic digest (bench/synthetic.py) is built cold with a cache, as a
curator's `build.py build --cache` does. Then four changes are made, each built with the warm
cache, and for each the wall time, the files written anew (a changed inode, size or mtime, as
a deploy that syncs files sees them) and the change in the site's files and bytes are printed:

- one title edited (a paper in the middle of the digest);
- one paper added, the newest, with three authors new to the digest and two tags it has;
- one author added to a paper: a name new to the digest;
- one tag added to a paper: a tag new to the digest.

The first lines give the site's files and bytes a paper and the cold build's time a paper. The
figures of docs/explanation/build-and-cache.md ("What things cost") come from this script.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import write_digest  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
NEW_PAPER = """---
title: 'A Newly Added Paper About Sparse Retrieval'
authors:
- Newcomer One
- Newcomer Two
- Newcomer Three
venue: Synthetic 2025
date: 2026-12-01
tags: [graph-learning, robust-models]
links:
  arxiv: '2512.99999'
abstract: |-
  We study what one more paper costs a digest, in files, bytes and time to build.
---
"""


def state(out: Path) -> dict[str, tuple[int, int, int]]:
    """Each file of the site: (inode, size, mtime)."""
    found = {}
    for root, _, names in os.walk(out):
        for name in names:
            info = os.stat(os.path.join(root, name))
            found[os.path.join(root, name)] = (info.st_ino, info.st_size, info.st_mtime_ns)
    return found


def build(content: Path, out: Path, cache: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "build.py", "build", "--content", str(content), "--out",
                    str(out), "--cache", str(cache)], cwd=REPO, check=True, capture_output=True)
    return time.perf_counter() - started


def edit(path: Path, pattern: str, replacement: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(pattern, replacement, text, count=1, flags=re.M), encoding="utf-8")


def changes(content: Path) -> list[tuple[str, callable]]:
    papers = sorted((content / "papers").glob("*.md"))
    middle, other, third = papers[len(papers) // 2], papers[len(papers) // 3], papers[len(papers) // 4]
    return [
        ("one title edited", lambda: edit(middle, r"^title: .*$", "title: 'An Edited Title'")),
        ("one paper added", lambda: (content / "papers/zz-new.md").write_text(NEW_PAPER, encoding="utf-8")),
        ("one author added", lambda: edit(other, r"^authors:$", "authors:\n- Somebody Entirely New")),
        ("one tag added", lambda: edit(third, r"^tags: \[", "tags: [a-tag-new-to-the-digest, ")),
    ]


def measure(papers: int, work: Path) -> None:
    content = write_digest(work / "content", papers)
    out, cache = work / "site", work / "cache"
    cold = build(content, out, cache)
    before = state(out)
    size = sum(s for _, s, _ in before.values())
    print(f"\n{papers:,} papers: {len(before):,} files ({len(before) / papers:.2f} a paper), "
          f"{size / 2**20:,.1f} MB ({size / papers / 1024:.1f} KB a paper); cold build {cold:.1f} s "
          f"({1000 * cold / papers:.2f} ms a paper)")
    print(f"  {'change':<18} {'time':>7} {'files written':>14} {'files':>7} {'bytes':>12}")
    for name, change in changes(content):
        change()
        took = build(content, out, cache)
        after = state(out)
        written = sum(1 for path, seen in after.items() if before.get(path) != seen)
        delta = sum(s for _, s, _ in after.values()) - sum(s for _, s, _ in before.values())
        print(f"  {name:<18} {took:>6.2f}s {written:>14,} {len(after) - len(before):>+7,} "
              f"{delta:>+12,}")
        before = after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[1000, 10000, 40000])
    args = parser.parse_args()
    for papers in args.papers:
        work = Path(tempfile.mkdtemp(prefix="cost-bench-"))
        try:
            measure(papers, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
