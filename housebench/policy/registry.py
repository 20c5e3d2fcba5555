"""The policies by name: ``rollout.policies`` and ``make_env`` pick from here."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from housebench.policy.base import NoopPolicy, Policy
from housebench.policy.planned import PlannedPolicy
from housebench.policy.scripted import ScriptedPolicy

POLICIES: dict[str, type] = {"noop": NoopPolicy, "planned": PlannedPolicy, "scripted": ScriptedPolicy}


def make_policy(name: str, params: dict[str, Any] | None = None) -> Policy:
    """A fresh policy by registered name, its params (``policies.<name>`` of params.yaml) validated; an
    unknown name or param is a one-line error naming the key."""
    if name not in POLICIES:
        raise ValueError(f"policy: unknown name '{name}' (known: {', '.join(sorted(POLICIES))})")
    cls = POLICIES[name]
    try:
        return cls(cls.Params.model_validate(params or {}))
    except ValidationError as err:
        first = err.errors()[0]
        key = ".".join(str(part) for part in ("policies", name, *first["loc"]))
        raise ValueError(f"{key}: {first['msg']}") from None
