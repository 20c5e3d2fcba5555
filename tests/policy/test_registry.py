"""Policies by name: built-ins, import paths from params.yaml, installed entry points; every failure one line."""

from __future__ import annotations

import sys
import textwrap

import pytest
from pydantic import Field

from housebench.policy.base import NoopPolicy, PolicyContext, PolicyParams, TrackError
from housebench.policy.registry import ENTRY_POINT_GROUP, known_names, make_policy, policy_entries, resolve
from housebench.policy.scripted import ScriptedPolicy
from housebench.rollout.plan import RolloutParams, check_policies
from housebench.state import Action


class Waver:
    """A policy of someone else's: nothing of housebench's but the Action it returns."""

    class Params(PolicyParams):
        speed: float = Field(1.0, gt=0, le=5)

    def __init__(self, params):
        self.params = params

    def reset(self, ctx, obs):
        self.ctx = ctx

    def act(self, obs):
        return Action(stop=obs.time > 1.0)


class VisionOnly(Waver):
    tracks = ("vision",)


class NoAct:
    def reset(self, ctx, obs): ...


class BadParams(Waver):
    Params = dict


def test_builtins_resolve_with_their_class_path_and_the_package_version():
    spec = resolve("noop")
    assert spec.cls is NoopPolicy and spec.class_path == "housebench.policy.base:NoopPolicy"
    assert spec.version == __import__("housebench").__version__
    assert resolve("scripted").tracks == ("state",) and resolve("noop").tracks == ("state", "vision")


def test_an_import_path_names_the_class_and_the_rest_of_the_entry_are_its_params():
    spec = resolve("mine", {"class": f"{__name__}:Waver", "speed": 2.5})
    assert spec.cls is Waver and spec.class_path == f"{__name__}:Waver" and spec.params == {"speed": 2.5}
    assert spec.tracks == ("state", "vision")  # says nothing: both
    assert make_policy("mine", {"class": f"{__name__}:Waver", "speed": 2.5}).params.speed == 2.5


@pytest.mark.parametrize(
    "entry, message",
    [
        ({"class": "no_such_pkg.policies:Mine"}, r"^policies\.mine\.class: cannot import 'no_such_pkg\.policies'"),
        ({"class": f"{__name__}:Nope"}, r"^policies\.mine\.class: module '.*' has no 'Nope'$"),
        ({"class": "just_a_module"}, r"^policies\.mine\.class: 'just_a_module' is not an import path 'module:Class'$"),
        ({"class": f"{__name__}:NoAct"}, r"^policies\.mine\.class: '.*:NoAct' is not a policy"),
        (
            {"class": f"{__name__}:BadParams"},
            r"'.*:BadParams'\.Params is not a pydantic model$",
        ),
        ({"class": 7}, r"^policies\.mine\.class: an import path 'module:Class' or 'remote'$"),
        ({"class": f"{__name__}:Waver", "speed": 50}, r"^policies\.mine\.speed: Input should be less than or equal"),
        ({"class": f"{__name__}:Waver", "sped": 1}, r"^policies\.mine\.sped: Extra inputs are not permitted$"),
    ],
)
def test_a_bad_entry_is_one_line_naming_the_key(entry, message):
    with pytest.raises(ValueError, match=message) as err:
        make_policy("mine", entry)
    assert "\n" not in str(err.value)


def test_unknown_and_invalid_names_are_refused():
    with pytest.raises(ValueError, match=r"^policies\.magic: unknown policy \(known: noop, planned, scripted"):
        resolve("magic")
    with pytest.raises(ValueError, match=r"^policies: '\.\./x' is not a name"):
        resolve("../x")
    with pytest.raises(ValueError, match=r"\\x1b"):  # an escape sequence is echoed escaped, never raw
        resolve("mine", {"class": "\x1b[2Jpkg:Cls"})


@pytest.fixture
def installed_plugin(tmp_path, monkeypatch):
    """A package installed the way pip leaves one: its module and a dist-info with an entry point."""
    (tmp_path / "hb_plugin_pkg.py").write_text(f"from {__name__} import Waver as Plugged\n")
    info = tmp_path / "hb_plugin_pkg-1.2.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hb-plugin-pkg\nVersion: 1.2.3\n")
    (info / "top_level.txt").write_text("hb_plugin_pkg\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nplugged = hb_plugin_pkg:Plugged\n")
    (info / "RECORD").write_text(textwrap.dedent("hb_plugin_pkg.py,,\n"))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    sys.modules.pop("hb_plugin_pkg", None)


def test_an_installed_entry_point_is_a_name_with_its_package_version(installed_plugin):
    assert "plugged" in known_names()
    spec = resolve("plugged", {"speed": 3})
    assert spec.class_path == "hb_plugin_pkg:Plugged" and spec.version == "1.2.3"
    assert spec.make().params.speed == 3


def test_the_run_refuses_a_policy_on_a_track_it_cannot_work_on():
    base = dict(seed=0, episodes_per_variant=1, backend="mujoco", horizon_s=10, control_dt=0.1, pose_noise_m=0)
    base |= dict(executor="local", workers=1)
    vision = RolloutParams(policies=["noop", "scripted"], track="vision", **base)
    with pytest.raises(ValueError, match=r"^rollout\.track: policy 'scripted' \(.*ScriptedPolicy\) works on the state"):
        check_policies(vision, {})
    state = RolloutParams(policies=["noop", "eyes"], track="state", **base)
    with pytest.raises(ValueError, match=r"policy 'eyes' .* works on the vision track, not 'state'"):
        check_policies(state, {"eyes": {"class": f"{__name__}:VisionOnly"}})
    eyes = RolloutParams(policies=["noop", "eyes"], track="vision", **base)
    specs = check_policies(eyes, {"eyes": {"class": f"{__name__}:VisionOnly"}})
    assert [(s.name, s.class_path) for s in specs] == [
        ("noop", "housebench.policy.base:NoopPolicy"),
        ("eyes", f"{__name__}:VisionOnly"),
    ]


def test_the_scripted_policy_refuses_a_context_without_ground_truth():
    ctx = PolicyContext(None, None, 0.1, 10.0, lambda *a, **k: None, track="vision", instruction="Tidy up.")
    with pytest.raises(TrackError, match="policy 'scripted' needs the state track"):
        ScriptedPolicy(ScriptedPolicy.Params()).reset(ctx, None)


def test_policy_entries_read_params_yaml(tmp_path):
    assert policy_entries(tmp_path / "none.yaml") == {}
    path = tmp_path / "params.yaml"
    path.write_text("policies:\n  noop: {}\n  mine: {class: 'pkg:Cls', speed: 2}\n")
    assert policy_entries(path) == {"noop": {}, "mine": {"class": "pkg:Cls", "speed": 2}}
    path.write_text("policies:\n  mine: [1, 2]\n")
    with pytest.raises(ValueError, match=r"params\.yaml: policies\.mine: a mapping"):
        policy_entries(path)
