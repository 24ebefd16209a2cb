"""Answers for the store tests: the shapes of the generated answers, saving one into a store, the environment
of a child process that imports this tree, and a second process holding SQLite's write lock."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity

ROOT = Path(__file__).resolve().parents[2]


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a child Python process that imports this tree's `logitscope` (and `tests`)."""
    path = os.pathsep.join(p for p in (str(ROOT / "app"), str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, PYTHONPATH=path, **extra)


@dataclass
class Answer:
    prompt: str
    steps: list[StepRecord]
    result: GenerationResult


@dataclass
class Generated:
    model: ModelIdentity
    vocab: list[bytes]
    answers: list[Answer]


def save_answer(store: HistoryStore, generated: Generated, answer: Answer, conversation_id: int | None = None,
                parent_id: int | None = None) -> tuple[int, int]:
    """Store a user turn and its streamed answer, as the app does; returns (conversation id, answer id)."""
    if conversation_id is None:
        conversation_id = store.create_conversation(answer.prompt)
    user_id = store.add_message(conversation_id, "user", answer.prompt, parent_id)
    writer = store.start_answer(conversation_id, user_id, generated.model, generated.vocab,
                                answer.result.settings)
    for step in answer.steps:
        writer.append(step)
    writer.finish(answer.result)
    return conversation_id, writer.message_id


# Another process in the middle of a long write: it holds SQLite's write lock (with a row written and not
# committed) until told to let go, as `history import` of a big file did.
_HOLDER = r"""
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("INSERT INTO conversations (title, created_at, updated_at) VALUES ('not committed', 0, 0)")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""


class WriteLockHolder:
    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", _HOLDER, str(path)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None and self.process.stdout.readline().strip() == "locked"

    def release(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.write("\n")
            self.process.stdin.flush()
            assert self.process.wait(10) == 0

    def __enter__(self) -> WriteLockHolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def save_fork(store: HistoryStore, generated, forked_at: int) -> tuple[int, int]:
    """An answer and a fork of it at step `forked_at`, the fork starting with the steps it shares;
    returns (conversation id, the fork's id)."""
    answer = generated.answers[0]
    cid = store.create_conversation("forks")
    question = store.add_message(cid, "user", answer.prompt)
    writer = store.start_answer(cid, question, generated.model, generated.vocab, answer.result.settings,
                                forked_at=forked_at, prefix_steps=forked_at)
    for step in answer.steps:
        writer.append(step)
    writer.finish(answer.result)
    return cid, writer.message_id
