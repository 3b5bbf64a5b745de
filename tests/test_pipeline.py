"""generator.building.pipeline: build() in stages; a cached build is a clean build, only faster."""

import contextlib
import multiprocessing
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import generator.building.cache as cache_module
import generator.building.pipeline as pipeline_module
import generator.building.stamps as stamps_module
import generator.building.unchanged as unchanged_module
import generator.building.workers as workers_module
import generator.content.documents as documents_module
import generator.content.papers as papers_module
from factories import REPO, SITE_YAML, paper_source, starting_content, write_content
from generator.building.cache import FILE, Cache
from generator.building.pipeline import BuildOptions, Kept, StageTimer, build
from generator.building.workers import KeptAside, Workers
from generator.building.writer import temp_folders
from generator.model.errors import BuildFailed
from generator.search.index import gzipped_size


def files(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def options(content, out, cache=None, workers=1, project=REPO, drafts=False):
    return BuildOptions(content=content, out=out, project=project, cache=cache, workers=workers,
                        drafts=drafts)


def clean_build(content, folder, project=REPO, drafts=False):
    """The site a build without any cache makes, into a folder of its own."""
    build(options(content, folder, project=project, drafts=drafts))
    return files(folder)


def edits(content):
    """Edits a curator makes, one at a time, each naming itself."""
    papers = content / "papers"
    yield "nothing"
    (papers / "p1.md").write_text(paper_source(title="Attention Is Not Enough",
                                               tags=["llm", "vision"]))
    yield "a title"
    (papers / "p2.md").write_text(paper_source(title="Sparse Things", tags=["vision", "new tag"],
                                               date="2025-03-01", body="Notes with $x^2$."))
    yield "tags and notes"
    (papers / "p4.md").write_text(paper_source(title="A New Paper", tags=["graphs"],
                                               date="2025-05-01"))
    yield "a new paper"
    (papers / "p3.md").unlink()
    yield "a deleted paper"
    (papers / "p5.md").write_text(paper_source(title="Not Yet", tags=["secret"], draft=True))
    yield "a draft"
    (content / "site.yaml").write_text(SITE_YAML.replace("Test Digest", "Renamed Digest"))
    yield "the site's title"
    (content / "site.yaml").write_text(SITE_YAML.replace("https://example.org/digest/",
                                                         "https://example.com/"))
    yield "the base URL"
    (papers / "p1.md").write_text(paper_source(title="Attention Is Not Enough", tags=["llm"],
                                               date="2025-06-01"))
    yield "a date and a tag removed"


def stage_names(timer):
    return [stage for stage, _, _ in timer.stages]


@pytest.fixture(autouse=True)
def fixed_time(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")


def test_stages_are_reported_in_order(tmp_path):
    content = starting_content(tmp_path)
    lines = []
    timer = StageTimer(report=lines.append)
    report = build(options(content, tmp_path / "site"), timer)
    assert stage_names(timer) == ["read", "papers", "files", "write"]
    assert all(seconds >= 0 for _, seconds, _ in timer.stages)
    assert "3 papers" in timer.stages[1][2]
    assert f"{report.written} written" in timer.stages[3][2]
    assert len([line for line in lines if line.strip().startswith(("read", "papers", "files",
                                                                    "write"))]) == 4


def test_a_build_writes_the_whole_site(tmp_path):
    content = starting_content(tmp_path)
    out = tmp_path / "site"
    report = build(options(content, out))
    built = files(out)
    assert report.written == len(built) and report.unchanged == report.removed == 0
    assert ".nojekyll" in built and "index.html" in built
    assert any("Attention Is Enough".encode() in data for data in built.values())


def test_a_build_given_held_leaves_what_it_made_the_site_of_there(tmp_path):
    content, held = starting_content(tmp_path), []
    build(options(content, tmp_path / "site", cache=tmp_path / "cache"), held=held)
    assert [paper.slug for paper in held[0]["site"].papers] == ["p1", "p2", "p3"]
    assert build(options(content, tmp_path / "site", cache=tmp_path / "cache")).written == 0


@pytest.mark.parametrize("workers", [1, 2])
def test_a_cached_build_equals_a_clean_build_after_every_edit(tmp_path, monkeypatch, workers):
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 2)
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    for edit in edits(content):
        build(options(content, out, cache, workers=workers))
        assert files(out) == clean_build(content, tmp_path / "clean"), edit
    assert temp_folders(out) == set()


def test_a_cached_build_with_drafts_equals_a_clean_one(tmp_path):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    (content / "papers" / "p5.md").write_text(paper_source(title="Not Yet", draft=True))
    for drafts in (True, False, True):
        build(options(content, out, cache, drafts=drafts))
        assert files(out) == clean_build(content, tmp_path / "clean", drafts=drafts)
    assert any(b"Not Yet" in data for data in files(out).values())


def test_a_changed_source_date_epoch_is_in_the_next_cached_build(tmp_path, monkeypatch):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    before = files(out)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1777777777")
    build(options(content, out, cache))
    assert files(out) != before
    assert files(out) == clean_build(content, tmp_path / "clean")


def test_workers_give_the_same_site_as_one_process(tmp_path, monkeypatch):
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 2)
    content = write_content(tmp_path, {f"p{n}": paper_source(title=f"Paper {n}",
                                                             tags=[f"tag {n % 3}"])
                                       for n in range(12)})
    build(options(content, tmp_path / "one", tmp_path / "cache1", workers=1))
    build(options(content, tmp_path / "two", tmp_path / "cache2", workers=2))
    assert files(tmp_path / "one") == files(tmp_path / "two")
    (content / "papers" / "p3.md").write_text(paper_source(title="Edited", tags=["tag 0"]))
    build(options(content, tmp_path / "one", tmp_path / "cache1", workers=1))
    build(options(content, tmp_path / "two", tmp_path / "cache2", workers=2))
    assert files(tmp_path / "one") == files(tmp_path / "two")
    assert files(tmp_path / "two") == clean_build(content, tmp_path / "clean")


def test_a_second_build_with_nothing_changed_writes_nothing(tmp_path):
    content = starting_content(tmp_path)
    out = tmp_path / "site"
    first = build(options(content, out, tmp_path / "cache"))
    mtimes = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    again = build(options(content, out, tmp_path / "cache"))
    assert (again.written, again.removed) == (0, 0)
    assert again.unchanged == first.written
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == mtimes


def test_a_build_given_what_the_last_one_was_given_stops_at_once(tmp_path):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    first = build(options(content, out, cache))
    timer = StageTimer()
    again = build(options(content, out, cache), timer)
    assert stage_names(timer) == ["check"]
    assert (again.written, again.unchanged, again.removed) == (0, first.written, 0)


def test_a_build_asked_what_it_made_the_site_of_makes_it_even_when_nothing_changed(tmp_path):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    first = build(options(content, out, cache))
    told, timer = [], StageTimer()
    again = build(options(content, out, cache), timer, made=told.append)
    assert stage_names(timer)[-1] == "write" and (again.written, again.removed) == (0, 0)
    [made] = told
    assert len(made.site.papers) == len(made.parts) == 3 and again.unchanged == first.written
    assert made.related["p1"] == ("p2", "p3")


@pytest.mark.parametrize("change", ["touch an output file", "add an output file",
                                    "another out folder", "another base URL", "another epoch"])
def test_a_build_whose_inputs_or_output_changed_since_does_its_work(tmp_path, monkeypatch,
                                                                     change):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    again = options(content, out, cache)
    if change == "touch an output file":
        os.utime(out / "index.html", ns=(10**9, 10**9))
    elif change == "add an output file":
        (out / "stray.html").write_text("stray")
    elif change == "another out folder":
        shutil.copytree(out, tmp_path / "copy")
        again = options(content, tmp_path / "copy", cache)
    elif change == "another base URL":
        again = BuildOptions(content=content, out=out, project=REPO, cache=cache,
                             base_url="https://other.example/")
    else:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    timer = StageTimer()
    build(again, timer)
    assert stage_names(timer) == ["read", "papers", "files", "write"]
    assert files(again.out) == clean_build(content, tmp_path / "clean") or \
        change == "another base URL"


def test_a_second_build_without_a_cache_writes_nothing_either(tmp_path):
    content = starting_content(tmp_path)
    out = tmp_path / "site"
    build(options(content, out))
    assert build(options(content, out)).written == 0


def test_a_content_error_fails_the_build_and_leaves_the_last_site(tmp_path):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    before = files(out)
    (content / "papers" / "p2.md").write_text(paper_source(title=None))
    with pytest.raises(BuildFailed, match="title"):
        build(options(content, out, cache))
    assert files(out) == before
    assert temp_folders(out) == set()
    (content / "papers" / "p2.md").write_text(paper_source(title="Fixed"))
    build(options(content, out, cache))
    assert files(out) == clean_build(content, tmp_path / "clean")


def test_an_error_in_site_yaml_fails_the_build_and_leaves_the_last_site(tmp_path):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    before = files(out)
    (content / "site.yaml").write_text("title: [unclosed\n")
    with pytest.raises(BuildFailed):
        build(options(content, out, cache))
    assert files(out) == before and temp_folders(out) == set()


def test_an_error_in_an_unchanged_paper_is_reported_by_every_build(tmp_path):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    (content / "papers" / "p3.md").write_text(paper_source(date="not a date"))
    for _ in range(3):
        with pytest.raises(BuildFailed, match="p3.md"):
            build(options(content, out, cache))
    assert not out.exists()


def made_counts(monkeypatch):
    """How many results each function was asked to make, by its name, from now on."""
    counts = {}
    real = Workers.imap

    def counting(self, make, shared, items):
        if items:
            counts[make.__qualname__] = counts.get(make.__qualname__, 0) + len(items)
        return real(self, make, shared, items)

    monkeypatch.setattr(Workers, "imap", counting)
    return counts


def test_a_failed_build_keeps_what_the_last_build_made(tmp_path, monkeypatch):
    # enough papers for over 1000 kept results, where commit starts forgetting unused ones
    content = write_content(tmp_path, {f"p{n}": paper_source(title=f"Paper {n}", tags=["llm"])
                                       for n in range(520)})
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    (content / "site.yaml").write_text("title: [unclosed\n")  # a typo while the server runs
    with pytest.raises(BuildFailed):
        build(options(content, out, cache))
    (content / "site.yaml").write_text(SITE_YAML)
    counts = made_counts(monkeypatch)
    build(options(content, out, cache))
    assert sum(counts.values()) == 0, counts


def checks_counted(monkeypatch):
    """The titles of the documents checked (the work check_file does) from now on."""
    checked = []
    real = papers_module.check

    def counting_check(doc, macros=None):
        checked.append(doc.path.name)
        return real(doc, macros)

    monkeypatch.setattr(papers_module, "check", counting_check)
    return checked


def test_an_unchanged_paper_is_not_checked_again(tmp_path, monkeypatch):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    checked = checks_counted(monkeypatch)
    build(options(content, out, cache))
    assert sorted(checked) == ["p1.md", "p2.md", "p3.md"]
    checked.clear()
    build(options(content, out, cache))
    assert checked == []
    (content / "papers" / "p2.md").write_text(paper_source(title="Edited"))
    build(options(content, out, cache))
    assert checked == ["p2.md"]


def test_a_paper_with_an_error_is_checked_again_every_time(tmp_path, monkeypatch):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    (content / "papers" / "p2.md").write_text(paper_source(title=None))
    checked = checks_counted(monkeypatch)
    for _ in range(2):
        with pytest.raises(BuildFailed):
            build(options(content, out, cache))
    assert sorted(checked) == ["p1.md", "p2.md", "p2.md", "p3.md"]


def test_an_unchanged_site_makes_no_file_again(tmp_path, monkeypatch):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    counts = made_counts(monkeypatch)
    build(options(content, out, cache))
    assert counts == {}
    (content / "papers" / "p3.md").write_text(paper_source(title="Graphs, edited",
                                                           tags=["graphs"], date="2025-02-01"))
    build(options(content, out, cache))
    assert counts["check_file"] == 1
    # why: p3's own page, and p1's and p2's, which show its title among their related papers
    # (all three abstracts share 'things'), p2's also as its older neighbour
    assert counts["render_paper_page"] == 3


def test_a_build_in_a_new_process_finds_every_result_the_last_one_made(tmp_path):
    content = starting_content(tmp_path)
    script = textwrap.dedent(f"""
        import sys
        sys.path[:0] = [{str(REPO)!r}]
        from pathlib import Path
        from generator.building.pipeline import BuildOptions, build
        from generator.building.workers import Workers
        made = []
        real = Workers.imap
        Workers.imap = lambda self, make, shared, items: (
            made.extend(items), real(self, make, shared, items))[1]
        build(BuildOptions(content=Path({str(content)!r}), out=Path({str(tmp_path / "site")!r}),
                           project=Path({str(REPO)!r}), cache=Path({str(tmp_path / "cache")!r})))
        print(len(made))
    """)
    made = []
    for seed in ("1", "2"):  # another hash seed: sets and str hashes come out in other orders
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                             text=True, check=True)
        made.append(int(run.stdout))
    assert made[0] > 0 and made[1] == 0


def test_a_damaged_cache_still_gives_the_clean_site(tmp_path):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    (content / "papers" / "p1.md").write_text(paper_source(title="Edited", tags=["llm"]))
    (cache / FILE).write_bytes(b"this is not a database at all" * 1000)
    lines = []
    build(options(content, out, cache), StageTimer(report=lines.append))
    assert files(out) == clean_build(content, tmp_path / "clean")
    assert any("warning" in line and "cache" in line for line in lines)
    build(options(content, out, cache))
    assert files(out) == clean_build(content, tmp_path / "clean")


def test_garbled_results_in_the_cache_still_give_the_clean_site(tmp_path):
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    with sqlite3.connect(cache / FILE) as db:
        for key, value in db.execute("SELECT key, value FROM results").fetchall():
            garbled = bytearray(value)
            garbled[-2] ^= 0xFF
            db.execute("UPDATE results SET value = ? WHERE key = ?", (bytes(garbled), key))
    shutil.rmtree(out)
    build(options(content, out, cache))
    assert files(out) == clean_build(content, tmp_path / "clean")


def test_a_cache_folder_that_is_a_file_still_gives_the_clean_site(tmp_path):
    content = starting_content(tmp_path)
    (tmp_path / "cache").write_text("not a folder")
    lines = []
    build(options(content, tmp_path / "site", tmp_path / "cache"), StageTimer(report=lines.append))
    assert files(tmp_path / "site") == clean_build(content, tmp_path / "clean")
    assert any("warning" in line for line in lines)


def project_copy(tmp_path):
    """A project of our own to edit: REPO's templates and static files, its node_modules."""
    project = tmp_path / "project"
    project.mkdir()
    shutil.copytree(REPO / "templates", project / "templates")
    shutil.copytree(REPO / "static", project / "static")
    (project / "node_modules").symlink_to(REPO / "node_modules", target_is_directory=True)
    return project


def test_a_template_edit_changes_the_pages_of_a_cached_build(tmp_path):
    project = project_copy(tmp_path)
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache, project=project))
    before = files(out)
    base = project / "templates" / "base.html"
    base.write_text(base.read_text().replace("</body>", "<!-- a footer note --></body>"))
    build(options(content, out, cache, project=project))
    after = files(out)
    assert after == clean_build(content, tmp_path / "clean", project=project)
    pages = [path for path in after if path.endswith(".html")]
    assert pages and all(b"<!-- a footer note -->" in after[path] for path in pages)
    assert all(after[path] != before[path] for path in pages)


def test_an_edit_of_one_template_changes_only_the_pages_made_from_it(tmp_path):
    project = project_copy(tmp_path)
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache, project=project))
    before = files(out)
    paper = project / "templates" / "paper.html"
    text = paper.read_text()
    assert "{% endblock %}" in text
    paper.write_text(text.replace("{% endblock %}", "<p>paper page note</p>{% endblock %}", 1))
    build(options(content, out, cache, project=project))
    after = files(out)
    assert after == clean_build(content, tmp_path / "clean", project=project)
    changed = {path for path in after if after[path] != before.get(path)}
    assert changed and all(b"paper page note" in after[path] for path in changed)


def test_a_static_file_edit_is_in_the_next_cached_build(tmp_path):
    project = project_copy(tmp_path)
    content = starting_content(tmp_path)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache, project=project))
    css = next((project / "static").glob("*.css"))
    css.write_text(css.read_text() + "\n/* edited */\n")
    build(options(content, out, cache, project=project))
    assert files(out) == clean_build(content, tmp_path / "clean", project=project)


@pytest.mark.parametrize("aside", ["forked by each build", "kept from build to build"])
def test_a_cache_kept_in_memory_across_builds_equals_clean_builds(tmp_path, monkeypatch, aside):
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 2)
    project = project_copy(tmp_path)
    content = starting_content(tmp_path)
    out = tmp_path / "site"
    kept_aside = KeptAside() if aside == "kept from build to build" else None
    with contextlib.ExitStack() as stack, \
            Cache(tmp_path / "cache", in_memory=True) as cache:  # as the preview server keeps it
        if kept_aside is not None:
            stack.callback(kept_aside.close)
        for number, edit in enumerate(edits(content)):
            # why: every other build with a process aside forked by the build, which reads the
            # terms it holds from the memory it was forked with; or every build with the kept
            # one (the server's), which holds those that earlier builds carried it
            lines = []
            build(options(content, out, tmp_path / "cache", project=project,
                          workers=2 if kept_aside else 1 + number % 2),
                  StageTimer(lines.append), cache=Kept(cache, kept_aside))
            assert files(out) == clean_build(content, tmp_path / "clean", project=project), edit
            assert not [line for line in lines if "gone" in line], edit  # read, not built again
        paper = project / "templates" / "paper.html"
        paper.write_text(paper.read_text().replace("{% endblock %}",
                                                   "<p>note</p>{% endblock %}", 1))
        build(options(content, out, tmp_path / "cache", project=project, workers=2), cache=cache)
        assert files(out) == clean_build(content, tmp_path / "clean", project=project)
        (content / "papers" / "p1.md").write_text(paper_source(title=None))
        with pytest.raises(BuildFailed):
            build(options(content, out, tmp_path / "cache", project=project), cache=cache)
        (content / "papers" / "p1.md").write_text(paper_source(title="Back"))
        build(options(content, out, tmp_path / "cache", project=project), cache=cache)
        assert files(out) == clean_build(content, tmp_path / "clean", project=project)


def test_a_kept_process_aside_is_carried_what_it_lacks_after_a_failed_or_restarted_build(
        tmp_path, monkeypatch):
    project = project_copy(tmp_path)
    content, out, lines = starting_content(tmp_path), tmp_path / "site", []

    def edited_and_built(paper, title):
        (content / "papers" / f"{paper}.md").write_text(paper_source(title=title))
        build(options(content, out, tmp_path / "cache", project=project, workers=2),
              StageTimer(lines.append), cache=Kept(cache, aside))

    tag = project / "templates" / "tag.html"
    good_tag = tag.read_text()
    with Cache(tmp_path / "cache", in_memory=True) as cache, KeptAside() as aside:
        edited_and_built("p1", "One")
        # a build that fails once the process aside has read its terms: it holds those, and
        # this process's memory those and the last build's; then the edit undone
        tag.write_text(good_tag.replace("{% endblock %}", "{{ no_such_value }}{% endblock %}", 1))
        with pytest.raises(Exception):
            edited_and_built("p1", "Two")
        tag.write_text(good_tag)
        edited_and_built("p1", "One")
        # a build started again (here told so by its first try), which carries the process
        # aside nothing: the terms it makes are in this process's memory alone; then another
        # paper edited, the first one's terms kept
        real, tries = pipeline_module.combine, []

        def gone_once(checked):
            tries.append(1)
            if len(tries) == 1:
                raise cache_module.ResultsGone("told to start again")
            return real(checked)

        monkeypatch.setattr(pipeline_module, "combine", gone_once)
        edited_and_built("p1", "Four")
        monkeypatch.setattr(pipeline_module, "combine", real)
        edited_and_built("p2", "Five")
        assert files(out) == clean_build(content, tmp_path / "clean", project=project)
    started_again = [line for line in lines if "building again" in line]
    assert started_again == ["  told to start again: building again, reading them here"]


def test_a_build_that_failed_before_its_kept_process_aside_began_the_index_leaves_it_nothing(
        tmp_path, monkeypatch):
    """The process aside, slow to begin (a loaded machine), had not begun the index's task when
    the build's first try was told to start again: the task was dropped, the related papers'
    made the index all the same, and the next build of the same terms (here the try again) took
    that one and left its own unread, so the index's task found none."""
    real_start = workers_module._start_kept_aside
    monkeypatch.setattr(workers_module, "_start_kept_aside",
                        lambda: time.sleep(1) or real_start())
    real_site, tries = pipeline_module.build_site, []

    def gone_once(*args, **kwargs):  # why: once both results are begun aside
        tries.append(1)
        if len(tries) == 1:
            time.sleep(0.3)  # why: the related papers' task sent to the process, the index's not
            raise cache_module.ResultsGone("told to start again")
        return real_site(*args, **kwargs)

    monkeypatch.setattr(pipeline_module, "build_site", gone_once)
    content, out, lines = starting_content(tmp_path), tmp_path / "site", []
    with Cache(tmp_path / "cache", in_memory=True) as cache, KeptAside() as aside:
        build(options(content, out, tmp_path / "cache", workers=2), StageTimer(lines.append),
              cache=Kept(cache, aside))
    assert [line for line in lines if "again" in line] == [
        "  told to start again: building again, reading them here"]
    monkeypatch.setattr(pipeline_module, "build_site", real_site)
    assert files(out) == clean_build(content, tmp_path / "clean")


def test_a_kept_build_tells_who_publishes_once_the_new_site_is_in_place(tmp_path, monkeypatch):
    import generator.building.writer as writer_module
    content = starting_content(tmp_path)
    out, told, order = tmp_path / "site", [], []

    def published(report):  # why: what a tab reloaded now would be served
        page = (out / "papers" / "p1" / "index.html").read_text(encoding="utf-8")
        told.append((report.written, "Retitled" in page))
        order.append("told")

    looked_at = writer_module.site_state
    monkeypatch.setattr(writer_module, "site_state",
                        lambda *args: order.append("looked at") or looked_at(*args))

    with Cache(tmp_path / "cache", in_memory=True) as cache:
        build(options(content, out, tmp_path / "cache"), cache=Kept(cache, None, published))
        (content / "papers" / "p1.md").write_text(paper_source(title="Retitled"))
        report = build(options(content, out, tmp_path / "cache"),
                       cache=Kept(cache, None, published))
        assert told[1] == (report.written, True) and report.written > 0
        assert order == ["told", "looked at"] * 2  # before the files placed are looked at
        build(options(content, out, tmp_path / "cache"), cache=Kept(cache, None, published))
    assert len(told) == 2  # nothing changed: nothing placed, nothing told


def test_a_kept_process_aside_that_died_is_forked_again_and_the_site_is_still_right(tmp_path):
    import signal
    content, out, lines = starting_content(tmp_path), tmp_path / "site", []
    with Cache(tmp_path / "cache", in_memory=True) as cache, KeptAside() as aside:
        kept = Kept(cache, aside)
        build(options(content, out, tmp_path / "cache", workers=2), cache=kept)
        with Workers(2, aside) as workers:
            dead = workers.later(os.getpid)()
        os.kill(dead, signal.SIGKILL)
        (content / "papers" / "p2.md").write_text(paper_source(title="After the death"))
        build(options(content, out, tmp_path / "cache", workers=2), StageTimer(lines.append),
              cache=kept)
        assert files(out) == clean_build(content, tmp_path / "clean")
        with Workers(2, aside) as workers:
            assert workers.later(os.getpid)() not in (dead, os.getpid())


def dies_the_first_time(marker, papers, digest, terms):
    """_related_aside, but the process it runs in is killed the first time (`marker` made)."""
    import signal
    if not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return pipeline_module.related_papers(pipeline_module._built_index(digest, terms), papers)


def test_a_kept_process_aside_that_dies_while_the_site_is_written_is_forked_again_after(
        tmp_path, monkeypatch):
    import functools
    import threading
    monkeypatch.setattr(pipeline_module, "_related_aside",
                        functools.partial(dies_the_first_time, str(tmp_path / "died")))
    content, out, lines, done = starting_content(tmp_path), tmp_path / "site", [], []

    def two_builds():
        with Cache(tmp_path / "cache", in_memory=True) as cache, KeptAside() as aside:
            for title in ("Before", "After"):  # why: the second must not wait for the first
                (content / "papers" / "p2.md").write_text(paper_source(title=title))
                build(options(content, out, tmp_path / "cache", workers=2),
                      StageTimer(lines.append), cache=Kept(cache, aside))
        done.append(True)

    builds = threading.Thread(target=two_builds, daemon=True)
    builds.start()
    builds.join(timeout=120)
    assert done, "a build waited for ever (a process forked while the site was locked?)"
    assert any("process aside stopped" in line for line in lines)
    assert files(out) == clean_build(content, tmp_path / "clean")


def test_a_build_whose_process_aside_died_is_built_again(tmp_path, monkeypatch):
    from concurrent.futures.process import BrokenProcessPool
    real, tries = pipeline_module._build, []

    def dies_once(*args, **kwargs):
        tries.append(kwargs["trusting"] if "trusting" in kwargs else args[5])
        if len(tries) == 1:
            raise BrokenProcessPool("a child process terminated abruptly")
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline_module, "_build", dies_once)
    content, lines = starting_content(tmp_path), []
    build(options(content, tmp_path / "site", tmp_path / "cache"), StageTimer(lines.append))
    assert tries == [True, False] and any("process aside stopped" in line for line in lines)
    assert files(tmp_path / "site") == clean_build(content, tmp_path / "clean")



@pytest.mark.parametrize("papers", ["missing", "empty"])
def test_a_digest_without_papers_builds_with_a_warning(tmp_path, papers):
    content = write_content(tmp_path, {})
    if papers == "missing":
        (content / "papers").rmdir()
    lines = []
    build(options(content, tmp_path / "site"), StageTimer(report=lines.append))
    [warning] = [line for line in lines if "warning:" in line]
    assert "the site has no papers" in warning and "papers" in warning


def test_a_build_that_finds_nothing_changed_warns_of_the_guessed_latex_again(tmp_path):
    content = write_content(tmp_path, {"p": paper_source(abstract="A bound of $\\gap^2$.")})
    runs = []
    for _ in range(2):
        lines = []
        build(options(content, tmp_path / "site", tmp_path / "cache"), StageTimer(report=lines.append))
        runs.append([line for line in lines if "warning:" in line or "check " in line])
    guessed = f"  warning: {content}/papers/p.md:6: unknown LaTeX macro \\gap shown as its name"
    assert runs[0] == [guessed]
    assert runs[1][0] == guessed and "nothing changed" in runs[1][1]


def site_bytes(folder) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_size for p in folder.rglob("*") if p.is_file()}


def test_a_paper_with_5000_authors_adds_at_most_5_mb(tmp_path):
    # why: big collaborations exist (~1,350 authors on one technical report); each author's
    # section names the paper once, and lists of papers name three
    others = {f"p{n}": paper_source(title=f"Paper {n}", tags=["llm"]) for n in range(20)}
    big = paper_source(title="A Large Collaboration", tags=["llm"],
                       authors=[f"Author Number{n} Surname{n % 97}" for n in range(5000)])
    without = tmp_path / "without"
    build(options(write_content(without, others), without / "site"))
    with_it = tmp_path / "with"
    build(options(write_content(with_it, {**others, "big": big}), with_it / "site"))
    before, after = site_bytes(without / "site"), site_bytes(with_it / "site")
    added = sum(after.values()) - sum(before.values())
    assert added <= 5 * 2**20, f"{added:,} bytes added"
    # the lists show it with three authors and a count, not 5,000
    home = (with_it / "site/index.html").read_text(encoding="utf-8")
    assert home.count("Number") < 10 and "+4998" in home


def test_a_macro_defined_in_site_yaml_reaches_page_search_and_bibtex_and_a_change_rebuilds(
        tmp_path):
    content = write_content(tmp_path, {"p": paper_source(
        title=r"\cA-Learning", abstract=r"We bound $\norm{x}$ by $\eps$.")},
        SITE_YAML + "macros:\n  cA: \\mathcal{A}\n  eps: \\varepsilon\n"
                    "  norm: '\\left\\lVert #1 \\right\\rVert'\n")
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    page = (out / "papers/p/index.html").read_text(encoding="utf-8")
    assert "<title>𝒜-Learning" in page and "\\eps" not in page and "\\norm" not in page
    assert "title = {{$\\mathcal{A}$-Learning}}" in (out / "all.bib").read_text(encoding="utf-8")
    site_yaml = content / "site.yaml"
    site_yaml.write_text(site_yaml.read_text().replace("\\mathcal{A}", "\\mathbb{A}"))
    build(options(content, out, cache))
    assert "title = {{$\\mathbb{A}$-Learning}}" in (out / "all.bib").read_text(encoding="utf-8")
    assert files(out) == clean_build(content, tmp_path / "clean")


def test_a_build_told_by_the_stamps_that_nothing_changed_reads_no_paper(tmp_path, monkeypatch):
    monkeypatch.setattr(stamps_module, "RACY_SECONDS", -10**6)
    content = write_content(tmp_path, {"p": paper_source(abstract="A bound of $\\gap^2$.")})
    first = build(options(content, tmp_path / "site", tmp_path / "cache"))
    monkeypatch.setattr(pipeline_module, "read_content", None)  # would fail if called
    lines = []
    timer = StageTimer(report=lines.append)
    again = build(options(content, tmp_path / "site", tmp_path / "cache"), timer)
    assert stage_names(timer) == ["check"]
    assert (again.written, again.unchanged) == (0, first.written)
    assert [line for line in lines if "warning:" in line] == [
        f"  warning: {content}/papers/p.md:6: unknown LaTeX macro \\gap shown as its name"]


def test_a_paper_changed_behind_its_times_is_read_and_built(tmp_path, monkeypatch):
    monkeypatch.setattr(stamps_module, "RACY_SECONDS", -10**6)
    content = starting_content(tmp_path)
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    paper = content / "papers" / "p3.md"
    before = paper.stat()
    paper.write_text(paper.read_text().replace("Graphs", "Graph!"))
    os.utime(paper, ns=(before.st_atime_ns, before.st_mtime_ns))
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    assert "Graph!" in (tmp_path / "site" / "papers" / "p3" / "index.html").read_text()
    assert files(tmp_path / "site") == clean_build(content, tmp_path / "clean")


def test_papers_touched_not_changed_are_read_once_then_trusted_again(tmp_path, monkeypatch):
    monkeypatch.setattr(stamps_module, "RACY_SECONDS", -10**6)
    content = starting_content(tmp_path)
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    os.utime(content / "papers" / "p1.md")
    stages = []
    for _ in range(2):
        timer = StageTimer()
        build(options(content, tmp_path / "site", tmp_path / "cache"), timer)
        stages.append(stage_names(timer))
    assert stages == [["read", "check"], ["check"]]


def counted_reads(monkeypatch, by=(documents_module, stamps_module)):
    """The paper files this process reads from now on, by name: by the build's reading
    (documents_module), or by a paper it did not read when its bytes are asked for
    (stamps_module)."""
    read = []
    for module in by:
        real = module.read_content_file
        monkeypatch.setattr(module, "read_content_file",
                            lambda path, real=real: read.append(os.path.basename(path)) or
                            real(path))
    return read


def test_a_rebuild_reads_only_the_papers_whose_stamp_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(stamps_module, "RACY_SECONDS", -10**6)
    content = starting_content(tmp_path)
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    (content / "papers" / "p2.md").write_text(paper_source(title="Sparse Things Again",
                                                           tags=["llm"], date="2025-03-01"))
    read = counted_reads(monkeypatch)
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    assert read == ["p2.md"]
    assert "Sparse Things Again" in (tmp_path / "site" / "papers" / "p2" / "index.html").read_text()
    monkeypatch.undo()
    assert files(tmp_path / "site") == clean_build(content, tmp_path / "clean")


def built_then_new_macros(tmp_path, monkeypatch, workers):
    """The starting content built with `workers` (2: each paper is checked in a worker), every
    file settled, then site.yaml given macros: every paper is to be checked again."""
    monkeypatch.setattr(stamps_module, "RACY_SECONDS", -10**6)
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 2)
    content = starting_content(tmp_path)
    build(options(content, tmp_path / "site", tmp_path / "cache", workers=workers))
    site_yaml = content / "site.yaml"
    site_yaml.write_text(site_yaml.read_text() + "macros:\n  R: \\mathbb{R}\n")
    return content


@pytest.mark.parametrize("workers", [1, 2])
def test_papers_not_read_are_read_when_their_checking_is_not_kept(tmp_path, monkeypatch, workers):
    content = built_then_new_macros(tmp_path, monkeypatch, workers)
    listed = counted_reads(monkeypatch, by=[documents_module])
    asked = counted_reads(monkeypatch, by=[stamps_module])
    build(options(content, tmp_path / "site", tmp_path / "cache", workers=workers))
    # none read with the others; each where it is checked: here, or in a worker (whose reads
    # these lists do not see)
    assert listed == [] and sorted(asked) == (["p1.md", "p2.md", "p3.md"] if workers == 1 else [])
    monkeypatch.undo()
    assert files(tmp_path / "site") == clean_build(content, tmp_path / "clean")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_paper_not_read_that_changed_since_its_stamp_is_read_with_every_other(
        tmp_path, monkeypatch, workers):
    content = built_then_new_macros(tmp_path, monkeypatch, workers)
    # every paper changes after the build stamped it, its checking not kept: the bytes it then
    # has are not those its key was made from
    real_stamp = unchanged_module.content_stamp

    def stamp_then_edit(folder):
        stamped = real_stamp(folder)
        if not edited:
            edited.append((content / "papers" / "p3.md").write_text(paper_source(
                title="Changed", tags=["graphs"], date="2025-02-01")))
            (content / "papers" / "p1.md").write_text(paper_source(
                title="Also changed", tags=["llm", "vision"]))
            (content / "papers" / "p2.md").write_text(paper_source(
                title="Changed too", tags=["llm"], date="2025-03-01"))
        return stamped

    edited = []
    monkeypatch.setattr(unchanged_module, "content_stamp", stamp_then_edit)
    lines = []
    # every paper changed: raised as a process pool's feeder thread pickled them, the second
    # left the pool's shutdown waiting for ever (CPython gh-116685): so the build is timed
    within_a_minute(lambda: build(options(content, tmp_path / "site", tmp_path / "cache",
                                          workers=workers), StageTimer(lines.append)))
    assert any("changed as it was read: reading every paper" in line for line in lines)
    assert "Changed" in (tmp_path / "site" / "papers" / "p3" / "index.html").read_text()
    assert "Also changed" in (tmp_path / "site" / "papers" / "p1" / "index.html").read_text()
    monkeypatch.undo()
    assert files(tmp_path / "site") == clean_build(content, tmp_path / "clean")
    monkeypatch.setattr(stamps_module, "RACY_SECONDS", -10**6)
    (content / "papers" / "p2.md").write_text(paper_source(title="Sparse Again",
                                                           tags=["llm"], date="2025-03-01"))
    read = counted_reads(monkeypatch)  # the next edit is read alone: the rest were kept right
    build(options(content, tmp_path / "site", tmp_path / "cache", workers=workers))
    assert read == ["p2.md"]
    monkeypatch.undo()
    assert files(tmp_path / "site") == clean_build(content, tmp_path / "clean2")


def within_a_minute(call):
    """call(), failed if it has not returned in a minute. Then this process's children (a
    process pool's workers) are killed, so that a pool left waiting for them sees it is broken
    and lets the build, and pytest, end."""
    outcome = []
    thread = threading.Thread(target=lambda: outcome.append(call()), daemon=True)
    thread.start()
    thread.join(60)
    if thread.is_alive():
        for child in multiprocessing.active_children():
            child.kill()
        thread.join(30)
        pytest.fail("still building after a minute")
    assert outcome, "the build raised (see the thread's traceback above)"
    return outcome[0]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_paper_not_read_that_is_gone_before_it_is_checked_is_gone_from_the_site(
        tmp_path, monkeypatch, workers):
    content = built_then_new_macros(tmp_path, monkeypatch, workers)
    real_read = pipeline_module.read_content

    def read_then_delete(*args):
        read = real_read(*args)
        (content / "papers" / "p2.md").unlink(missing_ok=True)  # after the papers were listed
        return read

    monkeypatch.setattr(pipeline_module, "read_content", read_then_delete)
    lines = []
    build(options(content, tmp_path / "site", tmp_path / "cache", workers=workers),
          StageTimer(lines.append))
    assert any("p2.md changed as it was read: reading every paper" in line for line in lines)
    assert not (tmp_path / "site" / "papers" / "p2").exists()
    monkeypatch.undo()
    assert files(tmp_path / "site") == clean_build(content, tmp_path / "clean")


def test_search_terms_gone_from_the_cache_when_read_aside_are_read_here_in_a_second_build(
        tmp_path, monkeypatch):
    """The papers' search terms are read from the cache by the process aside alone
    (Cache.map_kept); another build with the same cache may have forgotten them by then."""
    content = starting_content(tmp_path)
    build(options(content, tmp_path / "site", tmp_path / "cache", workers=2))
    (content / "papers" / "p2.md").write_text(paper_source(title="Sparse Things Again",
                                                           tags=["llm"], date="2025-03-01"))
    monkeypatch.setattr(cache_module, "_read_file", lambda file, keys: {})  # forked with it
    lines = []
    within_a_minute(lambda: build(options(content, tmp_path / "site", tmp_path / "cache",
                                          workers=2), StageTimer(lines.append)))
    assert [line for line in lines if "were gone when read" in line] == [
        f"  2 of the results kept in {(tmp_path / 'cache' / FILE).resolve()} were gone when read: "
        "building again, reading them here"]
    monkeypatch.undo()
    assert files(tmp_path / "site") == clean_build(content, tmp_path / "clean")


def test_a_paper_read_when_too_recent_for_its_stamp_is_read_again_once_settled(tmp_path,
                                                                                monkeypatch):
    """git's racy case, past the build that read it: p3.md, read while racy, is written again
    within its clock tick (its stamp unchanged), then every file settles; the next build must
    read it, not trust its stamp."""
    content = starting_content(tmp_path)
    paper = racy_paper(content, monkeypatch)
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    coarse_clock(monkeypatch, content, "papers/p3.md")
    paper.write_text(paper.read_text().replace("Graphs", "Graph!"))  # same size, same stamp
    monkeypatch.setattr(stamps_module, "now", lambda: time.time_ns() + 10 * 10**9)
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    assert "Graph!" in (tmp_path / "site" / "papers" / "p3" / "index.html").read_text()


def test_a_build_right_after_another_compares_what_changed_moments_ago(tmp_path, monkeypatch):
    content = starting_content(tmp_path)  # every file changed moments ago: all racy
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    monkeypatch.setattr(pipeline_module, "read_content", None)  # would fail if called
    timer = StageTimer()
    build(options(content, tmp_path / "site", tmp_path / "cache"), timer)
    assert stage_names(timer) == ["check"]


def coarse_clock(monkeypatch, content, name):
    """The file system says of content/name from now on what it says now, as one with a coarse
    clock does of a file written again within the tick of its last change."""
    seen = stamps_module.looks(os.fspath(content), [name], follow=True)[0]
    real_looks = stamps_module.looks

    def looks(top, paths, follow=False):
        return [seen if path == name else look
                for path, look in zip(paths, real_looks(top, paths, follow))]

    monkeypatch.setattr(stamps_module, "looks", looks)


def test_a_site_yaml_written_again_within_its_clock_tick_is_caught_by_what_it_says(tmp_path,
                                                                                   monkeypatch):
    content = starting_content(tmp_path)  # every file changed moments ago: all racy
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    coarse_clock(monkeypatch, content, "site.yaml")
    site_yaml = content / "site.yaml"
    site_yaml.write_text(site_yaml.read_text().replace("Test Digest", "Test Digeso"))
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    assert "Test Digeso" in (tmp_path / "site" / "index.html").read_text()


def racy_paper(content, monkeypatch):
    """p3.md written again a tick after the rest, and the clock set so that it alone changed
    too recently for its stamp (stamps.RACY_SECONDS)."""
    settled = max(path.stat().st_ctime_ns for path in content.rglob("*"))
    time.sleep(0.05)  # past a tick of the file system's clock
    paper = content / "papers" / "p3.md"
    paper.write_text(paper.read_text())
    monkeypatch.setattr(stamps_module, "now", lambda: settled + stamps_module.RACY_SECONDS * 10**9)
    return paper


def test_a_paper_written_again_within_its_clock_tick_is_caught_by_its_bytes(tmp_path, monkeypatch):
    """git's racy case: on a file system with a coarse clock, a second write within the tick of
    the first leaves the file's times as they were. Here the file system is made to say so."""
    content = starting_content(tmp_path)
    paper = racy_paper(content, monkeypatch)
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    coarse_clock(monkeypatch, content, "papers/p3.md")
    paper.write_text(paper.read_text().replace("Graphs", "Graph!"))  # same size
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    assert "Graph!" in (tmp_path / "site" / "papers" / "p3" / "index.html").read_text()


def test_racy_papers_are_compared_by_their_bytes_until_they_settle(tmp_path, monkeypatch):
    content = starting_content(tmp_path)
    paper = racy_paper(content, monkeypatch)
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    compared = []
    real_same_bytes = unchanged_module.same_bytes
    monkeypatch.setattr(unchanged_module, "same_bytes",
                        lambda folder, digests: compared.append(set(digests)) or
                        real_same_bytes(folder, digests))
    monkeypatch.setattr(stamps_module, "now", lambda: paper.stat().st_ctime_ns + 10 * 10**9)
    for _ in range(2):
        timer = StageTimer()
        build(options(content, tmp_path / "site", tmp_path / "cache"), timer)
        assert stage_names(timer) == ["check"]
    assert compared == [{"papers/p3.md"}, set()]


def test_the_search_report_counts_the_index_and_its_facets_whether_made_or_kept(tmp_path):
    """The index's gzipped size comes from the process aside that made it; a build that kept
    the index (site.yaml's description changed no search term) reads and gzips it."""
    content = starting_content(tmp_path)
    site = tmp_path / "site"
    for description in ("Papers for tests.", "Other papers."):
        (content / "site.yaml").write_text(SITE_YAML.replace("Papers for tests.", description))
        lines = []
        build(options(content, site, tmp_path / "cache", workers=2), StageTimer(lines.append))
        data = [(site / "search" / name).read_bytes() for name in ("index.json", "meta.json")]
        raw, gzipped = sum(map(len, data)), sum(map(gzipped_size, data))
        assert f"  search    index {raw:,} bytes, {gzipped:,} gzipped" in lines
