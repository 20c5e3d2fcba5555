"""Command-line start-up: `housebench [area] --help` against a bare Python start and against importing
the mesh, USD and simulator libraries the CLI used to load for every command, all in one run.

    python bench/bench_startup.py [--rounds 5]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import click

CASES = {
    "python -c pass (baseline)": ["-c", "pass"],
    "housebench --help": ["-m", "housebench", "--help"],
    "housebench asset --help": ["-m", "housebench", "asset", "--help"],
    "housebench results --help": ["-m", "housebench", "results", "--help"],
    "import trimesh, pymeshlab, pxr, mujoco": ["-c", "import trimesh, pymeshlab, pxr, mujoco"],
}


def seconds(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, capture_output=True)
    return time.perf_counter() - start


@click.command()
@click.option("--rounds", default=5, show_default=True, help="Runs of each case (interleaved); the median counts.")
def main(rounds: int) -> None:
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(rounds):
        for name, args in CASES.items():
            times[name].append(seconds(args))
    base = statistics.median(times["python -c pass (baseline)"])
    print(f"| case | median s | x bare python |\n|---|---|---|  ({rounds} rounds, interleaved)")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"| {name} | {median:.3f} | {median / base:.1f} |")


if __name__ == "__main__":
    main()
