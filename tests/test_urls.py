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
    assert urls.author("ada-lovelace", 1) == "/repo/authors/0/#author-ada-lovelace"
    assert urls.absolute(paths.ALL_BIB) == "https://u.github.io/repo/all.bib"


def test_urls_at_the_root_of_a_domain():
    urls = Urls("https://digest.example.org/")
    assert urls.base_path == "/"
    assert urls.path(paths.TAGS_INDEX) == "/tags/"
    assert urls.absolute(paths.SITEMAP) == "https://digest.example.org/sitemap.xml"


def test_a_url_of_a_path_in_another_script_is_percent_encoded():
    urls = Urls("https://u.github.io/repo/")
    assert urls.author("王芳", 1) == "/repo/authors/0/#author-%E7%8E%8B%E8%8A%B3"
    assert urls.absolute(paths.tag_file("机器学习")) == (
        "https://u.github.io/repo/tags/%E6%9C%BA%E5%99%A8%E5%AD%A6%E4%B9%A0/")


def test_items_are_spread_over_a_power_of_two_of_files_that_grows_with_them():
    assert [paths.bucket_count(n, 64) for n in (0, 1, 64, 65, 200, 18_000)] == [1, 1, 1, 2, 4, 512]
    assert paths.bucket_count(10**9, 64) == paths.MAX_BUCKETS


def test_a_bucket_is_named_by_a_hash_of_its_key_in_as_many_hex_digits_as_it_takes():
    assert paths.bucket("anything", 1) == "0"
    assert paths.bucket("ada-lovelace", 16) == paths.bucket("ada-lovelace", 16)
    assert len(paths.bucket("ada-lovelace", 256)) == 2 and len(paths.bucket("x", 4096)) == 3
    names = {paths.bucket(f"author-{n}", 64) for n in range(2000)}
    assert names == {f"{n:02x}" for n in range(64)}
