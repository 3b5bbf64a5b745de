import pytest

from factories import SITE_YAML
from generator.content.config import config_warnings, load_config
from generator.model.errors import BuildFailed


def write(tmp_path, text):
    (tmp_path / "site.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def messages(raised):
    return [e.message for e in raised.value.errors]


def test_load_config_reads_every_field(tmp_path):
    config = load_config(write(tmp_path, SITE_YAML + "language: zh\nextra:\n  logo: x\n"))
    assert config.title == "Test Digest"
    assert config.subtitle == "A digest for tests"
    assert config.base_url == "https://example.org/digest/"
    assert config.language == "zh"
    assert config.extra == {"logo": "x"}


def test_load_config_adds_the_trailing_slash_to_base_url(tmp_path):
    config = load_config(write(tmp_path, "title: T\nbase_url: https://u.github.io/repo\n"))
    assert config.base_url == "https://u.github.io/repo/"


def test_load_config_base_url_override_wins(tmp_path):
    config = load_config(write(tmp_path, SITE_YAML), base_url="http://127.0.0.1:8000/")
    assert config.base_url == "http://127.0.0.1:8000/"


def test_load_config_suggests_the_near_spelling_of_an_unknown_key(tmp_path):
    with pytest.raises(BuildFailed) as raised:
        load_config(write(tmp_path, SITE_YAML + "subtilte: x\n"))
    assert raised.value.errors[0].line == 6
    assert "unknown key 'subtilte' in site.yaml; did you mean 'subtitle'?" in messages(raised)[0]


def test_load_config_rejects_a_relative_base_url(tmp_path):
    with pytest.raises(BuildFailed) as raised:
        load_config(write(tmp_path, "title: T\nbase_url: /repo/\n"))
    assert "must be an absolute http(s) URL" in messages(raised)[0]


def test_load_config_reports_every_error_at_once(tmp_path):
    with pytest.raises(BuildFailed) as raised:
        load_config(write(tmp_path, "title: 3\nhome_excerpt_words: many\n"))
    assert len(raised.value.errors) == 3  # title, base_url missing, excerpt words


def test_load_config_names_a_missing_file(tmp_path):
    with pytest.raises(BuildFailed) as raised:
        load_config(tmp_path)
    assert "site config not found" in messages(raised)[0]


def test_load_config_reads_cname_citation_tags_and_twitter(tmp_path):
    config = load_config(write(tmp_path, SITE_YAML + "cname: Digest.Example.org\n"
                                          "citation_tags: true\ntwitter: digest_bot\n"))
    assert config.cname == "digest.example.org"
    assert config.citation_tags is True
    assert config.twitter == "@digest_bot"


def test_publishing_keys_default_to_off(tmp_path):
    config = load_config(write(tmp_path, SITE_YAML))
    assert (config.cname, config.citation_tags, config.twitter) == ("", False, "")


def test_load_config_rejects_a_cname_with_a_scheme_or_path_and_a_non_boolean_switch(tmp_path):
    with pytest.raises(BuildFailed) as raised:
        load_config(write(tmp_path, SITE_YAML + "cname: https://digest.example.org/x\n"
                                                "citation_tags: 'yes'\ntwitter: '@no spaces'\n"))
    found = messages(raised)
    assert len(found) == 3
    assert "'cname' must be a bare domain name such as 'digest.example.org'" in found[0]
    assert "'citation_tags' must be true or false" in found[1]
    assert "'twitter' must be an account name" in found[2]


def test_unknown_keys_stay_errors_next_to_the_new_ones(tmp_path):
    with pytest.raises(BuildFailed) as raised:
        load_config(write(tmp_path, SITE_YAML + "citation_tag: true\n"))
    assert "did you mean 'citation_tags'?" in messages(raised)[0]


def test_config_warns_when_cname_and_base_url_disagree(tmp_path):
    config = load_config(write(tmp_path, SITE_YAML + "cname: digest.example.org\n"))
    assert config_warnings(config) == [
        "cname is 'digest.example.org' but the site is built for https://example.org/digest/; "
        "set base_url to https://digest.example.org/ once the domain is live"]
    same = load_config(write(tmp_path, SITE_YAML + "cname: example.org\n"))
    assert config_warnings(same) == []


def test_load_config_reads_the_titles_own_language(tmp_path):
    assert load_config(write(tmp_path, SITE_YAML + "title_language: zh-Hans\n")).title_language == "zh-Hans"
    assert load_config(write(tmp_path, SITE_YAML)).title_language == ""


def test_load_config_rejects_a_language_that_is_not_a_bcp47_tag(tmp_path):
    with pytest.raises(BuildFailed) as raised:
        load_config(write(tmp_path, SITE_YAML + "title_language: Chinese (simplified)\n"))
    assert raised.value.errors[0].line == 6
    assert "'title_language' must be a BCP 47 language tag" in messages(raised)[0]


@pytest.mark.parametrize("url", ["https://a b.org/", "https://user:pw@example.org/", "https://ex\\x01.org/"])
def test_base_url_with_spaces_controls_or_a_password_is_an_error(tmp_path, url):
    (tmp_path / "site.yaml").write_text(f'title: T\nbase_url: "{url}"\n', encoding="utf-8")
    with pytest.raises(BuildFailed, match="control character|no spaces"):
        load_config(tmp_path)


@pytest.mark.parametrize("kind", ["folder", "utf-16"])
def test_a_site_yaml_that_cannot_be_read_as_utf8_text_is_an_error_not_a_traceback(tmp_path, kind):
    if kind == "folder":
        (tmp_path / "site.yaml").mkdir()
    else:
        (tmp_path / "site.yaml").write_text(SITE_YAML, encoding="utf-16")
    with pytest.raises(BuildFailed) as failed:
        load_config(tmp_path)
    [error] = failed.value.errors
    assert error.line == 1 and ("cannot be read" in error.message or "UTF-8" in error.message)


def test_macros_are_read_by_name_and_each_bad_one_is_an_error_at_its_line(tmp_path):
    config = load_config(write(tmp_path, SITE_YAML + "macros:\n  eps: \\varepsilon\n"
                               "  \\cA: \\mathcal{A}\n  norm: '\\left\\lVert #1 \\right\\rVert'\n"))
    assert config.macros == {"cA": r"\mathcal{A}", "eps": r"\varepsilon",
                             "norm": r"\left\lVert #1 \right\rVert"}
    with pytest.raises(BuildFailed) as raised:
        load_config(write(tmp_path, SITE_YAML + "macros:\n  n-orm: x\n  R: 3\n  bad: '{x'\n"
                                                "  loop: \\loop x\n"))
    assert [(e.line, e.message) for e in raised.value.errors] == [
        (7, "macros.n-orm: a macro's name is letters only, as in TeX: eps, cA, norm"),
        (8, "macros.R must be text, got the number 3; quote it: R: '...'"),
        (9, "macros.bad: its braces do not pair up"),
        (10, "macros.loop: its definition calls the macro itself, so it would never end")]
