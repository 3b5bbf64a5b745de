"""Writing an import's files without losing anything (generator/importers/writing.py): modes,
groups and symlinks kept, a failed write reported with what was written before it, and the
temp files of an interrupted import cleaned away."""

import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

from factories import REPO, paper_source, write_content
from generator.cli import main
from generator.importers.writing import remove_stale_temps, write_atomically

BIB = """\
@misc{a, title={Sparse Attention}, author={Ada Lovelace}, eprint={2409.11130},
      archivePrefix={arXiv}, abstract={We study $x^2$.}}
"""


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def with_umask(value: int, call):
    old = os.umask(value)
    try:
        return call()
    finally:
        os.umask(old)


def test_a_new_file_gets_the_mode_the_umask_gives_as_build_new_does(tmp_path):
    with_umask(0o022, lambda: write_atomically(tmp_path / "a.md", "x"))
    with_umask(0o002, lambda: write_atomically(tmp_path / "b.md", "x"))
    assert (mode(tmp_path / "a.md"), mode(tmp_path / "b.md")) == (0o644, 0o664)


def test_an_updated_file_keeps_its_mode(tmp_path):
    path = tmp_path / "a.md"
    path.write_text("old")
    path.chmod(0o664)
    with_umask(0o077, lambda: write_atomically(path, "new"))
    assert (path.read_text(), mode(path)) == ("new", 0o664)


def test_a_symlinked_paper_file_stays_a_link_and_its_target_is_updated(tmp_path, monkeypatch,
                                                                       capsys):
    content = write_content(tmp_path, {})
    shared = tmp_path / "shared" / "sparse.md"
    shared.parent.mkdir()
    shared.write_text(paper_source(title="Sparse Attention", links={"arxiv": "2409.11130"},
                                   abstract="Old."))
    shared.chmod(0o664)
    link = content / "papers" / "sparse.md"
    link.symlink_to(shared)
    (tmp_path / "a.bib").write_text(BIB)
    monkeypatch.chdir(tmp_path)
    assert main(["import", "a.bib", "--update"]) == 0
    assert link.is_symlink() and os.readlink(link) == str(shared)
    assert "We study $x^2$." in shared.read_text() and mode(shared) == 0o664
    assert sorted(os.listdir(shared.parent)) == ["sparse.md"], "no temp file left by the target"


def test_a_write_refused_midway_reports_the_files_written_before_it(tmp_path):
    # why: a full disk, as a test can make one: the system refuses a write past a size limit
    # (EFBIG here, ENOSPC on a full disk: one OSError either way)
    write_content(tmp_path, {})
    small = "".join(f"@misc{{s{n}, title={{Small {n}}}, author={{A B}}, abstract={{Short.}}}}\n"
                    for n in range(3))
    big = "@misc{big, title={Big One}, author={A B}, abstract={" + "word " * 4000 + "}}\n"
    (tmp_path / "a.bib").write_text(small + big + small.replace("Small", "Later").replace("{s", "{t"))

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8000, 8000))

    result = subprocess.run([sys.executable, "-B", str(REPO / "build.py"), "import", "a.bib"],
                            cwd=tmp_path, capture_output=True, text=True, preexec_fn=limit)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stdout.splitlines() == [
        "written before it stopped (3):", *(f"  content/papers/small-{n}.md  <- a.bib:{n + 1}"
                                            for n in range(3))]
    assert result.stderr == (
        "error: content/papers/big-one.md: cannot be written: File too large. Import stopped "
        "after 3 of 7 files (listed above); make room and run it again: what was written is "
        "matched, not written twice.\n")
    assert sorted(os.listdir(tmp_path / "content/papers")) == [f"small-{n}.md" for n in range(3)]


def test_temp_files_of_an_interrupted_import_are_removed_by_the_next(tmp_path, monkeypatch,
                                                                    capsys):
    content = write_content(tmp_path, {})
    left = content / "papers" / ".sparse-attention.md.k3j9x_2a.tmp"
    left.write_text("half a fi")
    (content / "papers" / ".notes.swp").write_text("an editor's")
    (tmp_path / "a.bib").write_text(BIB)
    monkeypatch.chdir(tmp_path)
    assert main(["import", "a.bib"]) == 0
    assert capsys.readouterr().out.splitlines()[-3:] == [
        "temp files of an interrupted import, removed (1):",
        "  content/papers/.sparse-attention.md.k3j9x_2a.tmp",
        "Import: 1 created, 0 updated, 0 unchanged, 0 skipped, 0 drafts, 0 tag warnings."]
    assert sorted(os.listdir(content / "papers")) == [".notes.swp", "sparse-attention.md"]
    assert remove_stale_temps(tmp_path / "missing") == []
