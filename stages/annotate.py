"""DVC stage `annotate`: ground-truth annotations of every settled task scene.

Reads ``scenes/settled/``, ``scenes/tasks/*/*/task.json``, each variant's house annotations
(``annotations/house.json``, ``scenes/house/<id>/house.json``) and ``annotations/assets.json``; writes
``annotations/scenes/<task>__<variant>.json``.
"""

from __future__ import annotations

from housebench.paths import Layout
from housebench.pipeline.annotate import annotate_all
from housebench.procs import die_with_parent


def main() -> None:
    die_with_parent()  # killing dvc repro takes this stage and its workers with it
    for scene in annotate_all(Layout()):
        print(f"annotated {scene}")


if __name__ == "__main__":
    main()
