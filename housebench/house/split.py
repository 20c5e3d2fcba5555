"""A procedural floor plan: a footprint split recursively into the rooms of a program, doorways between
neighbours so that every room is reachable.

The footprint's area is the program's (times a seeded factor), its aspect seeded. A split cuts a
rectangle across its longer side (usually) where the two groups of rooms get their shares of area; the
rooms stay in the program's seeded order, so each cut parts the list in two. A plan is kept when every
room has its type's shortest side and aspect (:mod:`housebench.house.program`) and the doorway graph
reaches every room; the seed's next draw is tried otherwise. Doorways: a spanning tree of the rooms that
may connect (a bathroom or laundry hangs off one other room), plus some extra doorways between public
rooms. Walls are the cuts, ``wall_thickness`` thick, cut by their doorways as in :mod:`.plan`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from housebench.house.geometry import Box
from housebench.house.plan import Room, shell, wall_boxes
from housebench.house.program import PRIVATE, TYPES, may_connect, room_program, room_type
from housebench.io import r6

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 (wall centre lines)
STEP = 0.05  # cuts and doorways on a 5 cm raster
CORNER = 0.4  # m of wall kept between a doorway and the wall it meets
ATTEMPTS = 400
DROP = 100  # draws before the program loses an extra room
ORDERS = 6  # orders of a cell's rooms tried at each cut
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


def _halves(rect: Rect, across_x: bool, frac: float) -> tuple[float, Rect, Rect]:
    x0, y0, x1, y1 = rect
    if across_x:
        at = _snap(x0 + frac * (x1 - x0))
        return at, (x0, y0, at, y1), (at, y0, x1, y1)
    at = _snap(y0 + frac * (y1 - y0))
    return at, (x0, y0, x1, at), (x0, at, x1, y1)


def _misfit(rect: Rect, names: list[str]) -> float:
    """How far a cell is from holding ``names``: the shortfall of its side from the widest of their shortest
    sides (plus a wall), and the excess of its aspect over a room's (a group's: 2)."""
    short, long = sorted((rect[2] - rect[0], rect[3] - rect[1]))
    if short <= 0:
        return np.inf
    kinds = [TYPES[room_type(n)] for n in names]
    aspect = kinds[0].aspect if len(kinds) == 1 else 2.0
    return max(max(k.short for k in kinds) + 0.1 - short, 0.0) + max(long / short - aspect, 0.0)


def _cut(rect: Rect, names: list[str], rng: np.random.Generator, cuts: list) -> list[tuple[str, Rect]]:
    """Split ``rect`` among ``names`` (in order) by area; every cut is appended to ``cuts``. Of the cuts
    (where in the list, which way) the one whose halves fit their rooms best, with seeded noise."""
    if len(names) == 1:
        return [(names[0], rect)]
    options = []
    for _ in range(ORDERS):
        order = [str(n) for n in rng.permutation(names)]
        areas = np.array([TYPES[room_type(n)].area for n in order])
        shares = np.cumsum(areas)[:-1] / areas.sum()
        for k in range(1, len(order)):
            for across_x, flex in itertools.product((True, False), FLEX):
                at, a, b = _halves(rect, across_x, shares[k - 1] + flex + rng.uniform(-0.02, 0.02))
                cost = _misfit(a, order[:k]) + _misfit(b, order[k:]) + rng.uniform(0, 0.3)
                options.append((cost, order[:k], order[k:], across_x, at, a, b))
    _, first, second, across_x, at, a, b = min(options, key=lambda o: o[0])
    x0, y0, x1, y1 = rect
    cuts.append(("x", at, (y0, y1)) if across_x else ("y", at, (x0, x1)))
    return _cut(a, first, rng, cuts) + _cut(b, second, rng, cuts)


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
        leaves = dict(_cut((0.0, 0.0, w, d), names, rng, cuts))
        inner = {n: _inner(r, w, d, p["wall_thickness"]) for n, r in leaves.items()}
        if not all(_fits(n, r) for n, r in inner.items()):
            continue
        doors = _doors(leaves, p["door_width"], rng)
        if doors is None:
            continue
        rooms = tuple(Room(n, *inner[n]) for n in names)
        return Plan(w, d, rooms, tuple(doors), tuple(shell(w, d, p) + _walls(cuts, doors, w, d, p)))
    raise RuntimeError(f"house {seed}: no floor plan in {ATTEMPTS} draws")


def signature(plan: Plan) -> tuple:
    """What makes two plans different beyond jitter: the rooms, which rooms meet at a doorway, and how the
    footprint was cut (each room's position rounded to a metre)."""
    rooms = tuple(sorted((r.name, round(r.x0), round(r.y0), round(r.x1), round(r.y1)) for r in plan.rooms))
    return rooms, tuple(sorted(d.rooms for d in plan.doors))
