"""The Newton backend: import a composed stage with ``newton.ModelBuilder.add_usd`` and step it with Newton's
MuJoCo solver on the CPU."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

import newton
import newton.usd
import warp as wp

from housebench.sim.newton.simulation import NewtonSimulation

TIMESTEP = 0.002  # s, when the stage's PhysicsScene authors no steps per second
# Newton's warnings about our scenes that change no physics (measured: bench/RESULTS.md, "Newton against MuJoCo"):
# - the part joints: the house authors each as a fixed-base articulation of one body (ArticulationRootAPI on the
#   joint), but pxr's UsdPhysics parser lists no body for a one-body articulation, so the joint reaches the
#   solver outside any articulation and SolverMuJoCo builds it as a body on that joint from the world: the same
#   MuJoCo body and joint as the articulation would give;
# - the robot's 1 mm contact margin (Fetch's MJCF), which SolverMuJoCo zeroes under multi-contact CCD: the
#   MuJoCo backend with the margin at 0 gives the scripted policy the same verdicts.
HARMLESS = (
    r"SolverMuJoCo is converting \d+ joint\(s\) outside articulations as standalone world roots: \['/World/House/",
    r"Geom /World/Robot/.* authored margin=0\.00100",
)


@dataclass
class NewtonBackend:
    """``gap``: Newton's contact detection gap (m; its default 0.1 m keeps thousands of idle contacts in the
    house; it matters only with ``contacts="newton"``). ``contacts``: ``"mujoco"`` (MuJoCo's own collision
    detection inside the solver) or ``"newton"`` (Newton's collision pipeline, its contacts fed to the
    solver; it needs MuJoCo Warp's kernels). ``mujoco_cpu``: step MuJoCo's C library (fast on a CPU) instead of
    MuJoCo Warp's kernels; only with MuJoCo's own contacts."""

    name: str = "newton"
    gap: float = 0.0
    contacts: str = "mujoco"
    mujoco_cpu: bool = True

    @property
    def version(self) -> str:
        return newton.__version__

    def build(self, stage_path: Path) -> tuple[newton.Model, float]:
        """The Newton model of the stage (every prim read by Newton's USD importer with its Newton, PhysX and
        MuJoCo schema resolvers) and the stage's timestep."""
        wp.config.quiet = True
        builder = newton.ModelBuilder()
        newton.solvers.SolverMuJoCo.register_custom_attributes(builder)
        builder.rigid_gap = self.gap
        found = builder.add_usd(
            str(stage_path),
            schema_resolvers=[
                newton.usd.SchemaResolverNewton(),
                newton.usd.SchemaResolverPhysx(),
                newton.usd.SchemaResolverMjc(),
            ],
            collapse_fixed_joints=True,
            enable_self_collisions=False,
            load_visual_shapes=False,
        )
        return builder.finalize(device="cpu"), found.get("physics_dt") or TIMESTEP

    def load(self, stage_path: Path) -> NewtonSimulation:
        if self.contacts not in ("mujoco", "newton"):
            raise ValueError(f"newton backend: contacts must be 'mujoco' or 'newton', not {self.contacts!r}")
        model, dt = self.build(stage_path)
        own = self.contacts == "mujoco"
        cpu = self.mujoco_cpu and own
        # multi-contact CCD: without it Newton falls back to libccd, whose single contact lets a box-like prop
        # (a book on a table) sink 2 cm into its support
        with warnings.catch_warnings():
            for message in HARMLESS:
                warnings.filterwarnings("ignore", message, newton.NewtonWarning)
            solver = newton.solvers.SolverMuJoCo(
                model, use_mujoco_cpu=cpu, use_mujoco_contacts=own, enable_multiccd=own
            )
        pipeline = None if own else newton.CollisionPipeline(model)
        return NewtonSimulation(model, solver, dt, stage_path, pipeline)
