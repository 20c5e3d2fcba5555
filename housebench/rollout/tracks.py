"""Observation tracks: what a policy is shown of the full observation.

``state`` is the privileged observation (every prop's and part's pose, temperatures, the simulator
state) plus the task's instruction. ``vision`` is what a robot with a head camera could know: its own
joints and joint velocities, base pose, gripper pose and opening, whether each finger touches something
(not what), the head camera's RGB and depth at a stated size, and the instruction; no prop, part or
temperature, no simulator state. A policy is ranked only beside policies of its own track.
"""

from __future__ import annotations

import dataclasses

from housebench.policy.base import TRACKS
from housebench.state import FINGERS, Observation

__all__ = ["DEFAULT_IMAGE_SIZE", "TOUCH", "TRACKS", "VISION_CAMERAS", "cameras_for", "check_track", "view"]
DEFAULT_IMAGE_SIZE = (160, 120)  # width, height of the vision track's head images
VISION_CAMERAS = ("head",)
TOUCH = "contact"  # what a finger touching anything reports on the vision track (no names)


def check_track(track: str) -> str:
    """``track`` if it is one of :data:`TRACKS`, else a one-line ``ValueError``."""
    if track not in TRACKS:
        raise ValueError(f"track: {track!r} is not one of {', '.join(TRACKS)}")
    return track


def cameras_for(track: str, cameras: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The cameras an episode renders: those asked for, and on the vision track the head camera."""
    extra = VISION_CAMERAS if check_track(track) == "vision" else ()
    return tuple(dict.fromkeys((*extra, *cameras)))


def view(obs: Observation, track: str) -> Observation:
    """The track's view of the full observation ``obs`` (which carries the instruction already)."""
    if check_track(track) == "state":
        return obs
    head = {key: image for key, image in obs.images.items() if key.split("/")[0] in VISION_CAMERAS}
    return dataclasses.replace(
        obs,
        finger_contacts={f: (TOUCH,) if obs.finger_contacts.get(f) else () for f in FINGERS},
        objects={},
        parts={},
        temperatures_c={},
        state=None,
        images=head,
    )
