"""`build.py new`: a draft paper file from a title or an id, that `check` accepts as it is."""

import datetime as dt
import re
import shlex
from pathlib import Path

import pytest

from factories import SITE_YAML, paper_source, write_content
from generator.building.checkup import check_content
from generator import cli
from generator.cli import main
from generator.importers import fetch
from generator.content.scaffold import NewPaper, ScaffoldRefused, new_paper, paper_file_text

NEXT = ("Next: edit it (replace each TODO), then `.venv/bin/python build.py serve --drafts` to "
        "preview it; delete `draft: true` to publish it.")


def new(tmp_path, monkeypatch, capsys, *args, papers=None):
    write_content(tmp_path, papers or {})
    monkeypatch.chdir(tmp_path)
    code = main(["new", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_a_title_gives_a_draft_named_after_it_that_check_accepts(tmp_path, monkeypatch, capsys):
    assert new(tmp_path, monkeypatch, capsys, "Attention Is All You Need", "--date", "2025-04-24") == (
        0, ["wrote content/papers/attention-is-all-you-need.md", NEXT], [])
    assert main(["check", "--strict"]) == 0
    assert capsys.readouterr().out == "1 paper (1 draft), 0 errors, 0 warnings\n"
    [paper] = check_content(tmp_path / "content").papers
    assert (paper.title, paper.authors, paper.date, paper.draft, paper.links) == (
        "Attention Is All You Need", ("TODO: First Author",), dt.date(2025, 4, 24), True, ())


def test_the_file_names_every_field_with_an_example_and_fills_in_what_is_known():
    text = paper_file_text(new_paper("arxiv:2409.05657"), dt.date(2025, 4, 24), "ICLR 2025",
                           ("llm", "it's"))
    assert text == """\
---
# Made by `build.py new`: replace each TODO, then delete `draft: true` to publish.
# Every field is described in docs/reference/front-matter.md. Below the closing '---'
# you may write notes in Markdown; they are shown under the abstract.
title: 'TODO: title of arXiv 2409.05657'
authors:                  # in published order, one per line
  - 'TODO: First Author'
date: 2025-04-24          # the day the paper joins the digest
venue: 'ICLR 2025'
tags: ['llm', 'it''s']
links:                    # ids or http(s) URLs; quote ids that look like numbers
  arxiv: '2409.05657'
  # openreview: oe51Q5Uo37
  # page: https://aclanthology.org/...
  # pdf: https://...
  # code: https://github.com/...
  # project: https://...
  # doi: 10.1000/xyz123
# tldr: 'One line shown above the abstract and in lists'
abstract: |-
  TODO: paste the abstract as arXiv or OpenReview gives it (LaTeX math such as $x^2$ is fine).
draft: true
---
"""


def test_an_id_with_venue_and_tags_reads_back_as_given(tmp_path, monkeypatch, capsys):
    code, out, _ = new(tmp_path, monkeypatch, capsys, "openreview:odvSjn416y", "--venue",
                       "ICLR  2025", "--tag", "it's", "--tag", "retrieval", "--date", "2025-01-02")
    assert (code, out[0]) == (0, "wrote content/papers/openreview-odvsjn416y.md")
    checkup = check_content(tmp_path / "content")
    assert (checkup.errors, checkup.findings) == ((), ())
    [paper] = checkup.papers
    assert paper.title == "TODO: title of OpenReview odvSjn416y"
    assert (paper.venue, [t.name for t in paper.tags]) == ("ICLR 2025", ["it's", "retrieval"])
    assert paper.ids == {"openreview": "odvSjn416y"}


def test_a_paper_named_by_its_arxiv_id_is_told_how_fetch_fills_it_in(tmp_path, monkeypatch,
                                                                      capsys):
    code, out, err = new(tmp_path, monkeypatch, capsys, "1706.03762")
    assert (code, err) == (0, [])
    assert out == ["wrote content/papers/arxiv-1706-03762.md",
                   "Next: `.venv/bin/python build.py fetch arxiv:1706.03762 --update` fills in its "
                   "title, authors and abstract from arXiv (or replace each TODO by hand), then "
                   "`.venv/bin/python build.py serve --drafts` to preview it; delete "
                   "`draft: true` to publish it."]


@pytest.mark.parametrize("given", ["doi:10.1002/(SICI)1097-0258", "openreview:odvSjn416y",
                                   "A Title", "arXiv:2409.05657v2"])
def test_the_commands_next_gives_are_ones_the_parser_takes(tmp_path, monkeypatch, capsys, given):
    (tmp_path / "my digest").mkdir()
    (tmp_path / "my digest/site.yaml").write_text(SITE_YAML)
    monkeypatch.chdir(tmp_path)
    assert main(["new", given, "--content", "my digest"]) == 0
    hint = capsys.readouterr().out.splitlines()[1]
    commands = re.findall(r"`\.venv/bin/python build\.py ([^`]*)`", hint)
    assert [c.split()[0] for c in commands] == (["serve"] if given == "A Title"
                                                else ["fetch", "serve"])
    for command in commands:
        args = cli._parser().parse_args(shlex.split(command))
        assert args.content == Path("my digest")
        if args.run is cli.run_fetch:
            assert args.update and fetch.parse_specs(args.specs) == [
                tuple(new_paper(given).links.items())[0]]


def test_once_published_the_placeholders_are_findings(tmp_path, monkeypatch, capsys):
    new(tmp_path, monkeypatch, capsys, "2409.05657")
    path = tmp_path / "content/papers/arxiv-2409-05657.md"
    path.write_text(path.read_text().replace("draft: true\n", ""))
    assert [f.kind for f in check_content(tmp_path / "content").findings] == [
        "placeholder", "placeholder", "placeholder"]


@pytest.mark.parametrize("given, links, slug", [
    ("arxiv:2409.05657", {"arxiv": "2409.05657"}, "arxiv-2409-05657"),
    ("arXiv:2409.05657v2", {"arxiv": "2409.05657v2"}, "arxiv-2409-05657v2"),
    ("2409.05657", {"arxiv": "2409.05657"}, "arxiv-2409-05657"),
    ("https://arxiv.org/abs/2409.05657", {"arxiv": "2409.05657"}, "arxiv-2409-05657"),
    ("openreview:odvSjn416y", {"openreview": "odvSjn416y"}, "openreview-odvsjn416y"),
    ("https://openreview.net/forum?id=odvSjn416y", {"openreview": "odvSjn416y"},
     "openreview-odvsjn416y"),
    ("doi:10.1000/xyz123", {"doi": "10.1000/xyz123"}, "doi-10-1000-xyz123"),
])
def test_an_id_is_read_in_each_form_a_curator_has_at_hand(given, links, slug):
    paper = new_paper(given)
    assert (paper.links, paper.slug) == (links, slug)
    assert paper.title.startswith("TODO: title of ")


def test_a_title_is_a_title_even_with_a_colon():
    assert new_paper("  Promptriever:  Instruction-Trained Retrievers ") == NewPaper(
        "Promptriever: Instruction-Trained Retrievers",
        "promptriever-instruction-trained-retrievers", {})


@pytest.mark.parametrize("given, message", [
    ("arxiv:12", "'12' is not an arXiv id; e.g. arxiv:2409.05657"),
    ("doi:xyz", "'xyz' is not a DOI; e.g. doi:10.1000/xyz123"),
    ("https://example.org/paper", "'https://example.org/paper' is not an arXiv, OpenReview or DOI "
                                  "address; give the paper's title, or an id such as "
                                  "arxiv:2409.05657"),
    ("?!", "'?!' has no letters or digits to name the file by; give the paper's title or its "
           "id, e.g. arxiv:2409.05657"),
])
def test_what_is_neither_a_title_nor_an_id_is_refused(given, message):
    with pytest.raises(ScaffoldRefused) as refused:
        new_paper(given)
    assert str(refused.value) == message


def test_an_existing_file_is_never_overwritten(tmp_path, monkeypatch, capsys):
    other = paper_source(title="Something Else")
    code, out, err = new(tmp_path, monkeypatch, capsys, "Attention Is All You Need",
                         papers={"attention-is-all-you-need": other})
    assert (code, out) == (1, [])
    assert err == ["error: content/papers/attention-is-all-you-need.md exists already; edit it, "
                   "or give another title"]
    assert (tmp_path / "content/papers/attention-is-all-you-need.md").read_text() == other


def test_a_paper_already_in_the_digest_is_refused_by_id(tmp_path, monkeypatch, capsys):
    code, out, err = new(tmp_path, monkeypatch, capsys, "2409.05657v3", papers={
        "known": paper_source(links={"doi": "10.48550/arXiv.2409.05657"})})
    assert (code, out) == (1, [])
    assert err == ["error: content/papers/known.md is this paper already: both have the arXiv id "
                   "2409.05657; edit that file instead"]
    assert sorted(p.name for p in (tmp_path / "content/papers").iterdir()) == ["known.md"]


def test_a_paper_already_in_the_digest_is_refused_by_title(tmp_path, monkeypatch, capsys):
    code, _, err = new(tmp_path, monkeypatch, capsys, "a paper!", papers={
        "known": paper_source(title="A Paper")})
    assert code == 1
    assert err == ["error: content/papers/known.md is this paper already: both have the title "
                   "'a paper' (case and punctuation aside); edit that file instead"]


def test_a_tag_without_letters_is_refused_before_anything_is_written(tmp_path, monkeypatch, capsys):
    code, _, err = new(tmp_path, monkeypatch, capsys, "X", "--tag=?!")
    assert (code, err) == (1, ["error: tag '?!' has no letters or digits to make its URL from"])
    assert list((tmp_path / "content/papers").iterdir()) == []


def test_a_day_that_is_not_one_is_a_usage_error(tmp_path, monkeypatch, capsys):
    with pytest.raises(SystemExit) as exit:
        new(tmp_path, monkeypatch, capsys, "X", "--date", "2025-02-30")
    assert exit.value.code == 2
    assert "argument --date: '2025-02-30' is not a real day (" in capsys.readouterr().err


def test_the_papers_folder_is_made_when_missing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fresh").mkdir()
    (tmp_path / "fresh/site.yaml").write_text(SITE_YAML)
    assert main(["new", "X Y", "--content", "fresh", "--date", "2025-01-01"]) == 0
    assert (tmp_path / "fresh/papers/x-y.md").read_text().startswith("---\n# Made by `build.py new`")


def test_a_chinese_title_names_its_file_in_its_own_letters(tmp_path, monkeypatch, capsys):
    assert new(tmp_path, monkeypatch, capsys, "机器学习的新方法", "--date", "2025-04-24")[:2] == (
        0, ["wrote content/papers/机器学习的新方法.md", NEXT])
    assert main(["check", "--strict"]) == 0
    assert main(["build", "--drafts", "--no-cache", "--jobs", "1"]) == 0
    assert (tmp_path / "_site/papers/机器学习的新方法/index.html").is_file()


def test_a_title_with_cyrillic_look_alikes_is_named_in_latin_letters():
    assert new_paper("Аttention Is All You Nееd").slug == "attention-is-all-you-need"
    assert new_paper("Внимание — это всё").slug == "внимание-это-все"
