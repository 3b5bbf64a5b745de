"""Jinja, and the functions that make a page from what it shows (outputs/pages.py's contexts).

Each is a FileJob's `make`: given the templates and values, never anything else, so the build
can tell which pages changed by what they are made from (building/cache.py)."""

from __future__ import annotations

import functools
from typing import Any, Callable

import jinja2
from markupsafe import Markup, escape

from ..model import urls as paths
from ..model.records import Paper, SiteConfig, Templates
from ..model.urls import Urls
from .interface import interface
from .metadata import page_meta
from .pages import (AuthorLine, Threads, author_lines_values, paper_card, paper_context,
                    threads_values)

CARD = "_partials/paper_card.html"


class _Environment(jinja2.Environment):
    """Jinja, reading `card.title` from a dict as the key it is, at once.

    Every context is made of dicts, and Jinja tries `card.title` as an attribute first: the
    AttributeError it raises and catches for each took over half of rendering a list page's
    cards. The result is Jinja's own: a key named like a dict method is left to Jinja."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


_DICT_NAMES = frozenset(dir(dict))


@functools.lru_cache(maxsize=4)  # why: compiled once per process, not once per page
def environment(templates: Templates, language: str = "en") -> jinja2.Environment:
    """Autoescaping, strict Jinja over the given templates, speaking `language` through the
    templates' catalogue: a typo in a template fails the build."""
    sources = dict(templates.sources)
    ui = interface(templates, language)

    def load(name: str) -> tuple[str, str, Callable[[], bool]] | None:
        source = sources.get(name)
        return None if source is None else (source, f"{templates.folder}/{name}", lambda: True)

    env = _Environment(
        loader=jinja2.FunctionLoader(load), extensions=["jinja2.ext.i18n"],
        autoescape=True, undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.policies["ext.i18n.trimmed"] = True  # why: a message is one line, however it is wrapped
    env.install_gettext_translations(ui.translations, newstyle=True)  # type: ignore[attr-defined]
    env.globals["_"] = _messages(ui.translations.gettext)
    env.filters.update(number=ui.number, as_list=ui.as_list, lang_attr=lang_attr)
    return env


def _messages(translate: Callable[[str], str]) -> Callable[..., str]:
    """`_()` as Jinja's i18n extension makes it, new-style (the translation always formatted
    with the keyword arguments given; where autoescaping, as markup, the values escaped), each
    message translated once. Jinja's own goes through two calls of the template's context a
    message: ~1.6 s of the workers' time in a cold 10,000-paper build, ~220,000 messages."""
    translated: dict[str, Markup] = {}
    alone: dict[str, Markup] = {}

    @jinja2.pass_eval_context
    def gettext(eval_ctx: jinja2.nodes.EvalContext, message: str, /, **values: Any) -> str:
        if not eval_ctx.autoescape:  # why: in {% autoescape false %}, plain text, as Jinja's
            return translate(message) % values
        if not values and message in alone:
            return alone[message]
        markup = translated.get(message)
        if markup is None:
            markup = translated[message] = Markup(translate(message))
        if values:
            return markup % values
        alone[message] = markup % values  # why: '%%' is '%' even with nothing to format
        return alone[message]

    return gettext


def lang_attr(tag: str) -> Markup:
    """' lang="en"' for an element whose text is in `tag`, nothing for ''."""
    return Markup(f' lang="{escape(tag)}"') if tag else Markup("")


def render_card(templates: Templates, paper: Paper, base_url: str, excerpt_words: int,
                language: str, author_pages: int) -> bytes:
    """The card a list of papers shows for one paper, as UTF-8 HTML, in the site's `language`.
    Bytes, not a str: every card is held through the build, and one character beyond Latin-1
    (an excerpt's '…', a Chinese label) makes Python hold a str at two bytes a character."""
    card = paper_card(paper, Urls(base_url), excerpt_words, interface(templates, language),
                      author_pages)
    return environment(templates, language).get_template(CARD).render(card=card).encode("utf-8")


def render_page(templates: Templates, template: str, common: dict[str, Any], config: SiteConfig,
                path: str, context: dict[str, Any], paper: Paper | None = None) -> bytes:
    """One page: `template` given what every page has, its own `context` and its metadata."""
    meta = page_meta(config, path, context["page_title"], context["description"], paper)
    html = environment(templates, config.language).get_template(template).render(
        {**common, **context, "meta": meta})
    return html.encode("utf-8")


def render_paper_page(templates: Templates, common: dict[str, Any], config: SiteConfig,
                      paper: Paper, bibtex: str, threads: Threads, author_pages: int) -> bytes:
    """A paper's own page, with its `bibtex` entry (its parts'); `threads` are the other papers
    it leads to (pages.threads_context); its authors are listed on `author_pages` pages."""
    urls, path = Urls(config.base_url), paths.paper_file(paper.slug)
    ui = interface(templates, config.language)
    card = paper_card(paper, urls, config.home_excerpt_words, ui, author_pages)
    context = paper_context(paper, card, bibtex, urls, ui, author_pages)
    return render_page(templates, "paper.html", common, config, path,
                       {**context, **threads_values(threads)}, paper)


def render_author_page(templates: Templates, template: str, common: dict[str, Any],
                       config: SiteConfig, path: str, context: dict[str, Any],
                       lines: tuple[AuthorLine, ...]) -> bytes:
    """One page of authors, each with their papers (pages.author_lines())."""
    return render_page(templates, template, common, config, path,
                       {**context, "authors": author_lines_values(lines)})


def render_list_page(templates: Templates, template: str, common: dict[str, Any],
                     config: SiteConfig, path: str, context: dict[str, Any],
                     cards: tuple[bytes, ...]) -> bytes:
    """One page of a list of papers, given their cards (render_card())."""
    return render_page(templates, template, common, config, path,
                       {**context, "cards": [Markup(card.decode("utf-8")) for card in cards]})
