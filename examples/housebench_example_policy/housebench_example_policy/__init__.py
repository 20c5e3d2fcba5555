"""An example policy outside housebench: deterministic, driven by what it observes, light to import (pydantic and
housebench's plain data types only)."""

from __future__ import annotations

import math
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from housebench.state import Action

__version__ = "0.1.0"

PAN = "robot0:shoulder_pan_joint"


class ExampleParams(BaseModel):
    """Its section of params.yaml (``policies.<name>``), without ``class``."""

    model_config = ConfigDict(extra="forbid")
    period_s: float = Field(1.0, gt=0.0, le=60.0)  # one sway of base and shoulder
    sway_m: float = Field(0.05, ge=0.0, le=0.5)  # base sway along its heading
    pan_rad: float = Field(0.3, ge=0.0, le=1.5)  # shoulder sway
    stop_s: float = Field(3.0, gt=0.0, le=3600.0)  # it says stop at this simulated time


class ExamplePolicy:
    """Sways the base along its heading and the shoulder around where the episode found them, opens the gripper on
    the first half of each period and closes it on the second, logs each period, stops at ``stop_s``."""

    name: ClassVar[str] = "example"
    Params: ClassVar[type[BaseModel]] = ExampleParams
    tracks: ClassVar[tuple[str, ...]] = ("state", "vision")  # it reads only the robot's own joints and base

    def __init__(self, params: ExampleParams) -> None:
        self.params = params
        self.ctx: Any = None
        self.start: tuple[float, float, float] = (0.0, 0.0, 0.0)
        self.pan0 = 0.0
        self.period = -1

    def reset(self, ctx: Any, obs: Any) -> None:
        self.ctx, self.start, self.pan0, self.period = ctx, tuple(obs.base), obs.joints.get(PAN, 0.0), -1
        ctx.log("example_start", base=list(obs.base), words=len(getattr(ctx, "instruction", "").split()))

    def act(self, obs: Any) -> Action | None:
        p = self.params
        if obs.time >= p.stop_s:
            self.ctx.log("example_stop", ee_pos=list(obs.ee_pos), gripper=obs.gripper_opening)
            return Action(stop=True)
        period = int(obs.time // p.period_s)
        if period != self.period:
            self.period = period
            self.ctx.log("example_period", period=period, pan=obs.joints.get(PAN, 0.0))
        phase = math.sin(2 * math.pi * obs.time / p.period_s)
        x, y, yaw = self.start
        shift = p.sway_m * phase
        return Action(
            joints={PAN: self.pan0 + p.pan_rad * phase},
            base=(x + shift * math.cos(yaw), y + shift * math.sin(yaw), yaw),
            gripper=0.08 if (obs.time % p.period_s) < p.period_s / 2 else 0.02,
        )
