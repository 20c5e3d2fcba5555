"""Recorded episodes as a LeRobot dataset, format v3.0 (the layout of LeRobot's own writer,
``lerobot.datasets``: ``LeRobotDatasetMetadata`` and ``DatasetWriter``), written with pyarrow and pandas so
housebench does not need LeRobot (torch) installed; LeRobot's loader reads it back (``tests/demos``).

::

    meta/info.json                                  codebase_version v3.0, fps, features, totals, paths
    meta/stats.json                                 min, max, mean, std, count, q01..q99 per feature
    meta/tasks.parquet                              the instructions (index ``task``, column ``task_index``)
    meta/episodes/chunk-000/file-000.parquet        one row per episode: length, where its frames and
                                                    video are, its stats, and housebench/* provenance
    data/chunk-000/file-000.parquet                 the frames, one row group per episode
    videos/observation.images.head/chunk-000/file-NNN.mp4   one H.264 file per episode (as recorded)

Features: ``observation.state`` (robot joints, base, gripper frame, finger gap), ``observation.velocity``
(joint velocities), on the state track ``observation.environment_state`` (each prop's pose and
velocity, each part's joint value, each prop's temperature), ``observation.images.head`` when recorded,
``action`` (the env's action vector), ``next.done``, ``next.success``, and ``language_persistent``: the
skill the policy is in, as LeRobot's persistent ``subtask`` rows (one per skill start, with its time).

A dataset needs one layout: variants whose props differ (an optional object drawn absent, a plate
instead of a bowl) give different environment states, so recordings are grouped by task and layout,
one dataset each: ``<out>/<task>`` (``<out>/<task>-<layout hash>`` where a task has several).
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from housebench.demos.recording import Recording, load_recording, read_meta
from housebench.hashing import text_hash

CODEBASE_VERSION = "v3.0"
CHUNKS_SIZE = 1000  # files per chunk folder (LeRobot's DEFAULT_CHUNK_SIZE)
DATA_FILE_MB = 100  # LeRobot's DEFAULT_DATA_FILE_SIZE_IN_MB: a data file is closed past this
VIDEO_FILE_MB = 200
DATA_PATH = "data/chunk-{chunk_index:03d}/file-{file_index:03d}.parquet"
VIDEO_PATH = "videos/{video_key}/chunk-{chunk_index:03d}/file-{file_index:03d}.mp4"
EPISODES_PATH = "meta/episodes/chunk-000/file-000.parquet"
QUANTILES = (0.01, 0.10, 0.50, 0.90, 0.99)
ROBOT_TYPE = "fetch_mobile"
IMAGE_KEY = "observation.images.{camera}"
# A persistent language row as LeRobot's annotation writer stores it (pyarrow's inference from its rows:
# ``timestamp`` a double, ``camera`` and ``tool_calls`` all null); fixed here so that every episode's rows,
# an episode without skill events included, share one Parquet schema.
SUBTASK_ROW = pa.struct(
    [
        ("role", pa.string()),
        ("content", pa.string()),
        ("style", pa.string()),
        ("timestamp", pa.float64()),
        ("camera", pa.null()),
        ("tool_calls", pa.null()),
    ]
)


@dataclass(frozen=True)
class Feature:
    """One non-video feature: its source columns in the recording and its names."""

    key: str
    columns: tuple[str, ...]
    names: tuple[str, ...]


def _vector_features(meta: dict, track: str) -> list[Feature]:
    names = meta["names"]
    joints = [f"joints.{j}" for j in names["joints"]]
    state = Feature(
        "observation.state",
        ("obs.joints", "obs.base", "obs.ee_pos", "obs.ee_quat", "obs.gripper_opening"),
        (
            *joints,
            "base.x",
            "base.y",
            "base.yaw",
            "ee_pos.x",
            "ee_pos.y",
            "ee_pos.z",
            "ee_quat.w",
            "ee_quat.x",
            "ee_quat.y",
            "ee_quat.z",
            "gripper_opening",
        ),
    )
    velocity = Feature(
        "observation.velocity", ("obs.joint_velocities",), tuple(f"velocity.{j}" for j in names["joints"])
    )
    fields = ("x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz")
    env = Feature(
        "observation.environment_state",
        ("obs.objects", "obs.parts", "obs.temperatures_c"),
        (
            *(f"objects.{o}.{f}" for o in names["objects"] for f in fields),
            *(f"parts.{p}" for p in names["parts"]),
            *(f"temperatures_c.{o}" for o in names["objects"]),
        ),
    )
    action = Feature("action", ("action",), tuple(meta["action_layout"]))
    return [state, velocity, *([env] if track == "state" else []), action]


def layout_key(m: dict) -> tuple:
    """What must agree between the episodes of one dataset (from their meta.json)."""
    images = m.get("images") or {}
    return (
        m["task"],
        tuple(m["names"]["objects"]),
        tuple(m["names"]["parts"]),
        tuple(m["names"]["joints"]),
        m["control_dt"],
        images.get("camera"),
        tuple(images.get("size") or ()),
        images.get("every"),
    )


def _fps(meta: dict) -> int:
    every = (meta.get("images") or {}).get("every", 1)
    fps = 1.0 / (meta["control_dt"] * every)
    if abs(fps - round(fps)) > 1e-9:
        raise ValueError(f"{meta['task']}/{meta['variant']}: frame rate {fps} is not whole (LeRobot's fps is an int)")
    return round(fps)


def _rows(rec: Recording) -> np.ndarray:
    """The recording's rows that become frames: every control step (the terminal row is the state after
    the last action, with no action of its own), thinned to the image rate when images were recorded."""
    every = (rec.meta.get("images") or {}).get("every", 1)
    steps = rec.array("step")[: rec.steps]
    return np.nonzero(steps % every == 0)[0]


def frame_arrays(rec: Recording, track: str) -> dict[str, np.ndarray]:
    """The float32 arrays of the dataset's vector features for ``rec`` (rows as :func:`_rows`)."""
    rows = _rows(rec)
    out = {}
    for feature in _vector_features(rec.meta, track):
        parts = [rec.array(c)[rows].reshape(len(rows), -1) for c in feature.columns]
        out[feature.key] = np.concatenate(parts, axis=1).astype(np.float32)
    return out


def _subtasks(rec: Recording, rows: np.ndarray, fps: int) -> list[dict]:
    """LeRobot persistent ``subtask`` rows: one per change of skill, at the dataset time it starts."""
    skills, targets = rec.array("skill")[rows], rec.array("target")[rows]
    out, last = [], None
    for i, (skill, target) in enumerate(zip(skills, targets)):
        label = f"{skill} {target}".strip()
        if label and label != last:
            out.append(
                {
                    "role": "assistant",
                    "content": label,
                    "style": "subtask",
                    "timestamp": i / fps,
                    "camera": None,
                    "tool_calls": None,
                }
            )
        last = label
    return out


def feature_stats(values: np.ndarray) -> dict[str, np.ndarray]:
    """LeRobot's per-feature stats of (frames, dims) values: min, max, mean, std, count, quantiles."""
    values = np.asarray(values, dtype=np.float64)
    stats = {
        "min": values.min(axis=0),
        "max": values.max(axis=0),
        "mean": values.mean(axis=0),
        "std": values.std(axis=0),
        "count": np.array([len(values)]),
    }
    for q in QUANTILES:
        stats[f"q{int(q * 100):02d}"] = np.quantile(values, q, axis=0)
    return stats


def aggregate_stats(per_episode: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The dataset's stats from its episodes' (LeRobot's ``aggregate_feature_stats``: exact min, max,
    mean and std; quantiles as the envelope of the episodes', low ones the minimum, high ones the maximum)."""
    counts = np.array([s["count"][0] for s in per_episode], dtype=np.float64)
    means = np.stack([s["mean"] for s in per_episode])
    variances = np.stack([s["std"] ** 2 for s in per_episode])
    shape = (-1,) + (1,) * (means.ndim - 1)
    total = counts.sum()
    mean = (means * counts.reshape(shape)).sum(axis=0) / total
    var = ((variances + (means - mean) ** 2) * counts.reshape(shape)).sum(axis=0) / total
    out = {
        "min": np.min(np.stack([s["min"] for s in per_episode]), axis=0),
        "max": np.max(np.stack([s["max"] for s in per_episode]), axis=0),
        "mean": mean,
        "std": np.sqrt(var),
        "count": np.array([int(total)]),
    }
    for q in QUANTILES:
        key = f"q{int(q * 100):02d}"
        stack = np.stack([s[key] for s in per_episode])
        out[key] = stack.min(axis=0) if q <= 0.5 else stack.max(axis=0)
    return out


def _image_stats(video: Path, frames: int) -> dict[str, np.ndarray]:
    """Per-channel stats in [0, 1] of up to 100 evenly spaced frames (as LeRobot samples them), each
    of shape (3, 1, 1)."""
    import imageio.v3 as iio

    take = set(np.round(np.linspace(0, frames - 1, min(frames, 100))).astype(int).tolist())
    pixels = [f.reshape(-1, 3) for i, f in enumerate(iio.imiter(video)) if i in take]
    stats = feature_stats(np.concatenate(pixels) / 255.0)
    stats["count"] = np.array([len(pixels)])
    return {k: v if k == "count" else v.reshape(3, 1, 1) for k, v in stats.items()}


def _jsonable(stats: dict[str, dict[str, np.ndarray]]) -> dict:
    return {k: {s: np.asarray(v).tolist() for s, v in fs.items()} for k, fs in stats.items()}


def export_lerobot(paths: list[Path], out: Path, failures: bool = False, track: str = "state") -> list[dict]:
    """Write the recordings at ``paths`` (successful ones; with ``failures`` the failed ones too, their
    ``next.success`` false) as LeRobot v3 datasets under ``out``; one summary per dataset written."""
    metas = {Path(p): read_meta(p) for p in paths}  # the frames are read one episode at a time, later
    if track == "vision" and (blind := [p for p, m in metas.items() if not m.get("images")]):
        raise ValueError(f"{blind[0]}: recorded without images, nothing a vision dataset could show")
    chosen = [p for p, m in metas.items() if m.get("success") or failures]
    if not chosen:
        raise ValueError(f"dataset export: none of {len(metas)} recordings to export (failures: {failures})")
    groups: dict[tuple, list[Path]] = defaultdict(list)
    for path in chosen:
        groups[layout_key(metas[path])].append(path)
    per_task = defaultdict(int)
    for key in groups:
        per_task[key[0]] += 1
    out = Path(out)
    summaries = []
    for key, group in sorted(groups.items(), key=lambda kv: repr(kv[0])):
        task = key[0]
        name = task if per_task[task] == 1 else f"{task}-{text_hash(repr(key))[:8]}"
        group.sort(key=lambda p: (metas[p]["variant"], metas[p]["seed"], metas[p]["policy"]))
        summaries.append(write_dataset(group, out / name, track))
    return summaries


def _features(meta: dict, track: str, fps: int) -> dict[str, dict]:
    features: dict[str, dict] = {}
    for feature in _vector_features(meta, track):
        features[feature.key] = {"dtype": "float32", "shape": [len(feature.names)], "names": list(feature.names)}
    images = meta.get("images")
    if images:
        width, height = images["size"]
        features[IMAGE_KEY.format(camera=images["camera"])] = {
            "dtype": "video",
            "shape": [height, width, 3],
            "names": ["height", "width", "channels"],
            "info": {
                "video.height": height,
                "video.width": width,
                "video.codec": "h264",
                "video.pix_fmt": "yuv420p",
                "video.is_depth_map": False,
                "video.fps": fps,
                "video.channels": 3,
                "has_audio": False,
                "is_depth_map": False,
            },
        }
    features["next.done"] = {"dtype": "bool", "shape": [1], "names": None}
    features["next.success"] = {"dtype": "bool", "shape": [1], "names": None}
    features["language_persistent"] = {"dtype": "language", "shape": [1], "names": None}
    features["timestamp"] = {"dtype": "float32", "shape": [1], "names": None}
    for name in ("frame_index", "episode_index", "index", "task_index"):
        features[name] = {"dtype": "int64", "shape": [1], "names": None}
    return features


def _data_table(rec: Recording, track: str, fps: int, episode: int, first: int, task_index: int) -> pa.Table:
    arrays = frame_arrays(rec, track)
    rows = _rows(rec)
    n = len(rows)
    done = np.zeros(n, dtype=bool)
    done[-1] = True
    columns = {
        key: pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1), pa.float32()), values.shape[1])
        for key, values in arrays.items()
    }
    columns["next.done"] = pa.array(done)
    columns["next.success"] = pa.array(done & rec.success)
    columns["language_persistent"] = pa.array([_subtasks(rec, rows, fps)] * n, pa.list_(SUBTASK_ROW))
    columns["timestamp"] = pa.array((np.arange(n) / fps).astype(np.float32))
    columns["frame_index"] = pa.array(np.arange(n, dtype=np.int64))
    columns["episode_index"] = pa.array(np.full(n, episode, dtype=np.int64))
    columns["index"] = pa.array(np.arange(first, first + n, dtype=np.int64))
    columns["task_index"] = pa.array(np.full(n, task_index, dtype=np.int64))
    return pa.table(columns)


def write_dataset(paths: list[Path], root: Path, track: str = "state") -> dict:
    """One LeRobot v3 dataset of the recordings at ``paths`` (one layout) at ``root`` (replaced); one episode's
    frames in memory at a time."""
    metas = [read_meta(p) for p in paths]
    meta = metas[0]
    fps = _fps(meta)
    features = _features(meta, track, fps)
    video_key = IMAGE_KEY.format(camera=meta["images"]["camera"]) if meta.get("images") else None
    tmp = root.with_name(f".{root.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "meta").mkdir(parents=True)
    tasks = sorted({m["instruction"] for m in metas})
    task_index = {t: i for i, t in enumerate(tasks)}
    episodes, all_stats = [], []
    writer: pq.ParquetWriter | None = None
    chunk, file, file_bytes, total = 0, 0, 0, 0
    columns = ["step", "skill", "target", *(c for f in _vector_features(meta, track) for c in f.columns)]
    for ep, path in enumerate(paths):
        rec = load_recording(path, columns)
        table = _data_table(rec, track, fps, ep, total, task_index[rec.meta["instruction"]])
        if writer is not None and file_bytes + table.nbytes > DATA_FILE_MB * 1024**2:
            writer.close()
            writer, file_bytes = None, 0
            chunk, file = (chunk + 1, 0) if file == CHUNKS_SIZE - 1 else (chunk, file + 1)
        if writer is None:
            path = tmp / DATA_PATH.format(chunk_index=chunk, file_index=file)
            path.parent.mkdir(parents=True, exist_ok=True)
            writer = pq.ParquetWriter(path, table.schema, compression="snappy", use_dictionary=True)
        writer.write_table(table)  # one row group per episode, as LeRobot writes them
        file_bytes += table.nbytes
        n = table.num_rows
        stats = {key: feature_stats(v) for key, v in frame_arrays(rec, track).items()}
        for key in ("next.done", "next.success", "timestamp", "frame_index", "episode_index", "index", "task_index"):
            stats[key] = feature_stats(table.column(key).to_numpy(zero_copy_only=False).astype(np.float64)[:, None])
        row = {
            "episode_index": ep,
            "tasks": [rec.meta["instruction"]],
            "length": n,
            "data/chunk_index": chunk,
            "data/file_index": file,
            "dataset_from_index": total,
            "dataset_to_index": total + n,
        }
        if video_key:
            vchunk, vfile = divmod(ep, CHUNKS_SIZE)
            target = tmp / VIDEO_PATH.format(video_key=video_key, chunk_index=vchunk, file_index=vfile)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(rec.path / rec.meta["images"]["file"], target)
            stats[video_key] = _image_stats(target, n)
            row.update(
                {
                    f"videos/{video_key}/chunk_index": vchunk,
                    f"videos/{video_key}/file_index": vfile,
                    f"videos/{video_key}/from_timestamp": 0.0,
                    f"videos/{video_key}/to_timestamp": n / fps,
                }
            )
        row.update({"meta/episodes/chunk_index": 0, "meta/episodes/file_index": 0})
        for key, fs in stats.items():
            for name, value in fs.items():
                row[f"stats/{key}/{name}"] = np.asarray(value).tolist()
        m = rec.meta
        row.update(
            {
                "housebench/task": m["task"],
                "housebench/variant": m["variant"],
                "housebench/seed": m["seed"],
                "housebench/policy": m["policy"],
                "housebench/split": m.get("split", ""),
                "housebench/track": m.get("track", "state"),
                "housebench/success": bool(m["success"]),
                "housebench/code_commit": m.get("code_commit", ""),
                "housebench/scene_hash": m.get("scene_hash", ""),
                "housebench/recording": rec.path.name,
            }
        )
        episodes.append(row)
        all_stats.append(stats)
        total += n
    writer.close()
    path = tmp / EPISODES_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(episodes), path)
    pd.DataFrame({"task_index": list(task_index.values())}, index=pd.Index(tasks, name="task")).to_parquet(
        tmp / "meta/tasks.parquet"
    )
    stats = {key: aggregate_stats([s[key] for s in all_stats]) for key in all_stats[0]}
    (tmp / "meta/stats.json").write_text(json.dumps(_jsonable(stats), indent=1) + "\n")
    info = {
        "codebase_version": CODEBASE_VERSION,
        "fps": fps,
        "features": features,
        "total_episodes": len(paths),
        "total_frames": total,
        "total_tasks": len(tasks),
        "chunks_size": CHUNKS_SIZE,
        "data_files_size_in_mb": DATA_FILE_MB,
        "video_files_size_in_mb": VIDEO_FILE_MB,
        "data_path": DATA_PATH,
        "video_path": VIDEO_PATH if video_key else None,
        "robot_type": ROBOT_TYPE,
        "splits": {"train": f"0:{len(paths)}"},
    }
    (tmp / "meta/info.json").write_text(json.dumps(info, indent=4) + "\n")
    shutil.rmtree(root, ignore_errors=True)
    tmp.rename(root)
    return {"path": str(root), "task": meta["task"], "episodes": len(paths), "frames": total, "fps": fps}
