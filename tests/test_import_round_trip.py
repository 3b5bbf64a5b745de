"""Citations round-trip (issue #34): the proceedings' own BibTeX imported, the digest built,
its all.bib (and papers.json) imported into an empty digest: the same titles, authors,
venues, links and citation fields. And all.bib is BibTeX LaTeX compiles: no math command
outside math, and two other BibTeX readers (pybtex, bibtexparser) read the same titles."""

from __future__ import annotations

import shutil
from pathlib import Path

import bibtexparser
import pytest
from pybtex import database

from factories import REPO
from generator.building.checkup import check_content
from generator.cli import main
from generator.importers.bibtex import resolve_value
from texcheck import math_problems

FIXTURES = Path(__file__).resolve().parent / "import_fixtures"
PROCEEDINGS = ("neurips2018-proceedings.bib", "pmlr-icml2019.bib", "acl-anthology.bib",
               "ijcai2024.bib", "openreview-iclr2018.bib", "dblp.bib", "zotero.bib")
"""Real exports whose every paper has a link all.bib carries (traps.bib's has only code)."""


def digest(root: Path) -> Path:
    content = root / "content"
    (content / "papers").mkdir(parents=True)
    shutil.copy(REPO / "content/site.yaml", content / "site.yaml")
    return content


def cited(content: Path, links: bool = True) -> dict[str, tuple]:
    """Each paper's title -> what a citation of it keeps, as the build reads the files."""
    checkup = check_content(content)
    assert checkup.errors == ()
    return {paper.title: (paper.authors, paper.venue, paper.citation, paper.ids,
                          {link.kind: link.url for link in paper.links} if links else None)
            for paper in checkup.papers}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The proceedings' exports imported into an empty digest and built, drafts included."""
    root = tmp_path_factory.mktemp("proceedings")
    content = digest(root)
    files = [str(FIXTURES / name) for name in PROCEEDINGS]
    assert main(["import", *files, "--content", str(content), "--date", "2025-05-01"]) == 0
    assert main(["build", "--content", str(content), "--out", str(root / "_site"), "--drafts",
                 "--no-cache", "--jobs", "1"]) == 0
    return root


def test_all_bib_imports_as_the_same_papers_with_the_same_citation_fields(built, tmp_path):
    fresh = digest(tmp_path)
    assert main(["import", str(built / "_site/all.bib"), "--content", str(fresh),
                 "--date", "2025-05-01"]) == 0
    before, after = cited(built / "content"), cited(fresh)
    assert len(before) == 15 and after == before
    pmlr = before["Similarity of Neural Network Representations Revisited"]
    assert pmlr[1:3] == ("ICML 2019", pmlr[2]) and pmlr[2].editor == (
        "Kamalika Chaudhuri", "Ruslan Salakhutdinov")
    assert (pmlr[2].volume, pmlr[2].pages, pmlr[2].series) == (
        "97", "3519–3529", "Proceedings of Machine Learning Research")


def test_papers_json_imports_as_the_same_papers_with_the_same_citation_fields(built, tmp_path):
    fresh = digest(tmp_path)
    assert main(["import", str(built / "_site/papers.json"), "--content", str(fresh),
                 "--date", "2025-05-01"]) == 0
    # why: CSL-JSON has one URL an item, so a PMLR paper's PDF beside its page is not in it
    assert cited(fresh, links=False) == cited(built / "content", links=False)


def test_a_citation_from_the_digest_keeps_the_proceedings_not_the_digest(built):
    bib = (built / "_site/all.bib").read_text(encoding="utf-8")
    entry = bib[bib.index("@inproceedings{zhang2018ell1,"):]
    entry = entry[:entry.index("\n}\n")]
    assert entry.splitlines()[1:] == [
        "  title = {{$\\ell_1$-regression with Heavy-tailed Distributions}},",
        "  author = {Lijun Zhang and Zhi-Hua Zhou},",
        "  booktitle = {Advances in Neural Information Processing Systems},",
        "  editor = {S. Bengio and H. Wallach and H. Larochelle and K. Grauman and N. Cesa-Bianchi"
        " and R. Garnett},",
        "  publisher = {Curran Associates, Inc.},",
        "  volume = {31},",
        "  year = {2018},",
        "  url = {https://proceedings.neurips.cc/paper_files/paper/2018/file/"
        "8b16ebc056e613024c057be590b542eb-Paper.pdf},"]


def bib_titles(text: str) -> dict[str, str]:
    """key -> title field value as bibtexparser splits the file (the outer braces removed)."""
    library = bibtexparser.parse_string(text, parse_stack=[])
    return {entry.key: resolve_value(entry.fields_dict["title"].value, {})
            for entry in library.entries}


def test_every_title_in_all_bib_has_its_math_in_math(built):
    titles = bib_titles((built / "_site/all.bib").read_text(encoding="utf-8"))
    assert len(titles) == 15
    assert {key: math_problems(title) for key, title in titles.items()
            if math_problems(title)} == {}


def test_pybtex_and_bibtexparser_read_all_bib_with_the_same_titles(built):
    text = (built / "_site/all.bib").read_text(encoding="utf-8")
    theirs = {key: entry.fields["title"]
              for key, entry in database.parse_string(text, "bibtex").entries.items()}
    assert theirs == bib_titles(text)
    assert theirs["zhang2018ell1"] == "{$\\ell_1$-regression with Heavy-tailed Distributions}"
