"""What LaTeX would refuse in a BibTeX title field: the check all.bib's titles are held to."""

from __future__ import annotations

import re

from generator.model.mathmode import math_outside_math

_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
_MATH = re.compile(r"(?<!\\)\$(?:[^$\\]|\\.)*\$")


def math_problems(title: str) -> list[str]:
    """What LaTeX would refuse in a title field's value: unpaired `$` or braces, a math
    command, `_` or `^` outside math."""
    problems = []
    if len(_UNESCAPED_DOLLAR.findall(title)) % 2:
        problems.append("unpaired $")
    if title.count("{") - title.count("\\{") != title.count("}") - title.count("\\}"):
        problems.append("unpaired braces")
    if math_outside_math(title):
        problems.append("a math command outside math")
    if re.search(r"(?<!\\)[_^](?!\{\})", _MATH.sub("", title).replace("\\^{", "")):
        problems.append("_ or ^ outside math")
    return problems
