"""Observation tracks: what a policy is shown of an episode.

``state`` shows everything (the privileged observation: every prop's and part's pose, temperatures, the
simulator state). ``vision`` shows what the robot's own sensors give: its joints, base and gripper, whether each
finger touches something, the head camera's RGB and depth; no prop or part pose. Both carry the instruction.
"""

from __future__ import annotations

import dataclasses

from housebench.policy.base import TRACKS
from housebench.state import Observation

VISION_CAMERA = "head"
TOUCHING = "contact"  # what a finger reports on the vision track when it touches anything


def check_track(track: str) -> str:
    if track not in TRACKS:
        raise ValueError(f"rollout.track: unknown '{track}' (known: {', '.join(TRACKS)})")
    return track


def view(obs: Observation, track: str, instruction: str) -> Observation:
    """``obs`` as ``track`` shows it, with the instruction."""
    if track == "state":
        return dataclasses.replace(obs, instruction=instruction)
    return dataclasses.replace(
        obs,
        finger_contacts={side: (TOUCHING,) if touched else () for side, touched in obs.finger_contacts.items()},
        objects={},
        parts={},
        temperatures_c={},
        state=None,
        images={k: v for k, v in obs.images.items() if k.startswith(f"{VISION_CAMERA}/")},
        instruction=instruction,
    )
