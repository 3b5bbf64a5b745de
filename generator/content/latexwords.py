"""What LaTeX macros mean when a reader has no preamble: old font switches, abbreviations,
letters and symbols written outside math, citations, and guesses at authors' own math macros."""

from __future__ import annotations

import re
import unicodedata

from latex2mathml import commands as _commands
from latex2mathml.symbols_parser import SYMBOLS as _MATH_SYMBOLS

# old switch -> the modern macro it means for the rest of its group ({\it a priori})
FONT_SWITCHES = {
    "it": "textit", "itshape": "textit", "sl": "textsl", "slshape": "textsl", "em": "emph",
    "bf": "textbf", "bfseries": "textbf", "sc": "textsc", "scshape": "textsc",
    "tt": "texttt", "ttfamily": "texttt", "rm": "textrm", "rmfamily": "textrm",
    "sf": "textsf", "sffamily": "textsf", "upshape": "textup", "mdseries": "textrm",
    "normalfont": "textnormal",
}
ABBREVIATIONS = {
    "eg": "e.g.", "Eg": "E.g.", "ie": "i.e.", "Ie": "I.e.", "etal": "et al.", "wrt": "w.r.t.",
    "Wrt": "W.r.t.", "cf": "cf.", "Cf": "Cf.", "etc": "etc.", "vs": "vs.", "iid": "i.i.d.",
    "aka": "a.k.a.", "resp": "resp.", "viz": "viz.", "ala": "à la", "st": "s.t.",
}
# letters of text mode; like every control word they take the space after them (\L ojasiewicz)
TEXT_LETTERS = {
    "L": "Ł", "l": "ł", "o": "ø", "O": "Ø", "ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ",
    "OE": "Œ", "aa": "å", "AA": "Å", "i": "ı", "j": "ȷ",
}
TEXT_SYMBOLS = {
    "ldots": "…", "dots": "…", "textendash": "–", "textemdash": "—", "LaTeX": "LaTeX",
    "TeX": "TeX", "S": "§", "P": "¶", "dag": "†", "ddag": "‡", "copyright": "©",
    "textregistered": "®", "texttrademark": "™", "textasciitilde": "~", "textasciicircum": "^",
    "textbar": "|", "textless": "<", "textgreater": ">", "textbullet": "•", "textdegree": "°",
    "euro": "€", "pounds": "£", "checkmark": "✓", "quad": " ", "qquad": " ", "newline": " ",
    "par": " ", "hfill": " ", "onedot": ".", "xspace": "", "left": "", "right": "",
    "noindent": "", "centering": "", "bigskip": "", "medskip": "", "smallskip": "",
    "textbackslash": "", "today": "", "protect": "", "relax": "", "maketitle": "",
}
# textcomp's text symbols (and LaTeX's own text-mode ones), as real abstracts use them:
# '3\texttimes{} faster', '5\textmu m', '\textpm 2%'; like every control word, and like
# TEXT_LETTERS, each takes the space after it
TEXTCOMP = {
    "texttimes": "×", "textdiv": "÷", "textpm": "±", "textminus": "−", "textmu": "µ",
    "textohm": "Ω", "textmho": "℧", "textcelsius": "℃", "textperthousand": "‰",
    "textpertenthousand": "‱", "textonehalf": "½", "textonequarter": "¼",
    "textthreequarters": "¾", "textfractionsolidus": "⁄", "textonesuperior": "¹",
    "texttwosuperior": "²", "textthreesuperior": "³", "textsurd": "√", "textlnot": "¬",
    "textasteriskcentered": "∗", "textperiodcentered": "·", "textellipsis": "…",
    "textleftarrow": "←", "textrightarrow": "→", "textuparrow": "↑", "textdownarrow": "↓",
    "textlangle": "〈", "textrangle": "〉", "textlbrackdbl": "⟦", "textrbrackdbl": "⟧",
    "textbardbl": "‖", "textbrokenbar": "¦", "textsection": "§", "textparagraph": "¶",
    "textpilcrow": "¶", "textdagger": "†", "textdaggerdbl": "‡", "textcopyright": "©",
    "textcircledP": "℗", "textservicemark": "℠", "textnumero": "№", "textrecipe": "℞",
    "textestimated": "℮", "textreferencemark": "※", "textinterrobang": "‽",
    "textopenbullet": "◦", "textbigcircle": "◯", "textmusicalnote": "♪", "textborn": "*",
    "textdied": "†", "textmarried": "⚭", "textdivorced": "⚮", "textcent": "¢",
    "textsterling": "£", "textyen": "¥", "texteuro": "€", "textdollar": "$", "textwon": "₩",
    "textnaira": "₦", "textpeso": "₱", "textlira": "₤", "textbaht": "฿", "textdong": "₫",
    "textguarani": "₲", "textcolonmonetary": "₡", "textflorin": "ƒ", "textcurrency": "¤",
    "textordfeminine": "ª", "textordmasculine": "º", "textquotesingle": "'",
    "textquotedbl": '"', "textquoteleft": "‘", "textquoteright": "’",
    "textquotedblleft": "“", "textquotedblright": "”", "textquotestraightbase": "‚",
    "textquotestraightdblbase": "„", "textexclamdown": "¡", "textquestiondown": "¿",
    "textvisiblespace": "␣", "textblank": "␢", "textacutedbl": "˝", "textasciibreve": "˘",
    "textasciicaron": "ˇ", "textasciidieresis": "¨", "textasciimacron": "¯",
    "textasciiacute": "´", "textasciigrave": "`", "textunderscore": "_",
    "textbraceleft": "{", "textbraceright": "}", "textsterlingsign": "£",
    "textzerooldstyle": "0", "textoneoldstyle": "1", "texttwooldstyle": "2",
    "textthreeoldstyle": "3", "textfouroldstyle": "4", "textfiveoldstyle": "5",
    "textsixoldstyle": "6", "textsevenoldstyle": "7", "texteightoldstyle": "8",
    "textnineoldstyle": "9",
}
for _name in TEXT_SYMBOLS:
    TEXTCOMP.pop(_name, None)
# siunitx's units and prefixes, as abstracts write them in \SI{105}{\micro\metre}
TEXTCOMP.update({
    "metre": "m", "meter": "m", "gram": "g", "second": "s", "ampere": "A", "kelvin": "K",
    "mole": "mol", "candela": "cd", "hertz": "Hz", "newton": "N", "pascal": "Pa", "joule": "J",
    "watt": "W", "volt": "V", "ohm": "Ω", "litre": "L", "liter": "L", "byte": "B", "bit": "bit",
    "decibel": "dB", "degreeCelsius": "℃", "minute": "min", "hour": "h", "percent": "%",
    "nano": "n", "micro": "µ", "milli": "m", "centi": "c", "kilo": "k", "mega": "M", "giga": "G",
    "tera": "T", "pico": "p", "femto": "f",
})
# accent -> combining character: \'e, \"{o}, \c{c}; the lettered ones only before braces
ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b", "k": "\u0328",
    "r": "\u030a", "b": "\u0331", "d": "\u0323",
}
CITATIONS = frozenset(
    "cite citep citet citealp citealt citeauthor citeyear citeyearpar citenum Cite Citep Citet "
    "Citealp Citealt parencite Parencite textcite Textcite autocite Autocite footcite "
    "shortcite smartcite supercite".split())
MATH_ENVIRONMENTS = frozenset(
    "equation equation* align align* eqnarray eqnarray* gather gather* multline multline* "
    "displaymath math flalign flalign* alignat alignat*".split())

# math macros that make sense outside math too, with how many brace arguments they take
MATH_WITH_ARGUMENTS = {
    "sqrt": 1, "frac": 2, "dfrac": 2, "tfrac": 2, "binom": 2, "mathbb": 1, "mathcal": 1,
    "mathfrak": 1, "mathscr": 1, "mathrm": 1, "mathsf": 1, "mathit": 1, "boldsymbol": 1,
    "bm": 1, "hat": 1, "widehat": 1, "tilde": 1, "widetilde": 1, "bar": 1, "overline": 1,
    "vec": 1, "dot": 1, "ddot": 1, "operatorname": 1,
}

_FUNCTIONS = frozenset(name[1:] for name in _commands.FUNCTIONS) | {"Pr", "argmin", "argmax"}
# why: latex2mathml shows a macro it does not know as '\name' in an <mi>
KNOWN_IN_MATH = frozenset(
    name[1:] for value in vars(_commands).values()
    for name in ([value] if isinstance(value, str) else value if isinstance(value, (set, frozenset, list, tuple, dict)) else [])
    if isinstance(name, str) and re.fullmatch(r"\\[A-Za-z]+\*?", name)) | frozenset(
    name[1:] for name in _MATH_SYMBOLS if re.fullmatch(r"\\[A-Za-z]+", name))

_MATH_GUESSES = {
    "eps": r"\epsilon", "ep": r"\epsilon", "veps": r"\varepsilon", "vareps": r"\varepsilon",
    "E": r"\mathbb{E}", "Exp": r"\mathbb{E}", "Ex": r"\mathbb{E}", "expect": r"\mathbb{E}",
    "R": r"\mathbb{R}", "reals": r"\mathbb{R}", "Real": r"\mathbb{R}", "Reals": r"\mathbb{R}",
    "N": r"\mathbb{N}", "Z": r"\mathbb{Z}", "Q": r"\mathbb{Q}", "C": r"\mathbb{C}",
    "norm": r"\left\|#1\right\|", "abs": r"\left|#1\right|", "paren": r"\left(#1\right)",
    "brac": r"\left[#1\right]", "bracket": r"\left[#1\right]", "set": r"\left\{#1\right\}",
    "ceil": r"\lceil #1\rceil", "floor": r"\lfloor #1\rfloor", "inner": r"\langle #1\rangle",
    "nicefrac": r"\frac", "sfrac": r"\frac", "mat": r"\mathbf{#1}", "textsc": r"\text{#1}",
    "emph": r"\textit{#1}", "textsl": r"\textit{#1}",
}
_TILDE = re.compile(r"(?:[oO]tilde|tilde(O|Omega|Theta)|t(?:l|il)?(O|Omega|Theta)|"
                    r"(O|Omega|Theta)t(?:il|ilde)?|softO)\Z")
_PATTERN_GUESSES = (
    (re.compile(r"([A-Z])\1\Z"), r"\mathbb{%s}"),
    (re.compile(r"R([a-z])\Z"), r"\mathbb{R}^{%s}"),
    (re.compile(r"(?:c|cal|mc|mcal)([A-Z])\Z"), r"\mathcal{%s}"),
    (re.compile(r"(?:bb|mbb)([A-Z])\Z"), r"\mathbb{%s}"),
    (re.compile(r"(?:b|bf|mb|mbf|v|mat|m)([A-Za-z])\Z"), r"\mathbf{%s}"),
    (re.compile(r"([A-Za-z])(?:bf|b)\Z"), r"\mathbf{%s}"),
    (re.compile(r"([A-Za-z])\Z"), r"\mathbf{%s}"),
)
_DELIMITER_AFTER = re.compile(r"\s*(?:[()[\]|.]|\\[{}|])")


def text_symbol(name: str) -> str | None:
    """The character a symbol macro names outside math (\\epsilon -> ϵ, \\Omega -> Ω), or a
    math function's name (\\log -> log); None if it is not one."""
    code = _MATH_SYMBOLS.get("\\" + name)
    if code and re.fullmatch(r"[0-9A-Fa-f]{4,6}", code):
        char = chr(int(code, 16))
        return None if unicodedata.combining(char) else char
    return name if name in _FUNCTIONS else None


def math_guess(name: str, after: str) -> str | None:
    """What an author's own math macro most likely means, as TeX ('#1' stands for its brace
    argument); None to show it as its name. `after` is the source that follows it."""
    if name in ("l", "r") and _DELIMITER_AFTER.match(after):
        return r"\left" if name == "l" else r"\right"  # why: \l( ... \r) for \left( ... \right)
    if name in _MATH_GUESSES:
        return _MATH_GUESSES[name]
    if m := _TILDE.match(name):
        base = next((g for g in m.groups() if g), "O")
        return r"\tilde{" + ("\\" if base != "O" else "") + base + "}"
    for pattern, template in _PATTERN_GUESSES:
        if m := pattern.match(name):
            return template % m.group(1)
    return None


_CITE_KEY = re.compile(r"([A-Za-z][A-Za-z'\-]*?[A-Za-z])[-_:.]?((?:19|20)\d\d)(?!\d)")


def citation_label(keys: str) -> str:
    """A citation as a reader can take it: '[Zaslavskiy 2009; Vestner 2017]' from the keys'
    authors and years where the keys show them, else '[citation]'."""
    names = [key.strip() for key in keys.split(",") if key.strip()]
    shown = [_author_year(key) for key in names]
    labels = [label for label in shown if label]
    hidden = len(shown) - len(labels)
    if not labels:
        return "[citation]" if hidden <= 1 else f"[{hidden} citations]"
    return "[" + "; ".join(labels) + (f"; and {hidden} more" if hidden else "") + "]"


def _author_year(key: str) -> str | None:
    m = _CITE_KEY.match(key)
    if not m:
        return None
    name = m.group(1)
    return f"{name[0].upper() + name[1:] if name.islower() else name} {m.group(2)}"
