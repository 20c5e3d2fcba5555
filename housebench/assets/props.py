"""The default raw set: one small seeded factory per stand-in prop (rng -> :class:`Prop`).

Sizes and masses are real-world ones; the spec table (``assets/specs.yaml``) repeats them as the
authority. Containers have real cavities; ``notebook`` is generated standing up (as a generator
might) and laid flat by its spec entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import trimesh

from housebench.assets import shapes
from housebench.assets.shapes import Mesh, box, hull, lying, open_box_parts, revolve, union, vessel


@dataclass(frozen=True)
class Prop:
    """One stand-in prop, Z-up, metres, with per-vertex UVs and a small texture."""

    vertices: np.ndarray
    faces: np.ndarray
    uv: np.ndarray
    texture: np.ndarray  # (H, W, 3) uint8
    category: str
    description: str
    mass: float
    mu: tuple[float, float]
    pieces: list[Mesh] = field(default_factory=list)  # EmbodiedGen's convex collision pieces


Factory = Callable[[np.random.Generator], Prop]


def texture(rng: np.random.Generator, colour, bands: int = 0) -> np.ndarray:
    """A 64x64 texture: base colour, seeded speckle, optional horizontal bands (v only, seam-free)."""
    img = np.empty((64, 64, 3), float)
    img[:] = colour
    img += rng.normal(0.0, 8.0, (64, 64, 1))
    if bands:
        img *= (1.0 + 0.12 * np.sin(np.linspace(0, bands * np.pi, 64)))[:, None, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _prop(
    rng,
    mesh: Mesh,
    colour,
    category: str,
    description: str,
    mass: float,
    mu=(0.7, 0.6),
    pieces: list[Mesh] | None = None,
    uv: np.ndarray | None = None,
    bands: int = 0,
) -> Prop:
    v, f = mesh
    return Prop(
        v,
        f,
        shapes.cylindrical_uv(v) if uv is None else uv,
        texture(rng, colour, bands),
        category=category,
        description=description,
        mass=mass,
        mu=mu,
        pieces=pieces if pieces is not None else [hull(v)],
    )


def _fruit(radii, colour, category, description, mass) -> Factory:
    """A lumpy ellipsoid with a flat bottom patch (so it rests), spherical UVs."""

    def make(rng):
        sphere = trimesh.creation.icosphere(subdivisions=3)
        unit = np.asarray(sphere.vertices)
        theta = np.arctan2(unit[:, 1], unit[:, 0])
        lumps = 1.0 + 0.02 * np.sin(5 * theta + rng.uniform(0, 2 * np.pi)) * np.hypot(*unit[:, :2].T)
        v = unit * np.asarray(radii) * lumps[:, None]
        v[:, 2] = np.maximum(v[:, 2], -radii[2] * 0.88)
        return _prop(
            rng,
            (v, np.asarray(sphere.faces)),
            colour,
            category,
            description,
            mass,
            mu=(0.8, 0.7),
            uv=shapes.spherical_uv(unit),
            bands=3,
        )

    return make


def _vessel(r0, r1, height, wall, floor, colour, category, description, mass, curved=False) -> Factory:
    def make(rng):
        mesh = vessel(r0, r1, height, wall, floor, curved)
        pieces = shapes.sector_pieces(mesh[0], min(r0, r1) - wall - 1e-3, floor)
        return _prop(rng, mesh, colour, category, description, mass, (0.6, 0.5), pieces, bands=6)

    return make


def _open_box(size, wall, floor, colour, category, description, mass) -> Factory:
    def make(rng):
        parts = open_box_parts(size, wall, floor)
        pieces = [(np.asarray(p.vertices), np.asarray(p.faces)) for p in parts]
        return _prop(rng, union(parts), colour, category, description, mass, (0.6, 0.5), pieces)

    return make


def _block(size, colour, category, description, mass, mu=(0.6, 0.5)) -> Factory:
    def make(rng):
        mesh = box(size, (0, 0, size[2] / 2))
        return _prop(rng, (np.asarray(mesh.vertices), np.asarray(mesh.faces)), colour, category, description, mass, mu)

    return make


def _solid(profile, colour, category, description, mass, sections=48, flat=False) -> Factory:
    """A solid of revolution, standing, or lying along X when ``flat``."""

    def make(rng):
        mesh = revolve(profile, sections)
        return _prop(rng, lying(mesh) if flat else mesh, colour, category, description, mass)

    return make


def _union(parts: Callable[[], list[trimesh.Trimesh]], colour, category, description, mass) -> Factory:
    def make(rng):
        return _prop(rng, union(parts()), colour, category, description, mass)

    return make


def _book(colour=None, category="book") -> Factory:
    def make(rng):
        c = colour or tuple(int(x) for x in rng.integers(40, 200, 3))
        return _block((0.15, 0.21, 0.03), c, category, "A hardcover book.", 0.4, (0.5, 0.45))(rng)

    return make


def _mug_parts() -> list[trimesh.Trimesh]:
    v, f = vessel(0.04, 0.04, 0.095, 0.005, 0.007)
    handle = [
        box((0.035, 0.012, 0.01), (0.052, 0, 0.075)),
        box((0.035, 0.012, 0.01), (0.052, 0, 0.025)),
        box((0.01, 0.012, 0.06), (0.065, 0, 0.05)),
    ]
    return [trimesh.Trimesh(v, f)] + handle


def _car_parts() -> list[trimesh.Trimesh]:
    wheels = []
    for x in (-0.032, 0.032):
        for y in (-0.026, 0.026):
            w = trimesh.creation.cylinder(radius=0.011, height=0.008, sections=16)
            w.apply_transform(trimesh.transformations.rotation_matrix(np.pi / 2, [1, 0, 0]))
            wheels.append(w.apply_translation([x, y, 0.011]))
    return [box((0.1, 0.046, 0.022), (0, 0, 0.02)), box((0.05, 0.04, 0.018), (-0.008, 0, 0.04))] + wheels


def _duck_parts() -> list[trimesh.Trimesh]:
    body = trimesh.creation.icosphere(subdivisions=2, radius=1.0)
    body.apply_scale([0.05, 0.035, 0.03]).apply_translation([0, 0, 0.035])
    head = trimesh.creation.icosphere(subdivisions=2, radius=0.02).apply_translation([0.03, 0, 0.07])
    beak = box((0.02, 0.014, 0.006), (0.055, 0, 0.068))
    return [box((0.07, 0.045, 0.012), (0, 0, 0.006)), body, head, beak]


def _spoon_parts() -> list[trimesh.Trimesh]:
    scoop = trimesh.creation.icosphere(subdivisions=2, radius=1.0)
    scoop.apply_scale([0.025, 0.018, 0.006]).apply_translation([0.06, 0, 0.006])
    return [scoop, box((0.11, 0.011, 0.004), (-0.02, 0, 0.004)), box((0.03, 0.04, 0.002), (0.06, 0, 0.001))]


def _milk(rng) -> Prop:
    """A gable-top carton (convex: box and roof ridge)."""
    w, h = 0.07, 0.19
    corners = [[x, y, z] for x in (-w / 2, w / 2) for y in (-w / 2, w / 2) for z in (0, h)]
    ridge = [[x, 0, h + 0.035] for x in (-w / 2, w / 2)]
    return _prop(rng, hull(np.array(corners + ridge)), (240, 240, 245), "milk", "A one-litre milk carton.", 1.05)


FACTORIES: dict[str, Factory] = {
    "apple": _fruit((0.04, 0.04, 0.037), (178, 34, 34), "apple", "A red apple.", 0.18),
    "orange": _fruit((0.038, 0.038, 0.035), (245, 140, 20), "orange", "A round orange.", 0.15),
    "bowl": _vessel(0.045, 0.08, 0.06, 0.006, 0.008, (235, 228, 210), "bowl", "A ceramic bowl.", 0.35, curved=True),
    "plate": _vessel(0.07, 0.11, 0.022, 0.005, 0.005, (245, 245, 240), "plate", "A dinner plate.", 0.5),
    "cup": _vessel(0.03, 0.04, 0.1, 0.004, 0.006, (60, 120, 200), "cup", "A plastic cup.", 0.08),
    "mug": _union(_mug_parts, (200, 60, 50), "mug", "A ceramic mug with a handle.", 0.3),
    "fruit_basket": _vessel(
        0.1, 0.13, 0.08, 0.006, 0.008, (170, 120, 60), "basket", "A round fruit basket.", 0.45, curved=True
    ),
    "serving_tray": _open_box((0.4, 0.28, 0.03), 0.008, 0.006, (120, 80, 40), "tray", "A wooden serving tray.", 0.8),
    "sorting_tray": _open_box((0.3, 0.2, 0.045), 0.006, 0.005, (80, 160, 90), "tray", "A plastic sorting tray.", 0.3),
    "toy_box": _open_box((0.36, 0.26, 0.2), 0.012, 0.01, (220, 180, 40), "box", "A toy box.", 1.5),
    "storage_basket": _open_box(
        (0.3, 0.22, 0.16), 0.008, 0.008, (190, 160, 120), "basket", "A woven storage basket.", 0.6
    ),
    "wide_storage_bin": _open_box(
        (0.5, 0.35, 0.2), 0.01, 0.01, (90, 90, 100), "bin", "A wide plastic storage bin.", 1.8
    ),
    "spoon": _union(_spoon_parts, (200, 200, 205), "spoon", "A steel spoon.", 0.03),
    "book": _book(),
    "book_blue": _book((40, 70, 170)),
    "notebook": _block((0.148, 0.012, 0.21), (230, 220, 120), "notebook", "A spiral notebook.", 0.15),
    "pen": _solid(
        [(0, 0), (0.005, 0), (0.005, 0.14), (0, 0.14)],
        (20, 20, 120),
        "pen",
        "A ballpoint pen.",
        0.012,
        sections=16,
        flat=True,
    ),
    "pencil": _solid(
        [(0, 0), (0.0045, 0), (0.0045, 0.175), (0, 0.175)],
        (230, 190, 40),
        "pencil",
        "A hexagonal pencil.",
        0.006,
        sections=6,
        flat=True,
    ),
    "toy_car": _union(_car_parts, (200, 30, 30), "toy_car", "A small toy car.", 0.08),
    "toy_block": _block((0.04, 0.04, 0.04), (60, 160, 220), "toy_block", "A wooden toy block.", 0.04),
    "rubber_duck": _union(_duck_parts, (250, 220, 40), "rubber_duck", "A yellow rubber duck.", 0.05),
    "soda_can": _solid(
        [(0, 0), (0.028, 0), (0.033, 0.01), (0.033, 0.11), (0.028, 0.122), (0, 0.122)],
        (200, 20, 30),
        "soda_can",
        "A soda can.",
        0.37,
    ),
    "juice_bottle": _solid(
        [(0, 0), (0.035, 0), (0.035, 0.16), (0.014, 0.19), (0.014, 0.21), (0, 0.21)],
        (240, 160, 30),
        "juice_bottle",
        "A bottle of orange juice.",
        1.1,
    ),
    "snack_carton": _block((0.12, 0.05, 0.18), (210, 90, 40), "snack_carton", "A box of crackers.", 0.25),
    "foam_cube": _block((0.06, 0.06, 0.06), (240, 110, 180), "foam_cube", "A soft foam cube.", 0.01),
    "tissue_box": _block((0.22, 0.085, 0.09), (150, 200, 230), "tissue_box", "A box of tissues.", 0.2),
    "rolling_pin": _solid(
        [(0, 0), (0.012, 0), (0.012, 0.08), (0.03, 0.08), (0.03, 0.33), (0.012, 0.33), (0.012, 0.41), (0, 0.41)],
        (210, 170, 120),
        "rolling_pin",
        "A wooden rolling pin.",
        0.6,
        sections=16,
        flat=True,
    ),
    "oatmeal": _solid(
        [(0, 0), (0.036, 0), (0.042, 0.05), (0.043, 0.056), (0.02, 0.066), (0.008, 0.066), (0.008, 0.076), (0, 0.076)],
        (240, 230, 200),
        "oatmeal",
        "A covered bowl of oatmeal.",
        0.4,
    ),
    "milk": _milk,
    "cereal_box": _block((0.2, 0.12, 0.3), (230, 200, 60), "cereal_box", "A family-size cereal box.", 0.6),
}
DEFAULT_SET = tuple(FACTORIES)
