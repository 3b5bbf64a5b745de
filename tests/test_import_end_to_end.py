"""`build.py import` end to end, with the real format readers: every saved source into an
empty digest, built, imported again and again with --update; and the same paper from two
sources in one run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from factories import REPO
from generator.cli import main

FIXTURES = Path(__file__).resolve().parent / "import_fixtures"

CREATED = {
    "zotero.bib": ["counterfactual-generative-modeling-with-variational-causal", "sslam"],
    "dblp.bib": ["counterfactual-generative-modeling-with-variational-causal", "promptriever",
                 "towards-scalable-exact-machine-unlearning-using-parameter"],
    "scholar.bib": ["promptriever", "towards-scalable-exact-machine-unlearning-using-parameter"],
    "scholar-export.txt": ["promptriever",
                           "towards-scalable-exact-machine-unlearning-using-parameter"],
    "arxiv.bib": ["sslam"],
    "openreview.bib": ["counterfactual-generative-modeling-with-variational-causal"],
    "arxiv-query.xml": ["counterfactual-generative-modeling-with-variational-causal",
                        "promptriever"],
    "openreview-v1.json": ["promptriever",
                           "towards-scalable-exact-machine-unlearning-using-parameter"],
    "openreview-v2.json": ["agentoccam", "dynamic-low-rank-sparse-adaptation-for-large-language-models",
                           "support-is-all-you-need-for-certified-vae-training", "track-on"],
    "zotero-csl.json": ["a-paper-by-an-institution-and-a-von", "long-context-llms-meet-rag"],
    "zotero-export.bib": ["a-paper-by-an-institution-and-a-von", "long-context-llms-meet-rag"],
    "doi-csl.json": ["adversarial-attacks-on-data-attribution"],
    "crossref.json": ["variance-reducing-couplings-for-random-features"],
}
"""Each saved source (the format told by its content: zotero-export.bib holds CSL-JSON) and
the paper files it makes in an empty digest."""


def empty_digest(root: Path) -> Path:
    """A content folder with the shipped site.yaml and no paper."""
    content = root / "content"
    (content / "papers").mkdir(parents=True)
    shutil.copy(REPO / "content/site.yaml", content / "site.yaml")
    return content


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def run_import(content: Path, *args: str) -> int:
    return main(["import", *args, "--content", str(content), "--date", "2025-01-01"])


def run_build(content: Path, *args: str) -> int:
    return main(["build", "--content", str(content), "--out", str(content.parent / "_site"),
                 "--no-cache", "--jobs", "1", *args])


@pytest.mark.parametrize("source", sorted(CREATED))
def test_each_format_imports_into_an_empty_digest_builds_and_reimports_to_no_change(
        source, tmp_path, capsys):
    content = empty_digest(tmp_path)
    assert run_import(content, str(FIXTURES / source)) == 0
    slugs = sorted(p.stem for p in (content / "papers").iterdir())
    assert slugs == CREATED[source]
    assert run_build(content) == 0
    assert run_build(content, "--drafts") == 0, "drafts (no abstract) build too"
    for slug in slugs:
        assert (tmp_path / "_site/papers" / slug / "index.html").is_file()
    imported = snapshot(content)
    capsys.readouterr()
    assert run_import(content, str(FIXTURES / source)) == 0
    assert snapshot(content) == imported
    assert f"0 created, 0 updated, 0 unchanged, {len(slugs)} skipped" in capsys.readouterr().out
    assert run_import(content, str(FIXTURES / source), "--update") == 0
    assert snapshot(content) == imported
    assert f"0 created, 0 updated, {len(slugs)} unchanged, 0 skipped" in capsys.readouterr().out


def test_the_report_shows_what_a_reader_left_out(tmp_path, capsys, monkeypatch):
    content = empty_digest(tmp_path)
    monkeypatch.chdir(tmp_path)
    shutil.copy(FIXTURES / "zotero-csl.json", tmp_path / "zotero.json")
    assert run_import(Path("content"), "zotero.json") == 0
    assert capsys.readouterr().out.splitlines() == [
        "created (2):",
        "  content/papers/long-context-llms-meet-rag.md  <- zotero.json:2",
        "  content/papers/a-paper-by-an-institution-and-a-von.md  <- zotero.json:20",
        "drafts for want of an abstract (1):",
        "  content/papers/a-paper-by-an-institution-and-a-von.md: add its abstract, then delete "
        "'draft: true' (build --drafts previews it)",
        "left out of the sources (2):",
        "  zotero.json:20: DOI '10.1000/bad doi' is not a valid doi id; left out",
        "  zotero.json:20: issued [2023, 13] is not a date; left out",
        "Import: 2 created, 0 updated, 0 unchanged, 0 skipped, 1 draft, 0 tag warnings."]
    assert (content / "papers/a-paper-by-an-institution-and-a-von.md").read_text() == """\
---
title: A Paper by an Institution and a von
authors:
- The Digest Consortium
- Ludwig van Beethoven
- Vasco da Gama Jr.
date: 2025-01-01
draft: true
---
"""


def test_openreview_tldr_reaches_the_paper_file(tmp_path):
    content = empty_digest(tmp_path)
    assert run_import(content, str(FIXTURES / "openreview-v2.json")) == 0
    text = (content / "papers/track-on.md").read_text()
    assert "\ntldr: An online point tracker with memory.\n" in text


def test_one_paper_from_bibtex_and_openreview_in_one_run_is_one_file(tmp_path, capsys,
                                                                     monkeypatch):
    content = empty_digest(tmp_path)
    monkeypatch.chdir(FIXTURES)
    dblp, notes = "dblp.bib", "openreview-v1.json"
    assert run_import(content, dblp, notes) == 0
    assert sorted(p.stem for p in (content / "papers").iterdir()) == CREATED["dblp.bib"]
    report = capsys.readouterr().out
    assert f"{notes}:2: same paper as {dblp}:1; merged into it" in report
    assert f"{notes}:30: same paper as {dblp}:19; merged into it" in report
    unlearning = (content / "papers/towards-scalable-exact-machine-unlearning-using-parameter.md")
    text = unlearning.read_text()
    # DBLP's entry comes first and wins; OpenReview fills what DBLP lacks: the abstract, the
    # presentation, the keywords and the PDF
    assert "\npresentation: oral\n" in text
    assert "\ntags:\n- machine-unlearning\n- parameter-efficient-fine-tuning\n" in text
    assert "links:\n  openreview: oe51Q5Uo37\n  pdf: https://openreview.net/pdf/a1b2" in text
    assert "abstract: |-\n  Machine unlearning is the process" in text
    assert "draft" not in text
    imported = snapshot(content)
    assert run_import(content, dblp, notes, "--update") == 0
    assert snapshot(content) == imported
    assert run_import(content, notes, dblp) == 0, "the other order finds the same files"
    assert snapshot(content) == imported


# The round trip: a built digest's papers.json and all.bib imported into an empty digest

TRICKY = """\
---
title: "R&D at 50%: {x_1} ~ y^2 -- $\\\\alpha$'s #1 ``quoted''"
authors: [Ludwig van Beethoven, Marie Skłodowska-Curie, Jean-Luc Picard Jr.]
venue: NeurIPS 2024 — Workshop & Friends
date: 2025-01-02
tags: [causal-inference, café]
links:
  arxiv: '2401.00001'
  openreview: oe51Q5Uo99
  doi: 10.1145/3650000.3650001
abstract: We study $x_1$.
---
"""


def what_a_citation_keeps(content: Path) -> dict[str, tuple]:
    """Each paper's title as readers see it -> (authors, ids, venue, tags), as the build reads
    the files. why: all.bib keeps a TeX title as written and importing BibTeX decodes it
    ('$\\alpha$' comes back as 'α'), so the round trip keeps what the title shows."""
    from generator.building.checkup import check_content
    checkup = check_content(content)
    assert checkup.errors == ()
    return {p.title_text: (p.authors, p.ids, p.venue, tuple(t.name for t in p.tags))
            for p in checkup.papers}


@pytest.fixture(scope="module")
def built_digest(tmp_path_factory) -> Path:
    """The shipped ICLR digest and one paper of awkward characters, built."""
    root = tmp_path_factory.mktemp("digest")
    shutil.copytree(REPO / "content", root / "content")
    (root / "content/papers/tricky.md").write_text(TRICKY, encoding="utf-8")
    assert run_build(root / "content") == 0
    return root


@pytest.mark.parametrize("exported", [["papers.json"], ["all.bib"], ["all.bib", "papers.json"]])
def test_a_built_digests_papers_json_and_all_bib_import_as_the_same_papers(
        exported, built_digest, tmp_path, capsys):
    content = empty_digest(tmp_path)
    files = [str(built_digest / "_site" / name) for name in exported]
    assert run_import(content, *files) == 0
    expected = what_a_citation_keeps(built_digest / "content")
    assert len(expected) == 20
    assert what_a_citation_keeps(content) == expected
    assert len(list((content / "papers").iterdir())) == 20, "one file a paper, both merged"
    report = capsys.readouterr().out
    assert "left out of the sources (" not in report and "tag warnings (" not in report
    drafts = "20 drafts" if exported == ["all.bib"] else "0 drafts"  # all.bib has no abstracts
    assert f"Import: 20 created, 0 updated, 0 unchanged, {20 * (len(files) - 1)} skipped, " \
           f"{drafts}, 0 tag warnings." in report
    assert expected["R&D at 50%: x_1 y^2 – α's #1 “quoted”"] == (
        ("Ludwig van Beethoven", "Marie Skłodowska-Curie", "Jean-Luc Picard Jr."),
        {"arxiv": "2401.00001", "openreview": "oe51Q5Uo99", "doi": "10.1145/3650000.3650001"},
        "NeurIPS 2024 — Workshop & Friends", ("causal-inference", "café"))


# What the build would refuse is never written


def test_an_abstract_over_the_builds_limit_stops_the_import_naming_its_source_line(
        tmp_path, capsys):
    content = empty_digest(tmp_path)
    bib = tmp_path / "big.bib"
    bib.write_text("@misc{ok, title={Fine}, author={A B}, abstract={Short.}}\n"
                   "@misc{big, title={Huge Abstract}, author={A B}, abstract={"
                   + "word " * 300_000 + "}}\n", encoding="utf-8")
    assert run_import(content, str(bib)) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{bib}:2: its paper file {content}/papers/huge-abstract.md would be 1,500,076 bytes, "
        "over the 1,048,576 the build reads a paper file to; shorten its abstract in the source",
        "Import failed: 1 error; nothing was written."]
    assert list((content / "papers").iterdir()) == []
    assert run_build(content) == 0


def test_an_author_that_stands_for_the_others_is_not_written(tmp_path, capsys):
    content = empty_digest(tmp_path)
    csl = tmp_path / "refs.json"
    csl.write_text('[{"type": "article", "title": "Many Hands", "abstract": "A.", "author": '
                   '[{"given": "Ada", "family": "Lovelace"}, {"literal": "et al."}]}]')
    assert run_import(content, str(csl)) == 0
    assert "authors:\n- Ada Lovelace\ndate:" in (content / "papers/many-hands.md").read_text()


def test_a_c1_control_in_a_source_never_reaches_the_terminal(tmp_path, capsys):
    content = empty_digest(tmp_path)
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{a, title={A\x9b31mB}, author={A B}, doi={10.1/\x9b31m x},\n"
                   "  url={javascript:\x9b2J}}\n", encoding="utf-8")
    assert run_import(content, str(bib)) == 0
    out = capsys.readouterr().out
    assert "doi '10.1/31m x' is not a valid doi id; left out" in out
    assert not any("\x80" <= c <= "\x9f" or c == "\x1b" for c in out)


@pytest.mark.slow
def test_a_paper_with_five_thousand_authors_imports_and_builds(tmp_path, capsys):
    # why: what the site costs at 5,000 authors is the light-site issue's; here it must work
    content = empty_digest(tmp_path)
    bib = tmp_path / "many.bib"
    authors = " and ".join(f"Person{n}, Author{n}" for n in range(5000))
    bib.write_text(f"@misc{{m, title={{Many Authors}}, author={{{authors}}}, eprint={{2406.12345}},"
                   " archivePrefix={arXiv}, abstract={Big science.}}\n", encoding="utf-8")
    assert run_import(content, str(bib)) == 0
    assert main(["check", "--strict", "--content", str(content)]) == 0
    assert run_build(content) == 0
    page = (tmp_path / "_site/papers/many-authors/index.html").read_text(encoding="utf-8")
    assert "Author0 Person0" in page and "Author4999 Person4999" in page
