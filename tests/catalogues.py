"""The interface's messages as the code and templates use them, and as each .po file has them.

Run as a script (`make messages`) to bring every catalogue up to date: each message the templates
and the code ask for is in it, a new one untranslated (in English, the message itself), and no
other; its header and every translation are kept as they are. With --pot it prints a fresh
`messages.pot` (msgids only) to start a new language from."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

REPO = Path(__file__).resolve().parent.parent
TEMPLATES = REPO / "templates"
LOCALES = TEMPLATES / "locales"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "Np_": (1, 2)}
# why: the build's Jinja trims every {% trans %} block (ext.i18n.trimmed), so extraction must too
JINJA_OPTIONS = {"trimmed": "true", "extensions": "jinja2.ext.i18n"}


def used_messages() -> dict[str, str | tuple[str, str]]:
    """Every message the templates and the generator's outputs ask for, by msgid; a plural
    message as (singular, plural)."""
    found: dict[str, str | tuple[str, str]] = {}
    sources = ((TEMPLATES, [("**.html", "jinja2.ext:babel_extract")], JINJA_OPTIONS),
               (REPO / "generator" / "outputs", [("**.py", "python")], {}))
    for folder, method_map, options in sources:
        for _name, _line, message, _comments, _context in extract_from_dir(
                folder, method_map, options_map={"**": options}, keywords=KEYWORDS,
                directory_filter=_not_hidden):
            found[message if isinstance(message, str) else message[0]] = message
    return found


def _not_hidden(path: str) -> bool:
    # why: Babel's default filter also skips folders named '_*', such as templates/_partials
    return not Path(path).name.startswith(".")


def catalogue(language: str):
    """The .po file of `language`, read."""
    path = LOCALES / language / "messages.po"
    return read_po(io.StringIO(path.read_text(encoding="utf-8")), locale=language.replace("-", "_"))


def template_catalogue() -> str:
    """A .pot of every used message, sorted."""
    pot = Catalog(project="paper-digest", fuzzy=False)
    for message in sorted(used_messages().values(), key=lambda m: m if isinstance(m, str) else m[0]):
        pot.add(message)
    out = io.BytesIO()
    write_po(out, pot, omit_header=False, width=100, sort_output=True)
    return out.getvalue().decode("utf-8")


def updated_catalogue(language: str, used: dict[str, str | tuple[str, str]] | None = None) -> str:
    """The .po text of `language` holding the `used` messages (used_messages()) and no other."""
    text = (LOCALES / language / "messages.po").read_text(encoding="utf-8")
    header = text[:text.index("\n\n") + 2]  # why: Babel would write a header of its own
    old, english = catalogue(language), language == "en"
    new = Catalog(locale=language.replace("-", "_"), fuzzy=False)
    for message in (used_messages() if used is None else used).values():
        msgid = message if isinstance(message, str) else message[0]
        kept = old.get(msgid)
        if kept is not None and kept.id == message:
            new.add(kept.id, kept.string, flags=kept.flags, auto_comments=kept.auto_comments)
        elif english:
            new.add(message, message if isinstance(message, str) else message)
        else:
            new.add(message, "" if isinstance(message, str) else ("",) * old.num_plurals)
    out = io.BytesIO()
    write_po(out, new, omit_header=True, width=100, sort_output=True)
    return header + out.getvalue().decode("utf-8").lstrip("\n")


def update_catalogues() -> list[str]:
    """Writes every catalogue up to date; the languages whose catalogue changed."""
    changed = []
    for folder in sorted(LOCALES.iterdir()):
        path = folder / "messages.po"
        text = updated_catalogue(folder.name)
        if text != path.read_text(encoding="utf-8"):
            path.write_text(text, encoding="utf-8")
            changed.append(folder.name)
    return changed


if __name__ == "__main__":
    if sys.argv[1:] == ["--pot"]:
        sys.stdout.write(template_catalogue())
    else:
        for language in update_catalogues():
            print(f"updated templates/locales/{language}/messages.po")
