#!/usr/bin/env bash
# The rate runs on the lent 16-core machine (no package registry there; README "Benchmarks"): the wheels it lacks
# travel in .wheels/ (cp312, `pip download --python-version 3.12 --only-binary=:all: --no-deps`), the Fetch model
# files in build/devpkgs/ (with a dist-info of their version: the model cache's key names it), the built data as
# build/data.tar.gz (scenes/{settled,tasks,house}, annotations, assets_built/sim, made here by `dvc repro annotate`;
# no PNG but the house's textures, which the models embed):
#   { find scenes/settled scenes/tasks scenes/house annotations assets_built/sim -type f ! -name '*.png';
#     ls scenes/house/textures/*.png; } > /tmp/list && tar czf build/data.tar.gz -T /tmp/list
# Each step is one `device` call, the next within the machine's idle window, so what a step leaves under build/
# and runs/ is still there.
#   bench/device.sh install                 # the wheels into build/devenv
#   bench/device.sh unpack                  # the built data
#   bench/device.sh rates POLICY [ARGS...]  # bench_scripted.py over every task, 20 variants, seed 0, 16 workers
#                                           # (ARGS override: --houses p100 ... --variants 2); rows kept in
#                                           # runs/bench/$NAME.jsonl (NAME: POLICY20; a re-run resumes), copied to $OUT
set -euo pipefail
export PYTHONPATH="$PWD/build/devenv:$PWD" OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MUJOCO_GL=egl
case "$1" in
  install)
    python -m pip install -q --no-deps --no-index --target build/devenv .wheels/*.whl
    cp -r build/devpkgs/. build/devenv/
    python -c "import mujoco, pxr, ompl, mink, pydantic; print('mujoco', mujoco.__version__)"
    ;;
  unpack)
    tar xzf build/data.tar.gz
    ls scenes/settled | wc -l
    ;;
  rates)
    policy=$2; shift 2
    tasks=$(ls tasks/*.json | xargs -n1 basename | sed 's/\.json$//')
    rows="runs/bench/${NAME:-${policy}20}.jsonl"
    mkdir -p runs/bench
    timeout "${RATES_TIMEOUT_S:-550}" python bench/bench_scripted.py --tasks $tasks --variants 20 --seed 0 \
      --horizon 420 --workers 16 --policy "$policy" --out "$rows" "$@" > /dev/null || true
    cp "$rows" "${OUT:-.}/"
    python bench/bench_scripted.py --tasks $tasks --policy "$policy" --out "$rows" --summary
    ;;
esac
