"""Math spans of the LaTeX reader: authors' own macros guessed, then safe MathML and plain text."""

from __future__ import annotations

import html
import re

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import get_default_latex_context_db

from ..model.lazy import library
from .latexwords import KNOWN_IN_MATH, MATH_WITH_ARGUMENTS, math_guess, text_symbol

converter = library("latex2mathml.converter")  # why: ~25 ms of imports a no-op rebuild skips

_MATHML_TAGS = frozenset(
    'math mrow mi mn mo ms mtext mspace mfrac msqrt mroot msub msup msubsup munder mover munderover mtable '
    'mtr mtd mlabeledtr mstyle mpadded mphantom menclose merror mmultiscripts mprescripts none'.split())
_GROUP_MACRO = re.compile(r'\\([A-Za-z]+)\s*\{')
_LOOSE = re.compile(r'(\\.)|[$%]', re.S)
_NUM_REF = re.compile(r'&#(?:x[0-9a-fA-F]{1,6}|[0-9]{1,7});')
_ATTR_NAME = re.compile(r'[a-z][a-z-]*\Z')
_SAFE_URL = re.compile(r'https?://[^\s<>"]+\Z', re.I)
_MACRO = re.compile(r'\\([A-Za-z]+)|\\.', re.S)
_SHOWN_MACRO = re.compile(r'\\([A-Za-z]+)\Z')
_TO_TEXT = LatexNodes2Text()  # why: stateless between calls, and costly to make per math span
# why: a walker made without one builds pylatexenc's whole macro table again, per math span
_WALKER_MACROS = get_default_latex_context_db()
# why: only what Unicode has a sub- or superscript form of; x_{max} stays x_max
_SCRIPTS = {'_': dict(zip('0123456789+-=aehijklmnoprstuvx', '₀₁₂₃₄₅₆₇₈₉₊₋₌ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ')),
            '^': dict(zip('0123456789+-=inT', '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼ⁱⁿᵀ'))}
_SCRIPT = re.compile(r'([_^])(?:\{\s*([^{}\\]*?)\s*\}|([0-9A-Za-z]))')
_WIDE_ACCENT = re.compile(r'\\wide(tilde|hat)\s*\{(\s*\\?[A-Za-z]+\s*)\}')
_ONE_WORD_ROOT = re.compile(r'√\(([^\W_]+)\)')


class Budget:
    """How many more characters the scans for closing braces and dollars may read in one
    abstract. A scan that finds no closer reads to the end, and an unbalanced abstract ('{' or
    '${' ten thousand times) would scan again from every opener: seconds at 10 KB, minutes at
    100 KB. Once the budget is spent, every opener not yet closed is read as a plain character:
    the work stays linear in the abstract's length, and real abstracts never come near it.
    `guesses` bounds in the same way the math spans whose end is guessed ('$' closed by the next
    '$' though braces are open): each costs a conversion, so '$\\norm{' repeated must not be
    ten thousand of them."""

    def __init__(self, text: str) -> None:
        self.left = 20 * len(text or "") + 10_000
        self.guesses = 50
        self.prose: dict[int, tuple[str, list[int]]] = {}
        """Where prose starts in each string read (by id, kept with it): see latex._first_prose."""


def scan(s: str, i: int, closer: str, budget: Budget | None = None) -> int:
    """Index of the first `closer` at brace depth 0 from i (skipping backslash escapes), or -1;
    -1 too once the `budget` is spent (what it reads is taken from it)."""
    if budget is not None and budget.left <= 0:
        return -1
    depth, start = 0, i
    while i < len(s):
        if depth == 0 and s.startswith(closer, i):
            break
        if s[i] == '\\':
            i += 1
        elif s[i] == '{':
            depth += 1
        elif s[i] == '}':
            depth = max(depth - 1, 0)
        i += 1
    if budget is not None:
        budget.left -= i - start
    return i if i < len(s) else -1


def guess_macros(src: str, budget: Budget) -> tuple[str, tuple[str, ...]]:
    """The math source with authors' own macros replaced by best guesses (\\otilde -> \\tilde{O},
    \\R -> \\mathbb{R}, \\norm{x} -> ‖x‖) and its braces closed, and the names of every macro
    latex2mathml does not know (guessed or left to be shown as its name)."""
    out: list[str] = []
    unknown: list[str] = []
    closers: list[tuple[int, str]] = []  # (index of an argument's '}', what replaces it), innermost last
    pos = 0
    for m in _MACRO.finditer(src):
        pos = _close_arguments(src, out, closers, pos, m.start())
        name = m.group(1)
        if not name or name in KNOWN_IN_MATH:
            continue
        unknown.append(name)
        guess = math_guess(name, src[m.end():m.end() + 3])
        if guess is None:
            continue
        out.append(src[pos:m.start()])
        pos = m.end()
        head, has_arg, tail = guess.partition('#1')
        end = scan(src, pos + 1, '}', budget) if has_arg and src.startswith('{', pos) else -1
        if end >= 0:
            closers.append((end, tail))
            pos += 1
        # why: '\\x y' must not become '\\mathbf{x}y' read on as one word by the next macro
        spaced = head[-1:].isalpha() and src[pos:pos + 1].isalpha()
        out.append(head + ('' if has_arg else tail) + (' ' if spaced else ''))
    pos = _close_arguments(src, out, closers, pos, len(src) + 1)
    out.append(src[pos:])
    return _closed_braces(''.join(out)), tuple(unknown)


def _close_arguments(src: str, out: list, closers: list, pos: int, upto: int) -> int:
    """Copy the source up to each argument end before `upto`, putting its replacement there."""
    while closers and closers[-1][0] < upto:
        end, tail = closers.pop()
        out.append(src[pos:end] + tail)
        pos = end + 1
    return pos


def _closed_braces(src: str) -> str:
    """The source with a `}` added for every `{` left open (`\\widetilde{O(m)`)."""
    depth, i = 0, 0
    while i < len(src):
        char = src[i]
        depth += (char == '{') - (char == '}' and depth > 0)
        i += 2 if char == '\\' else 1
    return src + '}' * depth


def math_html(src: str, display: bool) -> str:
    """Sanitized MathML for a math source, or its plain text in <code> if conversion fails."""
    try:
        tree = converter.convert_to_element(prepare_math(src), display='block' if display else 'inline')
    except Exception:  # why: latex2mathml raises many exception types on malformed input
        return f'<code class="tex">{html.escape(math_text(src))}</code>'
    symbol = None if display else lone_symbol(tree)
    if symbol is not None:
        # why: as an <mo> it gets operator spacing on both sides ("68.73 ↓  and"); as text it
        # sits in the sentence like the character it is
        return f'<span class="math-symbol">{html.escape(symbol)}</span>'
    try:
        return _mathml(tree)
    except RecursionError:  # why: latex2mathml's tree is as deep as the source nests
        return f'<code class="tex">{html.escape(math_text(src))}</code>'


def lone_symbol(tree) -> str | None:
    """The character of a math span that is one symbol and no letter or digit (`\\downarrow`,
    `\\times`, `\\pm`, `\\rightarrow`), else None."""
    leaves = [el for el in tree.iter() if len(el) == 0]
    if len(leaves) != 1 or leaves[0].tag not in ('mo', 'mi') or leaves[0].attrib:
        return None
    text = _NUM_REF.sub(lambda m: html.unescape(m.group()), leaves[0].text or '')
    return text if len(text) == 1 and not text.isalnum() and not text.isspace() else None


def prepare_math(src: str, budget: Budget | None = None) -> str:
    """Hoist nested math out of text groups (`\\textbf{2.60$\\times$}` -> `\\textbf{2.60} \\times `);
    the scans for closing braces share one `budget` (a new one when none is given), so nested
    groups (`\\frac{` ten thousand times) cost linear time, not quadratic."""
    budget = budget or Budget(src)
    out, pos = [], 0
    while m := _GROUP_MACRO.search(src, pos):
        j = scan(src, m.end(), '}', budget)
        parts = _split_dollars(src[m.end():j], budget) if j >= 0 else []
        if len(parts) < 2:
            out.append(src[pos:m.end()])
            pos = m.end()
            continue
        out.append(src[pos:m.start()])
        for k, part in enumerate(parts):
            out.append(f' {part} ' if k % 2 else (f'\\{m.group(1)}{{{part}}}' if part else ''))
        pos = j + 1
    # why: a leftover `$` toggles latex2mathml's text/math mode; `%` would start a comment in both libraries
    return _LOOSE.sub(lambda d: d.group(1) or ('\\%' if d.group() == '%' else ''), ''.join(out) + src[pos:])


def _split_dollars(s: str, budget: Budget) -> list:
    """Split at unescaped `$` at brace depth 0 (no further once the `budget` is spent)."""
    parts, start = [], 0
    while (j := scan(s, start, '$', budget)) >= 0:
        parts.append(s[start:j])
        start = j + 1
    return parts + [s[start:]]


def _mathml(el) -> str:
    """Serialize a latex2mathml element tree, escaping all text and keeping safe tags/attributes only."""
    # why: latex2mathml.convert() unescapes its own output, so `$\text{<img>}$` would emit raw markup
    text, attrib = el.text, dict(el.attrib)
    if text and (shown := _SHOWN_MACRO.match(text)):  # a macro latex2mathml does not know
        text, attrib = shown.group(1), {**attrib, 'mathvariant': 'normal'}
    inner = _math_text_node(text) + ''.join(_mathml(c) + _math_text_node(c.tail) for c in el)
    if el.tag not in _MATHML_TAGS:
        return inner
    attrs = ''.join(f' {k}="{html.escape(v)}"' for k, v in attrib.items() if _safe_attr(k, v))
    return f'<{el.tag}{attrs}>{inner}</{el.tag}>'


def _math_text_node(s) -> str:
    """latex2mathml text (raw input plus numeric character references) as escaped HTML."""
    return html.escape(_NUM_REF.sub(lambda m: html.unescape(m.group()), s or ''))


def _safe_attr(name: str, value: str) -> bool:
    """Whether a MathML attribute is harmless (no handlers or styles; href only http(s))."""
    if not _ATTR_NAME.match(name) or name.startswith('on') or name == 'style':
        return False
    return name != 'href' or bool(_SAFE_URL.match(value.strip()))


def math_text(src: str) -> str:
    """Unicode approximation of a math source (ℓ₁, Õ(√n)) via pylatexenc; crude strip if that fails."""
    src = _for_text(prepare_math(src))
    try:
        # why: pylatexenc drops the contents of \texttt
        text = _TO_TEXT.latex_to_text(src.replace('\\texttt', '\\textrm'), latex_context=_WALKER_MACROS)
    except Exception:  # why: pylatexenc raises on some macros (e.g. \href)
        text = re.sub(r'\\[A-Za-z]+|[\\${}]', ' ', src)
    return _scripts(text)


def _for_text(src: str) -> str:
    """Source pylatexenc reads as a reader would: unknown macros as their names (it drops
    them), `\\|` as ‖ (it drops it) and wide accents as accents (it drops those)."""
    src = _WIDE_ACCENT.sub(r'\\\1{\2}', src.replace('\\|', '‖')) if '\\' in src else src
    if '_' in src or '^' in src:
        src = _SCRIPT.sub(_script, src)
    return _MACRO.sub(_text_macro, src)


def _text_macro(m: re.Match) -> str:
    """A macro as pylatexenc should see it: a symbol as its character (it drops \\land), a
    function as its name and a space (it glues \\log n into 'logn'), unknown as its name."""
    name = m.group(1)
    if not name or name in MATH_WITH_ARGUMENTS:
        return m.group()
    if name not in KNOWN_IN_MATH:
        return f'\\mathrm{{{name}}}'
    symbol = text_symbol(name)
    return m.group() if symbol is None else symbol + (' ' if symbol == name else '')


def _script(m: re.Match) -> str:
    """A sub- or superscript as Unicode's own characters (x_1 -> x₁, n^{-2} -> n⁻²) when it
    has one for each of its characters, else as written."""
    chars, table = m.group(2) if m.group(2) is not None else m.group(3), _SCRIPTS[m.group(1)]
    return ''.join(table[c] for c in chars) if chars and all(c in table for c in chars) else m.group()


def _scripts(text: str) -> str:
    """√(n) as √n."""
    return _ONE_WORD_ROOT.sub(r'√\1', text) if '√' in text else text
