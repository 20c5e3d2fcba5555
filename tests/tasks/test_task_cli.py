"""``housebench task validate`` and ``housebench evaluate``: exit codes 0 / 2 / 3 and the verdict JSON."""

from __future__ import annotations

import json

from click.testing import CliRunner
from task_world import SPEC, state_of

from housebench.cli import main
from housebench.io import write_json
from housebench.tasks.sampler import SamplerParams, sample_variant
from housebench.tasks.spec import load_spec


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_validate_exit_codes(tmp_path):
    ok = _run("task", "validate", SPEC)
    assert ok.exit_code == 0 and "ok (2 objects)" in ok.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**json.loads(SPEC.read_text()), "version": 3}))
    result = _run("task", "validate", bad)
    assert result.exit_code == 2
    assert result.output.strip() == f"{bad}: version: 3 is not supported (this housebench reads 1)"


def test_evaluate_exit_codes(tmp_path, house, assets, scene):
    variant = sample_variant("put_fruit_in_container", load_spec(SPEC), "h", "v000", 0, house, assets, SamplerParams())
    files = {name: tmp_path / f"{name}.json" for name in ("task", "good", "bad", "annotations", "broken")}
    write_json(files["task"], variant.model_dump(mode="json"))
    write_json(files["annotations"], scene.model_dump(mode="json"))
    write_json(files["good"], state_of(scene, {"apple": {"pos": [2.0, 1.9, 0.76]}}).model_dump(mode="json"))
    write_json(files["bad"], state_of(scene).model_dump(mode="json"))
    write_json(files["broken"], {"objects": {"apple": {"pos": [0, 0]}}})
    common = ["evaluate", "--task", files["task"], "--annotations", files["annotations"], "--state"]
    success = _run(*common, files["good"])
    assert success.exit_code == 0 and json.loads(success.output)["success"] is True
    failure = _run(*common, files["bad"])
    assert failure.exit_code == 3 and json.loads(failure.output)["progress"] == 2 / 3
    broken = _run(*common, files["broken"])
    assert broken.exit_code == 2 and "objects.apple.pos" in broken.output
    missing = _run(
        "evaluate", "--task", files["task"], "--state", files["good"], "--annotations", tmp_path / "nope.json"
    )
    assert missing.exit_code == 2 and "nope.json" in missing.output


def test_evaluate_closed_and_heated_from_the_state_file(tmp_path, house, assets, scene):
    spec = load_spec(SPEC).model_copy(
        update={
            "goal": {
                "all_of": [
                    {"predicate": "closed", "parts": ["fridge"]},
                    {"predicate": "heated", "items": ["apple"], "min_c": 60.0},
                ]
            }
        }
    )
    variant = sample_variant("put_fruit_in_container", spec, "h", "v000", 0, house, assets, SamplerParams())
    write_json(tmp_path / "task.json", variant.model_dump(mode="json"))
    write_json(tmp_path / "scene.json", scene.model_dump(mode="json"))
    codes = {}
    for name, extra in {
        "ok": {"joints": {"fridge/door": 0.1}, "temperatures_c": {"apple": 60.0}},
        "open": {"joints": {"fridge/door": 0.2}, "temperatures_c": {"apple": 60.0}},
        "no_joint": {"temperatures_c": {"apple": 60.0}},
    }.items():
        write_json(tmp_path / f"{name}.json", state_of(scene, **extra).model_dump(mode="json"))
        result = _run(
            "evaluate",
            "--task",
            tmp_path / "task.json",
            "--annotations",
            tmp_path / "scene.json",
            "--state",
            tmp_path / f"{name}.json",
        )
        codes[name] = result.exit_code
        if name == "open":
            assert json.loads(result.output)["conditions"][0]["items"][0]["reason"].startswith("fridge/door: 0.2")
    assert codes == {"ok": 0, "open": 3, "no_joint": 2}
