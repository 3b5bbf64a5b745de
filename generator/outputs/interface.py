"""The interface in the site's language: its catalogue compiled from the .po text the templates
carry, dates and numbers as Babel writes them for the locale, and the scripts' messages."""

from __future__ import annotations

import datetime as dt
import functools
import io
from dataclasses import dataclass
from typing import Any

from babel import Locale
from babel.dates import format_date
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from ..model.languages import babel_locale, catalogue_source
from ..model.records import Templates


@dataclass(frozen=True)
class Interface:
    """What the pages' words are written with: the site's language and its catalogue."""

    language: str
    """The site's BCP 47 tag, as site.yaml gives it."""
    locale: Locale
    translations: Translations

    def gettext(self, message: str) -> str:
        """`message` in the site's language."""
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int, **values: str) -> str:
        """The form for `n` of a message, filled with `values` and '%(num)s' as the locale
        writes n."""
        return self.translations.ngettext(singular, plural, n) % {"num": self.number(n), **values}

    def date(self, day: dt.date) -> str:
        """A day as readers of the locale write it: '29 November 2026', '2026年11月29日'."""
        return format_date(day, format="long", locale=self.locale)

    def short_date(self, day: dt.date) -> str:
        """A day as a list row shows it: '29 Nov 2026', '2026年11月29日'."""
        return _medium_date(day, self.locale)

    def number(self, n: int) -> str:
        """A count as the locale writes it: '1,234'."""
        return _decimal(n, self.locale)

    def as_list(self, items: list[str] | tuple[str, ...]) -> str:
        """Names as the locale lists them: 'A, B and C', 'A、B和C'."""
        return format_list(list(items), locale=self.locale)


@functools.lru_cache(maxsize=8)  # why: one per process and language, not one per page
def interface(templates: Templates, language: str) -> Interface:
    """The interface the site's `language` selects among the templates' catalogues."""
    locale = babel_locale(language)
    return Interface(language, locale, compiled(catalogue_source(templates, language), str(locale)))


@functools.lru_cache(maxsize=4096)  # why: a 10,000-paper site writes ~40,000 counts, ~100 distinct
def _decimal(n: int, locale: Locale) -> str:
    return format_decimal(n, locale=locale)


@functools.lru_cache(maxsize=4096)  # why: every row shows its day; a digest has few distinct days
def _medium_date(day: dt.date, locale: Locale) -> str:
    return format_date(day, format="medium", locale=locale)


@functools.lru_cache(maxsize=8)
def compiled(po_text: str, locale: str) -> Translations:
    """A .po catalogue compiled in memory (no .mo is kept anywhere); fuzzy entries left out."""
    catalog = read_po(io.StringIO(po_text), locale=locale)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return Translations(mo)


def presentation_label(presentation: str, ui: Interface) -> str:
    """'oral', 'spotlight' or 'poster' in the site's language."""
    labels = {"oral": ui.gettext("oral"), "spotlight": ui.gettext("spotlight"),
              "poster": ui.gettext("poster")}
    return labels.get(presentation, presentation)


def link_label(kind: str, label: str, ui: Interface) -> str:
    """A link's label in the site's language; names (arXiv, OpenReview, PDF, DOI) stay."""
    if kind == "code":
        return ui.gettext("Code")
    return ui.gettext("Project page") if kind == "project" else label


def N_(message: str) -> str:  # noqa: N802 - gettext's name for a message marked, not translated
    """Marks a message for the catalogue; it is translated where it is used."""
    return message


def Np_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802
    """Marks a message with a plural form for the catalogue."""
    return (singular, plural)


SCRIPT_MESSAGES: dict[str, str | tuple[str, str]] = {
    # search/ui.js and search/page.js
    "papersFound": N_("Papers found"),
    "searchFailed": N_("Search failed."),
    "indexFailed": N_("The search index could not be loaded."),
    "noMatch": N_("No papers match “%(query)s”."),
    "noMatchFilters": N_("No papers match these filters."),
    "matches": Np_("%(num)s paper matches.", "%(num)s papers match."),
    "allResults": Np_("All %(num)s result", "All %(num)s results"),
    "showingResultsFor": N_("Showing results for %(query)s"),
    "facetTags": N_("Tags"),
    "facetVenue": N_("Venue"),
    "facetYear": N_("Year"),
    "chipTag": N_("tag: %(value)s"),
    "chipVenue": N_("venue: %(value)s"),
    "chipYear": N_("year: %(value)s"),
    "removeFilter": N_("Remove filter %(filter)s"),
    "filteredBy": N_("Filtered by %(filters)s."),
    "filters": N_("Filters"),
    "filtersCount": N_("Filters (%(num)s)"),
    # reading/copy-text.js
    "copyLink": N_("Copy link"),
    "copyBibtex": N_("Copy BibTeX"),
    "copied": N_("Copied to the clipboard."),
    "copyRefused": N_("The browser did not allow copying: the text is selected, press Ctrl+C "
                      "(⌘C on a Mac)."),
    # reading/reading.js: rows drawn from list.json, save buttons, new badges
    "new": N_("new"),
    "newTitle": N_("Added since your last visit"),
    "moreAuthors": N_("more"),
    "added": N_("added %(date)s"),
    "save": N_("Save"),
    # why: "Saved" is the saved page's name in the menu; this is the state of a paper's button
    "saveOn": N_("saved (the state of a paper's save button)"),
    "follow": N_("Follow"),
    "followOn": N_("Following"),
    "storageFull": N_("This browser's storage for this site is full: what you saved and follow is "
                      "shown as it is kept, and cannot change until some is freed (other sites' "
                      "data in the browser's settings, or papers you no longer need)."),
    "tags": N_("Tags"),
    "abstract": N_("Abstract"),
    "draft": N_("draft"),
    "oral": N_("oral"),
    "spotlight": N_("spotlight"),
    "poster": N_("poster"),
    "onPaperPage": N_("Links, notes and BibTeX on the paper's page"),
    "abstractLoading": N_("Loading the abstract…"),
    "abstractFailed": N_("The abstract could not be loaded; it is on the paper's page."),
    # reading/keys.js
    "keysTitle": N_("Keys"),
    "keysNext": N_("the next paper of the list"),
    "keysPrevious": N_("the paper before"),
    "keysOpen": N_("open it (Enter too)"),
    "keysSave": N_("save it, or unsave it"),
    "keysFollow": N_("follow the author or the tag, or stop"),
    "keysSearch": N_("search"),
    "keysHelp": N_("show these keys"),
    "keysClose": N_("Close"),
    "keysItem": N_("%(num)s of %(total)s: %(title)s"),
    # reading/list-controls.js
    "pages": N_("Pages"),
    "previousPage": N_("← Previous"),
    "nextPage": N_("Next →"),
    "sortAdded": N_("newest added first"),
    "sortTitle": N_("by title"),
    "sortVenue": N_("by venue"),
    "papers": Np_("%(num)s paper", "%(num)s papers"),
    "papersTagged": Np_("%(num)s paper tagged %(tag)s", "%(num)s papers tagged %(tag)s"),
    "papersKind": N_("%(papers)s presented as %(kind)s"),
    "papersWords": N_("%(papers)s with “%(words)s”"),
    "listStatus": N_("%(papers)s, %(sort)s."),
    "listStatusPage": N_("%(papers)s, %(sort)s, page %(page)s of %(pages)s."),
    "removeTagFilter": N_("Remove the filter %(tag)s"),
    "listLoading": N_("Loading every paper…"),
    "listFailed": N_("The list of papers could not be loaded; the pages below are the digest "
                     "newest first."),
    # reading/saved-page.js
    "savedNoStorage": N_("Saving papers needs the browser's local storage, which this browser "
                         "does not allow this site. Every paper is still in the list of papers, "
                         "all.bib and papers.json."),
    "savedCount": Np_("%(num)s saved paper.", "%(num)s saved papers."),
    "savedNone": N_("No saved papers yet: press Save on a paper to keep it here."),
    "savedGone": N_("No longer in this digest."),
    "savedListFailed": N_("The list of papers could not be loaded; try again later."),
    "exportedBib": Np_("Exported %(num)s saved paper as BibTeX (saved-papers.bib).",
                       "Exported %(num)s saved papers as BibTeX (saved-papers.bib)."),
    "exportedCsl": Np_("Exported %(num)s saved paper as CSL-JSON (saved-papers.json).",
                       "Exported %(num)s saved papers as CSL-JSON (saved-papers.json)."),
    "exportFailed": N_("The export could not be made: the digest's files could not be loaded."),
    "likeReason": Np_("related to %(num)s of your saved papers",
                      "related to %(num)s of your saved papers"),
    "anAuthor": N_("author"),
    "aTag": N_("tag"),
    "sharedTitle": Np_("A list of %(num)s paper shared with you", "A list of %(num)s papers shared with you"),
    "sharedUnknown": Np_("%(num)s paper of the link is not in this digest (removed since, or the "
                         "link was cut).", "%(num)s papers of the link are not in this digest "
                         "(removed since, or the link was cut)."),
    "sharedAdded": Np_("Added %(num)s paper to your saved papers.",
                       "Added %(num)s papers to your saved papers."),
    "clearConfirm": Np_("Remove the %(num)s saved paper from this browser?",
                        "Remove all %(num)s saved papers from this browser?"),
    "cleared": Np_("Removed %(num)s saved paper from this browser.",
                   "Removed %(num)s saved papers from this browser."),
}
"""What the browser's scripts say, by the key they ask for: the scripts hold no words."""

OVERLAY_MESSAGES: dict[str, str] = {
    "hide": N_("Hide"),
    "buildFailed": N_("Build failed; this is the last good site. Fix the file and save: this "
                      "page updates by itself."),
}
"""What the preview server's error overlay says."""


def script_messages(ui: Interface, messages: dict[str, Any] | None = None) -> dict[str, Any]:
    """The scripts' messages in the site's language. A message with a plural gives its form for
    each of the locale's CLDR plural categories, which the browser's Intl.PluralRules picks."""
    # why: a list of names ('llm, agents and rl', 'llm、agents和rl') is joined as CLDR has it
    out: dict[str, Any] = {"listPattern": dict(ui.locale.list_patterns["standard"])}
    examples = plural_examples(ui.locale)  # why: once, not once a message (1,000 counts each)
    for key, message in (SCRIPT_MESSAGES if messages is None else messages).items():
        if isinstance(message, str):
            out[key] = ui.gettext(message)
        else:
            out[key] = {category: ui.translations.ngettext(*message, n)
                        for category, n in examples.items()}
    return out


def plural_examples(locale: Locale) -> dict[str, int]:
    """The smallest count of each of the locale's plural categories ('one': 1, 'other': 0)."""
    examples: dict[str, int] = {}
    for n in range(1000):
        examples.setdefault(locale.plural_form(n), n)
    return examples
