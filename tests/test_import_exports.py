"""Real exports import whole and right (issue #34): the proceedings' own BibTeX (NeurIPS,
PMLR, the ACL Anthology, IJCAI), OpenReview's and Zotero's, with the slips real files have.
Each trap is read by the real BibTeX reader, then imported by the real command into a digest
that `check --strict` is asked about."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from factories import REPO
from generator.cli import main
from generator.content.latex import read_title
from generator.importers.bibtex import read_bibtex

FIXTURES = Path(__file__).resolve().parent / "import_fixtures"
NEURIPS = REPO / "data/neurips2018-papers.jsonl.gz"


@pytest.fixture(autouse=True)
def _in_fixtures(monkeypatch):
    """Messages name files as the curator would type them: relative to the working folder."""
    monkeypatch.chdir(FIXTURES)


def read(name: str):
    return read_bibtex((FIXTURES / name).read_text(encoding="utf-8"), name)


def messages(errors) -> list[str]:
    return [str(error) for error in errors]


def digest(root: Path) -> Path:
    content = root / "content"
    (content / "papers").mkdir(parents=True)
    shutil.copy(REPO / "content/site.yaml", content / "site.yaml")
    return content


def run(*args: str) -> int:
    return main([*args])


def front(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])


# --- One bad entry never refuses the file --------------------------------------------------

def test_pmlr_trailing_commas_after_names_are_left_out_with_a_warning_at_the_entry():
    kornblith, roeder = read("pmlr-icml2019.bib")
    assert roeder.authors == ("Geoffrey Roeder", "Paul Grant", "Andrew Phillips", "Neil Dalchau",
                              "Edward Meeds")
    assert messages(roeder.repaired) == [
        "pmlr-icml2019.bib:23: author names of entry 'pmlr-v97-roeder19a' end with a comma, "
        "which BibTeX would read as an empty first name: read without the commas"]
    assert (kornblith.repaired, roeder.problems) == ((), ())


def test_openreview_authors_separated_by_commas_are_read_as_names_with_a_warning():
    [elmo] = read("openreview-iclr2018.bib")
    assert elmo.authors == ("Matthew E Peters", "Mark Neumann", "Mohit Iyyer", "Matt Gardner",
                            "Christopher Clark", "Kenton Lee", "Luke Zettlemoyer")
    assert messages(elmo.repaired) == [
        "openreview-iclr2018.bib:3: the authors of entry 'peters2018deep' are separated by "
        "commas, not ' and ': read as 7 names"]


@pytest.mark.parametrize("author, names", [
    ("Zhang, Lijun", ("Lijun Zhang",)),  # 'Last, First' is one name
    ("van der Berg, Jr, Jan", ("Jan van der Berg Jr",)),  # and so is 'von Last, Jr, First'
    ("Van Durme, Benjamin", ("Benjamin Van Durme",)),
    ("Ada Lovelace, Alan Turing, Grace Hopper", ("Ada Lovelace", "Alan Turing", "Grace Hopper")),
])
def test_commas_split_names_only_where_bibtex_could_not_mean_one_name(author, names):
    [paper] = read_bibtex(f"@misc{{k, title={{T}}, author={{{author}}}}}", "refs.bib")
    assert paper.authors == names
    assert bool(paper.repaired) == (len(names) == 3)


REPEATS = (FIXTURES / "repeated-keys.bib").read_text(encoding="utf-8")


def test_a_repeated_key_gives_two_papers_and_a_repeated_field_keeps_the_first():
    first, second, broken, fine = read_bibtex(REPEATS, "refs.bib")
    assert (first.title, second.title) == ("Deep Reinforcement Learning for Sponsored Search",
                                           "Deep Generative Models of Graphs")
    assert messages(second.repaired) == [
        "refs.bib:11: entry key 'yang2018deep' is used again (first at line 5): read as "
        "another paper; give each entry its own key",
        "refs.bib:15: field 'title' of entry 'yang2018deep' is given again (first at line 12): "
        "the first is read; delete one"]
    assert messages(broken.problems) == [
        "refs.bib:21: field 'journal' of entry 'broken2018': 'jmlr' is not defined; add "
        "@string{jmlr = \"...\"} or put the value in braces"]
    assert (fine.title, fine.problems, fine.repaired) == ("The Rest Is Imported", (), ())


def test_the_import_skips_what_it_cannot_read_imports_the_rest_and_exits_1(tmp_path, capsys):
    content = digest(tmp_path)
    (tmp_path / "refs.bib").write_text(REPEATS, encoding="utf-8")
    assert run("import", str(tmp_path / "refs.bib"), "--content", str(content)) == 1
    report = capsys.readouterr().out
    assert sorted(p.name for p in (content / "papers").iterdir()) == [
        "deep-generative-models-of-graphs.md",
        "deep-reinforcement-learning-for-sponsored-search.md",
        "the-rest-is-imported.md"]
    where = str(tmp_path / "refs.bib")
    assert f"  {where}:18: not imported: field 'journal' of entry 'broken2018': 'jmlr' is not " \
           "defined; add @string{jmlr = \"...\"} or put the value in braces (line 21)" in report
    assert "repaired in the sources (2):" in report
    assert "Import: 3 created, 0 updated, 0 unchanged, 1 skipped, 3 drafts" in report
    assert report.splitlines()[-1] == ("1 source entry could not be imported (skipped, above): "
                                       "fix them and import the file again.")


def test_strict_refuses_the_whole_file_as_before_and_writes_nothing(tmp_path, capsys):
    content = digest(tmp_path)
    (tmp_path / "refs.bib").write_text(REPEATS, encoding="utf-8")
    assert run("import", str(tmp_path / "refs.bib"), "--content", str(content), "--strict") == 1
    assert list((content / "papers").iterdir()) == []
    err = capsys.readouterr().err
    assert "refs.bib:11: entry key 'yang2018deep' is used again" in err
    assert "refs.bib:21: field 'journal' of entry 'broken2018'" in err
    assert err.splitlines()[-1] == "Import failed: 3 errors; nothing was written."


def test_a_file_cut_short_is_still_refused_whole_naming_its_line(tmp_path, capsys):
    content = digest(tmp_path)
    text = (FIXTURES / "pmlr-icml2019.bib").read_text(encoding="utf-8")
    (tmp_path / "cut.bib").write_text(text[:text.index("  series")], encoding="utf-8")
    assert run("import", str(tmp_path / "cut.bib"), "--content", str(content)) == 1
    assert list((content / "papers").iterdir()) == []
    assert "cut.bib:5: BibTeX syntax error in the block starting " \
           "'@InProceedings{pmlr-v97-kornblith19a,'" in capsys.readouterr().err


# --- Venues as readers name them -----------------------------------------------------------

@pytest.mark.parametrize("name, venues", [
    ("neurips2018-proceedings.bib", ["NeurIPS 2018"] * 5),
    ("pmlr-icml2019.bib", ["ICML 2019"] * 2),
    ("acl-anthology.bib", ["ACL 2022", "Findings of ACL 2022"]),
    ("ijcai2024.bib", ["IJCAI 2024"]),
    ("openreview-iclr2018.bib", ["ICLR 2018"]),
    ("dblp.bib", ["ICLR 2025", "", "ICLR 2025"]),
])
def test_proceedings_names_and_years_give_the_venue_readers_expect(name, venues):
    assert [paper.venue for paper in read(name)] == venues


def test_venue_option_still_overrides_the_source(tmp_path):
    content = digest(tmp_path)
    assert run("import", "ijcai2024.bib", "--content", str(content), "--venue", "IJCAI-24") == 0
    assert front(next((content / "papers").iterdir()))["venue"] == "IJCAI-24"


# --- Escaped LaTeX recovered ---------------------------------------------------------------

def test_the_neurips_proceedings_escaped_title_is_the_tex_its_authors_wrote():
    titles = [paper.title for paper in read("neurips2018-proceedings.bib")]
    assert titles[0] == r"$\ell_1$-regression with Heavy-tailed Distributions"


@pytest.mark.parametrize("escaped, tex", [
    (r"\textbackslash ell\_1-regression", r"$\ell_1$-regression"),
    (r"Kernel PCA with \textbackslash tilde\lbrace O\rbrace (\textbackslash sqrt\lbrace n\rbrace ) "
     r"Features", r"Kernel PCA with $\tilde{O}(\sqrt{n})$ Features"),
    (r"Revisiting (\textbackslash epsilon, \textbackslash gamma, \textbackslash tau)-similarity",
     r"Revisiting $(\epsilon, \gamma, \tau)$-similarity"),
    (r"than \textbackslash mathcal\lbrace O\rbrace (1/\textbackslash varepsilon): A Primal",
     r"than $\mathcal{O}(1/\varepsilon)$: A Primal"),
    (r"Zotero's \$\textbackslash beta\$-VAE and \{Braces\}", r"Zotero's $\beta$-VAE and {Braces}"),
    (r"A\^{}2-Nets and x\textasciicircum{}2", "A^2-Nets and x^2"),
    (r"Others\textquotesingle  Models at 360\textdegree  Video", "Others' Models at 360° Video"),
    (r"Simple \&amp; Efficient", "Simple & Efficient"),
])
def test_escaped_tex_in_a_title_comes_back_as_tex_with_its_math_in_math(escaped, tex):
    [paper] = read_bibtex(f"@misc{{k, title = {{{escaped}}}}}", "refs.bib")
    assert paper.title == tex


def test_no_title_of_the_1008_neurips_papers_is_mangled_by_their_proceedings_bibtex():
    rows = [json.loads(line) for line in gzip.open(NEURIPS, "rt", encoding="utf-8")]
    papers = read_bibtex("\n\n".join(row["bibtex"] for row in rows), "neurips.bib")
    shown = {row["title"]: (read_title(paper.title).text, read_title(row["title"]).text)
             for row, paper in zip(rows, papers)}
    assert {title: texts for title, texts in shown.items() if texts[0] != texts[1]} == {
        # why: the proceedings wrote 'L\_0', no math: the source lost it, not the import
        "Thwarting Adversarial Examples: An $L_0$-Robust Sparse Fourier Transform": (
            "Thwarting Adversarial Examples: An L_0-Robust Sparse Fourier Transform",
            "Thwarting Adversarial Examples: An L₀-Robust Sparse Fourier Transform")}


# --- Landing pages kept; citations keep what the source knew -------------------------------

def test_a_landing_page_is_the_papers_page_link_and_a_pdf_stays_the_pdf():
    kornblith, _ = read("pmlr-icml2019.bib")
    assert kornblith.links == {
        "page": "https://proceedings.mlr.press/v97/kornblith19a.html",
        "pdf": "http://proceedings.mlr.press/v97/kornblith19a/kornblith19a.pdf"}
    long, findings = read("acl-anthology.bib")
    assert long.links == {"doi": "10.18653/v1/2022.acl-short.8",
                          "page": "https://aclanthology.org/2022.acl-short.8/"}
    assert findings.links == {"page": "https://aclanthology.org/2022.findings-acl.311/"}
    assert read("neurips2018-proceedings.bib")[0].links["pdf"].endswith("-Paper.pdf")


def test_the_fields_a_citation_needs_are_kept_in_the_paper_file(tmp_path):
    content = digest(tmp_path)
    assert run("import", "pmlr-icml2019.bib", "--content", str(content)) == 0
    kept = front(content / "papers/similarity-of-neural-network-representations-revisited.md")
    assert kept["venue"] == "ICML 2019"
    assert kept["citation"] == {
        "booktitle": "Proceedings of the 36th International Conference on Machine Learning",
        "series": "Proceedings of Machine Learning Research",
        "editor": ["Kamalika Chaudhuri", "Ruslan Salakhutdinov"], "publisher": "PMLR",
        "volume": "97", "pages": "3519–3529"}


def test_acl_papers_whose_only_link_is_their_page_pass_check_strict(tmp_path, capsys):
    content = digest(tmp_path)
    assert run("import", "acl-anthology.bib", "--content", str(content)) == 0
    assert "check --strict" not in capsys.readouterr().out, "nothing to say: it would pass"
    assert run("check", "--strict", "--content", str(content)) == 0
    assert "2 papers, 0 errors" in capsys.readouterr().out


# --- Import and check --strict agree -------------------------------------------------------

def test_the_report_ends_with_the_undefined_macros_and_what_check_strict_would_say(
        tmp_path, capsys):
    content = digest(tmp_path)
    assert run("import", "neurips2018-proceedings.bib", "--content", str(content)) == 0
    report = capsys.readouterr().out.splitlines()
    start = report.index(next(line for line in report if line.startswith("undefined LaTeX")))
    assert report[start:start + 7] == [
        f"undefined LaTeX macros (6); define each once for the digest, under 'macros:' in "
        f"{content}/site.yaml:",
        "  actions: '...'    # \\actions, in 1 paper: write its definition",
        "  cA: '\\mathcal{A}'    # \\cA, in 1 paper: check this guess",
        "  cS: '\\mathcal{S}'    # \\cS, in 1 paper: check this guess",
        "  eps: '\\epsilon'    # \\eps, in 1 paper: check this guess",
        "  norm: '\\left\\|#1\\right\\|'    # \\norm, in 1 paper: check this guess",
        "  states: '...'    # \\states, in 1 paper: write its definition"]
    assert report[start + 7] == "check --strict would fail on 4 of what was written:"
    cut_short = [line for line in report[start + 8:] if "unbalanced $" in line]
    assert len(cut_short) == 1 and "learning-without-the-phase.md:" in cut_short[0]
    assert cut_short[0].endswith("(from neurips2018-proceedings.bib:57)")
    strict = run("check", "--strict", "--content", str(content))
    said = capsys.readouterr().err.splitlines()
    assert strict == 1 and len(said) == 4
    assert all(any(line in mine for mine in report) for line in said), "the import said it"


def test_macros_in_site_yaml_leave_check_strict_only_what_the_source_lacks(tmp_path, capsys):
    content = digest(tmp_path)
    with (content / "site.yaml").open("a", encoding="utf-8") as site:
        site.write("macros:\n  eps: \\varepsilon\n  cA: \\mathcal{A}\n  cS: \\mathcal{S}\n"
                   "  actions: \\cA\n  states: \\cS\n"
                   "  norm: '\\left\\lVert #1 \\right\\rVert'\n")
    assert run("import", "neurips2018-proceedings.bib", "--content", str(content)) == 0
    report = capsys.readouterr().out
    assert "undefined LaTeX macros" not in report
    assert report.count("unbalanced $") == 1
    assert run("check", "--strict", "--content", str(content)) == 1
    [only] = capsys.readouterr().err.splitlines()
    assert re.search(r"learning-without-the-phase\.md:\d+: 1 unbalanced \$ in the abstract", only)
