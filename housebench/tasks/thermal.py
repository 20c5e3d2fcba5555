"""The task-level thermal model (not PhysX heat): object temperatures from appliance states.

Each step, every object is in exactly one regime, judged from the simulator state:

- in the cavity of a *running microwave*: +``microwave_c_per_s`` (up to ``max_c``). Pressing the
  start button (at least half its travel) with the door closed (re)starts a run of
  ``microwave_run_s``; opening the door ends it;
- a vessel (an asset with a container profile) standing on a burner zone of a *running stove* (its
  power key on), and whatever is inside that vessel: +``stove_c_per_s`` (up to ``max_c``);
- in the cavity of a *fridge* with its door closed: relaxes towards ``fridge_c`` at ``fridge_rate``;
- anywhere else: relaxes towards ``ambient_c`` at ``ambient_rate`` (Newton: ``dT = (T_env - T) *
  (1 - exp(-rate dt))``).

Only the appliances a task lists take part; the others are inert. Every tolerance is a field of the
setup, so a variant's ``task.json`` states them: a door is closed within ``door_max_rad`` /
``door_max_m``, an object is in a vessel when its centre is in the cavity (``floor-cavity_below ..
rim+cavity_above``), a vessel stands on a burner when its bottom is within ``burner_max_gap`` of it.
"""

from __future__ import annotations

import math
from typing import Annotated

from pydantic import Field

from housebench.annotations.schema import AssetAnnotation, HouseAnnotations
from housebench.numbers import Celsius, Length, Radians
from housebench.state import SimState
from housebench.tasks import geometry
from housebench.tasks.goal import Name, Strict


class ThermalSetup(Strict):
    """The ``thermal`` section of a task spec (copied into each variant)."""

    initial_c: dict[Name, Celsius] = Field(default_factory=dict)  # object -> start temperature
    appliances: list[Name] = Field(default_factory=list)  # the appliances that heat or cool
    ambient_c: Celsius = 21.0
    ambient_rate: Annotated[float, Field(ge=0.0)] = 0.0005  # 1/s
    fridge_c: Celsius = 4.0
    fridge_rate: Annotated[float, Field(ge=0.0)] = 0.002  # 1/s
    microwave_c_per_s: Annotated[float, Field(ge=0.0)] = 1.0
    microwave_run_s: Annotated[float, Field(gt=0.0)] = 90.0  # one press runs it this long
    stove_c_per_s: Annotated[float, Field(ge=0.0)] = 0.5
    max_c: Celsius = 100.0
    door_max_rad: Radians = 0.10  # a revolute door this close to shut is closed
    door_max_m: Length = 0.04  # likewise a sliding one
    cavity_below: Length = 0.01  # in a vessel: centre above its floor minus this
    cavity_above: Length = 0.03  # ... and below its rim plus this
    burner_max_gap: Length = 0.02  # |vessel bottom - burner top| at most this


def time_to_heat(t_c: float, min_c: float, setup: ThermalSetup) -> float:
    """Seconds a running microwave takes to bring an item from ``t_c`` to ``min_c`` (0 when it is there)."""
    return max(0.0, min_c - t_c) / max(setup.microwave_c_per_s, 1e-6)


def time_to_chill(t_c: float, max_c: float, setup: ThermalSetup) -> float:
    """Seconds a shut fridge takes to bring an item from ``t_c`` down to ``max_c`` (0 when it is there; inf when
    the fridge never gets it there)."""
    if t_c <= max_c:
        return 0.0
    gap = max_c - setup.fridge_c
    if gap <= 0 or setup.fridge_rate <= 0:
        return math.inf
    return math.log((t_c - setup.fridge_c) / gap) / setup.fridge_rate


def _relax(t: float, target: float, rate: float, dt: float) -> float:
    return t + (target - t) * (1.0 - math.exp(-rate * dt))


class ThermalModel:
    """Temperatures of ``assets``' objects under ``setup`` in ``house``; :meth:`step` advances them."""

    def __init__(self, setup: ThermalSetup, house: HouseAnnotations, assets: dict[str, AssetAnnotation]):
        unknown = [a for a in setup.appliances if not any(x.name == a for x in house.appliances)]
        if unknown:
            raise geometry.GoalError(f"thermal: no appliance named {unknown} in the house")
        self.setup, self.assets = setup, assets
        self.appliances = [a for a in house.appliances if a.name in setup.appliances]
        self.parts = {p.name: p for p in house.articulated}
        self.temperatures_c = {n: float(setup.initial_c.get(n, setup.ambient_c)) for n in sorted(assets)}
        self.run_left_s = {a.name: 0.0 for a in self.appliances if a.kind == "microwave"}

    def _closed(self, joint: str | None, state: SimState) -> bool:
        if joint is None:
            return True
        s = self.setup
        return geometry.part_closed(
            self.parts[joint], geometry.joint_value(state, joint), s.door_max_rad, s.door_max_m
        )[0]

    def _on(self, joint: str | None, state: SimState) -> bool:
        return joint is not None and geometry.switched_on(self.parts[joint], geometry.joint_value(state, joint))

    def _regimes(self, state: SimState, dt: float) -> dict[str, tuple[str, float]]:
        """Per object: ("heat", degrees gained over ``dt``), or ("fridge" | "ambient", the
        temperature it relaxes to)."""
        s = self.setup
        regime = {n: ("ambient", s.ambient_c) for n in self.assets if n in state.objects}
        if not self.appliances:  # nothing heats or cools: the object centres are not needed
            return regime
        centres = {n: geometry.centre(state.objects[n], a) for n, a in self.assets.items() if n in state.objects}
        for app in self.appliances:
            inside = [n for n, c in centres.items() if app.cavity and geometry.in_box(c, app.cavity)]
            if app.kind == "fridge" and self._closed(app.door, state):
                regime.update({n: ("fridge", s.fridge_c) for n in inside})
            elif app.kind == "microwave" and self.run_left_s[app.name] > 0.0:
                gain = s.microwave_c_per_s * min(dt, self.run_left_s[app.name])
                regime.update({n: ("heat", gain) for n in inside})
            elif app.kind == "stove" and self._on(app.switch, state):
                regime.update({n: ("heat", s.stove_c_per_s * dt) for n in self._on_burners(app.zones, state)})
        return regime

    def _on_burners(self, zones: list[tuple], state: SimState) -> list[str]:
        """Vessels standing on one of ``zones`` and the objects inside them."""
        vessels = [
            n
            for n, a in self.assets.items()
            if a.container is not None and n in state.objects and any(self._stands_on(n, z, state) for z in zones)
        ]
        held = [
            n
            for n in self.assets
            if n in state.objects
            and n not in vessels
            and any(
                geometry.in_cavity(
                    geometry.centre(state.objects[n], self.assets[n]),
                    state.objects[v],
                    self.assets[v].container,
                    self.setup.cavity_below,
                    self.setup.cavity_above,
                )[0]
                for v in vessels
            )
        ]
        return vessels + held

    def _stands_on(self, name: str, zone: tuple, state: SimState) -> bool:
        x, y, _ = geometry.centre(state.objects[name], self.assets[name])
        low = geometry.bottom(state.objects[name], self.assets[name])
        return zone[0] <= x <= zone[3] and zone[1] <= y <= zone[4] and abs(low - zone[5]) <= self.setup.burner_max_gap

    def step(self, state: SimState, dt: float) -> dict[str, float]:
        """Advance by ``dt`` seconds in ``state`` (the end of the interval); the new temperatures."""
        s = self.setup
        for app in self.appliances:
            if app.kind != "microwave":
                continue
            if not self._closed(app.door, state):
                self.run_left_s[app.name] = 0.0
            elif self._on(app.switch, state):
                self.run_left_s[app.name] = s.microwave_run_s
        rates = {"ambient": s.ambient_rate, "fridge": s.fridge_rate}
        for name, (kind, value) in self._regimes(state, dt).items():
            t = self.temperatures_c[name]
            self.temperatures_c[name] = min(s.max_c, t + value) if kind == "heat" else _relax(t, value, rates[kind], dt)
        for name in self.run_left_s:
            self.run_left_s[name] = max(0.0, self.run_left_s[name] - dt)
        return dict(self.temperatures_c)
