"""The trained network as a housebench policy (state track): serve it with
``housebench policy serve housebench_bc.policy:BCPolicy --params-file bc.yaml``, or name it in ``policies:``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import torch
from pydantic import BaseModel, ConfigDict, Field

from housebench.state import Action

from .features import CHUNK, decode, inputs
from .model import load


class BCParams(BaseModel):
    """Its section of params.yaml (``policies.<name>``), or the server's ``--params-file``."""

    model_config = ConfigDict(extra="forbid")
    checkpoint: Path  # what train.py wrote
    device: str = "cpu"
    stop_p: float = Field(0.5, gt=0.0, le=1.0)  # stop once the network thinks the demonstration ends here
    execute: int = Field(CHUNK, ge=1, le=CHUNK)  # steps of each chunk executed before the network is asked again


class BCPolicy:
    """The network's chunk for what it observes, its first ``execute`` steps executed before it is asked again (as
    ACT executes its chunks: a chunk commits to one smooth motion instead of re-deciding, and drifting, every step).
    The chunk's steps are relative to the state it was predicted from."""

    name: ClassVar[str] = "bc"
    Params: ClassVar[type[BaseModel]] = BCParams
    tracks: ClassVar[tuple[str, ...]] = ("state",)  # it reads the object's pose

    def __init__(self, params: BCParams) -> None:
        self.params = params
        self.net, self.meta = load(params.checkpoint, params.device)
        self.joints = self.meta["joints"]
        self.ctx: Any = None
        self.plan: list[np.ndarray] = []

    def reset(self, ctx: Any, obs: Any) -> None:
        self.ctx, self.plan = ctx, []
        ctx.log("bc_start", checkpoint=str(self.params.checkpoint), item=self.meta["item"])

    def named(self, obs: Any) -> dict[str, float]:
        """The dataset's feature names of what ``obs`` holds (see :mod:`housebench_bc.features`)."""
        named = {f"joints.{j}": obs.joints[j] for j in self.joints}
        named.update(zip(("base.x", "base.y", "base.yaw"), obs.base))
        named.update(zip(("ee_pos.x", "ee_pos.y", "ee_pos.z"), obs.ee_pos))
        named["gripper_opening"] = obs.gripper_opening
        item = obs.objects[self.meta["item"]]
        named.update(zip((f"objects.{self.meta['item']}.{k}" for k in ("x", "y", "z")), item.pos))
        named.update(zip((f"objects.{self.meta['item']}.{k}" for k in ("qw", "qx", "qy", "qz")), item.quat))
        return named

    def predict(self, obs: Any) -> list[np.ndarray] | None:
        """The chunk for ``obs`` as absolute env actions; None when the network says the demonstration ends."""
        named = self.named(obs)
        x = torch.from_numpy(inputs(named, self.joints, self.meta["item"]))[None].to(self.params.device)
        with torch.no_grad():
            chunk, done = self.net.act(x)
        if float(done[0]) >= self.params.stop_p:
            self.ctx.log("bc_stop", p=float(done[0]))
            return None
        return [decode(step, named, self.joints) for step in chunk[0].cpu().numpy().astype(np.float64)]

    def act(self, obs: Any) -> Action:
        if not self.plan:
            chunk = self.predict(obs)
            if chunk is None:
                return Action(stop=True)
            self.plan = chunk[: self.params.execute]
        a = self.plan.pop(0)
        n = len(self.joints)
        joints = dict(zip(self.joints, a[:n].tolist()))
        return Action(joints=joints, base=tuple(a[n : n + 3].tolist()), gripper=float(a[-1]))
