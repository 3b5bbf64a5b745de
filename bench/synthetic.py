"""A deterministic synthetic digest for benchmarks: realistic sizes and a realistic vocabulary.

    .venv/bin/python bench/synthetic.py OUT_DIR --papers 1000 [--seed 2025] [--chinese-notes 0.1]

Each paper has a 6-12 word title, 3-8 authors, 2-4 tags, a ~170-word abstract (some with
inline LaTeX), arXiv/OpenReview/code links and, for one paper in five, a few lines of notes;
with --chinese-notes SHARE, that share of the papers has notes in Chinese (bench/chinese.py)
instead, the rest of the digest unchanged.
Words follow a Zipf law over a vocabulary of common words and made-up technical terms, so a
search index grows with the digest as it does on real abstracts (not on a 50-word list).
The same seed always writes the same files.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from chinese import chinese_notes

COMMON = ("the of and a to in we that is for on with as by this our are an be from which it "
          "can model models learning data training method methods show results based "
          "performance propose approach neural network networks task tasks large language "
          "existing novel framework experiments demonstrate state art however while such "
          "using both new also than these has have more information problem paper work "
          "trained achieve efficient effective improve across different multiple significant").split()
SYLLABLES = ("ka to ri an el mo su ne ti ra lo ve de qua pri for tex gra phi lin con tra "
             "sym opt dif fu sion mer vec ten sor ker nel lat ent gen cau sal rob ust spar "
             "se emb ed att en tion ret rie val pol icy").split()
TAGS = [f"{a}-{b}" for a in ("graph", "causal", "sparse", "robust", "neural", "language",
                             "vision", "audio", "policy", "kernel")
        for b in ("learning", "models", "inference", "methods", "theory", "agents")]
FIRST = [a + b for a in ("Al", "Be", "Ca", "Da", "El", "Fa", "Gi", "Ha", "Jo", "Ka", "Li", "Mi",
                         "No", "Pa", "Ro", "Sa", "Ta", "Wei", "Xi", "Yu")
         for b in ("n", "ra", "ko", "mi", "lo", "sha", "ng", "rik")]
LAST = [a + b for a in ("Zh", "Wa", "Li", "Ch", "Mu", "Sm", "Ko", "Ga", "Pe", "Ro", "Sc", "Ta")
        for b in ("ang", "ller", "en", "ith", "rov", "rcia", "tel", "ssi", "hmidt", "naka")]
MATH = (r"$O(n \log n)$", r"$\ell_2$", r"$\alpha = 0.5$", r"$\textbf{12.3\%}$", r"$\mathbb{R}^d$",
        r"$p(x \mid z)$", r"$\epsilon$-greedy", r"$\times 4$", r"$\downarrow$")


def vocabulary(rng: random.Random, size: int = 40_000) -> list[str]:
    """Common words first, then made-up terms: a rank order for the Zipf draw."""
    terms = set()
    while len(terms) < size:
        terms.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    ordered = sorted(terms)
    rng.shuffle(ordered)  # why: the Zipf rank of a made-up term must not follow the alphabet
    return COMMON + ordered


def zipf_weights(n: int, s: float = 1.07) -> list[float]:
    """Cumulative Zipf weights for ranks 1..n."""
    total, out = 0.0, []
    for rank in range(1, n + 1):
        total += 1 / rank ** s
        out.append(total)
    return out


def paper_text(rng: random.Random, number: int, words: list[str], weights: list[float]) -> str:
    """One paper file."""
    draw = lambda k: rng.choices(words, cum_weights=weights, k=k)  # noqa: E731
    abstract = draw(rng.randint(140, 200))
    if rng.random() < 0.3:
        for _ in range(rng.randint(1, 3)):
            abstract[rng.randrange(len(abstract))] = rng.choice(MATH)
    title = " ".join(w.capitalize() for w in draw(rng.randint(6, 12)))
    authors = [f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(rng.randint(3, 8))]
    tags = sorted(rng.sample(TAGS, rng.randint(2, 4)))
    notes = "\n".join(f"- {' '.join(draw(12))}." for _ in range(3)) if rng.random() < 0.2 else ""
    lines = ["---", f"title: '{title}'", "authors:", *[f"- {a}" for a in authors],
             "venue: Synthetic 2025", f"date: 2025-{1 + number % 12:02d}-{1 + number % 28:02d}",
             f"tags: [{', '.join(tags)}]", "links:", f"  arxiv: '25{number % 12 + 1:02d}.{number:05d}'",
             f"  openreview: syn{number:07d}", f"  code: https://github.com/synthetic/p{number}",
             "abstract: |-", "  " + " ".join(abstract).capitalize() + ".", "---", notes]
    return "\n".join(lines) + "\n"


def write_digest(out: Path, papers: int, seed: int = 2025, chinese: float = 0.0) -> Path:
    """A content folder (site.yaml + papers/) of `papers` generated papers, a `chinese` share of
    them with Chinese notes; returns it."""
    rng = random.Random(seed)
    words = vocabulary(rng)
    weights = zipf_weights(len(words))
    (out / "papers").mkdir(parents=True, exist_ok=True)
    (out / "site.yaml").write_text("title: Synthetic Digest\ndescription: Generated for benchmarks.\n"
                                   "base_url: https://bench.example.org/synthetic/\n"
                                   "search_budget_kb: 100000\n", encoding="utf-8")
    # why: a draw of its own, so that the digest is the same but for the Chinese notes
    in_chinese = random.Random(seed + 1)
    for number in range(papers):
        text = paper_text(rng, number, words, weights)
        if in_chinese.random() < chinese:
            text = text[:text.rindex("---\n") + 4] + chinese_notes(in_chinese) + "\n"
        (out / "papers" / f"paper-{number:06d}.md").write_text(text, encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--chinese-notes", type=float, default=0.0, metavar="SHARE",
                        help="the share of papers with notes in Chinese (0 to 1)")
    args = parser.parse_args()
    print(write_digest(args.out, args.papers, args.seed, args.chinese_notes))


if __name__ == "__main__":
    main()
