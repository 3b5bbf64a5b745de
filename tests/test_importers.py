import datetime as dt

import pytest
import yaml

from factories import REPO
from generator.content.documents import read_document
from generator.model.errors import BuildFailed
from generator.importers.abstracts import import_papers, read_abstracts, slug_for_title

DATA = REPO.parent / "shared" / "data"
ABSTRACTS = DATA / "iclr2025-abstracts.txt"
METADATA = DATA / "iclr2025-metadata.yaml"


def run_import(tmp_path, **options):
    return import_papers(ABSTRACTS, METADATA, tmp_path / "papers", date="2026-11-29",
                         venue="ICLR 2025", **options)


def test_import_writes_one_file_per_abstract_with_merged_metadata(tmp_path):
    written = run_import(tmp_path)
    metadata = yaml.safe_load(METADATA.read_text())
    blocks = [text for _, text in read_abstracts(ABSTRACTS)][1:]
    assert len(written) == 19
    for path, meta, abstract in zip(written, metadata, blocks):
        front = read_document(path).front.values
        assert front["title"] == meta["title"]
        assert front["authors"] == meta["authors"]
        assert front["tags"] == meta["tags"]
        assert front["abstract"] == abstract, "abstracts are kept verbatim"
        assert front["date"] == "2026-11-29" and front["venue"] == "ICLR 2025"
        if "arxiv" in meta:
            assert front["links"]["arxiv"] == meta["arxiv"]
        if "project_page" in meta:
            assert front["links"]["project"] == meta["project_page"]


def test_import_refuses_to_overwrite_without_force(tmp_path):
    written = run_import(tmp_path)
    written[0].write_text("curator's edits")
    with pytest.raises(BuildFailed) as raised:
        run_import(tmp_path)
    assert len(raised.value.errors) == 19
    assert "pass --force" in raised.value.errors[0].message
    assert written[0].read_text() == "curator's edits"
    run_import(tmp_path, force=True)
    assert written[0].read_text() != "curator's edits"


def test_import_errors_when_abstracts_and_metadata_counts_differ(tmp_path):
    short = tmp_path / "meta.yaml"
    short.write_text(yaml.safe_dump(yaml.safe_load(METADATA.read_text())[:3]))
    with pytest.raises(BuildFailed, match="19 abstracts but 3 metadata entries"):
        import_papers(ABSTRACTS, short, tmp_path / "papers", date="2025-01-01")


def test_import_without_metadata_writes_drafts(tmp_path):
    text = tmp_path / "a.txt"
    text.write_text("My List\n\nFirst abstract, with $x$.\n\nSecond abstract.\n")
    written = import_papers(text, None, tmp_path / "papers", date="2025-01-01")
    fronts = [read_document(p).front.values for p in written]
    assert [f["title"] for f in fronts] == ["Paper 1", "Paper 2"]
    assert all(f["draft"] is True for f in fronts)
    assert fronts[0]["abstract"] == "First abstract, with $x$."


def test_shipped_content_is_the_importer_output(tmp_path):
    fresh = {p.name: read_document(p).front.values for p in run_import(tmp_path)}
    shipped = {p.name: read_document(p).front.values for p in (REPO / "content/papers").glob("*.md")}
    assert shipped == fresh


def test_slug_for_title_prefers_a_short_name_before_a_colon():
    assert slug_for_title("AgentOccam: A Simple Yet Strong Baseline") == "agentoccam"
    assert slug_for_title("Learning Graph Quantized Tokenizers") == "learning-graph-quantized-tokenizers"
