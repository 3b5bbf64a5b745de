"""The digest's own LaTeX macros (site.yaml's `macros:`), expanded in a title or abstract
before it is read, so its page, its search text and its BibTeX entry all show what they mean.

Authors write their own macros (`\\eps`, `\\cA`, `\\norm{x}`) and leave their definitions in
the paper's preamble. A curator defines each once for the digest, as `\\newcommand` would:
`eps: \\varepsilon`, `norm: '\\left\\lVert #1 \\right\\rVert'` (`#1`… its brace arguments).
"""

from __future__ import annotations

import re

from ..model.lazy import library

latexmath = library(f"{__package__}.latexmath")  # why: LaTeX tables no no-op build needs

_NAME = re.compile(r"[A-Za-z]+\Z")
_PARAMETER = re.compile(r"#(\d)")
_CALL = re.compile(r"\\\\|\\([A-Za-z]+)")
_ROUNDS = 8
"""Macros defined with macros are expanded again, this many times at most."""


def macro_problem(name: str, definition: str) -> str:
    """What is wrong with one `macros:` entry, '' when nothing is."""
    if not _NAME.match(name):
        return "a macro's name is letters only, as in TeX: eps, cA, norm"
    if not definition.strip():
        return "write its definition, e.g. eps: '\\varepsilon'"
    if _unpaired(definition):
        return "its braces do not pair up"
    if "#0" in definition:
        return "its arguments are #1 to #9"
    if re.search(rf"\\{name}(?![A-Za-z])", definition):
        return "its definition calls the macro itself, so it would never end"
    return ""


def arity(definition: str) -> int:
    """How many arguments a definition takes: its highest `#n`."""
    return max((int(n) for n in _PARAMETER.findall(definition)), default=0)


def expand_macros(text: str, macros: dict[str, str] | None) -> str:
    """`text` with every call of the digest's macros replaced by its definition, arguments
    put in place; a call whose arguments are missing is left as it is. The expansion stops
    growing at four times the text's length (a macro defined with itself does not hang)."""
    if not macros or "\\" not in text:
        return text
    table = {name: (definition, arity(definition)) for name, definition in macros.items()}
    limit = 4 * len(text) + 10_000
    for _ in range(_ROUNDS):
        expanded = _expand_once(text, table)
        if expanded == text or len(expanded) > limit:
            break
        text = expanded
    return text


def _expand_once(text: str, table: dict[str, tuple[str, int]]) -> str:
    out, at = [], 0
    for call in _CALL.finditer(text):
        if call.start() < at or call.group(1) not in table:
            continue
        definition, count = table[call.group(1)]
        arguments, end = _arguments(text, call.end(), count)
        if arguments is None:
            continue
        out += [text[at:call.start()], _PARAMETER.sub(
            lambda p: arguments[int(p.group(1)) - 1] if int(p.group(1)) <= count else p.group(),
            definition)]
        at = end
    return "".join(out) + text[at:] if out else text


def _arguments(text: str, at: int, count: int) -> tuple[list[str] | None, int]:
    """The `count` arguments after `at` (a brace group, a command or one character each) and
    where they end; None when there are fewer."""
    arguments = []
    for _ in range(count):
        while at < len(text) and text[at] == " ":
            at += 1
        if at >= len(text) or text[at] in "}$":
            return None, at
        if text[at] == "{":
            close = latexmath.scan(text, at + 1, "}")
            if close < 0:
                return None, at
            arguments.append(text[at + 1:close])
            at = close + 1
        else:
            word = re.match(r"\\[A-Za-z]+|\\.|.", text[at:], re.S).group()
            arguments.append(word)
            at += len(word)
    return arguments, at


def _unpaired(text: str) -> bool:
    depth = 0
    for char in re.sub(r"\\.", "", text):
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return True
    return depth != 0
