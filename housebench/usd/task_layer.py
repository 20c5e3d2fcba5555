"""The task layer (``task.usda``): the house sublayered, plus one Xform per placed prop.

Each ``/World/Props/<object>`` references its asset's ``asset.usda`` (defaultPrim ``/Asset``) and
carries ``xformOp:translate`` + ``xformOp:orient`` (quatd, w x y z) and ``housebench:asset``. Paths to
the house and the assets are written relative to the layer's final folder.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from pxr import Gf, Sdf, UsdGeom


class PlacedProp(NamedTuple):
    """One prop of a task layer: the asset it references and its pose (quaternion w, x, y, z)."""

    asset: str
    pos: tuple[float, float, float]
    quat: tuple[float, float, float, float]


def _relative(target: Path, anchor: Path) -> str:
    return Path(os.path.relpath(Path(target).resolve(), Path(anchor).resolve())).as_posix()


def write_task_layer(
    path: Path, props: Mapping[str, PlacedProp], house: Path, assets: Path, anchor: Path | None = None
) -> None:
    """Write ``path`` with ``props`` by name. ``house`` is the house layer, ``assets`` the folder of
    ``<asset>/asset.usda``;
    relative paths are taken from ``anchor`` (the folder the layer will finally live in; default:
    ``path``'s folder), so a layer written in a temp dir stays valid once moved."""
    path = Path(path)
    anchor = Path(anchor) if anchor is not None else path.parent
    layer = Sdf.Layer.CreateAnonymous(".usda")
    layer.subLayerPaths.append(_relative(house, anchor))
    layer.defaultPrim = "World"
    layer.pseudoRoot.SetInfo(UsdGeom.Tokens.upAxis, UsdGeom.Tokens.z)
    layer.pseudoRoot.SetInfo(UsdGeom.Tokens.metersPerUnit, 1.0)
    world = Sdf.PrimSpec(layer, "World", Sdf.SpecifierOver)
    scope = Sdf.PrimSpec(world, "Props", Sdf.SpecifierDef, "Scope")
    for name in sorted(props):
        obj = props[name]
        prim = Sdf.PrimSpec(scope, name, Sdf.SpecifierDef, "Xform")
        prim.referenceList.Prepend(Sdf.Reference(_relative(Path(assets) / obj.asset / "asset.usda", anchor)))
        _attr(prim, "housebench:asset", Sdf.ValueTypeNames.String, obj.asset, custom=True)
        _attr(prim, "xformOp:translate", Sdf.ValueTypeNames.Double3, Gf.Vec3d(*obj.pos))
        _attr(prim, "xformOp:orient", Sdf.ValueTypeNames.Quatd, Gf.Quatd(obj.quat[0], *obj.quat[1:]))
        _attr(
            prim,
            "xformOpOrder",
            Sdf.ValueTypeNames.TokenArray,
            ["xformOp:translate", "xformOp:orient"],
            variability=Sdf.VariabilityUniform,
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    layer.Export(str(path))


def _attr(prim: Sdf.PrimSpec, name: str, kind, value, custom: bool = False, variability=Sdf.VariabilityVarying) -> None:
    Sdf.AttributeSpec(prim, name, kind, variability, declaresCustom=custom).default = value
