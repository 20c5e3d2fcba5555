"""A recorded episode on disk: one folder, written whole or not at all.

::

    <episode>/meta.json       provenance (task, variant, seed, policy, split, code commit, scene hash), the
                              layouts (observation keys and shapes, actuators, action), the verdict
    <episode>/frames.parquet  one row per control step, plus the terminal row (``terminal``): ``step``,
                              ``time``, ``obs.<key>`` (the Gymnasium env's arrays, flattened), ``action``
                              (the env's action vector), ``ctrl`` (every actuator's target), ``stop``,
                              ``physics`` (MuJoCo's integration state), ``thermal_run_left_s``, ``skill``,
                              ``target``, ``look`` (what the head should see, '' for nothing) and
                              ``in_view`` (its point lands in the head image)
    <episode>/head.mp4        optional: head images (H.264), frame ``j`` taken at step ``j * every``

The folder is written under a temporary name and renamed when complete, so an interrupted run leaves no
half-written episode that a resumed run would take for finished.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

FORMAT = 2  # meta.json's "format": bump when the folder's layout changes (2: the ``look`` and ``in_view`` columns)
FRAMES = "frames.parquet"
META = "meta.json"
ROW_GROUP = 256  # rows buffered before a row group is written: bounds memory on long episodes


def _arrow_type(value) -> pa.DataType:
    if isinstance(value, np.ndarray):
        return pa.list_(pa.float64())
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, int):
        return pa.int64()
    if isinstance(value, float):
        return pa.float64()
    return pa.string()


class RecordingWriter:
    """Rows and images in, a finished folder out (:meth:`close`) or nothing (:meth:`abort`)."""

    def __init__(self, out: Path, meta: dict, video_fps: float | None = None) -> None:
        self.out, self.meta = Path(out), meta
        self.tmp = self.out.with_name(f".{self.out.name}.tmp-{os.getpid()}")
        if self.tmp.exists():
            shutil.rmtree(self.tmp)
        self.tmp.mkdir(parents=True)
        self.rows: list[dict] = []
        self.schema: pa.Schema | None = None
        self.parquet: pq.ParquetWriter | None = None
        self.video = None
        if video_fps is not None:
            import imageio.v2 as imageio  # with its ffmpeg plugin (imageio-ffmpeg)

            self.video = imageio.get_writer(
                self.tmp / meta["images"]["file"],
                fps=video_fps,
                codec="libx264",
                pixelformat="yuv420p",
                macro_block_size=2,
                ffmpeg_log_level="error",
            )
        self.frames = 0

    def add_row(self, row: dict) -> None:
        self.rows.append(row)
        if len(self.rows) >= ROW_GROUP:
            self._flush()

    def add_image(self, rgb: np.ndarray) -> None:
        self.video.append_data(rgb)
        self.frames += 1

    def _flush(self) -> None:
        if not self.rows:
            return
        if self.schema is None:
            self.schema = pa.schema([(k, _arrow_type(v)) for k, v in self.rows[0].items()])
            self.parquet = pq.ParquetWriter(self.tmp / FRAMES, self.schema, compression="zstd")
        columns = {k: [r[k] for r in self.rows] for k in self.schema.names}
        self.parquet.write_table(pa.table(columns, schema=self.schema))
        self.rows.clear()

    def close(self, summary: dict) -> Path:
        """Write what is buffered and meta.json (with ``summary``), and move the folder into place."""
        self._flush()
        self.parquet.close()
        if self.video is not None:
            self.video.close()
            self.meta["images"]["frames"] = self.frames
        (self.tmp / META).write_text(json.dumps({"format": FORMAT, **self.meta, **summary}, indent=1) + "\n")
        if self.out.exists():
            shutil.rmtree(self.out)
        self.tmp.rename(self.out)
        return self.out

    def abort(self) -> None:
        if self.parquet is not None:
            self.parquet.close()
        if self.video is not None:
            self.video.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


@dataclass
class Recording:
    """A recorded episode read back: ``meta`` (meta.json) and ``frames`` (the Arrow table)."""

    path: Path
    meta: dict
    frames: pa.Table

    def array(self, column: str) -> np.ndarray:
        """A list column as a (rows, values) float64 array; a scalar column as a (rows,) array."""
        col = self.frames.column(column)
        if pa.types.is_list(col.type):
            flat = col.combine_chunks().flatten().to_numpy(zero_copy_only=False)
            return flat.reshape(len(col), -1)
        return col.to_numpy(zero_copy_only=False)

    @property
    def success(self) -> bool:
        return bool(self.meta.get("verdict", {}).get("success", False))

    @property
    def steps(self) -> int:
        """Control steps (rows without the terminal one)."""
        return self.frames.num_rows - 1


def read_meta(path: Path) -> dict:
    """A recorded episode's meta.json; a missing or foreign folder is a one-line error naming it."""
    path = Path(path)
    meta_file = path / META
    if not meta_file.is_file() or not (path / FRAMES).is_file():
        raise ValueError(f"{path}: not a recorded episode (no {META} or {FRAMES})")
    meta = json.loads(meta_file.read_text())
    if meta.get("format") != FORMAT:
        raise ValueError(f"{meta_file}: format: {meta.get('format')!r}, this reader reads {FORMAT}")
    return meta


def load_recording(path: Path, columns: list[str] | None = None) -> Recording:
    """A recorded episode folder, its frames (only ``columns`` when given: the simulator state is most of a
    recording's bytes, and an export does not need it)."""
    meta = read_meta(path)
    return Recording(Path(path), meta, pq.read_table(Path(path) / FRAMES, columns=columns))


def find_recordings(roots: list[Path]) -> list[Path]:
    """Every recorded episode folder at or under ``roots``, sorted (temporary folders skipped)."""
    found = set()
    for root in map(Path, roots):
        if (root / META).is_file():
            found.add(root)
            continue
        if not root.is_dir():
            raise ValueError(f"{root}: no such folder of recordings")
        hidden = (p for p in root.rglob(META) if any(x.startswith(".") for x in p.relative_to(root).parts))
        found.update(p.parent for p in set(root.rglob(META)) - set(hidden))
    return sorted(found)
