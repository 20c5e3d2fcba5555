"""Drop-and-settle a task scene in any backend, write the rest poses back, check stability.

:func:`settle_scene` loads ``task.usda``, runs physics until every prop is at rest (or
``max_time``), and writes ``scene.usda``: a layer that sublayers the task layer (relative path) and
``over``-rides each prop's ``translate``/``orient`` with its rest pose. A prop that fell (ended more
than ``fall_drop`` below its start), moved more than ``max_move`` or never came to rest is skipped:
deactivated in the settled layer and reported. Then the settled scene is loaded afresh and run for
``check_time``: every free body must drift less than ``max_drift``, every robot joint stay within
``robot_tol`` and every articulated part (closed at 0) within ``part_tol`` of closed. The report
(``check.json``) and the layer are rounded to 1e-6: same inputs, same bytes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

from housebench.io import r6
from housebench.robot import fetch
from housebench.sim.backend import Backend, Simulation
from housebench.state import SimState

SCENE_FILE, CHECK_FILE = "scene.usda", "check.json"


def _speeds(state: SimState) -> dict[str, tuple[float, float]]:
    return {
        n: (float(np.linalg.norm(o.linvel or (0, 0, 0))), float(np.linalg.norm(o.angvel or (0, 0, 0))))
        for n, o in state.objects.items()
    }


def run_to_rest(sim: Simulation, p: dict[str, Any]) -> tuple[SimState, set[str]]:
    """Step until every object is at rest or ``max_time``; the final state and the resting names."""
    chunk = max(1, round(p["check_every"] / sim.timestep))
    start, resting = sim.time, set()
    while sim.time - start < p["max_time"] - 1e-9:
        sim.step(chunk)
        state = sim.get_state()
        resting = {n for n, (v, w) in _speeds(state).items() if v < p["rest_linvel"] and w < p["rest_angvel"]}
        if resting == set(state.objects):
            break
    return sim.get_state(), resting


def judge(before: SimState, after: SimState, resting: set[str], p: dict[str, Any]) -> dict:
    """Per prop: status (ok / fell / moved / unsettled) and how far it moved."""
    report = {}
    for name, obj in after.objects.items():
        start = np.array(before.objects[name].pos)
        moved = float(np.linalg.norm(np.array(obj.pos) - start))
        status = (
            "fell"
            if start[2] - obj.pos[2] > p["fall_drop"]
            else "moved"
            if moved > p["max_move"]
            else "ok"
            if name in resting
            else "unsettled"
        )
        report[name] = {"status": status, "moved": r6(moved), "pos": [r6(v) for v in obj.pos]}
    return report


def _rigid_prims(stage: Usd.Stage) -> dict[str, Usd.Prim]:
    return {p.GetName(): p for p in stage.Traverse() if p.HasAPI(UsdPhysics.RigidBodyAPI)}


def _set_pose(prim: Usd.Prim, pos: tuple, quat: tuple) -> None:
    parent = UsdGeom.Xformable(prim.GetParent()).ComputeLocalToWorldTransform(Usd.TimeCode.Default())
    world = Gf.Matrix4d().SetRotate(Gf.Quatd(quat[0], Gf.Vec3d(*quat[1:]))).SetTranslateOnly(Gf.Vec3d(*pos))
    local = Gf.Transform(world * parent.GetInverse())
    q = local.GetRotation().GetQuat().GetNormalized()
    orient = prim.GetAttribute("xformOp:orient")
    translate = prim.GetAttribute("xformOp:translate")
    if not (orient and translate):
        raise ValueError(f"{prim.GetPath()}: a prop needs xformOp:translate and xformOp:orient")
    quat_type = Gf.Quatf if orient.GetTypeName() == Sdf.ValueTypeNames.Quatf else Gf.Quatd
    orient.Set(quat_type(r6(q.GetReal()), *[r6(v) for v in q.GetImaginary()]))
    translate.Set(type(translate.Get())(*[r6(v) for v in local.GetTranslation()]))


def write_settled_layer(task_usda: Path, out: Path, state: SimState, skipped: set[str]) -> None:
    """``out`` sublayers ``task_usda`` and overrides each prop's pose (skipped props: inactive)."""
    layer = Sdf.Layer.CreateNew(str(out))
    layer.subLayerPaths.append(os.path.relpath(task_usda, out.parent))
    stage = Usd.Stage.Open(layer)
    task = Sdf.Layer.FindOrOpen(str(task_usda))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    if task.defaultPrim:
        layer.defaultPrim = task.defaultPrim
    props = _rigid_prims(stage)
    for name in sorted(state.objects):
        if name in skipped:
            props[name].SetActive(False)
        else:
            _set_pose(props[name], state.objects[name].pos, state.objects[name].quat)
    layer.Save()


def stability(sim: Simulation, p: dict[str, Any]) -> dict:
    """Run ``check_time`` of physics: max free-body drift, robot joint deviation and opening of any
    articulated part (every non-robot joint; closed at 0), sampled every ``check_every``."""
    before = sim.get_state()
    robot = [n for n in before.joints if n.startswith(fetch.PREFIX)]
    parts = [n for n in before.joints if not n.startswith(fetch.PREFIX)]
    chunk = max(1, round(p["check_every"] / sim.timestep))
    robot_dev = part_open = 0.0
    for _ in range(max(1, round(p["check_time"] / sim.timestep / chunk))):
        sim.step(chunk)
        after = sim.get_state()
        robot_dev = max([robot_dev, *(abs(after.joints[n] - before.joints[n]) for n in robot)])
        part_open = max([part_open, *(abs(after.joints[n]) for n in parts)])
    drift = {n: r6(np.linalg.norm(np.subtract(o.pos, before.objects[n].pos))) for n, o in after.objects.items()}
    passed = (
        all(d < p["max_drift"] for d in drift.values()) and robot_dev < p["robot_tol"] and part_open < p["part_tol"]
    )
    return {
        "passed": passed,
        "duration": r6(sim.time - before.time),
        "drift": drift,
        "robot_max_dev": r6(robot_dev),
        "parts": len(parts),
        "part_max_open": r6(part_open),
    }


def check_house(backend: Backend, house_usda: Path, p: dict[str, Any]) -> dict:
    """The stability check of the house alone (robot and articulated parts, no props)."""
    check = stability(backend.load(house_usda), p)
    return {"version": 1, "backend": f"{backend.name} {backend.version}", "stability": check, "passed": check["passed"]}


def settle_scene(backend: Backend, task_usda: Path, out_dir: Path, p: dict[str, Any]) -> dict:
    """Settle one task scene into ``out_dir/scene.usda``; the report that goes to ``check.json``."""
    sim = backend.load(task_usda)
    before = sim.get_state()
    after, resting = run_to_rest(sim, p)
    props = judge(before, after, resting, p)
    skipped = {n for n, r in props.items() if r["status"] != "ok"}
    write_settled_layer(task_usda, out_dir / SCENE_FILE, after, skipped)
    check = stability(backend.load(out_dir / SCENE_FILE), p)
    return {
        "version": 1,
        "backend": f"{backend.name} {backend.version}",
        "settle_time": r6(after.time - before.time),
        "props": props,
        "skipped": sorted(skipped),
        "stability": check,
        "passed": check["passed"] and not skipped,
    }
