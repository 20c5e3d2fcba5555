"""The goal predicates: plain functions ``(condition, context) -> item results``.

Every comparison is a plain ``<=`` / ``>=`` against the number the condition states (no hidden
epsilon), so a state exactly on a tolerance boundary is decided by that number.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from housebench.robot.fetch import ARM_JOINTS, BASE_JOINTS, HEAD_CAMERA_XZ, HEAD_JOINTS, HEAD_PAN_XZ, HOME, TORSO_JOINT
from housebench.tasks import geometry, refs
from housebench.tasks import goal as g
from housebench.tasks.context import Check, Context
from housebench.tasks.geometry import GoalError, in_cavity, part_closed
from housebench.tasks.verdict import ItemResult


def _tilt_ok(ctx: Context, name: str, max_deg: float) -> tuple[bool, str]:
    tilt = ctx.tilt_deg(name)
    return tilt <= max_deg, f"tilt {tilt:.3f} deg (max {max_deg})"


def _on_check(ctx: Context, cond: g.OnSupport, max_tilt_deg: float | None = None) -> Check:
    """The ``on`` test of one instance against any surface of ``cond.support``."""
    supports = ctx.supports(cond.support)

    def check(name: str) -> tuple[bool, str]:
        bottom, (x, y) = ctx.bottom(name), ctx.centre(name)[:2]
        tried = []
        for s in supports:
            xmin, ymin, xmax, ymax = s.box
            level = s.height - cond.below <= bottom <= s.height + cond.above
            inbox = xmin - cond.margin <= x <= xmax + cond.margin and ymin - cond.margin <= y <= ymax + cond.margin
            ok, why = (
                level and inbox,
                (
                    f"on {s.name}: bottom {bottom:.6f} vs height {s.height:.6f} "
                    f"(-{cond.below}/+{cond.above}) {'ok' if level else 'FAIL'}, "
                    f"centre ({x:.6f}, {y:.6f}) {'in' if inbox else 'OUTSIDE'} box"
                ),
            )
            if max_tilt_deg is not None:
                up, tilt = _tilt_ok(ctx, name, max_tilt_deg)
                ok, why = ok and up, f"{why}, {tilt}{'' if up else ' FAIL'}"
            if ok:
                return True, why
            tried.append(why)
        return False, "; ".join(tried)

    return check


def on(cond: g.On, ctx: Context) -> list[ItemResult]:
    return ctx.judge(cond.items, _on_check(ctx, cond, cond.max_tilt_deg if cond.upright else None))


def near(cond: g.Near, ctx: Context) -> list[ItemResult]:
    """One instance per item on the support, each within ``distance`` (xy) of every other one;
    the combination satisfying the most items is reported."""
    on_support = _on_check(ctx, cond)
    groups = [cands for slot in cond.items for cands in ctx.items(slot)]
    options = [[n for n in cands if on_support(n)[0]] or [None] for cands in groups]
    best: list[ItemResult] = []
    for combo in itertools.product(*options):
        results = []
        for i, name in enumerate(combo):
            if name is None:
                results.append(
                    ItemResult(
                        item="|".join(groups[i]),
                        ok=False,
                        reason=f"not on {cond.support}: {on_support(groups[i][0])[1]}",
                    )
                )
                continue
            far = {
                o: float(np.hypot(*(ctx.centre(name) - ctx.centre(o))[:2]))
                for o in combo
                if o is not None and o != name
            }
            too_far = {o: d for o, d in far.items() if not d <= cond.distance}
            results.append(
                ItemResult(
                    item=name,
                    ok=not too_far,
                    reason=(
                        f"on {cond.support}; xy distances {', '.join(f'{o} {d:.6f}' for o, d in far.items())} "
                        f"(max {cond.distance})"
                    ),
                )
            )
        if not best or sum(r.ok for r in results) > sum(r.ok for r in best):
            best = results
    return best


def cavity(ctx: Context, name: str, container: str, below: float, above: float) -> tuple[bool, str]:
    """Whether ``name``'s centre lies in ``container``'s cavity, and what was measured."""
    profile = ctx.asset(container).container
    if profile is None:
        raise GoalError(f"'{container}' ({ctx.asset(container).name}) has no container profile")
    ok, why = in_cavity(ctx.centre(name), ctx.pose(container), profile, below, above)
    return ok, f"in {container}: {why}"


def inside(cond: g.Inside, ctx: Context) -> list[ItemResult]:
    """One container holds every item: the first that does, else the one holding most."""
    slots = ctx.items(cond.container)
    if len(slots) != 1:
        raise GoalError(f"container slot '{cond.container}' must name exactly one item")
    best: tuple[int, str, list[ItemResult]] | None = None
    for container in slots[0]:
        results = ctx.judge(cond.items, lambda n, c=container: cavity(ctx, n, c, cond.below, cond.above))
        held = sum(r.ok for r in results)
        if best is None or held > best[0]:
            best = (held, container, results)
        if held == len(results):
            break
    if cond.bind:
        ctx.bindings[cond.bind] = best[1]
    return best[2]


def upright(cond: g.Upright, ctx: Context) -> list[ItemResult]:
    return ctx.judge(cond.items, lambda name: _tilt_ok(ctx, name, cond.max_tilt_deg))


def not_dropped(cond: g.NotDropped, ctx: Context) -> list[ItemResult]:
    containers = [n for n in sorted(ctx.roles) if ctx.asset(n).container is not None]
    below, above = cond.container_below, cond.container_above

    def check(name: str) -> tuple[bool, str]:
        start, now = ctx.bottom(name, ctx.initial), ctx.bottom(name)
        held = [c for c in containers if c != name and cavity(ctx, name, c, below, above)[0]]
        dropped = start >= cond.start_min and now <= cond.floor_max and not held
        where = f"in {held[0]}" if held else "outside every container"
        return not dropped, f"bottom {start:.6f} -> {now:.6f} m, {where}"

    return ctx.judge(sorted(ctx.roles), check)


def _temperature(ctx: Context, name: str) -> float:
    if name not in ctx.state.temperatures_c:
        raise GoalError(f"no temperature for '{name}' in the state")
    return ctx.state.temperatures_c[name]


def heated(cond: g.Heated, ctx: Context) -> list[ItemResult]:
    def check(name: str) -> tuple[bool, str]:
        t = _temperature(ctx, name)
        return t >= cond.min_c, f"{t} C (min {cond.min_c})"

    return ctx.judge(cond.items, check)


def chilled(cond: g.Chilled, ctx: Context) -> list[ItemResult]:
    def check(name: str) -> tuple[bool, str]:
        t = _temperature(ctx, name)
        return t <= cond.max_c, f"{t} C (max {cond.max_c})"

    return ctx.judge(cond.items, check)


def lifted(cond: g.Lifted, ctx: Context) -> list[ItemResult]:
    def check(name: str) -> tuple[bool, str]:
        now = ctx.bottom(name)
        ref = ctx.bottom(name, ctx.initial) if cond.reference == "initial" else 0.0
        return now >= ref + cond.height, f"bottom {now:.6f} m (min {ref:.6f} + {cond.height})"

    return ctx.judge(cond.items, check)


def placed_in_zone(cond: g.PlacedInZone, ctx: Context) -> list[ItemResult]:
    lo, hi = cond.zone[:3], cond.zone[3:]

    def check(name: str) -> tuple[bool, str]:
        c = ctx.centre(name)
        ok = all(lo[i] <= c[i] <= hi[i] for i in range(3))
        why = f"centre ({c[0]:.6f}, {c[1]:.6f}, {c[2]:.6f}) {'in' if ok else 'OUTSIDE'} zone"
        if cond.max_speed is not None:
            vel = ctx.pose(name).linvel
            if vel is None:
                raise GoalError(f"'{name}' has no linvel in the state: cannot check it is settled")
            speed = float(np.linalg.norm(vel))
            ok, why = ok and speed <= cond.max_speed, f"{why}, speed {speed:.6f} m/s (max {cond.max_speed})"
        return ok, why

    return ctx.judge(cond.items, check)


def closed(cond: g.Closed, ctx: Context) -> list[ItemResult]:
    """One item per part (references expanded in order, each part once)."""
    results = []
    for name, part in {p.name: p for ref in cond.parts for p in ctx.parts(ref)}.items():
        ok, why = part_closed(part, ctx.joint(name), cond.max_rad, cond.max_m)
        results.append(ItemResult(item=name, ok=ok, reason=why))
    return results


def _travel(cond: g.Open | g.Pressed, ctx: Context) -> list[ItemResult]:
    """One item per part: how far from closed towards ``open`` it stands, against ``min_fraction``."""
    results = []
    for name, part in {p.name: p for ref in cond.parts for p in ctx.parts(ref)}.items():
        span = abs(part.open - part.closed)
        fraction = abs(ctx.joint(name) - part.closed) / span if span > 0 else 0.0
        ok = fraction >= cond.min_fraction
        results.append(ItemResult(item=name, ok=ok, reason=f"{fraction:.6f} of its travel (min {cond.min_fraction})"))
    return results


def open_(cond: g.Open, ctx: Context) -> list[ItemResult]:
    return _travel(cond, ctx)


def pressed(cond: g.Pressed, ctx: Context) -> list[ItemResult]:
    return _travel(cond, ctx)


def _touched(ctx: Context) -> dict[str, list[str]]:
    return {finger: list(ctx.state.contacts.get(finger, [])) for finger in ("left", "right")}


def holding(cond: g.Holding, ctx: Context) -> list[ItemResult]:
    touched = _touched(ctx)

    def check(name: str) -> tuple[bool, str]:
        on = [f for f, names in touched.items() if name in names]
        return len(on) == 2, f"touched by {on or 'no finger'} (both needed)"

    return ctx.judge(cond.items, check)


def hand_empty(cond: g.HandEmpty, ctx: Context) -> list[ItemResult]:
    objects = set(ctx.scene.objects)
    held = sorted({n for names in _touched(ctx).values() for n in names if n in objects})
    return [ItemResult(item="hand", ok=not held, reason=f"fingers touch {held}" if held else "fingers touch no object")]


def _target_box(ctx: Context, target: str) -> tuple[float, ...]:
    """The world box of an object (slot) or of a named piece of the house (their union)."""
    if target in ctx.roles or target in set(ctx.roles.values()):
        name = ctx.items(target)[0][0]
        return geometry.world_box(ctx.pose(name), ctx.asset(name))
    found = refs.boxes(target, ctx.scene.house)
    if not found:
        raise GoalError(f"no object, furniture, appliance or part named '{target}'")
    lo, hi = np.min([b[:3] for b in found], axis=0), np.max([b[3:] for b in found], axis=0)
    return (*map(float, lo), *map(float, hi))


def base_near(cond: g.BaseNear, ctx: Context) -> list[ItemResult]:
    x, y, yaw = (ctx.joint(j) for j in BASE_JOINTS)
    box = _target_box(ctx, cond.target)
    dx, dy = max(box[0] - x, 0.0, x - box[3]), max(box[1] - y, 0.0, y - box[4])
    dist = float(np.hypot(dx, dy))
    ok = cond.min_distance <= dist <= cond.distance
    why = f"base {dist:.6f} m from {cond.target} ({cond.min_distance} .. {cond.distance})"
    if cond.max_bearing_deg is not None:
        cx, cy = (box[0] + box[3]) / 2 - x, (box[1] + box[4]) / 2 - y
        bearing = abs(float(np.degrees(np.arctan2(np.sin(np.arctan2(cy, cx) - yaw), np.cos(np.arctan2(cy, cx) - yaw)))))
        ok = ok and bearing <= cond.max_bearing_deg
        why = f"{why}, bearing {bearing:.3f} deg (max {cond.max_bearing_deg})"
    return [ItemResult(item=cond.target, ok=ok, reason=why)]


def stacked(cond: g.Stacked, ctx: Context) -> list[ItemResult]:
    slots = ctx.items(cond.base)
    if len(slots) != 1:
        raise GoalError(f"base slot '{cond.base}' must name exactly one item")

    def check(name: str) -> tuple[bool, str]:
        tried = []
        for base in slots[0]:
            box = geometry.world_box(ctx.pose(base), ctx.asset(base))
            bottom, (x, y) = ctx.bottom(name), ctx.centre(name)[:2]
            level = box[5] - cond.below <= bottom <= box[5] + cond.above
            over = (
                box[0] - cond.margin <= x <= box[3] + cond.margin and box[1] - cond.margin <= y <= box[4] + cond.margin
            )
            why = (
                f"on {base}: bottom {bottom:.6f} vs top {box[5]:.6f} (-{cond.below}/+{cond.above})"
                f"{'' if level else ' FAIL'}, centre ({x:.6f}, {y:.6f}) {'over' if over else 'NOT OVER'} it"
            )
            if level and over and base != name:
                return True, why
            tried.append(why)
        return False, "; ".join(tried)

    return ctx.judge(cond.items, check)


def lying(cond: g.Lying, ctx: Context) -> list[ItemResult]:
    def check(name: str) -> tuple[bool, str]:
        tilt = ctx.tilt_deg(name)
        return tilt >= cond.min_tilt_deg, f"tilt {tilt:.3f} deg (min {cond.min_tilt_deg})"

    return ctx.judge(cond.items, check)


def head_camera(ctx: Context) -> tuple[np.ndarray, np.ndarray]:
    """The head camera's position and unit optical axis in the world, from the robot's joints."""
    x, y, yaw = (ctx.joint(j) for j in BASE_JOINTS)
    pan, tilt = (ctx.joint(j) for j in HEAD_JOINTS)
    torso = ctx.joint(TORSO_JOINT)
    c, s = np.cos(yaw), np.sin(yaw)
    pivot = np.array([x + c * HEAD_PAN_XZ[0], y + s * HEAD_PAN_XZ[0], HEAD_PAN_XZ[1] + torso])
    heading = np.array([np.cos(yaw + pan), np.sin(yaw + pan), 0.0])
    axis = np.cos(tilt) * heading + np.array([0.0, 0.0, -np.sin(tilt)])  # positive tilt looks down
    return pivot + HEAD_CAMERA_XZ[0] * heading + np.array([0.0, 0.0, HEAD_CAMERA_XZ[1]]), axis


def in_view(cond: g.InView, ctx: Context) -> list[ItemResult]:
    eye, axis = head_camera(ctx)

    def check(name: str) -> tuple[bool, str]:
        ray = ctx.centre(name) - eye
        dist = float(np.linalg.norm(ray))
        angle = float(np.degrees(np.arccos(np.clip(ray @ axis / max(dist, 1e-12), -1.0, 1.0))))
        ok = angle <= cond.max_angle_deg and dist <= cond.max_distance
        return (
            ok,
            f"{angle:.3f} deg off the camera axis (max {cond.max_angle_deg}), {dist:.6f} m (max {cond.max_distance})",
        )

    return ctx.judge(cond.items, check)


def at_edge(cond: g.AtEdge, ctx: Context) -> list[ItemResult]:
    on_support = _on_check(ctx, cond)

    def check(name: str) -> tuple[bool, str]:
        ok, why = on_support(name)
        box = geometry.world_box(ctx.pose(name), ctx.asset(name))
        best = max(
            (
                max(s.box[0] - box[0], box[3] - s.box[2], s.box[1] - box[1], box[4] - s.box[3])
                for s in ctx.supports(cond.support)
            ),
        )
        out = best >= cond.min_overhang
        return ok and out, f"{why}; overhang {best:.6f} m (min {cond.min_overhang})"

    return ctx.judge(cond.items, check)


POSES = {"tuck": (TORSO_JOINT, *ARM_JOINTS), "home": tuple(HOME)}


def arm_pose(cond: g.ArmPose, ctx: Context) -> list[ItemResult]:
    off = {j: abs(ctx.joint(j) - HOME[j]) for j in POSES[cond.pose]}
    worst = max(off, key=off.get)
    ok = off[worst] <= cond.tol
    return [ItemResult(item=cond.pose, ok=ok, reason=f"largest deviation {worst} {off[worst]:.6f} (max {cond.tol})")]


PREDICATES: dict[str, Callable[..., list[ItemResult]]] = {
    "on": on,
    "near": near,
    "inside": inside,
    "upright": upright,
    "not_dropped": not_dropped,
    "heated": heated,
    "chilled": chilled,
    "lifted": lifted,
    "placed_in_zone": placed_in_zone,
    "closed": closed,
    "open": open_,
    "pressed": pressed,
    "holding": holding,
    "hand_empty": hand_empty,
    "base_near": base_near,
    "stacked": stacked,
    "lying": lying,
    "in_view": in_view,
    "arm_pose": arm_pose,
    "at_edge": at_edge,
}
