import random
from collections import Counter

import numpy as np
import pytest

from factories import make_paper, related_of
from generator.search.index import build_index
from generator.search.related import BOILERPLATE, RELATED, TAG_REPEATS, telling_words
from generator.search.terms import FIELDS, paper_terms


def paper(slug, abstract, tags=(), title="A Paper"):
    return make_paper(slug, title=title, abstract_text=abstract, tags=list(tags))


def crafted():
    return [paper("diffusion", "Diffusion models denoise images with a score network."),
            paper("score", "A score network for diffusion of images, denoised faster."),
            paper("graphs", "Message passing on graphs with attention.", tags=["gnn"]),
            paper("molecules", "Molecules as graphs: message passing predicts properties.",
                  tags=["gnn", "chemistry"]),
            paper("proteins", "Protein folding predicts properties.", tags=["chemistry"]),
            paper("alone", "Quokkas sunbathe.")]


def test_related_papers_share_words_and_tags_most_related_first():
    assert related_of(crafted()) == {
        "diffusion": ("score",), "score": ("diffusion",),
        "graphs": ("molecules",), "molecules": ("graphs", "proteins"),
        "proteins": ("molecules",), "alone": ()}


def test_a_paper_is_never_its_own_related_paper_and_has_at_most_five():
    papers = [paper(f"p{n}", "Sparse attention kernels.", tags=["efficiency"]) for n in range(9)]
    related = related_of(papers)
    assert all(slug not in found and len(found) == RELATED for slug, found in related.items())


def test_equally_related_papers_go_by_slug():
    papers = [paper(slug, "Sparse attention kernels.") for slug in ("c", "e", "a", "d", "b", "f", "g")]
    assert related_of(papers)["d"] == ("a", "b", "c", "e", "f")


def test_related_papers_are_the_same_whatever_order_the_papers_come_in():
    papers = crafted() + [paper(f"p{n}", " ".join(random.Random(n).choices(
        ["graphs", "diffusion", "images", "kernels", "proteins", "attention"], k=6)))
        for n in range(30)]
    shuffled = papers[:]
    random.Random(7).shuffle(shuffled)
    assert related_of(papers) == related_of(shuffled)


def test_stop_words_short_words_and_numbers_relate_nothing():
    papers = [paper("a", "We propose a novel method with the 2025 results of it."),
              paper("b", "We propose a novel method with the 2025 results of it.", title="Other")]
    assert related_of(papers) == {"a": (), "b": ()}


def test_a_shared_tag_alone_relates_two_papers():
    papers = [paper("a", "Quokkas.", tags=["marsupials"]), paper("b", "Wombats.", tags=["marsupials"])]
    assert related_of(papers) == {"a": ("b",), "b": ("a",)}


def words_of(papers, numbers=None):
    """Each paper's telling words as telling_words() counts them, by word, the papers numbered
    `numbers` (their order, unless given)."""
    tags = [tuple(tag.slug for tag in p.tags) for p in papers]
    numbers = np.arange(len(papers)) if numbers is None else np.array(numbers)
    docs, terms, counts, vocabulary = telling_words(build_index(tuple(papers)), tags, numbers)
    assert np.all(np.diff(docs * len(vocabulary) + terms) > 0), "not paper by paper, then by term"
    found = [{} for _ in papers]
    for doc, term, count in zip(docs.tolist(), terms.tolist(), counts.tolist()):
        found[numbers.tolist().index(doc)][vocabulary[term]] = count
    return found


def test_telling_words_count_the_search_terms_of_the_title_and_abstract_and_each_tag():
    one = paper("a", "Graphs, graphs! We propose 2 novel graphs.", tags=["gnn"], title="On Graphs")
    other = paper("b", "Numbers: 42 and 7.", tags=["gnn", "maths"], title="2025")
    assert words_of([one, other]) == [{"graph": 4, "#gnn": 3}, {"number": 1, "#gnn": 3,
                                                                 "#maths": 3}]


def test_telling_words_are_the_title_and_abstract_terms_a_paper_is_indexed_by_and_its_tags():
    rng = random.Random(3)
    vocabulary = ["graphs", "diffusion", "we", "propose", "2025", "kernels", "quokkas", "learning"]
    papers = crafted() + [paper(f"p{n}", " ".join(rng.choices(vocabulary, k=8)),
                                tags=rng.sample(["a", "b", "c"], rng.randrange(3)),
                                title=" ".join(rng.choices(vocabulary, k=3))) for n in range(20)]
    names = [name for name, _ in FIELDS]
    title, abstract = names.index("title"), names.index("abstract")
    expected = []
    for one in papers:
        counts = Counter()
        for words, times in (paper_terms(one)[title], paper_terms(one)[abstract]):
            counts.update({word: n for word, n in zip(words.split(), times)
                           if word not in BOILERPLATE and not word.isdigit()})
        counts.update({f"#{tag.slug}": TAG_REPEATS for tag in one.tags})
        expected.append(dict(counts))
    shuffled = list(range(len(papers)))
    random.Random(4).shuffle(shuffled)
    assert words_of(papers) == words_of(papers, shuffled) == expected


def test_telling_words_of_no_paper_or_of_papers_without_one_are_none():
    assert words_of([]) == []
    assert words_of([paper("a", "We propose 2 novel methods.", title="The 2025")]) == [{}]


@pytest.mark.parametrize("papers", [[], [paper("a", "Only one.")]])
def test_a_digest_of_one_paper_or_none_relates_nothing(papers):
    assert related_of(papers) == {p.slug: () for p in papers}


def test_a_term_in_too_many_papers_relates_none_of_them():
    papers = [paper(f"p{n:02d}", "Attention everywhere.") for n in range(30)]
    papers += [paper("q1", "Attention to quokkas."), paper("q2", "Quokkas, attention.")]
    related = related_of(papers)
    assert related["q1"] == ("q2",) and related["p00"] == ()


def random_papers():
    """40 papers of five words each from seven, and one tag each from four."""
    return [paper(f"p{n}", " ".join(random.Random(n).choices(
        ["graphs", "diffusion", "images", "kernels", "proteins", "attention", "quokkas"], k=5)),
        tags=random.Random(n).sample(["a", "b", "c", "d"], 1)) for n in range(40)]


def test_scoring_in_small_blocks_gives_the_same_related_papers(monkeypatch):
    papers = random_papers()
    whole = related_of(papers)
    monkeypatch.setattr("generator.search.related.PAIRS_PER_BLOCK", 7)
    assert related_of(papers) == whole and any(whole.values())


def test_64_bit_keys_for_a_digest_too_large_for_32_give_the_same_related_papers(monkeypatch):
    papers = random_papers()
    small = related_of(papers)
    monkeypatch.setattr("generator.search.related._KEYS_32_BITS_BELOW", 0)
    assert related_of(papers) == small and any(small.values())


@pytest.mark.parametrize("seed", range(5))
def test_the_one_sort_key_orders_as_lexsort_does(seed, monkeypatch):
    import numpy as np
    import generator.search.related as related_module
    rng = random.Random(seed)
    groups = np.array(sorted(rng.randrange(300) for _ in range(3000)), dtype=np.int64)
    # ties exact and to DECIMALS places, values at both ends, and sums taken in another order
    pool = [0.0, 1.0, 0.5, 0.5 + 1e-12, 0.1 + 0.2, 0.3] + [rng.random() for _ in range(50)]
    values = np.array([rng.choice(pool) for _ in groups])
    fast = related_module._by_group_then_largest(groups, values)
    monkeypatch.setattr(related_module, "_ONE_KEY_GROUPS", 0)
    assert fast.tolist() == related_module._by_group_then_largest(groups, values).tolist()
    assert fast.tolist() == np.lexsort((-np.round(values, related_module.DECIMALS), groups)).tolist()
