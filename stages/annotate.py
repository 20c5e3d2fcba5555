"""DVC stage `annotate`: ground-truth annotations of every settled task scene.

Reads ``scenes/settled/``, ``scenes/tasks/*/*/task.json``, ``annotations/house.json`` and
``annotations/assets.json``; writes ``annotations/scenes/<task>__<variant>.json``.
"""

from __future__ import annotations

from housebench.paths import Layout
from housebench.pipeline.annotate import annotate_all


def main() -> None:
    for scene in annotate_all(Layout()):
        print(f"annotated {scene}")


if __name__ == "__main__":
    main()
