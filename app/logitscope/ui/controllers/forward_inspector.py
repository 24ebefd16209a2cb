"""The forward-pass docks (Layers, Attention) following the selected step: what to ask the engine, when,
and which answer to keep.

- Nothing is asked while neither dock can be seen (hidden, or a tab behind another one): the engine's
  inspection costs a forward pass, and the docks are closed most of the time.
- Requests go through the bridge's single worker, never the GUI thread. One is in flight at a time; a
  newer selection makes the older request stale: a stale request not started yet skips the engine, a
  stale answer is dropped, and the newest selection is asked for next.
- While an answer streams, the engine is busy generating and a request waits behind the generation: the
  live step is followed at most every FOLLOW_INTERVAL_MS, and what counts is the step shown when it ends.
- The context of step i is the chat prompt the model read plus the answer's tokens before i: taken from
  the answer's result, or asked of the engine (client.prompt_tokens) for an answer without one yet.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QDockWidget

from logitscope.base.errors import LogitscopeError
from logitscope.protocol.api import GenerateRequest
from logitscope.protocol.causal import Ablation
from logitscope.protocol.engine_like import EngineLike
from logitscope.protocol.forward import AttentionMatrix, ForwardInspection, InspectRequest
from logitscope.protocol.steering import knockouts_from_record, steering_from_record
from logitscope.session.conversation import Answer
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.common.messages import translate_message
from logitscope.ui.controllers.answer_vocab import written_by_another
from logitscope.ui.controllers.inspector_coordinator import InspectorCoordinator
from logitscope.ui.inspector.attention import AttentionPanel
from logitscope.ui.inspector.attention_matrix import AttentionMatrixDialog
from logitscope.ui.inspector.forward_page import ForwardPage
from logitscope.ui.inspector.inspected import Inspected, InspectedStep
from logitscope.ui.inspector.layers import LayersPanel

FOLLOW_INTERVAL_MS = 500  # while streaming: how often the docks may ask for the newest step
UNSUPPORTED = "unsupported"  # what the worker answers for an engine without inspect() (a remote server)

log = logging.getLogger(__name__)


def chat_prompt(answer: Answer) -> tuple[int, ...] | None:
    """The chat prompt an answer was generated from, without a fork's forced prefix (the answer's own steps)."""
    result = answer.result
    if result is None or not result.prompt_tokens:
        return None
    return tuple(result.prompt_tokens[:len(result.prompt_tokens) - answer.prefix_steps])


class ForwardInspector(QObject):
    """Feeds the Layers and Attention docks with the inspection of the selected step."""

    positionClicked = Signal(int, int)  # turn, step: a context token of the answer was clicked
    notice = Signal(str)
    inspected = Signal(object)          # the newest Inspected the docks show (the Steering dock reads its norms)

    def __init__(self, bridge: EngineBridge, coordinator: InspectorCoordinator,
                 docks: dict[str, tuple[QDockWidget, ForwardPage]], loaded_name: Callable[[], str] = lambda: "",
                 parent: QObject | None = None) -> None:
        """`docks`: "layers" and "attention", each its dock and the page inside it; `loaded_name`: the loaded
        model's name as answers record theirs (ModelController.recorded_name)."""
        super().__init__(parent)
        self.bridge, self.coordinator, self.docks, self.loaded_name = bridge, coordinator, docks, loaded_name
        self.supported = True
        self.stopped = False                    # the window is closing: the bridge takes no more calls
        self.unsupported_text = self.tr(
            "The forward pass cannot be shown for this engine: a remote server does not expose the layers "
            "and attention of its model. Load a local GGUF model to see them.")
        self.last: Inspected | None = None
        self._wanted_head: tuple[int, int] | None = None   # the head the Attention dock is to show next
        self.requests_sent = 0
        self._serial = 0                        # the newest wanted request; older ones are stale
        self._in_flight: tuple[tuple[int, int, int], frozenset[str]] | None = None  # what is being asked
        self._last_sent = 0.0
        self._prompts: weakref.WeakKeyDictionary[Answer, tuple[int, ...]] = weakref.WeakKeyDictionary()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.update)
        coordinator.shown.connect(self.update)
        for dock, _page in docks.values():
            dock.visibilityChanged.connect(lambda _visible: self.update())
        self.attention_panel.tokenClicked.connect(self._token_clicked)
        self.attention_panel.wholePromptRequested.connect(self.open_whole_prompt)
        self.matrix_dialog: AttentionMatrixDialog | None = None
        self.update()

    @property
    def layers_panel(self) -> LayersPanel:
        panel = self.docks["layers"][1].panel
        assert isinstance(panel, LayersPanel)
        return panel

    @property
    def attention_panel(self) -> AttentionPanel:
        panel = self.docks["attention"][1].panel
        assert isinstance(panel, AttentionPanel)
        return panel

    # -- what the engine can do --------------------------------------------------------------------------
    def set_capabilities(self, caps: dict[str, object]) -> None:
        """Remote servers cannot show the forward pass: the docks say so instead of asking."""
        # "forward_pass" is the engine's key (protocol/engine_like.py); an engine that predates it is local unless remote
        supported = caps.get("forward_pass", not caps.get("remote", False))
        self.supported = bool(supported)
        self.last = None   # another engine or model: nothing of the old one stays shown
        self.update()

    def stop(self) -> None:
        """The window closes: ask nothing more (docks hidden while closing would ask again)."""
        self.stopped = True
        self._timer.stop()

    # -- when to ask -------------------------------------------------------------------------------------
    def visible_views(self) -> set[str]:
        """The docks someone can see now: open, not behind another tab, not minimised."""
        return {key for key, (dock, _page) in self.docks.items()
                if dock.isVisible() and not dock.visibleRegion().isEmpty()}

    def update(self) -> None:
        """Show what the selection needs in the visible docks; ask the engine when something is missing."""
        visible = self.visible_views()
        if not visible or self.stopped:
            return  # nothing computed or painted for docks no one sees
        step = self.selected_step()
        if step is None:
            self._show_message(visible, self.coordinator.pages["distribution"].empty_text())
            return
        if reason := self.unavailable_reason(step):
            self._show_message(visible, reason)
            return
        wanted = {"layers": "lens", "attention": "attention"}
        views = {wanted[key] for key in visible}
        last = self.last
        if last is not None and last.step.key == step.key and all(self._has(last, view) for view in views):
            self._show(last, visible)
            return
        if self._in_flight is not None:
            asked_key, asked_views = self._in_flight
            if asked_key != step.key or not views <= asked_views:
                self._serial += 1   # the request in flight is stale now; its end asks again
            return
        if step.answer.status == "streaming" and self.coordinator.selected == (step.turn_index, None):
            wait_ms = FOLLOW_INTERVAL_MS - (time.monotonic() - self._last_sent) * 1000
            if wait_ms > 0:
                if not self._timer.isActive():
                    self._timer.start(int(wait_ms) + 1)
                return
        self._send(step, views, visible)

    def unavailable_reason(self, step: InspectedStep | None = None) -> str:
        """Why the selected step's forward pass cannot be shown ("" when it can): a remote engine, or an answer
        another model wrote (its tokens mean other words to the loaded one)."""
        step = step or self.selected_step()
        if not self.supported:
            return self.unsupported_text
        if step is not None and written_by_another(step.answer, self.loaded_name()):
            return self.tr("This answer was written by {0}: its forward pass can only be computed by that model. "
                           "Load {0} to look inside it.").format(step.answer.model_name)
        return ""

    @staticmethod
    def _has(inspected: Inspected, view: str) -> bool:
        found = inspected.inspection
        return view in found.unavailable or (found.lens if view == "lens" else found.attention) is not None

    def selected_step(self) -> InspectedStep | None:
        coordinator = self.coordinator
        answer = coordinator.selected_answer()
        if answer is None or not answer.steps or coordinator.selected is None:
            return None
        index = coordinator.selected_step_index(answer)
        return InspectedStep(coordinator.selected[0], index, answer, answer.steps[index].token)

    # -- asking --------------------------------------------------------------------------------------------
    def _send(self, step: InspectedStep, views: set[str], visible: set[str]) -> None:
        self._serial += 1
        serial = self._serial
        self._in_flight = (step.key, frozenset(views))
        self._last_sent = time.monotonic()
        self.requests_sent += 1
        answer_tokens = step.answer_tokens()
        known_prompt = chat_prompt(step.answer) or self._prompts.get(step.answer)
        conversation = self.coordinator.conversation
        prompt_request = None if known_prompt is not None else GenerateRequest(
            messages=conversation.messages_for(step.turn_index), system=conversation.system)
        result = step.answer.result  # a steered answer's step is inspected steered as its trace says
        steering = steering_from_record(result.steering if result is not None else None)
        knockouts = tuple(Ablation.parse(label) for label in knockouts_from_record(
            result.steering if result is not None else None))   # and knocked out as it was
        waiting = self.bridge.busy   # a generation holds the engine: this request runs after it
        self._show_message(visible, self.tr("Computing… (after the engine finishes the answer it is writing)")
                           if waiting else self.tr("Computing…"))

        def job(client: EngineLike) -> Inspected | str | None:   # the worker thread
            if serial != self._serial:
                return None  # a newer selection came while this one waited: spare the engine
            inspect: Callable[[InspectRequest], ForwardInspection] | None = getattr(
                client, "inspect", None)   # by name: a remote engine has none
            if inspect is None:
                return UNSUPPORTED
            prompt = known_prompt
            if prompt is None:
                assert prompt_request is not None
                prompt = tuple(client.prompt_tokens(prompt_request))
            request = InspectRequest(prompt + answer_tokens, step.chosen, lens="lens" in views,
                                     attention="attention" in views, steering=steering, knockouts=knockouts,
                                     n_prompt=len(prompt))
            try:
                return Inspected(step, prompt, inspect(request))
            except LogitscopeError:
                raise       # the bridge hands it to `failed`
            except Exception as exc:  # noqa: BLE001 - a bug must not leave the docks waiting forever
                log.exception("inspecting a step failed")
                return f"{type(exc).__name__}: {exc}"

        def done(found: Inspected | str | None) -> None:
            self._in_flight = None
            if isinstance(found, str):
                if found == UNSUPPORTED:
                    self.supported = False
                failed(self.unsupported_text if found == UNSUPPORTED else found)
                return
            if found is not None:
                self._prompts[step.answer] = found.prompt   # right even for a stale answer: the same chat
                if serial == self._serial:
                    self.last = found
                    self.inspected.emit(found)
            self.update()   # shows it, or asks for the newer selection

        def failed(message: str) -> None:
            self._in_flight = None
            if serial == self._serial:
                self._show_message(self.visible_views(), self.tr(
                    "The engine could not inspect this step: {0}").format(translate_message(message)))
                return
            self.update()

        self.bridge.call(job, done, failed)

    # -- showing ---------------------------------------------------------------------------------------------
    def _show(self, found: Inspected, visible: set[str]) -> None:
        inspection = found.inspection
        for key, view, panel in (("layers", "lens", self.layers_panel), ("attention", "attention", self.attention_panel)):
            if key not in visible:
                continue
            page = self.docks[key][1]
            reason = inspection.unavailable.get(view)
            if reason is not None:
                page.show_message(self.tr("Not available for this model: {0}").format(translate_message(reason)))
                continue
            if panel.shown_key != found.step.key:
                panel.show_inspection(found)
            page.show_panel()
        if self._wanted_head is not None and inspection.attention is not None and "attention" in visible:
            self._select_head(*self._wanted_head)

    def _show_message(self, keys: set[str], text: str) -> None:
        for key in keys:
            self.docks[key][1].show_message(text)

    def open_whole_prompt(self, layer: int, head: int) -> AttentionMatrixDialog | None:
        """The tokens x tokens view of the shown step's context, for one layer and head (asked on demand)."""
        found, panel = self.last, self.attention_panel
        row = found.inspection.attention if found is not None else None
        if found is None or row is None:
            return None
        tokens = list(found.inspection.tokens[:row.position + 1])
        steering = steering_from_record(found.inspection.steering)  # as the shown step was computed
        knockouts = tuple(Ablation.parse(label) for label in knockouts_from_record(found.inspection.steering))
        n_layer, n_head = row.weights.shape[:2]
        if self.matrix_dialog is not None:
            self.matrix_dialog.close()

        def fetch(dialog: AttentionMatrixDialog, layer: int, head: int) -> None:
            def failed(message: str) -> None:
                dialog.show_message(self.tr("The engine could not compute this matrix: {0}").format(
                    translate_message(message)))

            def job(client: EngineLike) -> AttentionMatrix | None:   # the worker thread
                compute: Callable[..., AttentionMatrix] | None = getattr(
                    client, "attention_matrix", None)   # by name: a remote engine has none
                return compute(tokens, layer, head, steering, knockouts) if compute is not None else None

            def done(matrix: AttentionMatrix | None) -> None:
                if matrix is None:
                    dialog.show_message(self.unsupported_text)
                else:
                    dialog.show_matrix(matrix)

            self.bridge.call(job, done, failed)

        dialog = AttentionMatrixDialog(n_layer, n_head, layer, head, panel.labels, fetch, panel.window())
        self.matrix_dialog = dialog
        dialog.ask()
        dialog.show()
        return dialog

    def show_head(self, layer: int, head: int) -> None:
        """The Attention dock in front on this layer and head (the Causal tracing dialog's head scan): at once
        when it shows the step's attention, else once it does."""
        self._wanted_head = (layer, head)
        dock, _page = self.docks["attention"]
        dock.show()
        dock.raise_()
        if self.last is not None and self.last.inspection.attention is not None:
            self._select_head(layer, head)

    def _select_head(self, layer: int, head: int) -> None:
        panel = self.attention_panel
        self._wanted_head = None
        if panel.layer_box.count() > layer and panel.head_box.count() > head + 1:
            panel.layer_box.setCurrentIndex(layer)
            panel.head_box.setCurrentIndex(head + 1)   # item 0 is the mean of the heads

    def _token_clicked(self, position: int) -> None:
        found = self.last
        if found is None:
            return
        step = found.step_of_position(position)
        if step is not None:
            self.positionClicked.emit(found.step.turn_index, step)
        else:
            labels = self.attention_panel.labels   # named: the strip's chips are short, the status bar stays
            token = labels[position] if 0 <= position < len(labels) else ""
            self.notice.emit(self.tr("{0} at position {1} is in the prompt (the chat template, the system prompt "
                                     "and the earlier turns), not in this answer").format(token, position))

