"""The GitHub Pages workflow: it parses, has what the Pages actions need, and builds as README says.

The workflow never runs here (no GitHub); its structure is read with PyYAML. YAML 1.1 reads the
key `on` as the boolean True, so triggers are looked up under both.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess

import pytest
import yaml

from factories import REPO

WORKFLOW = REPO / ".github/workflows/pages.yml"
PAGES_BASE_URL = "${{ steps.pages.outputs.base_url }}/"


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def readme_publish_commands() -> list[tuple[dict[str, str], str]]:
    """(environment, command) of each line of the sh block in README's publishing section."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Publishing on GitHub Pages"):]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    commands = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        env = dict(w.split("=", 1) for w in words if re.match(r"^[A-Z_]+=", w))
        commands.append((env, " ".join(w for w in words if not re.match(r"^[A-Z_]+=", w))))
    return commands


def steps(workflow: dict, job: str) -> list[dict]:
    return workflow["jobs"][job]["steps"]


def uses(workflow: dict, job: str, action: str) -> dict:
    """The one step of `job` that uses `action` (any version)."""
    found = [s for s in steps(workflow, job) if s.get("uses", "").split("@")[0] == action]
    assert len(found) == 1, f"{job} should use {action} once, found {len(found)}"
    return found[0]


def test_workflow_runs_on_pushes_to_main_and_by_hand(workflow):
    triggers = workflow.get("on", workflow.get(True))
    assert triggers["push"]["branches"] == ["main"]
    assert "workflow_dispatch" in triggers


def test_workflow_has_the_permissions_and_concurrency_pages_needs(workflow):
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert workflow["concurrency"] == {"group": "pages", "cancel-in-progress": False}


def test_build_job_sets_up_python_and_node_with_caches(workflow):
    assert uses(workflow, "build", "actions/checkout")["uses"] == "actions/checkout@v6"
    python = uses(workflow, "build", "actions/setup-python")
    assert python["uses"] == "actions/setup-python@v6"
    assert python["with"]["cache"] == "pip" and python["with"]["cache-dependency-path"] == "requirements.txt"
    node = uses(workflow, "build", "actions/setup-node")
    assert node["uses"] == "actions/setup-node@v6" and node["with"]["cache"] == "npm"


def test_build_job_keeps_the_build_cache_from_the_newest_run(workflow):
    cache = uses(workflow, "build", "actions/cache")
    assert cache["uses"] == "actions/cache@v5"
    assert cache["with"]["path"].split() == [".digest-cache", "_site"]
    key, restore = cache["with"]["key"], cache["with"]["restore-keys"]
    assert key.endswith("${{ github.sha }}") and key.startswith(restore)
    assert "steps.python.outputs.python-version" in restore  # why: pickles of one Python
    names = [s.get("uses", "").split("@")[0] or s.get("run", "").strip() for s in steps(workflow, "build")]
    assert names.index("actions/cache") < names.index("make build")


def test_build_job_runs_exactly_the_readme_commands_with_the_pages_url(workflow):
    configure = uses(workflow, "build", "actions/configure-pages")
    assert configure["uses"] == "actions/configure-pages@v6" and configure["id"] == "pages"
    runs = [s for s in steps(workflow, "build") if "run" in s]
    assert [s["run"].strip() for s in runs] == [cmd for _, cmd in readme_publish_commands()]
    for step, (env, _) in zip(runs, readme_publish_commands()):
        assert set(step.get("env", {})) == set(env), step["run"]
    assert runs[-1]["env"] == {"BASE_URL": PAGES_BASE_URL}
    order = [s.get("id") or s.get("run") for s in steps(workflow, "build")]
    assert order.index("pages") < order.index("make build")


def test_build_job_uploads_the_built_folder_with_its_dot_files(workflow):
    upload = uses(workflow, "build", "actions/upload-pages-artifact")
    assert upload["uses"] == "actions/upload-pages-artifact@v5"
    assert upload["with"] == {"path": "_site", "include-hidden-files": True}


def test_deploy_job_deploys_to_the_github_pages_environment(workflow):
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["environment"] == {"name": "github-pages",
                                     "url": "${{ steps.deployment.outputs.page_url }}"}
    step = uses(workflow, "deploy", "actions/deploy-pages")
    assert step["uses"] == "actions/deploy-pages@v5" and step["id"] == "deployment"


@pytest.mark.parametrize("how", ["environment", "argument"])
def test_make_build_passes_base_url_to_the_build(how):
    make = shutil.which("make")
    assert make, "the README's commands need make"
    url = "https://octocat.github.io/my-repo/"
    clean = {k: v for k, v in os.environ.items() if k != "BASE_URL"}
    args, env = ([f"BASE_URL={url}"], {}) if how == "argument" else ([], {"BASE_URL": url})
    done = subprocess.run([make, "-n", "build", *args], cwd=REPO, capture_output=True, text=True,
                          env={**clean, **env}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f'.venv/bin/python build.py --base-url "{url}"' in done.stdout.splitlines()
    plain = subprocess.run([make, "-n", "build"], cwd=REPO, capture_output=True, text=True,
                           env=clean, timeout=60)
    assert ".venv/bin/python build.py" in plain.stdout.splitlines()


def test_make_serve_installs_no_test_tool():
    """A curator who only previews downloads no browser driver and no test runner."""
    runtime = (REPO / "requirements.txt").read_text(encoding="utf-8").lower()
    for tool in ("pytest", "playwright", "feedparser", "lxml"):
        assert f"\n{tool}==" not in runtime, tool
    done = subprocess.run([shutil.which("make"), "-n", "-B", "serve"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "pip install --quiet -r requirements.txt" in done.stdout
    assert "requirements-test.txt" not in done.stdout
    assert "npm ci --no-audit --no-fund --ignore-scripts --omit=dev" in done.stdout


def test_the_pages_workflow_checks_the_content_strictly_before_it_builds(workflow):
    runs = [s["run"].strip() for s in steps(workflow, "build") if "run" in s]
    assert runs.index("make check") < runs.index("make build")
    done = subprocess.run([shutil.which("make"), "-n", "check"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert ".venv/bin/python build.py check --strict" in done.stdout.splitlines()
