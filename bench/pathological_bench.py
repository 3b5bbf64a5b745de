"""How long pathological abstracts take to render: unbalanced LaTeX at 10 and 100 KB.

    .venv/bin/python bench/pathological_bench.py

Each must take at most 2 s at 100 KB (the hardening issue's limit); before the scanning budget
of generator/content/latex.py, '{' repeated took 3.7 s at 10 KB and ~446 s at 100 KB. Notes in
Markdown are not measured here: Python-Markdown is still quadratic on '[' repeated.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.content.latex import render_abstract  # noqa: E402

LIMIT = 2.0
CASES = {"{": "{", "${": "${", "\\(": "\\(", "\\textbf{": "\\textbf{", "mixed": "{\\em ${\\("}


def main() -> int:
    over = 0
    for size in (10_000, 100_000):
        for name, unit in CASES.items():
            text = unit * (size // len(unit))
            started = time.process_time()
            render_abstract(text)
            seconds = time.process_time() - started
            over += seconds > LIMIT
            print(f"{name:>10} x {size // 1000:>3} KB: {seconds:6.3f} s CPU"
                  f"{'  OVER the limit' if seconds > LIMIT else ''}")
    print(f"limit {LIMIT} s at 100 KB: {'met' if not over else f'{over} over'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
