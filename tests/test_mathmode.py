"""model/mathmode.py: math written outside `$…$` in a title, found and put in math."""

import pytest

from generator.model.mathmode import math_in_math, math_outside_math


@pytest.mark.parametrize("tex, in_math", [
    (r"\ell_1-regression", r"$\ell_1$-regression"),
    (r"with \beta-Divergences", r"with $\beta$-Divergences"),
    (r"PCA with \tilde{O}(\sqrt{n}) Features", r"PCA with $\tilde{O}(\sqrt{n})$ Features"),
    (r"Revisiting (\epsilon, \gamma, \tau)-similarity",
     r"Revisiting $(\epsilon, \gamma, \tau)$-similarity"),
    (r"than \mathcal{O}(1/\varepsilon): A", r"than $\mathcal{O}(1/\varepsilon)$: A"),
    (r"$\alpha$ and \beta^{2}_i x", r"$\alpha$ and $\beta^{2}_i$ x"),
    (r"(see \cite{x}) (\alpha)", r"(see \cite{x}) $(\alpha)$"),
])
def test_math_outside_math_is_put_in_dollars(tex, in_math):
    assert math_in_math(tex) == in_math
    assert math_outside_math(tex) and not math_outside_math(in_math)


@pytest.mark.parametrize("tex", [
    r"Caf\'e \"{o} {\bf x} \textbf{y} \emph{z} \texttimes{} \ss",  # text mode's own commands
    r"An L_0-Robust Transform",  # no command: the reader shows it as written
    r"Costs \$5 and $x$",
    r"Costs $5 and \alpha",  # the $ do not pair: which one opens math is a guess
    r"$$x \alpha$$ and text",
])
def test_text_and_math_already_in_math_are_kept(tex):
    assert math_in_math(tex) == tex
