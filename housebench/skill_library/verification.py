"""Verification scenarios as data (``scenarios.yaml``) and the status table they produce.

A scenario names a verb, a settled task scene (``<task>/<variant>``), setup nodes that bring the start
state about and the verb's arguments; :func:`subgraph` turns it into the subgraph the runtime runs
(setup nodes ``s1``, ``s2``, ..., the verb's node ``v``). ``$near_<object>`` in an argument is a zone
8-30 cm along +x from the object's start (for push, pull and sweep), ``$support_<object>`` the support
it rests on. :func:`status_rows` reads a run's
events into one row per scenario: the verb, the path the runtime chose, passed or failed with the
measured reason; :func:`summary` gives the pass shares by verb and by path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from housebench.inputs import InputError
from housebench.jsonfile import SpecError, one_line
from housebench.skill_library.contracts import World
from housebench.skill_library.library import skills
from housebench.skill_library.subgraph import PlanNode, Subgraph, chain
from housebench.tasks import geometry
from housebench.tasks.goal import Name, Strict
from housebench.yamlfile import load_yaml

SCENARIOS_FILE = Path(__file__).with_name("scenarios.yaml")
ZONE = (0.08, -0.1, -0.05, 0.3, 0.1, 0.2)  # offsets from the object's centre for ``$near_<object>``


class Scenario(Strict):
    verb: Name
    scene: str
    setup: list[tuple[Name, dict[str, Any]]] = Field(default_factory=list)
    args: dict[str, Any]

    @property
    def name(self) -> str:
        target = next((str(v) for v in self.args.values() if isinstance(v, str)), "")
        return f"{self.verb}:{target}@{self.scene}"


class ScenarioFile(Strict):
    version: Literal[1]
    scenarios: list[Scenario]


def load_scenarios(path: Path = SCENARIOS_FILE) -> list[Scenario]:
    try:
        loaded = ScenarioFile.model_validate(load_yaml(Path(path)))  # strict YAML, bounded
    except InputError as err:
        raise SpecError(str(err)) from None
    except ValidationError as err:
        raise SpecError(one_line(path, err)) from None
    unknown = sorted({s.verb for s in loaded.scenarios} - set(skills()))
    if unknown:
        raise SpecError(f"{path}: scenarios: unknown verbs {unknown}")
    return [*loaded.scenarios, *_entries_own()]


def _entries_own() -> list[Scenario]:
    """The scenarios a skill's own catalog entry lists (``scenarios:`` beside its contract)."""
    out = []
    for skill in skills().values():
        for i, raw in enumerate(skill.scenarios):
            try:
                out.append(Scenario.model_validate({"verb": skill.verb, **raw}))
            except ValidationError as err:
                raise SpecError(one_line(f"skills.yaml: {skill.verb}.scenarios[{i}]", err)) from None
    return out


def _resolve(value: Any, world: World) -> Any:
    if isinstance(value, str) and value.startswith("$support_"):
        return world.support_of(value.removeprefix("$support_")).name
    if isinstance(value, str) and value.startswith("$near_"):
        name = value.removeprefix("$near_")
        centre = geometry.centre(world.pose(name), world.scene.objects[name].asset)
        return [float(centre[i % 3] + ZONE[i]) for i in range(6)]
    return value


def subgraph(scenario: Scenario, world: World) -> Subgraph:
    nodes = [PlanNode(id=f"s{i}", verb=verb, args=args) for i, (verb, args) in enumerate(scenario.setup, 1)]
    args = {k: _resolve(v, world) for k, v in scenario.args.items()}
    nodes.append(PlanNode(id="v", verb=scenario.verb, args=args))
    return chain(nodes, scene=scenario.scene)


def status_row(scenario: Scenario, events: list[tuple[float, str, dict]]) -> dict[str, Any]:
    """The scenario's outcome from its run's events (the verb's node is ``v``): passed, failed with the
    measured reason (none where the verb never ended), or ``setup failed``."""
    mine = {kind: d for _, kind, d in events if d.get("node") == "v"}  # the last event of each kind
    row = {"scenario": scenario.name, "verb": scenario.verb, "path": mine.get("node_path", {}).get("path", "")}
    if mine.get("node_post", {}).get("ok"):
        return {**row, "status": "passed", "reason": ""}
    if not mine:
        setup = [d for _, kind, d in events if kind == "node_failed"]
        why = f"{setup[-1]['node']} {setup[-1]['verb']}: {', '.join(setup[-1]['failed'])}" if setup else "no events"
        return {**row, "status": "setup failed", "reason": why}
    failed, post = mine.get("node_failed", {}), mine.get("node_post", {})
    if not failed and not post:  # still running when the run ended: the caller names why (the horizon)
        return {**row, "status": "failed", "reason": ""}
    pre = mine.get("node_pre", {})
    measured = post.get("failed") or (pre.get("failed") if failed.get("stage") == "pre" else [])
    reason = f"{failed.get('stage', '?')}: {', '.join(failed.get('failed', []))}"
    reason += f" ({post['error']})" if post.get("error") else ""
    reason += f" [{'; '.join(measured)}]" if measured else ""
    return {**row, "status": "failed", "reason": reason}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Pass shares: a verb passes when any of its scenarios passed; a path when its scenario did."""
    verbs: dict[str, bool] = {}
    paths: dict[str, bool] = {}
    for r in rows:
        verbs[r["verb"]] = verbs.get(r["verb"], False) or r["status"] == "passed"
        if r["path"]:
            key = f"{r['verb']}.{r['path']}"
            paths[key] = paths.get(key, False) or r["status"] == "passed"
    return {
        "verbs": len(verbs),
        "verbs_passed": sum(verbs.values()),
        "paths": len(paths),
        "paths_passed": sum(paths.values()),
        "verb_rate": sum(verbs.values()) / len(verbs) if verbs else 0.0,
        "path_rate": sum(paths.values()) / len(paths) if paths else 0.0,
    }


def markdown(rows: list[dict[str, Any]], totals: dict[str, Any]) -> str:
    lines = [
        f"verbs passed {totals['verbs_passed']}/{totals['verbs']}, "
        f"paths passed {totals['paths_passed']}/{totals['paths']}",
        "",
        "| verb | path | scenario | status | measured reason |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {r['verb']} | {r['path']} | {r['scenario']} | {r['status']} | {r['reason']} |" for r in rows]
    return "\n".join(lines) + "\n"
