"""Policies: given the simulation and the task, choose actuator targets each control step."""

from __future__ import annotations

from typing import Protocol

from housebench.sim.backend import Simulation
from housebench.tasks.spec import TaskVariant


class Policy(Protocol):
    name: str

    def reset(self, sim: Simulation, task: TaskVariant) -> None:
        """Called once before the first step of an episode."""

    def act(self, sim: Simulation) -> dict[str, float]:
        """Actuator position targets for the next control step (empty: hold the current targets)."""


class NoopPolicy:
    """The matched control: it never acts, so an episode measures what the scene does on its own."""

    name = "noop"

    def reset(self, sim: Simulation, task: TaskVariant) -> None:
        del sim, task

    def act(self, sim: Simulation) -> dict[str, float]:
        del sim
        return {}


POLICIES: dict[str, type] = {"noop": NoopPolicy}


def make_policy(name: str) -> Policy:
    """A fresh policy by registered name; an unknown name is a one-line error."""
    try:
        return POLICIES[name]()
    except KeyError:
        raise ValueError(f"policy: unknown name '{name}' (known: {', '.join(sorted(POLICIES))})") from None
