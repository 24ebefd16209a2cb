"""What the session's signals change on screen: the chat's turns and answers, the step the inspector follows,
the memory panel's fill and KV map and the status line's speed and context (the chat and version shown, never
another's: the KV map only while the engine's cache holds them)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.session.conversation import Answer
from logitscope.ui.chat.chat_view import ChatView
from logitscope.ui.controllers.inspector_coordinator import InspectorCoordinator
from logitscope.ui.controllers.session import SessionController
from logitscope.ui.inspector.memory import MemoryPanel
from logitscope.ui.window.status_line import StatusLine


class SessionDisplay(QObject):
    def __init__(self, session: SessionController, chat: ChatView, inspector: InspectorCoordinator,
                 memory: MemoryPanel, status: StatusLine, update_actions: Callable[[], None],
                 parent: QObject | None = None) -> None:
        """`update_actions`: the window's Send, Stop, Regenerate… follow whether an answer is streaming."""
        super().__init__(parent)
        self.session, self.chat, self.inspector, self.memory, self.status = session, chat, inspector, memory, status
        self.update_actions = update_actions
        self.cached: list[Answer] = []   # the answer the engine's generation context holds now
        self.batched: list[Answer] = []  # the versions the last request decoded together, on a context of their own
        session.pathChanged.connect(self.show_path)
        session.turnAdded.connect(lambda index: chat.add_turn(session.current.turns[index]))
        session.answerStarted.connect(self.answer_started)
        session.stepsArrived.connect(self.steps_arrived)
        session.answerEnded.connect(self.answer_ended)

    def show_conversation(self) -> None:
        """Another conversation on screen: the chat shows it, the inspector forgets the old one's step."""
        self.chat.show_conversation(self.session.current)
        self.inspector.show_conversation(self.session.current)
        self.show_context()

    def show_path(self) -> None:
        """The same conversation on another branch: the chat redraws, a selection there follows the last turn."""
        current = self.session.current
        self.chat.show_conversation(current)
        self.inspector.show_conversation(current)
        if current.turns:
            self.inspector.follow(len(current.turns) - 1)
        self.show_context()
        self.update_actions()

    def show_context(self) -> None:
        """The context of the chat and version on screen (as its last answer ended), never another's; the KV map
        only while the engine's cache holds them."""
        current = self.session.current
        last = current.turns[-1].answer if current.turns else None
        self.memory.kv_map.show_cached(any(last is answer for answer in self.cached), bool(current.turns),
                                       any(last is answer for answer in self.batched))
        used = current.context_cells()
        self.status.show_context(used)
        self.memory.set_used(max(used, 0))

    def answer_started(self, turn_index: int) -> None:
        streaming = self.session.streaming_answers()
        if streaming and self.session.streaming_batch():
            # decoded together on a context of their own: the generation context keeps the answer it held
            self.batched = streaming
            self.memory.kv_map.batch_started()
            self.show_context()
        elif streaming:   # the engine's cache is this answer's from now on
            path = [turn.answer for turn in self.session.current.turns]
            if not any(a is b for a in self.cached for b in path):
                self.memory.kv_map.forget()   # the map was of another chat or version
            self.cached, self.batched = streaming, []   # (a plain answer's map has no batch cells)
            self.memory.kv_map.show_cached(True)
        self.chat.answers[turn_index].refresh()
        self.inspector.follow(turn_index)
        self.update_actions()

    def steps_arrived(self, turn_index: int, steps: list[StepRecord]) -> None:
        self.chat.answers[turn_index].append(steps)
        used = steps[-1].kv_used + 1 if steps[-1].kv_used >= 0 else -1
        if used >= 0:
            self.memory.set_used(used)
        self.status.show_context_soon(used)
        self.inspector.steps_arrived(turn_index)

    def answer_ended(self, turn_index: int, result: GenerationResult | None) -> None:
        if turn_index >= 0:
            self.chat.answers[turn_index].refresh()
        self.inspector.refresh()
        self.update_actions()
        if result is not None:
            self.status.show_speed(result.timings, result.speculative, result.threads)
            self.status.show_context(result.kv.used_cells)
            if result.kv.used_cells >= 0:
                self.memory.set_used(result.kv.used_cells)
