"""How long pathological abstracts and notes take to render, at 10 and 100 KB.

    .venv/bin/python bench/pathological_bench.py

Each must take at most 2 s at 100 KB (the hardening issue's limit). Before the scanning budget
of generator/content/latex.py, '{' repeated took 3.7 s at 10 KB and ~446 s at 100 KB; before
open brackets were kept from Markdown (generator/content/notes.py), notes of 20 KB of '[' took
37 s, and '[a](' at 100 KB 92 s even with the '[' escaped; before math's own scans (hoisting
math out of text groups) shared the budget, 30 KB of nested '\\frac{' took 42 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.content.latex import render_abstract  # noqa: E402
from generator.content.notes import notes_to_html  # noqa: E402

LIMIT = 2.0
CASES = {"{": (render_abstract, "{"), "${": (render_abstract, "${"),
         "\\(": (render_abstract, "\\("), "\\textbf{": (render_abstract, "\\textbf{"),
         "mixed": (render_abstract, "{\\em ${\\("),
         "{\\it": (render_abstract, "{\\it "), "\\cite[": (render_abstract, "\\cite["),
         "$\\norm{": (render_abstract, "$\\norm{"),
         "stray $": (render_abstract, "$a regret bound where "),
         "notes [": (notes_to_html, "["), "notes ![": (notes_to_html, "!["),
         "notes [a](": (notes_to_html, "[a](")}
NESTED = {"$\\frac{..}{y}$": ("\\frac{", "}{y}"), "$\\sqrt{..}$": ("\\sqrt{", "}"),
          "$\\text{$x$..}$": ("\\text{$x$", "}")}
"""Math nested as deep as the size allows, opened and closed: (opener, closer)."""


def _texts(size: int):
    """(name, render, text) of every case at about `size` characters."""
    for name, (render, unit) in CASES.items():
        yield name, render, unit * (size // len(unit))
    for name, (opener, closer) in NESTED.items():
        depth = size // (len(opener) + len(closer))
        yield name, render_abstract, "$" + opener * depth + "x" + closer * depth + "$"


def main() -> int:
    over = 0
    for size in (10_000, 100_000):
        for name, render, text in _texts(size):
            started = time.process_time()
            render(text)
            seconds = time.process_time() - started
            over += size == 100_000 and seconds > LIMIT
            print(f"{name:>16} x {size // 1000:>3} KB: {seconds:6.3f} s CPU"
                  f"{'  OVER the limit' if size == 100_000 and seconds > LIMIT else ''}")
    print(f"limit {LIMIT} s at 100 KB: {'met' if not over else f'{over} over'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
