"""The graph callback (llama.cpp's cb_eval) that copies out the named nodes of a forward pass (the inspection
context's, engine/forward/inspection.py, and the control-vector builder's, engine/steering), and writes into
some of them: causal tracing's ablations and patches (engine/forward/causal.py) edit a node's values right
after llama.cpp computed it, and every node after it reads the edited values."""

from __future__ import annotations

from collections.abc import Callable

import llama_cpp
import numpy as np

from logitscope.base.errors import LogitscopeError
from logitscope.engine.forward.tensors import read_tensor, tensor_name, write_tensor

# An edit of a node: (its values [..., rows, width], the positions of its rows) -> the values to write, or None
# to leave them. The rows are the batch's tokens (positions `offset`..), or only the output rows in the last
# layer after llama.cpp keeps the rows it outputs.
Edit = Callable[[np.ndarray, np.ndarray], np.ndarray | None]


class GraphCapture:
    """The cb_eval callback: accepts the nodes whose names are wanted and copies their data.

    An exception must never leave the callback: returning False in the data phase would cut the graph short
    and llama.cpp would return wrong logits without an error. It is recorded, and raised after the decode."""

    def __init__(self) -> None:
        self.wanted: frozenset[bytes] = frozenset()
        self.edits: dict[bytes, Edit] = {}
        self.offset = 0          # the position of the batch's first token (set before each decode)
        self.n_batch = 0         # and how many tokens it has
        self.edited: set[str] = set()   # the nodes an edit was applied to (a name llama.cpp never computed stays out)
        self.captured: dict[str, list[np.ndarray]] = {}
        self.error: str | None = None
        self.callback = llama_cpp.ggml_backend_sched_eval_callback(self._on_node)  # referenced with the context

    def begin(self, names: set[str], edits: dict[str, Edit] | None = None) -> None:
        self.wanted = frozenset(n.encode() for n in names)
        self.edits = {n.encode(): e for n, e in (edits or {}).items()}
        self.edited = set()
        self.captured = {}
        self.error = None

    def end(self) -> dict[str, list[np.ndarray]]:
        self.wanted = frozenset()
        self.edits = {}
        if self.error is not None:
            raise LogitscopeError("reading the forward pass failed: {reason}", reason=self.error)
        return self.captured

    def _on_node(self, tensor: int, ask: bool, _user: int) -> bool:
        try:
            if ask:
                if not self.wanted and not self.edits:
                    return False   # an idle callback: not even the name is read
                name = tensor_name(tensor)
                return name in self.wanted or name in self.edits
            name = tensor_name(tensor)
            values = read_tensor(tensor)
            edit = self.edits.get(name)
            if edit is not None:
                edited = edit(values, self._positions(values))
                if edited is not None:
                    write_tensor(tensor, edited)
                    values = edited
                self.edited.add(name.decode())
            if name in self.wanted:
                self.captured.setdefault(name.decode(), []).append(values)
        except BaseException as exc:  # noqa: BLE001 - see the class docstring
            if self.error is None:
                self.error = f"{type(exc).__name__}: {exc}"
            return not ask
        return True

    def _positions(self, values: np.ndarray) -> np.ndarray:
        """The positions of a node's rows: every token of the batch, or (the last layer, after llama.cpp kept
        the rows it outputs) the last ones."""
        rows = values.shape[-2] if values.ndim >= 2 else 1
        first = self.offset + max(self.n_batch - rows, 0)
        return np.arange(first, first + rows)
