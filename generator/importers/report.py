"""What an import did, grouped for the curator: created, updated, unchanged, skipped, drafts,
what the sources said that was left out or repaired, tag warnings, then one line of counts.
Every line passes cleaning.printable, since titles, keys and file names come from the sources."""

from __future__ import annotations

from pathlib import Path

from ..model.errors import display_path
from .aftercheck import macro_lines
from .cleaning import printable, terminal_safe
from .merge import Decision, ImportPlan
from .writing import WriteStopped

GROUPS = (("create", "created"), ("update", "updated"), ("unchanged", "unchanged"),
          ("skip", "skipped"))


def report_lines(plan: ImportPlan, dry_run: bool = False,
                 site_yaml: Path = Path("content/site.yaml")) -> list[str]:
    """The report as lines of text, each group headed by its name and count, ending with
    what `check --strict` would say of the papers written (nothing when it would pass)."""
    lines: list[str] = []
    for action, heading in GROUPS:
        chosen = [d for d in plan.decisions if d.action == action]
        lines += _section(heading, [_line(d) for d in chosen])
    drafts = [d for d in plan.decisions if d.draft]
    lines += _section("drafts for want of an abstract",
                      [f"{_path(d)}: add its abstract, then delete 'draft: true' (build --drafts "
                       "previews it)" for d in drafts])
    lines += _section("left out of the sources", list(plan.left_out))
    lines += _section("repaired in the sources", list(plan.repaired))
    lines += _section("same title, another paper", list(plan.kept_apart))
    lines += _section("tag warnings", list(plan.warnings))
    lines += _section("temp files of an interrupted import, removed",
                      [display_path(path) for path in plan.removed])
    counts = [f"{sum(d.action == action for d in plan.decisions)} {heading}"
              for action, heading in GROUPS]
    counts += [f"{len(drafts)} draft{'s' if len(drafts) != 1 else ''}",
               f"{len(plan.warnings)} tag warning{'s' if len(plan.warnings) != 1 else ''}"]
    ending = "; dry run, nothing was written" if dry_run else ""
    lines.append(f"Import: {', '.join(counts)}{ending}.")
    failed = sum(d.failed for d in plan.decisions)
    if failed:
        lines.append(f"{failed} source entr{'ies' if failed > 1 else 'y'} could not be imported "
                     "(skipped, above): fix them and import the file again.")
    return lines + _checked(plan, site_yaml)


def _checked(plan: ImportPlan, site_yaml: Path) -> list[str]:
    """The undefined macros with the lines that define them, then check --strict's findings."""
    lines = []
    if plan.checked.macros:
        lines += [f"undefined LaTeX macros ({len(plan.checked.macros)}); define each once for "
                  f"the digest, under 'macros:' in {display_path(site_yaml)}:",
                  *(f"  {line}" for line in macro_lines(plan.checked.macros))]
    if plan.checked.findings:
        lines += [f"check --strict would fail on {len(plan.checked.findings)} of what was "
                  "written:", *(f"  {finding}" for finding in plan.checked.findings)]
    return lines


def stopped_lines(plan: ImportPlan, stopped: WriteStopped) -> list[str]:
    """What an import wrote before a file could not be written (a full disk), and what to do."""
    done = set(stopped.written)
    written = [d for d in plan.writes() if d.path in done]
    lines = _section("written before it stopped", [_line(d) for d in written])
    return lines + [terminal_safe(
        f"{display_path(stopped.path)}: cannot be written: {stopped.reason}. Import stopped "
        f"after {len(written)} of {len(plan.writes())} files (listed above); make room and run "
        "it again: what was written is matched, not written twice.")]


def _section(heading: str, items: list[str]) -> list[str]:
    return [f"{heading} ({len(items)}):", *(f"  {printable(item)}" for item in items)] \
        if items else []


def _line(decision: Decision) -> str:
    if decision.action == "skip":
        return f"{decision.origin}: {decision.note}"
    changed = f" ({decision.note})" if decision.note else ""
    return f"{_path(decision)}{changed}  <- {decision.origin}"


def _path(decision: Decision) -> str:
    return display_path(decision.path) if decision.path else ""

