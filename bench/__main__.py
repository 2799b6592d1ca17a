"""Run every benchmark of this folder, one process each, and print their figures.

``python -m bench`` runs them all; ``python -m bench store`` runs one. Each
benchmark measures its own raw baseline in the same run and prints the ratio.
"""
from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    found = pkgutil.iter_modules([str(Path(__file__).parent)])
    names = argv or sorted(info.name for info in found if not info.name.startswith("_"))
    failed = 0
    for name in names:
        print(f"\n## bench.{name}", flush=True)
        failed += subprocess.call([sys.executable, "-m", f"bench.{name}"]) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
