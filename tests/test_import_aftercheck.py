"""importers/aftercheck.py: the lines that define the undefined macros an import met."""

from generator.importers.aftercheck import macro_lines


def test_each_undefined_macro_gets_a_site_yaml_line_with_the_readers_guess_or_a_blank():
    assert macro_lines((("\\eps", 3), ("\\l", 1), ("\\poly", 1), ("\\cA", 1))) == [
        "eps: '\\epsilon'    # \\eps, in 3 papers: check this guess",
        "l: '\\left'    # \\l, in 1 paper: check this guess",
        "poly: '...'    # \\poly, in 1 paper: write its definition",
        "cA: '\\mathcal{A}'    # \\cA, in 1 paper: check this guess"]
