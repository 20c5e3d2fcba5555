"""The remote policy's wire format: exact round trips (floats to the last bit, images by dtype and shape, the task
and scene by their own models) and strict refusals, each one line naming the field."""

from __future__ import annotations

import math

import msgpack
import numpy as np
import pytest

from housebench.policy.base import PolicyContext
from housebench.remote import wire
from housebench.state import Action, ObjectState, Observation, SimState


def observation(**change) -> Observation:
    state = SimState(
        time=0.1 + 0.2,  # 0.30000000000000004: a float that a decimal detour would change
        objects={"box": ObjectState(pos=(1 / 3, 2.0, 5e-324), quat=(1.0, 0.0, 0.0, 0.0), linvel=(0.1, -0.0, 1e-300))},
        joints={"robot0:torso_lift_joint": math.pi / 7},
        temperatures_c={"box": 21.000000000000004},
        contacts={"left": ["box"]},
    )
    values = dict(
        time=state.time,
        joints={"robot0:torso_lift_joint": math.pi / 7, "robot0:base_x_joint": -1e-17},
        joint_velocities={"robot0:torso_lift_joint": 2.5e-9},
        base=(1.0000000000000002, -3.3, math.e),
        ee_pos=(0.1, 0.2, 0.3),
        ee_quat=(math.sqrt(0.5), 0.0, math.sqrt(0.5), 0.0),
        gripper_opening=0.07,
        finger_contacts={"left": ("box", "house"), "right": ()},
        objects=dict(state.objects),
        parts={"fridge/door": 0.25},
        temperatures_c={"box": 21.000000000000004},
        state=state,
        images={
            "head/rgb": np.random.default_rng(0).integers(0, 255, (4, 6, 3), dtype=np.uint8),
            "head/depth": np.random.default_rng(1).random((4, 6), dtype=np.float32),
        },
    )
    return Observation(**(values | change))


def round_trip(obs: Observation) -> Observation:
    data = wire.pack({"type": "act", "observation": wire.encode_observation(obs)})
    return wire.decode_observation(wire.unpack(data, wire.CLIENT_MESSAGES, "request").observation)


def test_observation_round_trips_exactly():
    obs = observation()
    back = round_trip(obs)
    for field in wire.OBSERVATION_FIELDS:
        if field != "images":
            assert getattr(back, field) == getattr(obs, field), field
    assert back.state.model_dump_json() == obs.state.model_dump_json()
    for name, image in obs.images.items():
        assert back.images[name].dtype == image.dtype and back.images[name].shape == image.shape
        assert back.images[name].tobytes() == image.tobytes() and back.images[name].flags.writeable
    assert round_trip(observation(state=None, objects={})).state is None  # the vision track's shape


def test_action_and_context_round_trip_exactly():
    for action in (
        None,
        Action(),
        Action({"robot0:shoulder_pan_joint": 0.1 + 0.2}, (1 / 3, 2.0, -math.pi), 0.05, True),
    ):
        data = wire.pack({"type": "action", "action": wire.encode_action(action), "events": []})
        assert wire.decode_action(wire.unpack(data, wire.SERVER_MESSAGES, "answer").action) == action
    ctx = PolicyContext(None, None, 0.1, 12.5, print)
    data = wire.pack(
        {"type": "reset", "context": wire.encode_context(ctx), "observation": wire.encode_observation(observation())}
    )
    back = wire.decode_context(wire.unpack(data, wire.CLIENT_MESSAGES, "request").context, print)
    assert (back.task, back.scene, back.control_dt, back.horizon_s, back.log) == (None, None, 0.1, 12.5, print)


def mutated(change) -> bytes:
    """An ``act`` message whose observation ``change`` (a function of its dict) made wrong."""
    message = msgpack.unpackb(wire.pack({"type": "act", "observation": wire.encode_observation(observation())}))
    change(message["observation"])
    return msgpack.packb(message, use_bin_type=True)


BAD = {
    "observation.time: Input should be a finite number": lambda o: o.update(time=float("nan")),
    "observation.gripper_opening: Input should be a finite number": lambda o: o.update(gripper_opening=math.inf),
    "observation.colour: Extra inputs are not permitted": lambda o: o.update(colour=1),
    "observation.joints: Field required": lambda o: o.pop("joints"),
    "observation.base[2]: Field required": lambda o: o.update(base=[1.0, 2.0]),
    "observation.ee_pos[0]: Input should be a valid number": lambda o: o.update(ee_pos=["1", 2.0, 3.0]),
    "observation.instruction: Input should be a valid string": lambda o: o.update(instruction=b"go"),
    "observation.images.head/rgb: 71 bytes for shape [4, 6, 3] of uint8 (want 72)": lambda o: o["images"][
        "head/rgb"
    ].update(bytes=b"\0" * 71),
    "observation.images.head/rgb.dtype: Input should be": lambda o: o["images"]["head/rgb"].update(dtype="object"),
    "observation.state: objects.box.quat: quaternion": lambda o: o.update(
        state=o["state"].replace('"quat":[1.0,0.0,0.0,0.0]', '"quat":[2.0,0.0,0.0,0.0]')
    ),
}


@pytest.mark.parametrize("message", BAD)
def test_bad_fields_are_one_line_naming_the_field(message):
    with pytest.raises(wire.WireError) as err:
        request = wire.unpack(mutated(BAD[message]), wire.CLIENT_MESSAGES, "request")
        wire.decode_observation(request.observation)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_bytes_that_are_not_a_message_are_one_line():
    cases = {
        b"\xc1 junk": "request: not msgpack",
        msgpack.packb([1, 2]): "request: a msgpack tuple, not a map",
        msgpack.packb({"type": "act\x1b[2J"}): "request: type: 'act\\x1b[2J' is not one of hello, reset, act",
        "text": "request: a text frame, not msgpack bytes",
        msgpack.packb({1: 2}): "request: not msgpack",  # keys must be strings
        b"\x91" * 100_000: "request: not msgpack",  # nested past msgpack's depth limit
    }
    for data, message in cases.items():
        with pytest.raises(wire.WireError) as err:
            wire.unpack(data, wire.CLIENT_MESSAGES, "request")
        assert str(err.value).startswith(message) and "\x1b" not in str(err.value), str(err.value)
