"""Read paper abstracts and titles (plain text with inline LaTeX) into safe HTML and clean plain
text, noting what had to be guessed: a reader never sees a backslash macro or a stray dollar."""
from __future__ import annotations

import bisect
import html
import itertools
import re
import unicodedata
from dataclasses import dataclass

from . import latexmath
from .latexmath import Budget, guess_macros, math_html, math_text
from .latexwords import (ABBREVIATIONS, ACCENTS, CITATIONS, FONT_SWITCHES, KNOWN_IN_MATH,
                         MATH_ENVIRONMENTS, MATH_WITH_ARGUMENTS, TEXT_LETTERS, TEXT_SYMBOLS,
                         TEXTCOMP, citation_label, text_symbol)

_MAX_DEPTH = 24  # why: bounds recursion on pathological nesting like "{{{{…" or "$\text{$\text{…"

# macro name -> opening HTML tag ('' = no tag); every one takes one argument
_FORMAT = {
    'textbf': 'strong', 'mathbf': 'strong', 'textit': 'em', 'emph': 'em', 'textsl': 'em',
    'texttt': 'code', 'underline': 'u', 'textsc': 'span class="smallcaps"',
    'text': '', 'textrm': '', 'textsf': '', 'textup': '', 'textnormal': '', 'mbox': '',
}
# math segments made only of these are really text-mode formatting ("$\textbf{Lo}$w-rank")
_TEXT_ONLY = frozenset(_FORMAT) - {'mathbf', 'underline'}
_ESCAPES = {'%': '%', '&': '&', '_': '_', '#': '#', '$': '$', '{': '{', '}': '}',
            ' ': ' ', '\\': ' ', ',': '\u2009', ';': ' ', ':': ' ', '!': '', '-': '', '/': '', '@': ''}
_TYPO = (('---', '—'), ('--', '–'), ('``', '“'), ("''", '”'), ('~', '\u00a0'))
_LIST_ENVIRONMENTS = frozenset({'itemize', 'enumerate', 'description'})

_TEXT_RUN = re.compile(r'[^\\${}]+')
_WORD = re.compile(r'[A-Za-z]+')
_ASCII_SPACES = str.maketrans('\t\n\r\f\v', '     ')
_CONTROL = re.compile(r'[\x00-\x08\x0b\x0e-\x1f\x7f]')
_PARA = re.compile(r'\n[ \t\r\f\v]*\n')
_BARE_URL = re.compile(r'https?://[^\s<>"]+')
_SAFE_URL = re.compile(r'https?://[^\s<>"]+\Z', re.I)
_TEXT_MACRO = re.compile(r'\s*\\([A-Za-z]+)\s*\{')
# why: OpenReview renders abstracts as Markdown, so '*Shadow Attack*' means emphasis
_EMPHASIS = re.compile(r'(?<![\w*])\*(?=[^\s*])([^*]*?[^\s*])\*(?![\w*])')
_MACRO_SLASH = re.compile(r'\\+(?=[A-Za-z])')
# where math opened by a stray `$` must end: three words of prose two letters long at least,
# or three letters of a script other than Latin (Chinese, say)
_PROSE = re.compile(r'(?<![\\A-Za-z])[A-Za-z]{2,}[,;:.]? [A-Za-z]{2,}[,;:.]? [A-Za-z]{2,}(?![A-Za-z])'
                    r'|[^\W\dA-Za-z_]{3}')
_MAX_GUESSED_MATH = 300
_CURRENCY = re.compile(r'\$\d[\d.,]*(?![\w^_{}\\])')
_MATHY = re.compile(r'[\w\\]')
_LABEL = re.compile(r' ?\[[^\]\[]{0,200}\]')


@dataclass(frozen=True)
class Reading:
    """What the reader made of one field: its HTML, its plain text, and what it guessed."""

    html: str
    """Safe HTML, math as MathML: paragraphs in <p> for an abstract, inline for a title."""
    text: str
    """Plain Unicode text (ℓ₁, Õ(√n)): no `$` and no backslash macro."""
    unknown_macros: tuple[str, ...] = ()
    """Macros it did not know, as written ('\\gap'), sorted: shown as their names or guessed."""
    unclosed_dollars: int = 0
    """`$` signs without a partner, whose math was closed at the paragraph's end or the prose."""


def latex_findings(readings: dict[str, Reading]) -> list[tuple[str, str]]:
    """What a curator should check in one paper, as (field, message): one message naming every
    macro guessed in any field (at the first field with one), one per field with unbalanced `$`."""
    unknown = sorted({name for reading in readings.values() for name in reading.unknown_macros})
    found = []
    if unknown:
        field = next(field for field, reading in readings.items() if reading.unknown_macros)
        many = len(unknown) > 1
        found.append((field, f"unknown LaTeX macro{'s' * many} {', '.join(unknown)} shown as "
                             f"{'their names' if many else 'its name'}"))
    for field, reading in readings.items():
        if reading.unclosed_dollars:
            found.append((field, f"{reading.unclosed_dollars} unbalanced $ in the {field}: the "
                                 "math it opens was closed at the end of the paragraph or before "
                                 "the text that follows; pair the $ signs"))
    return found


def read_abstract(text: str) -> Reading:
    """An abstract read: paragraphs, formatted text, MathML math, real links."""
    budget = Budget(text)
    parsed = [_parse(p, budget) for p in _paragraphs(text)]
    paras = (_html(toks).strip() for toks in parsed)
    texts = (_plain(toks) for toks in parsed)
    return _reading('\n'.join(f'<p>{p}</p>' for p in paras if p),
                    '\n\n'.join(t for t in texts if t), [tok for toks in parsed for tok in toks])


def read_title(text: str) -> Reading:
    """A title read as one line: formatted, math as MathML, no links (it is a link itself)."""
    line = ' '.join(_paragraphs(text))
    toks = _parse(line, Budget(line))
    return _reading(_html(toks, links=False).strip(), _plain(toks), toks)


def render_abstract(text: str) -> tuple[str, str]:
    """The abstract as HTML and as plain text, from one parse of each paragraph."""
    reading = read_abstract(text)
    return reading.html, reading.text


def abstract_to_html(text: str) -> str:
    """Safe HTML for an abstract: paragraphs, formatted text, MathML math, real links."""
    return read_abstract(text).html


def abstract_to_text(text: str) -> str:
    """Clean plain text (Unicode, no $ or backslash macros) for search indexes, feeds and excerpts."""
    return read_abstract(text).text


def _reading(html_out: str, text: str, toks: list) -> Reading:
    unknown: set[str] = set()
    unclosed = _findings(toks, unknown)
    return Reading(html_out, text, tuple(sorted('\\' + name for name in unknown)), unclosed)


def _findings(toks: list, unknown: set) -> int:
    """Adds the unknown macros of the tokens to `unknown`; returns how many `$` were unclosed."""
    unclosed = 0
    for tok in toks:
        if tok[0] == 'unknown':
            unknown.add(tok[1])
        elif tok[0] == 'math':
            unknown.update(tok[3])
            unclosed += not tok[4]
        elif tok[0] == 'fmt' or (tok[0] == 'link' and tok[2] is not None):
            unclosed += _findings(tok[2], unknown)
    return unclosed


def _plain(toks: list) -> str:
    # why: a safety net: whatever slipped through, plain text must not carry `\macro`
    return ' '.join(_without_macro_slashes(_text(toks)).split())


def _paragraphs(text) -> list:
    """Split into blank-line separated paragraphs with whitespace runs collapsed to one space."""
    text = _CONTROL.sub('', '' if text is None else str(text)).replace('\r\n', '\n').replace('\r', '\n')
    return [_one_space(p).strip() for p in _PARA.split(text)]


# why: the three helpers below give what one regex substitution gives, faster (an abstract
# is checked in ~1.4 ms, of which these substitutions took ~0.1 ms): most text has no run
# of spaces, no `*` and no backslash, and a regex substitution scans it whole even so.
def _one_space(s: str) -> str:
    """Each run of ASCII whitespace (space, tab, line and page breaks) as one space."""
    s = s.translate(_ASCII_SPACES)
    while '  ' in s:
        s = s.replace('  ', ' ')
    return s


def _without_macro_slashes(s: str) -> str:
    return _MACRO_SLASH.sub('', s) if '\\' in s else s


def _emphasis(s: str, replacement) -> str:
    return _EMPHASIS.sub(replacement, s) if '*' in s else s


def _arg(s: str, i: int, budget: Budget, single: bool = False):
    """The brace argument starting at i (after an optional space) as (content, end), or None;
    with `single`, a lone character serves too (`\\underline b`)."""
    i += s.startswith(' ', i)  # why: paragraphs are whitespace-collapsed, so at most one space
    if single and i < len(s) and s[i] not in '{}\\$ ':
        return s[i], i + 1
    j = latexmath.scan(s, i + 1, '}', budget) if s.startswith('{', i) else -1
    return (s[i + 1:j], j + 1) if j >= 0 else None


def _parse(s: str, budget: Budget, depth: int = 0) -> list:
    """Tokens ('text', s), ('unknown', name), ('cite', label), ('fmt', macro, toks),
    ('link', url, toks|None), ('math', src, display, unknown names, closed)."""
    if depth > _MAX_DEPTH:
        return [('text', s)]
    toks, i = [], 0
    while i < len(s):
        if m := _TEXT_RUN.match(s, i):
            new, i = [('text', m.group())], m.end()
        elif s[i] == '\\':
            new, i = _parse_macro(s, i, depth, budget)
        elif s[i] == '$':
            new, i = _parse_dollar(s, i, depth, budget)
        elif s[i] == '{' and (j := latexmath.scan(s, i + 1, '}', budget)) >= 0:
            new, i = _parse(s[i + 1:j], budget, depth + 1), j + 1
        else:  # unbalanced brace
            new, i = [('text', s[i])], i + 1
        toks += new
    return _joined(toks)


def _joined(toks: list) -> list:
    """Tokens with each run of text tokens made one (joined once: adding each to the last was
    quadratic in a run of thousands of single characters)."""
    joined: list = []
    for is_text, run in itertools.groupby(toks, key=lambda tok: tok[0] == 'text'):
        joined += [('text', ''.join(tok[1] for tok in run))] if is_text else run
    return joined


def _parse_dollar(s: str, i: int, depth: int, budget: Budget):
    """Math opened by `$` or `$$` at i. Its closer is the next `$` at brace depth 0, else the
    next `$` at all (`$\\widetilde{O(m)$`); a `$` with none is closed at the paragraph's end,
    and math that runs into prose (a `$` lost, so the pairs shifted) is closed before it."""
    if s.startswith('$$', i):
        if (j := latexmath.scan(s, i + 2, '$$', budget)) >= 0:
            return _math_tokens(s[i + 2:j], True, depth, budget), j + 2
        i += 1
    j = latexmath.scan(s, i + 1, '$', budget)
    if j < 0 and budget.guesses > 0:  # why: each guess costs a conversion; see Budget
        j, budget.guesses = _next_dollar(s, i + 1), budget.guesses - 1
    if j >= 0 and not _MATHY.search(s, i + 1, j):  # nothing math-like between: not math
        return [('text', '$')], i + 1
    if j < 0 and _CURRENCY.match(s, i):
        return [('text', '$')], i + 1
    # why: an unclosed `$` looks no further than this: '$' and 100 KB of prose is not math
    end = j if j >= 0 else min(len(s), i + 1 + _MAX_GUESSED_MATH)
    if (prose := _first_prose(s, i + 1, end, budget)) >= 0 and _brace_depth(s, i + 1, prose) == 0:
        end = prose - 1 if s[prose - 1] == ' ' else prose
    elif j < 0 and end < len(s):  # a stray `$`: dropped, or kept once the budget is spent
        return [('math', '', False, (), False) if budget.left > 0 else ('text', '$')], i + 1
    closed = end == j
    return _math_tokens(s[i + 1:end], False, depth, budget, closed), end + closed


def _next_dollar(s: str, i: int) -> int:
    """Index of the next unescaped `$` from i, whatever the braces, or -1."""
    while (i := s.find('$', i)) > 0 and s[i - 1] == '\\':
        i += 1
    return i


def _first_prose(s: str, start: int, end: int, budget: Budget) -> int:
    """Where the first prose in s[start:end] starts, or -1. Every prose of `s` is found in one
    pass, kept with the budget: searching each `$`'s stretch anew was quadratic in '${' repeated."""
    found = budget.prose.get(id(s))
    if found is None or found[0] is not s:
        found = budget.prose[id(s)] = (s, [m.start() for m in _PROSE.finditer(s)])
    k = bisect.bisect_left(found[1], start)
    return found[1][k] if k < len(found[1]) and found[1][k] < end else -1


def _brace_depth(s: str, start: int, end: int) -> int:
    return max(s.count('{', start, end) - s.count('}', start, end), 0)


def _math_tokens(src: str, display: bool, depth: int, budget: Budget, closed: bool = True) -> list:
    """A math token (authors' macros guessed), or text tokens when the math only wraps text
    macros like \\textbf{…}."""
    i, seen = 0, False
    while not display and (m := _TEXT_MACRO.match(src, i)) and m.group(1) in _TEXT_ONLY:
        j = latexmath.scan(src, m.end(), '}', budget)
        if j < 0:
            break
        i, seen = j + 1, True
    if seen and not src[i:].strip() and closed:
        return _parse(src, budget, depth + 1)
    guessed, unknown = guess_macros(src, budget)
    return [('math', guessed, display, unknown, closed)]


def _parse_macro(s: str, i: int, depth: int, budget: Budget):
    """The backslash construct at i: math delimiter, accent, escape, or a named macro."""
    nxt = s[i + 1:i + 2]
    if nxt in ('(', '['):
        j = latexmath.scan(s, i + 2, '\\)' if nxt == '(' else '\\]', budget)
        if j >= 0:
            return _math_tokens(s[i + 2:j], nxt == '[', depth, budget), j + 2
    if nxt in ACCENTS and not nxt.isalpha():
        return _accent(s, i + 2, nxt, budget)
    if nxt in _ESCAPES:
        return [('text', _ESCAPES[nxt])], i + 2
    m = _WORD.match(s, i + 1)
    if not m:
        return [('text', nxt or '\\')], i + 1 + len(nxt)
    return _named_macro(s, i, m.group(), m.end(), depth, budget)


def _named_macro(s: str, start: int, name: str, end: int, depth: int, budget: Budget):
    """A macro with a name: formatting, citation, environment, link, footnote, math outside
    math, or a word macro (_word_macro)."""
    if name in FONT_SWITCHES:  # {\it a priori}: the rest of the group
        rest = s[end + s.startswith(' ', end):]
        return [('fmt', FONT_SWITCHES[name], _parse(rest, budget, depth + 1))], len(s)
    if name in CITATIONS:
        return _citation(s, end, budget)
    if name in ('begin', 'end'):
        return _environment(s, name, end, depth, budget)
    arg = _arg(s, end, budget, single=name in _FORMAT or name in ACCENTS)
    if name in _FORMAT and arg:
        return [('fmt', name, _parse(arg[0], budget, depth + 1))], arg[1]
    if name == 'url' and arg:
        return [('link', _unescape_url(arg[0]), None)], arg[1]
    if name == 'href' and arg and (label := _arg(s, arg[1], budget)):
        return [('link', _unescape_url(arg[0]), _parse(label[0], budget, depth + 1))], label[1]
    if name == 'footnote' and arg:
        return [('text', ' (')] + _parse(arg[0], budget, depth + 1) + [('text', ')')], arg[1]
    if name == 'SI' and arg and (unit := _arg(s, arg[1], budget)):  # siunitx: \SI{10}{\metre}
        return [('text', arg[0] + '\u00a0')] + _parse(unit[0], budget, depth + 1), unit[1]
    if name in ACCENTS and arg and s.startswith('{', end):
        return _accent(s, end, name, budget)
    if name in MATH_WITH_ARGUMENTS and arg:  # n\sqrt{\log n}: math written outside math
        if MATH_WITH_ARGUMENTS[name] == 2 and (second := _arg(s, arg[1], budget)):
            arg = (None, second[1])
        return _math_tokens(s[start:arg[1]], False, depth, budget), arg[1]
    return _word_macro(s, name, end)


def _word_macro(s: str, name: str, end: int):
    """A macro that stands for a word or a character: abbreviation, letter, symbol, a math
    macro with nothing to show outside math, or one unknown (shown as its name)."""
    if name in ABBREVIATIONS:
        return [('text', ABBREVIATIONS[name])], end
    if name in TEXT_LETTERS or name in TEXTCOMP:  # why: a control word takes the space after
        # it (\L ojasiewicz, 5\textmu m)
        return [('text', TEXT_LETTERS.get(name) or TEXTCOMP[name])], end + s.startswith(' ', end)
    if name in TEXT_SYMBOLS:
        return [('text', TEXT_SYMBOLS[name])], end
    if name == 'item':
        label = _LABEL.match(s, end)
        return [('text', '• ' + (label.group().strip()[1:-1] + ' ' if label else ''))], (
            label.end() if label else end)
    if (symbol := text_symbol(name)) is not None:
        return [('text', symbol)], end
    if name in KNOWN_IN_MATH:  # \left, \big, \displaystyle: nothing to show in text
        return [], end
    return [('unknown', name)], end


def _accent(s: str, i: int, mark: str, budget: Budget):
    """An accented letter (\\'e, \\"{o}, \\c{c}) as one character."""
    arg = _arg(s, i, budget, single=True)
    if arg is None:
        return [], i
    base = arg[0].strip()
    if base.startswith('\\'):  # \'{\i}
        base = TEXT_LETTERS.get(base[1:], base[1:])
    return [('text', unicodedata.normalize('NFC', base[:1] + ACCENTS[mark] + base[1:]))], arg[1]


def _citation(s: str, end: int, budget: Budget):
    """\\cite[pre][post]{keys} as '[Author Year; …]' (see citation_label)."""
    for _ in range(2):
        if label := _LABEL.match(s, end):
            end = label.end()
    keys = _arg(s, end, budget)
    return [('cite', citation_label(keys[0] if keys else ''))], keys[1] if keys else end


def _environment(s: str, name: str, end: int, depth: int, budget: Budget):
    """\\begin{equation}…\\end{equation} as display math; other environments' markers dropped."""
    arg = _arg(s, end, budget)
    if arg is None:
        return [], end
    env = arg[0].strip()
    if name == 'begin' and env in MATH_ENVIRONMENTS:
        closer = f'\\end{{{env}}}'
        j = s.find(closer, arg[1]) if budget.left > 0 else -1
        budget.left -= (j if j >= 0 else len(s)) - arg[1]
        if j >= 0:
            src = s[arg[1]:j] if env.rstrip('*') in ('equation', 'displaymath', 'math') else (
                f'\\begin{{aligned}}{s[arg[1]:j]}\\end{{aligned}}')
            return _math_tokens(src, True, depth, budget), j + len(closer)
    return [('text', ' ')] if env in _LIST_ENVIRONMENTS else [], arg[1]


def _unescape_url(url: str) -> str:
    """URL argument text with LaTeX escapes like `\\%` and `\\_` resolved."""
    return re.sub(r'\\([%#&_~$])', r'\1', url).strip()


def _html(toks: list, links: bool = True) -> str:
    """HTML for a token list; `links=False` inside link labels (no nested anchors)."""
    out = []
    for tok in toks:
        kind = tok[0]
        if kind == 'text':
            out.append(_html_text(tok[1], links))
        elif kind == 'unknown':
            out.append(html.escape(tok[1]))
        elif kind == 'cite':
            out.append(f'<span class="cite">{html.escape(tok[1])}</span>')
        elif kind == 'fmt':
            tag = _FORMAT[FONT_SWITCHES.get(tok[1], tok[1])]
            inner = _html(tok[2], links)
            out.append(f'<{tag}>{inner}</{tag.split()[0]}>' if tag else inner)
        elif kind == 'link':
            label = _html(tok[2], False) if tok[2] is not None else html.escape(tok[1])
            safe = links and _SAFE_URL.match(tok[1])
            out.append(f'<a href="{html.escape(tok[1])}">{label}</a>' if safe else label)
        elif tok[1].strip():
            out.append(math_html(tok[1], tok[2]))
    return ''.join(out)


def _html_text(s: str, links: bool) -> str:
    """Escaped text with typography applied and bare http(s) URLs turned into links."""
    if not links:
        return _emphasis_html(_typo(s))
    return ''.join(f'<a href="{html.escape(part)}">{html.escape(part)}</a>' if is_url
                   else _emphasis_html(_typo(part)) for is_url, part in _split_urls(s))


def _emphasis_html(s: str) -> str:
    """Escaped text with OpenReview's Markdown `*emphasis*` as <em>."""
    return _emphasis(html.escape(s), lambda m: f'<em>{m.group(1)}</em>')


def _split_urls(s: str) -> list:
    """Split text into (is_url, part) around bare http(s) URLs, leaving trailing punctuation as text."""
    out, pos = [], 0
    for m in _BARE_URL.finditer(s):
        url = m.group()
        while url[-1] in '.,;:!?\'"' or (url[-1] == ')' and url.count(')') > url.count('(')):
            url = url[:-1]
        if not url.endswith('://'):
            out += [(False, s[pos:m.start()]), (True, url)]
            pos = m.start() + len(url)
    return out + [(False, s[pos:])]


def _typo(s: str) -> str:
    """LaTeX text-mode ligatures: dashes, curly double quotes, no-break space."""
    for old, new in _TYPO:
        s = s.replace(old, new)
    return s


def _text(toks: list) -> str:
    """Plain Unicode text for a token list."""
    out = []
    for tok in toks:
        kind = tok[0]
        if kind == 'text':
            out.extend(part if is_url else _emphasis(_typo(part), r'\1')
                       for is_url, part in _split_urls(tok[1]))
        elif kind in ('unknown', 'cite'):
            out.append(tok[1])
        elif kind == 'fmt':
            out.append(_text(tok[2]))
        elif kind == 'link':
            out.append(tok[1] if tok[2] is None else _text(tok[2]))
        elif tok[1].strip():
            out.append(math_text(tok[1]))
    return ''.join(out)
