import generator.keyed as keyed_module
import generator.render as render_module
from factories import REPO, make_paper, make_site, paper_source, write_content
from generator import urls as paths
from generator.keyed import Chained, FilePlan, KeyedFile
from generator.pipeline import BuildOptions, build
from generator.records import OutputFile


def test_a_files_key_changes_with_its_inputs_only():
    def plan(inputs):
        return FilePlan([KeyedFile("a.txt", inputs, lambda: b"made")])

    assert plan(("x", 1)).keys() == plan(("x", 1)).keys()
    assert plan(("x", 1)).keys()[0][1] != plan(("x", 2)).keys()[0][1]
    assert plan(("x", 1)).keys()[0][0] == "a.txt"
    assert plan(("x", 1)).make(0) == OutputFile("a.txt", b"made")


def test_a_paper_stands_in_a_key_for_what_it_was_made_from():
    assert keyed_module.identity(make_paper(source_key="abc")) == "abc"
    unkeyed = make_paper()
    assert keyed_module.identity(unkeyed) is unkeyed


def test_chained_producers_are_numbered_one_after_the_other():
    first = FilePlan([KeyedFile(f"a{n}", n, lambda n=n: b"a%d" % n) for n in range(2)])
    second = FilePlan([KeyedFile("b0", 0, lambda: b"b0")])
    chain = Chained((first, second))
    assert len(chain) == 3
    assert [path for path, _ in chain.keys()] == ["a0", "a1", "b0"]
    assert chain.make(2) == OutputFile("b0", b"b0")


def test_keyed_files_are_the_files_made_without_keys():
    from generator.bibtex import bib_files, bib_plan
    from generator.feeds import feed_files, feed_plan
    site = make_site([make_paper("x", tags=["LLM"]), make_paper("y", title="Other")])
    assert [f.made() for f in feed_plan(site)] == feed_files(site)
    assert [f.made() for f in bib_plan(site)] == bib_files(site)


def test_after_one_edit_only_the_files_that_show_the_paper_are_made(tmp_path, monkeypatch):
    content = write_content(tmp_path, {
        "p1": paper_source(title="First", tags=["alpha"], date="2025-04-01"),
        "p2": paper_source(title="Second", tags=["beta"], date="2025-04-02"),
    })
    options = BuildOptions(content=content, out=tmp_path / "site", project=REPO,
                           cache=tmp_path / "cache")
    build(options)
    made = []

    def spy(real):
        def make(self, number):
            file = real(self, number)
            made.append(file.path)
            return file
        return make

    for plan in (keyed_module.FilePlan, render_module.PagePlan):
        monkeypatch.setattr(plan, "make", spy(plan.make))
    (content / "papers/p1.md").write_text(paper_source(title="First, edited", tags=["alpha"],
                                                       date="2025-04-01"))
    build(options)
    assert sorted(made) == sorted([
        paths.paper_file("p1"), paths.HOME, paths.tag_file("alpha"), paths.search_docs_file(0),
        paths.FEED, paths.tag_feed_file("alpha"), paths.ALL_BIB, paths.tag_bib_file("alpha")])
