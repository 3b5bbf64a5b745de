"""Which incoming papers are one paper and which file holds each (generator/importers/matching.py),
as an import plans it."""

import datetime as dt
from pathlib import Path

from factories import paper_source, write_content
from generator.importers.incoming import IncomingPaper
from generator.importers.matching import combine
from generator.importers.merge import ImportOptions, plan_import, read_existing
from generator.model.identity import conflicting_id, identities, shared_identity

DAY = dt.date(2026, 1, 2)
SCALING = paper_source(title="Scaling Laws for Neural Language Models",
                       authors=["Jared Kaplan", "Sam McCandlish"], tags=["scaling"],
                       links={"arxiv": "2001.08361"}, body="My notes on scaling.\n")


def incoming(**fields: object) -> IncomingPaper:
    values: dict = {"origin": "refs.bib:1", "title": "Scaling Laws for Neural Language Models",
                    "authors": ("Someone Else",), "abstract": "Another paper.",
                    "links": {"arxiv": "2406.99999"}}
    values.update(fields)
    return IncomingPaper(**values)


def plan(tmp_path: Path, papers: list[IncomingPaper], update: bool = False,
         files: dict[str, str] | None = None):
    content = write_content(tmp_path, {"scaling-laws": SCALING} if files is None else files)
    return plan_import(papers, read_existing(content), content / "papers",
                       ImportOptions(date=DAY, update=update))


def test_a_conflicting_arxiv_id_vetoes_a_title_match(tmp_path):
    for update in (False, True):
        result = plan(tmp_path / str(update), [incoming()], update=update)
        [decision] = result.decisions
        assert decision.action == "create", "another arXiv id is another paper, whatever its title"
        assert decision.path.name == "scaling-laws-for-neural-language-models.md"
        assert result.kept_apart == (
            f"refs.bib:1: has the title of {tmp_path / str(update)}/content/papers/scaling-laws.md "
            "but another arXiv id; imported as a paper of its own",)


def test_a_conflicting_doi_or_openreview_id_vetoes_a_title_match_too(tmp_path):
    files = {"mine": paper_source(title="Introduction", links={"doi": "10.1000/one",
                                                               "openreview": "abcDEF12"})}
    for n, links in enumerate(({"doi": "10.1000/two"}, {"openreview": "zzzYYY99"})):
        [decision] = plan(tmp_path / str(n), [incoming(title="Introduction", links=links)],
                          files=files).decisions
        assert decision.action == "create", links


def test_two_entries_with_one_title_and_two_eprints_are_two_papers(tmp_path):
    first = incoming(title="Introduction", authors=("A B",), links={"arxiv": "2406.11111"})
    second = incoming(title="Introduction", authors=("C D",), origin="refs.bib:2",
                      links={"arxiv": "2406.22222"})
    result = plan(tmp_path, [first, second], files={})
    assert [(d.action, d.path.name) for d in result.decisions] == [
        ("create", "introduction.md"), ("create", "introduction-2.md")]
    assert result.kept_apart == ("refs.bib:2: has the title of refs.bib:1 but another arXiv id; "
                                 "kept as two papers",)


def test_a_title_still_matches_when_no_id_of_one_kind_differs(tmp_path):
    published = incoming(links={"doi": "10.1000/published"})  # the file has an arXiv id only
    [decision] = plan(tmp_path, [published]).decisions
    assert decision.action == "skip" and decision.path.name == "scaling-laws.md"
    arxiv_doi = incoming(links={"doi": "10.48550/arXiv.2001.08361"})
    assert plan(tmp_path / "b", [arxiv_doi]).decisions[0].action == "skip"


def test_a_shared_id_is_one_paper_whatever_else_differs():
    mine = identities({"arxiv": "2001.08361", "doi": "10.1000/a"}, "One")
    theirs = identities({"arxiv": "2001.08361v2", "doi": "10.1000/b"}, "Two")
    assert shared_identity(mine, theirs) == "arxiv:2001.08361"
    assert conflicting_id(mine, theirs) == "doi"
    assert shared_identity(identities({"arxiv": "2406.1"}, "Same"),
                           identities({"arxiv": "2406.2"}, "same!")) == ""


def test_combine_fills_only_the_gaps_of_the_first():
    merged = combine(incoming(authors=(), tags=("a",)), incoming(authors=("B",), tags=("b",),
                                                                  presentation="poster"))
    assert merged.authors == ("B",) and merged.tags == ("a",) and merged.presentation == "poster"
