"""The site's look, read from the project: templates, static files and the npm libraries."""

from __future__ import annotations

import os
from pathlib import Path

from ..model import urls as paths
from ..model.errors import BuildFailed, ContentError, display_path
from ..model.records import OutputFile, Templates, Theme

# why: third-party code is never committed; the build copies it out of node_modules.
NPM_ASSETS = {"lunr.min.js": Path("node_modules/lunr/lunr.min.js")}
EDITOR_SUFFIXES = (".swp", ".swo", ".swx", ".swpx", "~", ".tmp", ".part", ".crdownload")


def is_ignored(name: str) -> bool:
    """Editor droppings and hidden files: swap and backup files, Emacs locks, Vim's 4913 probe."""
    return (name.startswith((".", "#")) or name.endswith(EDITOR_SUFFIXES)
            or name == "4913")


def load_theme(project: Path) -> Theme:
    """templates/ and static/ of `project`, and the npm libraries the site ships."""
    return Theme(templates=load_templates(project / "templates"),
                 assets=tuple(load_assets(project / "static", project)))


def load_templates(folder: Path) -> Templates:
    """Every template file below `folder`."""
    return Templates(display_path(folder), tuple((path, (folder / path).read_text(encoding="utf-8"))
                                                 for path in _published_files(folder)))


def load_assets(static_dir: Path, project_dir: Path) -> list[OutputFile]:
    """Every file under `static/` plus the npm libraries, as assets/<name>."""
    files = [OutputFile(paths.asset_file(path), (static_dir / path).read_bytes())
             for path in _published_files(static_dir)]
    for name, relative in sorted(NPM_ASSETS.items()):
        source = project_dir / relative
        if not source.is_file():
            raise BuildFailed([ContentError(display_path(source), 1,
                                            "missing npm package file; run 'npm ci' (or 'make "
                                            "build', which does) in the project folder")])
        files.append(OutputFile(paths.asset_file(name), source.read_bytes()))
    return files


def _published_files(folder: Path) -> list[str]:
    """Paths below `folder` of its files, sorted, but for hidden files and editor droppings and
    what is inside a folder that is one. Symlinked folders are followed (each real folder once,
    so a link back up the tree does not loop)."""
    found, seen = [], set()
    for top, folders, files in os.walk(folder, followlinks=True):
        real = os.path.realpath(top)
        if real in seen:
            folders[:] = []
            continue
        seen.add(real)
        folders[:] = sorted(name for name in folders if not is_ignored(name))
        below = Path(top).relative_to(folder)
        found += [(below / name).as_posix() for name in files
                  if not is_ignored(name) and os.path.isfile(os.path.join(top, name))]
    return sorted(found)
