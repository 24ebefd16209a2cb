"""Constrained decoding through llama.cpp's own grammar sampler (llama_sampler_init_grammar, GBNF).

A `Grammar` owns one native grammar sampler for one generation: `allowed(ids)` applies it to candidates
(a llama_token_data_array built over a numpy buffer, no Python loop) and says which it lets through,
`accept(token)` advances it. It is applied first, before the chain (llama.cpp's grammar_first). llama-server
samples without the grammar first and re-samples with it first only when the pick does not fit; both give
a token the grammar allows, but that shortcut would hide from the waterfall what the grammar removed.

llama.cpp aborts the process when it is made to accept a token its grammar does not allow: every token
is checked with `allows` before `accept`. A JSON schema becomes GBNF with llama-cpp-python's converter.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import tempfile
from collections.abc import Iterator

import llama_cpp
import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.engine.handles import LlamaLog
from logitscope.engine.schema_bounds import bounded_converter

# llama_token_data {int32 id; float logit; float p}: a numpy record with the same layout
TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)])
_TOKEN_DATA_P = ctypes.POINTER(llama_cpp.llama_token_data)


def schema_to_gbnf(schema: str) -> str:
    """A JSON schema (text) as GBNF; InvalidSettingsError when it is not valid JSON or not convertible."""
    try:
        converter = bounded_converter()   # json_schema_to_gbnf's, with integer bounds (engine/schema_bounds.py)
        value = json.loads(schema)
        if not isinstance(value, dict):
            raise InvalidSettingsError("a JSON schema is an object, such as {example}, not {value}",
                                       example='{"type": "integer"}', value=schema.strip()[:40])
        converter.visit(converter.resolve_refs(value, "stdin"), "")
        gbnf: str = converter.format_grammar()
        return gbnf
    except json.JSONDecodeError as exc:
        raise InvalidSettingsError("the JSON schema is not valid JSON: {error}", error=str(exc)) from exc
    except InvalidSettingsError:
        raise
    except RecursionError:
        raise InvalidSettingsError("the JSON schema is nested too deeply") from None
    except Exception as exc:  # the converter raises plain exceptions (KeyError, ValueError, ...)
        # the converter's own sentences (an unknown type) as they are; a bare KeyError names its class
        said = isinstance(exc, AssertionError | ValueError) and str(exc)
        raise InvalidSettingsError("the JSON schema cannot be converted to a grammar: {error}",
                                   error=str(exc) if said else f"{type(exc).__name__}: {exc}") from exc


@contextlib.contextmanager
def _stderr_to(path: str) -> Iterator[None]:
    """llama.cpp prints a GBNF syntax error to stderr (not to its log): catch it in a file for the message.
    Only the engine process (or a test) calls this; the GUI process never loads llama.cpp."""
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: the reason falls back to llama.cpp's log
        yield
        return
    with open(path, "wb") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _parse_reason(printed: str, logged: list[str]) -> str:
    m = re.search(r"error parsing grammar: (.+)", printed)
    if m:
        # llama.cpp quotes the rest of the grammar after "at": nothing when the grammar ended too soon
        return re.sub(r" at$", " at the end of the grammar", m.group(1).strip())
    for line in logged:
        text = re.sub(r"^(\S+: )+", "", line.strip())
        if text and text != "failed to parse grammar":
            return text
    return "llama.cpp gave no reason"


class Grammar:
    """One generation's grammar state (llama.cpp's grammar sampler)."""

    def __init__(self, vocab: llama_cpp.llama_vocab_p, n_vocab: int, text: str, log: LlamaLog,
                 _handle: llama_cpp.llama_sampler_p | None = None) -> None:
        self.vocab, self.n_vocab, self.text, self.log = vocab, n_vocab, text, log
        self._handle: llama_cpp.llama_sampler_p | None = None
        self._buf = np.zeros(n_vocab, dtype=TOKEN_DATA)
        self._buf["id"] = np.arange(n_vocab, dtype=np.int32)
        self._handle = _handle if _handle is not None else self._compile(text)

    def _compile(self, text: str) -> llama_cpp.llama_sampler_p:
        mark = self.log.mark()
        with tempfile.NamedTemporaryFile(prefix="logitscope-grammar-", suffix=".txt", delete=False) as tmp:
            path = tmp.name
        try:
            with _stderr_to(path):
                handle = llama_cpp.llama_sampler_init_grammar(self.vocab, text.encode("utf-8"), b"root")
            with open(path, encoding="utf-8", errors="replace") as f:
                printed = f.read()
        finally:
            os.unlink(path)
        if not handle:
            raise InvalidSettingsError("the grammar does not parse: {reason}",
                                       reason=_parse_reason(printed, self.log.errors_since(mark)))
        compiled: llama_cpp.llama_sampler_p = handle
        return compiled

    def allowed(self, ids: np.ndarray, full: bool = False) -> np.ndarray:
        """Which of these token ids the grammar lets through now (bool, aligned with ids). `full`: ids is the
        whole vocabulary in id order (its buffer is kept)."""
        n = len(ids)
        if n == 0:
            return np.zeros(0, dtype=bool)
        if full and n == self.n_vocab:
            buf = self._buf
            buf["logit"] = 0.0
        else:
            buf = np.zeros(n, dtype=TOKEN_DATA)
            buf["id"] = ids
        arr = llama_cpp.llama_token_data_array(buf.ctypes.data_as(_TOKEN_DATA_P), n, -1, False)
        llama_cpp.llama_sampler_apply(self._handle, ctypes.byref(arr))
        ok: np.ndarray = np.isfinite(buf["logit"])
        return ok

    def allows(self, token: int) -> bool:
        return bool(self.allowed(np.array([token], dtype=np.int32))[0])

    def accept(self, token: int) -> None:
        """Advance past `token`; InvalidSettingsError (and no change) if the grammar does not allow it."""
        if not 0 <= token < self.n_vocab or not self.allows(token):
            raise InvalidSettingsError("token {token} does not fit the grammar here", token=token)
        llama_cpp.llama_sampler_accept(self._handle, token)

    def clone(self) -> Grammar:
        return Grammar(self.vocab, self.n_vocab, self.text, self.log, llama_cpp.llama_sampler_clone(self._handle))

    def close(self) -> None:
        if self._handle:
            llama_cpp.llama_sampler_free(self._handle)
            self._handle = None

    def __enter__(self) -> Grammar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

