"""model/lazy.py: a library is imported when first used."""

import sys

from generator.model.lazy import library


def test_a_library_is_imported_at_its_first_use_and_then_read_as_any_module(monkeypatch):
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    colorsys = library("colorsys")
    assert "colorsys" not in sys.modules
    assert colorsys.rgb_to_hsv(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)
    assert "colorsys" in sys.modules
    assert colorsys.hsv_to_rgb is sys.modules["colorsys"].hsv_to_rgb
    assert "hsv_to_rgb" in vars(colorsys)  # why: read from now on without __getattr__
