"""The folders of generator/ are its architecture: each imports only those below it."""

import ast
from pathlib import Path

GENERATOR = Path(__file__).resolve().parent.parent / "generator"
ALLOWED = {
    "model": set(),
    "content": {"model"},
    "search": {"model"},
    "outputs": {"model"},
    "importers": {"content", "model"},
    "building": {"content", "model", "outputs", "search"},
    "serve": {"building", "content", "model"},
    "cli": {"building", "serve", "importers", "content", "model"},
}
"""Each room of generator/, and the rooms it may import from (besides its own modules)."""


def imported_rooms(module: Path) -> set[str]:
    """The rooms of generator/ that a module imports from."""
    room = room_of(module)
    found = set()
    folder = module.relative_to(GENERATOR).parent.parts
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = [*folder[:len(folder) - node.level + 1], *filter(None, (node.module or "").split("."))]
            # why: `from .. import building` names rooms as the imported names
            found.update([base[0]] if base else [alias.name for alias in node.names])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("generator."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[1] for alias in node.names
                         if alias.name.startswith("generator."))
    return found - {room}


def test_every_module_is_in_a_room_of_the_plan():
    rooms = {room_of(p) for p in GENERATOR.rglob("*.py") if p.parent != GENERATOR or p.name != "__init__.py"}
    assert rooms == set(ALLOWED)


def room_of(module: Path) -> str:
    return module.relative_to(GENERATOR).parts[0].removesuffix(".py")


def test_each_room_imports_only_those_below_it():
    modules = [p for p in GENERATOR.rglob("*.py") if p.parent != GENERATOR or p.name == "cli.py"]
    wrong = {str(p.relative_to(GENERATOR)): sorted(imported_rooms(p) - ALLOWED[room_of(p)])
             for p in modules}
    assert {module: rooms for module, rooms in wrong.items() if rooms} == {}


def test_no_stage_imports_the_cache_or_the_writer():
    for room in ("content", "model", "outputs", "search"):
        for module in (GENERATOR / room).rglob("*.py"):
            assert "building" not in imported_rooms(module), module
