"""Nightly trends: each task's success tonight beside the last nights', and whether it dropped.

The rules, in one place (the nightly flow writes their rows to the ``trends`` table; the report draws them):

- **Baseline**: the latest attempt of each of the last ``nights`` nights before tonight's run (an earlier
  attempt of tonight's own night counts as one of them: a re-run is compared with the run it repeats).
- **Groups**: policy, track, split and task; crashed episodes count as unsuccessful.
- **Paired** when at least ``min_episodes`` of tonight's episodes match a baseline episode on variant, seed and
  scene hash (the same scene and the same pose noise; the latest baseline night's outcome when several hold it):
  the exact McNemar test, a one-sided binomial test of the pairs that went from success to failure among the
  pairs that changed. Nights sampled from different dates never match (each night's variants and seeds come
  from its date), so this is the rule for a night run again.
- **Unpaired** otherwise, when both tonight and the pooled baseline have ``min_episodes``: a one-sided Fisher
  exact test that tonight's success is below the baseline's (exact at the few dozen episodes a task gets).
- **None** with fewer episodes on either side: shown, never flagged.
- The night's p-values are adjusted together (``adjust: bh``, Benjamini-Hochberg: with 25 tasks and 3 policies
  a night runs 75 tests, and unadjusted about 4 of them would fall under 0.05 on an unchanged night); a row is
  flagged when its adjusted p-value is below ``alpha``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import Field
from scipy.stats import binomtest, false_discovery_control, fisher_exact

from housebench.params import Section
from housebench.report.summary import wilson
from housebench.results.writer import read_table

NIGHTLY_PREFIX = "nightly-"  # the runs of flows/nightly.py: nightly-<YYYY-MM-DD>-a<attempt>
NIGHT_RUN = re.compile(rf"{NIGHTLY_PREFIX}(\d{{4}}-\d{{2}}-\d{{2}})-a(\d+)")
GROUP = ("policy", "track", "split", "task")
COLUMNS = ("run", *GROUP, "variant", "seed", "scene_hash", "success")  # what the rules read of an episode


class TrendParams(Section):
    """``params.yaml: nightly``: how a night is compared with the last ones."""

    nights: int = Field(default=7, ge=1, le=366)  # earlier nights in the baseline
    alpha: float = Field(default=0.05, gt=0.0, lt=1.0)  # flagged when the adjusted p-value is below this
    min_episodes: int = Field(default=5, ge=1, le=100_000)  # fewer on either side: not tested
    adjust: Literal["bh", "none"] = "bh"  # Benjamini-Hochberg over the night's tests, or none


@dataclass(frozen=True)
class Trends:
    """A night's comparison: ``rows`` for the ``trends`` table, ``history`` (each baseline night's and
    tonight's rate per group, for the plot), the ``baseline`` runs and the ``params`` it followed."""

    run: str
    rows: list[dict[str, Any]]
    params: TrendParams
    history: list[dict[str, Any]] = field(default_factory=list)
    baseline: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> list[dict[str, Any]]:
        return [r for r in self.rows if r["flag"]]


def parse_night(run: str) -> tuple[date, int] | None:
    """``(night, attempt)`` of a nightly run id, None for any other run."""
    match = NIGHT_RUN.fullmatch(run)
    if not match:
        return None
    try:
        return date.fromisoformat(match.group(1)), int(match.group(2))
    except ValueError:  # nightly-2026-13-45-a1: not a date
        return None


def baseline_runs(runs: Iterable[str], run: str, nights: int) -> list[str]:
    """The runs ``run`` is compared with, oldest first: the latest attempt of each of the last ``nights``
    nights before it (attempts of its own night before it count as one night)."""
    tonight = parse_night(run)
    if tonight is None:
        raise ValueError(f"trends: run {run!r} is not a nightly run ({NIGHTLY_PREFIX}YYYY-MM-DD-aK)")
    latest: dict[date, tuple[int, str]] = {}
    for other in set(runs):
        key = parse_night(other)
        if key is None or key >= tonight:
            continue
        if key[0] not in latest or key[1] > latest[key[0]][0]:
            latest[key[0]] = (key[1], other)
    return [latest[night][1] for night in sorted(latest)][-nights:]


def _match(episode: dict[str, Any]) -> tuple[str, int, str]:
    return episode["variant"], episode["seed"], episode["scene_hash"]


def _group(episodes: Iterable[dict[str, Any]]) -> dict[tuple[str, ...], list[dict[str, Any]]]:
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for e in episodes:
        groups[tuple(e[k] for k in GROUP)].append(e)
    return groups


def paired_p(losses: int, gains: int) -> float:
    """Exact McNemar, one-sided: the chance of ``losses`` or more of the ``losses + gains`` changed pairs going
    from success to failure if neither direction were likelier."""
    if losses + gains == 0:
        return 1.0
    return float(binomtest(losses, losses + gains, 0.5, alternative="greater").pvalue)


def unpaired_p(successes: int, n: int, base_successes: int, base_n: int) -> float:
    """One-sided Fisher exact test that ``successes / n`` is below ``base_successes / base_n``."""
    table = [[successes, n - successes], [base_successes, base_n - base_successes]]
    return min(1.0, float(fisher_exact(table, alternative="less").pvalue))


def compare(now: list[dict[str, Any]], past: list[dict[str, Any]], min_episodes: int) -> dict[str, Any]:
    """One group's comparison: tonight's episodes ``now`` against the baseline's ``past`` (oldest first)."""
    n, successes = len(now), sum(bool(e["success"]) for e in now)
    latest = {_match(e): bool(e["success"]) for e in past}  # a later night's outcome replaces an earlier one's
    pairs = [(latest[_match(e)], bool(e["success"])) for e in now if _match(e) in latest]
    if len(pairs) >= min_episodes:
        test = "paired"
        base_n, base_successes = len(pairs), sum(before for before, _ in pairs)
        losses = sum(before and not after for before, after in pairs)
        gains = sum(after and not before for before, after in pairs)
        p_value: float | None = paired_p(losses, gains)
    else:
        base_n, base_successes = len(past), sum(bool(e["success"]) for e in past)
        tested = n >= min_episodes and base_n >= min_episodes
        test = "unpaired" if tested else "none"
        p_value = unpaired_p(successes, n, base_successes, base_n) if tested else None
    low, high = wilson(successes, n)
    return {
        "n": n,
        "successes": successes,
        "rate": successes / n,
        "ci_low": low,
        "ci_high": high,
        "baseline_n": base_n,
        "baseline_successes": base_successes,
        "baseline_rate": base_successes / base_n if base_n else None,
        "test": test,
        "pairs": len(pairs),
        "p_value": p_value,
    }


def adjust(rows: list[dict[str, Any]], params: TrendParams) -> None:
    """Each row gains ``p_adjusted`` (over the rows tested) and ``flag``."""
    tested = [r for r in rows if r["p_value"] is not None]
    adjusted = [r["p_value"] for r in tested]
    if params.adjust == "bh" and tested:
        adjusted = [float(p) for p in false_discovery_control(adjusted, method="bh")]
    for row in rows:
        row["p_adjusted"], row["flag"] = None, False
    for row, p in zip(tested, adjusted, strict=True):
        row["p_adjusted"] = p
        row["flag"] = p < params.alpha


def trend_rows(episodes: list[dict[str, Any]], run: str, params: TrendParams) -> Trends:
    """Tonight's ``run`` against its baseline among ``episodes`` (rows with :data:`COLUMNS`, any runs): one
    row per group tonight, in the ``trends`` table's columns, and the history the plot draws."""
    baseline = baseline_runs({e["run"] for e in episodes}, run, params.nights)
    order = {r: i for i, r in enumerate(baseline)}
    now = _group(e for e in episodes if e["run"] == run)
    past = _group(sorted((e for e in episodes if e["run"] in order), key=lambda e: order[e["run"]]))
    night = parse_night(run)[0]
    rows = []
    for key in sorted(now):
        found = compare(now[key], past.get(key, []), params.min_episodes)
        rows.append({"run": run, "night": night, **dict(zip(GROUP, key)), "baseline_runs": " ".join(baseline), **found})
    adjust(rows, params)
    return Trends(run, rows, params, history(episodes, [*baseline, run], set(now)), baseline)


def history(episodes: list[dict[str, Any]], runs: list[str], groups: set[tuple[str, ...]]) -> list[dict[str, Any]]:
    """Each run's success per group (only ``groups``), in the order of ``runs``: n, successes, rate, interval."""
    order = {r: i for i, r in enumerate(runs)}
    counts: dict[tuple[str, tuple[str, ...]], list[int]] = defaultdict(lambda: [0, 0])
    for e in episodes:
        key = tuple(e[k] for k in GROUP)
        if e["run"] in order and key in groups:
            counts[e["run"], key][0] += 1
            counts[e["run"], key][1] += bool(e["success"])
    rows = []
    for (run, key), (n, successes) in sorted(counts.items(), key=lambda kv: (order[kv[0][0]], kv[0][1])):
        low, high = wilson(successes, n)
        rows.append({"run": run, **dict(zip(GROUP, key)), "n": n, "successes": successes, "rate": successes / n})
        rows[-1] |= {"ci_low": low, "ci_high": high}
    return rows


def night_trends(results_dir: Path, run: str, params: TrendParams) -> Trends:
    """Tonight's ``run`` against the last nights, read from the ``episodes`` table under ``results_dir``."""
    data = read_table(results_dir, "episodes").select(list(COLUMNS)).to_pylist()
    episodes = [e for e in data if parse_night(e["run"]) is not None]
    if not any(e["run"] == run for e in episodes):
        raise ValueError(f"trends: {results_dir}/episodes has no episode of run {run!r}")
    return trend_rows(episodes, run, params)
