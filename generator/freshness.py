"""Knowing, cheaply, that a build would write exactly what the output folder already holds.

The build is deterministic, so the same inputs give the same bytes. A fingerprint of every
input (the content files, templates, static files, the npm libraries the site ships, the
generator's code and its libraries' versions, the options and SOURCE_DATE_EPOCH) is kept with a
list of the files written (size and mtime). When both match, nothing would change and the
build stops early; anything else, including an edited or deleted output file, builds in full.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

LIBRARIES = ("Jinja2", "Markdown", "PyYAML", "lunr", "latex2mathml", "pylatexenc", "nh3")


@dataclass(frozen=True)
class Inputs:
    """What a build reads, for its fingerprint."""

    content: Path
    project: Path
    options: str
    """The build options that change output (base URL, drafts), as text."""


def fingerprint(inputs: Inputs) -> str:
    """A hash of every byte and setting the build's output depends on."""
    digest = hashlib.sha256()
    digest.update(inputs.options.encode() + b"\0" + os.environ.get("SOURCE_DATE_EPOCH", "").encode())
    for name in LIBRARIES:
        digest.update(f"{name}={_version(name)}\0".encode())
    folders = [inputs.content, inputs.project / "templates", inputs.project / "static",
               inputs.project / "generator", inputs.project / "node_modules" / "lunr"]
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            digest.update(str(path.relative_to(folder)).encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def fresh_files(record: Path, out: Path, key: str) -> dict[str, list[int]] | None:
    """The output's files (size, mtime) when the last build had this fingerprint and they are
    still as it left them; None when a build has work to do."""
    try:
        last = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if last.get("key") != key:
        return None
    files = _listing(out)
    return files if last.get("files") == files else None


def remember(record: Path, out: Path, key: str) -> None:
    """Keep the fingerprint and the output listing of a build that just succeeded."""
    record.parent.mkdir(parents=True, exist_ok=True)
    partial = record.with_name(record.name + f".{os.getpid()}")
    partial.write_text(json.dumps({"key": key, "files": _listing(out)}), encoding="utf-8")
    os.replace(partial, record)


def record_path(cache: Path, out: Path) -> Path:
    """Where the last build into `out` is remembered."""
    return cache / "builds" / (hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16] + ".json")


def _listing(out: Path) -> dict[str, list[int]]:
    if not out.is_dir():
        return {}
    files = {}
    for path in sorted(out.rglob("*")):
        if path.is_file():
            stat = path.stat()
            files[path.relative_to(out).as_posix()] = [stat.st_size, stat.st_mtime_ns]
    return files


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "none"
