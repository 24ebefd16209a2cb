"""The diagnosis of answers kept in the history (after a restart) or in an export file (imported traces).

A stored answer has its trace, its settings, timings and notices; what the store does not keep (how the
model was loaded) is simply unknown, and the checks that need it say so or offer no fix for it.
"""

from __future__ import annotations

import json
import statistics
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from logitscope.diagnosis.diagnose import diagnose
from logitscope.diagnosis.findings import Context, Diagnosis
from logitscope.diagnosis.thresholds import SLOW_MIN_TOKENS, SLOW_REFERENCE_MIN_ANSWERS
from logitscope.store.exchange import import_json
from logitscope.store.history import HistoryStore
from logitscope.store.import_check import CheckedExport, load_export
from logitscope.store.records import StoredMessage
from logitscope.store.results import stored_result
from logitscope.store.traces import PieceVocab


@dataclass(frozen=True)
class DiagnosedAnswer:
    conversation_id: int
    title: str
    message: StoredMessage
    diagnosis: Diagnosis


def reference_tps(store: HistoryStore, message_id: int) -> float | None:
    """The median generation speed of the same model's other finished answers generated on this machine (this
    machine's figure for it), or None with fewer than SLOW_REFERENCE_MIN_ANSWERS of them.

    Generated here: the answer was streamed into this history by a process of this machine (it has an owner,
    store/owners.py; an imported one has none) from the local engine (a remote server's speed is its own)."""
    rows = store.connection.execute(
        "SELECT timings_json, sampler_json FROM messages WHERE model_id = (SELECT model_id FROM messages WHERE id = ?) "
        "AND id != ? AND status = 'done' AND timings_json IS NOT NULL AND owner IS NOT NULL",
        (message_id, message_id)).fetchall()
    speeds = []
    for text, sampler in rows:
        if _remote(sampler):
            continue
        timings = json.loads(text)
        n_gen, gen_s = timings.get("n_gen"), timings.get("gen_s")
        if isinstance(n_gen, int | float) and isinstance(gen_s, int | float) and n_gen >= SLOW_MIN_TOKENS and gen_s > 0:
            speeds.append(n_gen / gen_s)
    return statistics.median(speeds) if len(speeds) >= SLOW_REFERENCE_MIN_ANSWERS else None


def _remote(sampler_json: str | None) -> bool:
    """Whether the answer came from a remote engine (its settings name the server's "url")."""
    try:
        engine = json.loads(sampler_json or "{}").get("engine")
    except (ValueError, AttributeError):
        return False
    return isinstance(engine, dict) and "url" in engine


def diagnose_message(store: HistoryStore, message_id: int, context: Context | None = None,
                     judge_speed: bool = True) -> Diagnosis:
    """One stored answer, as it was saved (its own settings, where it was forked; the same model's other
    answers as the speed reference unless `context` gives one, or `judge_speed` is False)."""
    message = store.message(message_id)
    steps, pieces = store.load_trace(message_id)
    context = context or Context()
    if context.forked_at is None:   # a fork's steps up to there were copied or forced, not drawn
        context = replace(context, forked_at=message.forked_at)
    if context.reference_tps is None and judge_speed:
        context = replace(context, reference_tps=reference_tps(store, message_id))
    result = stored_result(message, steps) if message.status == "done" else None
    return diagnose(steps, result, PieceVocab(pieces), context, settings=dict(message.sampler or {}))


def diagnose_conversation(store: HistoryStore, conversation_id: int, every_branch: bool = False,
                          judge_speed: bool = True) -> Iterator[DiagnosedAnswer]:
    """Each answer with a trace on the conversation's active path (or on every branch), in order (an answer
    without one, such as a written-in assistant turn, has nothing to diagnose)."""
    title = store.conversation(conversation_id).title
    messages = store.messages(conversation_id) if every_branch else store.active_path(conversation_id)
    for m in messages:
        if m.role == "assistant" and m.n_steps:
            yield DiagnosedAnswer(conversation_id, title, m, diagnose_message(store, m.id, judge_speed=judge_speed))


def diagnose_export(export: str | Path | CheckedExport) -> list[DiagnosedAnswer]:
    """Every answer of a history export (`logitscope history export`: a file, or one already read and checked),
    every branch: it is imported into a temporary history, never into the user's. Its speeds were measured
    where and when it was recorded, so they are not judged (nothing here says what that machine reaches)."""
    document = export if isinstance(export, CheckedExport) else load_export(export)
    with tempfile.TemporaryDirectory(prefix="logitscope-explain-") as folder, \
            HistoryStore(Path(folder) / "history.sqlite3") as store:
        out: list[DiagnosedAnswer] = []
        for cid in import_json(store, document):
            out += diagnose_conversation(store, cid, every_branch=True, judge_speed=False)
        return out
