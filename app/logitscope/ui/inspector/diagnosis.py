"""The diagnosis on screen: the compact badge under an answer, and the Diagnosis dock's panel (the findings,
each one's evidence and fix, and a button that applies the fix as a new version of the answer)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.diagnosis import Diagnosis, Finding
from logitscope.ui.common.messages import translate_message

MARKS = {"problem": "⛔", "warning": "⚠", "info": "ℹ"}
MAX_LIST_ROWS = 6  # the findings list shows this many rows before it scrolls: the details stay in view under it
CLEAN_MARK = "✓"


class DiagnosisBadge(QToolButton):
    """One line under the answer: ✓, or the findings' names behind the worst one's mark. Clicking it opens
    the Diagnosis dock on this answer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("diagnosisBadge")
        self.setAutoRaise(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.diagnosis: Diagnosis | None = None
        self.hide()

    def show_diagnosis(self, diagnosis: Diagnosis | None) -> None:
        self.diagnosis = diagnosis
        if diagnosis is None:
            self.hide()
            return
        if not diagnosis.findings:
            self.setText(f"{CLEAN_MARK} " + self.tr("no problem found"))
            self.setToolTip(self.tr("The diagnosis found nothing wrong with this answer (click for details)"))
        else:
            worst = diagnosis.worst or "info"
            # each kind of finding once ("guessing" twice read "guessing · guessing"), the list has every one
            titles = dict.fromkeys(translate_message(f.title) for f in diagnosis.findings)
            self.setText(f"{MARKS[worst]} " + " · ".join(titles))
            self.setToolTip("\n".join(translate_message(f.text) for f in diagnosis.findings))
        self.setProperty("severity", diagnosis.worst or "clean")
        self.show()


class DiagnosisPanel(QWidget):
    """The dock's content: the findings of one answer. `findingSelected`: a Finding (or None) whose evidence
    the chat and timeline mark; `fixRequested`: the Finding whose fix the user applied."""

    findingSelected = Signal(object)
    fixRequested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.findings = QListWidget()
        self.findings.setObjectName("diagnosisFindings")
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fix_button = QPushButton(self.tr("Apply the fix"))
        self.fix_button.setToolTip(self.tr("Make a new version of the answer with the suggested settings"))
        self.fix_button.setEnabled(False)
        self.other_fix_button = QPushButton(self.tr("Apply the other fix"))   # a milder one, where there is one
        self.other_fix_button.setVisible(False)
        self.skipped = QLabel()
        self.skipped.setWordWrap(True)
        self.skipped.setObjectName("diagnosisSkipped")
        for w in (self.heading, self.findings, self.details, self.fix_button, self.other_fix_button, self.skipped):
            layout.addWidget(w)
        layout.addStretch(1)
        self.diagnosis: Diagnosis | None = None
        self.turn_index = -1
        self.can_apply = True
        self.findings.currentRowChanged.connect(self._selected)
        self.fix_button.clicked.connect(self._apply)
        self.other_fix_button.clicked.connect(self._apply_other)
        self.show_diagnosis(None)

    def show_diagnosis(self, diagnosis: Diagnosis | None, turn_index: int = -1) -> None:
        self.diagnosis, self.turn_index = diagnosis, turn_index
        self.findings.blockSignals(True)
        self.findings.clear()
        if diagnosis is None:
            self.heading.setText(self.tr("Select an answer's diagnosis (the mark under it) to see it here."))
        elif not diagnosis.findings:
            self.heading.setText(self.tr("Answer {0}: no problem found.").format(turn_index + 1))
        else:
            self.heading.setText(self.tr("Answer {0}: {1} finding(s).").format(turn_index + 1, len(diagnosis.findings)))
        for f in diagnosis.findings if diagnosis else ():
            item = QListWidgetItem(f"{MARKS[f.severity]} {translate_message(f.title)}")
            item.setToolTip(translate_message(f.text))
            self.findings.addItem(item)
        self.findings.blockSignals(False)
        self._fit_findings()
        self.findings.setVisible(bool(diagnosis and diagnosis.findings))
        skipped = [translate_message(m) for m in diagnosis.skipped] if diagnosis else []
        self.skipped.setText(self.tr("Not checked: {0}").format("; ".join(skipped)) if skipped else "")
        self.skipped.setVisible(bool(skipped))
        if diagnosis and diagnosis.findings:
            self.findings.setCurrentRow(0)
        else:
            self._selected(-1)

    def _fit_findings(self) -> None:
        """As tall as its rows (up to MAX_LIST_ROWS): a list that took the dock's height pushed the evidence and
        the fix button out of sight at 1280x720."""
        rows = min(self.findings.count(), MAX_LIST_ROWS)
        height = sum(self.findings.sizeHintForRow(i) for i in range(rows)) or self.findings.fontMetrics().height()
        self.findings.setFixedHeight(height + 2 * self.findings.frameWidth())

    @property
    def finding(self) -> Finding | None:
        row = self.findings.currentRow()
        if self.diagnosis is None or not 0 <= row < len(self.diagnosis.findings):
            return None
        return self.diagnosis.findings[row]

    def _selected(self, _row: int) -> None:
        f = self.finding
        if f is None:
            self.details.setText("")
            self.fix_button.setEnabled(False)
            self.other_fix_button.setVisible(False)
            self.findingSelected.emit(None)
            return
        lines = [translate_message(f.text)]
        if f.spans:
            lines.append(self.tr("Evidence: {0}").format(", ".join(
                str(a) if b - a == 1 else f"{a}–{b - 1}" for a, b in f.spans[:12])))
        if f.fix is not None:
            lines.append(self.tr("Fix: {0}").format(translate_message(f.fix.label)))
            lines.extend(self.tr("Or: {0}").format(translate_message(other.label)) for other in f.other_fixes[:1])
        else:
            lines.append(self.tr("No setting fixes this one."))
        self.details.setText("\n".join(lines))
        self.fix_button.setEnabled(f.fix is not None and self.can_apply)
        self.other_fix_button.setVisible(bool(f.other_fixes))
        self.other_fix_button.setEnabled(bool(f.other_fixes) and self.can_apply)
        if f.other_fixes:
            self.other_fix_button.setToolTip(translate_message(f.other_fixes[0].label))
        self.findingSelected.emit(f)

    def _apply(self) -> None:
        f = self.finding
        if f is not None and f.fix is not None:
            self.fixRequested.emit(f)

    def _apply_other(self) -> None:
        """The finding with its other fix in the place of the first: applied, and checked after, as any fix."""
        f = self.finding
        if f is not None and f.other_fixes:
            self.fixRequested.emit(replace(f, fix=f.other_fixes[0], other_fixes=()))
