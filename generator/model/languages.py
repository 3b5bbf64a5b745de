"""The interface's languages: which message catalogue a site's `language` selects, and the
Babel locale its dates and numbers are written in."""

from __future__ import annotations

import functools
import re
from typing import Iterable

from babel.core import Locale, UnknownLocaleError, get_global

from .records import Templates

# why: the characters of writing that puts no space between words: Han (with 々 〆 〇 and the
# Hangzhou numerals), hiragana and katakana (half-width too), and planes 2-3, where every
# character is Han. Hangul is left out: Korean puts spaces between words, and fold() (NFKD)
# would take its syllables apart. static/search/query.js's CJK_CLASS has the same ranges
# (tests/test_cjk.py); search/terms.py cuts these characters into bigrams.
CJK_RANGES = ((0x3005, 0x3007), (0x3021, 0x3029), (0x3031, 0x3035), (0x303B, 0x303C),
              (0x3040, 0x30FF), (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
              (0xF900, 0xFAFF), (0xFF66, 0xFF9F), (0x1AFF0, 0x1B16F), (0x20000, 0x3FFFF))
"""Code point ranges, inclusive, of Chinese and Japanese characters."""
_CJK = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in CJK_RANGES) + "]")

CATALOGUE_PATH = "locales/{}/messages.po"
"""Where a language's catalogue lives among the templates: adding one adds the language."""
_CATALOGUE = re.compile(r"^locales/([^/]+)/messages\.po$")


def catalogue_languages(templates: Templates) -> tuple[str, ...]:
    """The languages the templates have a catalogue for, e.g. ('en', 'zh-CN')."""
    return tuple(sorted(m.group(1) for name, _ in templates.sources
                        if (m := _CATALOGUE.match(name))))


def catalogue_source(templates: Templates, language: str) -> str:
    """The .po text of the catalogue `language` selects; KeyError when there is none."""
    chosen = interface_language(language, catalogue_languages(templates))
    if chosen is None:
        raise KeyError(language)
    return dict(templates.sources)[CATALOGUE_PATH.format(chosen)]


def interface_language(tag: str, supported: Iterable[str]) -> str | None:
    """The catalogue a BCP 47 `tag` reads: the one named so (case aside), else the only one of
    the same language in the same script ('zh', 'zh-Hans', 'zh-SG' read 'zh-CN'; 'en-GB' reads
    'en'; 'zh-TW', written in Traditional characters, reads none); None when there is none."""
    supported = tuple(supported)
    exact = [name for name in supported if name.lower() == tag.lower()]
    if exact:
        return exact[0]
    wanted = _language_and_script(tag)
    near = [name for name in supported if wanted and _language_and_script(name) == wanted]
    return near[0] if len(near) == 1 else None


@functools.lru_cache(maxsize=64)
def _language_and_script(tag: str) -> tuple[str, str] | None:
    parts = _likely(tag)
    return None if parts is None else (parts[0], parts[1])


@functools.lru_cache(maxsize=64)
def _likely(tag: str) -> tuple[str, str, str] | None:
    """(language, script, territory) of `tag`, the missing ones filled in as CLDR's likely
    subtags have them ('zh' -> zh, Hans, CN); None for a tag Babel does not know."""
    try:
        locale = Locale.parse(tag, sep="-")
    except (UnknownLocaleError, ValueError):
        return None
    likely = get_global("likely_subtags")
    guess = likely.get(f"{locale.language}_{locale.territory}") or likely.get(locale.language, "")
    filled = Locale.parse(guess) if guess else locale
    return (locale.language, locale.script or filled.script or "",
            locale.territory or filled.territory or "")


@functools.lru_cache(maxsize=16)
def babel_locale(tag: str) -> Locale:
    """The locale dates and numbers are written in: the site's own tag, so 'en-US' writes
    'November 29, 2026'; a bare 'en' writes CLDR's international English, '29 November 2026'."""
    # why: CLDR's 'en' is American English; a digest that names no region should not read
    # as American, and the site wrote '29 November 2026' before it had locales.
    if tag.lower() == "en":
        return Locale.parse("en_001")
    return Locale.parse(tag, sep="-")


def text_language(text: str, site_language: str) -> str:
    """The `lang` a paper's own text (title, abstract, notes) is marked with, '' for none: papers
    carry no language, and are read as English ('en') on a site whose interface is in another
    language, unless the text holds Chinese or Japanese characters (then the page's own)."""
    if not text or site_language.split("-")[0].lower() == "en" or _CJK.search(text):
        return ""
    return "en"


def og_locale(tag: str) -> str:
    """OpenGraph's `language_TERRITORY` form of a tag: 'zh-CN' -> 'zh_CN', 'en' -> 'en_US'."""
    parts = _likely(tag)
    if parts is None or not parts[2]:
        return tag.replace("-", "_")
    return f"{parts[0]}_{parts[2]}"
