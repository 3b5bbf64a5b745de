"""building/memory.py: glibc's malloc gives freed memory back at once."""

import platform
import sys

import pytest

from generator.building.memory import return_freed_memory


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
                    reason="mallopt's thresholds are glibc's")
def test_glibcs_thresholds_are_set():
    assert return_freed_memory() is True
    assert return_freed_memory() is True  # why: each build sets them again; that is harmless


def test_elsewhere_it_says_it_could_not(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert return_freed_memory() is False
