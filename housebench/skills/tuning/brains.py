"""The brains' tuning: the numbers the scripted script, the appliance flow, the runtime's executors and the planner
decide by (``housebench/skill_library/``), beside the skills' own."""

from __future__ import annotations

from pydantic import Field

from housebench.params import Section


class ScriptTuning(Section):
    """``skills.script``: the scripted brain's moves (``skill_library/moves.py``)."""

    way_m: float = Field(1.0, gt=0)  # a surface is within reach when the floor the base can drive on comes this near, m
    max_place_height_m: float = Field(1.25, gt=0)  # surfaces above this are out of a top-down place's reach, m
    max_side_height_m: float = Field(1.35, gt=0)  # ... and of a place from the side, m


class ApplianceTuning(Section):
    """``skills.appliance``: items into and out of a fridge or microwave, for both brains
    (``skill_library/appliance_plan.py``, ``appliance_flow.py``, ``planner.py``)."""

    reach_z_m: float = Field(0.9, gt=0)  # the level under a ceiling a carry into an appliance tries first, m
    wait_margin_s: float = Field(10.0, ge=0)  # added to the thermal model's time to the target temperature, s
    stage_out_m: float = Field(0.3, ge=0)  # a staged item goes this far in front of the appliance's handle, m
    stage_heights_m: tuple[float, float] = (0.3, 1.25)  # both brains' staging surface: no floor, in a place's reach, m


class RuntimeTuning(Section):
    """``skills.runtime``: the skill library's own executors (``skill_library/executors.py``, ``stances.py``,
    ``extra_skills.py``)."""

    stance_rings_m: tuple[float, ...] = (0.6, 0.7, 0.5, 0.8, 0.9, 1.0, 1.2)  # beyond the target's half extent, m
    max_gap_m: float = Field(0.9, gt=0)  # a stance stays this close to its target's box (contracts ask 1 m), m
    reachable_m: float = Field(0.1, ge=0)  # ... and this close to floor the base can reach from where it stands, m
    door_near_m: float = Field(0.8, ge=0)  # an open door this near the base is in the carry arm's way, m
    retreat_m: float = Field(0.8, gt=0)  # ``retreat`` drives this far straight back, m
    head_tol: float = Field(0.03, gt=0)  # ``look``: the head this near its target is on it, rad
    head_wait_s: float = Field(30.0, gt=0)  # ... waited on this long at most, s
    look_drive_s: float = Field(25.0, ge=0)  # ... its time budget beyond that: the turn of the base first, s
    scan_margin_s: float = Field(5.0, ge=0)  # ``scan``'s budget per instance beyond the head's wait, s
    pan_max: float = Field(1.4, gt=0)  # the head pans this far either way before the base turns (its stop 1.57), rad
    lift_margin_m: float = Field(0.015, ge=0)  # ``lift`` past the asked height: a held item hangs a little low, m
    lift_timeout_s: float = Field(20.0, gt=0)  # sim seconds a ``lift`` may take, s
    wait_margin_s: float = Field(10.0, ge=0)  # ``wait``'s time budget beyond the seconds asked, s


class PlannerTuning(Section):
    """``skills.planner``: the symbolic planner's search (``skill_library/planner.py``)."""

    item_cost: int = Field(4, ge=1)  # an unmet goal item (on, near, inside, stacked, lying) in the heuristic
    edge_cost: int = Field(5, ge=1)  # ... an item at an edge (push, then pinch)
    thermal_cost: int = Field(8, ge=1)  # ... a heated or chilled item (door, carry, start, wait)

    def cost(self, predicate: str) -> int:
        """What an unmet goal item of ``predicate`` adds to the heuristic (2, one more call, for any other)."""
        if predicate in ("on", "near", "inside", "stacked", "lying"):
            return self.item_cost
        return {"at_edge": self.edge_cost, "heated": self.thermal_cost, "chilled": self.thermal_cost}.get(predicate, 2)
