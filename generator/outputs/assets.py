"""The URLs of the static assets, each with a hash of its bytes."""

from __future__ import annotations

import hashlib

from ..model import urls as paths
from ..model.records import OutputFile
from ..model.urls import Urls


def asset_urls(files: tuple[OutputFile, ...] | list[OutputFile], urls: Urls) -> dict[str, str]:
    """name -> URL with a content hash, so browsers refetch exactly when a file changes."""
    found = {}
    for file in files:
        digest = hashlib.sha256(file.data).hexdigest()[:10]
        found[file.path[len(paths.ASSETS):]] = f"{urls.path(file.path)}?v={digest}"
    return found
