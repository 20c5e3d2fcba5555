"""Strict, small YAML for ``params.yaml`` and ``assets/specs.yaml``: a duplicate key, an anchor or an
alias (the seed of an alias bomb) and any tag beyond plain data are refused with one line naming the
file, the key or line. ``python -m housebench.yamlfile FILE...`` checks files (CI runs it on the
repo's own before anything else, since DVC reads ``params.yaml`` with a loader of its own).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

from housebench.inputs import MAX_YAML, InputError, read_text


class YamlError(InputError):
    """A file that is not strict YAML; ``str()`` is one line naming the file and the line or key."""


class _Refused(yaml.MarkedYAMLError):
    """Valid YAML that strict YAML refuses."""


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader without anchors, aliases or duplicate keys."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise _Refused(problem="anchors and aliases are not allowed", problem_mark=event.start_mark)
        return super().compose_node(parent, index)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise _Refused(problem=f"duplicate key {key!r}", problem_mark=key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def load_yaml(path: Path, limit: int = MAX_YAML) -> Any:
    """The data in ``path``: a regular file of at most ``limit`` bytes, UTF-8, strict YAML; raises
    :class:`~housebench.inputs.InputError` (:class:`YamlError` for the YAML itself)."""
    text = read_text(path, limit)
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 -- a SafeLoader
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "yaml"
        problem = " ".join(str(err.problem or err.context).split())
        raise YamlError(path, where, problem if isinstance(err, _Refused) else f"not valid YAML: {problem}") from None
    except yaml.YAMLError as err:
        raise YamlError(path, "yaml", f"not valid YAML: {' '.join(str(err).split())}") from None


def main(argv: list[str]) -> int:
    """Check every file named; print one line per bad file; exit 1 if any is bad."""
    bad = 0
    for name in argv:
        try:
            load_yaml(Path(name))
        except InputError as err:
            print(err, file=sys.stderr)
            bad += 1
    return int(bad > 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
