"""Policies by name: ``rollout.policies``, ``make_env``, ``housebench episode video`` and the flows pick from here.

A name resolves, in this order, to:

1. the class its ``policies.<name>`` entry of params.yaml names: ``class: "my_pkg.policies:MyPolicy"`` (an import
   path) or ``class: remote`` (a policy server, :mod:`housebench.remote.client`); the entry's other keys are the
   class's own params;
2. a built-in policy (``noop``, ``scripted``, ``planned``);
3. an installed package's entry point of that name in the group ``housebench.policies``.

A policy is a class with ``reset(ctx, obs)`` and ``act(obs)``; its ``Params`` (a pydantic model, strict) validates
the entry's params, and its ``tracks`` says which observation tracks it accepts (both when it says nothing). Every
failure is one line naming the key, e.g. ``policies.mine.class: no module named 'my_pkg'``.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from housebench.names import name_problem, printable
from housebench.params import PARAMS, load_params
from housebench.policy.base import TRACKS, Policy, PolicyParams

# the built-ins by import path, imported when named (the scripted and planned policies import the skills)
BUILTIN: dict[str, str] = {
    "noop": "housebench.policy.base:NoopPolicy",
    "planned": "housebench.policy.planned:PlannedPolicy",
    "scripted": "housebench.policy.scripted:ScriptedPolicy",
}
ENTRY_POINT_GROUP = "housebench.policies"
REMOTE = "remote"  # ``class: remote``: a policy served by ``housebench policy serve``
REMOTE_CLASS = "housebench.remote.client:RemotePolicy"
REMOTE_PREFIX = "remote:"  # an episode row's policy_class for a served policy: remote:<the server's module:Class>
CLASS_KEY = "class"


@dataclass(frozen=True)
class PolicySpec:
    """A resolved policy: its name in this run, the class, where the class comes from (``module:Class``), the
    version of the package that ships it, and its params (the entry without ``class``), not yet validated."""

    name: str
    cls: type
    class_path: str
    version: str
    params: dict[str, Any]

    @property
    def tracks(self) -> tuple[str, ...]:
        return tuple(getattr(self.cls, "tracks", TRACKS))

    def make(self) -> Policy:
        """A fresh instance, its params validated by the class's ``Params``."""
        params_model = getattr(self.cls, "Params", PolicyParams)
        try:
            return self.cls(params_model.model_validate(self.params))
        except ValidationError as err:
            first = err.errors()[0]
            key = ".".join(str(part) for part in ("policies", self.name, *first["loc"]))
            raise ValueError(f"{key}: {first['msg']}") from None


def known_names(entries: dict[str, Any] | None = None) -> list[str]:
    """Every name that resolves: the params' entries, the built-ins and the installed entry points."""
    return sorted(
        {*(entries or {}), *BUILTIN, *(ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))}
    )


def resolve(name: str, entry: dict[str, Any] | None = None) -> PolicySpec:
    """The policy ``name`` stands for, given its ``policies.<name>`` entry (None: no entry)."""
    entry = dict(entry or {})
    if problem := name_problem(name):
        raise ValueError(f"policies: {printable(problem)}")
    where = f"policies.{printable(name)}"
    if CLASS_KEY in entry:
        path = entry.pop(CLASS_KEY)
        if not isinstance(path, str):
            raise ValueError(f"{where}.{CLASS_KEY}: an import path 'module:Class' or '{REMOTE}'")
        path = REMOTE_CLASS if path == REMOTE else path
        return _spec(name, _import(path, f"{where}.{CLASS_KEY}"), path, entry, f"{where}.{CLASS_KEY}")
    if name in BUILTIN:
        return _spec(name, _import(BUILTIN[name], where), BUILTIN[name], entry, where)
    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=name):
        try:
            cls = point.load()
        except Exception as err:  # noqa: BLE001 - whatever the plug-in's import raises is one line here
            raise ValueError(f"{where}: entry point '{point.value}' failed to load: {_line(err)}") from None
        version = point.dist.version if point.dist is not None else ""
        return _spec(name, cls, point.value, entry, f"{where} (entry point {point.value})", version)
    raise ValueError(
        f"{where}: unknown policy (known: {', '.join(known_names())}; or give 'class: module:Class' in params.yaml)"
    )


def make_policy(name: str, entry: dict[str, Any] | None = None) -> Policy:
    """A fresh policy by name, its entry's params validated; any failure is a one-line error naming the key."""
    return resolve(name, entry).make()


def _import(path: str, where: str) -> type:
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"{where}: '{printable(path)}' is not an import path 'module:Class'")
    try:
        module = importlib.import_module(module_name)
    except Exception as err:  # noqa: BLE001 - a broken plug-in is one line, not a traceback
        raise ValueError(f"{where}: cannot import '{printable(module_name)}': {_line(err)}") from None
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"{where}: module '{printable(module_name)}' has no '{printable(attr)}'")
        obj = getattr(obj, part)
    return obj


def _spec(name: str, cls: Any, path: str, params: dict[str, Any], where: str, version: str | None = None) -> PolicySpec:
    if not inspect.isclass(cls) or not all(callable(getattr(cls, m, None)) for m in ("reset", "act")):
        raise ValueError(f"{where}: '{printable(path)}' is not a policy (a class with reset(ctx, obs) and act(obs))")
    params_model = getattr(cls, "Params", PolicyParams)
    if not (inspect.isclass(params_model) and issubclass(params_model, BaseModel)):
        raise ValueError(f"{where}: '{printable(path)}'.Params is not a pydantic model")
    tracks = getattr(cls, "tracks", TRACKS)
    if not tracks or any(t not in TRACKS for t in tracks):
        raise ValueError(f"{where}: '{printable(path)}'.tracks must name tracks of {TRACKS}, not {tracks!r}")
    return PolicySpec(name, cls, path, _version(path) if version is None else version, params)


@functools.cache
def _distributions() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()  # reads every installed package's file list: once a process


def _version(path: str) -> str:
    """The version of the installed distribution that ships the top-level package of ``path`` ('' if none does)."""
    top = path.split(":")[0].split(".")[0]
    for dist in _distributions().get(top, []):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return ""


def _line(err: BaseException) -> str:
    return printable(f"{type(err).__name__}: {err}").splitlines()[0] if str(err) else type(err).__name__


def policy_entries(path: Path = PARAMS) -> dict[str, dict[str, Any]]:
    """The ``policies`` section of ``path`` (every policy's class and params); empty where there is no file."""
    if not Path(path).is_file():
        return {}
    entries = load_params("policies", path)
    for name, entry in entries.items():
        if entry is not None and not isinstance(entry, dict):
            raise ValueError(f"{path}: policies.{printable(str(name))}: a mapping of the policy's class and params")
    return {name: dict(entry or {}) for name, entry in entries.items()}
