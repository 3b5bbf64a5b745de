"""Tests for generator.content.latex: abstract LaTeX -> safe HTML and plain text."""
import random
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

import generator.content.latexmath as latexmath_module
from generator.content.latex import (abstract_to_html, abstract_to_text, latex_findings, read_abstract,
                                    read_title, render_abstract)

DATA = Path(__file__).resolve().parent.parent / 'data' / 'iclr2025-abstracts.txt'
MATH = '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">'
ALLOWED_TAGS = {'p', 'strong', 'em', 'code', 'u', 'span', 'a', 'math', 'mrow', 'mi', 'mn', 'mo', 'ms',
                'mtext', 'mspace', 'mfrac', 'msqrt', 'mroot', 'msub', 'msup', 'msubsup', 'munder',
                'mover', 'munderover', 'mtable', 'mtr', 'mtd', 'mlabeledtr', 'mstyle', 'mpadded',
                'mphantom', 'menclose', 'merror', 'mmultiscripts', 'mprescripts', 'none'}


class _TagChecker(HTMLParser):
    """Records every tag and checks that start and end tags nest properly."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.tags, self.attrs, self.errors = [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_startendtag(self, tag, attrs):
        self.errors.append(f'self-closing <{tag}/>')

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(f'unbalanced </{tag}>')


def check_html(out: str) -> _TagChecker:
    """Parse output HTML and assert tags balance and only safe tags/attributes/links appear."""
    checker = _TagChecker()
    checker.feed(out)
    checker.close()
    assert not checker.errors and not checker.stack, (checker.errors, checker.stack, out)
    assert set(checker.tags) <= ALLOWED_TAGS, out
    for name, value in checker.attrs:
        assert not name.startswith('on') and name != 'style', out
        if name == 'href':
            assert re.match(r'https?://', value), out
    return checker


def data_abstracts() -> list:
    """The 19 abstracts of the data file (blank-line separated, after a header line)."""
    blocks = [b.strip() for b in DATA.read_text(encoding='utf-8').split('\n\n')]
    return [b for b in blocks[1:] if b]


# ---- examples from real abstracts

def test_html_renders_textbf_math_word_parts_as_bold_text():
    src = r'$\textbf{Lo}$w-rank $\textbf{S}$parse $\textbf{A}$daptation $\textbf{(LoSA)}$'
    assert abstract_to_html(src) == (
        '<p><strong>Lo</strong>w-rank <strong>S</strong>parse '
        '<strong>A</strong>daptation <strong>(LoSA)</strong></p>')
    assert abstract_to_text(src) == 'Low-rank Sparse Adaptation (LoSA)'


def test_html_renders_textbf_inside_math_as_bold():
    out = abstract_to_html(r'a $\textbf{2.60$\times$}$ speedup')
    assert out == '<p>a <strong>2.60<span class="math-symbol">×</span></strong> speedup</p>'


def test_html_renders_arrow_math_after_bold_number():
    out = abstract_to_html(r'by $\textbf{68.73}$$\downarrow$ and')
    assert out == '<p>by <strong>68.73</strong><span class="math-symbol">↓</span> and</p>'


def test_html_keeps_percent_between_math_literal():
    out = abstract_to_html(r'by $\textbf{16.32}$%$\uparrow$, achieving')
    assert out == '<p>by <strong>16.32</strong>%<span class="math-symbol">↑</span>, achieving</p>'


@pytest.mark.parametrize('src, expected', [
    (r'68.73$\downarrow$ and', '68.73<span class="math-symbol">↓</span> and'),
    (r'a 2.6$\times$ speedup', 'a 2.6<span class="math-symbol">×</span> speedup'),
    (r'71.2 $\pm$ 0.3', '71.2 <span class="math-symbol">±</span> 0.3'),
    (r'A $\rightarrow$ B', 'A <span class="math-symbol">→</span> B'),
    (r'$\approx$ 5 ms', '<span class="math-symbol">≈</span> 5 ms'),
])
def test_a_lone_math_symbol_is_text_without_operator_spacing(src, expected):
    assert abstract_to_html(src) == f'<p>{expected}</p>'


@pytest.mark.parametrize('src', [r'$x$', r'$\alpha$', r'$2$', r'$x \times y$', r'$$\downarrow$$'])
def test_a_variable_number_or_formula_stays_mathml(src):
    assert '<math' in abstract_to_html(src)


def test_text_converts_math_symbols_to_unicode():
    src = (r'by $\textbf{68.73}$$\downarrow$ and increased zero-shot accuracy by '
           r'$\textbf{16.32}$%$\uparrow$, achieving a $\textbf{2.60$\times$}$ speedup')
    assert abstract_to_text(src) == (
        'by 68.73↓ and increased zero-shot accuracy by 16.32%↑, achieving a 2.60× speedup')


def test_html_renders_text_mode_textbf_outside_math():
    src = r'GQT (\textbf{G}raph \textbf{Q}uantized \textbf{T}okenizer)'
    assert abstract_to_html(src) == (
        '<p>GQT (<strong>G</strong>raph <strong>Q</strong>uantized <strong>T</strong>okenizer)</p>')
    assert abstract_to_text(src) == 'GQT (Graph Quantized Tokenizer)'


def test_html_renders_href_as_link():
    src = r'at \href{https://github.com/limei0307/GQT}{https://github.com/limei0307/GQT}.'
    url = 'https://github.com/limei0307/GQT'
    assert abstract_to_html(src) == f'<p>at <a href="{url}">{url}</a>.</p>'
    assert abstract_to_text(src) == f'at {url}.'


def test_escaped_percent_becomes_percent_sign():
    assert abstract_to_html(r'4.8\% success rate') == '<p>4.8% success rate</p>'
    assert abstract_to_text(r'4.8\% success rate') == '4.8% success rate'


def test_double_dash_becomes_en_dash_and_triple_dash_em_dash():
    assert abstract_to_html('framework -- Sequence-aware') == '<p>framework – Sequence-aware</p>'
    assert abstract_to_text('(SFT)---where') == '(SFT)—where'


def test_html_renders_texttt_math_as_code():
    assert abstract_to_html(r'($\texttt{KOWCPI}$)') == '<p>(<code>KOWCPI</code>)</p>'
    assert abstract_to_text(r'($\texttt{KOWCPI}$)') == '(KOWCPI)'


def test_html_links_bare_url_without_trailing_period():
    url = 'https://github.com/wzhuang-xmu/LoSA'
    out = abstract_to_html(f'Code is available at {url}.')
    assert out == f'<p>Code is available at <a href="{url}">{url}</a>.</p>'
    assert abstract_to_text(f'Code is available at {url}.') == f'Code is available at {url}.'


def test_html_bare_url_keeps_balanced_parens_and_drops_unbalanced():
    url = 'https://en.wikipedia.org/wiki/Foo_(bar)'
    assert abstract_to_html(f'see ({url}).') == f'<p>see (<a href="{url}">{url}</a>).</p>'


def test_bare_url_keeps_double_dash_and_tilde():
    url = 'https://example.org/~me/a--b'
    assert abstract_to_html(f'{url} a--b') == f'<p><a href="{url}">{url}</a> a–b</p>'
    assert abstract_to_text(f'{url} a--b') == f'{url} a–b'


# ---- formatting, escapes and typography

@pytest.mark.parametrize('src, expected', [
    (r'\textit{a} \emph{b}', '<em>a</em> <em>b</em>'),
    (r'\texttt{c} \underline{d}', '<code>c</code> <u>d</u>'),
    (r'\textsc{e} \mathbf{f}', '<span class="smallcaps">e</span> <strong>f</strong>'),
    (r'\textbf{a \emph{b \$1}}', '<strong>a <em>b $1</em></strong>'),
    (r'\& \_ \# \{ \}', '&amp; _ # { }'),
    ("``quoted'' a~b", '“quoted” a\u00a0b'),
    (r'\emph{$\alpha$-stable}', f'<em>{MATH}<mrow><mi>α</mi></mrow></math>-stable</em>'),
])
def test_html_formats_text_macros(src, expected):
    assert abstract_to_html(src) == f'<p>{expected}</p>'


def test_text_drops_formatting_and_resolves_escapes():
    assert abstract_to_text(r"\textit{a} \& \texttt{b}~c ``d''") == 'a & b c “d”'


def test_html_shows_unknown_macro_as_its_name_and_notes_it():
    reading = read_abstract(r'see \foo{bar} <now>')
    assert reading.html == '<p>see foobar &lt;now&gt;</p>'
    assert reading.unknown_macros == ('\\foo',)


def test_text_drops_backslash_of_unknown_macro():
    assert abstract_to_text(r'see \foo bar') == 'see foo bar'


def test_html_renders_non_http_href_as_label_only():
    assert abstract_to_html(r'\href{javascript:alert(1)}{click}') == '<p>click</p>'
    assert abstract_to_html(r'\href{ftp://x.org}{x}') == '<p>x</p>'
    assert abstract_to_html(r'\url{javascript:alert(1)}') == '<p>javascript:alert(1)</p>'


def test_html_renders_url_macro_with_latex_escapes():
    assert abstract_to_html(r'\url{https://x.org/a\_b\%20}') == (
        '<p><a href="https://x.org/a_b%20">https://x.org/a_b%20</a></p>')


def test_html_does_not_nest_links_in_href_label():
    out = abstract_to_html(r'\href{https://a.org}{see https://b.org}')
    assert out == '<p><a href="https://a.org">see https://b.org</a></p>'


def test_unclosed_dollar_is_literal():
    assert abstract_to_html('costs $5 and more') == '<p>costs $5 and more</p>'
    assert abstract_to_text('costs $5 and more') == 'costs $5 and more'


def test_unbalanced_braces_and_trailing_backslash_are_literal():
    assert abstract_to_html('a } b {c\\') == '<p>a } b {c\\</p>'
    assert abstract_to_html('{a} {b') == '<p>a {b</p>'


def test_math_segment_ends_at_first_dollar_at_brace_depth_zero():
    out = abstract_to_html(r'$x = \textbf{a$y^2$}$ end')
    assert out == (f'<p>{MATH}<mrow><mi>x</mi><mo>=</mo><mtext mathvariant="bold">a</mtext>'
                   '<msup><mi>y</mi><mn>2</mn></msup></mrow></math> end</p>')


def test_html_renders_display_and_paren_math():
    out = abstract_to_html(r'$$\frac{a}{b}$$ and \(x_i\) and \[y\]')
    assert out.count('display="block"') == 2
    assert '<mfrac>' in out and '<msub><mi>x</mi><mi>i</mi></msub>' in out
    assert abstract_to_text(r'$$\frac{a}{b}$$ and \(x_i\)') == 'a/b and xᵢ'


def test_html_falls_back_to_code_when_latex2mathml_fails():
    assert abstract_to_html('$a^$ <b>') == '<p><code class="tex">a^</code> &lt;b&gt;</p>'
    assert abstract_to_text('$a^$') == 'a^'


def test_percent_inside_math_is_not_a_comment():
    assert abstract_to_html('$16%+1$') == (
        f'<p>{MATH}<mrow><mn>16</mn><mi>%</mi><mo>+</mo><mn>1</mn></mrow></math></p>')
    assert abstract_to_text('$16%+1$') == '16%+1'


def test_paragraphs_split_on_blank_lines_and_newlines_become_spaces():
    src = 'first\nline\n\n  \n\nsecond $x$\r\n\r\nthird'
    assert abstract_to_html(src) == (
        f'<p>first line</p>\n<p>second {MATH}<mrow><mi>x</mi></mrow></math></p>\n<p>third</p>')
    assert abstract_to_text(src) == 'first line\n\nsecond x\n\nthird'


def test_empty_input_gives_empty_output():
    assert abstract_to_html('') == '' and abstract_to_text('  \n\n ') == ''


# ---- security

@pytest.mark.parametrize('src', [
    '$<script>alert(1)</script>$',
    r'$\text{<img src=x onerror=alert(1)>}$',
    r'$x + \text{<img src=x onerror=alert(1)>}$',
    r'$\href{javascript:alert(1)}{x}$',
    r'$\textcolor{red" onclick="alert(1)}{x}$',
    r'$\mathrm{"&<>}$ <b onclick="x">&amp;</b>',
    r'\href{https://x.org/"><script>}{<i>}',
    r'\textbf{<script>}',
])
def test_html_never_passes_markup_from_input(src):
    out = abstract_to_html(src)
    check_html(out)
    assert '<script' not in out and '<img' not in out and '<i>' not in out and 'javascript:' not in out


def test_html_mathml_text_is_escaped():
    out = abstract_to_html(r'$a & b$')
    assert '<mi>&amp;</mi>' in out


def test_html_mathml_keeps_http_href_only():
    assert 'href="https://a.org"' in abstract_to_html(r'$\href{https://a.org}{x}$')
    assert 'href' not in abstract_to_html(r'$\href{javascript:alert(1)}{x}$')


# ---- real data and robustness

@pytest.mark.parametrize('abstract', data_abstracts())
def test_data_abstract_renders_without_latex_leftovers(abstract):
    for out in (abstract_to_html(abstract), abstract_to_text(abstract)):
        assert '$' not in out
        for macro in (r'\textbf', r'\href', r'\texttt', r'\downarrow', r'\%', '\\'):
            assert macro not in out
    check_html(abstract_to_html(abstract))
    assert '\n' not in abstract_to_text(abstract)


def test_data_file_has_19_abstracts():
    assert len(data_abstracts()) == 19


def test_data_abstract_links_and_dashes():
    html_out = abstract_to_html('\n\n'.join(data_abstracts()))
    assert '<a href="https://github.com/limei0307/GQT">https://github.com/limei0307/GQT</a>.' in html_out
    assert '<a href="https://kuis-ai.github.io/track_on">' in html_out
    assert 'framework – Sequence-aware' in html_out and '(SFT)—where' in html_out
    assert html_out.count('<p>') == 19


def test_fuzzed_inputs_never_raise_and_stay_safe():
    rng = random.Random(20250101)
    atoms = ['$', '$$', '\\', '{', '}', '%', '&', '<', '>', '"', "'", '~', '-', '--', ' ', '\n', '\n\n',
             'a', 'x^', '_', r'\textbf', r'\href', r'\url', r'\foo', r'\(', r'\)', r'\[', r'\]', r'\frac',
             'http://', 'https://x.org/', 'javascript:', '<script>', 'onerror=', '\x00', '``', "''", '#']
    for _ in range(400):
        src = ''.join(rng.choice(atoms) for _ in range(rng.randint(0, 40)))
        html_out, text_out = abstract_to_html(src), abstract_to_text(src)
        check_html(html_out)
        assert '<script' not in html_out and '\x00' not in html_out
        assert isinstance(text_out, str) and not re.search(r'\\[A-Za-z]', text_out)
        assert abstract_to_html(src) == html_out  # deterministic


def test_pathological_nesting_does_not_raise():
    for src in ('{' * 3000, '{' * 500 + 'x' + '}' * 500, '$' + '{' * 500 + '$', r'$\text{$' * 200,
                '$' + r'\operatorname{' * 600 + 'x' + '}' * 600 + '$',
                '$' * 1001, '\\' * 999, None):
        check_html(abstract_to_html(src))
        abstract_to_text(src)


def test_html_renders_openreview_markdown_emphasis():
    assert abstract_to_html("two attacks: *Shadow Attack* and 2*3*4") == (
        "<p>two attacks: <em>Shadow Attack</em> and 2*3*4</p>")


def test_text_drops_markdown_emphasis_stars():
    assert abstract_to_text("the *Outlier Attack* and a * b") == "the Outlier Attack and a * b"


_MIXED = "ab cdé_\t\n\r\f\v  x1-.,$\\{}**\u00a0\u2009ß日本"


@pytest.mark.parametrize("seed", range(3))
def test_the_quick_text_helpers_give_what_their_regex_substitutions_give(seed):
    from generator.content import latex
    rng = random.Random(seed)
    for _ in range(3000):
        text = "".join(rng.choice(_MIXED) for _ in range(rng.randint(0, 40)))
        assert latex._one_space(text) == re.sub(r"[ \t\n\r\f\v]+", " ", text)
        assert latex._without_macro_slashes(text) == latex._MACRO_SLASH.sub("", text)
        assert latex._emphasis(text, r"<\1>") == latex._EMPHASIS.sub(r"<\1>", text)


@pytest.mark.parametrize("src", ["{" * 100_000, "${" * 50_000, "\\(" * 50_000, "{\\em ${\\(" * 15_000,
                                 "\\textbf{" * 12_500])
def test_an_unbalanced_abstract_of_100_kb_is_read_in_linear_work(src, monkeypatch):
    scanned, real = [], latexmath_module.scan

    def counting(s, i, closer, budget=None):
        before = budget.left if budget else 0
        j = real(s, i, closer, budget)
        scanned.append(before - budget.left if budget else 0)  # what the scan read
        return j

    monkeypatch.setattr(latexmath_module, "scan", counting)
    html, _ = render_abstract(src)
    # why: before the budget, every opener scanned to the end: ~n²/2 characters (~400 s)
    assert sum(scanned) <= 21 * len(src) + 10_000
    check_html(html)


@pytest.mark.parametrize("src", ["$" + "\\frac{" * 1000 + "x" + "}{y}" * 1000 + "$",
                                 "$" + "\\a{" * 3000 + "}" * 3000 + "$",
                                 "$" + "\\text{$x$" * 1500 + "}" * 1500 + "$",
                                 "$" + "\\mathbf{" * 1000 + "$", "$" + "\\sqrt{" * 1000 + "$",
                                 "$" + "\\operatorname{" * 1000 + "x" + "}" * 1000 + "$"])
def test_nested_groups_in_math_are_read_in_linear_work(src, monkeypatch):
    read, real = [], latexmath_module.scan

    def counting(s, i, closer, budget=None):
        before = budget.left if budget else 0
        j = real(s, i, closer, budget)
        # why: what it read: taken from its budget, or to its closer (or the end) without one
        read.append(before - budget.left if budget else (j if j >= 0 else len(s)) - i)
        return j

    monkeypatch.setattr(latexmath_module, "scan", counting)
    html, _ = render_abstract(src)
    # why: hoisting math out of groups scanned each group to its end with no budget: 30 KB of
    # '\\frac{' took 42 s; now the scans of each reading share one budget (see latexmath.Budget)
    assert sum(read) <= 100 * len(src) + 60_000
    check_html(html)


def test_a_real_abstract_is_read_whole_however_many_groups_it_has():
    src = " ".join(f"Term {n} is $x_{{{n}}}$ in {{\\em group {n}}}." for n in range(400))
    html, text = render_abstract(src)
    assert "{" not in text and "$" not in text and "group 399" in text


# ---- real NeurIPS 2018 titles and abstracts: what a reader sees, never a backslash

MI = '<mi mathvariant="normal">'


def test_title_math_renders_as_mathml_and_plain_unicode():
    reading = read_title(r'$\ell_1$-regression with Heavy-tailed Distributions')
    assert reading.html == (f'{MATH}<mrow><msub><mi>ℓ</mi><mn>1</mn></msub></mrow></math>'
                            '-regression with Heavy-tailed Distributions')
    assert reading.text == 'ℓ₁-regression with Heavy-tailed Distributions'


@pytest.mark.parametrize('title, text', [
    (r'Streaming Kernel PCA with $\tilde{O}(\sqrt{n})$ Random Features',
     'Streaming Kernel PCA with Õ(√n) Random Features'),
    (r'Distributed $k$-Clustering for Data with Heavy Noise',
     'Distributed k-Clustering for Data with Heavy Noise'),
    (r'Revisiting $(\epsilon, \gamma, \tau)$-similarity learning for domain adaptation',
     'Revisiting (ϵ, γ, τ)-similarity learning for domain adaptation'),
    (r'Thwarting Adversarial Examples: An $L_0$-Robust Sparse Fourier Transform',
     'Thwarting Adversarial Examples: An L₀-Robust Sparse Fourier Transform'),
    ('稀疏注意力的 $k$ 近邻', '稀疏注意力的 k 近邻'),
])
def test_title_plain_text(title, text):
    assert read_title(title).text == text


def test_title_has_no_paragraph_and_no_links():
    assert read_title('See https://x.org and \\url{https://y.org}').html == (
        'See https://x.org and https://y.org')


@pytest.mark.parametrize('src, expected', [
    (r'fully specified {\it a priori}, which', 'fully specified <em>a priori</em>, which'),
    (r'also known as {\em the hashing trick}, was', 'also known as <em>the hashing trick</em>, was'),
    (r'provide some {\it \textbf{physics}} insights', 'provide some <em><strong>physics</strong></em> insights'),
    (r'{\bf 1}\{y\} and {\sc Lin} and {\tt code}',
     '<strong>1</strong>{y} and <span class="smallcaps">Lin</span> and <code>code</code>'),
    (r'stochastic {\underline b}andits', 'stochastic <u>b</u>andits'),
])
def test_old_font_switches_render_as_their_modern_forms(src, expected):
    assert abstract_to_html(src) == f'<p>{expected}</p>'


@pytest.mark.parametrize('src, expected', [
    (r'the recent works of \cite{zaslavskiy2009path,Vestner2017} we',
     'the recent works of [Zaslavskiy 2009; Vestner 2017] we'),
    (r'Gradient Principle~\citep{Griewank:2008:EDP:1455489} --- the',
     'Gradient Principle [Griewank 2008] — the'),
    (r'proposed in Blum et al.~\cite{BHPQ17}, in which', 'proposed in Blum et al. [citation], in which'),
    (r'on \FW \cite{AW17,ALLW18}.', 'on FW [2 citations].'),
    (r'\citet[see][p.~3]{Reid2015,RS13}', '[Reid 2015; and 1 more]'),
])
def test_citations_show_authors_and_years_the_keys_show(src, expected):
    assert abstract_to_text(src) == expected


def test_no_break_space_stays_in_html():
    assert abstract_to_html(r'Blum et al.~\cite{BHPQ17}') == (
        '<p>Blum et al.\u00a0<span class="cite">[citation]</span></p>')


def test_citation_html_is_an_unlinked_span():
    assert abstract_to_html(r'see \cite{Vestner2017}') == (
        '<p>see <span class="cite">[Vestner 2017]</span></p>')


@pytest.mark.parametrize('src, expected', [
    (r'matching polytopes (\eg, doubly stochastic', 'matching polytopes (e.g., doubly stochastic'),
    (r'\ie the mean \wrt the data, Smith \etal', 'i.e. the mean w.r.t. the data, Smith et al.'),
    (r'for any $\epsilon$ and \epsilon, \delta and \Omega', 'for any ϵ and ϵ, δ and Ω'),
    (r'satisfied Polyak-\L{}ojasiewicz condition', 'satisfied Polyak-Łojasiewicz condition'),
    (r'e.g. Polyak-\L ojasiewicz and Erd\H{o}s and G\"odel and \'{e}t\'e',
     'e.g. Polyak-Łojasiewicz and Erdős and Gödel and été'),
    (r'the output of \SI{1}{\metre} long', 'the output of 1 m long'),
    (r'We show that \begin{itemize} \item Provided the chain', 'We show that • Provided the chain'),
    (r'a minimizer\footnote{Following \citet{raginsky2017non}, it is}.',
     'a minimizer (Following [Raginsky 2017], it is).'),
    (r'estimator with n\sqrt{\log n} samples', 'estimator with n√(log n) samples'),
])
def test_text_spells_out_abbreviations_symbols_and_letters(src, expected):
    assert abstract_to_text(src) == expected


@pytest.mark.parametrize('src, expected', [
    (r'3\texttimes{} faster', '3× faster'),
    (r'a 5\textmu m grid at 90\textdegree{} and 37\textcelsius', 'a 5µm grid at 90° and 37℃'),
    (r'accuracy \textpm 2\%, \textonehalf{} of \textperthousand', 'accuracy ±2%, ½ of ‰'),
    (r'\textquotedblleft ours\textquotedblright{} \textrightarrow{} \textsection 3',
     '“ours” → §3'),
    (r'a \SI{105}{\micro\metre} fibre, \SI{3}{\giga\hertz}', 'a 105 µm fibre, 3 GHz'),
])
def test_textcomp_symbols_are_known_text_not_unknown_macros(src, expected):
    reading = read_abstract(src)
    assert (reading.text, reading.unknown_macros) == (expected, ())


def test_unknown_math_macros_become_upright_names_or_best_guesses():
    reading = read_abstract(r'in time $\otilde(nd + r(s + \sqrt{r s}) / \gap^2)$')
    assert reading.unknown_macros == ('\\gap', '\\otilde')
    assert f'<msup>{MI}gap</mi><mn>2</mn></msup>' in reading.html
    assert '<mover><mrow><mi>O</mi></mrow><mo stretchy="false">~</mo></mover>' in reading.html
    assert reading.text == 'in time Õ(nd + r(s + √(r s)) / gap²)'


@pytest.mark.parametrize('src, text, unknown', [
    (r'regret $\tlO(\sqrt{H^3 SAT})$', 'regret Õ(√(H³ SAT))', ('\\tlO',)),
    (r'point $\x$ such that', 'point 𝐱 such that', ('\\x',)),
    (r'matrix $\mat{A} \in \R^{n \times d}$', 'matrix 𝐀 ∈ ℝ^n × d', ('\\R', '\\mat')),
    (r'$y_0 \in \Rn$ and $\norm{F-f}_{\infty}$', 'y₀ ∈ ℝⁿ and ‖F-f‖_∞', ('\\Rn', '\\norm')),
    (r'we modify \libjpeg to produce', 'we modify libjpeg to produce', ('\\libjpeg',)),
])
def test_author_macros_are_guessed_or_named_and_noted(src, text, unknown):
    reading = read_abstract(src)
    assert (reading.text, reading.unknown_macros) == (text, unknown)
    assert not re.search(r'\\[A-Za-z]', re.sub('<[^>]+>', '', reading.html))


def test_unknown_macro_warning_names_them_once_for_all_fields():
    readings = {'title': read_title(r'Faster $\otilde$'), 'abstract': read_abstract(r'$\otilde(1/\gap^2)$')}
    assert latex_findings(readings) == [('title', r'unknown LaTeX macros \gap, \otilde shown as their names')]
    assert latex_findings({'abstract': read_abstract(r'$\gap$')}) == [
        ('abstract', r'unknown LaTeX macro \gap shown as its name')]


def test_unclosed_dollar_is_closed_at_the_end_of_the_paragraph():
    reading = read_abstract('than the ambient dimension, i.e., $m\n\nNext paragraph $x$.')
    assert reading.html == (f'<p>than the ambient dimension, i.e., {MATH}<mrow><mi>m</mi></mrow></math></p>\n'
                            f'<p>Next paragraph {MATH}<mrow><mi>x</mi></mrow></math>.</p>')
    assert reading.unclosed_dollars == 1
    assert latex_findings({'abstract': reading})[0][1].startswith('1 unbalanced $ in the abstract')


def test_math_with_a_lost_dollar_ends_before_the_prose_it_would_swallow():
    src = (r'we derive a $O(D^c \sqrt{\Gamma^c S^c A T}) regret bound, where $D^c$ is the '
           r'diameter, and $A$ actions.')
    reading = read_abstract(src)
    assert reading.text == 'we derive a O(D^c √(Γ^c S^c A T)) regret bound, where D^c is the diameter, and A actions.'
    assert reading.unclosed_dollars == 1


def test_math_with_unbalanced_braces_ends_at_its_dollar():
    reading = read_abstract(r'error of $\epsilon$ is $\widetilde{O(m/\epsilon^2)$, whereas $\Omega(d)$ samples')
    assert reading.text == 'error of ϵ is O(m/ϵ²), whereas Ω(d) samples'
    assert reading.unclosed_dollars == 0


def test_display_math_environment_outside_dollars():
    out = abstract_to_html(r'then \begin{equation*}\Pr[x] \geq 1-\delta\end{equation*} holds')
    assert out.startswith('<p>then <math xmlns="http://www.w3.org/1998/Math/MathML" display="block">')
    assert out.endswith('</math> holds</p>')
