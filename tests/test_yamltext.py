import pytest

from generator.content.yamltext import YamlProblem, read_mapping


def test_read_mapping_gives_file_lines_with_offset():
    mapping = read_mapping("title: X\nauthors:\n  - A\n  - B\n", first_line=2)
    assert mapping.lines == {"title": 2, "authors": 3}
    assert mapping.item_lines == {"authors": [4, 5]}


def test_read_mapping_keeps_dates_as_text():
    mapping = read_mapping("date: 2025-04-24\n")
    assert mapping.values["date"] == "2025-04-24"
    assert mapping.raw["date"] == "2025-04-24"


def test_read_mapping_keeps_raw_scalar_text_of_coerced_values():
    mapping = read_mapping("title: No\n")
    assert mapping.values["title"] is False
    assert mapping.raw["title"] == "No"


def test_read_mapping_records_nested_key_lines():
    mapping = read_mapping("links:\n  arxiv: '1'\n  code: x\n", first_line=2)
    assert mapping.child_lines["links"] == {"arxiv": 3, "code": 4}


def test_read_mapping_rejects_duplicate_keys_with_both_lines():
    with pytest.raises(YamlProblem) as raised:
        read_mapping("title: A\nvenue: B\ntitle: C\n", first_line=2)
    assert raised.value.line == 4
    assert raised.value.message == "duplicate key 'title' (first on line 2); keep one"


def test_read_mapping_rejects_duplicate_nested_keys():
    with pytest.raises(YamlProblem) as raised:
        read_mapping("links:\n  code: a\n  code: b\n")
    assert raised.value.line == 3


def test_read_mapping_reports_syntax_errors_at_the_file_line():
    with pytest.raises(YamlProblem) as raised:
        read_mapping("title: A\nauthors: [B\ndate: 1\n", first_line=2)
    assert raised.value.line >= 3
    assert raised.value.message.startswith("YAML syntax error")


def test_read_mapping_rejects_a_bare_value():
    with pytest.raises(YamlProblem, match="expected 'key: value' lines"):
        read_mapping("just text\n")


def test_read_mapping_of_empty_text_is_empty():
    assert read_mapping("").values == {}


def test_aliases_are_refused_before_they_expand():
    lines = ["extra:", "  a: &a [x, x, x, x, x, x, x, x, x]"]
    lines += [f"  {chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]" for i in range(9)]
    with pytest.raises(YamlProblem, match="alias") as problem:
        read_mapping("\n".join(lines) + "\n", first_line=2)
    assert problem.value.line == 3


def test_values_nested_too_deep_are_refused_without_recursing():
    with pytest.raises(YamlProblem, match="nested more than 32 levels"):
        read_mapping("extra: " + "[" * 400 + "]" * 400 + "\n")
    assert read_mapping("extra: " + "[" * 30 + "]" * 30 + "\n").values["extra"]


def test_read_mapping_gives_the_last_line_of_each_value_without_the_comments_after_it():
    text = ("title: T\nauthors:\n- A\n- B\n# about the tags\ntags: [x,\n  y]\n"
            "links:\n  code: u\n  pdf: v\n\nabstract: |-\n  one\n\n  two\n# end\ndraft: true")
    mapping = read_mapping(text, first_line=2)
    assert mapping.last_lines == {"title": 2, "authors": 5, "tags": 8, "links": 11,
                                  "abstract": 16, "draft": 18}


def test_read_mapping_gives_the_line_where_a_scalar_value_starts():
    mapping = read_mapping("title: 'T'\nabstract: |-\n  Text\nnote:\n  'under\n  its key'\n", 2)
    assert mapping.value_lines == {"title": 2, "abstract": 4, "note": 6}
