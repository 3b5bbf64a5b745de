"""What the search worker ranks first on small crafted digests (run in node with lunr.js and our
scripts, tests/js/rank_answers.js): a typo beside a right word, a rare word beside a common
one, author names as names."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from factories import make_paper
from generator.search.index import build_index
from generator.search.packed import pack

RANK = Path(__file__).parent / "js/rank_answers.js"


def answers(tmp_path: Path, papers: list, queries: list[str]) -> list[dict]:
    """For each query, the refs (paper positions) in the worker's order and what it searched."""
    (tmp_path / "packed.json").write_text(json.dumps(pack(build_index(tuple(papers)))), encoding="utf-8")
    (tmp_path / "queries.json").write_text(json.dumps(queries), encoding="utf-8")
    done = subprocess.run(["node", str(RANK), str(tmp_path / "packed.json"), str(tmp_path / "queries.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def video_papers() -> list:
    return [make_paper(str(i), title=f"Video {topic} with Video Transformers",
                       abstract_text=f"We study video {topic} of video clips.")
            for i, topic in enumerate(["Prediction", "Captioning", "Synthesis", "Retrieval Models"])]


# --- a typo next to a right word --------------------------------------------------------------

def test_a_typo_beside_a_right_word_is_corrected(tmp_path):
    papers = video_papers() + [make_paper("inpaint", title="Deep Flow-Guided Video Inpainting",
                                          abstract_text="We fill missing regions of frames.")]
    found = answers(tmp_path, papers, ["video inpaintng", "inpaintng video"])
    for reply in found:
        assert reply["refs"][0] == 4, reply
    assert found[0]["searched"] == "video *inpainting*"


def test_retrieval_augmented_is_found_through_its_typo(tmp_path):
    papers = [make_paper(str(i), title=f"Data Augmentation for {t}", abstract_text="Augmentation helps.")
              for i, t in enumerate(["Vision", "Speech", "Text"])]
    papers.append(make_paper("rag", title="Retrieval-Augmented Generation for Question Answering",
                             abstract_text="A retriever feeds the generator."))
    reply = answers(tmp_path, papers, ["retreival augmented"])[0]
    assert reply["refs"][0] == 3
    assert reply["searched"] == "*retrieval* augmented"


def test_a_word_the_index_has_is_never_corrected(tmp_path):
    papers = [make_paper("0", title="Models of Retrieval"), make_paper("1", title="Models of Retrieva")]
    assert answers(tmp_path, papers, ["retrieval models"])[0]["searched"] is None


def test_a_long_word_is_corrected_two_edits_away(tmp_path):
    papers = [make_paper("0", title="Hamiltonian Monte Carlo"), make_paper("1", title="Graph Networks")]
    long, short = answers(tmp_path, papers, ["hamilotnain", "grpah netwroks"])
    assert long["refs"] == [0] and long["searched"] == "*hamiltonian*"
    assert short["refs"] == [1] and short["searched"] == "*graph* *networks*"


# --- a rare word beside a common one ----------------------------------------------------------

def test_the_only_paper_with_every_word_comes_first(tmp_path):
    papers = [make_paper(str(i), title=f"{kind} Regression", abstract_text=f"{kind} regression, regression.")
              for i, kind in enumerate(["Linear", "Logistic", "Ridge", "Kernel", "Isotonic", "Poisson"])]
    papers.append(make_paper("tukey", title="Dimensionality Reduction for Tukey Regression",
                             abstract_text="We reduce dimensions for M-estimators such as Tukey's loss."))
    papers.append(make_paper("tukey-only", title="Tukey Depth", abstract_text="Depth of points."))
    reply = answers(tmp_path, papers, ["tukey regression"])[0]
    assert reply["refs"][0] == 6
    assert set(reply["refs"]) == set(range(8))


def test_more_of_the_words_rank_before_fewer_whatever_the_scores(tmp_path):
    papers = [make_paper("0", title="Sparse Sparse Sparse", abstract_text="sparse"),
              make_paper("1", title="A long title about sparse graph kernels for molecules",
                         abstract_text="sparse graph kernels")]
    assert answers(tmp_path, papers, ["sparse graph kernels"])[0]["refs"] == [1, 0]


# --- names as names ---------------------------------------------------------------------------

def name_papers() -> list:
    choi = [make_paper(f"choi{i}", title=f"Paper {i} on Scene Graphs", authors=("Jaesik Choi", "Ada Lovelace"))
            for i in range(4)]
    return choi + [
        make_paper("choy", title="Fully Convolutional Geometric Features", authors=("Christopher Choy", "Jaesik Park")),
        make_paper("christopher", title="Scene Graphs Again", authors=("Christopher Bishop",)),
        make_paper("accents", title="Spin Glasses", authors=("Lenka Zdeborová", "Kaiming He"),
                   tags=["statistical-physics"]),
    ]


def test_choy_finds_choy_and_not_choi(tmp_path):
    found = answers(tmp_path, name_papers(), ["choy", "author:choy", "choi"])
    assert found[0]["refs"] == [4] and found[1]["refs"] == [4]
    assert sorted(found[2]["refs"]) == [0, 1, 2, 3]


def test_a_full_name_puts_the_author_first(tmp_path):
    found = answers(tmp_path, name_papers(), ["Christopher Choy", 'author:"Christopher Choy"'])
    assert found[0]["refs"][0] == 4
    assert found[1]["refs"][0] == 4


def test_names_are_found_with_or_without_accents_and_stop_words(tmp_path):
    found = answers(tmp_path, name_papers(), ["zdeborova", "Zdeborová", "author:he", "Kaiming He"])
    assert [f["refs"] for f in found] == [[6], [6], [6], [6]]


def test_tags_are_names_too(tmp_path):
    found = answers(tmp_path, name_papers(), ["tag:statistical-physics", "tag:physics"])
    assert found[0]["refs"] == [6] and found[1]["refs"] == [6]
