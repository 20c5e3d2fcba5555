"""Writing one asset's MJCF ``body.xml``: a free body with the visual mesh and inline convex hulls.

Names: body ``<name>`` (with a free joint ``<name>/free``, damped for small light bodies), geoms
``<name>/visual`` (group 2, no contact) and ``<name>/hull_NNN`` (group 3). The visual mesh and texture are files
beside ``body.xml``; a scene that attaches the body (``MjSpec.attach``) keeps these relative paths, so it should
load the asset spec with ``mujoco.MjSpec.from_file`` and set ``meshdir``/``texturedir`` or absolute paths.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element, SubElement, indent, tostring

import numpy as np

from housebench.usd.asset import AssetGeometry


def _nums(values) -> str:
    return " ".join(f"{float(x):.6g}" for x in np.asarray(values).ravel())


def body_xml(asset: AssetGeometry) -> str:
    """The MJCF text (deterministic)."""
    name = asset.name
    root = Element("mujoco", model=name)
    SubElement(root, "compiler", angle="radian")
    assets = SubElement(root, "asset")
    SubElement(assets, "texture", name=name, type="2d", file=asset.texture)
    SubElement(assets, "material", name=name, texture=name)
    SubElement(assets, "mesh", name=f"{name}/visual", file="visual.obj", inertia="shell")
    for i, (v, _) in enumerate(asset.hulls):
        SubElement(assets, "mesh", name=f"{name}/hull_{i:03d}", vertex=_nums(v))
    world = SubElement(root, "worldbody")
    body = SubElement(world, "body", name=name)
    joint = {"damping": _nums([asset.damping])} if asset.damping else {}
    SubElement(body, "joint", name=f"{name}/free", type="free", **joint)
    SubElement(
        body,
        "inertial",
        pos=_nums(asset.com),
        quat=_nums(asset.axes_quat),
        mass=_nums([asset.mass]),
        diaginertia=_nums(asset.principal),
    )
    SubElement(
        body,
        "geom",
        name=f"{name}/visual",
        type="mesh",
        mesh=f"{name}/visual",
        material=name,
        contype="0",
        conaffinity="0",
        group="2",
        mass="0",
    )
    for i in range(len(asset.hulls)):
        SubElement(
            body,
            "geom",
            name=f"{name}/hull_{i:03d}",
            type="mesh",
            mesh=f"{name}/hull_{i:03d}",
            group="3",
            mass="0",
            rgba="0.5 0.5 0.5 0.3",
            friction=f"{asset.friction:.6g} 0.005 0.0001",
        )
    indent(root, space="  ")
    return tostring(root, encoding="unicode") + "\n"


def write_body_xml(path: Path, asset: AssetGeometry) -> None:
    Path(path).write_text(body_xml(asset))
