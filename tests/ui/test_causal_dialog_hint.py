"""Patch's hint for an answer token written with or without the space the clean run's token has."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.gui

VOCAB = [b"Paris", b" Paris", b" the"]


def test_the_hint_says_which_way_the_space_goes(scripted_window):
    dialog = scripted_window.causal
    without = dialog._spacing_hint(0, np.array([1, 2, 0]), VOCAB)     # 'Paris' typed, ' Paris' predicted
    assert "·Paris is, the same word with its space" in without and "Write the answer with it." in without
    spaced = dialog._spacing_hint(1, np.array([0, 2, 1]), VOCAB)      # ' Paris' typed after a quote: 'Paris' predicted
    assert "Paris is, the same word without the space" in spaced and "Write the answer without it." in spaced
    assert dialog._spacing_hint(1, np.array([1, 0]), VOCAB) == ""    # the clean run's first spelling: no hint
