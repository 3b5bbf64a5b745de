"""Math written outside `$…$` in a title's TeX, found and put in math.

A proceedings' escaped title gives back '\\ell_1-regression' (its authors wrote
'$\\ell_1$-regression'), and a curator may write '\\alpha' outside math: the reader shows
both, but LaTeX refuses a math command outside math mode, so a .bib file must never hold
one. What counts as math: a command that is not a text-mode one (accents, `\\text…`,
`\\emph`, letters such as `\\ss`, font switches), with the braces, sub- and superscripts and a
parenthesised group of math that follow it ('\\tilde{O}(\\sqrt{n})'); and a parenthesised
group of math that holds such a command ('(\\epsilon, \\gamma)').
"""

from __future__ import annotations

import re

TEXT_COMMANDS = frozenset(
    "c v u H k r b d t G ss o O l L ae AE oe OE aa AA i j S P dag ddag copyright pounds euro "
    "emph mbox url href footnote cite citep citet LaTeX TeX ldots dots protect relax xspace "
    "newline em it bf sc rm tt sf sl bfseries itshape scshape ttfamily rmfamily sffamily "
    "slshape upshape mdseries normalfont".split())
"""Commands LaTeX takes outside math (and every `\\text…` one, textcomp's included)."""

_NAME = re.compile(r"[A-Za-z]+")
_DOLLAR = re.compile(r"(?<!\\)\$")
_PROSE_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")


def is_text_command(name: str) -> bool:
    """Whether `\\name` belongs in text mode (so needs no `$`)."""
    return name in TEXT_COMMANDS or name.startswith("text")


def math_in_math(tex: str) -> str:
    """`tex` with each run of math written outside `$…$` put between dollars:
    '\\ell_1-regression' -> '$\\ell_1$-regression'. Text and math already in `$` are kept; a
    title whose `$` do not pair is given back as it is (which `$` opens math is a guess)."""
    if len(_DOLLAR.findall(tex)) % 2:
        return tex
    out, i = [], 0
    while i < len(tex):
        end = _dollar_end(tex, i) if tex[i] == "$" else -1
        if end > i:
            out.append(tex[i:end])
            i = end
        elif (start := _math_start(tex, i)) is not None:
            end = _run_end(tex, start)
            out.append("$" + tex[i:end] + "$")
            i = end
        else:
            step = 2 if tex[i] == "\\" else 1
            step = len(_NAME.match(tex, i + 1).group()) + 1 if _word_command(tex, i) else step
            out.append(tex[i:i + step])
            i += step
    return "".join(out)


def math_outside_math(tex: str) -> bool:
    """Whether `tex` holds a math command outside `$…$`."""
    return math_in_math(tex) != tex


def _word_command(tex: str, i: int) -> bool:
    return tex[i] == "\\" and bool(_NAME.match(tex, i + 1))


def _math_start(tex: str, i: int) -> int | None:
    """`i` when math outside math starts there: a math command, or a parenthesised group of
    math holding one; else None."""
    if _word_command(tex, i):
        return None if is_text_command(_NAME.match(tex, i + 1).group()) else i
    if tex[i] == "(" and (close := _group_end(tex, i, "(", ")")) > 0 \
            and _mathy(tex[i + 1:close - 1]) and _has_math_command(tex[i + 1:close - 1]):
        return i
    return None


def _run_end(tex: str, i: int) -> int:
    """Where a run of math that starts at `i` ends: past its commands, brace groups, sub- and
    superscripts, primes and a parenthesised group of math that follows them."""
    while i < len(tex):
        if _word_command(tex, i):
            i += len(_NAME.match(tex, i + 1).group()) + 1
        elif tex[i] == "{" or (tex[i] == "(" and _mathy_group(tex, i)):
            i = _group_end(tex, i, tex[i], "}" if tex[i] == "{" else ")") or len(tex)
        elif tex[i] in "_^" and i + 1 < len(tex):
            i = _script_end(tex, i + 1)
        elif tex[i] == "'":
            i += 1
        else:
            break
    return i


def _script_end(tex: str, i: int) -> int:
    """Past the argument of a sub- or superscript that starts at `i`."""
    if tex[i] == "{":
        return _group_end(tex, i, "{", "}") or len(tex)
    if _word_command(tex, i):
        return i + 1 + len(_NAME.match(tex, i + 1).group())
    return i + 1


def _mathy_group(tex: str, i: int) -> bool:
    close = _group_end(tex, i, "(", ")")
    return close > 0 and _mathy(tex[i + 1:close - 1])


def _mathy(inside: str) -> bool:
    """Whether a parenthesised group's inside reads as math: no word of prose in it."""
    return "$" not in inside and not _PROSE_WORD.search(inside)


def _has_math_command(inside: str) -> bool:
    return any(not is_text_command(name) for name in re.findall(r"\\([A-Za-z]+)", inside))


def _group_end(tex: str, i: int, opener: str, closer: str) -> int:
    """Past the `closer` that closes the group opened at `i` (backslash escapes skipped), or
    0 when it never closes."""
    depth, j = 0, i
    while j < len(tex):
        if tex[j] == "\\":
            j += 2
            continue
        depth += (tex[j] == opener) - (tex[j] == closer)
        j += 1
        if depth == 0:
            return j
    return 0


def _dollar_end(tex: str, i: int) -> int:
    """Past the `$` (or `$$`) that closes math opened at `i`, or -1 when it has none."""
    mark = "$$" if tex.startswith("$$", i) else "$"
    j = i + len(mark)
    while (j := tex.find(mark, j)) > 0 and tex[j - 1] == "\\":
        j += 1
    return j + len(mark) if j > 0 else -1
