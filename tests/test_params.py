"""params.yaml: strict at every depth; a bad section is one line naming the file and the dotted key."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from housebench.assets.build import PhysicsParams
from housebench.assets.collision import CollisionParams
from housebench.assets.importer import ImportParams
from housebench.demos.generate import DemosParams
from housebench.house.houses import HousesParams
from housebench.house.params import HouseParams
from housebench.params import Section, load_section, missing_keys
from housebench.pipeline.plan import PlanParams
from housebench.pipeline.settle import SettleParams
from housebench.pipeline.verify import VerifyParams
from housebench.report.pictures import ReportParams
from housebench.report.trends import TrendParams
from housebench.rollout.plan import RolloutParams
from housebench.sim.droptest import DropParams
from housebench.skills.tuning import SkillTuning, load_tuning, overrides
from housebench.tasks.sampler import SamplerParams
from housebench.tasks.splits import SplitParams
from tests.conftest import ROOT

MODELS = {
    "import": ImportParams,
    "collision": CollisionParams,
    "physics": PhysicsParams,
    "droptest": DropParams,
    "house": HouseParams,
    "houses": HousesParams,
    "tasks": SamplerParams,
    "settle": SettleParams,
    "rollout": RolloutParams,
    "report": ReportParams,
    "plan": PlanParams,
    "verify": VerifyParams,
    "splits": SplitParams,
    "demos": DemosParams,
    "nightly": TrendParams,
}


class Inner(Section):
    damping: float


class Outer(Section):
    seed: int
    inner: Inner


def _params(tmp_path, edit=None, text=None):
    data = yaml.safe_load((ROOT / "params.yaml").read_text())
    if edit:
        edit(data)
    path = tmp_path / "params.yaml"
    path.write_text(text if text is not None else yaml.safe_dump(data))
    return path


def _error(section, path) -> str:
    with pytest.raises(SystemExit) as exit_:
        load_section(section, MODELS[section], path)
    message = str(exit_.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    return message.removeprefix(f"{path}: ")


def test_every_section_of_the_repo_params_loads_with_its_model():
    assert set(MODELS) | {"policies", "skills"} == set(yaml.safe_load((ROOT / "params.yaml").read_text()))
    for section, model in MODELS.items():
        assert isinstance(load_section(section, model, ROOT / "params.yaml"), model)


def test_skills_holds_overrides_only_and_is_strict(tmp_path):
    assert load_tuning(ROOT / "params.yaml") == overrides(
        load_section("skills", SkillTuning, ROOT / "params.yaml", False)
    )
    path = _params(tmp_path, lambda d: d.update(skills={"navigate": {"arm_top_m": 1.7}}))
    assert load_tuning(path) == {"navigate": {"arm_top_m": 1.7}}  # a key left out keeps its default
    path = _params(tmp_path, lambda d: d.update(skills={"navigate": {"arm_top_mm": 1.7}}))
    with pytest.raises(SystemExit, match=r"params.yaml: skills.navigate.arm_top_mm: unknown key$"):
        load_tuning(path)
    path = _params(tmp_path, lambda d: d.update(skills={"navigate": {"arm_top_m": -1.0}}))
    with pytest.raises(SystemExit, match=r"params.yaml: skills.navigate.arm_top_m: "):
        load_tuning(path)


def test_a_typo_deep_in_a_section_names_the_dotted_key(tmp_path):
    path = _params(tmp_path, lambda d: d["house"]["parts"].update(door_rnage=1.9))
    assert _error("house", path) == "house.parts.door_rnage: unknown key"
    path = _params(tmp_path, lambda d: d["house"]["parts"]["button"].update(stifness=1))
    assert _error("house", path) == "house.parts.button.stifness: unknown key"
    path = _params(tmp_path, lambda d: d["house"]["bookcase_low"].update(levels=[0.4, "high"]))
    assert _error("house", path).startswith("house.bookcase_low.levels[1]: Input should be a valid number")
    path = _params(tmp_path, lambda d: d["rollout"]["ray"].update(adress="auto"))
    assert _error("rollout", path) == "rollout.ray.adress: unknown key"
    path = _params(tmp_path, lambda d: d["rollout"]["ray"].update(address="my head node"))
    assert _error("rollout", path).startswith("rollout.ray.address: Value error, 'my head node' is not a Ray address")


@pytest.mark.parametrize(
    "section, path_, key",
    [
        ("house", ("parts",), "door_range"),
        ("house", ("parts", "door"), "damping"),
        ("physics", ("gripper",), "opening"),  # a key the model has a default for is still required
        ("collision", (), "workers"),
        ("settle", (), "preview"),
        ("rollout", ("ray",), "ship"),
    ],
)
def test_a_missing_key_at_any_depth_names_the_dotted_key(tmp_path, section, path_, key):
    def drop(data):
        node = data[section]
        for part in path_:
            node = node[part]
        del node[key]

    assert _error(section, _params(tmp_path, drop)) == f"{'.'.join((section, *path_, key))}: missing key"


@pytest.mark.parametrize(
    "section, key, value, message",
    [
        ("tasks", "variants_per_task", 10**9, "less than or equal to 1000"),
        ("rollout", "episodes_per_variant", 10**9, "less than or equal to 10000"),
        ("rollout", "workers", 10**6, "less than or equal to 64"),
        ("import", "workers", 0, "greater than or equal to 1"),
        ("collision", "workers", 500, "less than or equal to 64"),
        ("import", "visual_max_faces", 10**9, "less than or equal to 2000000"),
        ("house", "grid", 0.0001, "greater than or equal to 0.01"),
        ("report", "scene_images", ["/etc/*"], "must be a pattern relative to the project folder"),
        ("report", "scene_images", ["../../*.png"], "without '..'"),
    ],
)
def test_counts_and_sizes_are_bounded(tmp_path, section, key, value, message):
    path = _params(tmp_path, lambda d: d[section].update({key: value}))
    assert _error(section, path).startswith(f"{section}.{key}") and message in _error(section, path)


def test_missing_keys_walks_nested_sections():
    assert missing_keys(Outer, {"inner": {}}) == ["seed", "inner.damping"]
    assert missing_keys(Outer, {"seed": 1, "inner": {"damping": 0.1}}) == []


@pytest.mark.parametrize(
    "text, message",
    [
        ("t: {seed: 1}\n", "missing section 'house'"),
        ("house: [\n", "not valid YAML"),
        ("house: {seed: x}\n", "house.seed: Input should be a valid integer"),
    ],
)
def test_bad_files_are_one_line_errors(tmp_path, text, message):
    assert message in _error("house", _params(tmp_path, text=text))


@pytest.mark.parametrize(
    "stage", ["import_assets", "house", "settle", "report", "rollout", "droptest", "plan", "verify"]
)
def test_every_stage_refuses_an_unknown_key(tmp_path, stage):
    section = {"import_assets": "import"}.get(stage, stage)
    text = (ROOT / "params.yaml").read_text().replace(f"\n{section}:\n", f"\n{section}:\n  typo_key: 1\n", 1)
    (tmp_path / "params.yaml").write_text(text)
    proc = subprocess.run(
        [sys.executable, "-m", f"stages.{stage}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        timeout=120,
    )
    assert proc.returncode != 0
    assert proc.stderr.strip().splitlines()[-1] == f"params.yaml: {section}.typo_key: unknown key"
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf"])
def test_yaml_nan_and_infinity_are_refused(tmp_path, value):
    text = (ROOT / "params.yaml").read_text().replace("threshold: 0.05", f"threshold: {value}", 1)
    assert _error("collision", _params(tmp_path, text=text)).startswith("collision.threshold: Input should be a finite")
