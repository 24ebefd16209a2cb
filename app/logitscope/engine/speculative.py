"""Where speculative drafts come from: prompt lookup (n-grams of the context) or a draft model sharing the
vocabulary, and the back-off that stops a source from drafting while its drafts keep failing.

The verification itself is in engine/decode.py: the pending token and its drafts go through the model in
one batch with logits at every position, and the recorded sampler walks those positions in order. Each
step samples from its own final distribution and a draft is accepted when the sampled token equals it.
With a draft that is one fixed token (prompt lookup, or a draft model read greedily: q a point mass), that
is the speculative-sampling rule: the draft x is kept with probability p(x), and otherwise the token comes
from p without x, renormalised; so every token has exactly the distribution plain decoding gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.engine.runtime import Runtime

NGRAM_MAX = 4   # the longest context suffix looked up (the longest match wins)
NGRAM_MIN = 2   # a single repeated token says too little about what follows
# Back-off: after this many drafts in a row with nothing accepted, drafting pauses for a number of steps
# that doubles with each further failure, up to the cap; one accepted draft resets it.
BACKOFF_AFTER = 2
BACKOFF_MAX_STEPS = 32


class DraftSource(Protocol):
    def propose(self, context: Sequence[int], k: int) -> list[int]:
        """Up to k tokens that may follow `context` (every token so far, the pending one last)."""
        ...

    def extend(self, context: Sequence[int]) -> None:
        """`context` grew (accepted tokens appended)."""
        ...


class LookupDraft:
    """Prompt lookup decoding: the most recent earlier occurrence of the context's last n tokens (n from
    NGRAM_MAX down to NGRAM_MIN) and the tokens that followed it. The index maps each n-gram to the position
    after its latest occurrence and grows with the context, so a lookup costs a few dict probes."""

    def __init__(self, context: Sequence[int]) -> None:
        self.tokens: list[int] = []
        self.index: dict[tuple[int, ...], int] = {}
        self.extend(context)

    def extend(self, context: Sequence[int]) -> None:
        tokens, index = self.tokens, self.index
        for token in context[len(tokens):]:
            # the n-grams ending just before this token now have a continuation: index them
            end = len(tokens)
            for n in range(NGRAM_MIN, NGRAM_MAX + 1):
                if end >= n:
                    index[tuple(tokens[end - n:end])] = end
            tokens.append(int(token))

    def propose(self, context: Sequence[int], k: int) -> list[int]:
        self.extend(context)
        tokens = self.tokens
        for n in range(NGRAM_MAX, NGRAM_MIN - 1, -1):
            if len(tokens) < n:
                continue
            start = self.index.get(tuple(tokens[-n:]))
            if start is not None:
                return tokens[start:start + k]
        return []


class ModelDraft:
    """A smaller model with the same vocabulary, in its own context, read greedily (its drafts are point
    masses: see the module's docstring). Its cache follows the context through Runtime.sync, which keeps
    the common prefix, so only what changed since the last draft is evaluated. The first sync evaluates the
    whole prompt: `should_cancel` (the request's) stops it (InterruptedError), as it stops the model's."""

    def __init__(self, runtime: Runtime, should_cancel: Callable[[], bool] = lambda: False) -> None:
        self.rt = runtime
        self.should_cancel = should_cancel

    def extend(self, context: Sequence[int]) -> None:
        pass

    def propose(self, context: Sequence[int], k: int) -> list[int]:
        rt = self.rt
        k = min(k, rt.n_ctx - len(context))
        if k <= 0:
            return []
        rt.sync(context, self.should_cancel)
        out: list[int] = []
        while True:
            out.append(int(np.argmax(rt.logits())))
            if len(out) >= k:
                return out
            rt.eval(out[-1:])


def check_vocabulary(model: Runtime, draft: Runtime) -> None:
    """InvalidSettingsError unless the draft model's tokens are the model's, id by id."""
    same = model.n_vocab == draft.n_vocab and all(model.piece(t) == draft.piece(t) for t in range(model.n_vocab))
    if not same:
        raise InvalidSettingsError(
            "the draft model {name} does not share the model's vocabulary ({n_draft} tokens, the model has "
            "{n_model}): a draft model must have the same tokenizer", name=Path(draft.path).name,
            n_draft=draft.n_vocab, n_model=model.n_vocab)


@dataclass
class Backoff:
    """Drafting pauses while the drafts keep failing (free writing with prompt lookup), so a source that
    does not help costs little; the pause doubles with each failure and ends at the first success. The
    drafts per batch follow the acceptance too: one more than were accepted last time, doubling while all
    are (a batch costs more with each token, and a wrong draft's tail is wasted)."""

    failures: int = 0
    pause: int = 0
    size: int = 2        # drafts the next batch may hold, at most

    def ready(self) -> bool:
        if self.pause > 0:
            self.pause -= 1
            return False
        return True

    def record(self, n_drafted: int, n_accepted: int) -> None:
        if n_drafted == 0:
            return
        self.size = 2 * n_drafted if n_accepted == n_drafted else n_accepted + 1
        if n_accepted:
            self.failures = 0
            return
        self.failures += 1
        if self.failures >= BACKOFF_AFTER:
            self.pause = min(1 << (self.failures - BACKOFF_AFTER), BACKOFF_MAX_STEPS)
