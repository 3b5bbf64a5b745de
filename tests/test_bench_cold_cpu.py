"""bench/cold_cpu.py: every step it names is still where the build calls it, so that its
figures do not drop to zero without a word when a function is renamed or imported otherwise."""

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _bench():
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("cold_cpu", BENCH / "cold_cpu.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_each_step_is_timed_where_the_build_calls_it_and_put_back_after(tmp_path):
    cold_cpu = _bench()
    content = cold_cpu.write_digest(tmp_path / "content", 12)

    def functions():
        return [getattr(*cold_cpu.where(module, name)) for _, module, name, _ in cold_cpu.STEPS]

    before, clock = functions(), cold_cpu.Clock()
    with cold_cpu.instrumented(clock):
        total = cold_cpu.cold_build(content, tmp_path, cached=True)
    once_a_paper = ["front matter (PyYAML)", "curator notes (Markdown)",
                    "LaTeX in abstracts to MathML", "search terms"]
    assert [clock.calls[what] for what in once_a_paper] == [12] * 4
    assert clock.calls["search index"] == clock.calls["related papers"] == 1
    assert clock.calls["templates (Jinja)"] > 24  # a page and a card a paper, and the lists
    assert 0 < sum(clock.spent.values()) < total
    assert functions() == before
