import random
import re

from factories import make_paper
from generator.search.terms import (FIELDS, NAME_FIELDS, document_terms, fold, index_text,
                                    paper_terms, search_texts, term)

NAMES = tuple(name in NAME_FIELDS for name, _ in FIELDS)


def test_index_text_drops_punctuation_and_latex_leftovers():
    assert index_text("(e.g., 10.5%) S3T -- LLaMA-2-7B") == "e g 10 5 S3T LLaMA 2 7B"


def test_index_text_keeps_runs_of_letters_and_digits_as_the_old_substitution_did():
    rng = random.Random(7)
    alphabet = "ab cdé_\t\n  x1-.,$\\{}*\u00a0\u2009ß日本"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert index_text(text) == " ".join(re.sub(r"[^\w]+|_+", " ", text).split())


def test_paper_terms_are_the_document_terms_of_its_search_texts():
    rng = random.Random(11)
    words = ["Learning", "the", "models", "LLaMA-2", "naïve", "ÜBER", "agents", "a", "x1", "ß", "日本",
             "running", "$\\alpha$", "e.g.,", "İstanbul", "--", "data"]
    for _ in range(500):
        def text(): return " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))
        paper = make_paper("p", title=text(), authors=(text(),), tags=[text() or "t"],
                           abstract_text=text(), notes_text=text())
        assert paper_terms(paper) == document_terms(search_texts(paper), NAMES)


def test_a_word_is_trimmed_stemmed_or_dropped_as_lunrs_pipeline_does():
    assert term("running") == "run" and term("the") is None
    assert term("models") == "model" and term("日本") == "日本"


def test_names_are_folded_and_kept_whole_neither_stemmed_nor_dropped():
    paper = make_paper("p", title="Running the models", authors=("Christopher Choy", "Kaiming He",
                       "Lenka Zdeborová", "A. Łukasz Møller"), tags=["web-agents"])
    title, authors, tags = paper_terms(paper)[:3]
    assert title[0] == "run model"
    assert authors[0] == "christopher choy kaiming he lenka zdeborova a lukasz moller"
    assert tags[0] == "web agents"


def test_fold_takes_accents_off():
    assert fold("Schölkopf Arandjelović Gabrié Straße") == "Scholkopf Arandjelovic Gabrie Strasse"
