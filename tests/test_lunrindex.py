import json
import random

import pytest

from factories import REPO
from generator.content.documents import load_documents
from generator.search.lunrindex import build
from generator.search.packed import pack, unpack
from generator.search.index import build_index
from generator.search.terms import FIELDS
from generator.content.papers import validate
from lunrpy import lunr_py_index, lunr_py_index_of


def same_json(a, b):
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_build_index_is_what_lunr_py_builds_on_the_real_digest():
    papers = validate(load_documents(REPO / "content"))
    assert same_json(unpack(pack(build_index(tuple(papers)))), lunr_py_index_of(papers))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_build_is_what_lunr_py_builds_on_awkward_text(seed):
    rng = random.Random(seed)
    alphabet = "aeiou bcdfg-\t\xa0THE and Running runs ran 12 x_y é ß"
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9))) for _ in range(300)]
    texts = [[" ".join(rng.choices(words, k=rng.randint(0, 40))) for _ in FIELDS] for _ in range(60)]
    texts[3][4] = ""
    built = build(texts, [name for name, _ in FIELDS], [boost for _, boost in FIELDS])
    assert same_json(unpack(pack(built)), lunr_py_index(texts))
