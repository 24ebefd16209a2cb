"""The graph callback (llama.cpp's cb_eval) that copies out the named nodes of a forward pass: the
inspection context's (engine/forward/inspection.py) and the control-vector builder's (engine/steering)."""

from __future__ import annotations

import llama_cpp
import numpy as np

from logitscope.base.errors import LogitscopeError
from logitscope.engine.forward.tensors import read_tensor, tensor_name


class GraphCapture:
    """The cb_eval callback: accepts the nodes whose names are wanted and copies their data.

    An exception must never leave the callback: returning False in the data phase would cut the graph short
    and llama.cpp would return wrong logits without an error. It is recorded, and raised after the decode."""

    def __init__(self) -> None:
        self.wanted: frozenset[bytes] = frozenset()
        self.captured: dict[str, list[np.ndarray]] = {}
        self.error: str | None = None
        self.callback = llama_cpp.ggml_backend_sched_eval_callback(self._on_node)  # referenced with the context

    def begin(self, names: set[str]) -> None:
        self.wanted = frozenset(n.encode() for n in names)
        self.captured = {}
        self.error = None

    def end(self) -> dict[str, list[np.ndarray]]:
        self.wanted = frozenset()
        if self.error is not None:
            raise LogitscopeError("reading the forward pass failed: {reason}", reason=self.error)
        return self.captured

    def _on_node(self, tensor: int, ask: bool, _user: int) -> bool:
        try:
            if ask:
                return bool(self.wanted) and tensor_name(tensor) in self.wanted
            self.captured.setdefault(tensor_name(tensor).decode(), []).append(read_tensor(tensor))
        except BaseException as exc:  # noqa: BLE001 - see the class docstring
            if self.error is None:
                self.error = f"{type(exc).__name__}: {exc}"
            return not ask
        return True
