"""A house's looks in MuJoCo, read from the stage (:mod:`housebench.usd.looks` authors them): textures on the
house's boxes, its ceilings and its room lights, none of which touches the physics.

- A box bound to a material with ``housebench:tileMetres`` gets a visual twin: a mesh geom of the same box (no
  contact, no mass: contype, conaffinity and density 0, :data:`VISUAL_GROUP`) whose texture coordinates are the
  world coordinates of each face divided by the tile size, so the texture keeps its size in metres on every face
  and runs on across neighbouring boxes. (MuJoCo projects a 2D texture onto a box's sides along one axis only,
  which streaks walls.) The collider itself moves to :data:`HULL_GROUP`: hidden, except in collision renders.
- Each ceiling quad becomes a visual-only slab of :data:`CEILING_THICKNESS` over it, in :data:`CEILING_GROUP`,
  which only the scene's named cameras (the robot's head among them) show: a free camera looking down from above
  the house sees in as before.
- Each room light becomes a point light without shadows; MuJoCo's renderer lights eight lights at most, the sun
  and the headlight among them, so the :data:`MAX_ROOM_LIGHTS` lights of the largest ceilings are kept.

The visual twins are added to the bodies of their boxes and the ceiling body after every other body, so the
colliding geoms, the bodies, their masses and inertias are those of the house without looks (a test compares).
"""

from __future__ import annotations

import mujoco
import numpy as np
from pxr import Gf, Usd, UsdGeom, UsdShade

from housebench.sim.mujoco.bodies import HULL_GROUP, VISUAL_GROUP, rigid, to_frame
from housebench.usd.paths import CEILING, DIFFUSE_ATTR, LIGHTS, LOOKS, TILE_ATTR

CEILING_GROUP = 4  # hidden by default (MuJoCo shows groups 0-2); named cameras show it
CEILING_THICKNESS = 0.02  # metres
CEILING_BODY = "ceiling"
MAX_ROOM_LIGHTS = 6  # eight GL lights, less the sun and the headlight
LOOK = "look"  # suffix of a visual twin's name
_CORNERS = ((-1, -1), (1, -1), (1, 1), (-1, 1))


def _texture_file(material: UsdShade.Material) -> str:
    for child in material.GetPrim().GetChildren():
        shader = UsdShade.Shader(child)
        if shader and shader.GetIdAttr().Get() == "UsdUVTexture":
            asset = shader.GetInput("file").Get()
            if not asset.resolvedPath:  # USD resolves a missing file to ''
                raise FileNotFoundError(f"{material.GetPath()}: inputs:file: no such texture '{asset.path}'")
            return asset.resolvedPath
    raise ValueError(f"{material.GetPath()}: no UsdUVTexture")


def texture_files(stage: Usd.Stage) -> list[str]:
    """The resolved paths of the house's textures, in the order of their materials."""
    looks = stage.GetPrimAtPath(LOOKS)
    materials = [UsdShade.Material(p) for p in (looks.GetChildren() if looks else [])]
    return [_texture_file(m) for m in materials if m.GetPrim().HasAttribute(TILE_ATTR)]


def _material(spec: mujoco.MjSpec, material: UsdShade.Material) -> str:
    """The MuJoCo material of a USD looks material (added once per spec)."""
    name = f"looks/{material.GetPrim().GetName()}"
    if spec.material(name) is None:
        spec.add_texture(name=name, type=mujoco.mjtTexture.mjTEXTURE_2D, file=_texture_file(material))
        added = spec.add_material(name=name, specular=0.0, shininess=0.0)
        added.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = name
    return name


def _looks_material(prim: Usd.Prim) -> UsdShade.Material | None:
    material, _ = UsdShade.MaterialBindingAPI(prim).ComputeBoundMaterial()
    return material if material and material.GetPrim().HasAttribute(TILE_ATTR) else None


def _box_mesh(half: np.ndarray, world: np.ndarray, tile_m: float) -> tuple[list, list, list]:
    """Vertices (box frame), texture coordinates and triangles of a box with half extents ``half``; each face's
    coordinates are its corners' world coordinates (``world``: box frame -> world, row vectors) in tiles, the face's
    vertical along t."""
    verts, uvs, faces = [], [], []
    for axis in range(3):
        across = [a for a in range(3) if a != axis]
        for sign in (-1, 1):
            base = len(verts)
            for du, dv in _CORNERS:
                corner = np.zeros(3)
                corner[axis] = sign * half[axis]
                corner[across] = (du * half[across[0]], dv * half[across[1]])
                verts.append(corner)
            points = to_frame(np.array(verts[base:]), world, np.eye(4))
            normal = np.abs(np.array(world)[axis, :3])
            u, v = [a for a in range(3) if a != int(np.argmax(normal))]
            uvs += [[p[u] / tile_m, p[v] / tile_m] for p in points]
            edge = np.cross(verts[base + 1] - verts[base], verts[base + 2] - verts[base])
            outward = edge[axis] * sign > 0
            order = (0, 1, 2, 0, 2, 3) if outward else (0, 2, 1, 0, 3, 2)
            faces += [base + i for i in order]
    return [c for p in verts for c in p], [c for p in uvs for c in p], faces


def _textured_box(
    spec: mujoco.MjSpec,
    body: mujoco.MjsBody,
    name: str,
    half: np.ndarray,
    frame: np.ndarray,
    material: UsdShade.Material,
    **placement,
) -> None:
    """A visual-only mesh geom ``name`` of ``body``: the box of half extents ``half`` at ``frame`` (box -> world),
    textured with ``material`` (``placement``: its pos, quat and group)."""
    tile_m = float(material.GetPrim().GetAttribute(TILE_ATTR).Get())
    verts, uvs, faces = _box_mesh(half, frame, tile_m)
    spec.add_mesh(
        name=name,
        uservert=verts,
        usertexcoord=uvs,
        userface=faces,
        userfacetexcoord=faces,
        inertia=mujoco.mjtMeshInertia.mjMESH_INERTIA_SHELL,
    )
    body.add_geom(
        name=name,
        type=mujoco.mjtGeom.mjGEOM_MESH,
        meshname=name,
        contype=0,
        conaffinity=0,
        density=0,
        material=_material(spec, material),
        **placement,
    )


def dress_box(spec: mujoco.MjSpec, body: mujoco.MjsBody, geom: mujoco.MjsGeom, prim: Usd.Prim, world) -> None:
    """Give the box ``geom`` (of ``prim``, at ``world``) its textured visual twin, when its material has one."""
    material = _looks_material(prim)
    if material is None:
        return
    _, _, frame = rigid(world)  # the box's frame in the world, without its scale
    half = np.asarray(geom.size, dtype=float)
    placement = {"pos": geom.pos, "quat": geom.quat, "group": VISUAL_GROUP}
    _textured_box(spec, body, f"{geom.name}/{LOOK}", half, frame, material, **placement)
    geom.group = HULL_GROUP


def _extent(prim: Usd.Prim) -> np.ndarray:
    points = np.array(UsdGeom.Mesh(prim).GetPointsAttr().Get(), dtype=float)
    return np.array([points.min(0), points.max(0)])


def add_ceilings_and_lights(spec: mujoco.MjSpec, stage: Usd.Stage) -> None:
    """The stage's ceilings (a static body after every other) and its room lights (the largest rooms first)."""
    ceilings = stage.GetPrimAtPath(CEILING)
    rooms = list(ceilings.GetChildren()) if ceilings else []
    body = spec.worldbody.add_body(name=CEILING_BODY) if rooms else None
    areas = {}
    for prim in rooms:
        (x0, y0, z), (x1, y1, _) = _extent(prim)
        areas[prim.GetName()] = (x1 - x0) * (y1 - y0)
        half = np.array([(x1 - x0) / 2, (y1 - y0) / 2, CEILING_THICKNESS / 2])
        centre = [(x0 + x1) / 2, (y0 + y1) / 2, z + CEILING_THICKNESS / 2]
        frame = np.array(Gf.Matrix4d().SetTranslate(Gf.Vec3d(*centre)))
        name = f"{CEILING_BODY}/{prim.GetName()}"
        _textured_box(spec, body, name, half, frame, _looks_material(prim), pos=centre, group=CEILING_GROUP)
    lights = stage.GetPrimAtPath(LIGHTS)
    kept = sorted(lights.GetChildren() if lights else [], key=lambda p: (-areas.get(p.GetName(), 0.0), p.GetName()))
    cache = UsdGeom.XformCache()
    for prim in kept[:MAX_ROOM_LIGHTS]:
        diffuse = float(prim.GetAttribute(DIFFUSE_ATTR).Get())
        spec.worldbody.add_light(
            name=f"room/{prim.GetName()}",
            pos=list(cache.GetLocalToWorldTransform(prim).ExtractTranslation()),
            type=mujoco.mjtLightType.mjLIGHT_POINT,
            diffuse=[diffuse] * 3,
            castshadow=False,
        )
