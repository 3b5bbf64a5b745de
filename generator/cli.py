"""Command line: `build` (the default), `check`, `new`, `import`, `fetch` and `serve`."""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import os
import re
import shlex
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NoReturn

from .model.errors import BuildFailed, display_path
from .building.writer import OutputRefused
from .building.cache import Cache
from .building.unchanged import BuildOptions, StageTimer, begin, unchanged

if TYPE_CHECKING:
    from .building.checkup import Checkup
    from .importers.merge import ImportOptions, ImportPlan


def main(argv: list[str] | None = None, ending: bool = False) -> int:
    """Run one command; 0 on success, 1 on content errors, 2 on usage errors. `ending`: the
    process ends with the command (build.py), so a build that succeeds ends it at once
    (end_now)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        print(unknown_command(argv[0]), file=sys.stderr)
        return 2
    args = _parser().parse_args(_default_to_build(argv))
    args.held = [] if ending and args.run is run_build else None
    try:
        code = args.run(args)
        if args.held is not None:
            end_now(code)
        return code
    except BuildFailed as failed:
        _print_errors(failed)
        return 1
    except OutputRefused as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 1


def end_now(code: int) -> NoReturn:
    """End the process with `code`, its output flushed, without freeing what it holds object by
    object and taking its modules apart, as Python does at exit (0.15-0.25 s and ~0.1 s after a
    10,000-paper rebuild; mypy ends so too). Only once its work is done: every file written and
    closed, no process or thread of its own still running (a build has ended its workers)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # why: a closed pipe; exiting as Python would not help
            pass
    os._exit(code)


COMMANDS = ("build", "serve", "check", "new", "import", "fetch")
"""Every command, in the order --help lists them."""


def unknown_command(word: str) -> str:
    """What a first word that is no command gets (build takes no word, so it is a typo):
    the nearest command, if one is near, and every command."""
    near = difflib.get_close_matches(word.casefold(), COMMANDS, n=1)
    guess = f"; did you mean '{near[0]}'?" if near else "."
    return (f"build.py: unknown command '{word}'{guess} Commands: {', '.join(COMMANDS)} "
            "(`build.py` alone builds; `build.py --help` says more)")


def _default_to_build(argv: list[str]) -> list[str]:
    """`build` is the default: options without a command are build's."""
    return argv if argv and argv[0] in (*COMMANDS, "-h", "--help") else ["build", *argv]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="build.py", description="Build a paper digest site.")
    commands = parser.add_subparsers(required=True, metavar="{" + ",".join(COMMANDS) + "}")
    build_cmd = commands.add_parser("build", help="build content/ into _site/ (the default)")
    _site_options(build_cmd)
    build_cmd.set_defaults(run=run_build)
    serve_cmd = commands.add_parser("serve", help="build, then serve the site locally")
    _site_options(serve_cmd)
    serve_cmd.add_argument("--host", default="127.0.0.1",
                           help="address to listen on (default 127.0.0.1: this machine only)")
    serve_cmd.add_argument("--port", type=_port, default=8000,
                           help="port (default 8000); 0 picks a free one and prints it")
    serve_cmd.add_argument("--open", action="store_true", help="open the site in a browser")
    serve_cmd.add_argument("--no-reload", dest="reload", action="store_false",
                           help="serve the built files as they are: no watching, rebuilding "
                                "or reloading")
    serve_cmd.set_defaults(run=run_serve)
    _check_command(commands)
    _new_command(commands)
    import_cmd = commands.add_parser(
        "import", help="add papers from BibTeX, arXiv, OpenReview, CSL-JSON or an abstract list")
    import_cmd.add_argument("files", nargs="+", type=Path, metavar="FILE",
                            help="a BibTeX, arXiv Atom, OpenReview JSON or CSL-JSON file; with "
                                 "--metadata, one plain-text list of abstracts")
    import_cmd.add_argument("--metadata", type=Path,
                            help="YAML list of titles, authors, ids and tags for an abstract list")
    _import_options(import_cmd)
    import_cmd.set_defaults(run=run_import)
    fetch_cmd = commands.add_parser(
        "fetch", help="download papers from arXiv, OpenReview or doi.org, then import them")
    fetch_cmd.add_argument("specs", nargs="+", metavar="ID",
                           help="arxiv:ID, openreview:ID or doi:DOI, e.g. arxiv:2409.05657")
    fetch_cmd.add_argument("--save", type=Path, metavar="DIR",
                           help="keep the downloaded files in DIR (default: a temporary folder)")
    _import_options(fetch_cmd)
    fetch_cmd.set_defaults(run=run_fetch)
    return parser


def _import_options(cmd: argparse.ArgumentParser) -> None:
    """What `import` and `fetch` share: where, when, and what to do with known papers."""
    cmd.add_argument("--content", type=Path, default=Path("content"), help="content folder")
    cmd.add_argument("--date", type=_day, default=dt.date.today(),
                     help="the day new papers join the digest, YYYY-MM-DD (default today)")
    cmd.add_argument("--venue", default="",
                     help="venue for every paper, over the source's, e.g. 'ICLR 2025'")
    cmd.add_argument("--tag", dest="tags", action="append", default=[],
                     help="a tag for every new paper (repeat for more)")
    cmd.add_argument("--update", action="store_true",
                     help="refresh title, authors, abstract, venue and links of papers "
                          "the digest has; the curator's fields are kept")
    cmd.add_argument("--replace-links", action="store_true",
                     help="with --update, the source's links replace the file's links of the "
                          "same kind (without it a link the file has is kept)")
    cmd.add_argument("--dry-run", action="store_true",
                     help="print what would be done and write nothing")
    cmd.add_argument("--strict", action="store_true",
                     help="write nothing if a source entry had to be repaired or cannot be "
                          "read (by default it is repaired, or skipped and the rest imported)")


def _check_command(commands: argparse._SubParsersAction) -> None:
    cmd = commands.add_parser("check", help="check content/ as a build does, without building")
    cmd.add_argument("--content", type=Path, default=Path("content"), help="content folder")
    cmd.add_argument("--strict", action="store_true",
                     help="also fail on duplicate papers, near-duplicate tags, and papers "
                          "without links or with a placeholder left")
    cmd.set_defaults(run=run_check)


def _new_command(commands: argparse._SubParsersAction) -> None:
    cmd = commands.add_parser("new", help="start a paper file, a draft, from a title or an id")
    cmd.add_argument("title_or_id", metavar="TITLE-OR-ID",
                     help="the paper's title, or arxiv:ID, openreview:ID, doi:DOI, a bare arXiv "
                          "id, or an arXiv, OpenReview or DOI address")
    cmd.add_argument("--content", type=Path, default=Path("content"), help="content folder")
    cmd.add_argument("--date", type=_day, help="the day the paper joins the digest, YYYY-MM-DD "
                                               "(default today)")
    cmd.add_argument("--venue", default="", help="e.g. 'ICLR 2025'")
    cmd.add_argument("--tag", dest="tags", action="append", default=[], metavar="TAG",
                     help="a topic label; repeat for more")
    cmd.set_defaults(run=run_new)


def _site_options(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--content", type=Path, default=Path("content"), help="content folder")
    cmd.add_argument("--out", type=Path, default=Path("_site"), help="output folder")
    cmd.add_argument("--base-url", help="override site.yaml's base_url")
    cmd.add_argument("--drafts", action="store_true", help="include papers marked draft: true")
    cmd.add_argument("--cache", type=Path, default=Path(".digest-cache"),
                     help="folder for results kept between builds (default .digest-cache)")
    cmd.add_argument("--no-cache", dest="cache", action="store_const", const=None,
                     help="build everything from scratch")
    cmd.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                     help="processes for independent work (default: one per core)")


PROJECT = Path(__file__).resolve().parent.parent
"""The folder of build.py, templates/ and static/."""


def options_from(args: argparse.Namespace) -> BuildOptions:
    """BuildOptions from parsed arguments; templates and static files sit beside build.py."""
    return BuildOptions(content=args.content, out=args.out, project=PROJECT,
                        base_url=args.base_url, drafts=args.drafts, cache=args.cache,
                        workers=max(1, args.jobs))


def run_build(args: argparse.Namespace) -> int:
    """`build`: one full build with a per-stage report."""
    started = time.perf_counter()
    print(f"Building {args.content} -> {args.out}")
    options, timer = options_from(args), StageTimer(report=print)
    with Cache(options.cache, warn=timer.report) as cache:
        begun = begin(options, cache)
        report = unchanged(begun, options, cache, timer)
        if report is None:
            # why: imported only now: a build with nothing to do needs none of the stages (~0.2 s)
            from .building.pipeline import build
            report = build(options, timer, cache, held=args.held, begun=begun)
    print(f"Built {report.written + report.unchanged} files ({report.total_bytes:,} bytes) "
          f"in {time.perf_counter() - started:.2f} s: {args.out.resolve()}")
    return 0


def run_serve(args: argparse.Namespace) -> int:
    """`serve`: build, serve under the base path, rebuild and reload open pages on every edit."""
    from .serve.server import serve
    return serve(options_from(args), args.host, args.port, live=args.reload,
                 open_browser=args.open)


def run_check(args: argparse.Namespace) -> int:
    """`check`: the errors a build would stop on and what the whole digest shows; writes nothing.
    0 when clean; 1 on an error, or with --strict on any finding."""
    from .building.checkup import check_content
    try:
        checkup = check_content(args.content, PROJECT)
    except BuildFailed as failed:  # why: site.yaml or a paper file could not be read at all
        for error in failed.errors:
            print(error, file=sys.stderr)
        print(f"{_count(len(failed.errors), 'error')}; no paper was checked", file=sys.stderr)
        return 1
    for error in checkup.errors:
        print(error, file=sys.stderr)
    for finding in checkup.findings:
        if args.strict:
            print(finding, file=sys.stderr)
        else:
            print(f"{finding.path}:{finding.line}: warning: {finding.message}")
    for warning in checkup.warnings:
        print(f"warning: {warning}")
    print(check_summary(checkup, args.strict))
    return 1 if checkup.errors or (args.strict and checkup.findings) else 0


def check_summary(checkup: Checkup, strict: bool) -> str:
    """'19 papers (1 draft), 0 errors, 2 warnings': findings count as errors when `strict`."""
    drafts = sum(paper.draft for paper in checkup.papers)
    findings = len(checkup.findings)
    errors = len(checkup.errors) + (findings if strict else 0)
    warnings = len(checkup.warnings) + (0 if strict else findings)
    papers = _count(checkup.files, "paper") + (f" ({_count(drafts, 'draft')})" if drafts else "")
    return f"{papers}, {_count(errors, 'error')}, {_count(warnings, 'warning')}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _not_a_digest(content: Path) -> bool:
    """True, having said so, when `content` holds no site.yaml: a mistyped --content must not
    become a new digest's folder."""
    if (content / "site.yaml").is_file():
        return False
    print(f"error: {display_path(content)} holds no site.yaml, so it is no digest's content "
          "folder; check --content (a new digest starts with a copy of content/site.yaml)",
          file=sys.stderr)
    return True


def run_new(args: argparse.Namespace) -> int:
    """`new`: one draft paper file from a title or an id, never over an existing file or paper."""
    from .content.scaffold import ScaffoldRefused, new_paper, scaffold_paper
    if _not_a_digest(args.content):
        return 2
    try:
        path = scaffold_paper(args.content, args.title_or_id, args.date or dt.date.today(),
                              args.venue, args.tags)
    except ScaffoldRefused as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 1
    print(f"wrote {display_path(path)}")
    print(next_steps(new_paper(args.title_or_id).links, args.content))
    return 0


RUN = ".venv/bin/python build.py"
"""How the docs spell a command, and so how the hints this prints spell it."""


def next_steps(links: dict[str, str], content: Path) -> str:
    """What `new` tells the curator to do next: for a paper named by an id, `fetch --update`
    fills in the TODOs from the paper's site; for a title, the curator does."""
    where = "" if content == Path("content") else f" --content {shlex.quote(display_path(content))}"
    preview = (f"`{RUN} serve --drafts{where}` to preview it; delete `draft: true` to "
               "publish it.")
    if not links:
        return f"Next: edit it (replace each TODO), then {preview}"
    [(kind, value)] = links.items()
    site = {"arxiv": "arXiv", "openreview": "OpenReview", "doi": "doi.org"}[kind]
    return (f"Next: `{RUN} fetch {shlex.quote(f'{kind}:{value}')} --update{where}` fills in its title, authors "
            f"and abstract from {site} (or replace each TODO by hand), then {preview}")


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number (0 to 65535)")
    return int(text)


def run_import(args: argparse.Namespace) -> int:
    """`import`: new papers become files, known ones are matched (and refreshed with
    --update), then a report; nothing is written if any file cannot be read."""
    from .importers.merge import import_papers
    from .importers.sources import read_sources
    if args.metadata and len(args.files) > 1:
        print("error: with --metadata give one FILE, the list of abstracts", file=sys.stderr)
        return 2
    options = _import_from(args)
    if options is None:
        return 2
    try:
        incoming = read_sources(args.files, args.metadata)
    except BuildFailed as failed:
        _print_errors(failed, "Import failed", "nothing was written")
        return 1
    return _import_and_report(lambda: import_papers(incoming, args.content, options,
                                                    args.dry_run), args)


def run_fetch(args: argparse.Namespace) -> int:
    """`fetch`: download the records into --save DIR (else a temporary folder), then import
    them as `import` does; nothing is written if a download fails."""
    from .importers import fetch as fetching
    try:
        fetching.parse_specs(args.specs)
    except fetching.FetchFailed as wrong:
        print(f"error: {wrong}", file=sys.stderr)
        return 2
    if _import_from(args) is None:
        return 2
    with tempfile.TemporaryDirectory(prefix="digest-fetch-") as temporary:
        folder = args.save or Path(temporary)
        try:
            files = fetching.fetch(args.specs, folder)
        except fetching.FetchFailed as failed:
            print(f"error: {failed}", file=sys.stderr)
            print("Fetch failed; nothing was imported.", file=sys.stderr)
            return 1
        print(f"fetched {', '.join(display_path(f) for f in files)}" if args.save else
              f"fetched {_count(len(files), 'file')} (--save DIR keeps them)")
        return _import_fetched(files, folder if args.save is None else None, args)


def _import_fetched(files: list[Path], temporary: Path | None, args: argparse.Namespace) -> int:
    from .importers.merge import import_papers
    from .importers.sources import read_sources
    keep = "; --save DIR keeps the downloaded files" if temporary is not None else ""
    try:
        incoming = read_sources(files, None)
    except BuildFailed as failed:
        _print_errors(failed, "Import failed", f"nothing was written{keep}")
        return 1
    if temporary is not None:  # why: a report naming files about to be deleted helps no one
        shown = display_path(temporary) + "/"
        incoming = [replace(p, origin=p.origin.removeprefix(shown)) for p in incoming]
    options = _import_from(args)
    return _import_and_report(lambda: import_papers(incoming, args.content, options,
                                                    args.dry_run), args, keep)


def _import_from(args: argparse.Namespace) -> ImportOptions | None:
    """The options of `import` and `fetch`; None, having said why, for a --content that is no
    digest or a --venue or --tag that no paper file can hold (exit 2, nothing read)."""
    from .content.scaffold import ScaffoldRefused, checked_values
    from .importers.merge import ImportOptions
    if _not_a_digest(args.content):
        return None
    try:
        venue, tags = checked_values(args.venue, args.tags)
    except ScaffoldRefused as refused:
        print(f"error: --venue or --tag: {refused}", file=sys.stderr)
        return None
    return ImportOptions(date=args.date, venue=venue, tags=tags, update=args.update,
                         replace_links=args.replace_links, strict=args.strict)


def _import_and_report(run: Callable[[], ImportPlan], args: argparse.Namespace,
                       keep: str = "") -> int:
    """Plan and write an import, then print its report; exit 1 when a source entry was skipped
    as unreadable, or when a file cannot be written (a full disk), saying what was written
    before it and what to do."""
    from .importers.report import report_lines, stopped_lines
    from .importers.writing import WriteStopped
    try:
        plan = run()
    except BuildFailed as failed:
        _print_errors(failed, "Import failed", f"nothing was written{keep}")
        return 1
    except WriteStopped as stopped:
        *written, error = stopped_lines(stopped.plan, stopped)
        for line in written:
            print(line)
        print(f"error: {error}", file=sys.stderr)
        return 1
    for line in report_lines(plan, args.dry_run, args.content / "site.yaml"):
        print(line)
    return 1 if any(decision.failed for decision in plan.decisions) else 0


def _day(text: str) -> dt.date:
    # why: fromisoformat alone also takes '20250424' and '2025-W17-4'
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a date as YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"'{text}' is not a real day ({err})") from None


def _print_errors(failed: BuildFailed, what: str = "Build failed",
                  outcome: str = "the site was not changed") -> None:
    for error in failed.errors:
        print(error, file=sys.stderr)
    count = len(failed.errors)
    print(f"{what}: {count} error{'s' if count != 1 else ''}; {outcome}.", file=sys.stderr)
