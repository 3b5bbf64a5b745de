import os
import re
import subprocess
import sys

from factories import REPO, SITE_YAML, paper_source, write_content


def run(*args, cwd, env=None):
    return subprocess.run([sys.executable, str(REPO / "build.py"), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def test_build_is_the_default_command_and_reports_each_stage(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    result = run(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    for stage in ("read", "papers", "files", "write"):
        assert f"  {stage} " in result.stdout
    assert str((tmp_path / "_site").resolve()) in result.stdout
    assert (tmp_path / "_site/papers/x/index.html").is_file()


def test_build_options_override_out_base_url_and_drafts(tmp_path):
    write_content(tmp_path, {"x": paper_source(), "d": paper_source(draft=True)})
    result = run("build", "--out", "public", "--base-url", "https://u.github.io/r/", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "public/papers/d").exists()
    assert 'href="/r/papers/x/"' in (tmp_path / "public/index.html").read_text()
    assert run("--out", "public", "--drafts", cwd=tmp_path).returncode == 0
    assert (tmp_path / "public/papers/d/index.html").is_file()


def test_build_writes_cname_and_warns_when_base_url_is_another_domain(tmp_path):
    write_content(tmp_path, {"x": paper_source()}, SITE_YAML + "cname: digest.example.org\n")
    result = run(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "warning: cname is 'digest.example.org' but the site is built for" in result.stdout
    assert (tmp_path / "_site/CNAME").read_text() == "digest.example.org\n"
    result = run("--base-url", "https://digest.example.org/", cwd=tmp_path)
    assert result.returncode == 0 and "warning" not in result.stdout


def test_failed_build_keeps_the_last_good_site_and_leaves_no_temp_folder(tmp_path):
    content = write_content(tmp_path, {"x": paper_source(title="Good Title")})
    assert run(cwd=tmp_path).returncode == 0
    before = (tmp_path / "_site/papers/x/index.html").read_bytes()
    (content / "papers/x.md").write_text(paper_source(date="someday"))
    result = run(cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("content/papers/x.md:5: 'date' must be YYYY-MM-DD")
    assert "Traceback" not in result.stderr
    assert (tmp_path / "_site/papers/x/index.html").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".digest-cache", "_site", "content"]


def test_build_refuses_to_replace_a_folder_it_did_not_make(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    result = run("--out", "content", cwd=tmp_path)
    assert result.returncode == 1
    assert "is not a site this generator built" in result.stderr
    assert (tmp_path / "content/site.yaml").is_file()


def test_rebuild_with_no_change_writes_nothing(tmp_path):
    write_content(tmp_path, {"x": paper_source()})
    run(cwd=tmp_path)
    result = run(cwd=tmp_path)
    assert "nothing changed since the last build" in result.stdout
    assert sorted(os.listdir(tmp_path / ".digest-cache")) == ["results.sqlite3"]
    assert "0 written" in run("--no-cache", cwd=tmp_path).stdout


def test_import_command_writes_papers(tmp_path):
    (tmp_path / "a.txt").write_text("An abstract.\n")
    meta = tmp_path / "m.yaml"
    meta.write_text("- title: 'X: Y'\n  authors: [A]\n  arxiv: '2406.16257'\n")
    result = run("import", "a.txt", "--metadata", "m.yaml", "--date", "2025-01-01", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Imported 1 papers" in result.stdout
    assert (tmp_path / "content/papers/x.md").is_file()


def test_build_prints_the_index_size_and_warns_over_the_budget(tmp_path):
    from factories import SITE_YAML
    write_content(tmp_path, {"x": paper_source()}, site_yaml=SITE_YAML + "search_budget_kb: 1\n")
    (tmp_path / "content/papers/y.md").write_text(paper_source(abstract=" ".join(f"w{i}x" for i in range(3000))))
    result = run(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"search +index [\d,]+ bytes, [\d,]+ gzipped", result.stdout)
    assert "warning: the search index is" in result.stdout
    assert "over the search_budget_kb of 1 set in site.yaml" in result.stdout
