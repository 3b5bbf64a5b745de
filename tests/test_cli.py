import os
import re
import subprocess
import sys

from factories import REPO, SITE_YAML, paper_source, write_content


def run(*args, cwd, env=None):
    return subprocess.run([sys.executable, str(REPO / "build.py"), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def test_build_is_the_default_command_and_reports_each_stage(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    result = run(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    for stage in ("read", "papers", "files", "write"):
        assert f"  {stage} " in result.stdout
    assert re.search(r"  papers +1 paper \(0 drafts left out\), 0 tags ", result.stdout)
    assert str((tmp_path / "_site").resolve()) in result.stdout
    assert (tmp_path / "_site/papers/x/index.html").is_file()


def test_build_options_override_out_base_url_and_drafts(tmp_path):
    write_content(tmp_path, {"x": paper_source(), "d": paper_source(draft=True)})
    result = run("build", "--out", "public", "--base-url", "https://u.github.io/r/", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "public/papers/d").exists()
    assert 'href="/r/papers/x/"' in (tmp_path / "public/index.html").read_text()
    assert run("--out", "public", "--drafts", cwd=tmp_path).returncode == 0
    assert (tmp_path / "public/papers/d/index.html").is_file()


def test_a_mistyped_command_names_the_nearest_and_every_command(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    result = run("biuld", "--drafts", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ("build.py: unknown command 'biuld'; did you mean 'build'? Commands: "
                             "build, serve, check, new, import, fetch (`build.py` alone builds; "
                             "`build.py --help` says more)\n")
    assert not (tmp_path / "_site").exists()
    assert "unknown command 'xyz'. Commands: build, serve" in run("xyz", cwd=tmp_path).stderr
    assert "did you mean 'check'?" in run("Chek", cwd=tmp_path).stderr


def test_the_commands_listed_are_the_parsers_own():
    from generator import cli
    [subparsers] = [a for a in cli._parser()._actions if a.choices]
    assert tuple(subparsers.choices) == cli.COMMANDS


def test_build_writes_cname_and_warns_when_base_url_is_another_domain(tmp_path):
    write_content(tmp_path, {"x": paper_source()}, SITE_YAML + "cname: digest.example.org\n")
    result = run(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "warning: cname is 'digest.example.org' but the site is built for" in result.stdout
    assert (tmp_path / "_site/CNAME").read_text() == "digest.example.org\n"
    result = run("--base-url", "https://digest.example.org/", cwd=tmp_path)
    assert result.returncode == 0 and "warning" not in result.stdout


def test_failed_build_keeps_the_last_good_site_and_leaves_no_temp_folder(tmp_path):
    content = write_content(tmp_path, {"x": paper_source(title="Good Title")})
    assert run(cwd=tmp_path).returncode == 0
    before = (tmp_path / "_site/papers/x/index.html").read_bytes()
    (content / "papers/x.md").write_text(paper_source(date="someday"))
    result = run(cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("content/papers/x.md:5: 'date' must be YYYY-MM-DD")
    assert "Traceback" not in result.stderr
    assert (tmp_path / "_site/papers/x/index.html").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".digest-cache", "_site", "content"]


def test_build_refuses_to_replace_a_folder_it_did_not_make(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    result = run("--out", "content", cwd=tmp_path)
    assert result.returncode == 1
    assert "is not a site this generator built" in result.stderr
    assert (tmp_path / "content/site.yaml").is_file()


def test_rebuild_with_no_change_writes_nothing(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    run(cwd=tmp_path)
    result = run(cwd=tmp_path)
    assert "nothing changed since the last build" in result.stdout
    assert sorted(os.listdir(tmp_path / ".digest-cache")) == ["plain", "results.sqlite3"]
    # the papers' rows and parts, and no temporary file left
    assert [name[-8:] for name in os.listdir(tmp_path / ".digest-cache/plain")] == [".marshal"] * 2
    assert "0 written" in run("--no-cache", cwd=tmp_path).stdout


def test_a_build_with_nothing_to_do_loads_none_of_the_stages(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    run(cwd=tmp_path)
    # the process ends at once after a build (end_now): what it loaded is read from -X importtime
    for expect_stages, change in ((False, None), (True, "papers/x.md")):
        if change:
            (tmp_path / "content" / change).write_text(paper_source(title="Changed"))
        result = subprocess.run([sys.executable, "-X", "importtime", str(REPO / "build.py")],
                                cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        loaded = {line.split("|")[-1].strip() for line in result.stderr.splitlines()}
        assert ("nothing changed since the last build" in result.stdout) is not expect_stages
        for stage in ("generator.building.pipeline", "generator.outputs.kinds", "jinja2"):
            assert (stage in loaded) is expect_stages, stage


def test_import_command_writes_papers_and_reports_them(tmp_path):
    write_content(tmp_path, {})
    (tmp_path / "a.txt").write_text("An abstract.\n")
    meta = tmp_path / "m.yaml"
    meta.write_text("- title: 'X: Y'\n  authors: [A]\n  arxiv: '2406.16257'\n")
    result = run("import", "a.txt", "--metadata", "m.yaml", "--date", "2025-01-01", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("created (1):\n  content/papers/x.md  <- a.txt:1\nImport: 1 created, "
                             "0 updated, 0 unchanged, 0 skipped, 0 drafts, 0 tag warnings.\n")
    assert (tmp_path / "content/papers/x.md").is_file()


ICLR = ("import", str(REPO / "data/iclr2025-abstracts.txt"), "--metadata",
        str(REPO / "data/iclr2025-metadata.yaml"), "--venue", "ICLR 2025")


def content_bytes(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_import_into_an_empty_digest_builds_and_a_second_import_changes_no_byte(tmp_path):
    write_content(tmp_path, {})
    assert run(*ICLR, "--date", "2026-11-29", cwd=tmp_path).returncode == 0
    assert run(cwd=tmp_path).returncode == 0
    assert len(list((tmp_path / "_site/papers").iterdir())) == 19
    before = content_bytes(tmp_path / "content")
    again = run(*ICLR, "--date", "2027-01-01", cwd=tmp_path)
    assert again.returncode == 0 and "0 created, 0 updated, 0 unchanged, 19 skipped" in again.stdout
    assert "(use --update to refresh it)" in again.stdout
    refreshed = run(*ICLR, "--update", "--tag", "new", cwd=tmp_path)
    assert refreshed.returncode == 0 and "19 unchanged" in refreshed.stdout
    assert content_bytes(tmp_path / "content") == before


def test_import_update_refreshes_owned_fields_and_dry_run_writes_nothing(tmp_path):
    write_content(tmp_path, {"x": paper_source(title="Old", links={"arxiv": "2406.16257"},
                                               body="Notes.\n")})
    (tmp_path / "a.txt").write_text("New abstract.\n")
    (tmp_path / "m.yaml").write_text("- title: New\n  authors: [B]\n  arxiv: '2406.16257'\n")
    before = content_bytes(tmp_path / "content")
    dry = run("import", "a.txt", "--metadata", "m.yaml", "--update", "--dry-run", cwd=tmp_path)
    assert "updated (1):\n  content/papers/x.md (title, authors, abstract)  <- a.txt:1" in dry.stdout
    assert dry.stdout.endswith("; dry run, nothing was written.\n")
    assert content_bytes(tmp_path / "content") == before
    assert run("import", "a.txt", "--metadata", "m.yaml", "--update", cwd=tmp_path).returncode == 0
    text = (tmp_path / "content/papers/x.md").read_text()
    assert "title: New\n" in text and text.endswith("---\nNotes.\n")


def test_import_usage_errors_exit_2_and_content_errors_exit_1_writing_nothing(tmp_path):
    write_content(tmp_path, {})
    (tmp_path / "a.txt").write_text("An abstract.\n")
    (tmp_path / "m.yaml").write_text("- title: T\n  authors: A\n")
    bad_date = run("import", "a.txt", "--metadata", "m.yaml", "--date", "2025-13-01", cwd=tmp_path)
    assert bad_date.returncode == 2 and "is not a real day" in bad_date.stderr
    two = run("import", "a.txt", "a.txt", "--metadata", "m.yaml", cwd=tmp_path)
    assert two.returncode == 2 and "with --metadata give one FILE" in two.stderr
    bad = run("import", "a.txt", "--metadata", "m.yaml", cwd=tmp_path)
    assert bad.returncode == 1
    assert bad.stderr == ("m.yaml:1: 'authors' must be a list of text; quote values YAML would "
                          "read as numbers, dates or booleans\n"
                          "Import failed: 1 error; nothing was written.\n")
    assert list((tmp_path / "content/papers").iterdir()) == []


def test_import_without_metadata_uses_the_format_readers_and_a_draft_previews(tmp_path):
    write_content(tmp_path, {})
    dblp = REPO / "tests/import_fixtures/dblp.bib"
    result = run("import", str(dblp), "--date", "2025-01-01", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "drafts for want of an abstract (3):\n  content/papers/towards-scalable-exact-" \
           "machine-unlearning-using-parameter.md" in result.stdout
    assert run("--drafts", cwd=tmp_path).returncode == 0
    assert (tmp_path / "_site/papers/promptriever/index.html").is_file()


def test_build_prints_the_index_size_and_warns_over_the_budget(tmp_path):
    from factories import SITE_YAML
    write_content(tmp_path, {"x": paper_source()}, site_yaml=SITE_YAML + "search_budget_kb: 1\n")
    (tmp_path / "content/papers/y.md").write_text(paper_source(abstract=" ".join(f"w{i}x" for i in range(3000))))
    result = run(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"search +index [\d,]+ bytes, [\d,]+ gzipped", result.stdout)
    assert "warning: the search index is" in result.stdout
    assert "over the search_budget_kb of 1 set in site.yaml" in result.stdout


def test_build_warns_when_the_site_is_over_its_budget(tmp_path):
    from factories import SITE_YAML
    write_content(tmp_path, {"x": paper_source()}, site_yaml=SITE_YAML + "site_budget_mb: 1\n")
    quiet = run(cwd=tmp_path)
    assert quiet.returncode == 0 and "site_budget_mb" not in quiet.stdout
    for n in range(60):  # why: ~20 KB a paper: 1 MB is passed
        (tmp_path / f"content/papers/p{n}.md").write_text(
            paper_source(title=f"Paper {n}", abstract=" ".join(f"word{i}" for i in range(1500))))
    result = run(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"warning: the site is \d MB, over the site_budget_mb of 1 set in site.yaml; "
                     r"GitHub Pages publishes sites up to 1 GB", result.stdout)


def test_a_mistyped_content_folder_is_refused_not_made(tmp_path):
    write_content(tmp_path, {})
    (tmp_path / "a.bib").write_text("@misc{a, title={T}, author={A B}}\n")
    for command in (["import", "a.bib"], ["fetch", "arxiv:2409.11136"], ["new", "A Title"]):
        result = run(*command, "--content", "contnet", cwd=tmp_path)
        assert (result.returncode, result.stdout) == (2, ""), command
        assert result.stderr == ("error: contnet holds no site.yaml, so it is no digest's content "
                                 "folder; check --content (a new digest starts with a copy of "
                                 "content/site.yaml)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.bib", "content"]


def test_a_venue_or_tag_with_a_control_character_is_a_usage_error(tmp_path):
    write_content(tmp_path, {})
    (tmp_path / "a.bib").write_text("@misc{a, title={T}, author={A B}}\n")
    result = run("import", "a.bib", "--venue", "ICLR\x012025", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: --venue or --tag: 'ICLR\x012025' holds a control character\n"
    assert list((tmp_path / "content/papers").iterdir()) == []


def test_a_build_with_nothing_to_do_imports_none_of_the_libraries_only_making_needs(tmp_path):
    """A no-op rebuild reads, hashes and stops: numpy, Markdown, latex2mathml and pylatexenc
    (~100 ms of imports) are imported only when a build first uses them (model/lazy.py)."""
    write_content(tmp_path, {"x": paper_source(abstract="Bound $O(n)$.", body="**Why** read it.")})
    # why: in one process, where the first build imports them all (with workers, numpy is
    # imported by the process that makes related papers and the search index aside)
    build_and_list = ("import sys; from generator.cli import main; "
                      "main(['build', '--cache', 'cache', '--jobs', '1']); "
                      "print(*sorted(name for name in sys.modules if name in "
                      "('numpy', 'markdown', 'latex2mathml', 'pylatexenc')))")
    listed = [subprocess.run([sys.executable, "-c", build_and_list], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(REPO)}).stdout.splitlines()[-1]
              for _ in range(2)]
    assert listed == ["latex2mathml markdown numpy pylatexenc", ""]
