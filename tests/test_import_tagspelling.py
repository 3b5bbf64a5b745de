"""A source's keywords as the digest's tags (generator/importers/tagspelling.py)."""

import time

from generator.importers.tagspelling import TagSpeller, digest_spelling


def test_c_cpp_and_csharp_keywords_stay_three_tags():
    speller = TagSpeller(["C"])
    assert [speller.spell(name) for name in ("C++", "C#", "c", "c++")] == ["c++", "c#", "C", "c++"]
    assert speller.warnings == []


def test_a_conference_of_distinct_keywords_is_spelled_without_comparing_each_pair():
    # why: each keyword was compared with every tag before it: 3,700 OpenReview notes took 176 s
    # to import; the bound only catches that blow-up (bench/import_bench.py --openreview 3700)
    speller = TagSpeller([f"digest topic {n}" for n in range(500)])
    started = time.process_time()
    spelled = [speller.spell(f"Keyword {n} Of {n % 89}s") for n in range(4000)]
    spelled += [speller.spell(f"keyword-{n}-of-{n % 89}s") for n in range(4000)]
    assert time.process_time() - started < 10
    assert spelled[:1] == ["keyword-0-of-0s"] and spelled[4000:4001] == ["keyword-0-of-0s"]
    assert len(speller.added) == 4000 and speller.warnings == []


def test_the_same_spelling_as_before_with_one_tag_at_a_time():
    assert digest_spelling("LLM", ["llm"]) == ("llm", "")
    assert digest_spelling("LLMs", ["llm"])[1].startswith("new tag 'llms' is near the digest's")
    assert digest_spelling("Agents", [], ["agent"])[1].startswith(
        "new tag 'agents' is near this import's new 'agent'")
    assert digest_spelling("!!", []) == ("", "tag '!!' has no letters or digits; left out")
