"""A BibTeX title as a paper file keeps it: its math as written, the rest decoded to Unicode,
and the TeX a proceedings escaped given back as the TeX its authors wrote.

The NeurIPS proceedings (and some Zotero exports) escape a title's TeX as text:
'\\textbackslash ell\\_1-regression', '\\tilde\\lbrace O\\rbrace', '\\$'. Read as TeX, that is
a backslash and the letters 'ell'; read back, it is '\\ell_1', which the page shows as ℓ₁
once it is put in math ('$\\ell_1$-regression', model/mathmode.py).
"""

from __future__ import annotations

import html
import re

from ..model.mathmode import math_in_math
from .cleaning import STAND_IN, decode_tex, one_line, without_stand_ins

_MATH = re.compile(r"(?<!\\)\$(?:[^$\\]|\\.)*\$", re.S)
_MATH_BASE = 0xE100
_MAX_SPANS = 256
_PLACEHOLDER = re.compile("[\ue100-\ue1ff]")
# why: '\{', '\$' and '\^{}' are TeX for a literal brace, dollar and caret: the escaped TeX of
# a title, whose characters the decoder would otherwise drop
_ESCAPE = re.compile(r"\\([{}$])|\\([\^~])\{\}")
# why: an escaper writes '\textquotesingle ' before the title's own space; TeX would swallow
# both ('Others\textquotesingle  Intentional' is "Others'Intentional" to TeX)
_SPACED = re.compile(r"(\\[A-Za-z]+) {2,}")
# why: 'Simple \&amp; Efficient': HTML escaping where TeX was meant
_ENTITY = re.compile(r"&(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});")


def decode_title(tex: str) -> str:
    """'{\\"O}ptimal {$\\ell_1$} Costs' -> 'Öptimal $\\ell_1$ Costs'; '\\textbackslash
    tilde\\lbrace O\\rbrace' -> '$\\tilde{O}$'. Raises ValueError when braces nest too deep."""
    spans: list[str] = []
    tex = _MATH.sub(lambda m: _placeholder(m.group(), spans), without_stand_ins(tex))
    tex = _ESCAPE.sub(lambda m: STAND_IN[m.group(1) or m.group(2)], _SPACED.sub(r"\1{} ", tex))
    text = decode_tex(tex)
    if spans:
        text = _PLACEHOLDER.sub(lambda m: spans[ord(m.group()) - _MATH_BASE], text)
    if "&" in text:
        text = _ENTITY.sub(lambda m: html.unescape(m.group()), text)
    return one_line(math_in_math(text) if "\\" in text else text)


def _placeholder(math: str, spans: list[str]) -> str:
    """A character that stands for `math` through the decoder (the math itself past 256)."""
    if len(spans) >= _MAX_SPANS:
        return math
    spans.append(math)
    return chr(_MATH_BASE + len(spans) - 1)
