"""The beam search view in tests: how long a search may take, every item of its tree."""

from __future__ import annotations

# Two short searches and a greedy answer each; generous for a machine shared with other work (they take seconds
# on an idle one).
SEARCH_TIMEOUT_MS = 400_000


def tree_items(tree):
    stack = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while stack:
        item = stack.pop()
        yield item
        stack.extend(item.child(i) for i in range(item.childCount()))
