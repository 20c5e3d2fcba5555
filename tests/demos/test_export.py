"""``housebench dataset export``: LeRobot v3's layout, and frames that match the recording when read back."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from housebench.cli import main
from housebench.demos.lerobot_v3 import frame_arrays
from housebench.demos.recording import load_recording


@pytest.fixture(scope="module")
def exported(recordings, tmp_path_factory):
    out = tmp_path_factory.mktemp("datasets")
    root = recordings[0].parent.parent.parent
    result = CliRunner().invoke(main, ["dataset", "export", str(root), "--out", str(out), "--failures"])
    assert result.exit_code == 0, result.output
    return out, [json.loads(line) for line in result.output.splitlines()]


def test_failures_are_left_out_unless_asked(recordings, tmp_path):
    if any(load_recording(p).success for p in recordings):
        pytest.skip("a short recording succeeded")
    result = CliRunner().invoke(main, ["dataset", "export", str(recordings[0]), "--out", str(tmp_path / "d")])
    assert result.exit_code == 1 and "none of 1 recordings to export (failures: False)" in result.output
    assert not (tmp_path / "d").exists()


def test_the_layout_is_lerobots_v3(exported, recordings):
    out, written = exported
    assert sorted(w["task"] for w in written) == sorted(load_recording(p).meta["task"] for p in recordings)
    for summary in written:
        root = out / summary["task"]
        info = json.loads((root / "meta/info.json").read_text())
        assert info["codebase_version"] == "v3.0"
        assert info["total_episodes"] == 1 and info["total_frames"] == summary["frames"]
        assert info["splits"] == {"train": "0:1"}
        for name in ("timestamp", "frame_index", "episode_index", "index", "task_index"):
            assert name in info["features"]
        stats = json.loads((root / "meta/stats.json").read_text())
        for key, feature in info["features"].items():
            if feature["dtype"] == "float32":
                assert len(stats[key]["mean"]) == feature["shape"][0]
                assert set(stats[key]) == {"min", "max", "mean", "std", "count", "q01", "q10", "q50", "q90", "q99"}
        tasks = pd.read_parquet(root / "meta/tasks.parquet")
        assert tasks.index.name == "task" and tasks["task_index"].tolist() == [0]
        episodes = pq.read_table(root / "meta/episodes/chunk-000/file-000.parquet").to_pylist()
        assert episodes[0]["length"] == summary["frames"]
        assert (episodes[0]["dataset_from_index"], episodes[0]["dataset_to_index"]) == (0, summary["frames"])
        assert episodes[0]["tasks"] == tasks.index.tolist()
        video_keys = [k for k, f in info["features"].items() if f["dtype"] == "video"]
        for key in video_keys:
            assert (root / info["video_path"].format(video_key=key, chunk_index=0, file_index=0)).is_file()
            assert episodes[0][f"videos/{key}/to_timestamp"] == pytest.approx(summary["frames"] / info["fps"])


def test_the_frames_match_the_recording(exported, recordings):
    out, _ = exported
    for path in recordings:
        rec = load_recording(path)
        root = out / rec.meta["task"]
        table = pq.read_table(root / "data/chunk-000/file-000.parquet")
        every = (rec.meta["images"] or {}).get("every", 1)
        rows = [i for i in range(rec.steps) if i % every == 0]
        assert table.num_rows == len(rows)
        expected = frame_arrays(rec, "state")
        for key, values in expected.items():
            read = np.array(table.column(key).to_pylist(), dtype=np.float32)
            assert np.array_equal(read, values), key
        # observation.state starts with the robot's joints, action is the env's action vector: in float32
        joints = rec.array("obs.joints")[rows].astype(np.float32)
        assert np.array_equal(expected["observation.state"][:, : joints.shape[1]], joints)
        assert np.array_equal(expected["action"], rec.array("action")[rows].astype(np.float32))
        done = table.column("next.done").to_pylist()
        assert done == [False] * (len(rows) - 1) + [True]
        assert table.column("timestamp").to_numpy().tolist() == pytest.approx(
            [i / (1 / (rec.meta["control_dt"] * every)) for i in range(len(rows))]
        )
        subtasks = table.column("language_persistent").to_pylist()[0]
        labels = [f"{s} {t}".strip() for s, t in zip(rec.array("skill")[rows], rec.array("target")[rows])]
        starts = [label for i, label in enumerate(labels) if label and (i == 0 or labels[i - 1] != label)]
        assert [row["content"] for row in subtasks] == starts and starts
        assert all(row["style"] == "subtask" for row in subtasks)
