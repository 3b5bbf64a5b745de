from factories import REPO
from generator.assets import asset_urls, load_assets
from generator.urls import Urls


def test_load_assets_copies_static_files_and_npm_libraries(tmp_path):
    (tmp_path / "img").mkdir()
    (tmp_path / "site.css").write_text("body{}")
    (tmp_path / "img/logo.svg").write_text("<svg/>")
    names = [f.path for f in load_assets(tmp_path, REPO)]
    assert names == ["assets/img/logo.svg", "assets/site.css", "assets/lunr.min.js"]


def test_load_assets_leaves_out_hidden_and_editor_files(tmp_path):
    for name in ("site.css", ".site.css.swp", "site.css~", "#site.css#", ".DS_Store", "x.tmp"):
        (tmp_path / name).write_text("x")
    assert [f.path for f in load_assets(tmp_path, REPO)][:-1] == ["assets/site.css"]


def test_asset_urls_carry_a_content_hash():
    urls = asset_urls(load_assets(REPO / "static", REPO), Urls("https://x.org/repo/"))
    assert urls["site.css"].startswith("/repo/assets/site.css?v=")
    changed = asset_urls([f.__class__(f.path, f.data + b" ") for f in load_assets(REPO / "static", REPO)],
                         Urls("https://x.org/repo/"))
    assert changed["site.css"] != urls["site.css"]
