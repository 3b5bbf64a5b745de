from generator.model import urls as paths
from generator.model.urls import Urls


def test_urls_under_a_project_base_path():
    urls = Urls("https://u.github.io/repo/")
    assert urls.base_path == "/repo/"
    assert urls.path(paths.HOME) == "/repo/"
    assert urls.path(paths.paper_file("x")) == "/repo/papers/x/"
    assert urls.path(paths.tag_file("llm")) == "/repo/tags/llm/"
    assert urls.path(paths.FEED) == "/repo/feed.xml"
    assert urls.absolute(paths.paper_file("x")) == "https://u.github.io/repo/papers/x/"
    assert urls.absolute(paths.HOME) == "https://u.github.io/repo/"
    assert urls.path(paths.tag_feed_file("llm")) == "/repo/tags/llm/feed.xml"
    assert urls.path(paths.tag_bib_file("llm")) == "/repo/tags/llm.bib"
    assert urls.absolute(paths.ALL_BIB) == "https://u.github.io/repo/all.bib"


def test_urls_at_the_root_of_a_domain():
    urls = Urls("https://digest.example.org/")
    assert urls.base_path == "/"
    assert urls.path(paths.TAGS_INDEX) == "/tags/"
    assert urls.absolute(paths.SITEMAP) == "https://digest.example.org/sitemap.xml"


def test_a_url_of_a_path_in_another_script_is_percent_encoded():
    urls = Urls("https://u.github.io/repo/")
    assert urls.path(paths.author_file("王芳")) == "/repo/authors/%E7%8E%8B%E8%8A%B3/"
    assert urls.absolute(paths.tag_file("机器学习")) == (
        "https://u.github.io/repo/tags/%E6%9C%BA%E5%99%A8%E5%AD%A6%E4%B9%A0/")
