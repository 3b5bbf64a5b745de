#!/usr/bin/env python3
"""Build the paper digest: `python build.py [build|import|serve] --help`."""

import sys

from generator.cli import main

if __name__ == "__main__":
    sys.exit(main(ending=True))
