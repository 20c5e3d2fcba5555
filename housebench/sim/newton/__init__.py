"""Newton backend (optional: ``pip install -e .[newton]``): NVIDIA's open-source engine loads the composed
stage with its own USD importer (not our compiler), so a scene that behaves the same here says in USD
everything the MuJoCo backend does in code."""

from housebench.sim.newton.backend import NewtonBackend

__all__ = ["NewtonBackend"]
