import random
import re

from generator.terms import index_text


def test_index_text_drops_punctuation_and_latex_leftovers():
    assert index_text("(e.g., 10.5%) S3T -- LLaMA-2-7B") == "e g 10 5 S3T LLaMA 2 7B"


def test_index_text_keeps_runs_of_letters_and_digits_as_the_old_substitution_did():
    rng = random.Random(7)
    alphabet = "ab cdé_\t\n  x1-.,$\\{}*\u00a0\u2009ß日本"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert index_text(text) == " ".join(re.sub(r"[^\w]+|_+", " ", text).split())
