"""The format readers of `build.py import`: BibTeX, arXiv Atom, OpenReview and CSL-JSON files
(tests/import_fixtures/, written by hand after each format's documentation and real exports)
to IncomingPaper, and every error as file:line."""

from __future__ import annotations

import datetime as dt
import gzip
import json
from pathlib import Path

import pytest

from generator.importers.arxiv import read_arxiv
from generator.importers.bibtex import read_bibtex
from generator.importers.csljson import read_csl
from generator.importers.formats import MAX_BYTES, UnknownFormat, read_papers
from generator.importers.openreview import read_openreview, split_venue
from generator.model.errors import BuildFailed

FIXTURES = Path(__file__).resolve().parent / "import_fixtures"
NEURIPS = Path(__file__).resolve().parent.parent / "data" / "neurips2018-papers.jsonl.gz"


@pytest.fixture(autouse=True)
def _in_fixtures(monkeypatch):
    """Messages name files as the curator would type them: relative to the working folder."""
    monkeypatch.chdir(FIXTURES)


def read(name: str):
    return read_bibtex((FIXTURES / name).read_text(encoding="utf-8"), name)


def errors_of(call, *args) -> list[str]:
    with pytest.raises(BuildFailed) as failed:
        call(*args)
    return [str(error) for error in failed.value.errors]


def bib_errors(text: str) -> list[str]:
    return errors_of(read_bibtex, text, "refs.bib")


def entry_problems(paper) -> list[str]:
    """Why an entry is skipped, each as file:line: message."""
    return [str(problem) for problem in paper.problems]


# --- BibTeX -------------------------------------------------------------------------------

def test_bibtex_from_zotero_reads_arxiv_doi_month_macro_and_keywords():
    first, second = read("zotero.bib")
    assert first.origin == "zotero.bib:2"
    assert first.key == "wu_counterfactual_2024"
    assert first.title == "Counterfactual Generative Modeling with Variational Causal Inference"
    assert first.authors == ("Yulun Wu", "Louie McConnell", "Claudia Iriondo")
    assert first.abstract.startswith("Estimating an individual's counterfactual outcomes")
    assert first.venue == ""  # why: Zotero's arXiv preprints have publisher arXiv, no venue
    assert first.date == dt.date(2024, 10, 1)
    assert first.tags == ("Computer Science - Machine Learning", "Statistics - Machine Learning")
    assert first.links == {"arxiv": "2410.12730"}  # the arXiv DOI and URL name the same
    assert second.links == {"openreview": "odU59TxdiB"}
    assert second.venue == "ICLR 2025"  # the proceedings' name and year, as readers say it
    assert second.citation == {
        "booktitle": "The Thirteenth International Conference on Learning Representations",
        "address": "Singapore"}
    assert second.authors[-1] == "Philip J. B. Jackson"
    assert second.date == dt.date(2025, 4, 1)


def test_bibtex_from_dblp_unwraps_long_fields_and_follows_crossref():
    unlearning, promptriever, counterfactual = read("dblp.bib")
    assert unlearning.title == ("Towards Scalable Exact Machine Unlearning Using "
                                "Parameter-Efficient Fine-Tuning")
    assert unlearning.venue == "ICLR 2025"
    assert unlearning.citation == {
        "booktitle": "The Thirteenth International Conference on Learning Representations, "
                     "ICLR 2025, Singapore, April 24-28, 2025", "publisher": "OpenReview.net"}
    assert unlearning.links == {"openreview": "oe51Q5Uo37"}
    assert unlearning.date == dt.date(2025, 1, 1)
    assert promptriever.venue == ""  # CoRR is arXiv
    assert promptriever.citation == {}, "nor is 'abs/2409.11136' a volume"
    assert promptriever.links == {"arxiv": "2409.11136"}
    assert promptriever.authors[1] == "Benjamin Van Durme"
    assert counterfactual.origin == "dblp.bib:40"
    assert counterfactual.venue == unlearning.venue  # from the @proceedings it crossrefs
    assert counterfactual.date == dt.date(2025, 1, 1)


def test_bibtex_from_scholar_drops_others_and_finds_arxiv_in_the_journal():
    promptriever, unlearning = read("scholar.bib")
    assert promptriever.venue == ""
    assert promptriever.links == {"arxiv": "2409.11136"}
    assert promptriever.authors == ("Orion Weller", "Benjamin Van Durme", "Dawn Lawrie",
                                    "Ashwin Paranjape", "Yuhao Zhang", "Jack Hessel")
    assert unlearning.authors == ("Somnath Basu Roy Chowdhury", "Krzysztof Choromanski",
                                  "Arijit Sehanobish", "Avinava Dubey", "Snigdha Chaturvedi")


def test_bibtex_from_openreview_and_arxiv_exports():
    [openreview] = read("openreview.bib")
    assert openreview.key == "wu2025counterfactual"
    assert openreview.links == {"openreview": "oeDcgVC7Xh"}
    [arxiv] = read("arxiv.bib")
    assert arxiv.links == {"arxiv": "2506.12222"}  # version suffix of the eprint removed
    assert arxiv.title == ("SSLAM: Enhancing Self-Supervised Models with Audio Mixtures for "
                           "Polyphonic Soundscapes")


def test_bibtex_traps_strings_accents_names_and_nested_braces():
    paper = read("traps.bib")[0]
    assert paper.title == r"Deep Öptimal Transport for $\ell_1$ Costs: Nested Braces Are Fine"
    assert paper.authors == ("Hans Müller", "Émile Zola", "Ayşe Koç", "Łukasz Kaiser",
                             "José García", "Jan van der Berg Jr", "João Silva",
                             "Google DeepMind")
    assert paper.venue == "ICLR 2025"
    assert paper.citation == {
        "booktitle": "International Conference on Learning Representations (ICLR 2025)"}
    assert paper.date == dt.date(2025, 3, 1)
    assert paper.tags == ("optimal transport", "GANs", "Machine Learning")
    assert paper.links == {"code": "https://github.com/example/deep-ot"}
    assert paper.dropped == ("doi '10.1000/not an id' is not a valid doi id; left out",)


def test_bibtex_abstract_keeps_its_latex_and_paragraphs_but_not_its_line_breaks():
    paper = read("traps.bib")[0]
    assert paper.abstract == (
        "We show that $\\mathcal{O}(n)$ samples suffice, i.e.\\ {enough}, for \\emph{most} "
        "costs; see \\url{https://example.org/x}.\n\nA second paragraph keeps its {\\\"o} "
        "as written.")


def test_bibtex_links_doi_url_pdf_and_landing_page():
    _, notes, project, by_pdf = read("traps.bib")
    assert notes.links == {"doi": "10.1000/xyz123", "pdf": "https://example.org/papers/notes.PDF"}
    assert notes.date == dt.date(2024, 12, 1)
    assert project.title == "A Project with a “Quoted” Title"
    # why: next to an id, a URL that is no PDF or code is the paper's page (Zotero writes the
    # publisher's): kept as the paper's own page, never thrown away
    assert project.links == {"arxiv": "2301.00001", "page": "https://example.org/project/"}
    assert project.date is None
    assert project.dropped == ("year 'in press' is not a four-digit year; date left out",)
    assert by_pdf.links == {"arxiv": "2301.00002"}


def test_bibtex_url_alone_is_a_project_page():
    [paper] = read_bibtex("@misc{a, title={A}, url={https://example.org/a/}}", "refs.bib")
    assert paper.links == {"project": "https://example.org/a/"}


def test_bibtex_non_http_url_is_left_out():
    [paper] = read_bibtex("@misc{a, title={A}, url={javascript:alert(1)}}", "refs.bib")
    assert paper.links == {}
    assert paper.dropped == ("url 'javascript:alert(1)' is not an http(s) URL; left out",)


def test_bibtex_url_that_urlsplit_cannot_read_is_left_out_not_a_crash():
    [paper] = read_bibtex("@misc{a, title={A}, url={http://[broken/x.pdf}}", "refs.bib")
    assert paper.links == {}
    assert paper.dropped == ("url 'http://[broken/x.pdf' is not an http(s) URL; left out",)


def test_bibtex_no_bare_backslash_or_brace_survives_in_names_and_escaped_ones_in_titles():
    [paper] = read_bibtex(r"""@misc{a, title = {50% of \{y\} and {\bf z}},
        author = {\"{O}ktem, Ozan and Moreno-Mu\~{n}oz, Pablo}}""", "refs.bib")
    assert paper.title == "50% of {y} and z", "an escaped brace is the title's own"
    [linked] = read_bibtex(r"@misc{a, title = {See \href{https://x.org}{Our Site}}}", "refs.bib")
    assert linked.title == "See https://x.orgOur Site"  # pylatexenc fails on \href; macro dropped
    assert paper.authors == ("Ozan Öktem", "Pablo Moreno-Muñoz")


def test_bibtex_text_macros_give_back_a_literal_backslash_brace_and_caret():
    # why: all.bib writes them so (outputs/bibtex.tex_escape), and so does NeurIPS's export
    # of a title's TeX ('\textbackslash ell\_1' for '$\ell_1$')
    [paper] = read_bibtex(r"""@misc{a, title = {{\$\textbackslash{}alpha\$ x\textasciicircum{}2
        \textbraceleft{}set\textbraceright{} \textbackslash ell\_1 \textbackslashed}}}""",
                          "refs.bib")
    assert paper.title == r"$\alpha$ x^2 {set} $\ell_1$", "an unknown macro is dropped"
    [planted] = read_bibtex("@misc{a, title = {A \ue000 b}}", "refs.bib")
    assert planted.title == "A b", "the decoder's stand-ins cannot be planted by a source"


def test_bibtex_control_characters_are_removed():
    [paper] = read_bibtex("@misc{a, title = {Bell\x07 and \x1bEscape}, author = {Ada\x00 Lovelace}}",
                          "refs.bib")
    assert paper.title == "Bell and Escape"
    assert paper.authors == ("Ada Lovelace",)


def test_bibtex_entry_without_title_is_skipped_naming_key_and_line():
    fine, untitled = read_bibtex(
        "@misc{ok, title={Fine}}\n\n@article{untitled,\n  year = 2024\n}\n", "refs.bib")
    assert (fine.title, fine.problems) == ("Fine", ())
    assert entry_problems(untitled) == [
        "refs.bib:3: entry 'untitled' has no title; add title = {...}"]


def test_bibtex_truncated_file_is_an_error_and_no_papers():
    text = (FIXTURES / "dblp.bib").read_text(encoding="utf-8")
    cut = text[:text.index("  journal      = {CoRR}")]
    assert bib_errors(cut) == [
        "refs.bib:19: BibTeX syntax error in the block starting "
        "'@article{DBLP:journals/corr/abs-2409-11136,': Unexpectedly reached end of file. "
        "(a '{' without its '}', or a file cut short?)"]


def test_bibtex_unclosed_brace_names_its_entry():
    errors = bib_errors("@misc{a, title={A}}\n@misc{b, title={Unclosed}\n@misc{c, title={C}}\n")
    assert errors[0].startswith("refs.bib:2: BibTeX syntax error in the block starting "
                                "'@misc{b, title={Unclosed}'")


def test_bibtex_undefined_string_skips_its_entry_and_a_repeated_key_is_a_second_paper():
    [paper] = read_bibtex("@misc{a,\n  title = {A},\n  journal = nips,\n}", "refs.bib")
    assert entry_problems(paper) == [
        "refs.bib:3: field 'journal' of entry 'a': 'nips' is not defined; add "
        "@string{nips = \"...\"} or put the value in braces"]
    first, second = read_bibtex("@misc{a, title={A}}\n@misc{a, title={B}}", "refs.bib")
    assert (first.title, second.title, first.repaired) == ("A", "B", ())
    assert [str(e) for e in second.repaired] == [
        "refs.bib:2: entry key 'a' is used again (first at line 1): read as another paper; "
        "give each entry its own key"]


def test_bibtex_too_deep_braces_skip_the_entry_not_a_crash():
    deep = "{" * 30 + "x" + "}" * 30
    [paper] = read_bibtex(f"@misc{{a, title={deep}}}", "refs.bib")
    assert entry_problems(paper) == [
        "refs.bib:1: the title of entry 'a': braces nest more than 24 deep"]


def test_bibtex_empty_title_skips_the_entry_and_biblatex_date_is_read():
    [empty] = read_bibtex("@misc{a, title = {{}}}", "refs.bib")
    assert entry_problems(empty) == [
        "refs.bib:1: entry 'a' has an empty title; write the title in it"]
    [paper] = read_bibtex("@misc{a, title = {A}, date = {2024-09}, year = {2023}}", "refs.bib")
    assert paper.date == dt.date(2024, 9, 1)


def test_bibtex_messages_carry_no_terminal_escapes():
    [paper] = read_bibtex("@misc{a,\n  journal = \x1b[31mred\x9b,\n title={T}}", "refs.bib")
    assert entry_problems(paper) == [
        "refs.bib:2: field 'journal' of entry 'a': '[31mred' is not defined; add "
        "@string{[31mred = \"...\"} or put the value in braces"]


def test_a_crossref_target_that_is_a_paper_is_imported_and_passes_nothing_on():
    main, preprint = read_bibtex("@inproceedings{main, title={Main Paper}, author={E F},\n"
                                 "  booktitle={ICLR 2025}}\n"
                                 "@misc{main-arxiv, title={Main Paper}, author={E F},\n"
                                 "  eprint={2406.12345}, archivePrefix={arXiv}, crossref={main}}",
                                 "refs.bib")
    assert (main.title, main.venue, main.origin) == ("Main Paper", "ICLR 2025", "refs.bib:1")
    assert (preprint.venue, preprint.links) == ("", {"arxiv": "2406.12345"})


def test_entries_that_crossref_themselves_or_each_other_are_both_imported():
    papers = read_bibtex("@misc{self, title={Self}, author={A B}, crossref={self}}\n"
                         "@misc{a, title={Mutual A}, author={A B}, crossref={b}}\n"
                         "@misc{b, title={Mutual B}, author={A B}, crossref={a}}", "refs.bib")
    assert [(p.title, p.venue) for p in papers] == [("Self", ""), ("Mutual A", ""),
                                                     ("Mutual B", "")]


def test_a_crossref_proceedings_is_left_out_and_listed_as_left_out():
    first, second = read_bibtex("@proceedings{conf, title={Proceedings of Conf 2025}}\n"
                                "@inproceedings{p1, title={One}, author={A B}, crossref={conf}}\n"
                                "@inproceedings{p2, title={Two}, author={A B}, crossref={conf}}",
                                "refs.bib")
    assert first.venue == second.venue == "Proceedings of Conf 2025"
    assert first.dropped == ("@proceedings 'conf' (line 1, 'Proceedings of Conf 2025') is the "
                             "proceedings its papers crossref, not a paper; left out (its fields "
                             "fill theirs)",) and second.dropped == ()


def test_a_string_bomb_is_an_error_at_its_line_not_all_memory():
    bomb = "@string{s0 = \"ab\"}\n" + "".join(f"@string{{s{n} = s{n - 1} # s{n - 1}}}\n"
                                               for n in range(1, 41))
    errors = bib_errors(bomb + "@misc{a, title = s40, author={A}}\n")
    # why: a broken @string refuses the file (what uses it cannot be read), with one error
    assert errors == ["refs.bib:21: @string s20: expands to more than 1,048,576 characters "
                      "(@string macros that repeat each other?); write the value out"]


def test_twenty_thousand_identical_errors_print_ten_and_a_count():
    errors = bib_errors("@article{" * 20_000)
    assert len(errors) == 12
    assert errors[-1] == ("refs.bib:1: and 19,989 more like it ('BibTeX syntax error in the "
                          "block startin…')")


def test_a_value_quoted_in_an_error_is_cut():
    deep = "{" * 10_000 + "A" + "}" * 10_000
    [paper] = read_bibtex(f"@misc{{a, title={{T}}, author={{{deep}}}}}", "refs.bib")
    [error] = entry_problems(paper)
    assert len(error) < 300  # the 20,001 characters cut to 60, and the hint
    assert error.startswith("refs.bib:1: author '{{{{{") and "(20,001 characters)" in error


def test_bibtex_c1_controls_never_reach_a_title_or_the_terminal():
    [paper] = read_bibtex("@misc{a, title={Evil\x9b31m Title}, author={A B}}", "refs.bib")
    assert paper.title == "Evil31m Title"


def test_every_real_neurips_2018_bibtex_reads_with_title_and_authors():
    rows = [json.loads(line) for line in gzip.open(NEURIPS, "rt", encoding="utf-8")]
    papers = read_bibtex("\n\n".join(row["bibtex"] for row in rows), "neurips.bib")
    assert len(papers) == len(rows) == 1008
    for row, paper in zip(rows, papers):
        assert paper.title and len(paper.authors) == len(row["authors"]), row["title"]
        assert not any(c in name for name in paper.authors for c in "{}\\")
        assert ("\\" in paper.title) == ("textbackslash" in row["bibtex"]), row["title"]
        assert (paper.problems, paper.repaired) == ((), ()), row["title"]
        assert paper.venue == "NeurIPS 2018"
        assert paper.citation["booktitle"] == "Advances in Neural Information Processing Systems"
        assert paper.date == dt.date(2018, 1, 1)
        assert paper.links["pdf"].startswith("https://proceedings.neurips.cc/")
    by_title = {paper.title: paper for paper in papers}
    assert by_title["Adversarial Regularizers in Inverse Problems"].authors == (
        "Sebastian Lunz", "Ozan Öktem", "Carola-Bibiane Schönlieb")
    assert "Pablo Moreno-Muñoz" in next(p.authors for p in papers if "Moreno" in str(p.authors))


# --- arXiv Atom -----------------------------------------------------------------------------

def arxiv_text(name: str = "arxiv-query.xml") -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_arxiv_feed_unwraps_titles_and_abstracts_and_drops_versions():
    promptriever, counterfactual = read_arxiv(arxiv_text(), "listing.xml")
    assert promptriever.origin == "listing.xml:10"
    assert promptriever.title == ("Promptriever: Instruction-Trained Retrievers Can Be "
                                  "Prompted Like Language Models")
    assert promptriever.abstract.startswith(
        "Instruction-tuned language models (LM) are able to respond to imperative commands, "
        "providing a more natural user interface")
    assert promptriever.abstract.endswith("but also follows instructions ($+14.3$ p-MRR).")
    assert promptriever.authors == ("Orion Weller", "Benjamin Van Durme", "Dawn Lawrie",
                                    "Ashwin Paranjape", "Yuhao Zhang", "Jack Hessel")
    assert promptriever.date == dt.date(2024, 9, 17)
    assert promptriever.links == {"arxiv": "2409.11136",
                                  "pdf": "https://arxiv.org/pdf/2409.11136v1"}
    assert promptriever.key == "2409.11136"
    assert promptriever.tags == ()  # categories are not topics
    assert counterfactual.title == "Counterfactual Generative Modeling with Variational Causal Inference"
    assert counterfactual.date == dt.date(2024, 10, 16)  # published (v1), not updated (v3)
    assert counterfactual.links == {"arxiv": "2410.12730", "doi": "10.1000/example.2410",
                                    "pdf": "https://arxiv.org/pdf/2410.12730v3"}
    assert counterfactual.venue == ""  # journal_ref is free text, not a venue


def test_arxiv_markup_in_text_stays_text():
    counterfactual = read_arxiv(arxiv_text(), "listing.xml")[1]
    assert counterfactual.abstract.endswith("facial images) & covariates are relatively "
                                            "limited. <b>Not bold</b>.")


def test_arxiv_error_entry_is_a_content_error_with_its_summary():
    assert errors_of(read_arxiv, arxiv_text("arxiv-error.xml"), "listing.xml") == [
        "listing.xml:10: arXiv answered with an error: 'incorrect id format for 2409.1113'"]


def test_arxiv_doctype_is_refused_before_parsing():
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa">\n'
            '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&b;</title></entry></feed>')
    assert errors_of(read_arxiv, bomb, "listing.xml") == [
        "listing.xml:2: the file declares a DTD (<!DOCTYPE or <!ENTITY); arXiv's feeds have "
        "none, and entities are refused for safety"]


def test_arxiv_broken_xml_names_its_line():
    cut = arxiv_text()[:arxiv_text().index("<summary>  Estimating")]
    errors = errors_of(read_arxiv, cut, "listing.xml")
    assert errors == ["listing.xml:56: not well-formed XML: no element found"]  # the end


def test_arxiv_entry_without_title_or_id_is_an_error():
    text = ('<feed xmlns="http://www.w3.org/2005/Atom">\n<entry>\n'
            '<id>http://arxiv.org/abs/2409.99999v1</id>\n</entry>\n'
            '<entry><id>http://example.org/x</id><title>T</title></entry></feed>')
    assert errors_of(read_arxiv, text, "listing.xml") == [
        "listing.xml:2: entry 'http://arxiv.org/abs/2409.99999v1' has no title or no arXiv id: "
        "is this a complete arXiv API response?",
        "listing.xml:5: entry 'http://example.org/x' has no title or no arXiv id: "
        "is this a complete arXiv API response?"]


def test_arxiv_old_style_ids_and_https_ids():
    text = ('<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
            '<id>https://arxiv.org/abs/hep-th/9901001v2</id><title>Old</title></entry></feed>')
    assert read_arxiv(text, "listing.xml")[0].links == {"arxiv": "hep-th/9901001"}


# --- OpenReview -----------------------------------------------------------------------------

def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_openreview_v2_notes_with_venue_presentation_and_pdf():
    track_on, losa, occam, support = read_openreview(fixture("openreview-v2.json"), "notes.json")
    assert track_on.origin == "notes.json:3"
    assert track_on.key == "oRlANEuqG5"
    assert track_on.title == "Track-On: Transformer-based Online Point Tracking with Memory"
    assert track_on.authors == ("Görkay Aydemir", "Xiongyi Cai", "Weidi Xie", "Fatma Güney")
    assert track_on.abstract == (
        "In this paper, we consider the problem of long-term point tracking, which requires "
        "consistent identification of points across multiple frames of a video.\n\n"
        "Our code is available at https://github.com/gorkaydemir/track_on.")
    assert (track_on.venue, track_on.presentation) == ("ICLR 2025", "poster")
    assert track_on.tags == ("Point Tracking", "Online Tracking", "Memory")
    assert track_on.tldr == "An online point tracker with memory."
    assert track_on.date == dt.date(2025, 1, 22)  # pdate
    assert track_on.links == {
        "openreview": "oRlANEuqG5",
        "pdf": "https://openreview.net/pdf/5b4c2d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8.pdf"}
    assert (losa.venue, losa.presentation, losa.date) == ("ICLR 2025", "spotlight",
                                                          dt.date(2024, 9, 23))  # cdate
    assert (occam.venue, occam.presentation) == ("ICLR 2025", "oral")
    assert occam.links["pdf"] == "https://openreview.net/pdf?id=oWdzUpOlkX"
    assert (support.venue, support.presentation) == ("", "")
    assert support.dropped == ("venue 'Submitted to ICLR 2025' is not an acceptance; left out",)


def test_openreview_review_notes_are_not_papers():
    keys = [p.key for p in read_openreview(fixture("openreview-v2.json"), "notes.json")]
    assert keys == ["oRlANEuqG5", "oXh0939Zzq", "oWdzUpOlkX", "oZkqkkvdND"]


def test_openreview_v1_plain_values_and_notable_top():
    unlearning, promptriever = read_openreview(fixture("openreview-v1.json"), "v1.json")
    assert unlearning.origin == "v1.json:2"
    assert unlearning.title == ("Towards Scalable Exact Machine Unlearning Using "
                                "Parameter-Efficient Fine-Tuning")
    assert unlearning.tags == ("machine unlearning", "parameter-efficient fine-tuning")
    assert (unlearning.venue, unlearning.presentation) == ("ICLR 2023", "oral")
    assert unlearning.date == dt.date(2022, 9, 22)
    assert promptriever.origin == "v1.json:30"
    assert (promptriever.venue, promptriever.presentation) == ("ICLR 2023", "spotlight")
    assert (unlearning.tldr, promptriever.tldr) == ("", "Retrievers that follow instructions.")


@pytest.mark.parametrize("venue, expected", [
    ("ICLR 2025 Poster", ("ICLR 2025", "poster", "")),
    ("NeurIPS 2024 oral", ("NeurIPS 2024", "oral", "")),
    ("ICML 2024 (Spotlight)", ("ICML 2024", "spotlight", "")),
    ("TMLR", ("TMLR", "", "")),
    ("ICLR 2025 Conference Withdrawn Submission",
     ("", "", "venue 'ICLR 2025 Conference Withdrawn Submission' is not an acceptance; left out")),
    ("", ("", "", "")),
])
def test_openreview_venue_split(venue, expected):
    assert split_venue(venue) == expected


def one_note(content: str, extra: str = "") -> str:
    return '{"notes": [\n  {"id": "abcdef12345",\n   "content": %s%s}\n]}' % (content, extra)


def test_openreview_wrong_types_are_errors_naming_the_note_line():
    assert errors_of(read_openreview, one_note('{"title": {"value": 42}}'), "n.json") == [
        "n.json:2: content.title must be text, got the number 42"]
    assert errors_of(read_openreview, one_note(
        '{"title": "T", "authors": {"value": "Ada Lovelace"}}'), "n.json") == [
        "n.json:2: content.authors must be a list of text, got 'Ada Lovelace'"]
    assert errors_of(read_openreview, one_note(
        '{"title": "T", "keywords": ["a", 3]}'), "n.json") == [
        "n.json:2: content.keywords must be a list of text, got a list holding the number 3"]
    assert errors_of(read_openreview, one_note('{"title": "T"}', ', "pdate": "2025"'),
                     "n.json") == [
        "n.json:2: pdate/cdate must be milliseconds since 1970, got '2025'"]
    assert errors_of(read_openreview, '{"notes": [\n"just text"]}', "n.json") == [
        "n.json:2: a note must be an object with a 'content' object"]


def test_openreview_bad_links_and_ids_are_left_out_with_a_reason():
    [paper] = read_openreview(one_note(
        '{"title": "T", "pdf": {"value": "javascript:alert(1)"}, "code": "https://github.com/a/b"}')
        .replace('"abcdef12345"', '"x/../y"'), "n.json")
    assert paper.links == {"code": "https://github.com/a/b"}
    assert paper.dropped == ("id 'x/../y' is not a valid openreview id; left out",
                             "content.pdf 'javascript:alert(1)' is not an http(s) URL; left out")


def test_openreview_invalid_json_names_its_line():
    assert errors_of(read_openreview, '{"notes": [\n  {"id": "a",}\n]}', "n.json") == [
        "n.json:2: not valid JSON: Expecting property name enclosed in double quotes (column 14)"]


# --- CSL-JSON -------------------------------------------------------------------------------

def test_csl_from_crossref_strips_jats_and_keeps_latex():
    [paper] = read_csl(fixture("crossref.json"), "work.json")
    assert paper.title == "Variance-Reducing Couplings for Random Features"
    assert paper.authors == ("Isaac Reid", "Stratis Markou", "Krzysztof Choromanski",
                             "Richard E. Turner", "Adrian Weller")
    assert paper.abstract == (
        "Random features approximate kernels with $\\mathcal{O}(d)$ cost & we show couplings "
        "that reduce their variance by orders of magnitude.\n\nA second paragraph: $a < b$.")
    assert paper.venue == "Journal of the ACM 2024"  # an unknown venue gains its year
    assert paper.citation == {"journal": "Journal of the ACM", "publisher": "Association for "
                              "Computing Machinery (ACM)", "volume": "71", "number": "4",
                              "pages": "1–27"}
    assert paper.date == dt.date(2024, 7, 1)
    assert paper.links == {"doi": "10.1145/3650000.3650001"}
    assert paper.tags == ()  # Crossref's subjects describe the journal


def test_csl_from_doi_org_is_one_object_and_an_arxiv_doi_is_the_arxiv_id():
    [paper] = read_csl(fixture("doi-csl.json"), "doi.json")
    assert paper.origin == "doi.json:1"
    assert paper.title == "Adversarial Attacks on Data Attribution"
    assert paper.authors == ("Xinhe Wang", "Pingbang Hu", "Junwei Deng", "Jiaqi W. Ma")
    assert paper.links == {"arxiv": "2409.05657"}
    assert paper.venue == ""
    assert paper.date == dt.date(2024, 1, 1)
    assert paper.abstract.endswith("We find that $k$ attacks < budgets.")
    assert paper.tags == ("Machine Learning (cs.LG)", "Cryptography and Security (cs.CR)",
                          "FOS: Computer and information sciences")


def test_csl_from_zotero_names_particles_literal_and_string_dates():
    rag, other = read_csl(fixture("zotero-csl.json"), "zotero.json")
    assert rag.origin == "zotero.json:2"
    assert rag.key == "http://zotero.org/users/1234567/items/ABCD2345"
    assert rag.authors == ("Bowen Jin", "Jinsung Yoon", "Jiawei Han", "Sercan Ö. Arik")
    assert rag.date == dt.date(2025, 4, 24)
    assert rag.tags == ("retrieval", "long context", "RAG")
    assert rag.links == {"openreview": "oU3tpaR8fm"}
    assert rag.abstract == "Language models are increasingly used in long-context settings."
    assert other.origin == "zotero.json:20"
    assert other.authors == ("The Digest Consortium", "Ludwig van Beethoven", "Vasco da Gama Jr.")
    assert other.venue == ""  # 'arXiv' is no venue
    assert other.date is None
    assert other.dropped == ("DOI '10.1000/bad doi' is not a valid doi id; left out",
                             "issued [2023, 13] is not a date; left out")


def test_csl_archive_id_and_openreview_archive_give_the_ids_back():
    items = [{"type": "article", "title": "A", "number": "arXiv:2409.11136v2",
              "archive": "OpenReview", "archive_location": "odvSjn416y",
              "URL": "https://arxiv.org/abs/2409.11136"},
             {"type": "report", "title": "B", "number": 7, "archive": "Library",
              "archive_location": "Shelf 3"},
             {"type": "article", "title": "C", "number": "arXiv:not an id"}]
    a, b, c = read_csl(json.dumps(items), "papers.json")
    assert a.links == {"arxiv": "2409.11136", "openreview": "odvSjn416y"}
    assert (b.links, b.dropped) == ({}, ())
    assert c.dropped == ("number 'not an id' is not a valid arxiv id; left out",)


def test_bibtex_openreview_field_gives_the_id():
    [paper] = read_bibtex("@inproceedings{k, title={A}, eprint={2409.11136}, archivePrefix={arXiv},"
                          " openreview={odvSjn416y}, url={https://arxiv.org/abs/2409.11136}}", "a.bib")
    assert paper.links == {"arxiv": "2409.11136", "openreview": "odvSjn416y"}


def test_csl_crossref_search_results_are_read_item_by_item():
    text = ('{"status": "ok", "message": {"total-results": 2, "items": [\n'
            '  {"title": ["First"], "DOI": "10.1000/one"},\n'
            '  {"title": ["Second"], "URL": "https://example.org/two.pdf"}]}}')
    first, second = read_csl(text, "search.json")
    assert (first.origin, first.links) == ("search.json:2", {"doi": "10.1000/one"})
    assert (second.origin, second.links) == ("search.json:3",
                                             {"pdf": "https://example.org/two.pdf"})


@pytest.mark.parametrize("issued", ['["²³", 1]', '["' + "1" * 5000 + '"]', "[" + "1" * 5000 + "]"])
def test_a_csl_date_of_superscripts_or_five_thousand_digits_is_an_error_not_a_traceback(issued):
    text = f'[{{"type": "article", "title": "T", "issued": {{"date-parts": [{issued}]}}}}]'
    try:
        [paper] = read_csl(text, "x.json")
    except BuildFailed as failed:
        assert [str(e) for e in failed.errors] == [
            "x.json:1: a number in it cannot be read: Exceeds the limit (4300 digits) for "
            "integer string conversion: value has 5000 digits"]
    else:
        assert paper.date is None and paper.dropped[0].startswith("issued [") \
            and paper.dropped[0].endswith("is not a date; left out")


def test_csl_wrong_types_are_errors_naming_the_item_line():
    assert errors_of(read_csl, '[\n{"type": "article", "title": 7}]', "c.json") == [
        "c.json:2: title must be text, got the number 7"]
    assert errors_of(read_csl, '{"type": "article", "title": []}', "c.json") == [
        "c.json:1: the item has no title"]
    assert errors_of(read_csl, '[{"title": "T"},\n {"title": "U", "author": "Ada"}]',
                     "c.json") == [
        "c.json:2: author must be a list of name objects, got 'Ada'"]
    assert errors_of(read_csl, '[{"title": "T", "author": [{"family": ["Lovelace"]}]}]',
                     "c.json") == ["c.json:1: author family must be text, got a list"]


# --- Telling the formats apart ----------------------------------------------------------------

@pytest.mark.parametrize("name, first_title", [
    ("zotero.bib", "Counterfactual Generative Modeling with Variational Causal Inference"),
    ("traps.bib", r"Deep Öptimal Transport for $\ell_1$ Costs: Nested Braces Are Fine"),
    ("arxiv-query.xml", "Promptriever: Instruction-Trained Retrievers Can Be Prompted Like "
                        "Language Models"),
    ("openreview-v2.json", "Track-On: Transformer-based Online Point Tracking with Memory"),
    ("openreview-v1.json", "Towards Scalable Exact Machine Unlearning Using "
                           "Parameter-Efficient Fine-Tuning"),
    ("crossref.json", "Variance-Reducing Couplings for Random Features"),
    ("doi-csl.json", "Adversarial Attacks on Data Attribution"),
    # the name says one thing, the content another: the content wins
    ("scholar-export.txt", "Promptriever: Instruction-trained retrievers can be prompted "
                           "like language models"),
    ("zotero-export.bib", "Long-Context LLMs Meet RAG: Overcoming Challenges for Long "
                          "Inputs in RAG"),
])
def test_read_papers_tells_the_format_by_content(name, first_title):
    papers = read_papers(FIXTURES / name)
    assert papers[0].title == first_title
    assert papers[0].origin.startswith(f"{name}:")


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_read_papers_sends_a_plain_abstract_list_elsewhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, "abstracts.txt", b"ICLR 2025\n\nWe study @things{.\n")
    with pytest.raises(UnknownFormat) as failed:
        read_papers(path)
    assert [str(e) for e in failed.value.errors] == [
        "abstracts.txt:1: not a BibTeX, arXiv Atom, OpenReview or CSL-JSON file; a plain "
        "list of abstracts needs --metadata"]


def test_read_papers_unknown_json_and_other_xml(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UnknownFormat) as failed:
        read_papers(write(tmp_path, "x.json", b'{"papers": []}'))
    assert str(failed.value) == ("x.json:1: JSON, but not a BibTeX, arXiv Atom, OpenReview or "
                                 "CSL-JSON file; a plain list of abstracts needs --metadata")
    with pytest.raises(UnknownFormat):
        read_papers(write(tmp_path, "rss.xml", b'<rss version="2.0"><channel/></rss>'))
    assert read_papers(write(tmp_path, "empty.json", b"[]")) == []


def test_read_papers_comments_and_bom_before_bibtex(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = "\ufeff% Encoding: UTF-8\n\n@Article{k, title = {Tést}}".encode("utf-8")
    [paper] = read_papers(write(tmp_path, "jabref.bib", data))
    assert (paper.title, paper.origin) == ("Tést", "jabref.bib:3")


def test_read_papers_refuses_utf16_bad_utf8_and_huge_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cases = {
        "utf16.bib": ("@misc{a, title={A}}".encode("utf-16"),
                      "utf16.bib:1: the file is UTF-16; save it as UTF-8"),
        "latin1.bib": ("@misc{a,\n title={Müller}}".encode("latin-1"),
                       "latin1.bib:2: not UTF-8 (byte 0xfc); save the file as UTF-8"),
    }
    for name, (data, message) in cases.items():
        with pytest.raises(BuildFailed) as failed:
            read_papers(write(tmp_path, name, data))
        assert str(failed.value) == message
    huge = tmp_path / "huge.bib"
    with huge.open("wb") as stream:
        stream.truncate(MAX_BYTES + 1)
    with pytest.raises(BuildFailed) as failed:
        read_papers(huge)
    assert str(failed.value) == "huge.bib:1: larger than 50 MB; split it into smaller files"


def test_plain_text_skips_the_tex_decoder_and_reads_as_the_decoder_would():
    import random
    import re as regex
    from generator.importers import cleaning
    rng = random.Random(2025)
    alphabet = "abc XYZ'-.,:;()!?é0123456789/+*@|=\t"
    samples = ["Hara Linaka", "O'Brien", "Jean-Luc Picard", "Zoë Øster", "a - b", "5 + 3 = 8"]
    samples += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
                for _ in range(3000)]
    plain = [text for text in samples if not cleaning._TEX_MARKUP.search(text)]
    assert len(plain) > 2000
    for text in plain:
        decoded = cleaning._TEX.latex_to_text(text)
        assert cleaning.tex_to_text(text) == cleaning.one_line(regex.sub(r"[\\{}]", "", decoded))
