"""A paper file updated by `import --update` (generator/importers/paperfile.py): the curator's
links, comments and line ends kept, every line not refreshed kept byte for byte."""

from pathlib import Path

from factories import write_content
from generator.cli import main

CURATED = """\
---
title: Scaling Laws for Neural Language Models
authors: [Jared Kaplan]   # more to come
date: 2025-01-01
tags: [scaling]
links:
  arxiv: '2001.08361'
  pdf: https://example.org/camera-ready.pdf  # camera-ready, not arXiv's
abstract: |-
  Old abstract.
---
My notes, kept.
"""
BIB = """\
@misc{k, title={Scaling Laws for Neural Language Models}, author={Jared Kaplan and Sam McCandlish},
      eprint={2001.08361}, archivePrefix={arXiv}, url={https://cdn.example.org/scaling.pdf},
      abstract={We study empirical scaling laws.}, doi={10.1000/scaling}}
"""


def update(tmp_path: Path, monkeypatch, capsys, text: str, *args: str) -> bytes:
    content = write_content(tmp_path, {})
    (content / "papers" / "scaling.md").write_bytes(text.encode())
    (tmp_path / "a.bib").write_text(BIB)
    monkeypatch.chdir(tmp_path)
    assert main(["import", "a.bib", "--update", *args]) == 0
    capsys.readouterr()
    return (content / "papers" / "scaling.md").read_bytes()


def test_update_keeps_the_curators_link_of_a_kind_the_source_gives_and_its_comment(
        tmp_path, monkeypatch, capsys):
    after = update(tmp_path, monkeypatch, capsys, CURATED).decode()
    assert "  pdf: https://example.org/camera-ready.pdf  # camera-ready, not arXiv's\n" in after
    assert "  doi: 10.1000/scaling\n" in after, "a kind the file lacks is added"
    assert "authors: [Jared Kaplan, Sam McCandlish]   # more to come\n" not in after
    assert "authors:\n- Jared Kaplan\n- Sam McCandlish\n" in after
    assert after.endswith("---\nMy notes, kept.\n")


def test_replace_links_lets_the_source_replace_a_link_and_keeps_its_comment(
        tmp_path, monkeypatch, capsys):
    after = update(tmp_path, monkeypatch, capsys, CURATED, "--replace-links").decode()
    assert "  pdf: https://cdn.example.org/scaling.pdf  # camera-ready, not arXiv's\n" in after
    assert "  arxiv: '2001.08361'\n" in after


def test_a_comment_after_a_replaced_one_line_value_is_kept(tmp_path, monkeypatch, capsys):
    text = CURATED.replace("title: Scaling Laws for Neural Language Models\n",
                           "title: Scaling laws  # my short title\n")
    after = update(tmp_path, monkeypatch, capsys, text).decode()
    assert "title: Scaling Laws for Neural Language Models  # my short title\n" in after


def test_a_crlf_file_stays_crlf_notes_included(tmp_path, monkeypatch, capsys):
    text = CURATED.replace("\n", "\r\n") + "More notes\r\n"
    after = update(tmp_path, monkeypatch, capsys, text)
    assert b"\n" not in after.replace(b"\r\n", b"")
    assert after.endswith(b"---\r\nMy notes, kept.\r\nMore notes\r\n")
    assert b"  doi: 10.1000/scaling\r\n" in after and b"We study empirical scaling laws.\r\n" in after
    assert update(tmp_path / "again", monkeypatch, capsys, after.decode()) == after
