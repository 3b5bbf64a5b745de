import json
import threading
import time

from generator.serve.livereload import (EVENTS_PATH, MOST_NAMED, SCRIPT_PATH, WORKER_PATH,
                                        BuildStatus, Status, changed_urls, inject, script)


def test_status_event_is_one_server_sent_event_named_build():
    event = Status("run-3", ("content/papers/x.md:5: '<b>' is wrong",)).event()
    lines = event.decode().split("\n")
    assert lines[0] == "event: build" and event.endswith(b"\n\n")
    assert json.loads(lines[1].removeprefix("data: ")) == {
        "version": "run-3", "errors": ["content/papers/x.md:5: '<b>' is wrong"],
        "messages": {}}


def test_inject_puts_the_script_before_the_last_closing_body_tag():
    page = b"<html><body><p>\xe8\xae\xba</p><pre></body></pre></BODY >\n</html>\n"
    injected = inject(page, "abc-1")
    assert injected == (b"<html><body><p>\xe8\xae\xba</p><pre></body></pre>"
                        b'<script src="/__digest/livereload.js" data-version="abc-1"></script>'
                        b"</BODY >\n</html>\n")


def test_inject_appends_to_a_page_without_a_body_end():
    assert inject(b"<p>bare", "v").startswith(b"<p>bare<script ")


def test_build_status_moves_the_version_only_when_the_site_changed():
    status = BuildStatus("/repo/")
    first = status.current
    assert status.publish([], site_changed=False) == first
    failed = status.publish(["x.md:1: bad"], site_changed=False)
    assert (failed.version, failed.errors) == (first.version, ("x.md:1: bad",))
    rebuilt = status.publish([], site_changed=True, base_path="/other/")
    assert rebuilt.version != first.version and rebuilt.errors == ()
    assert status.base_path == "/other/"


def test_build_status_versions_differ_between_runs_of_the_server():
    assert BuildStatus("/").current.version != BuildStatus("/").current.version


def test_build_status_wait_returns_as_soon_as_a_build_is_published():
    status = BuildStatus("/")
    seen = status.current
    threading.Timer(0.05, lambda: status.publish([], site_changed=True)).start()
    started = time.monotonic()
    assert status.wait(seen, timeout=10) != seen
    assert time.monotonic() - started < 5


def test_build_status_wait_times_out_with_the_same_status_and_ends_when_closed():
    status = BuildStatus("/")
    seen = status.current
    assert status.wait(seen, timeout=0.01) == seen
    threading.Timer(0.05, status.close).start()
    assert status.wait(seen, timeout=10) == seen and status.closed


def test_scripts_are_found_by_path_under_the_reserved_prefix():
    assert b"EventSource" in script(SCRIPT_PATH) and b"onconnect" in script(WORKER_PATH)
    assert script("/__digest/other.js") is None
    assert all(p.startswith("/__digest/") for p in (EVENTS_PATH, SCRIPT_PATH, WORKER_PATH))


def test_quick_pages_are_served_and_name_the_only_pages_that_changed_until_the_next_build():
    status = BuildStatus("/repo/")
    before = status.current
    quick = status.publish_quick({"papers/x/index.html": b"quick"}, ["/repo/papers/x/"])
    assert quick.version != before.version
    assert (quick.only, quick.previous) == (("/repo/papers/x/",), before.version)
    data = json.loads(quick.event().decode().split("\n")[1].removeprefix("data: "))
    assert (data["only"], data["previous"]) == (["/repo/papers/x/"], before.version)
    assert status.quick_page("papers/x/index.html") == b"quick"
    assert status.quick_page("index.html") is None
    # the build that follows, even one that wrote nothing, reloads the tab shown a quick page
    built = status.publish([], site_changed=False)
    assert built.version not in (before.version, quick.version) and built.only is None
    assert status.quick_page("papers/x/index.html") is None
    assert "only" not in built.event().decode()


def test_a_build_names_what_it_changed_since_the_version_tabs_are_at_quick_pages_or_not():
    status = BuildStatus("/repo/")
    quick = status.publish_quick({"papers/x/index.html": b"quick"}, ["/repo/papers/x/"])
    built = status.publish([], site_changed=True, base_path="/repo/", only=["/repo/list.json"])
    assert (built.only, built.previous) == (("/repo/list.json",), quick.version)
    assert json.loads(built.event().decode().split("\n")[1].removeprefix("data: "))["only"] == [
        "/repo/list.json"]
    again = status.publish([], site_changed=True, only=[])
    assert (again.only, again.previous) == ((), built.version)
    # a build that changed nothing moves no version; one that moved the base path reloads all
    assert status.publish([], site_changed=False, only=["/repo/"]) == again
    moved = status.publish([], site_changed=True, base_path="/other/", only=[])
    assert moved.only is None and moved.version != again.version


def test_changed_urls_are_what_the_build_changed_but_quick_pages_it_made_alike():
    quick = {"papers/x/index.html": b"x, quick", "index.html": b"home, quick",
             "tags/t/index.html": b"tag, quick"}
    built = {"papers/x/index.html": b"x, quick", "index.html": b"home, built",
             "tags/t/index.html": b"tag, as it was"}
    changed = ["papers/x/index.html", "index.html", "list.json", "papers/gone/index.html"]
    urls = changed_urls(changed, quick, built.get, lambda path: "/repo/" + path.removesuffix(
        "index.html"))
    # the paper's page, made as its quick page was, is left out; the tag's page, which the build
    # kept as it was before the quick page, is named: a tab showing the quick page reloads
    assert urls == ["/repo/", "/repo/list.json", "/repo/papers/gone/", "/repo/tags/t/"]
    many = [f"papers/p{n}/index.html" for n in range(MOST_NAMED + 1)]
    assert changed_urls(many, {}, built.get, str) is None
    assert changed_urls(many[:MOST_NAMED], {}, built.get, str) == sorted(many[:MOST_NAMED])
