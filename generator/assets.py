"""Static assets: the project's own files and the npm libraries the site ships."""

from __future__ import annotations

import hashlib
from pathlib import Path

from . import urls as paths
from .errors import BuildFailed, ContentError, display_path
from .records import OutputFile
from .urls import Urls
from .watch import is_ignored

# why: third-party code is never committed; the build copies it out of node_modules.
NPM_ASSETS = {"lunr.min.js": Path("node_modules/lunr/lunr.min.js")}


def load_assets(static_dir: Path, project_dir: Path) -> list[OutputFile]:
    """Every file under `static/` plus the npm libraries, as assets/<name>."""
    files = [OutputFile(paths.asset_file(p.relative_to(static_dir).as_posix()), p.read_bytes())
             for p in sorted(static_dir.rglob("*")) if p.is_file() and is_published(p, static_dir)]
    for name, relative in sorted(NPM_ASSETS.items()):
        source = project_dir / relative
        if not source.is_file():
            raise BuildFailed([ContentError(display_path(source), 1,
                                            "missing npm package file; run 'npm ci' (or 'make "
                                            "build', which does) in the project folder")])
        files.append(OutputFile(paths.asset_file(name), source.read_bytes()))
    return files


def is_published(path: Path, static_dir: Path) -> bool:
    """Not hidden, nor an editor's swap, backup or lock file (`.x.swp`, `x~`, `.#x`, `#x#`), nor
    inside a folder that is: the files the preview's watcher ignores are not the site's."""
    return not any(is_ignored(part) for part in path.relative_to(static_dir).parts)


def asset_urls(files: list[OutputFile], urls: Urls) -> dict[str, str]:
    """name -> URL with a content hash, so browsers refetch exactly when a file changes."""
    found = {}
    for file in files:
        digest = hashlib.sha256(file.data).hexdigest()[:10]
        found[file.path[len(paths.ASSETS):]] = f"{urls.path(file.path)}?v={digest}"
    return found
