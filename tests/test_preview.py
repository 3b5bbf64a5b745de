import shutil
from dataclasses import replace

import pytest

from factories import REPO, paper_source, write_content
from generator.building.cache import Cache
from generator.building.pipeline import BuildOptions, StageTimer
from generator.building.workers import KeptAside
from generator.serve.livereload import BuildStatus
from generator.serve.server import base_path, rebuild, watched_folders


@pytest.fixture()
def project(tmp_path):
    """A copy of the project's templates and static files, free to break."""
    project = tmp_path / "project"
    shutil.copytree(REPO / "templates", project / "templates")
    shutil.copytree(REPO / "static", project / "static")
    (project / "node_modules/lunr").mkdir(parents=True)
    shutil.copy(REPO / "node_modules/lunr/lunr.min.js", project / "node_modules/lunr")
    return project


class Watcher:
    """Gives the server loop these bursts of changed paths, one a call, then Ctrl-C."""

    def __init__(self, answers):
        self.answers = answers

    def next_change(self, timeout):
        if not self.answers:
            raise KeyboardInterrupt
        return self.answers.pop(0)


def options(tmp_path, project):
    content = write_content(tmp_path, {"x": paper_source(title="First")})
    return BuildOptions(content=content, out=tmp_path / "_site", project=project)


def test_rebuild_publishes_a_new_version_only_when_files_change(tmp_path, project):
    opts = options(tmp_path, project)
    status = BuildStatus("/digest/")
    first = status.current
    assert rebuild(opts, status).written > 0 and status.current.version != first.version
    built = status.current
    assert rebuild(opts, status).written == 0 and status.current == built


def test_rebuild_with_the_servers_cache_and_process_aside_shows_every_edit_once(tmp_path,
                                                                               project):
    opts = replace(options(tmp_path, project), cache=tmp_path / "cache", workers=2)
    status = BuildStatus("/digest/")
    published = []
    real = status.publish
    status.publish = lambda *args: published.append(args) or real(*args)
    with Cache(opts.cache, in_memory=True) as cache, KeptAside() as aside:
        assert rebuild(opts, status, cache, aside=aside).written > 0
        for title in ("Second", "First", "Third"):
            (opts.content / "papers/x.md").write_text(paper_source(title=title))
            before = status.current.version
            assert rebuild(opts, status, cache, aside=aside).written > 0
            assert status.current.version != before
            assert f"<h1>{title}</h1>" in (opts.out / "papers/x/index.html").read_text()
        assert rebuild(opts, status, cache, aside=aside).written == 0
    # each rebuild published once: as soon as its site was in place, or when nothing changed
    assert [changed for _, changed, *_ in published] == [True] * 4 + [False]


@pytest.mark.parametrize("own_cache", [False, True])
def test_a_cache_that_cannot_be_kept_leaves_the_new_site_published_once(tmp_path, project,
                                                                       capsys, own_cache):
    opts = replace(options(tmp_path, project), cache=tmp_path / "cache")
    opts.cache.write_text("a file where the cache folder should be")
    status = BuildStatus("/digest/")
    published = []
    real = status.publish
    status.publish = lambda *args: published.append(args) or real(*args)
    cache = Cache(opts.cache, in_memory=True, warn=print) if own_cache else None
    assert rebuild(opts, status, cache, timer=StageTimer(report=print)).written > 0
    assert [errors for errors, *_ in published] == [[]] and status.current.errors == ()
    assert f"warning: the cache in {opts.cache} cannot be used (" in capsys.readouterr().out


def test_rebuild_keeps_the_last_good_site_and_publishes_the_errors(tmp_path, project, capsys):
    opts = options(tmp_path, project)
    status = BuildStatus("/digest/")
    rebuild(opts, status)
    good = (opts.out / "papers/x/index.html").read_bytes()
    (opts.content / "papers/x.md").write_text(paper_source(date="someday"))
    assert rebuild(opts, status) is None
    [error] = status.current.errors
    assert error.endswith("papers/x.md:5: 'date' must be YYYY-MM-DD, got 'someday'")
    assert error in capsys.readouterr().err
    assert (opts.out / "papers/x/index.html").read_bytes() == good


def test_rebuild_reports_a_broken_template_at_its_line_and_goes_on(tmp_path, project):
    opts = options(tmp_path, project)
    status = BuildStatus("/digest/")
    paper = project / "templates/paper.html"
    lines = paper.read_text().splitlines(keepends=True)
    paper.write_text("".join(lines[:2] + ["{{ no_such_value }}\n"] + lines[2:]))
    rebuild(opts, status)
    assert status.current.errors == (f"{paper}:3: UndefinedError: 'no_such_value' is undefined",)
    paper.write_text("".join(lines[:2] + ["{% if %}\n"] + lines[2:]))
    rebuild(opts, status)
    [error] = status.current.errors
    assert error.startswith(f"{paper}:3: ")


def test_base_path_comes_from_site_yaml_or_the_override_and_is_none_when_broken(tmp_path, project):
    opts = options(tmp_path, project)
    assert base_path(opts) == "/digest/"
    assert base_path(BuildOptions(content=opts.content, base_url="https://u.github.io/")) == "/"
    (opts.content / "site.yaml").write_text("title: [unclosed\n")
    assert base_path(opts) is None


def test_watched_folders_are_what_a_build_reads(tmp_path, project):
    opts = options(tmp_path, project)
    assert watched_folders(opts) == [opts.content, project / "templates", project / "static"]


def test_the_server_rebuilds_once_for_each_burst_of_changes_with_the_cache_it_keeps(
        monkeypatch):
    import generator.serve.server as server_module
    builds = []

    def rebuild(options, status, cache, made, aside):
        builds.append((cache, aside))
        made(object())  # what the site was made of, which the quick pages cannot use

    monkeypatch.setattr(server_module, "rebuild", rebuild)
    cache, aside = Cache(None, in_memory=True), object()
    with pytest.raises(KeyboardInterrupt):
        server_module._rebuild_on_change(BuildOptions(), BuildStatus("/"), cache,
                                         Watcher([[], [], ["a.md"], ["b.md", "c.md"], [], []]),
                                         str, server_module.LastMade(), aside)
    # once idle, a build to learn what the site is made of; then one a burst; each with the
    # cache and the process aside the server keeps
    assert builds == [(cache, aside)] * 3


def test_settling_memory_collects_old_cycles_and_freezes_what_lives_on():
    import gc
    import weakref

    from generator.serve.server import settle_memory

    class Node:
        pass

    kept, gone = Node(), Node()
    gone.me = gone  # a cycle no one refers to once `gone` is dropped
    settle_memory()  # frozen while still referred to
    watch = weakref.ref(gone)
    del gone
    try:
        settle_memory()
        assert watch() is None and gc.get_freeze_count() > 0 and kept is not None
    finally:
        gc.unfreeze()


def test_a_quick_page_that_cannot_be_made_is_left_to_the_full_build(monkeypatch, capsys):
    import generator.serve.server as server_module

    def broken(made, changed):
        raise TypeError("a template the quick page trips on")

    monkeypatch.setattr(server_module, "quick_pages", broken)
    status = BuildStatus("/")
    before = status.current
    server_module.show_quick_pages(status, object(), {"content/papers/x.md"})
    assert status.current == before
    assert capsys.readouterr().out == ("Could not show the saved papers at once (TypeError: a "
                                       "template the quick page trips on); building the site\n")


def test_an_output_folder_refused_while_idle_is_shown_as_an_error_and_not_tried_again(
        monkeypatch, capsys):
    import generator.serve.server as server_module
    from generator.building.writer import OutputRefused

    tries = []

    def refused(options, status, cache, made, aside):
        tries.append(made)
        raise OutputRefused("is not a site this program built")

    monkeypatch.setattr(server_module, "rebuild", refused)
    status = BuildStatus("/")
    with pytest.raises(KeyboardInterrupt):
        server_module._rebuild_on_change(BuildOptions(), status, Cache(None, in_memory=True),
                                         Watcher([[], [], []]), str, server_module.LastMade())
    assert len(tries) == 1 and status.current.errors == ("_site: is not a site this program built",)


def test_the_server_writes_what_its_cache_keeps_in_memory_alone_once_idle(monkeypatch, tmp_path):
    import generator.serve.server as server_module

    cache = Cache(tmp_path / "cache", in_memory=True)

    def remembering(options, status, cache, made=None, aside=None):
        cache.remember_plain("parts", {b"key": ("card",)})

    monkeypatch.setattr(server_module, "rebuild", remembering)
    monkeypatch.setattr(server_module, "show_quick_pages", lambda *given: None)
    with pytest.raises(KeyboardInterrupt):
        server_module._rebuild_on_change(BuildOptions(), BuildStatus("/"), cache,
                                         Watcher([["a.md"], []]), str, server_module.LastMade())
    assert Cache(tmp_path / "cache").recall_plain("parts") == {b"key": ("card",)}
