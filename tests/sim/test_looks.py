"""The house's looks: the head camera sees textured floors, walls and furniture, and the physics is that of the
house without looks, array for array and step for step."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest
import yaml
from pxr import Usd, UsdLux, UsdShade, UsdValidation
from usd_fixtures import REPO, house_params

from housebench.house.looks import STYLES, SURFACES
from housebench.robot import fetch
from housebench.sim.mujoco.compile import compile_stage, open_stage
from housebench.sim.mujoco.looks import CEILING_GROUP, MAX_ROOM_LIGHTS
from housebench.sim.registry import make_backend
from housebench.usd.house import write_house_usd
from housebench.usd.looks import looks_for
from housebench.usd.paths import CEILING, LIGHTS, LOOKS, TILE_ATTR

# distinct colours the head camera shows of each class over four headings: the grid house in each of the five styles
# shows 184-277, 244-262 and 387-471 (floor, wall, furniture), flat 15, 20 and 51; procedural houses 0-3 show
# 183-253, 138-322 and 238-550, flat at most 14, 33 and 42 (bench/bench_looks.py)
MIN_COLOURS = {"floor": 100, "wall": 150, "furniture": 200}
HEADINGS = (0.0, 0.5 * np.pi, np.pi, 1.5 * np.pi)  # added to the robot's start yaw
HEAD_TILT = 0.35  # rad, down: floor, walls and furniture in one view
SIZE = (160, 120)  # the vision track's head image (rollout.image_size)
STEPS = 1500  # physics steps compared (3 s)
COLLIDING = ("type", "size", "pos", "quat", "contype", "conaffinity", "friction", "solref", "solimp", "margin")
BODY = ("pos", "quat", "mass", "inertia", "ipos", "iquat", "parentid", "jntnum")  # geomnum: the twins add geoms


@pytest.fixture(scope="module")
def houses(house, tmp_path_factory):
    """The grid house written flat (no looks) and with its looks: (path, compiled model) each."""
    out = {}
    params = house_params()
    for name, looks in (("flat", None), ("looks", looks_for(params["seed"], params["looks"]))):
        path = tmp_path_factory.mktemp(name) / "house.usda"
        write_house_usd(house, path, looks)
        out[name] = (path, compile_stage(open_stage(path)))
    return out


def _class(name: str) -> str | None:
    if name.startswith("House/floor/"):
        return "floor"
    if name.startswith("House/walls/"):
        return "wall"
    return None if name.startswith((fetch.PREFIX, "ceiling/")) or not name else "furniture"


def head_colours(model: mujoco.MjModel, tilt: float = HEAD_TILT) -> dict[str, int]:
    """Distinct RGB colours per surface class in the head camera's images, the robot turned to each heading."""
    data = mujoco.MjData(model)
    mujoco.mj_resetDataKeyframe(model, data, 0)
    yaw = model.joint(f"{fetch.PREFIX}base_yaw").qposadr[0] if _has_joint(model, "base_yaw") else None
    tilt_adr = model.joint(fetch.HEAD_JOINTS[1]).qposadr[0]
    option = mujoco.MjvOption()
    option.geomgroup[CEILING_GROUP] = 1  # as the backend renders a named camera
    classes = np.array([_class(model.geom(g).name) or "" for g in range(model.ngeom)])
    seen: dict[str, set] = {"floor": set(), "wall": set(), "furniture": set()}
    start = data.qpos[yaw] if yaw is not None else 0.0
    with mujoco.Renderer(model, SIZE[1], SIZE[0]) as renderer:
        for heading in HEADINGS:
            if yaw is not None:
                data.qpos[yaw] = start + heading
            data.qpos[tilt_adr] = tilt
            mujoco.mj_forward(model, data)
            renderer.update_scene(data, camera=fetch.HEAD_CAMERA, scene_option=option)
            rgb = renderer.render().reshape(-1, 3)
            renderer.enable_segmentation_rendering()
            seg = renderer.render().reshape(-1, 2)
            renderer.disable_segmentation_rendering()
            geom = seg[:, 0] * (seg[:, 1] == mujoco.mjtObj.mjOBJ_GEOM) - (seg[:, 1] != mujoco.mjtObj.mjOBJ_GEOM)
            label = np.where(geom >= 0, classes[np.maximum(geom, 0)], "")
            for cls, colours in seen.items():
                colours.update(map(tuple, rgb[label == cls]))
    return {cls: len(colours) for cls, colours in seen.items()}


def _has_joint(model: mujoco.MjModel, short: str) -> bool:
    return mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, f"{fetch.PREFIX}{short}") >= 0


def test_the_head_camera_sees_textured_surfaces_where_flat_colours_were(houses):
    flat, textured = head_colours(houses["flat"][1]), head_colours(houses["looks"][1])
    for cls, least in MIN_COLOURS.items():
        assert textured[cls] > least > flat[cls], (cls, textured, flat)


def test_a_built_scene_shows_textured_surfaces(built_layout):
    """The tests' build runs the pipeline's house stage with the default params: its scenes carry the looks."""
    sim = make_backend("mujoco").load(built_layout.settled_scene("put_fruit_in_container", "v000"))
    colours = head_colours(sim.model)
    assert all(colours[cls] > least for cls, least in MIN_COLOURS.items()), colours


def test_looks_leave_the_physics_as_it_was(houses):
    flat, looks = houses["flat"][1], houses["looks"][1]
    assert (looks.nq, looks.nv, looks.nu, looks.njnt) == (flat.nq, flat.nv, flat.nu, flat.njnt)
    nbody = flat.nbody  # the ceiling is one body more, after every other
    assert [looks.body(b).name for b in range(nbody)] == [flat.body(b).name for b in range(nbody)]
    for field in BODY:
        assert np.array_equal(getattr(looks, f"body_{field}")[:nbody], getattr(flat, f"body_{field}")), field

    def colliding(model):
        ids = [g for g in range(model.ngeom) if model.geom_contype[g] or model.geom_conaffinity[g]]
        names = [(model.geom(g).name, model.body(model.geom_bodyid[g]).name) for g in ids]
        return names, {f: getattr(model, f"geom_{f}")[ids] for f in COLLIDING}

    (flat_names, flat_arrays), (looks_names, looks_arrays) = colliding(flat), colliding(looks)
    assert looks_names == flat_names
    for field in COLLIDING:
        assert np.array_equal(looks_arrays[field], flat_arrays[field]), field
    assert looks.ngeom > flat.ngeom  # the visual twins and the ceilings: no contact, no mass
    visual = [g for g in range(looks.ngeom) if not (looks.geom_contype[g] or looks.geom_conaffinity[g])]
    assert all(looks.geom_rbound[g] > 0 and looks.body_mass[looks.geom_bodyid[g]] >= 0 for g in visual)

    # step for step: the fridge door swung open against its drive, the robot driving on its actuators
    runs = []
    for model in (flat, looks):
        data = mujoco.MjData(model)
        mujoco.mj_resetDataKeyframe(model, data, 0)
        data.qvel[model.joint("fridge/door").dofadr[0]] = 2.0
        data.ctrl[:] += 0.05
        mujoco.mj_step(model, data, STEPS)
        runs.append((data.qpos.copy(), data.qvel.copy(), data.ncon))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert runs[0][2] == runs[1][2]


def test_looks_in_usd_materials_ceilings_and_a_light_per_room(houses, house):
    path, model = houses["looks"]
    stage = Usd.Stage.Open(str(path))
    validators = UsdValidation.ValidationRegistry().GetOrLoadAllValidators()
    assert [e.GetMessage() for e in UsdValidation.ValidationContext(validators).Validate(stage)] == []
    materials = {p.GetName(): p for p in stage.GetPrimAtPath(LOOKS).GetChildren() if p.HasAttribute(TILE_ATTR)}
    assert sorted(materials) == sorted(SURFACES)
    for prim in materials.values():
        shader = UsdShade.Material(prim).ComputeSurfaceSource()[0]
        assert shader.GetIdAttr().Get() == "UsdPreviewSurface"
        texture = shader.GetInput("diffuseColor").GetConnectedSources()[0][0].source
        assert (path.parent / texture.GetPrim().GetAttribute("inputs:file").Get().path).is_file()
    walls = stage.GetPrimAtPath("/World/House/walls").GetChildren()
    bound = {UsdShade.MaterialBindingAPI(w).ComputeBoundMaterial()[0].GetPath().name for w in walls}
    assert bound == {"wall"}
    rooms = sorted(r.name for r in house.rooms)
    assert sorted(p.GetName() for p in stage.GetPrimAtPath(CEILING).GetChildren()) == rooms
    lights = stage.GetPrimAtPath(LIGHTS).GetChildren()
    assert sorted(p.GetName() for p in lights) == rooms and all(p.IsA(UsdLux.SphereLight) for p in lights)
    assert model.nlight == 1 + min(len(rooms), MAX_ROOM_LIGHTS)  # the sun and the room lights MuJoCo renders
    assert model.ntex == len(SURFACES) and model.tex_height.tolist() == [house_params()["looks"]["texture_px"]] * 6


def test_a_house_style_is_drawn_from_its_seed():
    from housebench.house.looks import house_style

    styles = list(STYLES)
    drawn = [house_style(seed, styles) for seed in range(40)]
    assert drawn == [house_style(seed, styles) for seed in range(40)] and set(drawn) == set(styles)
    assert {house_style(seed, ["nordic"]) for seed in range(5)} == {"nordic"}


@pytest.mark.parametrize(
    ("looks", "error"),
    [
        ({"styles": ["marble"]}, "house.looks.styles[0]: Input should be"),
        ({"texture_px": 4}, "house.looks.texture_px: Input should be greater than or equal to 8"),
        ({"shadows": True}, "house.looks.shadows: unknown key"),
    ],
)
def test_bad_looks_params_are_one_line_naming_the_key(tmp_path, looks, error):
    from housebench.house.params import HouseParams
    from housebench.params import load_section

    params = yaml.safe_load((REPO / "params.yaml").read_text())
    params["house"]["looks"] = {**params["house"]["looks"], **looks}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params))
    with pytest.raises(SystemExit) as err:
        load_section("house", HouseParams, tmp_path / "params.yaml")
    assert str(err.value).startswith(f"{tmp_path / 'params.yaml'}: {error}") and "\n" not in str(err.value)


def test_a_missing_texture_is_named_in_one_line(house, tmp_path):
    params = house_params()
    path = tmp_path / "house.usda"
    write_house_usd(house, path, looks_for(params["seed"], params["looks"]))
    gone = sorted(tmp_path.rglob("*.png"))[0]
    gone.unlink()
    with pytest.raises(FileNotFoundError, match=f"inputs:file: no such texture '.*{gone.name}'"):
        make_backend("mujoco").load(path)
