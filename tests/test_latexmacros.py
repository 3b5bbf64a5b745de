"""content/latexmacros.py: the digest's own macros expanded, as \\newcommand would."""

from generator.content.latexmacros import arity, expand_macros

MACROS = {"eps": r"\varepsilon", "cA": r"\mathcal{A}", "cS": r"\cA_s",
          "norm": r"\left\lVert #1 \right\rVert", "ip": r"\langle #1, #2 \rangle"}


def test_a_macro_is_its_definition_with_its_arguments_in_place():
    assert expand_macros(r"$\eps$-DP, $\norm{x_1}_2 \le \ip{a}{\cA}$, $\norm x$", MACROS) == (
        r"$\varepsilon$-DP, $\left\lVert x_1 \right\rVert_2 \le \langle a, \mathcal{A} \rangle$, "
        r"$\left\lVert x \right\rVert$")


def test_macros_defined_with_macros_expand_and_other_commands_are_left_alone():
    assert expand_macros(r"$\cS \epsilon \epsx \\eps$", MACROS) == (
        r"$\mathcal{A}_s \epsilon \epsx \\eps$")


def test_a_call_missing_its_arguments_is_left_as_written():
    assert expand_macros(r"$\ip{a}$ and \norm", MACROS) == r"$\ip{a}$ and \norm"


def test_mutually_defined_macros_stop_growing():
    text = expand_macros(r"\a", {"a": r"\b\b", "b": r"\a\a"})
    assert len(text) < 4 * 2 + 10_000 + 10


def test_arity_is_the_highest_parameter():
    assert (arity(r"\varepsilon"), arity("#2 and #1"), arity("#1#1")) == (0, 2, 1)
