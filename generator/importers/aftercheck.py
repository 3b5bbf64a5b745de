"""What `check --strict` would say of the papers an import writes, said by the import itself,
and the undefined LaTeX macros it met, each with the line that defines it in site.yaml.

The papers written are checked as a build checks them (content/papers.check_file, with the
digest's `macros:`) and as `check` checks a digest (content/digest_checks), before anything is
written, so an import that reports nothing leaves a digest `check --strict` passes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..content.digest_checks import digest_findings
from ..content.latexwords import math_guess
from ..content.papers import Macros, check_file
from ..model.errors import display_path
from ..model.records import SourceFile


@dataclass(frozen=True)
class AfterCheck:
    """What the import's report ends with."""

    findings: tuple[str, ...] = ()
    """'papers/x.md:9: unknown LaTeX macro \\eps shown as its name (from refs.bib:12)': every
    error and finding `check --strict` would fail on in the papers written."""
    macros: tuple[tuple[str, int], ...] = ()
    """Each undefined macro ('\\eps') and how many of the papers written use it, most first."""


def check_written(writes: list[tuple[Path, str, str]], macros: Macros) -> AfterCheck:
    """The strict check of the files an import writes, each given as (path, text, where its
    paper was read), read as the build reads them."""
    checked = [check_file(SourceFile(path, text.encode("utf-8")), macros)
               for path, text, _ in writes]
    origins = {display_path(path): origin for path, _, origin in writes}
    found = [*(str(error) for c in checked for error in c.errors),
             *(str(finding) for finding in digest_findings(checked))]
    findings = tuple(f"{line} (from {origins[line.split(':')[0]]})"
                     if line.split(":")[0] in origins else line for line in found)
    counts = Counter(name for c in checked for name in c.unknown_macros)
    return AfterCheck(findings, tuple(sorted(counts.items(), key=lambda i: (-i[1], i[0]))))


def macro_lines(counts: tuple[tuple[str, int], ...]) -> list[str]:
    """'eps: '\\epsilon'    # \\eps, in 3 papers': a site.yaml line for each undefined macro,
    its definition guessed where the reader has a guess."""
    lines = []
    for name, count in counts:
        # why: \l and \r are guessed as \left and \right only before a delimiter, which the
        # digest's papers use them with; the other guesses do not look at what follows
        guess = math_guess(name.lstrip("\\"), "(")
        value = "'" + guess.replace("'", "''") + "'" if guess else "'...'"
        papers = f"{count} paper{'s' if count != 1 else ''}"
        check = "check this guess" if guess else "write its definition"
        lines.append(f"{name.lstrip(chr(92))}: {value}    # {name}, in {papers}: {check}")
    return lines
