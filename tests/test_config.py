import pytest

from factories import SITE_YAML
from generator.config import load_config
from generator.errors import BuildFailed


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
