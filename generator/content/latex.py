"""Render paper abstracts (plain text with inline LaTeX) to safe HTML and to clean plain text."""
import html
import itertools
import re

from latex2mathml.converter import convert_to_element
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import get_default_latex_context_db

_MAX_DEPTH = 24  # why: bounds recursion on pathological nesting like "{{{{…" or "$\text{$\text{…"

# macro name -> opening HTML tag ('' = no tag); every one takes one brace argument
_FORMAT = {
    'textbf': 'strong', 'mathbf': 'strong', 'textit': 'em', 'emph': 'em', 'textsl': 'em',
    'texttt': 'code', 'underline': 'u', 'textsc': 'span class="smallcaps"',
    'text': '', 'textrm': '', 'textsf': '', 'textup': '', 'textnormal': '', 'mbox': '',
}
# math segments made only of these are really text-mode formatting ("$\textbf{Lo}$w-rank")
_TEXT_ONLY = frozenset(_FORMAT) - {'mathbf', 'underline'}
_ESCAPES = {'%': '%', '&': '&', '_': '_', '#': '#', '$': '$', '{': '{', '}': '}',
            ' ': ' ', '\\': ' ', ',': '\u2009', ';': ' ', ':': ' ', '!': '', '-': '', '/': '', '@': ''}
_SYMBOLS = {'ldots': '…', 'dots': '…', 'LaTeX': 'LaTeX', 'TeX': 'TeX', 'textendash': '–', 'textemdash': '—'}
_TYPO = (('---', '—'), ('--', '–'), ('``', '“'), ("''", '”'), ('~', '\u00a0'))
_MATHML_TAGS = frozenset(
    'math mrow mi mn mo ms mtext mspace mfrac msqrt mroot msub msup msubsup munder mover munderover mtable '
    'mtr mtd mlabeledtr mstyle mpadded mphantom menclose merror mmultiscripts mprescripts none'.split())

_TEXT_RUN = re.compile(r'[^\\${}]+')
_WORD = re.compile(r'[A-Za-z]+')
_ASCII_SPACES = str.maketrans('\t\n\r\f\v', '     ')
_CONTROL = re.compile(r'[\x00-\x08\x0b\x0e-\x1f\x7f]')
_PARA = re.compile(r'\n[ \t\r\f\v]*\n')
_BARE_URL = re.compile(r'https?://[^\s<>"]+')
_SAFE_URL = re.compile(r'https?://[^\s<>"]+\Z', re.I)
_GROUP_MACRO = re.compile(r'\\([A-Za-z]+)\s*\{')
_TEXT_MACRO = re.compile(r'\s*\\([A-Za-z]+)\s*\{')
_LOOSE = re.compile(r'(\\.)|[$%]', re.S)
_NUM_REF = re.compile(r'&#(?:x[0-9a-fA-F]{1,6}|[0-9]{1,7});')
_ATTR_NAME = re.compile(r'[a-z][a-z-]*\Z')
# why: OpenReview renders abstracts as Markdown, so '*Shadow Attack*' means emphasis
_EMPHASIS = re.compile(r'(?<![\w*])\*(?=[^\s*])([^*]*?[^\s*])\*(?![\w*])')
_TO_TEXT = LatexNodes2Text()  # why: stateless between calls, and costly to make per math span
# why: a walker made without one builds pylatexenc's whole macro table again, per math span
_WALKER_MACROS = get_default_latex_context_db()
_MACRO_SLASH = re.compile(r'\\+(?=[A-Za-z])')


def abstract_to_html(text: str) -> str:
    """Safe HTML for an abstract: paragraphs, formatted text, MathML math, real links."""
    return render_abstract(text)[0]


def abstract_to_text(text: str) -> str:
    """Clean plain text (Unicode, no $ or backslash macros) for search indexes, feeds and excerpts."""
    return render_abstract(text)[1]


class _Budget:
    """How many more characters the scans for closing braces and dollars may read in one
    abstract. A scan that finds no closer reads to the end, and an unbalanced abstract ('{' or
    '${' ten thousand times) would scan again from every opener: seconds at 10 KB, minutes at
    100 KB. Once the budget is spent, every opener not yet closed is read as a plain character:
    the work stays linear in the abstract's length, and real abstracts never come near it."""

    def __init__(self, text: str) -> None:
        self.left = 20 * len(text or "") + 10_000


def render_abstract(text: str) -> tuple[str, str]:
    """The abstract as HTML and as plain text, from one parse of each paragraph."""
    budget = _Budget(text)
    parsed = [_parse(p, budget) for p in _paragraphs(text)]
    paras = (_html(toks).strip() for toks in parsed)
    # why: unknown macros stay visible in HTML, but plain text must not carry `\macro`
    texts = (' '.join(_without_macro_slashes(_text(toks)).split()) for toks in parsed)
    return ('\n'.join(f'<p>{p}</p>' for p in paras if p), '\n\n'.join(t for t in texts if t))


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


def _scan(s: str, i: int, closer: str, budget: _Budget | None = None) -> int:
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


def _arg(s: str, i: int, budget: _Budget):
    """The brace argument starting at i (after an optional space) as (content, end), or None."""
    i += s.startswith(' ', i)  # why: paragraphs are whitespace-collapsed, so at most one space
    j = _scan(s, i + 1, '}', budget) if s.startswith('{', i) else -1
    return (s[i + 1:j], j + 1) if j >= 0 else None


def _parse(s: str, budget: _Budget, depth: int = 0) -> list:
    """Tokens ('text'|'raw', s), ('fmt', macro, toks), ('link', url, toks|None), ('math', src, display)."""
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
        elif s[i] == '{' and (j := _scan(s, i + 1, '}', budget)) >= 0:
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


def _parse_dollar(s: str, i: int, depth: int, budget: _Budget):
    """Math opened by `$` or `$$` at i; an unclosed `$` is literal."""
    if s.startswith('$$', i):
        j = _scan(s, i + 2, '$$', budget)
        return ([('math', s[i + 2:j], True)], j + 2) if j >= 0 else ([('text', '$')], i + 1)
    j = _scan(s, i + 1, '$', budget)
    return ((_math_tokens(s[i + 1:j], False, depth, budget), j + 1) if j >= 0
            else ([('text', '$')], i + 1))


def _math_tokens(src: str, display: bool, depth: int, budget: _Budget) -> list:
    """A math token, or text tokens when the math only wraps text macros like \\textbf{…}."""
    i, seen = 0, False
    while not display and (m := _TEXT_MACRO.match(src, i)) and m.group(1) in _TEXT_ONLY:
        j = _scan(src, m.end(), '}', budget)
        if j < 0:
            break
        i, seen = j + 1, True
    if seen and not src[i:].strip():
        return _parse(src, budget, depth + 1)
    return [('math', src, display)]


def _parse_macro(s: str, i: int, depth: int, budget: _Budget):
    """The backslash construct at i: math delimiter, escape, symbol or (unknown) macro."""
    nxt = s[i + 1:i + 2]
    if nxt in ('(', '['):
        j = _scan(s, i + 2, '\\)' if nxt == '(' else '\\]', budget)
        if j >= 0:
            return _math_tokens(s[i + 2:j], nxt == '[', depth, budget), j + 2
    if nxt in _ESCAPES:
        return [('text', _ESCAPES[nxt])], i + 2
    m = _WORD.match(s, i + 1)
    if not m:
        return [('text', '\\' + nxt)], i + 1 + len(nxt)
    name, end = m.group(), m.end()
    arg = _arg(s, end, budget)
    if name in _FORMAT and arg:
        return [('fmt', name, _parse(arg[0], budget, depth + 1))], arg[1]
    if name == 'url' and arg:
        return [('link', _unescape_url(arg[0]), None)], arg[1]
    if name == 'href' and arg and (label := _arg(s, arg[1], budget)):
        return [('link', _unescape_url(arg[0]), _parse(label[0], budget, depth + 1))], label[1]
    if name in _SYMBOLS:
        return [('text', _SYMBOLS[name])], end
    return [('raw', '\\' + name)], end


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
        elif kind == 'raw':
            out.append(html.escape(tok[1]))
        elif kind == 'fmt':
            tag = _FORMAT[tok[1]]
            inner = _html(tok[2], links)
            out.append(f'<{tag}>{inner}</{tag.split()[0]}>' if tag else inner)
        elif kind == 'link':
            label = _html(tok[2], False) if tok[2] is not None else html.escape(tok[1])
            safe = links and _SAFE_URL.match(tok[1])
            out.append(f'<a href="{html.escape(tok[1])}">{label}</a>' if safe else label)
        else:
            out.append(_math_html(tok[1], tok[2]))
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


def _math_html(src: str, display: bool) -> str:
    """Sanitized MathML for a math source, or escaped source in <code> if conversion fails."""
    try:
        tree = convert_to_element(_prepare_math(src), display='block' if display else 'inline')
        return _mathml(tree)
    except Exception:  # why: latex2mathml raises many exception types on malformed input
        return f'<code class="tex">{html.escape(src)}</code>'


def _prepare_math(src: str) -> str:
    """Hoist nested math out of text groups (`\\textbf{2.60$\\times$}` -> `\\textbf{2.60} \\times `)."""
    out, pos = [], 0
    while m := _GROUP_MACRO.search(src, pos):
        j = _scan(src, m.end(), '}')
        parts = _split_dollars(src[m.end():j]) if j >= 0 else []
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


def _split_dollars(s: str) -> list:
    """Split at unescaped `$` at brace depth 0."""
    parts = []
    while (j := _scan(s, 0, '$')) >= 0:
        parts.append(s[:j])
        s = s[j + 1:]
    return parts + [s]


def _mathml(el) -> str:
    """Serialize a latex2mathml element tree, escaping all text and keeping safe tags/attributes only."""
    # why: latex2mathml.convert() unescapes its own output, so `$\text{<img>}$` would emit raw markup
    inner = _math_text_node(el.text) + ''.join(_mathml(c) + _math_text_node(c.tail) for c in el)
    if el.tag not in _MATHML_TAGS:
        return inner
    attrs = ''.join(f' {k}="{html.escape(v)}"' for k, v in el.attrib.items() if _safe_attr(k, v))
    return f'<{el.tag}{attrs}>{inner}</{el.tag}>'


def _math_text_node(s) -> str:
    """latex2mathml text (raw input plus numeric character references) as escaped HTML."""
    return html.escape(_NUM_REF.sub(lambda m: html.unescape(m.group()), s or ''))


def _safe_attr(name: str, value: str) -> bool:
    """Whether a MathML attribute is harmless (no handlers or styles; href only http(s))."""
    if not _ATTR_NAME.match(name) or name.startswith('on') or name == 'style':
        return False
    return name != 'href' or bool(_SAFE_URL.match(value.strip()))


def _text(toks: list) -> str:
    """Plain Unicode text for a token list."""
    out = []
    for tok in toks:
        kind = tok[0]
        if kind == 'text':
            out.extend(part if is_url else _emphasis(_typo(part), r'\1')
                       for is_url, part in _split_urls(tok[1]))
        elif kind == 'raw':
            out.append(tok[1])
        elif kind == 'fmt':
            out.append(_text(tok[2]))
        elif kind == 'link':
            out.append(tok[1] if tok[2] is None else _text(tok[2]))
        else:
            out.append(_math_text(tok[1]))
    return ''.join(out)


def _math_text(src: str) -> str:
    """Unicode approximation of a math source via pylatexenc; crude strip if that fails."""
    src = _prepare_math(src)
    try:
        # why: pylatexenc drops the contents of \texttt
        return _TO_TEXT.latex_to_text(src.replace('\\texttt', '\\textrm'), latex_context=_WALKER_MACROS)
    except Exception:  # why: pylatexenc raises on some macros (e.g. \href)
        return re.sub(r'\\[A-Za-z]+|[\\${}]', ' ', src)
