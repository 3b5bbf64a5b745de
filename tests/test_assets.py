from factories import REPO
from generator.content.theme import load_assets, load_theme
from generator.outputs.assets import asset_urls
from generator.model.urls import Urls


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


def test_load_theme_reads_every_template_by_name_and_the_assets(tmp_path):
    for name in ("templates/_partials", "static"):
        (tmp_path / name).mkdir(parents=True)
    (tmp_path / "templates/page.html").write_text("page")
    (tmp_path / "templates/_partials/card.html").write_text("card")
    (tmp_path / "templates/.page.html.swp").write_text("swap")
    (tmp_path / "static/site.css").write_text("body{}")
    (tmp_path / "node_modules").symlink_to(REPO / "node_modules", target_is_directory=True)
    theme = load_theme(tmp_path)
    assert theme.templates.sources == (("_partials/card.html", "card"), ("page.html", "page"))
    assert [f.path for f in theme.assets] == ["assets/site.css", "assets/lunr.min.js"]


def test_a_symlinked_template_folder_is_read_once_even_with_a_loop(tmp_path):
    from generator.content.theme import load_templates
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "card.html").write_text("card")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.html").write_text("page")
    (tmp_path / "templates" / "_partials").symlink_to(tmp_path / "shared", target_is_directory=True)
    (tmp_path / "templates" / "up").symlink_to(tmp_path, target_is_directory=True)
    assert dict(load_templates(tmp_path / "templates").sources) == {
        "_partials/card.html": "card", "page.html": "page"}
