"""Showing tokens to people: spaces, newlines and stray bytes made visible, colours for probabilities."""

from __future__ import annotations

from PySide6.QtGui import QColor

from logitscope.engine.trace import piece_text


def token_label(piece: bytes) -> str:
    """A token's text with invisible parts shown: '·' for spaces, '↵' for newlines, '⇥' for tabs,
    <0xNN> for bytes that are only part of a character."""
    text = piece_text(piece)
    return text.replace(" ", "·").replace("\n", "↵").replace("\t", "⇥") or "∅"


def probability_color(p: float, dark: bool, alpha: int = 110) -> QColor:
    """Red for unlikely, through yellow, to green for near-certain choices."""
    p = min(max(p, 0.0), 1.0)
    color = QColor.fromHsvF(0.33 * p, 0.85, 0.95 if not dark else 0.75)
    color.setAlpha(alpha)
    return color


def rank_color(rank: int, dark: bool, alpha: int = 110) -> QColor:
    return probability_color({0: 1.0, 1: 0.55, 2: 0.4}.get(rank, 0.05), dark, alpha)
