"""What an import did, grouped for the curator: created, updated, unchanged, skipped, drafts,
what the sources said that was left out, tag warnings, then one line of counts. Every line
passes cleaning.printable, since titles, keys and file names come from the sources."""

from __future__ import annotations

from ..model.errors import display_path
from .cleaning import printable, terminal_safe
from .merge import Decision, ImportPlan
from .writing import WriteStopped

GROUPS = (("create", "created"), ("update", "updated"), ("unchanged", "unchanged"),
          ("skip", "skipped"))


def report_lines(plan: ImportPlan, dry_run: bool = False) -> list[str]:
    """The report as lines of text, each group headed by its name and count."""
    lines: list[str] = []
    for action, heading in GROUPS:
        chosen = [d for d in plan.decisions if d.action == action]
        lines += _section(heading, [_line(d) for d in chosen])
    drafts = [d for d in plan.decisions if d.draft]
    lines += _section("drafts for want of an abstract",
                      [f"{_path(d)}: add its abstract, then delete 'draft: true' (build --drafts "
                       "previews it)" for d in drafts])
    lines += _section("left out of the sources", list(plan.left_out))
    lines += _section("same title, another paper", list(plan.kept_apart))
    lines += _section("tag warnings", list(plan.warnings))
    lines += _section("temp files of an interrupted import, removed",
                      [display_path(path) for path in plan.removed])
    counts = [f"{sum(d.action == action for d in plan.decisions)} {heading}"
              for action, heading in GROUPS]
    counts += [f"{len(drafts)} draft{'s' if len(drafts) != 1 else ''}",
               f"{len(plan.warnings)} tag warning{'s' if len(plan.warnings) != 1 else ''}"]
    ending = "; dry run, nothing was written" if dry_run else ""
    return lines + [f"Import: {', '.join(counts)}{ending}."]


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

