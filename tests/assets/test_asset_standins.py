"""The stand-in generator: seeded, small, and faithful to EmbodiedGen's output quirks."""

from __future__ import annotations

import defusedxml.ElementTree as ET
import numpy as np

from housebench.assets.embodiedgen import read_pieces
from housebench.assets.standins import DEFAULT_SET, generate
from housebench.hashing import tree_hash


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    for out, seed in (("a", 0), ("b", 0), ("c", 1)):
        generate(DEFAULT_SET, tmp_path / out, seed=seed)
    assert tree_hash(tmp_path / "a") == tree_hash(tmp_path / "b") != tree_hash(tmp_path / "c")


def test_embodiedgen_layout_and_quirks(tmp_path):
    generate(DEFAULT_SET, tmp_path, seed=0)
    assert sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file()) < 5_000_000
    for name in DEFAULT_SET:
        result = tmp_path / name / "result"
        assert sum(p.stat().st_size for p in result.rglob("*") if p.is_file()) < 150_000
        obj = (result / "mesh" / f"{name}.obj").read_text()
        assert obj.startswith("mtllib material.mtl\n")
        assert "map_Kd material_0.png" in (result / "mesh" / "material.mtl").read_text()
        assert (result / "mesh" / "material_0.png").is_file()
        link = ET.parse(result / f"{name}.urdf").getroot().find("link")
        assert link.find("visual/origin").get("rpy") == "1.5708 0.0 0.0"
        assert link.find("collision/gazebo/mu1") is not None
        assert link.find("inertial/inertia").get("ixx") == "1.0"  # the placeholder
        info = {c.tag for c in link.find("extra_info")}
        assert {"category", "real_height", "min_mass", "max_mass", "generate_time"} <= info
        assert "o geometry_0" in (result / "mesh" / f"{name}_collision.obj").read_text()
        assert read_pieces(result / "mesh" / f"{name}_collision.obj")
        vertices = np.array([ln.split()[1:] for ln in obj.splitlines() if ln.startswith("v ")], float)
        height = float(link.findtext("extra_info/real_height"))
        assert abs(np.ptp(vertices[:, 1]) - height) < 1e-3  # the height runs along Y (Y up)
