"""URL segments made of names: a paper's file name, a tag's page, an author's page."""

from __future__ import annotations

import functools
import re
import unicodedata


# why: a digest's few tags (and each author's name) are slugified once per paper
@functools.lru_cache(maxsize=1 << 16)
def slugify(text: str, max_length: int = 60, ascii_only: bool = True) -> str:
    """Lowercase words joined by hyphens, accents dropped, cut at a word boundary.

    With `ascii_only=False` letters of other scripts are kept (a tag such as '机器学习').
    """
    text = _SYMBOLS.sub(_spelt, text) if "+" in text or "#" in text else text
    # why: lowered after NFKD, which makes capitals of some letters ('ℌ' -> 'H')
    plain = "".join(c for c in unicodedata.normalize("NFKD", text).lower()
                    if not unicodedata.combining(c))
    words = re.findall(r"[a-z0-9]+" if ascii_only else r"[^\W_]+", plain)
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > max_length and slug:
            break
        slug = candidate
    return slug[:max_length]


# why: 'C++', 'C#' and 'C' are three languages, and would all be 'c'. '#' only after one letter
# standing alone (C#, F#, Q#), so that 'issue#3' is not 'issuesharp3'
_SYMBOLS = re.compile(r"(?<=[^\W_])\+\+|(?<![^\W_])([^\W\d_])#(?![^\W_])")


def _spelt(match: re.Match) -> str:
    return "pp" if match.group(1) is None else match.group(1) + "sharp"


def file_slug(title: str, max_length: int = 60) -> str:
    """A paper file's name from its title: its Latin words ('attention-is-all-you-need'), a
    letter of another script that looks like a Latin one read as that letter inside a Latin word
    ('Аttention' with a Cyrillic 'А'); a title mostly in another script keeps its own letters
    ('机器学习的新方法'), as tag pages do. '' when the title has no letter or digit."""
    text = _LOOKALIKE_WORD.sub(lambda m: m.group().translate(_LOOKALIKES), title)
    letters = [c for c in unicodedata.normalize("NFKD", text) if c.isalnum()]
    latin = sum(c.isascii() for c in letters)
    if latin * 2 >= len(letters):
        return slugify(text, max_length) or slugify(text, max_length, ascii_only=False)
    return slugify(text, max_length, ascii_only=False)


def is_file_slug(name: str) -> bool:
    """Whether `name` is a paper file's name as file_slug makes them: lowercase letters (of any
    script) and digits, words joined by single hyphens."""
    return bool(name) and slugify(name, max_length=len(name), ascii_only=False) == name


@functools.lru_cache(maxsize=1 << 17)  # why: ~55,000 names at 10,000 papers, looked up ~3 times each
def author_slug(name: str) -> str:
    """An author's page segment: names one slug apart only by case, accents or punctuation
    ('Zoë Müller', 'Zoe Muller') are taken for one author; '' for a name with no letters.
    Latin letters that are not a letter and an accent are spelt in ASCII too ('Strøm' ->
    'strom'); other scripts are kept ('王芳')."""
    return slugify(name.translate(LATIN_LETTERS), max_length=80, ascii_only=False)


def name_order(name: str) -> tuple[str, str]:
    """The sort key of a name (a tag, an author) in every interface language: Latin letters
    with accents and case folded ('Émile' among the E's), before other scripts, which go by code
    point: Han characters in Unicode's radical-and-stroke order, since Babel ships no collation
    (no pinyin order without ICU). The name itself breaks ties, so the order is total."""
    plain = unicodedata.normalize("NFKD", name.translate(LATIN_LETTERS))
    return ("".join(c for c in plain if not unicodedata.combining(c)).casefold(), name)


LATIN_LETTERS = str.maketrans({"ı": "i", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d",
                                "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ß": "ss",
                                "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ħ": "h", "ŋ": "ng"})
"""Letters NFKD does not split into a letter and an accent, as names are spelt without them:
in URLs, in the order of names, and by search (search/terms.py, static/search/query.js), so
that 'gudmundsson' finds Guðmundsson."""

_LOOKALIKES = str.maketrans("АВЕЅІЈКМНОРСТХУаеіјорсхуѕԁһԛԝΑΒΕΖΗΙΚΜΝΟΡΤΥΧο",
                            "ABESIJKMHOPCTXYaeijopcxysdhqwABEZHIKMNOPTYXo")
"""Cyrillic and Greek letters drawn as a Latin one: a title copied from a PDF, or spoofed."""
_LOOKALIKE_WORD = re.compile(r"(?=[^\W_]*[A-Za-z])(?=[^\W_]*[" + "".join(
    chr(c) for c in _LOOKALIKES) + r"])[^\W_]+")
"""A word with both a Latin letter and a look-alike: a Russian word alone is left as it is."""
