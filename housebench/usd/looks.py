"""A house's looks in its USD layer: textured materials bound to its boxes, a ceiling and a light per room.

- The house's style (:func:`housebench.house.looks.house_style`) gives one texture per surface class, written as
  ``textures/<class>.png`` beside ``house.usda``, and one Material ``/World/Looks/<class>``: a
  ``UsdPreviewSurface`` whose diffuse colour is a ``UsdUVTexture`` (wrapping, ``st`` from a
  ``UsdPrimvarReader_float2``), with ``housebench:tileMetres``, the size in metres of one tile of the texture on
  any face (one texture tile per that many metres, on every face of a box, so neighbouring boxes continue it).
  ``UsdGeom.Cube`` has no ``st`` of its own: a renderer maps each face by its world coordinates and that size,
  as the MuJoCo backend does (:mod:`housebench.sim.mujoco.looks`).
- Each static box and each part's box of a textured class is bound to its material (purpose all; the physics
  binding to the house's physics material stays as it is). Boxes of flat classes keep their display colour.
- ``/World/Ceiling/<room>``: a quad over each room at the walls' height, facing down, ``st`` in tiles, bound to
  the ceiling material; no collider (nothing can reach it).
- ``/World/Lights/<room>``: a ``UsdLux.SphereLight`` under each room's ceiling; ``housebench:diffuse`` is the
  brightness MuJoCo's light gets.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image
from pxr import Gf, Sdf, Usd, UsdGeom, UsdLux, UsdShade, Vt

from housebench.house.geometry import Box
from housebench.house.layout import House
from housebench.house.looks import STYLES, SURFACES, house_style, surface_of, texture
from housebench.io import r6
from housebench.usd.paths import CEILING, DIFFUSE_ATTR, HOUSE_ROOT, LIGHTS, LOOKS, TILE_ATTR

TEXTURES = "textures"  # folder beside house.usda
STYLE_ATTR = "housebench:style"
ROUGHNESS = 0.8
NITS_PER_DIFFUSE = 3000.0  # the SphereLight's intensity for MuJoCo's diffuse 1 (a bright room lamp)
LIGHT_RADIUS = 0.1  # metres
LIGHT_DROP = 0.3  # metres under the ceiling


@dataclass(frozen=True)
class Looks:
    """What a house looks like: its ``style`` (None: flat colours, no ceiling, no room lights), the texture
    side ``px``, its ``seed`` (the textures' noise), the rooms' light brightness."""

    style: str | None
    px: int
    seed: int
    room_light: float


def looks_for(seed: int, params: dict[str, Any]) -> Looks:
    """The looks of the house with ``seed`` under the ``house.looks`` params."""
    style = house_style(seed, params["styles"]) if params["styles"] else None
    return Looks(style, params["texture_px"], seed, params["room_light"])


def _material(stage: Usd.Stage, surface: str, file: str, tile_m: float) -> UsdShade.Material:
    path = f"{LOOKS}/{surface}"
    material = UsdShade.Material.Define(stage, path)
    material.GetPrim().CreateAttribute(TILE_ATTR, Sdf.ValueTypeNames.Double, True).Set(tile_m)
    surface_shader = UsdShade.Shader.Define(stage, f"{path}/Surface")
    surface_shader.CreateIdAttr("UsdPreviewSurface")
    surface_shader.CreateInput("roughness", Sdf.ValueTypeNames.Float).Set(ROUGHNESS)
    reader = UsdShade.Shader.Define(stage, f"{path}/St")
    reader.CreateIdAttr("UsdPrimvarReader_float2")
    reader.CreateInput("varname", Sdf.ValueTypeNames.String).Set("st")
    image = UsdShade.Shader.Define(stage, f"{path}/Texture")
    image.CreateIdAttr("UsdUVTexture")
    image.CreateInput("file", Sdf.ValueTypeNames.Asset).Set(Sdf.AssetPath(file))
    image.CreateInput("sourceColorSpace", Sdf.ValueTypeNames.Token).Set("sRGB")
    for wrap in ("wrapS", "wrapT"):
        image.CreateInput(wrap, Sdf.ValueTypeNames.Token).Set("repeat")
    image.CreateInput("st", Sdf.ValueTypeNames.Float2).ConnectToSource(reader.ConnectableAPI(), "result")
    image.CreateOutput("rgb", Sdf.ValueTypeNames.Float3)
    surface_shader.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).ConnectToSource(
        image.ConnectableAPI(), "rgb"
    )
    material.CreateSurfaceOutput().ConnectToSource(surface_shader.ConnectableAPI(), "surface")
    return material


def _ceiling(stage: Usd.Stage, name: str, rect: tuple[float, float, float, float], z: float, tile_m: float) -> Usd.Prim:
    x0, y0, x1, y1 = rect
    mesh = UsdGeom.Mesh.Define(stage, f"{CEILING}/{name}")
    corners = [(x0, y0), (x0, y1), (x1, y1), (x1, y0)]  # clockwise from above: the face looks down
    mesh.CreatePointsAttr(Vt.Vec3fArray([Gf.Vec3f(r6(x), r6(y), r6(z)) for x, y in corners]))
    mesh.CreateFaceVertexCountsAttr(Vt.IntArray([4]))
    mesh.CreateFaceVertexIndicesAttr(Vt.IntArray([0, 1, 2, 3]))
    mesh.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
    mesh.CreateExtentAttr(Vt.Vec3fArray([Gf.Vec3f(r6(x0), r6(y0), r6(z)), Gf.Vec3f(r6(x1), r6(y1), r6(z))]))
    st = UsdGeom.PrimvarsAPI(mesh).CreatePrimvar("st", Sdf.ValueTypeNames.TexCoord2fArray, UsdGeom.Tokens.vertex)
    st.Set(Vt.Vec2fArray([Gf.Vec2f(r6(x / tile_m), r6(y / tile_m)) for x, y in corners]))
    return mesh.GetPrim()


def _light(stage: Usd.Stage, name: str, rect: tuple[float, float, float, float], z: float, diffuse: float) -> None:
    x0, y0, x1, y1 = rect
    light = UsdLux.SphereLight.Define(stage, f"{LIGHTS}/{name}")
    light.AddTranslateOp().Set(Gf.Vec3d(r6((x0 + x1) / 2), r6((y0 + y1) / 2), r6(z - LIGHT_DROP)))
    light.CreateRadiusAttr(LIGHT_RADIUS)
    light.CreateIntensityAttr(r6(diffuse * NITS_PER_DIFFUSE))
    light.GetPrim().CreateAttribute(DIFFUSE_ATTR, Sdf.ValueTypeNames.Double, True).Set(diffuse)


def write_looks(stage: Usd.Stage, house: House, looks: Looks, folder: Path) -> None:
    """Author ``looks`` for ``house`` (its boxes already in ``stage``) and write its textures into ``folder``."""
    if looks.style is None:
        return
    finishes = STYLES[looks.style]
    (folder / TEXTURES).mkdir(exist_ok=True)
    materials = {}
    for surface in SURFACES:
        Image.fromarray(texture(finishes[surface], looks.px, looks.seed, surface)).save(
            folder / TEXTURES / f"{surface}.png", optimize=True
        )
        materials[surface] = _material(stage, surface, f"./{TEXTURES}/{surface}.png", finishes[surface].tile_m)
    stage.GetPrimAtPath(LOOKS).CreateAttribute(STYLE_ATTR, Sdf.ValueTypeNames.String, True).Set(looks.style)
    boxes: list[Box] = [*house.boxes, *(b for p in house.parts for b in p.boxes)]
    for box in boxes:
        if (surface := surface_of(box.name)) is not None:
            prim = stage.GetPrimAtPath(f"{HOUSE_ROOT}/{box.name}")
            UsdShade.MaterialBindingAPI.Apply(prim).Bind(materials[surface])
    height = max(b.bounds[5] for b in house.boxes if b.owner == "walls")
    UsdGeom.Scope.Define(stage, CEILING)
    UsdGeom.Scope.Define(stage, LIGHTS)
    for room in house.rooms:
        rect = (room.x0, room.y0, room.x1, room.y1)
        prim = _ceiling(stage, room.name, rect, height, finishes["ceiling"].tile_m)
        UsdShade.MaterialBindingAPI.Apply(prim).Bind(materials["ceiling"])
        _light(stage, room.name, rect, height, looks.room_light)
