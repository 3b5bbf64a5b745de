"""A build that reuses its cache gives the same bytes as a clean build, whatever was edited.

Seeded random sequences of edits on 120-paper digests, 8 papers to a page so that the home
list and most tags run over several pages: after every edit a cached build and a clean build are
made and their output trees compared byte for byte; every ~25 steps a third build goes through
one long-lived in-memory Cache, as the preview server keeps it.

The run is cut into shards, each its own digest and seed, so that they run side by side: a
quick shard (every kind of edit once), run by the fast tier too, and SHARDS long ones (every
kind once, then random edits); together over 200 steps, every kind five times or more.

    .venv/bin/python -m pytest -q -s tests/test_cached_build_property.py -k seed20250425

The base seed (CACHE_PROPERTY_SEED), the number of long shards (CACHE_PROPERTY_SHARDS) and
their random edits in all (CACHE_PROPERTY_STEPS) can be set; a failure names its shard's seed,
the step and the edit, and the command that replays it.
"""

from __future__ import annotations

import collections
import copy
import datetime as dt
import os
import random
import re
import shutil
import time
from pathlib import Path

import pytest

from generator.building.cache import Cache
from generator.building.pipeline import BuildOptions, Kept, StageTimer, build
from generator.building.workers import KeptAside
from generator.model.errors import BuildFailed

REPO = Path(__file__).resolve().parent.parent
SEED = int(os.environ.get("CACHE_PROPERTY_SEED", "20250424"))
SHARDS = int(os.environ.get("CACHE_PROPERTY_SHARDS", "4"))
RANDOM_STEPS = int(os.environ.get("CACHE_PROPERTY_STEPS", "100"))
PAPERS = 120
PREVIEW_EVERY = 25
EPOCH = "1745452800"  # 2025-04-24

KINDS = ("title", "authors", "tag_add_shared", "tag_add_new", "tag_remove", "tag_respell", "date",
         "abstract", "notes", "rename", "delete", "add", "draft", "site_yaml", "template", "css",
         "delete_output", "edit_output", "touch", "revert", "double_edit", "content_error")
AT_LEAST = 1
"""Every kind is in each shard's deck this many times; a long shard draws its share of
RANDOM_STEPS more by WEIGHTS."""
WEIGHTS = {"title": 3, "authors": 2, "tag_add_shared": 2, "tag_add_new": 2, "tag_remove": 2,
           "tag_respell": 2, "date": 3, "abstract": 3, "notes": 3, "rename": 2, "delete": 2, "add": 2,
           "draft": 2, "site_yaml": 2, "template": 2, "css": 1, "delete_output": 2, "edit_output": 2,
           "touch": 1, "revert": 2, "double_edit": 2, "content_error": 2}

SYLLABLES = ("ka to ri an el mo su ne ti ra lo ve de qua pri for tex gra phi lin con tra sym opt "
             "dif fu sion mer vec ten sor ker nel lat ent gen cau sal rob ust spar").split()
COMMON = ("the of and a to in we that is for on with as by this our are an model learning data "
          "method results show propose approach network task large language novel").split()
TAGS = [f"{a}-{b}" for a in ("graph", "causal", "sparse", "robust", "vision", "audio")
        for b in ("learning", "models", "inference", "theory")]
NAMES = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Zoë Müller", "Émile Borel",
         "Li Wei", "Sofia Kovalevskaya", "Kurt Gödel", "Ana Núñez", "John von Neumann",
         "Wang Fang", "Jo Smith", "Rao Kumar", "Ines Castro", "Oskar Strøm"]
MATH = (r"$x^2$", r"$O(n \log n)$", r"$\ell_2$", r"$\alpha = 0.5$", r"$\mathbb{R}^d$",
        r"$p(x \mid z)$", r"$\epsilon$-greedy", r"$\frac{1}{2}$", r"$\sqrt{n}$")
TITLE_EXTRAS = ("&", "<T>", "é", "—", "x²", "C++", "100%")
NOTES = (
    "- {a}.\n- {b}.\n",
    "**{a}** and *{b}*.\n",
    "## A heading\n\n{a}, see [the code](https://example.org/{w}).\n",
    "{a}[^1].\n\n[^1]: A footnote: {b}.\n",
    "The {W} runs on a GPU.\n\n*[{W}]: {b}\n*[GPU]: {a}\n",
    "- {a}, on one GPU.\n- {b}.\n",
    "`{w}()` runs in {m}.\n\n> {b}\n",
    "1. {a}\n2. {b}\n\n| a | b |\n|---|---|\n| {w} | 1 |\n",
    "{a}\n\n```\ncode {w}\n```\n",
    "<script>alert(1)</script> {a} <em>{b}</em>\n",
)
ERRORS = ("bad_date", "unclosed", "unknown_key", "duplicate_id", "site_yaml")


def arxiv_id(number: int) -> str:
    return f"25{number % 12 + 1:02d}.{number:05d}"


class Digest:
    """The content folder, the project and what was written to each file, kept in step."""

    def __init__(self, root: Path, rng: random.Random):
        self.root, self.rng = root, rng
        self.content = root / "content"
        self.papers_dir = self.content / "papers"
        self.project = root / "project"
        self.words = sorted({"".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
                             for _ in range(300)}) + COMMON
        self.papers: dict[str, dict] = {}
        self.deleted: list[tuple[str, dict]] = []
        self.history: dict[Path, list[tuple[bytes, dict | None]]] = collections.defaultdict(list)
        self.numbers = 0
        self.counter = 0
        self.site = {"title": "Property Digest", "description": "Papers for the cache property.",
                     "page_size": 8, "feed_items": 30, "home_excerpt_words": 12}
        self.originals: dict[Path, bytes] = {}
        self.pending_fix: tuple[Path, bytes, dict | None] | None = None

    # -- making ---------------------------------------------------------------------------
    def create(self, papers: int) -> None:
        self.papers_dir.mkdir(parents=True)
        self.project.mkdir()
        shutil.copytree(REPO / "templates", self.project / "templates")
        shutil.copytree(REPO / "static", self.project / "static")
        (self.project / "node_modules").symlink_to(REPO / "node_modules")
        for name in ("templates/paper.html", "templates/_partials/paper_card.html",
                     "templates/_partials/footer.html", "static/site.css"):
            path = self.project / name
            self.originals[path] = path.read_bytes()
            self.history[path].append((self.originals[path], None))
        self.write_site()
        for _ in range(papers):
            slug, paper = self.new_paper()
            self.papers[slug] = paper
            self.write_paper(slug)

    def fresh(self) -> int:
        self.counter += 1
        return self.counter

    def sentence(self, low: int, high: int) -> str:
        return " ".join(self.rng.choice(self.words) for _ in range(self.rng.randint(low, high)))

    def title(self) -> str:
        words = [w.capitalize() for w in self.sentence(3, 7).split()]
        if self.rng.random() < 0.2:
            words.insert(self.rng.randrange(len(words) + 1), self.rng.choice(TITLE_EXTRAS))
        return " ".join(words)

    def abstract(self) -> str:
        words = self.sentence(10, 25).split()
        if self.rng.random() < 0.4:
            for _ in range(self.rng.randint(1, 2)):
                words[self.rng.randrange(len(words))] = self.rng.choice(MATH)
        return " ".join(words).capitalize() + "."

    def notes(self) -> str:
        if self.rng.random() < 0.3:
            return ""
        template = self.rng.choice(NOTES)
        return template.format(a=self.sentence(3, 8).capitalize(), b=self.sentence(2, 6),
                               w=self.rng.choice(self.words), W=self.rng.choice(self.words).upper(),
                               m=self.rng.choice(MATH))

    def date(self) -> str:
        day = dt.date(2024, 1, 1) + dt.timedelta(days=self.rng.randrange(700))
        return day.isoformat()

    def new_paper(self) -> tuple[str, dict]:
        self.numbers += 1
        number = self.numbers
        slug = f"paper-{number:04d}-{self.rng.choice(self.words)}"
        paper = {"number": number, "title": self.title(),
                 "authors": self.rng.sample(NAMES, self.rng.randint(1, 4)),
                 "date": self.date(), "tags": sorted(self.rng.sample(TAGS, self.rng.randint(0, 3))),
                 "abstract": self.abstract(), "draft": self.rng.random() < 0.05,
                 "body": self.notes() if self.rng.random() < 0.4 else ""}
        return slug, paper

    # -- files ----------------------------------------------------------------------------
    def paper_path(self, slug: str) -> Path:
        return self.papers_dir / f"{slug}.md"

    def paper_text(self, paper: dict) -> str:
        lines = ["---", "title: '" + paper["title"].replace("'", "''") + "'", "authors:"]
        lines += [f"- {name}" for name in paper["authors"]]
        lines += [f"date: {paper['date']}"]
        if paper["tags"]:
            lines.append(f"tags: [{', '.join(paper['tags'])}]")
        number = paper["number"]
        lines += ["links:", f"  arxiv: '{arxiv_id(number)}'",
                  "abstract: |-", "  " + paper["abstract"]]
        if paper["draft"]:
            lines.append("draft: true")
        lines.append("---")
        return "\n".join(lines) + "\n" + paper["body"]

    def write(self, path: Path, data: bytes, model: dict | None = None) -> None:
        path.write_bytes(data)
        self.history[path].append((data, copy.deepcopy(model)))

    def write_paper(self, slug: str) -> None:
        paper = self.papers[slug]
        self.write(self.paper_path(slug), self.paper_text(paper).encode("utf-8"), paper)

    def site_text(self) -> str:
        site = self.site
        return (f"title: '{site['title']}'\ndescription: '{site['description']}'\n"
                "base_url: https://example.org/digest/\ncurator: Tester\n"
                f"page_size: {site['page_size']}\nfeed_items: {site['feed_items']}\n"
                f"home_excerpt_words: {site['home_excerpt_words']}\n"
                "search_budget_kb: 100000\n")

    def write_site(self) -> None:
        self.write(self.content / "site.yaml", self.site_text().encode("utf-8"), self.site)

    def pick(self, drafts: bool = True) -> str:
        slugs = sorted(s for s, p in self.papers.items() if drafts or not p["draft"])
        return self.rng.choice(slugs)

    def restore(self, path: Path, data: bytes, model: dict | None) -> None:
        """Put `path` back to `data` exactly, and its model with it."""
        self.write(path, data, model)
        if path == self.content / "site.yaml":
            self.site = copy.deepcopy(model)
        elif path.parent == self.papers_dir:
            self.papers[path.stem] = copy.deepcopy(model)


class Builds:
    """The cached, clean and preview builds of one digest, compared after every step."""

    def __init__(self, root: Path, digest: Digest, seed: int):
        self.root, self.digest, self.seed = root, digest, seed
        self.cached, self.clean, self.preview = root / "cached", root / "clean", root / "preview"
        self.preview_cache = Cache(root / "cache2", in_memory=True)
        self.preview_aside = KeptAside()  # why: kept from build to build, as the server keeps it
        self.step, self.edit, self.log = 0, "initial build", collections.deque(maxlen=6)
        self.builds = 0

    def options(self, out: Path, cache: Path | None, workers: int = 1) -> BuildOptions:
        return BuildOptions(content=self.digest.content, out=out, project=self.digest.project,
                            cache=cache, workers=workers)

    def check(self, preview: bool = False, fails: bool = False) -> None:
        """A cached and a clean build (and a preview one), the same bytes; or both failing.
        The clean build has no cache; its folder is emptied first on preview steps."""
        self.builds += 1
        before = {"cached": tree(self.cached), "preview": tree(self.preview)} if fails else {}
        # why: every other cached build with a process aside, which reads the papers' search
        # terms from the cache itself (Cache.map_kept); the clean build has none
        cached_failed = self._build(self.options(self.cached, self.root / "cache",
                                                 workers=1 + self.builds % 2))
        if preview:  # why: else the writer makes the reused folder hold exactly the new files
            shutil.rmtree(self.clean, ignore_errors=True)
        clean_failed = self._build(self.options(self.clean, None))
        # why: and every other preview build with one, the server's, kept from build to build,
        # which reads the terms earlier builds carried it (Cache.map_kept in memory), never
        # starting again for want of them
        started_again: list[str] = []
        preview_failed = (self._build(self.options(self.preview, None,
                                                   workers=2 - self.builds % 2),
                                      Kept(self.preview_cache, self.preview_aside),
                                      StageTimer(started_again.append))
                          if preview else None)
        started_again = [line for line in started_again if "building again" in line]
        context = self.context()
        assert (cached_failed is not None) == (clean_failed is not None) == fails, (
            f"{context}\ncached build failed: {cached_failed!r}, clean build failed: "
            f"{clean_failed!r}, expected failure: {fails}")
        if preview:
            assert (preview_failed is not None) == fails, (
                f"{context}\npreview build failed: {preview_failed!r}, expected failure: {fails}")
            assert not started_again, f"{context}\nthe preview build started again: {started_again}"
        assert cached_failed == clean_failed, f"{context}\nthe two builds report other errors"
        if fails:  # why: a failed build writes nothing
            compare(before["cached"], tree(self.cached), "before the failed build", "cached",
                    context)
            compare(before["preview"], tree(self.preview), "before the failed build", "preview",
                    context)
            return
        expected = tree(self.clean)
        compare(expected, tree(self.cached), "clean", "cached", context)
        if preview:
            compare(expected, tree(self.preview), "clean", "preview (in-memory cache)", context)

    def _build(self, options: BuildOptions, cache: Kept | None = None,
               timer: StageTimer | None = None) -> str | None:
        try:
            build(options, timer, cache=cache)
        except BuildFailed as failed:
            return str(failed)
        return None

    def context(self) -> str:
        recent = "\n".join(f"  step {n}: {edit}" for n, edit in self.log)
        return (f"seed {self.seed}, step {self.step}, edit: {self.edit}\nrecent edits:\n"
                f"{recent}\nreplay: CACHE_PROPERTY_SEED={SEED} CACHE_PROPERTY_SHARDS={SHARDS} "
                f"CACHE_PROPERTY_STEPS={RANDOM_STEPS} .venv/bin/python -m pytest -q -s "
                f"tests/test_cached_build_property.py -k seed{self.seed}")


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` by its relative path, and every folder as 'path/' -> b''."""
    found: dict[str, bytes] = {}
    for path in folder.rglob("*"):
        relative = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[relative] = b"symlink -> " + os.readlink(path).encode()
        elif path.is_dir():
            found[relative + "/"] = b""
        else:
            found[relative] = path.read_bytes()
    return found


def compare(expected: dict[str, bytes], got: dict[str, bytes], expected_name: str,
            got_name: str, context: str) -> None:
    if expected == got:
        return
    missing = sorted(expected.keys() - got.keys())
    extra = sorted(got.keys() - expected.keys())
    differing = sorted(p for p in expected.keys() & got.keys() if expected[p] != got[p])
    lines = [context, f"the {got_name} output differs from the {expected_name} output:",
             f"  missing from {got_name} ({len(missing)}): {missing[:8]}",
             f"  only in {got_name} ({len(extra)}): {extra[:8]}",
             f"  differing bytes ({len(differing)}): {differing[:8]}"]
    for path in differing[:2]:
        a, b = expected[path], got[path]
        at = next((n for n in range(min(len(a), len(b))) if a[n] != b[n]), min(len(a), len(b)))
        lines.append(f"  {path}: {len(a)} vs {len(b)} bytes, first difference at byte {at}:\n"
                     f"    {expected_name}: {a[max(0, at - 120):at + 120]!r}\n"
                     f"    {got_name}: {b[max(0, at - 120):at + 120]!r}")
    pytest.fail("\n".join(lines), pytrace=False)


# -- the edits: each changes the digest (or the built site), returns what it did ----------------

def edit_title(d: Digest, b: Builds) -> str:
    slug = d.pick()
    d.papers[slug]["title"] = d.title()
    d.write_paper(slug)
    return f"title of {slug} -> {d.papers[slug]['title']!r}"


def edit_authors(d: Digest, b: Builds) -> str:
    slug = d.pick()
    authors = d.papers[slug]["authors"]
    choice = d.rng.random()
    if choice < 0.4 and len(authors) > 1:
        authors.pop(d.rng.randrange(len(authors)))
    elif choice < 0.7:
        authors.insert(d.rng.randrange(len(authors) + 1),
                       d.rng.choice([n for n in NAMES if n not in authors]))
    else:
        d.rng.shuffle(authors)
    d.write_paper(slug)
    return f"authors of {slug} -> {authors}"


def edit_tag_add_shared(d: Digest, b: Builds) -> str:
    slug = d.pick()
    tags = d.papers[slug]["tags"]
    used = sorted({t for s, p in d.papers.items() if s != slug for t in p["tags"]} - set(tags))
    tag = d.rng.choice(used)
    tags.insert(d.rng.randrange(len(tags) + 1), tag)
    d.write_paper(slug)
    return f"tag {tag!r} (shared) added to {slug}"


def edit_tag_add_new(d: Digest, b: Builds) -> str:
    slug = d.pick(drafts=False)
    tag = f"new-topic-{d.fresh()}"
    d.papers[slug]["tags"].append(tag)
    d.write_paper(slug)
    return f"tag {tag!r} (new) added to {slug}"


def edit_tag_remove(d: Digest, b: Builds) -> str:
    slug = d.rng.choice(sorted(s for s, p in d.papers.items() if p["tags"]))
    tags = d.papers[slug]["tags"]
    tag = tags.pop(d.rng.randrange(len(tags)))
    only = not any(tag in p["tags"] for p in d.papers.values())
    d.write_paper(slug)
    return f"tag {tag!r} removed from {slug}" + (" (its last paper)" if only else "")


def edit_tag_respell(d: Digest, b: Builds) -> str:
    """Another spelling of a tag other papers use: one page, named as the newest paper spells it."""
    slug = d.pick()
    other = d.rng.choice(sorted({t for s, p in d.papers.items() if s != slug for t in p["tags"] if t in TAGS}))
    spelling = other.replace("-", " ").title()  # 'graph-learning' -> 'Graph Learning', the same URL
    tags = [t for t in d.papers[slug]["tags"] if t not in (other, spelling)]
    tags.insert(d.rng.randrange(len(tags) + 1), spelling)
    d.papers[slug]["tags"] = tags
    d.write_paper(slug)
    return f"tag {other!r} spelt {spelling!r} in {slug}"


def edit_date(d: Digest, b: Builds) -> str:
    slug = d.pick()
    d.papers[slug]["date"] = d.date()
    d.write_paper(slug)
    return f"date of {slug} -> {d.papers[slug]['date']}"


def edit_abstract(d: Digest, b: Builds) -> str:
    slug = d.pick()
    paper = d.papers[slug]
    if d.rng.random() < 0.5:
        paper["abstract"] = d.abstract()
    else:
        words = paper["abstract"].split()
        words.insert(d.rng.randrange(len(words) + 1), d.rng.choice(MATH))
        paper["abstract"] = " ".join(words)
    d.write_paper(slug)
    return f"abstract of {slug} -> {paper['abstract']!r}"


def edit_notes(d: Digest, b: Builds) -> str:
    slug = d.pick()
    d.papers[slug]["body"] = d.notes()
    d.write_paper(slug)
    return f"notes of {slug} -> {d.papers[slug]['body']!r}"


def edit_rename(d: Digest, b: Builds) -> str:
    slug = d.pick()
    new = f"{re.sub(r'-r[0-9]+$', '', slug)}-r{d.fresh()}"
    d.paper_path(slug).rename(d.paper_path(new))
    d.papers[new] = d.papers.pop(slug)
    d.history[d.paper_path(new)].append((d.paper_path(new).read_bytes(),
                                         copy.deepcopy(d.papers[new])))
    return f"renamed {slug}.md -> {new}.md"


def edit_delete(d: Digest, b: Builds) -> str:
    slug = d.pick()
    d.paper_path(slug).unlink()
    d.deleted.append((slug, d.papers.pop(slug)))
    return f"deleted {slug}.md"


def edit_add(d: Digest, b: Builds) -> str:
    if d.deleted and d.rng.random() < 0.35:
        slug, paper = d.deleted.pop(d.rng.randrange(len(d.deleted)))
        d.papers[slug] = paper
        d.write_paper(slug)
        return f"added back {slug}.md as it was before it was deleted"
    slug, paper = d.new_paper()
    d.papers[slug] = paper
    d.write_paper(slug)
    return f"added {slug}.md (date {paper['date']}, tags {paper['tags']})"


def edit_draft(d: Digest, b: Builds) -> str:
    slug = d.pick()
    paper = d.papers[slug]
    paper["draft"] = not paper["draft"]
    d.write_paper(slug)
    return f"draft of {slug} -> {paper['draft']}"


def edit_site_yaml(d: Digest, b: Builds) -> str:
    key = d.rng.choice(("title", "description", "page_size", "feed_items", "page_size",
                        "home_excerpt_words"))
    value: object
    if key == "title":
        value = f"Property Digest {d.fresh()}"
    elif key == "description":
        value = d.sentence(3, 10).capitalize() + "."
    elif key == "page_size":
        value = d.rng.randint(5, 50)
    elif key == "home_excerpt_words":
        value = d.rng.randint(3, 40)
    else:
        value = d.rng.randint(1, 60)
    d.site[key] = value
    d.write_site()
    return f"site.yaml {key} -> {value!r}"


def edit_template(d: Digest, b: Builds) -> str:
    name = d.rng.choice(("templates/paper.html", "templates/_partials/paper_card.html",
                         "templates/_partials/footer.html"))
    path = d.project / name
    original = d.originals[path]
    if path.read_bytes() != original and d.rng.random() < 0.4:
        d.write(path, original)
        return f"{name} reverted to the repository's"
    text = path.read_text(encoding="utf-8")
    comment = f"<!-- edit {d.fresh()} -->"
    if name.endswith("paper.html") and d.rng.random() < 0.5:
        head, _, tail = text.rpartition("</article>")
        text = head + comment + "</article>" + tail
        where = "inside <article>"
    else:
        text += comment + "\n"
        where = "at the end"
    d.write(path, text.encode("utf-8"))
    return f"{name}: {comment} {where}"


def edit_css(d: Digest, b: Builds) -> str:
    path = d.project / "static" / "site.css"
    if path.read_bytes() != d.originals[path] and d.rng.random() < 0.4:
        d.write(path, d.originals[path])
        return "site.css reverted to the repository's"
    rule = f".edit-{d.fresh()} {{ color: #{d.rng.randrange(16 ** 6):06x}; }}\n"
    d.write(path, path.read_bytes() + rule.encode())
    return f"site.css += {rule.strip()!r}"


def output_files(b: Builds) -> list[Path]:
    return sorted(p for p in b.cached.rglob("*") if p.is_file() and p.name != ".nojekyll")


def edit_delete_output(d: Digest, b: Builds) -> str:
    # why: not .nojekyll, the mark that lets the writer replace the folder (OutputRefused else)
    path = d.rng.choice(output_files(b))
    if d.rng.random() < 0.25 and path.parent != b.cached:
        shutil.rmtree(path.parent)
        return f"deleted output folder {path.parent.relative_to(b.cached).as_posix()}/ by hand"
    path.unlink()
    return f"deleted output file {path.relative_to(b.cached).as_posix()} by hand"


def edit_edit_output(d: Digest, b: Builds) -> str:
    path = d.rng.choice(output_files(b))
    data = path.read_bytes()
    if d.rng.random() < 0.15:
        stray = path.parent / "stray.html"
        stray.write_bytes(b"<p>not ours</p>\n")
        return f"output file {stray.relative_to(b.cached).as_posix()} added by hand"
    if data and d.rng.random() < 0.4:  # why: same size, other bytes
        at = d.rng.randrange(len(data))
        path.write_bytes(data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1:])
        how = f"flipped a bit of byte {at}"
    else:
        with open(path, "ab") as handle:
            handle.write(b"<!-- hand edit -->\n")
        how = "appended bytes"
    return f"output file {path.relative_to(b.cached).as_posix()} edited by hand ({how})"


def edit_touch(d: Digest, b: Builds) -> str:
    choices = [d.paper_path(d.pick()), d.content / "site.yaml", d.project / "static" / "site.css",
               d.project / "templates" / "paper.html"]
    path = d.rng.choice(choices)
    later = time.time() + d.rng.randint(1, 10_000)
    os.utime(path, (later, later))
    return f"touched {path.relative_to(d.root).as_posix()} (mtime {later:.0f}, same bytes)"


def edit_revert(d: Digest, b: Builds) -> str:
    candidates = []
    for path, versions in sorted(d.history.items()):
        if not path.exists():
            continue
        current = path.read_bytes()
        older = [v for v in versions[:-1] if v[0] != current]
        if older:
            candidates.append((path, older))
    if not candidates:  # why: early on; make an edit to revert, and build it first
        slug = d.pick()
        path = d.paper_path(slug)
        before = d.history[path][-1]
        edit = edit_title(d, b)
        b.edit = f"revert: {edit} (to be reverted)"
        b.check()
        d.restore(path, *before)
        return f"{edit}, built, then {slug}.md reverted to its previous bytes"
    path, older = d.rng.choice(candidates)
    data, model = d.rng.choice(older)
    back = len(d.history[path]) - next(n for n in range(len(d.history[path]) - 1, -1, -1)
                                       if d.history[path][n][0] == data)
    d.restore(path, data, model)
    shown = path.relative_to(d.root).as_posix()
    return f"{shown} reverted exactly to its content of {back} writes ago"


def edit_double_edit(d: Digest, b: Builds) -> str:
    """Two writes of one file in one second, the second of the same size, with the same mtime."""
    target = d.rng.choice(("paper", "paper", "paper", "css", "site"))
    if target == "paper":
        slug = d.pick()
        path, paper = d.paper_path(slug), d.papers[slug]
        paper["title"] = paper["title"] + " Aa"
        d.write_paper(slug)
        stat = path.stat()
        b.edit = f"double_edit: {slug}.md title -> {paper['title']!r} (the first of two writes)"
        b.check()
        paper["title"] = paper["title"][:-2] + "Bb"
        d.write_paper(slug)
        what = f"{slug}.md title '... Aa' then '... Bb'"
    elif target == "css":
        path = d.project / "static" / "site.css"
        base = path.read_bytes()
        d.write(path, base + b".twice { color: #aaaaaa; }\n")
        stat = path.stat()
        b.edit = "double_edit: site.css += '.twice { color: #aaaaaa; }' (the first of two writes)"
        b.check()
        d.write(path, base + b".twice { color: #bbbbbb; }\n")
        what = "site.css color #aaaaaa then #bbbbbb"
    else:
        path = d.content / "site.yaml"
        d.site["feed_items"] = 11 if d.site["feed_items"] != 11 else 12
        d.write_site()
        stat = path.stat()
        b.edit = f"double_edit: site.yaml feed_items -> {d.site['feed_items']} (the first of two)"
        b.check()
        d.site["feed_items"] = 13 if d.site["feed_items"] != 13 else 14
        d.write_site()
        what = "site.yaml feed_items twice"
    assert path.stat().st_size == stat.st_size
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    return f"{what}, built in between, same size and mtime"


def edit_content_error(d: Digest, b: Builds) -> str:
    kind = d.rng.choice(ERRORS)
    if kind == "site_yaml":
        path = d.content / "site.yaml"
        d.pending_fix = (path, *d.history[path][-1])
        path.write_text(d.site_text().replace("page_size: ", "page_size: many "), encoding="utf-8")
        return "site.yaml page_size made 'many ...' (an error)"
    slug = d.pick()
    path = d.paper_path(slug)
    d.pending_fix = (path, *d.history[path][-1])
    text = path.read_text(encoding="utf-8")
    date = d.papers[slug]["date"]
    if kind == "bad_date":
        text = text.replace(f"date: {date}", "date: 2025-13-45")
    elif kind == "unclosed":  # the closing '---' left out
        text = text.replace("\n---\n", "\n", 1)
    elif kind == "unknown_key":
        text = text.replace(f"date: {date}", f"date: {date}\nvenu: Nowhere")
    else:  # the arXiv id of another paper: an error across two files
        number = d.papers[slug]["number"]
        other = d.papers[d.rng.choice(sorted(s for s in d.papers if s != slug))]["number"]
        text = text.replace(arxiv_id(number), arxiv_id(other))
    path.write_text(text, encoding="utf-8")  # why: not in the history, which revert draws from
    return f"content error '{kind}' put into {slug}.md"


EDITS = {name: globals()[f"edit_{name}"] for name in KINDS}


def shards() -> list:
    """The quick shard (no random edits, not slow), then the long ones."""
    quick = pytest.param(SEED, 0, id=f"seed{SEED}-quick")
    share = -(-RANDOM_STEPS // SHARDS)
    return [quick] + [pytest.param(SEED + n, share, id=f"seed{SEED + n}", marks=pytest.mark.slow)
                      for n in range(1, SHARDS + 1)]


@pytest.mark.parametrize(("seed", "random_steps"), shards())
def test_cached_build_equals_clean_build(tmp_path, monkeypatch, seed, random_steps):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    rng = random.Random(seed)
    digest = Digest(tmp_path, rng)
    digest.create(PAPERS)
    builds = Builds(tmp_path, digest, seed)
    started = time.perf_counter()
    builds.check(preview=True)

    deck = [kind for kind in KINDS for _ in range(AT_LEAST)]
    deck += rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()), k=random_steps)
    rng.shuffle(deck)
    counts: collections.Counter[str] = collections.Counter()
    step = 0
    try:
        while deck or digest.pending_fix:
            step += 1
            builds.step = step
            preview = step % PREVIEW_EVERY == 0
            if digest.pending_fix:
                path, data, model = digest.pending_fix
                digest.pending_fix = None
                digest.restore(path, data, model)
                kind, edit = "fix_error", f"{path.name} put back as it was before the error"
            else:
                kind = deck.pop()
                builds.edit = f"{kind} (about to run)"
                edit = EDITS[kind](digest, builds)
            counts[kind] += 1
            builds.edit = f"{kind}: {edit}"
            builds.log.append((step, builds.edit))
            builds.check(preview=preview, fails=kind == "content_error")
    finally:
        builds.preview_cache.close()
        builds.preview_aside.close()
    elapsed = time.perf_counter() - started

    print(f"\ncache property: seed {seed}, {step} steps, {builds.builds} build rounds, "
          f"{len(digest.papers)} papers at the end, {elapsed:.0f} s; edits: "
          + ", ".join(f"{kind} {counts[kind]}" for kind in (*KINDS, "fix_error")))
    assert all(counts[kind] >= AT_LEAST for kind in KINDS), counts
    assert counts["fix_error"] == counts["content_error"]


def test_the_shards_together_run_over_200_steps():
    # why: the shards were cut smaller to run side by side; together they still make the run
    # the issue asked for, every kind of edit five times or more
    if any(f"CACHE_PROPERTY_{name}" in os.environ for name in ("SHARDS", "STEPS")):
        pytest.skip("the shards or steps are set by the environment")
    planned = [len(KINDS) * AT_LEAST + steps for _, steps in (p.values for p in shards())]
    assert sum(planned) >= 200 and len(planned) == SHARDS + 1
