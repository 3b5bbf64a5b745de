"""How long importing a large BibTeX file takes, and building what it made; or a whole
conference's OpenReview notes, and checking what they made.

    .venv/bin/python bench/import_bench.py [--entries 3000] [--rounds 3] [--seed 2025]
    .venv/bin/python bench/import_bench.py --openreview 3700 [--rounds 3] [--seed 2025]

A seeded .bib of ENTRIES entries is written as reference managers write them: @inproceedings
(booktitle through @string macros and '#'), @article (journal) and @misc arXiv preprints
(eprint, archivePrefix), 'Last, First' and 'First Last' names, TeX accents ({\\"o}, \\'{e})
beside UTF-8, braced acronyms in titles, an abstract on 85% of the entries (some with inline
math), keywords on 60%, a DOI on 30%. Words come from bench/synthetic.py's Zipf vocabulary.

Each round, as subprocesses of build.py (so start-up is counted, as a curator meets it):
import into an empty digest, the same import again (nothing changes), `build --drafts
--no-cache`, and `build --drafts` with an empty cache folder (cold; the drafts are the
entries without an abstract, included so every entry is a page). It prints the median of
each over the rounds. Everything is written under one temporary folder, removed at the end.

With --openreview N, the file is N OpenReview notes with real-looking keywords
(bench/openreview_notes.py: ICLR's 3,700 papers carry ~16,700 keywords, ~6,800 distinct as
written here), and each round times the import into an empty digest, the same import with
--dry-run into the digest it made (every note is matched), and `check --strict` (which exits
1 on the near tag spellings such keywords have: that is expected). Tag spelling was quadratic
in the number of distinct keywords: 3,700 notes took 176 s to import and 299 s to check.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from openreview_notes import write_notes
from synthetic import FIRST, LAST, MATH, TAGS, vocabulary, zipf_weights

REPO = Path(__file__).resolve().parent.parent
STRINGS = {"iclr": "International Conference on Learning Representations",
           "neurips": "Advances in Neural Information Processing Systems",
           "icml": "International Conference on Machine Learning"}
JOURNALS = ("Journal of Machine Learning Research", "Transactions on Machine Learning Research",
            "IEEE Transactions on Pattern Analysis and Machine Intelligence")
ACCENTED = (r"M{\"u}ller", r"Garc{\'\i}a", r"Jos\'{e}", r"Nu\~{n}ez", "Dvořák", "Øster",
            r"{\"O}ktem", "Zoë")
ACRONYMS = ("{GAN}s", "{LLM}", "{BERT}", "{R}einforcement", "{B}ayesian", "{ViT}")


class Words:
    """Seeded draws from the synthetic digest's Zipf vocabulary."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.words = vocabulary(rng)
        self.weights = zipf_weights(len(self.words))

    def draw(self, count: int) -> list[str]:
        return self.rng.choices(self.words, cum_weights=self.weights, k=count)


def name(rng: random.Random) -> str:
    """An author as BibTeX files give one: 'Last, First' or 'First Last', sometimes accented."""
    last = rng.choice(ACCENTED) if rng.random() < 0.1 else rng.choice(LAST)
    first = rng.choice(FIRST)
    return f"{last}, {first}" if rng.random() < 0.5 else f"{first} {last}"


def title(words: Words, taken: set[str]) -> str:
    """A unique 6-12 word title; one in four has a braced acronym."""
    while True:
        parts = [w.capitalize() for w in words.draw(words.rng.randint(6, 12))]
        if words.rng.random() < 0.25:
            parts.insert(words.rng.randrange(len(parts)), words.rng.choice(ACRONYMS))
        text = " ".join(parts)
        if text.lower() not in taken:
            taken.add(text.lower())
            return text


def abstract(words: Words) -> str:
    text = words.draw(words.rng.randint(120, 200))
    if words.rng.random() < 0.3:
        text[words.rng.randrange(len(text))] = words.rng.choice(MATH)
    # why: an abstract as a .bib holds it: % and & escaped, hard-wrapped at 80 columns
    return textwrap.fill(" ".join(text).capitalize().replace("%", r"\%") + ".", 80,
                         subsequent_indent="    ")


def entry(number: int, words: Words, taken: set[str]) -> str:
    """One BibTeX entry; its kind, fields and their spelling drawn from the seed."""
    rng = words.rng
    kind = rng.choices(("inproceedings", "article", "misc"), weights=(50, 25, 25))[0]
    year = rng.choice((2022, 2023, 2024, 2025))
    fields = [("title", "{" + title(words, taken) + "}"),
              ("author", "{" + " and ".join(name(rng) for _ in range(rng.randint(2, 8))) + "}"),
              ("year", str(year))]
    if kind == "inproceedings":
        fields.append(("booktitle", f'{rng.choice(list(STRINGS))} # " {year}"'))
    elif kind == "article":
        fields += [("journal", "{" + rng.choice(JOURNALS) + "}"), ("volume", str(rng.randint(1, 30)))]
    if kind == "misc" or rng.random() < 0.3:
        fields += [("eprint", f"{{{year % 100:02d}{1 + number % 12:02d}.{10000 + number:05d}}}"),
                   ("archivePrefix", "{arXiv}")]
    if rng.random() < 0.3:
        fields.append(("doi", f"{{10.5555/bench.{number}}}"))
    if rng.random() < 0.6:
        fields.append(("keywords", "{" + ", ".join(rng.sample(TAGS, rng.randint(1, 3))) + "}"))
    if rng.random() < 0.85:
        fields.append(("abstract", "{" + abstract(words) + "}"))
    body = ",\n".join(f"  {key} = {value}" for key, value in fields)
    return f"@{kind}{{bench{number},\n{body}\n}}\n"


def write_bib(path: Path, entries: int, seed: int) -> None:
    """The seeded .bib: @string macros, then the entries."""
    words = Words(random.Random(seed))
    taken: set[str] = set()
    strings = "".join(f'@string{{{key} = "{value}"}}\n' for key, value in STRINGS.items())
    path.write_text(strings + "\n" + "\n".join(entry(n, words, taken) for n in range(entries)),
                    encoding="utf-8")


def timed(args: list[str], cwd: Path, codes: tuple[int, ...] = (0,)) -> tuple[float, str]:
    """Seconds one `build.py ARGS` took; its output's last line. Stops on an exit status
    not in `codes`."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, str(REPO / "build.py"), *args], cwd=cwd,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in codes:
        sys.exit(f"build.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return seconds, done.stdout.strip().splitlines()[-1]


def empty_digest(work: Path) -> None:
    """`work` made a digest of no papers, with the shipped digest's site.yaml."""
    shutil.rmtree(work, ignore_errors=True)
    (work / "content/papers").mkdir(parents=True)
    shutil.copy(REPO / "content/site.yaml", work / "content/site.yaml")


def one_round(bib: Path, work: Path) -> dict[str, float]:
    """Import into an empty digest, import again, build without and with a (cold) cache."""
    empty_digest(work)
    importing = ["import", str(bib), "--date", "2025-01-01"]
    times = {}
    times["import"], report = timed(importing, work)
    print(f"  {report}")
    times["re-import"], report = timed(importing, work)
    assert report.startswith("Import: 0 created, 0 updated, 0 unchanged"), report
    times["build --no-cache"], _ = timed(["build", "--drafts", "--no-cache", "--out", "a"], work)
    times["build, cache cold"], report = timed(["build", "--drafts", "--out", "b", "--cache",
                                                "cache"], work)
    print(f"  {report}")
    return times


def openreview_round(notes: Path, work: Path) -> dict[str, float]:
    """Import the notes into an empty digest, again as a dry run, then `check --strict`."""
    empty_digest(work)
    importing = ["import", str(notes), "--date", "2025-01-01"]
    times = {}
    times["import"], report = timed(importing, work)
    print(f"  {report}")
    times["import --dry-run"], _ = timed([*importing, "--dry-run"], work)
    times["check --strict"], report = timed(["check", "--strict"], work, codes=(0, 1))
    print(f"  {report}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=3000)
    parser.add_argument("--openreview", type=int, metavar="NOTES",
                        help="import this many OpenReview notes instead of a .bib")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2025)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="import-bench-") as temporary:
        if args.openreview:
            source = Path(temporary) / "notes.json"
            write_notes(source, args.openreview, args.seed)
            print(f"{args.openreview} OpenReview notes, {source.stat().st_size / 2**20:.1f} MB")
        else:
            source = Path(temporary) / "library.bib"
            write_bib(source, args.entries, args.seed)
            print(f"{args.entries} entries, {source.stat().st_size / 2**20:.1f} MB of BibTeX")
        run = openreview_round if args.openreview else one_round
        rounds = []
        for number in range(args.rounds):
            print(f"round {number + 1}:")
            rounds.append(run(source, Path(temporary) / "digest"))
    print(f"medians over {args.rounds} rounds (wall seconds, build.py start-up included):")
    for what in rounds[0]:
        print(f"  {what:<18} {statistics.median(r[what] for r in rounds):6.2f} s")


if __name__ == "__main__":
    main()
