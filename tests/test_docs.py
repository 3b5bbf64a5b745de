"""The docs are tested: their commands run as written, the references match the code, links resolve.

How a page's code blocks are read (docs/index.md, "How the docs are tested", says the same):

- A block fenced ```sh is run, in the page's order, by bash (`set -e`) in a fresh copy of the
  repository: its tracked and new files, with `.venv` and `node_modules` made of links to the
  checkout's, so nothing is installed. It must exit 0.
- ```sh not-run is shown, never run: it needs GitHub or the network (git push, curl, fetch).
- ```sh ctrl-c runs until everything its output block shows has appeared, then gets Ctrl-C
  (SIGINT): `make serve`. It runs with PORT set to a free port, and `:8000/` in its output block
  stands for that port.
- When the prose after a run block ends with "prints:", the next block (```text) is what it
  prints: each of its non-blank lines must match a line of the output (stdout and stderr), in
  order, other lines of output between them allowed. Runs of spaces count as one, and `…`
  stands for any text (times, sizes, paths).
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from factories import REPO
from generator import cli
from generator.content.config import CONFIG_KEYS
from generator.content.papers import PAPER_KEYS
from generator.model.records import LINK_KINDS, SiteConfig

DOCS = REPO / "docs"
RUN_PAGES = [DOCS / "tutorial.md", *sorted((DOCS / "how-to").glob("*.md"))]
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
RUN_KINDS = {"sh": "run", "sh not-run": "not-run", "sh ctrl-c": "ctrl-c"}


@dataclasses.dataclass
class Block:
    """A fenced code block of a page, with what it is expected to print."""

    page: Path
    line: int
    info: str
    body: str
    prose_after: str = ""
    expected: list[str] | None = None
    end: int = 0

    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """Every fenced block of `page`; a run block gets the lines of the block it 'prints'."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        if found:
            found[-1].prose_after = text[found[-1].end:match.start()]
        found.append(Block(page, text.count("\n", 0, match.start()) + 1,
                           match.group(1).strip(), match.group(2), end=match.end()))
    for block, following in zip(found, found[1:]):
        if block.info in RUN_KINDS and block.prose_after.strip().endswith("prints:"):
            assert following.info == "text", f"{block.where()}: what it prints goes in ```text"
            block.expected = [line for line in following.body.splitlines() if line.strip()]
    return found


def squeeze(line: str) -> str:
    return " ".join(line.split())


def unmatched(expected: list[str], output: str) -> list[str]:
    """The expected lines not found in `output`, in order ([] when all are there)."""
    lines = [squeeze(line) for line in output.splitlines()]
    at = 0
    for n, want in enumerate(expected):
        pattern = re.compile(".*".join(re.escape(part) for part in squeeze(want).split("…")))
        while at < len(lines) and not pattern.fullmatch(lines[at]):
            at += 1
        if at == len(lines):
            return expected[n:]
        at += 1
    return []


def fresh_copy(where: Path) -> Path:
    """The repository's files (tracked and new, not ignored) in `where`, with .venv and
    node_modules made of links into the checkout's and their install stamps new, so that
    `make serve` and `make build` install nothing (and never into the shared folders)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, capture_output=True, check=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file() and not source.is_symlink():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, where / name)
    stamps = {".venv": ["installed"], "node_modules": [".runtime-installed"]}
    for folder, names in stamps.items():
        real = (REPO / folder).resolve()
        if not real.is_dir():
            pytest.skip(f"{folder}/ is not installed in the checkout (run make install)")
        (where / folder).mkdir()
        for entry in real.iterdir():
            if entry.name not in ("installed", "test-installed", ".runtime-installed",
                                  ".test-installed"):
                (where / folder / entry.name).symlink_to(entry)
        for name in names:
            (where / folder / name).touch()
    done = subprocess.run(["make", "-q", "install"], cwd=where, capture_output=True)
    assert done.returncode == 0, "make would install into the checkout's folders; refusing"
    return where


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment(port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("BASE_URL", "SOURCE_DATE_EPOCH", "MAKEFLAGS", "MAKELEVEL")}
    return {**env, "PORT": str(port), "PYTHONUNBUFFERED": "1"}


def run_block(block: Block, cwd: Path) -> None:
    port = free_port()
    script = "set -e\n" + block.body
    if block.info == "sh ctrl-c":
        output = run_until_shown(script, cwd, port, block)
    else:
        done = subprocess.run(["bash", "-c", script], cwd=cwd, env=environment(port), text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        output = done.stdout
        assert done.returncode == 0, f"{block.where()} exited {done.returncode}:\n{output}"
    if block.expected:
        missing = unmatched(expected_for(block, port), output)
        assert not missing, f"{block.where()} did not print {missing[0]!r}; it printed:\n{output}"


def expected_for(block: Block, port: int) -> list[str]:
    return [line.replace(":8000/", f":{port}/") for line in block.expected or []]


def run_until_shown(script: str, cwd: Path, port: int, block: Block) -> str:
    """Run `script` until its expected lines have been printed, then press Ctrl-C."""
    assert block.expected, f"{block.where()}: a ctrl-c block needs a 'prints:' block to wait for"
    process = subprocess.Popen(["bash", "-c", script], cwd=cwd, env=environment(port), text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    chunks: list[str] = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(process.stdout.readline, "")))
    reader.start()
    deadline = time.monotonic() + 120
    try:
        while unmatched(expected_for(block, port), "".join(chunks)) and process.poll() is None:
            assert time.monotonic() < deadline, f"{block.where()} printed:\n{''.join(chunks)}"
            time.sleep(0.1)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join(timeout=10)
    return "".join(chunks)


def test_every_block_is_of_a_known_kind():
    """An sh block is run, not run or stopped with Ctrl-C; nothing else is guessed."""
    for page in [REPO / "README.md", *DOCS.rglob("*.md")]:
        for block in blocks(page):
            if block.info.split(" ")[0] == "sh":
                assert block.info in RUN_KINDS, f"{block.where()}: unknown ```{block.info}"


@pytest.mark.parametrize("page", RUN_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_the_commands_of_a_page_run_as_written(page, tmp_path):
    copy = fresh_copy(tmp_path)
    for block in blocks(page):
        if block.info in ("sh", "sh ctrl-c"):
            run_block(block, copy)


def test_the_output_convention_matches_in_order_with_wildcards():
    output = "Building content -> _site\n  read      3 paper files   1.4 ms\nBuilt 57 files in 0.2 s\n"
    assert unmatched(["Building content -> _site", "read 3 paper files …", "Built … files in …"],
                     output) == []
    assert unmatched(["Built … files in …", "Building content -> _site"], output) == [
        "Building content -> _site"]


# The references: every key, both ways.

def keys_of(page: Path, level: str = "##") -> list[str]:
    """The keys a reference page documents: its headings that are one `key`."""
    text = page.read_text(encoding="utf-8")
    return re.findall(rf"^{level} `([a-z_.]+)`$", text, re.M)


def section(page: Path, key: str) -> str:
    text = page.read_text(encoding="utf-8")
    start = text.index(f"## `{key}`\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else None]


def test_the_site_yaml_reference_has_every_key_of_siteconfig_and_no_other():
    page = DOCS / "reference/site-yaml.md"
    documented = keys_of(page)
    assert len(documented) == len(set(documented))
    assert set(documented) == CONFIG_KEYS
    summary = re.findall(r"^\| \[`([a-z_]+)`\]", page.read_text(encoding="utf-8"), re.M)
    assert summary == documented, "the summary table lists the keys in the sections' order"


def test_the_site_yaml_reference_gives_each_default_the_code_has():
    page = DOCS / "reference/site-yaml.md"
    for field in dataclasses.fields(SiteConfig):
        if field.name not in CONFIG_KEYS:
            continue
        text = section(page, field.name)
        if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            assert "**Required.**" in text, field.name
            continue
        default = field.default if field.default is not dataclasses.MISSING else field.default_factory()
        shown = {True: "true", False: "false"}.get(default, default) if isinstance(default, bool) \
            else default
        match = re.search(r"\*\*Default:\*\* (none|`[^`]*`)", text)
        assert match, f"{field.name}: no **Default:**"
        expected = "none" if shown in ("", {}) else f"`{shown}`"
        assert match.group(1) == expected, field.name


def test_the_front_matter_reference_has_every_paper_key_and_link_kind_and_no_other():
    page = DOCS / "reference/front-matter.md"
    documented = keys_of(page)
    assert len(documented) == len(set(documented))
    assert set(documented) == PAPER_KEYS
    summary = re.findall(r"^\| \[`([a-z_]+)`\]", page.read_text(encoding="utf-8"), re.M)
    assert summary == documented
    kinds = re.findall(r"^\| `links\.([a-z]+)` \|", section(page, "links"), re.M)
    assert sorted(kinds) == sorted(LINK_KINDS)
    for key in ("title", "authors", "date"):
        assert "**Required.**" in section(page, key), key


def parser_options() -> dict[str, set[str]]:
    """Every command of build.py and the options and arguments argparse gives it."""
    subparsers = next(a for a in cli._parser()._actions if a.choices)
    found = {}
    for name, parser in subparsers.choices.items():
        names = set()
        for action in parser._actions:
            if "-h" in action.option_strings:
                continue
            names.update(action.option_strings or [action.metavar or action.dest.upper()])
        found[name] = names
    return found


def test_the_command_line_reference_lists_every_command_and_option_argparse_has():
    text = (DOCS / "reference/command-line.md").read_text(encoding="utf-8")
    commands = parser_options()
    documented = re.findall(r"^## `build\.py ([a-z]+)`$", text, re.M)
    assert sorted(documented) == sorted(commands)
    for name, options in commands.items():
        start = text.index(f"## `build.py {name}`\n")
        end = text.find("\n## ", start + 1)
        rows = re.findall(r"^\| `([^`]+)` \|", text[start:end if end != -1 else None], re.M)
        assert len(rows) == len(set(rows)) and set(rows) == options, name


def test_the_command_line_reference_gives_each_default_argparse_has():
    text = (DOCS / "reference/command-line.md").read_text(encoding="utf-8")
    subparsers = next(a for a in cli._parser()._actions if a.choices)
    said = {"--jobs": "one per core", "--date": "today"}  # why: computed when it runs
    for name, parser in subparsers.choices.items():
        start = text.index(f"## `build.py {name}`\n")
        part = text[start:text.find("\n## ", start + 1)]
        rows = dict(re.findall(r"^\| `(-[^`]+)` \|[^|]*\| ([^|]*) \|", part, re.M))
        for action in parser._actions:
            option = next(iter(action.option_strings), "")
            if option == "-h":
                continue
            if option in said:
                assert rows[option] == said[option], (name, option)
            elif (option and action.default and not isinstance(action.default, bool)
                  and isinstance(action.default, (str, Path, int))):
                assert rows[option] == f"`{action.default}`", (name, option)


# Links.

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def github_anchor(heading: str) -> str:
    """The #fragment GitHub gives a Markdown heading."""
    text = re.sub(r"[`*]|\]\([^)]*\)|\[", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {github_anchor(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def markdown_pages() -> list[Path]:
    return [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]


def test_every_relative_link_resolves_to_a_file_and_a_heading():
    broken = []
    for page in markdown_pages():
        text = FENCE.sub("", page.read_text(encoding="utf-8"))
        text = re.sub(r"`[^`\n]*`", "", text)
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target):
                continue
            path, _, fragment = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.relative_to(REPO)}: {target} (no such file)")
            elif fragment and (file.suffix != ".md" or fragment not in anchors(file)):
                broken.append(f"{page.relative_to(REPO)}: {target} (no such heading)")
    assert broken == []


def test_every_docs_page_is_linked_from_the_docs_index():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    linked = {(DOCS / target.partition("#")[0]).resolve() for target in LINK.findall(index)}
    for page in DOCS.rglob("*.md"):
        if page.name != "index.md":
            assert page.resolve() in linked, page.relative_to(REPO)


def test_the_readme_is_a_front_door():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 120
    for command in ("make serve", "make test"):
        assert command in readme
    assert "docs/screenshot.png" in readme and (DOCS / "screenshot.png").is_file()
