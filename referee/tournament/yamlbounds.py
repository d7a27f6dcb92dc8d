"""Bounds on a composed YAML document before anything is built from it.

PyYAML's composer keeps an alias as a reference to one shared node, so a
"billion laughs" document composes in microseconds; it is *constructing*
Python values (and walking them) that expands every alias. :func:`bounds_problem`
walks the node graph with a budget instead, counting each alias as the
nodes it expands to, and stops at the first node past
:data:`~referee.tournament.limits.MAX_CONFIG_NODES` or deeper than
:data:`~referee.tournament.limits.MAX_CONFIG_DEPTH`. It never recurses, so a
deep document cannot raise ``RecursionError`` here either.
"""

from __future__ import annotations

import yaml

from referee.tournament.limits import MAX_CONFIG_DEPTH, MAX_CONFIG_NODES

__all__ = ["bounds_problem"]

_INT_TAG = "tag:yaml.org,2002:int"
_MAX_INT_CHARS = 1000


def bounds_problem(root: yaml.Node) -> tuple[str, yaml.Node] | None:
    """Why ``root`` is too big or too deep to load, and the node where it became so; None if within bounds."""
    count = 0
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_CONFIG_NODES:
            return (f"the document expands to more than {MAX_CONFIG_NODES:,} values (aliases included: "
                    "is it an alias bomb?)", node)
        if depth > MAX_CONFIG_DEPTH:
            return f"the document nests more than {MAX_CONFIG_DEPTH} levels deep", node
        if isinstance(node, yaml.ScalarNode) and node.tag == _INT_TAG and len(node.value) > _MAX_INT_CHARS:
            # Python refuses to convert integers of more than 4,300 digits (a ValueError from the loader).
            return f"a number of {len(node.value):,} digits, got: {node.value[:20]}...; no setting needs one", node
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))
    return None
