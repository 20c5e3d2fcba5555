"""A policy server: any policy behind a websocket (msgpack messages, :mod:`housebench.remote.wire`), so a policy
that lives in another environment, another Python or on a GPU machine joins the benchmark through
:class:`housebench.remote.client.RemotePolicy`.

One connection is one episode of one rollout worker: the client says hello (its housebench version, protocol,
track and observation layout) and the server answers with the policy it serves or refuses; then ``reset`` makes a
fresh policy instance and ``act`` steps it. Each reply carries the events the policy logged through ``ctx.log``
since the last one, so the client logs them at the same simulated time as an in-process policy would. Every
connection runs in its own thread (websockets' threaded server), so one server serves many workers at once.
"""

from __future__ import annotations

import dataclasses
import logging
import sys
import traceback
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection
from websockets.sync.server import serve as ws_serve

from housebench import __version__
from housebench.names import printable
from housebench.policy.registry import PolicySpec, resolve
from housebench.remote import wire

MB = 1 << 20
MAX_MESSAGE_MB = 16  # default bound on one message, either way (a 320x240 RGB-D observation is about 0.5 MB)
HELLO_TIMEOUT_S = 10.0  # a client that connects and says nothing is dropped after this long
IDLE_TIMEOUT_S = 600.0  # a client that stops asking mid-episode is dropped after this long

log = logging.getLogger("housebench.remote.serve")


SERVED = "served"  # the name an import path is resolved under (it has no entry in params.yaml)


def spec_for(policy: str, params: dict[str, Any] | None = None) -> PolicySpec:
    """The policy to serve: an import path ``module:Class``, or a name (built-in or entry point), with ``params``
    its own params, checked by making one instance. A bad one is a one-line ``ValueError`` that names the
    command's own words (``POLICY``, ``params``), not a params.yaml key."""
    path = ":" in policy
    name = SERVED if path else policy
    try:
        spec = resolve(name, {"class": policy, **(params or {})}) if path else resolve(policy, params or None)
        spec.make()
    except ValueError as err:
        text = str(err)
        for key, word in (
            (f"policies.{name}.class", "POLICY"),
            (f"policies.{name}.", "params: "),
            (f"policies.{name}", "POLICY"),
        ):
            if text.startswith(key):
                raise ValueError(word + text[len(key) :]) from None
        raise
    own = getattr(spec.cls, "name", None)  # the welcome names the class's own name where it has one
    return dataclasses.replace(spec, name=own) if path and isinstance(own, str) and own else spec


class Session:
    """One connection: the handshake, then a fresh policy per ``reset`` and its actions."""

    def __init__(self, spec: PolicySpec, conn: ServerConnection) -> None:
        self.spec, self.conn = spec, conn
        self.policy = None
        self.events: list[tuple[str, dict]] = []

    def log_event(self, kind: str, **detail: Any) -> None:
        self.events.append((kind, detail))

    def send(self, message: dict[str, Any]) -> None:
        self.conn.send(wire.pack(message))

    def taken_events(self) -> list[dict[str, Any]]:
        events, self.events = self.events, []
        return wire.encode_events(events)

    def handshake(self) -> bool:
        hello = wire.unpack(self.conn.recv(timeout=HELLO_TIMEOUT_S), {"hello": wire.Hello}, "hello")
        refusal = None
        if hello.protocol != wire.PROTOCOL:
            refusal = f"protocol {hello.protocol} (this server speaks {wire.PROTOCOL}; housebench {__version__})"
        elif hello.observation != wire.OBSERVATION_FIELDS:
            refusal = (
                f"observation layout {list(hello.observation)} differs from this server's "
                f"{list(wire.OBSERVATION_FIELDS)} (housebench {hello.housebench} vs {__version__})"
            )
        elif hello.track not in self.spec.tracks:
            refusal = (
                f"policy '{self.spec.name}' ({self.spec.class_path}) works on the {' and '.join(self.spec.tracks)} "
                f"track, not '{hello.track}'"
            )
        if refusal:
            self.send({"type": "refused", "reason": refusal})
            return False
        self.send(
            {
                "type": "welcome",
                "protocol": wire.PROTOCOL,
                "housebench": __version__,
                "policy": self.spec.name,
                "class_path": self.spec.class_path,
                "version": self.spec.version,
                "tracks": list(self.spec.tracks),
            }
        )
        return True

    def handle(self, message: wire.Strict) -> dict[str, Any]:
        """The reply to one request."""
        if isinstance(message, wire.Reset):
            self.events = []
            ctx = wire.decode_context(message.context, self.log_event)
            self.policy = self.spec.make()  # a fresh instance per episode
            self.policy.reset(ctx, wire.decode_observation(message.observation))
            return {"type": "ready", "events": self.taken_events()}
        if isinstance(message, wire.Act):
            if self.policy is None:
                raise wire.WireError("act before reset")
            action = self.policy.act(wire.decode_observation(message.observation))
            return {"type": "action", "action": wire.encode_action(action), "events": self.taken_events()}
        raise wire.WireError(f"unexpected message '{message.type}' after the handshake")

    def run(self) -> None:
        try:
            if not self.handshake():
                return
        except wire.WireError as err:  # a client that does not speak the protocol hears why, then is dropped
            self.send({"type": "error", "reason": str(err)})
            raise
        while True:
            try:
                raw = self.conn.recv(timeout=IDLE_TIMEOUT_S)
            except ConnectionClosed:
                return  # the episode is over (or the worker is gone): nothing to answer
            try:
                # packed here too: an event detail msgpack cannot carry is the policy's error, answered as one
                reply = wire.pack(self.handle(wire.unpack(raw, {"reset": wire.Reset, "act": wire.Act}, "request")))
            except Exception as err:  # noqa: BLE001 - the policy's error ends this episode, not the server
                log.warning("%s: %s", self.conn.remote_address, traceback.format_exc(limit=4))
                self.send({"type": "error", "reason": printable(f"{type(err).__name__}: {err}")})
                return
            self.conn.send(reply)


def handler(spec: PolicySpec) -> Callable[[ServerConnection], None]:
    def session(conn: ServerConnection) -> None:
        try:
            Session(spec, conn).run()
        except (ConnectionClosed, TimeoutError, wire.WireError) as err:
            log.warning("%s: %s", conn.remote_address, printable(f"{type(err).__name__}: {err}"))

    return session


def serve(
    policy: str,
    host: str = "127.0.0.1",
    port: int = 8765,
    params: dict[str, Any] | None = None,
    max_message_mb: float = MAX_MESSAGE_MB,
    on_ready: Callable[[str, int], None] | None = None,
) -> None:
    """Serve ``policy`` (import path or name, with its ``params``) on ``host:port`` until interrupted;
    ``on_ready(host, port)`` once listening (port 0 picks a free port)."""
    spec = spec_for(policy, params)  # a bad policy or params fail here, before any client connects
    with ws_serve(
        handler(spec),
        host,
        port,
        max_size=int(max_message_mb * MB),
        compression=None,  # observations are mostly floats and images: deflate costs more than it saves on loopback
    ) as server:
        bound_host, bound_port = server.socket.getsockname()[:2]
        if on_ready is not None:
            on_ready(bound_host, bound_port)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("stopped", file=sys.stderr)
