"""The diagnosis in the window: every answer diagnosed (the badge under it), the Diagnosis dock on the answer
asked for, the selected finding's evidence marked in the chat and the timeline, and its fix applied in one
click as a new version of the answer (regenerated, or forked at the step; reloaded first when the fix
changes how the model is loaded).
"""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Callable
from dataclasses import replace

import pyqtgraph as pg
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDockWidget

from logitscope.base.errors import InvalidSettingsError, LogitscopeError
from logitscope.diagnosis import Context, Diagnosis, Finding, diagnose
from logitscope.diagnosis.findings import Quant
from logitscope.diagnosis.quants import library_smaller, quant_of
from logitscope.diagnosis.stored import reference_tps
from logitscope.protocol.api import LoadSettings, ModelInfo
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import Vocab
from logitscope.session.conversation import Answer
from logitscope.session.history import ChatHistory
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.chat.chat_view import ChatView
from logitscope.ui.common.background import Background
from logitscope.ui.common.messages import translate_message
from logitscope.ui.common.visibility import on_screen
from logitscope.ui.controllers.model import ModelController
from logitscope.ui.controllers.session import SessionController
from logitscope.ui.inspector.diagnosis import DiagnosisPanel
from logitscope.ui.inspector.sampler_controls import SamplerPanel
from logitscope.ui.inspector.timeline import TimelinePanel

EVIDENCE_BRUSH = (220, 60, 60, 50)   # the evidence's band on the timeline


class DiagnosisController(QObject):
    notice = Signal(str)

    def __init__(self, dock: Callable[[], QDockWidget], chat: ChatView, timeline: TimelinePanel,
                 session: SessionController, sampler: SamplerPanel, models: ModelController, bridge: EngineBridge,
                 history: ChatHistory, vocab_for: Callable[[Answer], Vocab], parent: QObject | None = None) -> None:
        """`dock`: the Diagnosis dock, once the window has made it (around `self.panel`); `vocab_for`: the bytes
        of an answer's token ids (its own model's: ui/controllers/answer_vocab.py)."""
        super().__init__(parent)
        self.panel, self._dock, self.chat, self.timeline = DiagnosisPanel(), dock, chat, timeline
        self.session, self.sampler, self.models, self.bridge, self.history = session, sampler, models, bridge, history
        self.vocab_for = vocab_for
        self.bands: list[pg.LinearRegionItem] = []
        self._cache: weakref.WeakKeyDictionary[Answer, tuple[tuple[object, ...], Diagnosis]] = weakref.WeakKeyDictionary()
        self._after_reload: tuple[int, Finding] | None = None
        self._applied: tuple[int, Finding] | None = None   # a fix's new version on the way: is the problem gone?
        self._smaller: tuple[str, Quant | None] | None = None   # (loaded file, its smaller quantization)
        self._waiting_turn: int | None = None   # an answer ended while the dock was behind another tab
        self._looking: str | None = None   # the file whose smaller quantization a worker is looking up
        self._background = Background(self, workers=1)   # the library lookup reads every header: not on the GUI
        chat.diagnose = self.diagnose
        chat.diagnosisRequested.connect(self.show_turn)
        self.panel.findingSelected.connect(self.mark_evidence)
        self.panel.fixRequested.connect(self.apply_fix)
        session.answerEnded.connect(self._answer_ended)
        bridge.loaded.connect(self._reloaded)
        bridge.loadFailed.connect(self._reload_failed)
        session.pathChanged.connect(self.forget)  # another branch on screen: the dock's answer and marks are gone

    def forget(self) -> None:
        self._waiting_turn = None
        self.panel.show_diagnosis(None)

    @property
    def dock(self) -> QDockWidget:
        return self._dock()

    # -- diagnosing ---------------------------------------------------------------------------------------
    def diagnose(self, answer: Answer) -> Diagnosis | None:
        """The diagnosis of a finished answer (None while it streams, when it has no steps, and when it failed or was
        interrupted: "✓ no problem found" under "failed: the engine process crashed" said the opposite)."""
        if answer.status in ("streaming", "error", "interrupted") or not answer.steps:
            return None
        info = self.bridge.info
        ref = None
        if answer.store_id is not None:
            try:
                ref = reference_tps(self.history.store, answer.store_id)
            except (LogitscopeError, sqlite3.Error):  # a history that cannot be read: speed is not judged
                ref = None
        local = info if isinstance(info, ModelInfo) else None
        context = Context(reference_tps=ref, forked_at=answer.forked_at, load=local.load if local else None,
                          gpu_offload=local.gpu_offload_supported if local else None,
                          quant=quant_of(local.card) if local else None)
        key = (len(answer.steps), answer.status, answer.result is not None, ref, context.quant, self._smaller)
        cached = self._cache.get(answer)
        if cached is not None and cached[0] == key:
            return cached[1]
        result = answer.result if answer.status in ("done", "stopped") else None
        settings = answer.result.settings if answer.result is not None else answer.settings
        diagnosis = diagnose(answer.steps, result, self._vocab(answer), context, settings=settings)
        if local is not None and diagnosis.of_kind("slow"):   # only then is the library read (every model's header)
            smaller = self.smaller_quant(local)
            if smaller is not None:
                diagnosis = diagnose(answer.steps, result, self._vocab(answer), replace(context, smaller=smaller),
                                     settings=settings)
        self._cache[answer] = (key, diagnosis)
        return diagnosis

    def smaller_quant(self, info: ModelInfo) -> Quant | None:
        """A smaller quantization of the loaded model in the library, looked up once per loaded file on a worker
        thread: None until the lookup returns, then the diagnosis shown is made again with it."""
        path = info.card.path
        if self._smaller is not None and self._smaller[0] == path:
            return self._smaller[1]
        if self._looking != path:
            self._looking = path
            card, folders = info.card, list(self.models.app_settings.app.models_folders)  # as the Models window

            def lookup() -> tuple[str, Quant | None]:
                try:
                    return path, library_smaller(card, folders)
                except (LogitscopeError, OSError):   # an unreadable library: no smaller file to offer
                    return path, None

            self._background.run(lookup, self._smaller_found)
        return None

    def _smaller_found(self, found: tuple[str, Quant | None]) -> None:
        if found[0] != self._looking:   # another file was loaded meanwhile: its own lookup is on the way
            return
        self._smaller, self._looking = found, None
        if found[1] is None or self.panel.diagnosis is None or not self.dock.isVisible():
            return
        if not on_screen(self.dock):   # behind another tab: refilled (with the newest answer) when shown
            if self._waiting_turn is None:
                self._waiting_turn = self.panel.turn_index
            return
        row = self.panel.findings.currentRow()
        self._fill(self.panel.turn_index)   # the slow finding's fix can load it now
        if 0 <= row < self.panel.findings.count():
            self.panel.findings.setCurrentRow(row)   # the finding the user was reading stays selected

    def _vocab(self, answer: Answer) -> Vocab | None:
        return self.vocab_for(answer) or None   # None: no bytes for its ids anywhere

    def show_turn(self, turn_index: int) -> None:
        """The badge was clicked: the dock comes to the front with that answer's diagnosis."""
        self._fill(turn_index)
        self.dock.show()
        self.dock.raise_()

    def _fill(self, turn_index: int) -> None:
        self._waiting_turn = None
        turns = self.session.current.turns
        answer = turns[turn_index].answer if 0 <= turn_index < len(turns) else None
        self.panel.can_apply = not self.session.busy
        self.panel.show_diagnosis(self.diagnose(answer) if answer is not None else None, turn_index)

    def _answer_ended(self, turn_index: int, _result: object) -> None:
        self._verdict(turn_index)
        # the dock follows the latest answer where it is, never taking the tab the user is looking at; behind
        # another tab it is filled when it comes to the front (filling it marks the first finding's evidence
        # in the chat and the timeline, ~10 ms an answer, and marks nobody sees explained)
        if turn_index < 0 or not self.dock.isVisible():
            return
        if on_screen(self.dock):
            self._fill(turn_index)
        else:
            self._waiting_turn = turn_index

    def catch_up(self) -> None:
        """The dock came to the front: show the answer that ended while it was behind another tab."""
        if self._waiting_turn is not None and on_screen(self.dock):
            turn, self._waiting_turn = self._waiting_turn, None
            self._fill(turn)

    # -- evidence -----------------------------------------------------------------------------------------
    def mark_evidence(self, finding: Finding | None) -> None:
        for band in self.bands:
            self.timeline.top.removeItem(band)
        self.bands = []
        turn = self.panel.turn_index
        steps = finding.steps if finding is not None else []
        self.chat.highlight_steps(turn, steps)
        for start, end in finding.spans if finding is not None else ():
            band = pg.LinearRegionItem((start - 0.5, end - 0.5), movable=False, brush=pg.mkBrush(*EVIDENCE_BRUSH))
            self.timeline.top.addItem(band)
            self.bands.append(band)

    # -- the fix ------------------------------------------------------------------------------------------
    def apply_fix(self, finding: Finding) -> None:
        """Put the fix's settings into the controls and make the new version: a fork at the step, or a
        regeneration (after reloading the model when the fix changes how it is loaded)."""
        fix, turn = finding.fix, self.panel.turn_index
        turns = self.session.current.turns
        if fix is None or self.session.busy or not 0 <= turn < len(turns) or turns[turn].answer is None:
            return
        answer = turns[turn].answer
        assert answer is not None
        try:
            base = SamplerSettings.from_dict(dict(answer.settings))
        except InvalidSettingsError:
            base = self.sampler.settings()
        self.sampler.set_settings(replace(fix.sampler_settings(base), seed=self.sampler.settings().seed))
        decode = dict(fix.decode)
        if "max_tokens" in decode:
            self.sampler.max_tokens.setValue(int(decode["max_tokens"]))
        if "stop" in decode:
            self.sampler.set_stop_sequences(list(decode["stop"]))
        if "reasoning_budget" in decode:
            self.sampler.reasoning_budget.setValue(int(decode["reasoning_budget"]))
        if fix.needs_reload:
            info = self.bridge.info
            if not isinstance(info, ModelInfo):
                self.notice.emit(self.tr("This fix reloads the model: it needs a local model"))
                return
            self._after_reload = (turn, finding)
            path = fix.model or info.card.path   # a smaller quantization, or the same file
            if not self.models.open_model(path, fix.load_settings(info.load or LoadSettings()), ask=False):
                self._after_reload = None   # the file cannot be loaded now (the window said why)
            return
        self._make_version(turn, finding)

    def _reloaded(self, _info: object) -> None:
        pending, self._after_reload = self._after_reload, None
        if pending is not None:
            self._make_version(*pending)

    def _reload_failed(self, _error: object) -> None:
        # the fix's reload failed or was cancelled: a later load must not apply it
        self._after_reload = None

    def _make_version(self, turn: int, finding: Finding) -> None:
        fix = finding.fix
        assert fix is not None
        started = (self.session.fork(turn, fix.fork[0], fix.fork[1]) if fix.fork is not None
                   else self.session.regenerate(turn))
        if started:
            self._applied = (turn, finding)
            self.notice.emit(self.tr("Applying the fix: {0}").format(translate_message(fix.label)))

    def _verdict(self, turn_index: int) -> None:
        """The fixed version came: say whether what the fix was for is gone (a fix can fail: the sampler's
        other stages, or the model, may bring the same problem back)."""
        applied, self._applied = self._applied, None
        turns = self.session.current.turns
        if applied is None or applied[0] != turn_index or not 0 <= turn_index < len(turns):
            return
        answer = turns[turn_index].answer
        diagnosis = self.diagnose(answer) if answer is not None else None
        if diagnosis is None:
            return
        title = translate_message(applied[1].title)
        if diagnosis.of_kind(applied[1].kind):
            self.notice.emit(self.tr("After the fix: the {0} is still there").format(title))
        else:
            self.notice.emit(self.tr("After the fix: the {0} is gone").format(title))
