import generator.content.notes as notes_module
from generator.content.notes import html_to_text, notes_to_html


def test_notes_to_html_renders_markdown():
    assert notes_to_html("A *key* [paper](https://x.org).") == (
        '<p>A <em>key</em> <a href="https://x.org" rel="noopener nofollow">paper</a>.</p>')


def test_notes_to_html_of_an_empty_body_is_empty():
    assert notes_to_html("  \n") == ""


def test_notes_to_html_demotes_headings_below_the_notes_heading():
    assert notes_to_html("# Why\n\n## How\n\n##### Deep") == "<h3>Why</h3>\n<h4>How</h4>\n<h6>Deep</h6>"


def test_notes_to_html_removes_scripts_handlers_and_unsafe_urls():
    html = notes_to_html('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n'
                         '[a](javascript:alert(1)) <a href="data:text/html,x">b</a>\n\n'
                         '<iframe src="https://x.org"></iframe>')
    for bad in ("<script", "onerror", "javascript:", "data:", "<iframe"):
        assert bad not in html


def test_html_to_text_keeps_visible_text_only():
    assert html_to_text("<p>A &amp; <em>B</em></p>\n<p>C</p>") == "A & B C"


def test_thousands_of_open_brackets_are_read_as_brackets_without_markdown_chasing_each():
    escaped = notes_module._escape_open_brackets("[" * 20_000)
    assert escaped == "\ue000" * 20_000  # each a stand-in: Markdown then matches none of them
    assert html_to_text(notes_to_html("[" * 2_000)) == "[" * 2_000
    assert html_to_text(notes_to_html("[a](" * 2_000)) == "[a](" * 2_000


def test_a_few_open_brackets_stay_as_the_curator_wrote_them():
    body = "A [link](https://example.org), a [b] and a lone [ bracket, and \\[ escaped."
    assert notes_module._escape_open_brackets(body) == body


def test_notes_with_few_open_brackets_keep_private_use_characters_as_written():
    assert "\ue000" in notes_to_html("A private-use \ue000 character, and [one] link-less bracket [.")
