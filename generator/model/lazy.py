"""A library imported when the build first uses it, not when the generator starts.

A rebuild with nothing to do (a no-op) reads the papers, hashes them and stops: it never runs
the search index or related papers, so it need not wait for numpy (~35 ms of its ~0.2 s of
imports) or Markdown. `np = library("numpy")` stands for the module; the first attribute read
imports it, and from then on each read is an ordinary one."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class _Library(ModuleType):
    def __getattr__(self, name: str) -> Any:  # why: only for what __dict__ does not hold yet
        module = importlib.import_module(self.__name__)
        self.__dict__.update(vars(module))
        return getattr(module, name)


def library(name: str) -> Any:
    """The module `name`, imported when one of its attributes is first read."""
    return _Library(name)
