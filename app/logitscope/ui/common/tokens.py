"""Showing tokens to people: spaces, newlines and stray bytes made visible, colours for probabilities."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QTextEdit

from logitscope.protocol.trace import StepRecord, piece_text


def token_label(piece: bytes) -> str:
    """A token's text with invisible parts shown: '·' for spaces, '↵' for newlines, '⇥' for tabs,
    <0xNN> for bytes that are only part of a character."""
    text = piece_text(piece)
    return text.replace(" ", "·").replace("\n", "↵").replace("\t", "⇥") or "∅"


def id_label(token: int, vocab: Sequence[bytes]) -> str:
    """A token id's label from the model's vocabulary; the id itself when the vocabulary does not have it."""
    return token_label(vocab[token]) if 0 <= token < len(vocab) else str(token)


def probability_color(p: float, dark: bool, alpha: int = 110) -> QColor:
    """Red for unlikely, through yellow, to green for near-certain choices."""
    p = min(max(p, 0.0), 1.0)
    color = QColor.fromHsvF(0.33 * p, 0.85, 0.95 if not dark else 0.75)
    color.setAlpha(alpha)
    return color


def rank_color(rank: int, dark: bool, alpha: int = 110) -> QColor:
    return probability_color({0: 1.0, 1: 0.55, 2: 0.4}.get(rank, 0.05), dark, alpha)


def candidate_piece(step: StepRecord, which: str, index: int, vocab: Sequence[bytes]) -> bytes:
    """The bytes of a step's `index`-th raw or final candidate: carried by the step itself for a remote
    server (which names tokens by text, id -1), looked up by id in the model's vocabulary otherwise."""
    pieces = step.raw_pieces if which == "raw" else step.final_pieces
    if pieces is not None and index < len(pieces):
        return pieces[index]
    token = int((step.raw_ids if which == "raw" else step.final_ids)[index])
    return vocab[token] if 0 <= token < len(vocab) else str(token).encode()


def candidate_key(step: StepRecord, which: str, index: int) -> int | bytes:
    """What identifies a candidate across the raw and final lists: its id, or its bytes when ids are unknown."""
    token = int((step.raw_ids if which == "raw" else step.final_ids)[index])
    if token >= 0:
        return token
    pieces = step.raw_pieces if which == "raw" else step.final_pieces
    return pieces[index] if pieces is not None else token


def percent(p: float) -> str:
    """A probability for people; "—" when the engine could not tell (a remote server)."""
    return "—" if p != p else f"{p:.1%}"  # NaN != NaN


def rank_text(rank: int) -> str:
    """A 0-based rank as people count it (1 = most likely); "—" when unknown (negative)."""
    return "—" if rank < 0 else str(rank + 1)


def run_under(view: QTextEdit, pos: QPoint, starts: Sequence[int]) -> tuple[int, int] | None:
    """(index into `starts`, character position) of the text under a viewport position of `view`, or None
    beside the text. `starts`: the sorted character positions where the view's token runs begin."""
    cursor = view.cursorForPosition(pos)
    rect = view.cursorRect(cursor)
    if abs(rect.center().y() - pos.y()) > rect.height() or pos.x() > rect.right() + 12:
        return None  # beside the text, not on it
    # the character under the mouse is the one after the cursor when the mouse is on its left half
    char = cursor.position() - (1 if pos.x() < rect.left() else 0)
    at = bisect.bisect_right(starts, char) - 1
    return (at, char) if at >= 0 else None
