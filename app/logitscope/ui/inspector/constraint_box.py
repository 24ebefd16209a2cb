"""Constrained output: none, a ready grammar, a custom GBNF grammar, or a JSON schema; the text box shows
the grammar (read-only for a ready one) and a line under it says why the engine refused it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QComboBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from logitscope.grammars import READY_GRAMMARS, ready_grammar
from logitscope.ui.common.messages import translate_template

NONE, CUSTOM, SCHEMA = "", "custom", "schema"   # the mode box's data besides a ready grammar's stem
READY = {stem: ready_grammar(stem) for stem in READY_GRAMMARS}


class ConstraintBox(QWidget):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.mode = QComboBox()
        self.mode.addItem(self.tr("None (free text)"), NONE)
        for stem, name in READY_GRAMMARS.items():
            self.mode.addItem(translate_template(name), stem)
        self.mode.addItem(self.tr("Custom grammar (GBNF)"), CUSTOM)
        self.mode.addItem(self.tr("JSON schema"), SCHEMA)
        self.mode.setToolTip(self.tr("Constrain the output: llama.cpp's grammar sampler allows only the tokens that "
                                     "keep the text valid under a grammar (GBNF) or a JSON schema. It runs before "
                                     "the chain; the waterfall shows how many tokens it allowed."))
        self.text = QPlainTextEdit()
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setMaximumHeight(self.text.fontMetrics().height() * 9)
        self.text.setTabChangesFocus(True)
        self.problem = QLabel()
        self.problem.setObjectName("settingProblem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout.addWidget(self.mode)
        layout.addWidget(self.text)
        layout.addWidget(self.problem)
        self._custom = {CUSTOM: "", SCHEMA: ""}   # what was typed in each editable mode, kept across switches
        self._quiet = False
        self.mode.currentIndexChanged.connect(self._mode_changed)
        self.text.textChanged.connect(self._text_changed)
        self._mode_changed()

    def current_mode(self) -> str:
        return str(self.mode.currentData())

    def _mode_changed(self) -> None:
        mode = self.current_mode()
        self._quiet = True
        self.text.setPlainText(READY.get(mode, self._custom.get(mode, "")))
        self._quiet = False
        self.text.setReadOnly(mode in READY)
        self.text.setVisible(mode != NONE)
        placeholders = {CUSTOM: self.tr('GBNF, e.g.  root ::= "yes" | "no"'),
                        SCHEMA: self.tr('A JSON schema, e.g. {"type": "object", "properties": {"name": {"type": "string"}}}')}
        self.text.setPlaceholderText(placeholders.get(mode, ""))
        tips = {CUSTOM: self.tr("Your grammar in llama.cpp's GBNF; the start rule is root"),
                SCHEMA: self.tr("A JSON schema: the engine turns it into a grammar, and the chat validates the answer "
                                "against it")}
        self.text.setToolTip(tips.get(mode, self.tr("The ready grammar's text (read-only)")))
        self.show_problem("")
        self.changed.emit()

    def _text_changed(self) -> None:
        if self._quiet:
            return
        mode = self.current_mode()
        if mode in self._custom:
            self._custom[mode] = self.text.toPlainText()
        self.changed.emit()

    def values(self) -> tuple[str, str]:
        """(grammar, json_schema) for SamplerSettings."""
        mode = self.current_mode()
        if mode in READY:
            return READY[mode], ""
        if mode == CUSTOM:
            return self._custom[CUSTOM], ""
        if mode == SCHEMA:
            return "", self._custom[SCHEMA]
        return "", ""

    def set_values(self, grammar: str, json_schema: str) -> None:
        ready = next((stem for stem, text in READY.items() if text == grammar), None) if grammar else None
        if json_schema:
            mode = SCHEMA
            self._custom[SCHEMA] = json_schema
        elif ready is not None:
            mode = ready
        elif grammar:
            mode = CUSTOM
            self._custom[CUSTOM] = grammar
        else:
            mode = NONE
        index = self.mode.findData(mode)
        if index == self.mode.currentIndex():
            self._mode_changed()    # the same mode with other text
        else:
            self.mode.setCurrentIndex(index)

    def set_unavailable(self, grammar: str | None, json_schema: str | None) -> None:
        """Grey the modes this engine cannot apply (the reason as their tooltip); back to none if the
        current one is among them."""
        model = self.mode.model()
        for i in range(self.mode.count()):
            mode = str(self.mode.itemData(i))
            why = json_schema if mode == SCHEMA else grammar if mode != NONE else None
            item = model.item(i)  # type: ignore[attr-defined]
            item.setEnabled(why is None)
            item.setToolTip(why or "")
        current = model.item(self.mode.currentIndex())  # type: ignore[attr-defined]
        if current is not None and not current.isEnabled():
            self.mode.setCurrentIndex(0)

    def show_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))
