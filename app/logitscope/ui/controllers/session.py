"""The chat session: send, regenerate, edit, fork and switch versions of the conversation on screen,
take the engine's stream into the answer, and write it all to the history as it happens.

No widgets: the window connects the signals below to the chat view and the inspector, so the state
machine can be driven and tested without a window (tests/ui/test_session_controller.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from PySide6.QtCore import QObject, Signal

from logitscope.base.errors import EngineCrashedError, InvalidSettingsError, LogitscopeError
from logitscope.host.client import CancelledError
from logitscope.protocol.api import DecodeOptions, GenerateRequest
from logitscope.protocol.attachments import Attachment
from logitscope.protocol.batched import MAX_BATCHED_ANSWERS, AnswerStep, BatchedRequest, BatchedResult
from logitscope.protocol.causal import Ablation
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.steering import Steering
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.session.conversation import NEW_CHAT_TITLE, Answer, Conversation, Turn
from logitscope.session.history import ChatHistory
from logitscope.store.records import ModelIdentity
from logitscope.ui.bridge import JOB_GENERATE, EngineBridge
from logitscope.ui.common.messages import translate_message

TITLE_LENGTH = 40   # a new conversation is named after the start of its first question


@dataclass(frozen=True)
class SessionServices:
    """What the session asks the rest of the window for when it starts an answer."""

    sampler_settings: Callable[[], SamplerSettings]   # InvalidSettingsError: the answer is not started
    decode_options: Callable[[tuple[int, ...]], DecodeOptions]   # forced tokens -> options
    model_name: Callable[[], str]
    model_identity: Callable[[], ModelIdentity | None]
    can_fork: Callable[[], bool]
    # control vectors and LoRA adapters for the answer (the Steering dock's; None: unsteered)
    steering: Callable[[], Steering | None] = field(default=lambda: None)
    # heads and blocks kept knocked out for the next answers (the Causal tracing dialog's; (): none)
    knockouts: Callable[[], tuple[Ablation, ...]] = field(default=lambda: ())


class SessionController(QObject):
    pathChanged = Signal()                  # the turns on screen changed: show the conversation again
    turnAdded = Signal(int)                 # a new question at the end of the path
    answerStarted = Signal(int)             # turn index whose active answer now streams
    stepsArrived = Signal(int, list)        # turn index on screen, the new steps
    answerEnded = Signal(int, object)       # turn index (-1: not on screen), the GenerationResult or None
    failed = Signal(str)                    # an answer failed (not stopped by the user): the message
    notice = Signal(str)                    # a short line for the status bar
    titleChanged = Signal()
    withoutThinkingEnded = Signal(object, object)   # the answer that thought, the same answer without thinking

    def __init__(self, bridge: EngineBridge, history: ChatHistory, services: SessionServices,
                 conversation: Conversation | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge, self.history, self.services = bridge, history, services
        self.current = conversation or Conversation()
        self.streaming: tuple[Turn, Answer] | None = None
        self._without_thinking: tuple[Answer, Answer] | None = None   # (source, its counterpart) while it streams
        self._batch: list[Answer] = []        # the answers decoded together while they stream (answer k: _batch[k])
        self._alone_tps = 0.0                 # the last lone answer's tokens/s, beside a batch's
        bridge.steps.connect(self._on_steps)
        bridge.generationFinished.connect(self._on_finished)
        bridge.generationFailed.connect(self._on_failed)

    @property
    def busy(self) -> bool:
        return self.streaming is not None

    def streaming_answers(self) -> list[Answer]:
        """Every answer that streams now: the versions decoded together, or the one answer (none: [])."""
        return list(self._batch) or ([self.streaming[1]] if self.streaming is not None else [])

    def streaming_batch(self) -> bool:
        """The answers that stream now are versions decoded together (on a context of their own)."""
        return bool(self._batch)

    def open(self, conversation: Conversation) -> bool:
        """Show another conversation; refused (False) while an answer streams."""
        if self.busy:
            return False
        self.history.fill(conversation)
        self.current = conversation
        return True

    # -- asking ---------------------------------------------------------------------------------------
    def send(self, text: str, attachments: Sequence[Attachment] = ()) -> bool:
        """Ask `text` with these files attached (either may be empty, not both)."""
        if not (text or attachments) or self.busy:
            return False
        if self.bridge.info is None:
            self.notice.emit(self.tr("Load a model first (File ▸ Open model…)"))
            return False
        settings = self._settings()
        if settings is None:
            return False
        self.current.append_turn(text, attachments)
        if self.current.title == NEW_CHAT_TITLE:
            self.current.title = (text or attachments[0].name)[:TITLE_LENGTH]
            self.titleChanged.emit()
        index = len(self.current.turns) - 1
        self.history.save_question(self.current, index)
        self.turnAdded.emit(index)
        self._start_answer(index, Answer(), settings)
        return True

    def regenerate(self, turn_index: int, n: int = 1) -> bool:
        """A new version of this turn's answer (n > 1: that many, decoded together); the turns after the old version
        stay in its branch."""
        if n != 1:
            return self.regenerate_many(turn_index, n)   # which refuses fewer than 2 or more than it can
        if self.busy or not 0 <= turn_index < len(self.current.turns) or self.bridge.info is None:
            return False
        settings = self._settings()
        if settings is None:
            return False
        self._start_answer(turn_index, Answer(), settings, path_changes=turn_index < len(self.current.turns) - 1)
        return True

    def regenerate_many(self, turn_index: int, n: int) -> bool:
        """N new versions of this turn's answer decoded together in one batch (engine/batched.py): the prompt is
        evaluated once, answer k has the seed + k. The first streams on screen; all N are versions to flip
        through once the batch ends (a notice then says what the N answers cost together)."""
        if not 2 <= n <= MAX_BATCHED_ANSWERS:
            return False
        if self.busy or not 0 <= turn_index < len(self.current.turns) or self.bridge.info is None:
            return False
        settings = self._settings()
        if settings is None:
            return False
        settings = settings.with_seed()   # answer k: the seed + k, as the engine gives them (answer_settings)
        assert settings.seed is not None
        request = BatchedRequest(self._request(turn_index, settings, None, ()), n)
        try:  # a request the engine would refuse opens no versions (they would stay, empty and failed)
            request.validate()
        except InvalidSettingsError as exc:
            self.notice.emit(self.tr("Not sent: {0}").format(translate_message(exc)))
            return False
        turn = self.current.turns[turn_index]
        first = len(turn.answers)
        self._batch = [Answer() for _ in range(n)]
        for k, answer in enumerate(self._batch):
            self._open_answer(turn, answer, replace(settings, seed=(settings.seed + k) % 2**63))
        turn.active = first
        self.streaming = (turn, self._batch[0])
        if turn_index < len(self.current.turns) - 1:
            self.pathChanged.emit()
        self.answerStarted.emit(turn_index)
        self.bridge.generate(request)
        return True

    def answer_without_thinking(self, turn_index: int) -> bool:
        """A new version of this turn's answer with the thinking block closed at once (budget 0), the same seed and
        sampler settings: what the thinking changed. withoutThinkingEnded brings both once it has ended."""
        if self.busy or not 0 <= turn_index < len(self.current.turns) or self.bridge.info is None:
            return False
        source = self.current.turns[turn_index].answer
        if source is None or source.result is None or source.result.reasoning is None:
            return False
        try:
            settings = SamplerSettings.from_dict(source.result.settings)   # its actual seed included
        except InvalidSettingsError as exc:
            self.notice.emit(self.tr("Not sent: {0}").format(translate_message(exc)))
            return False
        options = replace(self.services.decode_options(()), reasoning_budget=0, reasoning_format="deepseek")
        answer = Answer()
        self._without_thinking = (source, answer)
        self._start_answer(turn_index, answer, settings, options=options,
                           path_changes=turn_index < len(self.current.turns) - 1)
        return True

    def edit(self, turn_index: int, text: str) -> bool:
        """A new version of this question, answered afresh; the old one keeps its answers and later turns."""
        if self.busy or not 0 <= turn_index < len(self.current.turns) or self.bridge.info is None:
            return False
        settings = self._settings()
        if settings is None:
            return False
        self.current.add_question_version(turn_index, text)
        self.history.save_question(self.current, turn_index)
        self._start_answer(turn_index, Answer(), settings, path_changes=True)
        return True

    def fork(self, turn_index: int, step_index: int, token: int) -> bool:
        """Regenerate the answer from `step_index`, with `token` forced there; the old one stays a version. A fork
        of an answer the user stopped ends at the stopped answer's length (else at max tokens more)."""
        if not self.services.can_fork():
            self.notice.emit(self.tr("Forking needs token ids: use a local model"))
            return False
        if self.busy or not 0 <= turn_index < len(self.current.turns):
            self.notice.emit(self.tr("Forking works when nothing is generating"))
            return False
        source = self.current.turns[turn_index].answer
        if source is None or step_index > len(source.steps):
            return False
        settings = self._settings()
        if settings is None:
            return False
        prefix_steps = [replace(s) for s in source.steps[:step_index]]
        answer = Answer(steps=prefix_steps, forked_at=step_index, prefix_steps=step_index)
        options = self.services.decode_options((token,))
        if source.status == "stopped":   # the user stopped it there: the fork grows no longer than it did
            options = replace(options, max_tokens=max(1, len(source.steps) - step_index))
        self._start_answer(turn_index, answer, settings, prefix=tuple(s.token for s in prefix_steps), options=options,
                           path_changes=turn_index < len(self.current.turns) - 1)
        return True

    def close_open_answers(self, reason: str) -> None:
        """The app closes while answers stream: what they have is kept, marked as stopped for `reason`."""
        if self.streaming is not None:
            for answer in self._batch or [self.streaming[1]]:
                self.history.finish(answer, None, reason)

    def stop(self) -> None:
        """Stop the answer (streaming or still queued), and nothing else the engine is doing."""
        if self.busy:
            self.bridge.cancel(JOB_GENERATE)

    # -- versions ---------------------------------------------------------------------------------------
    def switch_answer(self, turn_index: int, version: int) -> bool:
        if self.busy or not 0 <= turn_index < len(self.current.turns):
            return False
        if not 0 <= version < len(self.current.turns[turn_index].answers):
            return False
        self.history.switch_branch(self.current.switch_answer(turn_index, version))
        self.pathChanged.emit()
        return True

    def switch_question(self, turn_index: int, version: int) -> bool:
        if self.busy or not 0 <= turn_index < len(self.current.turns):
            return False
        if not 0 <= version < self.current.question_versions(turn_index)[1]:
            return False
        turn = self.current.switch_question(turn_index, version)
        self.history.switch_branch(turn.answer or turn)   # the answer shown under it, or the question
        self.pathChanged.emit()
        return True

    # -- streaming --------------------------------------------------------------------------------------
    def _settings(self) -> SamplerSettings | None:
        """The settings for a new answer, or None when they have a known problem (said in the status bar;
        the sampler controls show it beside the control)."""
        try:
            return self.services.sampler_settings()
        except InvalidSettingsError as exc:
            self.notice.emit(self.tr("Not sent: {0}").format(translate_message(exc)))
            return None

    def _start_answer(self, turn_index: int, answer: Answer, settings: SamplerSettings, prefix: tuple[int, ...] = (),
                      forced: tuple[int, ...] = (), path_changes: bool = False,
                      options: DecodeOptions | None = None) -> None:
        turn = self.current.turns[turn_index]
        self._open_answer(turn, answer, settings)
        turn.active = len(turn.answers) - 1
        self.streaming = (turn, answer)
        if path_changes:  # the later turns went with the old version: the chat shows the new branch
            self.pathChanged.emit()
        self.answerStarted.emit(turn_index)
        self.bridge.generate(self._request(turn_index, settings, options or self.services.decode_options(forced),
                                           prefix))

    def _open_answer(self, turn: Turn, answer: Answer, settings: SamplerSettings) -> None:
        """A new version of the turn's answer, in the history from its first moment."""
        answer.settings = settings.to_dict()
        answer.model_name = self.services.model_name()
        turn.answers.append(answer)
        identity = self.services.model_identity()
        if identity is not None:
            self.history.start_answer(self.current, turn, answer, identity, self.bridge.vocab)

    def _request(self, turn_index: int, settings: SamplerSettings, options: DecodeOptions | None,
                 prefix: tuple[int, ...]) -> GenerateRequest:
        return GenerateRequest(messages=self.current.messages_for(turn_index), system=self.current.system,
                               settings=settings, options=options or self.services.decode_options(()),
                               assistant_prefix=prefix, steering=self.services.steering(),
                               knockouts=self.services.knockouts())

    def _index_on_screen(self, turn: Turn, answer: Answer) -> int:
        turns = self.current.turns
        return turns.index(turn) if turn in turns and turn.answer is answer else -1

    def _on_steps(self, steps: list[StepRecord] | list[AnswerStep]) -> None:
        if self.streaming is None or not steps:
            return
        turn, answer = self.streaming
        if isinstance(steps[0], AnswerStep):  # answers decoded together: each step to its own answer
            by_answer: dict[int, list[StepRecord]] = {}
            for event in steps:
                assert isinstance(event, AnswerStep)
                by_answer.setdefault(event.answer, []).append(event.step)
            for k, records in by_answer.items():
                self._take(turn, self._batch[k], records)
            return
        self._take(turn, answer, steps)

    def _take(self, turn: Turn, answer: Answer, steps: list[StepRecord]) -> None:
        for step in steps:  # a fork's steps count on from the prefix it copied
            step.i += answer.prefix_steps
        answer.steps.extend(steps)
        self.history.append(answer, steps)
        index = self._index_on_screen(turn, answer)
        if index >= 0:
            self.stepsArrived.emit(index, steps)

    def _on_finished(self, result: GenerationResult | BatchedResult) -> None:
        if self.streaming is None:
            return
        turn, answer = self.streaming
        if isinstance(result, BatchedResult):
            self._batch_finished(turn, result)
            return
        self.streaming = None
        if result.timings.gen_tps > 0 and result.speculative is None:
            self._alone_tps = result.timings.gen_tps
        answer.result = result
        answer.status = "stopped" if result.finish_reason == "cancelled" else "done"
        self.history.finish(answer, result)
        self.answerEnded.emit(self._index_on_screen(turn, answer), result)
        pair, self._without_thinking = self._without_thinking, None
        if pair is not None and pair[1] is answer and answer.status == "done":
            self.withoutThinkingEnded.emit(*pair)

    def _batch_finished(self, turn: Turn, result: BatchedResult) -> None:
        """Every answer of the batch ends with its own result; the one on screen says so, the status bar what
        they cost together."""
        batch, self._batch = self._batch, []
        shown = self.streaming[1] if self.streaming is not None else batch[0]
        self.streaming = None
        for answer, own in zip(batch, result.answers, strict=True):
            answer.result = own
            answer.status = "stopped" if own.finish_reason == "cancelled" else "done"
            self.history.finish(answer, own)
        self.answerEnded.emit(self._index_on_screen(turn, shown), result.answers[batch.index(shown)])
        n, seconds = len(batch), result.prompt_s + result.gen_s
        text = self.tr("{0} answers in {1:.1f} s, decoded together: {2:.0f} tokens/s in all, {3:.0f} per answer").format(
            n, seconds, result.gen_tps, result.gen_tps / n)
        if self._alone_tps:
            text += self.tr(" (one answer alone: {0:.0f} tokens/s)").format(self._alone_tps)
        self.notice.emit(text)

    def _on_failed(self, error: LogitscopeError) -> None:
        if self.streaming is None:
            return
        turn, shown = self.streaming
        self.streaming = None
        stopped = isinstance(error, CancelledError)
        batch, self._batch = self._batch or [shown], []
        for answer in batch:
            answer.status = "stopped" if stopped else "error"
            answer.error = "" if stopped else str(error)
            self.history.finish(answer, None, "stopped" if stopped else str(error))
        self._without_thinking = None
        self.answerEnded.emit(self._index_on_screen(turn, shown), None)
        if not stopped and not isinstance(error, EngineCrashedError):  # a crash has its own message
            self.failed.emit(str(error))
