"""assets/settings.js: what the browser's scripts read, once for the whole site.

The files the search and the reader's tools fetch, the name their storage is kept under and the
interface's messages in the site's language. Inlined in every page they were ~3.5 KB a page
(~100 MB of a 10,000-paper site); as one file whose URL carries its hash, a browser fetches it
once and keeps it, and a paper added changes it not at all."""

from __future__ import annotations

from typing import Any

from ..model import urls as paths
from ..model.records import FileJob, OutputFile
from ..model.urls import Urls
from .assets import asset_urls
from .interface import Interface, script_messages
from .metadata import script_json

NAME = "settings.js"
"""Its name among the assets (assets/settings.js)."""


def search_config(urls: Urls, asset_urls: dict[str, str]) -> dict[str, Any]:
    """Everything the browser's search reads, in one place: the search page, the worker, the
    scripts it loads and the index's files."""
    return {"page": urls.path(paths.SEARCH), "worker": asset_urls["search/worker.js"],
            "scripts": {"lunr": asset_urls["lunr.min.js"], "query": asset_urls["search/query.js"],
                        "read": asset_urls["search/read.js"],
                        "unpack": asset_urls["search/index.js"],
                        "answer": asset_urls["search/answer.js"]},
            "index": urls.path(paths.SEARCH_INDEX), "meta": urls.path(paths.SEARCH_META),
            "docs": urls.path(paths.SEARCH_DOCS)}


def reading_config(urls: Urls, page_size: int, author_pages: int) -> dict[str, Any]:
    """What the reader's scripts (saving, new badges, sorting and filtering, moved pages) read:
    the files they fetch from this site, and the name their browser storage is kept under."""
    return {"home": urls.path(paths.HOME), "saved": urls.path(paths.SAVED),
            "author_pages": author_pages,
            "list": urls.path(paths.LIST_DATA), "bib": urls.path(paths.ALL_BIB),
            "csl": urls.path(paths.PAPERS_JSON), "page_size": page_size,
            "store": "paper-digest:" + urls.base_path}


def settings_script(urls: Urls, asset_urls: dict[str, str], ui: Interface, page_size: int,
                    author_pages: int) -> bytes:
    """The script that gives every other script its settings, as window.DigestSettings."""
    settings = {"search": search_config(urls, asset_urls),
                "reading": reading_config(urls, page_size, author_pages),
                "messages": script_messages(ui)}
    return (f"/* The digest's settings and the interface's words, made by the build. */\n"
            f"window.DigestSettings = {script_json(settings)};\n").encode("utf-8")


def settings_job(data: bytes, urls: Urls) -> tuple[FileJob, str]:
    """The settings script as a file of the site, and its URL with a hash of its bytes."""
    path = paths.asset_file(NAME)
    return FileJob(path, bytes, (data,)), asset_urls([OutputFile(path, data)], urls)[NAME]
