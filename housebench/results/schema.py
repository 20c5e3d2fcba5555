"""The Arrow schemas of the results tables: the one place that says what a results column means.

The tables, each stored hive-partitioned by run (``results/<table>/run=<run>/part-0.parquet``):

- ``episodes``: one row per episode, keyed by ``(run, episode_id)``, with full provenance.
- ``conditions``: one row per goal-condition item (e.g. ``inside`` x ``apple``) of an episode.
- ``events``: skill and episode events of an episode, in order (``seq``).
- ``choices``: one row per choice the variant sampler made for a variant the run rolled out
  (which alternative, whether an optional object is present, which support), so the report can
  show the distribution of variants from the Parquet alone.
- ``states``: one row per episode, its initial and final simulator states (``SimState`` JSON), so
  any verdict can be judged again later (``housebench results state`` then ``housebench evaluate``).
- ``phases``: one row per phase of an episode (the planner's skill calls for the variant's goal, judged
  on the ground truth whatever the policy: :mod:`housebench.rollout.phases`): reached or not, and when.
- ``trends``: one row per policy, track, split and task of a nightly run: its success beside the last nights'
  and whether it regressed (:mod:`housebench.report.trends`). Derived from ``episodes`` by the nightly flow,
  not written by a rollout (``ROLLOUT_TABLES`` are).

Every column carries its documentation in the field metadata (``doc``); columns with a closed set
of values also list them (``values``, comma-separated). ``run`` is the partition column: it lives in
the directory name, not in the Parquet file. Bump ``SCHEMA_VERSION`` on any change to a column.
"""

from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = 6
PARTITION = "run"
STATUSES = ("success", "fail", "crash")
TRACKS = ("state", "vision")
TESTS = ("paired", "unpaired", "none")  # how a trend row was compared with the last nights


def _field(
    name: str, type_: pa.DataType, doc: str, *, nullable: bool = False, values: tuple[str, ...] = ()
) -> pa.Field:
    meta = {"doc": doc} | ({"values": ",".join(values)} if values else {})
    return pa.field(name, type_, nullable=nullable, metadata=meta)


def _schema(table: str, fields: list[pa.Field]) -> pa.Schema:
    return pa.schema(fields, metadata={"housebench.table": table, "housebench.schema_version": str(SCHEMA_VERSION)})


_EPISODE_ID = _field("episode_id", pa.string(), "'<task>/<variant>/<seed>/<policy>'; unique within a run")
_RUN = _field(PARTITION, pa.string(), "run name, e.g. 'repro' or 'nightly-2026-11-30' (partition)")
_TASK = _field("task", pa.string(), "task spec name")
_VARIANT = _field("variant", pa.string(), "sampled task variant")
_SEED = _field("seed", pa.int64(), "episode seed")
_POLICY = _field("policy", pa.string(), "policy name, e.g. 'noop' or 'scripted'")

EPISODES = _schema(
    "episodes",
    [
        _EPISODE_ID,
        _RUN,
        _TASK,
        _VARIANT,
        _field(
            "house",
            pa.string(),
            "the house the variant was sampled in: 'grid' (params.yaml house:) or a procedural house's id, e.g. "
            "'p003' (params.yaml houses:, scenes/house/houses.json)",
        ),
        _SEED,
        _POLICY,
        _field(
            "policy_class",
            pa.string(),
            "'module:Class' the policy name resolved to (params.yaml, built-in, entry point)",
        ),
        _field(
            "policy_version", pa.string(), "version of the installed package that ships the policy class ('' if none)"
        ),
        _field("track", pa.string(), "what the policy was shown", values=TRACKS),
        _field(
            "split",
            pa.string(),
            "the variant's split: train, val or test (params.yaml splits; test for a held-out run)",
        ),
        _field("backend", pa.string(), "simulator backend, e.g. 'mujoco'"),
        _field("backend_version", pa.string(), "simulator version string"),
        _field("code_commit", pa.string(), "git commit of the housebench code that ran the episode"),
        _field("scene_hash", pa.string(), "content hash of the settled scene files"),
        _field("assets_hash", pa.string(), "content hash of the sim-ready assets"),
        _field("host", pa.string(), "host name that ran the episode"),
        _field("started_at", pa.timestamp("us", tz="UTC"), "episode start time (UTC)"),
        _field("wall_s", pa.float64(), "wall-clock seconds of the episode"),
        _field("sim_s", pa.float64(), "simulated seconds of the episode"),
        _field("horizon_s", pa.float64(), "the episode's horizon: simulated seconds it may run"),
        _field("steps", pa.int64(), "physics steps taken"),
        _field("status", pa.string(), "episode outcome", values=STATUSES),
        _field("failure_reason", pa.string(), "why it failed or crashed; null on success", nullable=True),
        _field("success", pa.bool_(), "every goal condition held at the end"),
        _field(
            "progress", pa.float64(), "goal progress in [0, 1]: each top-level condition weighs the same (evaluator)"
        ),
        _field("n_conditions", pa.int32(), "goal conditions evaluated"),
        _field("n_conditions_ok", pa.int32(), "goal conditions that held"),
    ],
)

CONDITIONS = _schema(
    "conditions",
    [
        _EPISODE_ID,
        _RUN,
        _TASK,
        _VARIANT,
        _SEED,
        _POLICY,
        _field("condition_index", pa.int32(), "position in the goal's flattened condition list"),
        _field("path", pa.string(), "where the condition sits in the goal tree, e.g. 'goal.all_of[2]'"),
        _field("predicate", pa.string(), "predicate name, e.g. 'inside', 'on', 'upright'"),
        _field("item", pa.string(), "the object the item tests, e.g. 'apple'"),
        _field("ok", pa.bool_(), "the item satisfied the predicate"),
        _field("reason", pa.string(), "what the evaluator measured"),
    ],
)

EVENTS = _schema(
    "events",
    [
        _EPISODE_ID,
        _RUN,
        _field("seq", pa.int32(), "order of the event within its episode, from 0"),
        _field("t_sim", pa.float64(), "simulated time of the event, seconds"),
        _field("kind", pa.string(), "e.g. episode_start, skill_start, skill_end, crash, episode_end"),
        _field("detail", pa.string(), "event payload as canonical JSON (sorted keys)"),
    ],
)

CHOICES = _schema(
    "choices",
    [
        _RUN,
        _TASK,
        _VARIANT,
        _field("choice", pa.string(), "what the sampler decided, '<object>.<asset|present|support>'"),
        _field("value", pa.string(), "what it drew, e.g. 'bowl', 'yes', 'dining_table/top'"),
    ],
)

STATES = _schema(
    "states",
    [
        _EPISODE_ID,
        _RUN,
        _field(
            "initial", pa.string(), "state at the start (after the seed's pose noise), SimState JSON", nullable=True
        ),
        _field(
            "final", pa.string(), "state the verdict judged, SimState JSON; null if it crashed first", nullable=True
        ),
    ],
)

PHASES = _schema(
    "phases",
    [
        _EPISODE_ID,
        _RUN,
        _field("phase", pa.int32(), "order of the phase in the variant's plan, from 0"),
        _field(
            "verb",
            pa.string(),
            "the phase's skill verb, e.g. 'navigate', 'pick', 'place', 'open'; 'goal' when the planner found no plan",
        ),
        _field("targets", pa.string(), "what it acts on, comma-separated, e.g. 'apple' or 'apple,bowl'"),
        _field(
            "reached",
            pa.bool_(),
            "its postconditions held once every earlier phase acting on the same thing was reached",
        ),
        _field(
            "implied",
            pa.bool_(),
            "a navigate counted reached because a later phase acting on the same thing was",
        ),
        _field("t_reached", pa.float64(), "simulated time it was first seen reached; null if never", nullable=True),
        _field(
            "time_s",
            pa.float64(),
            "simulated seconds since the reach before it; for the first phase not reached, from the last reach "
            "to the end; else 0",
        ),
    ],
)

TRENDS = _schema(
    "trends",
    [
        _RUN,
        _field("night", pa.date32(), "the night the run benchmarked (its date, UTC)"),
        _POLICY,
        _field("track", pa.string(), "what the policy was shown", values=TRACKS),
        _field("split", pa.string(), "the variants' split: train, val or test"),
        _TASK,
        _field("n", pa.int64(), "episodes tonight"),
        _field("successes", pa.int64(), "successful episodes tonight"),
        _field("rate", pa.float64(), "success rate tonight"),
        _field("ci_low", pa.float64(), "95% Wilson interval of tonight's rate, low end"),
        _field("ci_high", pa.float64(), "95% Wilson interval of tonight's rate, high end"),
        _field("baseline_runs", pa.string(), "the earlier nightly runs compared with, space-separated ('' if none)"),
        _field("baseline_n", pa.int64(), "episodes of the baseline the test used (the matched pairs when paired)"),
        _field("baseline_successes", pa.int64(), "successful episodes among them"),
        _field("baseline_rate", pa.float64(), "success rate of the baseline; null without one", nullable=True),
        _field(
            "test",
            pa.string(),
            "paired: exact McNemar on matched (variant, seed, scene) episodes; unpaired: one-sided Fisher exact "
            "test against the pooled last nights; none: too few episodes on one side",
            values=TESTS,
        ),
        _field("pairs", pa.int64(), "matched episodes (same variant, seed and scene hash) in the baseline"),
        _field("p_value", pa.float64(), "one-sided p-value of a drop; null when not tested", nullable=True),
        _field(
            "p_adjusted",
            pa.float64(),
            "the p-value adjusted over the night's tests (nightly.adjust); null when not tested",
            nullable=True,
        ),
        _field("flag", pa.bool_(), "regressed: p_adjusted below nightly.alpha"),
    ],
)

SCHEMAS: dict[str, pa.Schema] = {
    "episodes": EPISODES,
    "conditions": CONDITIONS,
    "events": EVENTS,
    "choices": CHOICES,
    "states": STATES,
    "phases": PHASES,
    "trends": TRENDS,
}
DERIVED_TABLES = ("trends",)  # written from other tables after a run (the nightly flow), never by a rollout
ROLLOUT_TABLES = tuple(name for name in SCHEMAS if name not in DERIVED_TABLES)  # what one rollout run writes
# Tables newer than results already on disk: a results directory without one reads it as empty (the report
# says so) instead of failing, until those runs are rolled out again. A derived table too: a results
# directory holds one only once the nightly flow has run there.
LATER_TABLES = ("phases", *DERIVED_TABLES)
SORT_KEYS: dict[str, tuple[str, ...]] = {
    "episodes": ("run", "episode_id"),
    "conditions": ("run", "episode_id", "condition_index", "item"),
    "events": ("run", "episode_id", "seq"),
    "choices": ("run", "task", "variant", "choice"),
    "states": ("run", "episode_id"),
    "phases": ("run", "episode_id", "phase"),
    "trends": ("run", "policy", "track", "split", "task"),
}


def file_schema(table: str) -> pa.Schema:
    """The schema of one partition's Parquet file: the table schema without the partition column."""
    schema = SCHEMAS[table]
    return schema.remove(schema.get_field_index(PARTITION))


def describe(table: str) -> list[tuple[str, str, str]]:
    """``(column, type, doc)`` for every column of ``table``, for docs and the CLI."""
    return [(f.name, str(f.type), f.metadata[b"doc"].decode()) for f in SCHEMAS[table]]
