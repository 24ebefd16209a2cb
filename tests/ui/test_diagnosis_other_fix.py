"""A finding with a second, milder fix (a guessed opening: greedy, or a lower temperature) offers both in the
Diagnosis dock; the other one is applied as any fix is (the finding with it in the first fix's place)."""

from __future__ import annotations

import pytest

from logitscope.base.messages import Message
from logitscope.diagnosis import Diagnosis, Finding
from logitscope.diagnosis.findings import Fix
from logitscope.ui.inspector.diagnosis import DiagnosisPanel

pytestmark = pytest.mark.gui

GREEDY = Fix(Message("greedy"), sampler=(("temperature", 0.0),))
COOLER = Fix(Message("cooler"), sampler=(("temperature", 0.3),))


def test_the_other_fix_is_offered_and_applied(qtbot) -> None:
    panel = DiagnosisPanel()
    qtbot.addWidget(panel)
    panel.show()
    requested: list[Finding] = []
    panel.fixRequested.connect(requested.append)
    guess = Finding("guessing", "warning", Message("a guess"), ((0, 2),), GREEDY, (COOLER,))
    panel.show_diagnosis(Diagnosis((guess,)), 0)
    assert panel.other_fix_button.isVisible() and panel.other_fix_button.isEnabled()
    assert "Or: cooler" in panel.details.text() and panel.other_fix_button.toolTip() == "cooler"
    panel.other_fix_button.click()
    panel.fix_button.click()
    assert [f.fix for f in requested] == [COOLER, GREEDY] and requested[0].kind == "guessing"
    loop = Finding("loop", "problem", Message("a loop"), ((0, 2),), GREEDY)
    panel.show_diagnosis(Diagnosis((loop,)), 0)
    assert not panel.other_fix_button.isVisible()


def test_the_badge_names_each_kind_of_finding_once(qtbot) -> None:
    from logitscope.ui.inspector.diagnosis import DiagnosisBadge

    badge = DiagnosisBadge()
    qtbot.addWidget(badge)
    guesses = (Finding("guessing", "warning", Message("a guess")), Finding("guessing", "warning", Message("another")))
    badge.show_diagnosis(Diagnosis(guesses))
    assert badge.text() == "⚠ guessing"   # "⚠ guessing · guessing" before
    assert badge.toolTip() == "a guess\nanother"   # each one in the details
