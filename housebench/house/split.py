"""A procedural floor plan: a footprint split recursively into the rooms of a program, doorways between
neighbours so that every room is reachable.

The footprint's area is the program's (times a seeded factor), its aspect seeded. A split cuts a
rectangle in two, across x or y, where two groups of its rooms get their shares of area (give or take
12 %): of a few seeded orders of the rooms, every place in the order and both directions, the cut whose
halves best fit their rooms (a room its type's shortest side and aspect, :mod:`housebench.house.program`;
a group its widest room's side and an aspect of 2), with seeded noise. A plan is kept when every room
fits and the doorway graph reaches every room; the seed's next draw is tried otherwise (after every
``DROP`` draws the program loses its last extra room). Doorways: a spanning tree of the rooms that
may connect (a bathroom or laundry hangs off one other room), plus some extra doorways between public
rooms. Walls are the cuts, ``wall_thickness`` thick, cut by their doorways as in :mod:`.plan`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from housebench.house.geometry import Box
from housebench.house.plan import Room, shell, wall_boxes
from housebench.house.program import PRIVATE, TYPES, Unplaceable, may_connect, room_program, room_type
from housebench.io import r6

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 (wall centre lines)
STEP = 0.05  # cuts and doorways on a 5 cm raster
CORNER = 0.4  # m of wall kept between a doorway and the wall it meets
ATTEMPTS = 400
DROP = 100  # draws before the program loses an extra room
GIVE_UP = 1.0  # a cut whose best halves misfit by more than this (m, or aspect) gives the draw up
ORDERS = 12  # orders of a cell's rooms tried at each cut
FLEX = (-0.12, -0.06, 0.0, 0.06, 0.12)  # a cut may move off the area shares by these fractions
EXTRA_DOOR = 0.3  # chance of a doorway beyond the spanning tree between two public rooms


@dataclass(frozen=True)
class Door:
    rooms: tuple[str, str]
    axis: str  # "x": in the wall x = at; "y": in the wall y = at
    at: float
    centre: float  # along the wall


@dataclass(frozen=True)
class Plan:
    width: float
    depth: float
    rooms: tuple[Room, ...]
    doors: tuple[Door, ...]
    boxes: tuple[Box, ...]  # floor slab and walls


def _snap(v: float) -> float:
    return r6(round(v / STEP) * STEP)


def _halves(rect: Rect, across_x: bool, at: float) -> tuple[Rect, Rect]:
    x0, y0, x1, y1 = rect
    return ((x0, y0, at, y1), (at, y0, x1, y1)) if across_x else ((x0, y0, x1, at), (x0, at, x1, y1))


def _misfit(rect: Rect, names: list[str]) -> float:
    """How far a room's cell is from its type's shortest side (plus a wall) and aspect."""
    short, long = sorted((rect[2] - rect[0], rect[3] - rect[1]))
    kind = TYPES[room_type(names[0])]
    return np.inf if short <= 0 else max(kind.short + 0.1 - short, 0.0) + max(long / short - kind.aspect, 0.0)


def _costs(a: tuple[np.ndarray, np.ndarray], need: np.ndarray, aspect: np.ndarray) -> np.ndarray:
    """:func:`_misfit` of many cells (sides ``a``) for groups needing a side ``need`` and an aspect ``aspect``."""
    short, long = np.minimum(*a), np.maximum(*a)
    with np.errstate(divide="ignore", invalid="ignore"):
        cost = np.maximum(need - short, 0.0) + np.maximum(long / short - aspect, 0.0)
    return np.where(short > 0, cost, np.inf)


def _options(rect: Rect, order: list[str], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """For each way to cut ``rect`` (across x or y, after the k-th room of ``order``, off the area share by
    each of FLEX): where, and how far its halves misfit (a group needs its widest room's side and aspect 2)."""
    kinds = [TYPES[room_type(n)] for n in order]
    areas, shorts = np.array([k.area for k in kinds]), np.array([k.short for k in kinds]) + 0.1
    frac = (
        (np.cumsum(areas)[:-1] / areas.sum())[:, None]
        + np.array(FLEX)
        + rng.uniform(-0.02, 0.02, (len(order) - 1, len(FLEX)))
    )
    need_a, need_b = np.maximum.accumulate(shorts)[:-1, None], np.maximum.accumulate(shorts[::-1])[::-1][1:, None]
    asp_a = np.full((len(order) - 1, 1), 2.0)
    asp_b = asp_a.copy()
    asp_a[0], asp_b[-1] = kinds[0].aspect, kinds[-1].aspect
    x0, y0, x1, y1 = rect
    at, cost = [], []
    for lo, hi, span in ((x0, x1, y1 - y0), (y0, y1, x1 - x0)):
        cut = np.round((lo + frac * (hi - lo)) / STEP) * STEP
        at.append(cut)
        cost.append(_costs((cut - lo, span), need_a, asp_a) + _costs((hi - cut, span), need_b, asp_b))
    return np.array(at), np.array(cost)


def _cut(rect: Rect, names: list[str], rng: np.random.Generator, cuts: list) -> list[tuple[str, Rect]] | None:
    """Split ``rect`` among ``names`` by area; every cut is appended to ``cuts``. Of the cuts (which seeded
    order of the rooms, where in it, which way) the one whose halves fit their rooms best, with seeded noise.
    None as soon as a room misfits or no cut comes near fitting (the draw is given up)."""
    if len(names) == 1:
        return [(names[0], rect)] if _misfit(rect, names) == 0 else None
    best = None
    for _ in range(ORDERS):
        order = [str(n) for n in rng.permutation(names)]
        at, cost = _options(rect, order, rng)
        cost = cost + rng.uniform(0, 0.3, cost.shape)
        i = np.unravel_index(np.argmin(cost), cost.shape)
        if best is None or cost[i] < best[0]:
            best = (cost[i], order, i, r6(at[i]))
    cost, order, (axis, k, _), at = best
    if cost > GIVE_UP:
        return None
    x0, y0, x1, y1 = rect
    cuts.append(("x", at, (y0, y1)) if axis == 0 else ("y", at, (x0, x1)))
    a, b = _halves(rect, axis == 0, at)
    one = _cut(a, order[: k + 1], rng, cuts)
    two = _cut(b, order[k + 1 :], rng, cuts) if one is not None else None
    return None if two is None else one + two


def _inner(rect: Rect, w: float, d: float, t: float) -> Rect:
    """A cell's floor inside its walls (outer walls stand outside the footprint)."""
    x0, y0, x1, y1 = rect
    return (
        r6(x0 + (t / 2 if x0 > 0 else 0)),
        r6(y0 + (t / 2 if y0 > 0 else 0)),
        r6(x1 - (t / 2 if x1 < w else 0)),
        r6(y1 - (t / 2 if y1 < d else 0)),
    )


def _fits(name: str, r: Rect) -> bool:
    kind = TYPES[room_type(name)]
    short, long = sorted((r[2] - r[0], r[3] - r[1]))
    return short >= kind.short and long <= kind.aspect * short


def _shared(a: Rect, b: Rect) -> tuple[str, float, float, float] | None:
    """The wall between cells ``a`` and ``b``: axis, position, and the span they share along it."""
    for axis, i in (("x", 0), ("y", 1)):
        j = 1 - i
        for p, q in ((a, b), (b, a)):
            if abs(p[i + 2] - q[i]) < 1e-9:
                lo, hi = max(p[j], q[j]), min(p[j + 2], q[j + 2])
                if hi > lo:
                    return axis, p[i + 2], lo, hi
    return None


def _doors(cells: dict[str, Rect], dw: float, rng: np.random.Generator) -> list[Door] | None:
    """Doorways joining every room (None when the cells cannot be joined)."""
    graph, spans = nx.Graph(), {}
    graph.add_nodes_from(cells)
    names = sorted(cells)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            shared = _shared(cells[a], cells[b])
            if shared and shared[3] - shared[2] >= dw + 2 * CORNER and may_connect(a, b):
                graph.add_edge(a, b, weight=float(rng.uniform()))
                spans[(a, b)] = shared
    public = graph.subgraph([n for n in names if room_type(n) not in PRIVATE])
    if not nx.is_connected(public) or any(graph.degree(n) == 0 for n in names):
        return None
    chosen = {tuple(sorted(e)) for e in nx.minimum_spanning_tree(public).edges()}
    chosen |= {tuple(sorted(e)) for e in public.edges() if rng.uniform() < EXTRA_DOOR}
    for n in (n for n in names if room_type(n) in PRIVATE):
        hosts = sorted(m for m in graph.neighbors(n) if room_type(m) not in PRIVATE)
        if not hosts:
            return None
        chosen.add(tuple(sorted((n, hosts[int(rng.integers(len(hosts)))]))))
    doors = []
    for a, b in sorted(chosen):
        axis, at, lo, hi = spans[(a, b)]
        m = dw / 2 + CORNER
        doors.append(Door((a, b), axis, r6(at), _snap(rng.uniform(lo + m, hi - m))))
    return doors


def _walls(cuts: list, doors: list[Door], w: float, d: float, p: dict[str, Any]) -> list[Box]:
    t, boxes = p["wall_thickness"], []
    for k, (axis, at, (lo, hi)) in enumerate(cuts, start=1):
        edge = d if axis == "x" else w
        span = (lo + (t / 2 if lo > 0 else 0), hi - (t / 2 if hi < edge else 0))
        here = [dr.centre for dr in doors if dr.axis == axis and abs(dr.at - at) < 1e-9 and lo < dr.centre < hi]
        boxes += wall_boxes(f"cut{k}", axis, at, span, here, p)
    return boxes


def floor_plan(seed: int | tuple[int, ...], p: dict[str, Any]) -> Plan:
    """The plan of house ``seed``: rooms inside their walls, doorways, floor and wall boxes."""
    rng = np.random.default_rng(seed)
    program = room_program(rng)
    for attempt in range(ATTEMPTS):
        names = program[: len(program) - attempt // DROP]  # a program that does not fit loses its last extras
        area = sum(TYPES[room_type(n)].area for n in names) * rng.uniform(1.1, 1.3)
        aspect = rng.uniform(1.0, 1.6)
        w, d = _snap(np.sqrt(area * aspect)), _snap(np.sqrt(area / aspect))
        cuts: list = []
        found = _cut((0.0, 0.0, w, d), names, rng, cuts)
        if found is None:
            continue
        leaves = dict(found)
        inner = {n: _inner(r, w, d, p["wall_thickness"]) for n, r in leaves.items()}
        if not all(_fits(n, r) for n, r in inner.items()):
            continue
        doors = _doors(leaves, p["door_width"], rng)
        if doors is None:
            continue
        rooms = tuple(Room(n, *inner[n]) for n in names)
        return Plan(w, d, rooms, tuple(doors), tuple(shell(w, d, p) + _walls(cuts, doors, w, d, p)))
    raise Unplaceable(f"house {seed}: no floor plan in {ATTEMPTS} draws")


def signature(plan: Plan) -> tuple:
    """What makes two plans different beyond jitter: the rooms, which rooms meet at a doorway, and how the
    footprint was cut (each room's position rounded to a metre)."""
    rooms = tuple(sorted((r.name, round(r.x0), round(r.y0), round(r.x1), round(r.y1)) for r in plan.rooms))
    return rooms, tuple(sorted(d.rooms for d in plan.doors))
