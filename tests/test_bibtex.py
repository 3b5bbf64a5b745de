import dataclasses
import datetime as dt
import gzip
import json
import pickle

from factories import REPO, make_paper, make_site, parts_of
from texcheck import math_problems
from generator.model.citation import assign_keys, base_key, publication_year
from generator.model.records import Citation, Link
from generator.outputs.bibtex import (bib_file, bib_jobs, bibtex_entry, tex_escape, tex_title,
                                      verbatim)

NEURIPS = REPO / "data/neurips2018-papers.jsonl.gz"

URL = "https://example.org/digest/papers/x/"


def test_tex_escape_escapes_every_special_character_with_balanced_braces():
    escaped = tex_escape(r"50% of $x_1$ & #2 {set} ~ ^ \cmd")
    assert escaped == (r"50\% of \$x\_1\$ \& \#2 \textbraceleft{}set\textbraceright{} "
                       r"\textasciitilde{} \textasciicircum{} \textbackslash{}cmd")
    assert escaped.count("{") == escaped.count("}")


def test_tex_escape_breaks_ligatures_so_the_title_reads_back_as_it_is():
    assert tex_escape("A -- B --- C ``D'' !`E ?`F a-b") == (
        "A -{}- B -{}-{}- C `{}`D'{}' !{}`E ?{}`F a-b")


def test_tex_escape_keeps_unicode_and_collapses_whitespace():
    assert tex_escape("Görkay  Aydemir\n陈 – naïve") == "Görkay Aydemir 陈 – naïve"


def test_verbatim_fields_keep_urls_but_encode_braces_and_spaces():
    assert verbatim("https://x.org/a_b%20c?q={1}") == "https://x.org/a_b%20c?q=%7B1%7D"


def test_entry_for_a_conference_paper_on_arxiv():
    paper = make_paper("x", title="LLaMA & Friends: 100% Bayesian", authors=("Ada Lovelace", "Alan Turing"),
                       venue="ICLR 2025", tags=["llm"], ids={"arxiv": "2406.16257"},
                       links=(Link("arxiv", "arXiv", "https://arxiv.org/abs/2406.16257"),))
    assert bibtex_entry(paper, "lovelace2025llama", URL) == (
        "@inproceedings{lovelace2025llama,\n"
        "  title = {{LLaMA \\& Friends: 100\\% Bayesian}},\n"
        "  author = {Ada Lovelace and Alan Turing},\n"
        "  booktitle = {ICLR 2025},\n"
        "  year = {2025},\n"
        "  eprint = {2406.16257},\n"
        "  archivePrefix = {arXiv},\n"
        "  url = {https://arxiv.org/abs/2406.16257},\n"
        "  keywords = {llm},\n"
        "}\n")


def test_entry_without_a_venue_is_misc_and_points_at_the_digest_page():
    paper = make_paper("x", ids={"doi": "10.1000/a_b"}, date=dt.date(2023, 5, 1))
    entry = bibtex_entry(paper, "k", URL)
    assert entry.startswith("@misc{k,\n") and "booktitle" not in entry
    assert "  doi = {10.1000/a_b},\n" in entry and "  year = {2023},\n" in entry
    assert f"  url = {{{URL}}},\n" in entry


def test_an_openreview_id_has_its_own_field_beside_the_arxiv_url():
    paper = make_paper("x", venue="ICLR 2025", ids={"arxiv": "2409.11136", "openreview": "odvSjn416y"},
                       links=(Link("arxiv", "arXiv", "https://arxiv.org/abs/2409.11136"),))
    entry = bibtex_entry(paper, "k", URL)
    assert "  openreview = {odvSjn416y},\n  url = {https://arxiv.org/abs/2409.11136},\n" in entry
    forum = "https://openreview.net/forum?id=odvSjn416y"
    only = make_paper("x", ids={"openreview": "odvSjn416y"},
                      links=(Link("openreview", "OpenReview", forum),))
    assert "openreview =" not in bibtex_entry(only, "k", URL), "the url gives it already"


def test_arxiv_preprint_says_so_in_howpublished():
    entry = bibtex_entry(make_paper("x", ids={"arxiv": "2409.05657"}), "k", URL)
    assert "  howpublished = {arXiv preprint arXiv:2409.05657},\n" in entry


def test_an_author_named_with_and_stays_one_author():
    entry = bibtex_entry(make_paper("x", authors=("Research and Development Team", "B C")), "k", URL)
    assert "  author = {{Research and Development Team} and B C},\n" in entry


def test_publication_year_prefers_the_venue_then_arxiv_then_the_date_added():
    assert publication_year(make_paper(venue="NeurIPS 2023", ids={"arxiv": "2406.1"})) == 2023
    assert publication_year(make_paper(ids={"arxiv": "2406.16257"})) == 2024
    assert publication_year(make_paper(date=dt.date(2026, 1, 2))) == 2026


def test_key_is_last_name_year_and_first_significant_title_word_in_ascii():
    paper = make_paper(title="On the Müller-Lee Transform", authors=("José Müller-Lee",),
                       venue="ICLR 2025")
    assert base_key(paper) == "mullerlee2025muller"
    assert base_key(make_paper(title="A", authors=("Curie, Marie",), venue="X 2020")) == "curie2020"
    assert base_key(make_paper(authors=("陈",), venue="ICLR 2025")) == "anon2025paper"


def test_a_paper_keeps_its_base_key_made_with_it_and_made_again_with_a_changed_paper():
    paper = make_paper(title="On the Müller-Lee Transform", authors=("José Müller-Lee",),
                       venue="ICLR 2025")
    assert paper.cite_base == base_key(paper) == "mullerlee2025muller"
    renamed = dataclasses.replace(paper, title="Deep Nets", venue="NeurIPS 2024")
    assert renamed.cite_base == base_key(renamed) == "mullerlee2024deep"
    assert pickle.loads(pickle.dumps(renamed)).cite_base == "mullerlee2024deep"


def test_colliding_keys_get_letters_and_the_first_paper_added_keeps_the_plain_key():
    first = make_paper("first", title="Deep Nets", date=dt.date(2025, 1, 1))
    second = make_paper("second", title="Deep Nets", date=dt.date(2025, 2, 1))
    keys = assign_keys([second, first])
    assert keys == {"first": "lovelace2025deep", "second": "lovelace2025deepb"}
    third = make_paper("third", title="Deep Nets", date=dt.date(2025, 3, 1))
    assert assign_keys([first, second, third])["third"] == "lovelace2025deepc"
    assert {k: v for k, v in assign_keys([first, second, third]).items() if k != "third"} == keys


def test_bib_files_write_all_bib_sorted_by_key_and_no_file_per_tag():
    site = make_site([make_paper("b", title="Zebra", tags=["llm"]),
                      make_paper("a", title="Apple", tags=["llm", "rag"])])
    files = {f.path: f.data.decode() for f in (job.made() for job in bib_jobs(site, parts_of(site)))}
    # why: a tag's entries are cut from all.bib in the browser (reading/reading.js), not kept again
    assert sorted(files) == ["all.bib"]
    assert files["all.bib"].index("lovelace2025apple") < files["all.bib"].index("lovelace2025zebra")


def test_an_entry_is_made_from_its_paper_key_and_the_digest_page_as_fallback_url():
    site = make_site([make_paper("b", title="Zebra"), make_paper("a", title="Apple")])
    entries = [part.bibtex for part in parts_of(site)]
    assert [entry.splitlines()[0] for entry in entries] == [
        "@misc{lovelace2025apple,", "@misc{lovelace2025zebra,"]
    assert "  url = {https://example.org/digest/papers/a/},\n" in entries[0]
    assert f"  url = {{{URL.replace('/x/', '/b/')}}},\n" in entries[1]


def test_a_bib_file_is_its_entries_separated_by_blank_lines():
    assert bib_file(("@misc{a,\n}\n", "@misc{b,\n}\n")) == b"@misc{a,\n}\n\n@misc{b,\n}\n"


def test_the_sites_citation_keys_are_assigned_across_all_its_papers():
    papers = [make_paper("x", title="Deep Nets", date=dt.date(2025, 1, 1)),
              make_paper("y", title="Deep Nets", date=dt.date(2025, 2, 1))]
    assert make_site(papers).cite_keys == assign_keys(papers) == {
        "x": "lovelace2025deep", "y": "lovelace2025deepb"}


def test_title_written_in_tex_is_kept_as_written():
    paper = make_paper("x", title=r"$\ell_1$-regression with Heavy-tailed Distributions & more")
    entry = bibtex_entry(paper, "zhang2018", "https://example.org/x/")
    assert r"title = {{$\ell_1$-regression with Heavy-tailed Distributions \& more}}," in entry


def test_title_with_an_unpaired_dollar_is_escaped_as_text():
    entry = bibtex_entry(make_paper("x", title=r"Costs $5 and \alpha"), "k", "https://example.org/x/")
    assert r"title = {{Costs \$5 and \textbackslash{}alpha}}," in entry


PMLR_PAGE = "https://proceedings.mlr.press/v97/roeder19a.html"
PMLR_PDF = "http://proceedings.mlr.press/v97/roeder19a/roeder19a.pdf"


def test_an_entry_gives_back_what_the_citation_kept_and_the_papers_own_page():
    cited = Citation(booktitle="Proceedings of the 36th International Conference on Machine "
                     "Learning", series="Proceedings of Machine Learning Research",
                     editor=("Kamalika Chaudhuri", "Ruslan Salakhutdinov"), publisher="PMLR",
                     volume="97", pages="4445–4455")
    paper = make_paper("x", title="Efficient Amortised Inference", venue="ICML 2019",
                       citation=cited, links=(Link("pdf", "PDF", PMLR_PDF),
                                              Link("page", "PMLR", PMLR_PAGE)))
    assert bibtex_entry(paper, "roeder2019efficient", URL) == (
        "@inproceedings{roeder2019efficient,\n"
        "  title = {{Efficient Amortised Inference}},\n"
        "  author = {Ada Lovelace},\n"
        "  booktitle = {Proceedings of the 36th International Conference on Machine Learning},\n"
        "  series = {Proceedings of Machine Learning Research},\n"
        "  editor = {Kamalika Chaudhuri and Ruslan Salakhutdinov},\n"
        "  publisher = {PMLR},\n"
        "  volume = {97},\n"
        "  pages = {4445--4455},\n"
        "  year = {2019},\n"
        f"  url = {{{PMLR_PAGE}}},\n"
        f"  pdf = {{{PMLR_PDF}}},\n"
        "}\n")


def test_a_journal_makes_an_article_and_a_pdf_alone_is_the_url():
    paper = make_paper("x", venue="JMLR 2020", citation=Citation(
        journal="Journal of Machine Learning Research", volume="21", number="140"),
        links=(Link("pdf", "PDF", "https://jmlr.org/papers/volume21/20-074/20-074.pdf"),))
    entry = bibtex_entry(paper, "k", URL)
    assert entry.startswith("@article{k,\n") and "booktitle" not in entry
    assert "  journal = {Journal of Machine Learning Research},\n  volume = {21},\n" \
           "  number = {140},\n  year = {2020},\n" in entry
    assert "  url = {https://jmlr.org/papers/volume21/20-074/20-074.pdf},\n" in entry
    assert "pdf =" not in entry, "the url gives it already"


def test_math_written_outside_math_is_put_in_math_and_bare_scripts_escaped():
    assert tex_title(r"\ell_1-regression with \tilde{O}(\sqrt{n}) features") == (
        r"$\ell_1$-regression with $\tilde{O}(\sqrt{n})$ features")
    assert tex_title(r"{x_1} ~ y^2 -- $\alpha^2_i$'s \"{o} & #1") == (
        r"{x\_1} ~ y\textasciicircum{}2 -- $\alpha^2_i$'s \"{o} \& \#1")


def test_no_real_neurips_title_puts_a_math_command_or_script_outside_math_in_all_bib():
    rows = [json.loads(line) for line in gzip.open(NEURIPS, "rt", encoding="utf-8")]
    titles = [row["title"] for row in rows] + [r"\eps-DP with \cA_t and x_2", r"A^2 \alpha"]
    assert {title: math_problems(tex_title(title)) for title in titles
            if math_problems(tex_title(title))} == {}
