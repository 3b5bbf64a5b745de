"""Reading `content/site.yaml` into a SiteConfig."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Collection
from urllib.parse import urlsplit

from .documents import read_content_file
from .fields import FieldReader, describe
from .latexmacros import macro_problem
from ..model.errors import BuildFailed, ContentError, display_path
from ..model.languages import CATALOGUE_PATH, interface_language
from ..model.records import SiteConfig
from .yamltext import YamlProblem, read_mapping

CONFIG_KEYS = {f.name for f in dataclasses.fields(SiteConfig)} - {"source"}
_HOST = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]$")
_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$")
_TWITTER = re.compile(r"^@?([A-Za-z0-9_]{1,15})$")


def load_config(content_dir: Path, base_url: str | None = None,
                languages: Collection[str] | None = None) -> SiteConfig:
    """Read and check `<content_dir>/site.yaml`; `base_url` overrides the file's value.
    `languages` are those the interface is translated into; `language` must select one."""
    path = content_dir / "site.yaml"
    shown = display_path(path)
    try:
        text = read_content_file(path).decode("utf-8")
    except FileNotFoundError:
        raise BuildFailed([ContentError(shown, 1, "site config not found; create it with at "
                                                  "least 'title:' and 'base_url:'")]) from None
    except UnicodeDecodeError as err:
        raise BuildFailed([ContentError(shown, 1, f"not valid UTF-8 (byte {err.start}); save "
                                                  "the file as UTF-8")]) from None
    except OSError as err:
        raise BuildFailed([ContentError(shown, 1, f"cannot be read ({err.strerror}); it must "
                                                  "be a YAML file")]) from None
    try:
        mapping = read_mapping(text)
    except YamlProblem as problem:
        raise BuildFailed([ContentError(shown, problem.line, problem.message)]) from None
    fields = FieldReader(shown, mapping, "site.yaml")
    fields.reject_unknown(CONFIG_KEYS)
    url = base_url if base_url is not None else fields.text("base_url", required=True)
    config = SiteConfig(
        title=fields.text("title", required=True),
        subtitle=fields.text("subtitle"),
        description=fields.text("description"),
        base_url=_normalise_base_url(url, fields),
        language=_interface_language(fields, languages),
        title_language=_language(fields, "title_language"),
        curator=fields.text("curator"),
        home_excerpt_words=fields.integer("home_excerpt_words", 20),
        search_budget_kb=fields.integer("search_budget_kb", 1024),
        site_budget_mb=fields.integer("site_budget_mb", 800),
        extra=fields.mapping_of("extra"),
        source=path,
        cname=_cname(fields),
        citation_tags=fields.boolean("citation_tags"),
        twitter=_twitter(fields),
        page_size=fields.integer("page_size", 50),
        feed_items=fields.integer("feed_items", 50),
        macros=_macros(fields),
    )
    if fields.errors:
        raise BuildFailed(fields.errors)
    return config


def _normalise_base_url(url: str, fields: FieldReader) -> str:
    """An absolute http(s) URL ending in '/', so its path is the base path."""
    parts = urlsplit(url)
    if not url or parts.scheme not in ("http", "https") or not parts.netloc:
        if url:
            fields.error("base_url", f"'base_url' must be an absolute http(s) URL such as "
                                     f"'https://user.github.io/repo/', got '{url}'")
        return "http://localhost/"
    if parts.query or parts.fragment:
        fields.error("base_url", "'base_url' must not have a '?query' or '#fragment'")
    if re.search(r"[\s\x00-\x1f\x7f]", url) or parts.username is not None:
        fields.error("base_url", "'base_url' must have no spaces, control characters or "
                                 "'user:password@' (a password there would be published)")
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return f"{parts.scheme}://{parts.netloc}{path}"


def _cname(fields: FieldReader) -> str:
    """A bare host name such as 'digest.example.org', lowercased."""
    value = fields.text("cname").lower()
    if value and not _HOST.match(value):
        fields.error("cname", f"'cname' must be a bare domain name such as 'digest.example.org' "
                              f"(no https:// and no path), got '{value}'")
        return ""
    return value


def _language(fields: FieldReader, key: str, default: str = "") -> str:
    """A BCP 47 language tag such as 'en', 'zh' or 'zh-Hans'."""
    value = fields.text(key, default=default)
    if value and not _LANGUAGE.match(value):
        fields.error(key, f"'{key}' must be a BCP 47 language tag such as 'en', 'zh' or "
                          f"'zh-Hans', got '{value}'")
        return default
    return value


def _interface_language(fields: FieldReader, languages: Collection[str] | None) -> str:
    """The site's language, which selects the interface's catalogue (see model/languages.py)."""
    value = _language(fields, "language", default="en")
    if languages is None or interface_language(value, languages) is not None:
        return value
    listed = ", ".join(sorted(languages))
    fields.error("language", f"'language' is '{value}', but the interface is translated only "
                             f"into {listed}; use one of them, or translate a copy of "
                             f"templates/{CATALOGUE_PATH.format('en')} into "
                             f"templates/{CATALOGUE_PATH.format(value)}")
    return "en"


def _twitter(fields: FieldReader) -> str:
    """A Twitter/X handle written '@name'."""
    value = fields.text("twitter")
    match = _TWITTER.match(value)
    if value and not match:
        fields.error("twitter", f"'twitter' must be an account name such as '@digest', got '{value}'")
        return ""
    return f"@{match.group(1)}" if match else ""


def _macros(fields: FieldReader) -> dict[str, str]:
    """`macros:`, each 'name: definition' (a leading backslash on the name is fine)."""
    found = {}
    for name, definition in fields.mapping_of("macros").items():
        line = fields.child_line("macros", str(name))
        bare = str(name).removeprefix("\\")
        if not isinstance(definition, str):
            fields.error("macros", f"macros.{name} must be text, got {describe(definition)}; "
                                   f"quote it: {name}: '...'", line)
        elif problem := macro_problem(bare, definition):
            fields.error("macros", f"macros.{name}: {problem}", line)
        else:
            found[bare] = definition.strip()
    return dict(sorted(found.items()))


def config_warnings(config: SiteConfig) -> list[str]:
    """Settings that build but are probably not what the curator meant."""
    host = urlsplit(config.base_url).hostname or ""
    if config.cname and host != config.cname:
        return [f"cname is '{config.cname}' but the site is built for {config.base_url}; "
                f"set base_url to https://{config.cname}/ once the domain is live"]
    return []
