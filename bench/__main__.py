"""Run the benchmarks of this folder, one process each, and print their figures.

Each benchmark measures its own raw baseline or peer in the same run, prints every figure beside it and
says whether its target is met.
"""
from __future__ import annotations

import argparse
import ast
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

FOLDER = Path(__file__).parent


def benchmarks() -> dict[str, str]:
    """Every benchmark module, with the first line of its docstring (read without importing it)."""
    found = {}
    for info in pkgutil.iter_modules([str(FOLDER)]):
        if info.name.startswith("_"):
            continue
        docstring = ast.get_docstring(ast.parse((FOLDER / f"{info.name}.py").read_text(encoding="utf-8"))) or ""
        found[info.name] = docstring.splitlines()[0] if docstring else ""
    return dict(sorted(found.items()))


def _parser(known: dict[str, str]) -> argparse.ArgumentParser:
    listing = "\n".join(f"  {name:<22} {summary}" for name, summary in known.items())
    parser = argparse.ArgumentParser(
        prog="./run bench", description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"benchmarks:\n{listing}\n\n./run bench NAME runs one; with no NAME, all of them in turn. Each "
               "module's docstring (bench/NAME.py) says what it measures, against what, and its targets.")
    parser.add_argument("names", nargs="*", metavar="NAME", help="the benchmarks to run (default: all)")
    parser.add_argument("--rounds", type=int, help="paired rounds per figure of the HTTP benchmarks (http, servers, "
                        "processes, peers; default 3)")
    parser.add_argument("--seconds", type=float, help="seconds per timed HTTP round (default 3)")
    return parser


def main(argv: list[str]) -> int:
    known = benchmarks()
    args = _parser(known).parse_args(argv)
    unknown = [name for name in args.names if name not in known]
    if unknown:
        print(f"no benchmark {', '.join(unknown)}; there are: {', '.join(known)}", file=sys.stderr)
        return 2
    env = dict(os.environ)
    if args.rounds is not None:
        env["CAIRN_BENCH_ROUNDS"] = str(args.rounds)
    if args.seconds is not None:
        env["CAIRN_BENCH_SECONDS"] = str(args.seconds)
    failed = 0
    for name in args.names or list(known):
        print(f"\n## bench.{name}", flush=True)
        failed += subprocess.call([sys.executable, "-m", f"bench.{name}"], env=env) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
