"""Sampler controls: every SamplerSettings field, grouped in sections that fold away, the chain's order as
a list to reorder, logit bias, a grammar or JSON schema, seed, max tokens, stops, presets.

Every change emits `settingsChanged` at once; the window uses it to preview the selected step (replayed
from its record, no model call) and for the next generation. A grammar, a schema or a logit-bias token is
checked by the engine (settings_check.py); its problem shows beside the control, and `settings_to_send`
refuses settings with a known problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.protocol.api import DecodeOptions
from logitscope.protocol.reasoning import UNLIMITED
from logitscope.protocol.sampler_settings import PRESETS, SamplerSettings, is_on
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.common.ask_text import ask_text
from logitscope.ui.common.messages import translate_sentence, translate_template
from logitscope.ui.common.spin_boxes import SpinBox
from logitscope.ui.inspector.bias_table import BiasTable
from logitscope.ui.inspector.chain_list import ChainList
from logitscope.ui.inspector.constraint_box import ConstraintBox
from logitscope.ui.inspector.draft_controls import DraftControls
from logitscope.ui.inspector.sampler_fields import FIELDS, Row, Section, breakers_text, parse_breakers
from logitscope.ui.inspector.sampler_texts import SamplerTexts
from logitscope.ui.inspector.settings_check import EngineCheck

CUSTOM = ""  # the preset box's data for "Custom" (sliders that match no preset); a preset name is never empty
# section key -> the fields it shows, in order (the others: Mirostat, bias, constraint, order, generation)
SECTION_FIELDS = {
    "temperature": ("temperature", "dynatemp_range", "dynatemp_exponent"),
    "truncation": ("top_k", "top_p", "min_p", "typical_p", "top_n_sigma", "min_keep"),
    "repetition": ("repeat_penalty", "repeat_last_n", "frequency_penalty", "presence_penalty",
                   "dry_multiplier", "dry_base", "dry_allowed_length", "dry_penalty_last_n"),
    "xtc": ("xtc_probability", "xtc_threshold"),
    "mirostat": ("mirostat_tau", "mirostat_eta"),
}
EXPANDED = ("temperature", "truncation", "order", "generation")


class SamplerPanel(QWidget):
    settingsChanged = Signal(object)      # SamplerSettings
    presetSaved = Signal(str, object)     # name, SamplerSettings

    def __init__(self, user_presets: dict[str, SamplerSettings] | None = None, parent: QWidget | None = None,
                 engine: EngineBridge | None = None) -> None:
        super().__init__(parent)
        self.user_presets = dict(user_presets or {})
        self.texts = SamplerTexts()
        self._chain_supported = True   # False: the engine cannot take an order (set_capabilities)
        self.check = EngineCheck(engine, self)
        self.check.answered.connect(self._show_check)
        if engine is not None:  # the engine's own check before generating refused them: say so beside them too
            engine.generationFailed.connect(self._generation_failed)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.setSpacing(2)
        presets_row = QHBoxLayout()
        self.presets = QComboBox()
        self.presets.setToolTip(self.tr("Presets: Greedy always takes the most likely token; Creative samples widely; "
                                        "the others are well-known recipes (min-p + DRY, XTC, JSON output)"))
        self.save_preset = QPushButton(self.tr("Save as…"))
        self.save_preset.setToolTip(self.tr("Save the current settings as a preset of your own"))
        self.save_preset.clicked.connect(self._ask_preset_name)
        presets_row.addWidget(self.presets, 1)
        presets_row.addWidget(self.save_preset)
        outer.addLayout(presets_row)
        self.sections: dict[str, Section] = {}
        for key in ("temperature", "truncation", "repetition", "xtc", "mirostat", "bias", "constraint", "order",
                    "generation"):
            title, tip = self.texts.sections[key]
            self.sections[key] = Section(title, tip, expanded=key in EXPANDED)
            outer.addWidget(self.sections[key])
        self.rows: dict[str, Row] = {}
        self.widgets: dict[str, QWidget] = {}   # setting name -> its control (disabled when unsupported)
        self.mirostat = QComboBox()
        for mode, text in enumerate((self.tr("off"), self.tr("Mirostat (v1)"), self.tr("Mirostat 2.0"))):
            self.mirostat.addItem(text, mode)
        self.mirostat.setToolTip(self.texts.fields["mirostat"][1])
        self.mirostat.currentIndexChanged.connect(self._emit)
        self.widgets["mirostat"] = self.mirostat
        self.sections["mirostat"].form.addRow(self.texts.fields["mirostat"][0], self.mirostat)
        for key, names in SECTION_FIELDS.items():
            for name in names:
                lo, hi, step, decimals = FIELDS[name]
                row = Row(lo, hi, step, decimals)
                row.setObjectName(f"sampler_{name}")
                label, tip = self.texts.fields[name]
                row.setToolTip(tip)
                row.changed.connect(self._emit)
                self.rows[name] = self.widgets[name] = row
                self.sections[key].form.addRow(label, row)
        self.breakers = QLineEdit()
        self.breakers.setToolTip(self.texts.fields["dry_sequence_breakers"][1])
        self.breakers.textChanged.connect(self._emit)
        self.widgets["dry_sequence_breakers"] = self.breakers
        self.sections["repetition"].form.addRow(self.texts.fields["dry_sequence_breakers"][0], self.breakers)
        self.bias = BiasTable()
        self.bias.changed.connect(self._emit)
        self.widgets["logit_bias"] = self.bias
        self.sections["bias"].form.addRow(self.bias)
        self.constraint = ConstraintBox()
        self.constraint.changed.connect(self._emit)
        self.sections["constraint"].form.addRow(self.constraint)
        self._build_order()
        self._build_generation()
        outer.addStretch(1)
        self._refill_presets()
        self.presets.currentIndexChanged.connect(self._apply_preset)
        self._quiet = False
        self.set_settings(PRESETS["Balanced"])
        self.select_preset("Balanced")

    def _build_order(self) -> None:
        form = self.sections["order"].form
        self.chain = ChainList(self.texts.stage_labels, self.texts.stage_tips)
        self.chain.setToolTip(self.tr("The order the stages run in: drag a stage, or press Alt+Up / Alt+Down. "
                                      "Unchecked stages are left out."))
        self.chain.changed.connect(self._emit)
        self.widgets["samplers"] = self.chain
        self.reset_order = QPushButton(self.tr("Reset to llama.cpp's order"))
        self.reset_order.setToolTip(self.tr("Every stage, in llama.cpp's default order (a stage whose setting is off "
                                            "still changes nothing)"))
        self.reset_order.clicked.connect(self.chain.reset_order)
        self.mirostat_note = QLabel(self.tr("Mirostat is on: it replaces this chain (temperature, then Mirostat)."))
        self.mirostat_note.setObjectName("settingNote")
        self.mirostat_note.setWordWrap(True)
        self.fixed_note = QLabel(self.tr("Logit bias and the grammar, when set, always run first."))
        self.fixed_note.setWordWrap(True)
        form.addRow(self.chain)
        form.addRow(self.reset_order)
        form.addRow(self.mirostat_note)
        form.addRow(self.fixed_note)

    def _build_generation(self) -> None:
        form = self.sections["generation"].form
        seed_row = QHBoxLayout()
        self.fixed_seed = QCheckBox(self.tr("fixed"))
        self.fixed_seed.setToolTip(self.tr("A fixed seed makes sampling repeatable: the same settings give the same answer"))
        self.seed = SpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setEnabled(False)
        self.seed.setToolTip(self.fixed_seed.toolTip())
        self.fixed_seed.toggled.connect(self.seed.setEnabled)
        self.fixed_seed.toggled.connect(self._emit)
        self.seed.valueChanged.connect(self._emit)
        seed_row.addWidget(self.fixed_seed)
        seed_row.addWidget(self.seed, 1)
        form.addRow(self.tr("Seed"), seed_row)
        self.max_tokens = SpinBox()
        self.max_tokens.setRange(1, 32768)
        self.max_tokens.setValue(512)
        self.max_tokens.setToolTip(self.tr("The answer stops after this many tokens"))
        form.addRow(self.tr("Max tokens"), self.max_tokens)
        self.reasoning_budget = SpinBox()   # llama.cpp's --reasoning-budget: -1 unlimited, 0 off, N tokens
        self.reasoning_budget.setRange(UNLIMITED, 32768)
        self.reasoning_budget.setValue(UNLIMITED)
        self.reasoning_budget.setSpecialValueText(self.tr("unlimited"))
        self.reasoning_budget.setToolTip(self.tr(
            "A reasoning model's thinking (<think> … </think>): after this many tokens the engine closes the block "
            "and the answer follows; 0: no thinking; unlimited: as long as the model thinks. A model that does not "
            "think is unaffected."))
        form.addRow(self.tr("Thinking budget"), self.reasoning_budget)
        self.stops = QLineEdit()
        self.stops.setPlaceholderText(self.tr("e.g. ###, \\n\\n (comma-separated)"))
        self.stops.setToolTip(self.tr("The answer stops when it writes one of these (\\n: a newline, "
                                      "\\,: a comma inside one)"))
        form.addRow(self.tr("Stop sequences"), self.stops)
        self.drafting = DraftControls()
        form.addRow(self.tr("Speculative"), self.drafting)

    # -- presets (each item's data is its key, as stored; built-in names are shown translated) -----------
    def select_preset(self, name: str) -> None:
        self.presets.setCurrentIndex(max(0, self.presets.findData(name)))

    def _refill_presets(self) -> None:
        current = self.presets.currentData()
        self.presets.blockSignals(True)
        self.presets.clear()
        for name in PRESETS:
            self.presets.addItem(translate_template(name), name)
        for name in sorted(self.user_presets):
            self.presets.addItem(name, name)
        self.presets.setCurrentIndex(max(0, self.presets.findData(current)))
        self.presets.blockSignals(False)

    def _apply_preset(self) -> None:
        name = self.presets.currentData() or ""
        preset = PRESETS.get(name) or self.user_presets.get(name)
        if preset is not None:
            self.set_settings(preset)

    def _ask_preset_name(self, _checked: bool = False, ask: Callable[..., tuple[str, bool]] | None = None) -> None:
        name, ok = (ask or ask_text)(self, self.tr("Save preset"), self.tr("Preset name:"))
        name = name.strip()
        if ok and name and name not in PRESETS:
            self.save_preset_as(name)

    def save_preset_as(self, name: str) -> None:
        self.user_presets[name] = self.settings()
        self._refill_presets()
        self.select_preset(name)
        self.presetSaved.emit(name, self.user_presets[name])

    # -- what the engine supports ----------------------------------------------------------------------
    def set_capabilities(self, caps: dict[str, object]) -> None:
        """Disable (with the reason as tooltip) each setting the engine cannot apply."""
        unsupported = {str(k): str(v) for k, v in dict(caps.get("unsupported_settings") or {}).items()}  # type: ignore[call-overload]
        if caps.get("grammar") is False:
            unsupported.setdefault("grammar", self.tr("this engine cannot apply a grammar"))
        for name, widget in self.widgets.items():
            widget.setEnabled(name not in unsupported)
            if name in self.rows:
                self.rows[name].setToolTip(unsupported.get(name) or self.texts.fields[name][1])
            elif name in unsupported:
                widget.setToolTip(unsupported[name])
        self.constraint.set_unavailable(unsupported.get("grammar"), unsupported.get("json_schema"))
        applied = caps.get("samplers")
        stages: dict[str, str] = {}
        if isinstance(applied, list | tuple):
            stages = {n: self.tr("this engine does not apply this stage") for n in self.chain.names() if n not in applied}
        self._chain_supported = "samplers" not in unsupported
        self.drafting.set_available(caps.get("speculative") is True)
        self.chain.set_unavailable(stages)
        self._emit()   # what will be asked for changed with the engine

    # -- values --------------------------------------------------------------------------------------
    def set_settings(self, settings: SamplerSettings) -> None:
        self._quiet = True
        for name, row in self.rows.items():
            row.set_value(getattr(settings, name))
        self.mirostat.setCurrentIndex(self.mirostat.findData(settings.mirostat))
        self.chain.set_samplers(settings.samplers)
        self.breakers.setText(breakers_text(settings.dry_sequence_breakers))
        self.bias.set_biases(settings.logit_bias)
        self.constraint.set_values(settings.grammar, settings.json_schema)
        self.fixed_seed.setChecked(settings.seed is not None)
        if settings.seed is not None:
            self.seed.setValue(int(settings.seed) % 2**31)
        self._quiet = False
        self._emit()

    def settings(self) -> SamplerSettings:
        values: dict[str, Any] = {name: (row.value() if FIELDS[name][3] else int(row.value()))
                                  for name, row in self.rows.items()}
        grammar, json_schema = self.constraint.values()
        return replace(SamplerSettings(), **values, mirostat=int(self.mirostat.currentData()),
                       samplers=self.chain.samplers(), dry_sequence_breakers=parse_breakers(self.breakers.text()),
                       logit_bias=self.bias.biases()[0], grammar=grammar, json_schema=json_schema,
                       seed=self.seed.value() if self.fixed_seed.isChecked() else None)

    def settings_to_send(self) -> SamplerSettings:
        """The settings for a new answer; InvalidSettingsError (its problem also shown beside the control)
        when a bias cell is not a number or the engine already refused the grammar, schema or a bias token."""
        settings = self.settings()
        settings.validate()
        if self.bias.biases()[1]:
            raise InvalidSettingsError("a logit bias must be a number or -inf (ban)")
        for part, probe in self._check_parts(settings).items():
            problem = self.check.problem(part, probe)
            if problem:
                raise InvalidSettingsError(problem)
        return settings

    def decode_options(self, forced: tuple[int, ...] = ()) -> DecodeOptions:
        """How a new answer is decoded: max tokens, the stops, speculative drafting; `forced`: a fork's tokens."""
        return DecodeOptions(max_tokens=self.max_tokens.value(), stop=self.stop_sequences(), forced=forced,
                             reasoning_budget=self.reasoning_budget.value(), **self.drafting.options())

    # The stop field: sequences separated by commas; \n stands for a newline, \, for a comma inside one.
    def stop_sequences(self) -> tuple[str, ...]:
        parts = [p.strip().replace("\\n", "\n").replace("\\,", ",")
                 for p in re.split(r"(?<!\\),", self.stops.text())]
        return tuple(p for p in parts if p)

    def set_stop_sequences(self, stops: tuple[str, ...] | list[str]) -> None:
        self.stops.setText(", ".join(s.replace(",", "\\,").replace("\n", "\\n") for s in stops))

    # -- reactions -------------------------------------------------------------------------------------
    def _emit(self) -> None:
        if self._quiet:
            return
        settings = self.settings()
        self._mirostat_changed()
        self._mark_sections(settings)
        bad_rows = self.bias.biases()[1]
        self.bias.show_problem(self.tr("Row {0}: a bias is a number, or -inf to ban the token").format(bad_rows[0] + 1)
                               if bad_rows else "")
        for part, probe in self._check_parts(settings).items():
            self.check.request(part, probe)
        self._show_matching_preset(settings)
        self.settingsChanged.emit(settings)

    @staticmethod
    def _check_parts(settings: SamplerSettings) -> dict[str, SamplerSettings]:
        """What the engine must check, each part alone so its problem shows beside its own control."""
        parts = {}
        if settings.grammar or settings.json_schema:
            parts["constraint"] = SamplerSettings(grammar=settings.grammar, json_schema=settings.json_schema)
        if settings.logit_bias:
            parts["bias"] = SamplerSettings(logit_bias=settings.logit_bias)
        return parts

    def _show_check(self, part: str) -> None:
        settings = self.settings()
        probe = self._check_parts(settings).get(part)
        problem = self.check.problem(part, probe) if probe is not None else None
        text = translate_sentence(problem) if problem else ""
        if part == "constraint":
            self.constraint.show_problem(text)
        elif not self.bias.biases()[1]:
            self.bias.show_problem(text)

    def _generation_failed(self, error: object) -> None:
        if isinstance(error, InvalidSettingsError):
            self.show_problem(error.message)

    def show_problem(self, message: Message) -> None:
        """A problem the engine found in the settings, beside the control it concerns (by its wording)."""
        text = translate_sentence(message)
        if any(word in message.template for word in ("grammar", "schema")):
            self.constraint.show_problem(text)
            self.sections["constraint"].expand()
        elif "bias" in message.template:
            self.bias.show_problem(text)
            self.sections["bias"].expand()

    def _mirostat_changed(self) -> None:
        on = int(self.mirostat.currentData() or 0) > 0
        self.mirostat_note.setVisible(on)
        self.chain.setEnabled(self._chain_supported and not on)
        self.reset_order.setEnabled(self._chain_supported and not on)

    def _mark_sections(self, s: SamplerSettings) -> None:
        """A folded section still says when something in it is on."""
        on = {
            "repetition": s.repeat_penalty != 1.0 or s.frequency_penalty != 0 or s.presence_penalty != 0
                          or is_on("dry", s),
            "xtc": is_on("xtc", s), "mirostat": s.mirostat > 0, "bias": bool(s.logit_bias),
            "constraint": bool(s.grammar or s.json_schema),
        }
        for key, active in on.items():
            title = self.texts.sections[key][0]
            self.sections[key].header.setText(self.tr("{0} — on").format(title) if active else title)

    def _show_matching_preset(self, settings: SamplerSettings) -> None:
        """The preset box names the preset the sliders match, or says "Custom"."""
        bare = replace(settings, seed=None)
        name = next((n for n, p in {**PRESETS, **self.user_presets}.items() if replace(p, seed=None) == bare), None)
        self.presets.blockSignals(True)
        custom = self.presets.findData(CUSTOM)
        if name is None:
            if custom < 0:
                self.presets.addItem(self.tr("Custom"), CUSTOM)
            self.presets.setCurrentIndex(self.presets.findData(CUSTOM))
        else:
            if custom >= 0:
                self.presets.removeItem(custom)
            self.select_preset(name)
        self.presets.blockSignals(False)
