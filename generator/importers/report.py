"""What an import did, grouped for the curator: created, updated, unchanged, skipped, drafts,
what the sources said that was left out, tag warnings, then one line of counts."""

from __future__ import annotations

from ..model.errors import display_path
from .merge import Decision, ImportPlan

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
    counts = [f"{sum(d.action == action for d in plan.decisions)} {heading}"
              for action, heading in GROUPS]
    counts += [f"{len(drafts)} draft{'s' if len(drafts) != 1 else ''}",
               f"{len(plan.warnings)} tag warning{'s' if len(plan.warnings) != 1 else ''}"]
    ending = "; dry run, nothing was written" if dry_run else ""
    return lines + [f"Import: {', '.join(counts)}{ending}."]


def _section(heading: str, items: list[str]) -> list[str]:
    return [f"{heading} ({len(items)}):", *(f"  {item}" for item in items)] \
        if items else []


def _line(decision: Decision) -> str:
    if decision.action == "skip":
        return f"{decision.origin}: {decision.note}"
    changed = f" ({decision.note})" if decision.note else ""
    return f"{_path(decision)}{changed}  <- {decision.origin}"


def _path(decision: Decision) -> str:
    return display_path(decision.path) if decision.path else ""

