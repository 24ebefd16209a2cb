"""Which vocabulary names an answer's tokens: the loaded model's for its own answers; for an answer another model
wrote (a saved conversation, a model switched since), the token bytes the history kept with it.

Token ids mean nothing across models: Gemma's 236,789 read in SmolLM2's vocabulary is another word or none. So
every view that turns an answer's candidate ids into text (the chat's alternatives, the Distribution dock, the
diagnosis) asks here, with the answer, never the engine's vocabulary directly.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

from logitscope.base.errors import LogitscopeError
from logitscope.session.conversation import Answer
from logitscope.session.history import ChatHistory
from logitscope.store.traces import PieceVocab

NO_VOCAB = PieceVocab({})          # neither the model nor the history has the bytes: the views show the ids
KEPT_ANSWERS = 32                  # stored answers whose pieces stay loaded (a few KB each)


def written_by_another(answer: Answer, loaded: str) -> bool:
    """Whether the answer names the model that wrote it and that is not the loaded one (`loaded`: its name)."""
    return bool(answer.model_name) and answer.model_name != loaded


class AnswerVocabulary:
    """answer -> the bytes of its token ids (`vocab[token]`, `len(vocab)` beyond its largest id)."""

    def __init__(self, loaded_vocab: Callable[[], Sequence[bytes]], loaded_name: Callable[[], str],
                 history: ChatHistory) -> None:
        self.loaded_vocab, self.loaded_name, self.history = loaded_vocab, loaded_name, history
        self._stored: OrderedDict[int, PieceVocab] = OrderedDict()

    def __call__(self, answer: Answer | None) -> Sequence[bytes]:
        if answer is None or not written_by_another(answer, self.loaded_name()):
            return self.loaded_vocab()
        if answer.store_id is None:
            return NO_VOCAB
        stored = self._stored.get(answer.store_id)
        if stored is None:
            try:
                stored = PieceVocab(self.history.store.load_trace(answer.store_id)[1])
            except LogitscopeError:   # the message is gone (deleted meanwhile) or unreadable
                return NO_VOCAB
            self._stored[answer.store_id] = stored
            while len(self._stored) > KEPT_ANSWERS:
                self._stored.popitem(last=False)
        else:
            self._stored.move_to_end(answer.store_id)
        return stored
