"""How often search puts the paper a reader means first, on a real digest.

    .venv/bin/python bench/relevance_bench.py [--queries bench/relevance/neurips2018-queries.yaml]
                                              [--data data/neurips2018-papers.jsonl.gz]
                                              [--site DIR] [--kinds]

Turns the NeurIPS 2018 papers (one JSON object a line) into a content folder, builds it with the
real build (`build.py --no-cache`), and answers every hand-written query with node running the
built site's own search scripts (bench/relevance_answer.js: the worker, lunr.js and ours, as the
browser loads them) against the built index. Prints success@1, success@5, the mean reciprocal
rank and the misses. tests/test_relevance.py holds the figures above thresholds.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
QUERIES = REPO / "bench/relevance/neurips2018-queries.yaml"
DATA = REPO / "data/neurips2018-papers.jsonl.gz"
ANSWER = REPO / "bench/relevance_answer.js"
DEPTH = 20
"""Results read per query: a paper further down counts as not found."""


@dataclass(frozen=True)
class Outcome:
    """Where one query put its wanted paper: rank from 1, or 0 when not in the first DEPTH."""
    query: str
    want: str
    kind: str
    rank: int
    top: tuple[str, ...]


def write_content(data: Path, content: Path) -> int:
    """One paper file per line of the data, tagged with its status (poster, spotlight, oral)."""
    papers = content / "papers"
    papers.mkdir(parents=True)
    (content / "site.yaml").write_text(
        "title: NeurIPS 2018\nbase_url: https://example.org/neurips/\n", encoding="utf-8")
    with gzip.open(data, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    for number, row in enumerate(rows):
        links = {key: row[key] for key in ("pdf", "code") if row.get(key)}
        if row.get("project"):
            links["project"] = row["project"]
        meta = {"title": row["title"], "authors": row["authors"], "venue": row["venue"],
                "date": "2018-12-03", "tags": [row["status"].lower()], "links": links,
                "abstract": row["abstract"]}
        text = "---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + "---\n"
        (papers / f"p{number:04}.md").write_text(text, encoding="utf-8")
    return len(rows)


def build_site(content: Path, out: Path) -> None:
    """The real build, from scratch."""
    subprocess.run([sys.executable, str(REPO / "build.py"), "--content", str(content), "--out",
                    str(out), "--no-cache"], check=True, cwd=REPO, capture_output=True)


def answer(site: Path, queries: list[str]) -> list[dict]:
    """Each query's first DEPTH titles, and what was searched instead, from the site's scripts."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as asked:
        json.dump({"queries": queries, "depth": DEPTH}, asked)
        asked.flush()
        done = subprocess.run(["node", str(ANSWER), str(site), asked.name], check=True,
                              capture_output=True, text=True, timeout=300)
    return json.loads(done.stdout)


def load_queries(path: Path) -> list[dict]:
    """The hand-written queries: [{query, want (a title), kind}]."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))["queries"]


def run(site: Path, queries: list[dict]) -> list[Outcome]:
    """Each query's outcome on the built site."""
    replies = answer(site, [q["query"] for q in queries])
    outcomes = []
    for asked, reply in zip(queries, replies):
        # why: the site shows titles with their white space collapsed, as LaTeX does
        titles = tuple(" ".join(title.split()) for title in reply["titles"])
        want = " ".join(asked["want"].split())
        rank = titles.index(want) + 1 if want in titles else 0
        outcomes.append(Outcome(asked["query"], asked["want"], asked["kind"], rank, titles[:3]))
    return outcomes


def figures(outcomes: list[Outcome]) -> dict[str, float]:
    """success@1, success@5 and the mean reciprocal rank (0 for a paper not found)."""
    count = len(outcomes) or 1
    return {"success@1": sum(o.rank == 1 for o in outcomes) / count,
            "success@5": sum(1 <= o.rank <= 5 for o in outcomes) / count,
            "mrr": sum(1 / o.rank for o in outcomes if o.rank) / count}


def built_site(data: Path, folder: Path) -> Path:
    """The digest of `data` built under `folder`."""
    write_content(data, folder / "content")
    build_site(folder / "content", folder / "site")
    return folder / "site"


def report(outcomes: list[Outcome], by_kind: bool) -> None:
    shown = figures(outcomes)
    print(f"{len(outcomes)} queries: success@1 {shown['success@1']:.3f}, "
          f"success@5 {shown['success@5']:.3f}, MRR {shown['mrr']:.3f}")
    if by_kind:
        for kind in sorted({o.kind for o in outcomes}):
            of_kind = [o for o in outcomes if o.kind == kind]
            f = figures(of_kind)
            print(f"  {kind:14} {len(of_kind):3} queries: success@1 {f['success@1']:.2f}, "
                  f"success@5 {f['success@5']:.2f}, MRR {f['mrr']:.2f}")
    for o in outcomes:
        if o.rank != 1:
            where = f"rank {o.rank}" if o.rank else f"not in the first {DEPTH}"
            print(f"  miss [{o.kind}] {o.query!r}: {where}; want {o.want!r}; first {list(o.top)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=Path, default=QUERIES)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--site", type=Path, help="a site already built from --data")
    parser.add_argument("--kinds", action="store_true", help="figures per kind of query too")
    args = parser.parse_args()
    queries = load_queries(args.queries)
    if args.site:
        report(run(args.site, queries), args.kinds)
        return
    with tempfile.TemporaryDirectory() as tmp:
        report(run(built_site(args.data, Path(tmp)), queries), args.kinds)


if __name__ == "__main__":
    main()
