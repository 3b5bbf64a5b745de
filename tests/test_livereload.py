import json
import threading
import time

from generator.serve.livereload import EVENTS_PATH, SCRIPT_PATH, WORKER_PATH, BuildStatus, Status, inject, script


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
