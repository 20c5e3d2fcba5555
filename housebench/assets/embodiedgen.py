"""Reading one EmbodiedGen result folder (``<name>/result/``): URDF, textured OBJ or GLB, collision OBJ.

The URDF is parsed with defusedxml (no DTDs, no entity expansion, no external references); it and
every file it or the MTL names must resolve inside the result folder and be regular files under a size
limit (:mod:`housebench.inputs`). Meshes over :data:`MAX_FACES` faces, textures over
:data:`MAX_PIXELS` pixels (or not PNG/JPEG) and free text over :data:`MAX_TEXT` characters (it is
copied into three outputs) are refused before they are decoded where possible. Meshes stay in
EmbodiedGen's frame (Y-up); :mod:`housebench.assets.importer` applies the URDF origin to turn them Z-up.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeET
import numpy as np
import trimesh
from defusedxml import DefusedXmlException
from PIL import Image

from housebench.assets.errors import AssetError
from housebench.inputs import MAX_IMAGE, MAX_MESH, MAX_URDF, InputError, read_bytes, read_text

Mesh = tuple[np.ndarray, np.ndarray]
MAX_FACES = 2_000_000  # triangles of one mesh file, after triangulation (5 M took 3.2 GB to load)
MAX_VERTICES = 4_000_000  # vertex lines of one OBJ
_FACE_LINE = re.compile(rb"^f[ \t]([^\n]*)", re.MULTILINE)
MAX_PIXELS = 8192 * 8192  # texture pixels
MAX_TEXT = 2000  # characters of one free-text URDF field (extra_info, quality)
MAX_FIELDS = 64  # extra_info entries


@dataclass(frozen=True)
class RawAsset:
    """What the importer needs from one result folder (paths absolute, meshes Y-up as stored)."""

    urdf: Path
    visual: Path
    texture: Path  # the file the texture came from (an image, or the GLB that embeds it)
    texture_png: bytes
    vertices: np.ndarray
    faces: np.ndarray
    uv: np.ndarray
    rpy: tuple[float, float, float]
    xyz: tuple[float, float, float]
    mass: float
    mu: tuple[float, float] | None
    pieces: list[Mesh] = field(default_factory=list)  # EmbodiedGen's own convex pieces
    collision: Path | None = None
    extra_info: dict[str, str] = field(default_factory=dict)
    quality: str | None = None


def _bytes(path: Path, limit: int, field: str) -> bytes:
    try:
        return read_bytes(path, limit, field)
    except InputError as err:
        raise AssetError(err.file, err.field, err.reason) from None


def _text(path: Path, limit: int, field: str) -> str:
    try:
        return read_text(path, limit, field)
    except InputError as err:
        raise AssetError(err.file, err.field, err.reason) from None


def _faces(count: int, file: Path) -> None:
    if count > MAX_FACES:
        raise AssetError(file, "faces", f"{count} triangles, over the limit of {MAX_FACES}")


def obj_triangles(data: bytes, file: Path) -> int:
    """The triangles an OBJ's faces become (a face of n corners: n - 2, as trimesh and
    :func:`read_pieces` fan them), counted from its bytes before it is parsed; over :data:`MAX_VERTICES`
    vertex lines is refused here too. A 1000-sided face is 998 triangles, not one face."""
    vertices = data.count(b"\nv ") + data.startswith(b"v ")
    if vertices > MAX_VERTICES:
        raise AssetError(file, "vertices", f"{vertices} vertices, over the limit of {MAX_VERTICES}")
    triangles = 0
    for face in _FACE_LINE.finditer(data):
        triangles += max(len(face[1].split()) - 2, 0)
        if triangles > MAX_FACES:  # stop counting: the refusal costs no more than the limit
            break
    return triangles


def _image(data: bytes, file: Path, field: str) -> bytes:
    """``data`` if it is a PNG or JPEG of at most :data:`MAX_PIXELS` pixels (checked before decoding)."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            kind, (width, height) = image.format, image.size
    except (OSError, ValueError, Image.DecompressionBombError) as err:
        raise AssetError(file, field, f"not an image ({type(err).__name__})") from None
    if kind not in ("PNG", "JPEG"):
        raise AssetError(file, field, f"a {kind} image; PNG or JPEG expected")
    if width * height > MAX_PIXELS:
        raise AssetError(file, field, f"{width}x{height} pixels, over the limit of {MAX_PIXELS}")
    return data


def _free_text(text: str, file: Path, field: str) -> str:
    if len(text) > MAX_TEXT:
        raise AssetError(file, field, f"{len(text)} characters, over the limit of {MAX_TEXT}")
    return text


def _inside(root: Path, relative: str, file: Path, what: str) -> Path:
    """``root/relative`` resolved, refusing absolute paths, URLs and anything escaping ``root``."""
    if not relative or "://" in relative or Path(relative).is_absolute():
        raise AssetError(file, what, f"path {relative!r} must be relative to the result folder")
    path = (root / relative).resolve()
    if not path.is_relative_to(root.resolve()):
        raise AssetError(file, what, f"path {relative!r} escapes the result folder")
    if not path.exists():
        raise AssetError(file, what, f"missing file {relative!r}")
    if not path.is_file():
        raise AssetError(file, what, f"{relative!r} is not a regular file")
    return path


def _floats(text: str | None, n: int, file: Path, what: str) -> tuple[float, ...]:
    try:
        values = tuple(float(x) for x in (text or "").split())
    except ValueError:
        values = ()
    if len(values) != n or not np.isfinite(values).all():
        raise AssetError(file, what, f"expected {n} finite numbers, got {text!r}")
    return values


def _parse_urdf(path: Path) -> Element:
    try:
        return SafeET.fromstring(_bytes(path, MAX_URDF, "file"))
    except DefusedXmlException as err:
        raise AssetError(path, "xml", f"forbidden XML construct ({type(err).__name__})") from None
    except SafeET.ParseError as err:
        raise AssetError(path, "xml", f"malformed XML ({err})") from None


def _check_finite(vertices: np.ndarray, faces: np.ndarray, file: Path) -> None:
    if len(vertices) == 0 or len(faces) == 0:
        raise AssetError(file, "vertices", "empty mesh")
    if not np.isfinite(vertices).all():
        raise AssetError(file, "vertices", "NaN or infinite coordinates")


def read_pieces(path: Path) -> list[Mesh]:
    """Convex pieces of an OBJ, one per ``o`` object (faces fan-triangulated, vertices compacted)."""
    vertices: list[list[float]] = []
    groups: list[list[list[int]]] = [[]]
    text = _text(path, MAX_MESH, "file")
    _faces(obj_triangles(text.encode(), path), path)
    for line in text.splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "v":
            vertices.append([float(x) for x in rest.split()[:3]])
        elif tag == "o" and groups[-1]:
            groups.append([])
        elif tag == "f":
            idx = [int(t.split("/")[0]) - 1 for t in rest.split()]
            groups[-1] += [[idx[0], idx[i], idx[i + 1]] for i in range(1, len(idx) - 1)]
    all_v = np.asarray(vertices, float).reshape(-1, 3)
    pieces = []
    for group in filter(None, groups):
        used, faces = np.unique(np.asarray(group), return_inverse=True)
        pieces.append((all_v[used], faces.reshape(-1, 3)))
    _check_finite(all_v, np.asarray([f for g in groups for f in g]).reshape(-1, 3), path)
    return pieces


def _directive(path: Path, key: str) -> str | None:
    """The argument of the first ``key`` line of an OBJ or MTL file."""
    for line in _text(path, MAX_MESH, "file").splitlines():
        if line.startswith(key + " "):
            return line.split(None, 1)[1].strip()
    return None


def _texture(obj: Path, root: Path) -> Path:
    """The ``map_Kd`` image of the OBJ's material library (both must sit inside ``root``)."""
    base = root.resolve()
    mtllib = _directive(obj, "mtllib")
    if mtllib is None:
        raise AssetError(obj, "mtllib", "no material library")
    mtl = _inside(root, (obj.parent.relative_to(base) / mtllib).as_posix(), obj, "mtllib")
    kd = _directive(mtl, "map_Kd")
    if kd is None:
        raise AssetError(mtl, "map_Kd", "no diffuse texture")
    return _inside(root, (mtl.parent.relative_to(base) / kd).as_posix(), mtl, "map_Kd")


def _glb_texture(mesh: trimesh.Trimesh, glb: Path) -> bytes:
    """The base-colour texture embedded in a GLB, as PNG bytes."""
    material = getattr(mesh.visual, "material", None)
    image = getattr(material, "baseColorTexture", None) or getattr(material, "image", None)
    if image is None:
        raise AssetError(glb, "baseColorTexture", "no embedded texture")
    if image.width * image.height > MAX_PIXELS:
        raise AssetError(
            glb, "baseColorTexture", f"{image.width}x{image.height} pixels, over the limit of {MAX_PIXELS}"
        )
    png = io.BytesIO()
    image.convert("RGB").save(png, format="PNG")
    return png.getvalue()


def _declared_faces(data: bytes, glb: bool, path: Path) -> int:
    """The triangles a mesh file declares, counted before it is parsed: :func:`obj_triangles` of an OBJ,
    index counts (or, unindexed, vertex counts) of a GLB's primitives over three."""
    if not glb:
        return obj_triangles(data, path)
    try:
        length = int.from_bytes(data[12:16], "little")
        doc = json.loads(data[20 : 20 + length])
        accessors = doc.get("accessors", [])
        return sum(
            accessors[p["indices"] if "indices" in p else p["attributes"]["POSITION"]]["count"] // 3
            for m in doc.get("meshes", [])
            for p in m["primitives"]
        )
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise AssetError(path, "mesh", "unreadable GLB header") from None


def _load_mesh(path: Path) -> trimesh.Trimesh:
    """The mesh in ``path``, parsed from its bytes only: trimesh opens no other file (the OBJ's
    material library is read by :func:`_texture`; a GLB naming an outside file fails)."""
    data = _bytes(path, MAX_MESH, "file")
    glb = path.suffix.lower() == ".glb"
    _faces(_declared_faces(data, glb, path), path)
    options = {} if glb else {"skip_materials": True}
    try:
        loaded = trimesh.load(
            io.BytesIO(data), file_type="glb" if glb else "obj", process=False, force="mesh", **options
        )
    except Exception as err:  # trimesh raises many types for unreadable files
        raise AssetError(path, "mesh", f"unreadable ({err})") from None
    _faces(len(loaded.faces), path)
    return loaded


def read_result(result_dir: Path) -> RawAsset:
    """Parse and check one result folder; raises :class:`AssetError` naming the file and field."""
    root = Path(result_dir)
    urdfs = sorted(root.glob("*.urdf"))
    if len(urdfs) != 1:
        raise AssetError(root, "urdf", f"expected one *.urdf, found {len(urdfs)}")
    urdf = _inside(root, urdfs[0].name, root, "urdf")
    robot = _parse_urdf(urdf)
    link = robot.find("link")
    if link is None:
        raise AssetError(urdf, "link", "no <link>")
    mesh = link.find("visual/geometry/mesh")
    if mesh is None:
        raise AssetError(urdf, "visual/geometry/mesh", "missing")
    visual = _inside(root, mesh.get("filename", ""), urdf, "visual/geometry/mesh@filename")
    if _floats(mesh.get("scale", "1 1 1"), 3, urdf, "visual/geometry/mesh@scale") != (1.0, 1.0, 1.0):
        raise AssetError(urdf, "visual/geometry/mesh@scale", "only scale 1 is supported")
    origin = link.find("visual/origin")
    rpy = _floats(origin.get("rpy", "0 0 0") if origin is not None else "0 0 0", 3, urdf, "visual/origin@rpy")
    xyz = _floats(origin.get("xyz", "0 0 0") if origin is not None else "0 0 0", 3, urdf, "visual/origin@xyz")
    mass_el = link.find("inertial/mass")
    if mass_el is None:
        raise AssetError(urdf, "inertial/mass", "missing")
    (mass,) = _floats(mass_el.get("value"), 1, urdf, "inertial/mass@value")
    gazebo = link.find("collision/gazebo")
    mu = None
    if gazebo is not None and gazebo.find("mu1") is not None:
        mu = (
            _floats(gazebo.findtext("mu1"), 1, urdf, "collision/gazebo/mu1")[0],
            _floats(gazebo.findtext("mu2", gazebo.findtext("mu1")), 1, urdf, "collision/gazebo/mu2")[0],
        )
    col_mesh = link.find("collision/geometry/mesh")
    collision = (
        _inside(root, col_mesh.get("filename", ""), urdf, "collision/geometry/mesh@filename")
        if col_mesh is not None
        else None
    )
    loaded = _load_mesh(visual)
    vertices, faces = np.asarray(loaded.vertices, float), np.asarray(loaded.faces, int)
    _check_finite(vertices, faces, visual)
    uv = getattr(loaded.visual, "uv", None)
    if uv is None or len(uv) != len(vertices):
        raise AssetError(visual, "vt", "no texture coordinates")
    if visual.suffix.lower() == ".glb":
        texture, png = visual, _glb_texture(loaded, visual)
    else:
        texture = _texture(visual, root)
        png = _image(_bytes(texture, MAX_IMAGE, "map_Kd"), texture, "map_Kd")
    extra = link.find("extra_info")
    if extra is not None and len(extra) > MAX_FIELDS:
        raise AssetError(urdf, "extra_info", f"{len(extra)} entries, over the limit of {MAX_FIELDS}")
    quality = (robot.findtext("custom_data/quality/overall") or "").strip()
    return RawAsset(
        urdf=urdf,
        visual=visual,
        texture=texture,
        texture_png=png,
        vertices=vertices,
        faces=faces,
        uv=np.asarray(uv, float),
        rpy=rpy,
        xyz=xyz,
        mass=mass,
        mu=mu,
        pieces=read_pieces(collision) if collision else [],
        collision=collision,
        extra_info={c.tag: _free_text((c.text or "").strip(), urdf, f"extra_info/{c.tag}") for c in extra}
        if extra is not None
        else {},
        quality=_free_text(quality, urdf, "custom_data/quality/overall") or None,
    )
