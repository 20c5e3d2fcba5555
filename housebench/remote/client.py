"""A policy served by ``housebench policy serve`` (:mod:`housebench.remote.serve`), reached over a websocket.

``policies: {vla: {class: remote, address: "127.0.0.1:8765", timeout_s: 10}}`` in params.yaml. Each episode opens
a fresh connection at ``reset`` (a server restarted between episodes costs nothing) and closes it at the end. A
server that does not answer within ``timeout_s``, drops the connection, answers what the protocol does not allow or
more than ``max_message_mb``: :class:`RemotePolicyError`, one line naming the address, and the rollout records
that episode as a crash with the reason; the batch goes on.
"""

from __future__ import annotations

import re
import weakref
from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, Field, ValidationError
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from housebench import __version__
from housebench.jsonfile import one_line
from housebench.names import printable
from housebench.policy.base import PolicyContext, PolicyParams
from housebench.remote import wire
from housebench.state import Action, Observation

MB = 1 << 20
ADDRESS = re.compile(r"^(?P<host>[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\]):(?P<port>[0-9]{1,5})$")


def _address(value: str) -> str:
    match = ADDRESS.match(value)
    if not match or not 0 < int(match["port"]) < 65536:
        raise ValueError(f"'{printable(value, 80)}' is not 'host:port' (e.g. 127.0.0.1:8765)")
    return value


class RemoteParams(PolicyParams):
    """Where the server is and how long to wait for it."""

    address: Annotated[str, AfterValidator(_address)]
    timeout_s: float = Field(10.0, gt=0.0, le=600.0, allow_inf_nan=False)  # per step: reset or act
    connect_timeout_s: float = Field(10.0, gt=0.0, le=600.0, allow_inf_nan=False)  # opening and handshake
    max_message_mb: float = Field(16.0, gt=0.0, le=1024.0, allow_inf_nan=False)  # either way


class RemotePolicyError(RuntimeError):
    """The server could not be reached, refused, stopped answering or answered out of protocol (one line)."""


class Link:
    """One open connection to the server, with the handshake done; every failure a :class:`RemotePolicyError`."""

    def __init__(self, params: RemoteParams, track: str, first: Observation) -> None:
        self.params = params
        self.where = f"remote policy {params.address}"
        try:
            self.conn: ClientConnection = connect(
                f"ws://{params.address}",
                open_timeout=params.connect_timeout_s,
                close_timeout=1.0,
                max_size=int(params.max_message_mb * MB),
                compression=None,
            )
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as err:
            raise self.error(f"cannot connect: {type(err).__name__}: {err}") from None
        self._closer = weakref.finalize(self, self.conn.close)
        hello = {
            "type": "hello",
            "protocol": wire.PROTOCOL,
            "housebench": __version__,
            "track": track,
            "observation": list(wire.OBSERVATION_FIELDS),
            "images": {k: (str(v.dtype), list(v.shape)) for k, v in first.images.items()},
        }
        answer = self.ask(hello, {"welcome": wire.Welcome, "refused": wire.Refused}, params.connect_timeout_s)
        if isinstance(answer, wire.Refused):
            self.close()
            raise self.error(f"refused: {answer.reason}")
        self.welcome: wire.Welcome = answer

    def error(self, what: str) -> RemotePolicyError:
        return RemotePolicyError(printable(f"{self.where}: {what}", 500))

    def ask(self, message: dict[str, Any], kinds: dict[str, type[wire.Strict]], timeout_s: float) -> wire.Strict:
        """Send ``message`` and read the answer, one of ``kinds`` or the server's error."""
        try:
            self.conn.send(wire.pack(message))
            raw = self.conn.recv(timeout=timeout_s)
        except TimeoutError:
            raise self.error(f"no answer in {timeout_s} s") from None
        except ConnectionClosed as err:
            raise self.error(f"connection lost ({_closed(err, self.params.max_message_mb)})") from None
        except OSError as err:
            raise self.error(f"connection lost ({type(err).__name__}: {err})") from None
        try:
            answer = wire.unpack(raw, {**kinds, "error": wire.Failed}, "answer")
        except wire.WireError as err:
            raise self.error(f"bad answer: {err}") from None
        if isinstance(answer, wire.Failed):
            raise self.error(f"the policy failed: {answer.reason}")
        return answer

    def close(self) -> None:
        self._closer()


def _closed(err: ConnectionClosed, max_mb: float) -> str:
    """Why the connection closed, in words (a reply over the size limit closes it with code 1009)."""
    frame = err.rcvd or err.sent
    if frame is not None and frame.code == 1009:
        return f"an answer over max_message_mb = {max_mb:g}"
    if frame is None:
        return "the server went away without closing"
    return f"closed with code {frame.code}{': ' + frame.reason if frame.reason else ''}"


class RemotePolicy:
    """A policy running in a ``housebench policy serve`` process: observations out, actions and events back."""

    name: ClassVar[str] = "remote"
    Params: ClassVar[type[PolicyParams]] = RemoteParams
    tracks: ClassVar[tuple[str, ...]] = ("state", "vision")

    def __init__(self, params: RemoteParams) -> None:
        self.params = params
        self.link: Link | None = None
        self.ctx: PolicyContext | None = None
        self.served: wire.Welcome | None = None  # what the server said it serves (policy, class_path, version)

    def reset(self, ctx: PolicyContext, obs: Observation) -> None:
        self.close()  # a fresh connection every episode
        self.ctx = ctx
        self.link = Link(self.params, ctx.track, obs)
        self.served = self.link.welcome
        message = {"type": "reset", "context": wire.encode_context(ctx), "observation": wire.encode_observation(obs)}
        ready = self.link.ask(message, {"ready": wire.Ready}, self.params.timeout_s)
        self._log(ready.events)

    def act(self, obs: Observation) -> Action | None:
        if self.link is None:
            raise RemotePolicyError(f"remote policy {self.params.address}: act before reset (or after the end)")
        message = {"type": "act", "observation": wire.encode_observation(obs)}
        reply = self.link.ask(message, {"action": wire.Reply}, self.params.timeout_s)
        self._log(reply.events)
        action = wire.decode_action(reply.action)
        if action is not None and action.stop:
            self.close()
        return action

    def close(self) -> None:
        """End the episode's connection (the rollout calls this after every episode, however it ended)."""
        if self.link is not None:
            self.link.close()
            self.link = None

    def _log(self, events: tuple[wire.EventWire, ...]) -> None:
        # the events the policy logged on the server, stamped here with this episode's simulated time
        for event in events:
            self.ctx.log(event.kind, **event.detail)


def check_reachable(params: dict[str, Any] | RemoteParams, track: str = "state") -> wire.Welcome:
    """Connect, shake hands and disconnect: the server's welcome, or a one-line :class:`RemotePolicyError` (the
    rollout calls this before it touches any output, so a configuration that cannot run fails first)."""
    if not isinstance(params, RemoteParams):
        try:
            params = RemoteParams.model_validate(params)
        except ValidationError as err:
            raise ValueError(printable(one_line("remote policy", err), 500)) from None
    blank = Observation(
        time=0.0,
        joints={},
        joint_velocities={},
        base=(0.0, 0.0, 0.0),
        ee_pos=(0.0, 0.0, 0.0),
        ee_quat=(1.0, 0.0, 0.0, 0.0),
        gripper_opening=0.0,
        finger_contacts={},
        objects={},
        parts={},
        temperatures_c={},
        state=None,
    )
    link = Link(params, track, blank)
    link.close()
    return link.welcome
