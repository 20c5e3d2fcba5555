"""The remote policy's messages: msgpack maps validated by strict pydantic models, in and out of
:class:`Observation`, :class:`Action` and the reset context.

Every float travels as a msgpack float64 (or inside JSON written by pydantic, which prints the shortest
text that reads back to the same double), so a policy served in another process sees bit-identical numbers
and returns bit-identical actions: the same verdicts in and out of process. Images travel as
``{dtype, shape, bytes}`` (little-endian, C order). Task, scene annotations and the simulator state travel as
their own pydantic JSON and are read back by their own models, with their own checks.

Decoding is strict: a missing or unknown key, a wrong type, NaN or infinity, an image whose bytes do not
match its shape: one-line :class:`WireError` naming the field. Arrays decode as tuples (``use_list=False``), so
the models can be strict about them.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Annotated, Any, Literal

import msgpack
import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from housebench.annotations.schema import SceneAnnotations
from housebench.jsonfile import one_line
from housebench.names import printable
from housebench.numbers import Finite, Seconds
from housebench.policy.base import PolicyContext
from housebench.state import Action, ObjectState, Observation, SimState
from housebench.tasks.spec import TaskVariant

PROTOCOL = 1  # bumped on any change of the messages below
TRACKS = ("state", "vision")
IMAGE_DTYPES = ("bool", "uint8", "uint16", "int32", "float32", "float64")
MAX_IMAGE_DIM = 16384  # pixels (or channels) along one axis
MAX_EVENTS = 10_000  # events one reply may carry

Name = Annotated[str, Field(max_length=512)]
Vec3f = tuple[Finite, Finite, Finite]


class WireError(ValueError):
    """A message that is not what the protocol says; one line naming the field."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)


class ImageWire(Strict):
    dtype: Literal[IMAGE_DTYPES]
    shape: tuple[Annotated[int, Field(ge=0, le=MAX_IMAGE_DIM)], ...] = Field(min_length=1, max_length=4)
    data: bytes = Field(alias="bytes")

    @model_validator(mode="after")
    def _sized(self) -> ImageWire:
        want = math.prod(self.shape) * np.dtype(self.dtype).itemsize
        if len(self.data) != want:
            raise ValueError(f"{len(self.data)} bytes for shape {list(self.shape)} of {self.dtype} (want {want})")
        return self

    def array(self) -> np.ndarray:
        # a copy: writable, like the simulator's own arrays, and not tied to the message buffer
        return np.frombuffer(self.data, dtype=np.dtype(self.dtype).newbyteorder("<")).reshape(self.shape).copy()


class ObservationWire(Strict):
    time: Finite
    joints: dict[Name, Finite]
    joint_velocities: dict[Name, Finite]
    base: Vec3f
    ee_pos: Vec3f
    ee_quat: tuple[Finite, Finite, Finite, Finite]
    gripper_opening: Finite
    finger_contacts: dict[Name, tuple[Name, ...]]
    objects: dict[Name, ObjectState]
    parts: dict[Name, Finite]
    temperatures_c: dict[Name, Finite]
    state: str | None  # SimState JSON; None on the vision track
    images: dict[Name, ImageWire]
    instruction: str


class ActionWire(Strict):
    joints: dict[Name, Finite]
    base: Vec3f | None
    gripper: Finite | None
    stop: bool


class ContextWire(Strict):
    track: Literal[TRACKS]
    instruction: str
    control_dt: Annotated[float, Field(gt=0.0, le=60.0, allow_inf_nan=False)]
    horizon_s: Seconds
    task: str | None  # TaskVariant JSON; None on the vision track
    scene: str | None  # SceneAnnotations JSON; None on the vision track


class EventWire(Strict):
    kind: Name
    detail: dict[Name, Any]


# ---- the messages, client to server --------------------------------------------------------------------


class Hello(Strict):
    type: Literal["hello"]
    protocol: int
    housebench: str
    track: Literal[TRACKS]
    observation: tuple[Name, ...]  # the Observation's field names, in order
    images: dict[Name, tuple[str, tuple[int, ...]]]  # camera -> (dtype, shape) of the first observation


class Reset(Strict):
    type: Literal["reset"]
    context: ContextWire
    observation: ObservationWire


class Act(Strict):
    type: Literal["act"]
    observation: ObservationWire


# ---- server to client ----------------------------------------------------------------------------------


class Welcome(Strict):
    type: Literal["welcome"]
    protocol: int
    housebench: str
    policy: Name
    class_path: Name
    version: Name
    tracks: tuple[Literal[TRACKS], ...]


class Refused(Strict):
    type: Literal["refused"]
    reason: str


class Ready(Strict):
    type: Literal["ready"]
    events: tuple[EventWire, ...] = Field(max_length=MAX_EVENTS)


class Reply(Strict):
    type: Literal["action"]
    action: ActionWire | None
    events: tuple[EventWire, ...] = Field(max_length=MAX_EVENTS)


class Failed(Strict):
    type: Literal["error"]
    reason: str


CLIENT_MESSAGES = {"hello": Hello, "reset": Reset, "act": Act}
SERVER_MESSAGES = {"welcome": Welcome, "refused": Refused, "ready": Ready, "action": Reply, "error": Failed}


# ---- bytes ---------------------------------------------------------------------------------------------


def pack(message: dict[str, Any]) -> bytes:
    """A message (plain data, as the ``encode_*`` functions give) as msgpack bytes."""
    return msgpack.packb(message, use_bin_type=True)


def unpack(data: bytes | str, kinds: dict[str, type[Strict]], what: str) -> Strict:
    """The message in ``data``, one of ``kinds`` by its ``type`` key; anything else: :class:`WireError`."""
    if not isinstance(data, bytes):
        raise WireError(f"{what}: a text frame, not msgpack bytes")
    try:
        raw = msgpack.unpackb(data, raw=False, use_list=False, strict_map_key=True)
    except Exception as err:  # noqa: BLE001 - msgpack raises several types on bad bytes; all mean one thing
        raise WireError(f"{what}: not msgpack ({type(err).__name__}: {printable(str(err), 120)})") from None
    if not isinstance(raw, dict):
        raise WireError(f"{what}: a msgpack {type(raw).__name__}, not a map")
    kind = raw.get("type")
    if kind not in kinds:
        shown = printable(repr(kind), 60)
        raise WireError(f"{what}: type: {shown} is not one of {', '.join(kinds)}")
    try:
        return kinds[kind].model_validate(raw)
    except ValidationError as err:
        raise WireError(printable(one_line(f"{what} {kind}", err), 500)) from None


# ---- models <-> wire: encoding gives plain data (msgpack packs it; the receiver validates it) -----------

_DTYPE_NAMES = {np.dtype(name).newbyteorder("<"): name for name in IMAGE_DTYPES}


def encode_image(image: np.ndarray) -> dict[str, Any]:
    array = np.ascontiguousarray(image)
    name = _DTYPE_NAMES.get(array.dtype) or _DTYPE_NAMES.get(array.dtype.newbyteorder("<"))
    if name is None:
        raise WireError(f"image: dtype {array.dtype} is not one of {', '.join(IMAGE_DTYPES)}")
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    return {"dtype": name, "shape": array.shape, "bytes": array.tobytes()}


def _floats(values: dict[str, float]) -> dict[str, float]:
    return {k: float(v) for k, v in values.items()}


def encode_observation(obs: Observation) -> dict[str, Any]:
    """``obs`` as plain data for :class:`ObservationWire`."""
    state = obs.state
    return {
        "time": float(obs.time),
        "joints": _floats(obs.joints),
        "joint_velocities": _floats(obs.joint_velocities),
        "base": [float(v) for v in obs.base],
        "ee_pos": [float(v) for v in obs.ee_pos],
        "ee_quat": [float(v) for v in obs.ee_quat],
        "gripper_opening": float(obs.gripper_opening),
        "finger_contacts": {k: list(v) for k, v in obs.finger_contacts.items()},
        "objects": {k: v.model_dump() for k, v in obs.objects.items()},
        "parts": _floats(obs.parts),
        "temperatures_c": _floats(obs.temperatures_c),
        "state": None if state is None else state.model_dump_json(),
        "images": {k: encode_image(v) for k, v in obs.images.items()},
        "instruction": obs.instruction,
    }


OBSERVATION_FIELDS = tuple(f.name for f in dataclasses.fields(Observation))


def decode_observation(wire: ObservationWire, what: str = "observation") -> Observation:
    """The :class:`Observation` of a validated wire model; the state JSON is read by :class:`SimState`."""
    state = None
    if wire.state is not None:
        try:
            state = SimState.model_validate_json(wire.state)
        except ValidationError as err:
            raise WireError(printable(one_line(f"{what}.state", err))) from None
    return Observation(
        time=wire.time,
        joints=dict(wire.joints),
        joint_velocities=dict(wire.joint_velocities),
        base=wire.base,
        ee_pos=wire.ee_pos,
        ee_quat=wire.ee_quat,
        gripper_opening=wire.gripper_opening,
        finger_contacts=dict(wire.finger_contacts),
        objects=dict(wire.objects),
        parts=dict(wire.parts),
        temperatures_c=dict(wire.temperatures_c),
        state=state,
        images={k: v.array() for k, v in wire.images.items()},
        instruction=wire.instruction,
    )


def encode_action(action: Action | None) -> dict[str, Any] | None:
    if action is None:
        return None
    return {
        "joints": {str(k): float(v) for k, v in action.joints.items()},
        "base": None if action.base is None else [float(v) for v in action.base],
        "gripper": None if action.gripper is None else float(action.gripper),
        "stop": bool(action.stop),
    }


def decode_action(wire: ActionWire | None) -> Action | None:
    if wire is None:
        return None
    return Action(joints=dict(wire.joints), base=wire.base, gripper=wire.gripper, stop=wire.stop)


def encode_context(ctx: PolicyContext) -> dict[str, Any]:
    task, scene = ctx.task, ctx.scene
    return {
        "track": ctx.track,
        "instruction": ctx.instruction,
        "control_dt": float(ctx.control_dt),
        "horizon_s": float(ctx.horizon_s),
        "task": None if task is None else task.model_dump_json(),
        "scene": None if scene is None else scene.model_dump_json(),
    }


def decode_context(wire: ContextWire, log: Any) -> PolicyContext:
    """The :class:`PolicyContext` of a validated wire model, its ``log`` the given callable."""
    models = {}
    for key, model in (("task", TaskVariant), ("scene", SceneAnnotations)):
        text = getattr(wire, key)
        try:
            models[key] = None if text is None else model.model_validate_json(text)
        except ValidationError as err:
            raise WireError(printable(one_line(f"context.{key}", err))) from None
    return PolicyContext(
        models["task"],
        models["scene"],
        wire.control_dt,
        wire.horizon_s,
        log,
        track=wire.track,
        instruction=wire.instruction,
    )


def encode_events(events: list[tuple[str, dict]]) -> list[dict[str, Any]]:
    return [{"kind": kind, "detail": detail} for kind, detail in events]
