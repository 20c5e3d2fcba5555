"""Run CoACD in its own process (``python -m housebench.assets.coacd_worker in.npz out.npz``).

CoACD can crash or hang on hostile meshes; :func:`housebench.assets.collision.decompose` runs this
under a timeout and falls back to the convex hull. ``in.npz`` holds ``vertices``, ``faces`` and
``kwargs`` (JSON for ``coacd.run_coacd``); ``out.npz`` gets ``v<i>``/``f<i>`` per hull.
"""

from __future__ import annotations

import json
import sys

import numpy as np


def main(src: str, dst: str) -> None:
    import coacd

    coacd.set_log_level("error")
    data = np.load(src)
    parts = coacd.run_coacd(coacd.Mesh(data["vertices"], data["faces"]),
                            **json.loads(str(data["kwargs"])))
    arrays = {}
    for i, (v, f) in enumerate(parts):
        arrays[f"v{i}"], arrays[f"f{i}"] = np.asarray(v, float), np.asarray(f, np.int64)
    np.savez(dst, **arrays)


if __name__ == "__main__":
    main(*sys.argv[1:3])
