"""`logitscope chat`: a conversation in the terminal, saved to the history as the window saves its own.

- A turn that cannot be answered (longer than the context, text that is not UTF-8, a template that
  fails) is reported on one `error:` line and the session goes on with its earlier turns.
- Unless `--no-save`, every question and answer goes to the history store (answers while they stream,
  through the store's StreamingWriter), so the conversation shows in `history list` and in the window.
  A turn that fails before its first token leaves nothing behind; one that breaks off keeps what came.
- Another process may be writing the history (a `history import`): the answer's last save then waits
  for its turn (up to `save_wait_s`); still refused, the chat says so, tries again after the next answer
  and at its end, and if an answer shown is still not saved whole, ends with an `error:` line (exit 2).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from logitscope.base.errors import ChatTemplateError, ContextOverflowError, InvalidSettingsError, StoreError
from logitscope.cli.common import stop_signals, terminated
from logitscope.cli.reasoning_options import reasoning_line
from logitscope.host.client import CancelledError, EngineClient
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.steering import Steering
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.store.database import BUSY_TIMEOUT_S
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity
from logitscope.store.streaming import StreamingWriter

TITLE_CHARS = 40  # a new conversation is named after its first question, as in the window
TURN_ERRORS = (ContextOverflowError, InvalidSettingsError, ChatTemplateError)  # this turn only: the chat goes on
MAX_LINE_BYTES = 4 << 20  # one message: beyond what a 1M-token context holds (`chat < /dev/zero` ends here)
QUIT_COMMANDS = ("/bye", "/quit", "/exit")
HELP_COMMANDS = ("/help", "/?")
HELP = "An empty line, /bye or Ctrl+D quits; Ctrl+C stops an answer; /help says this again."


class ChatRecorder:
    """Saves one linear chat: the system prompt (if any), then each question with its answer below it."""

    def __init__(self, store: HistoryStore, model: ModelIdentity, vocab: Sequence[bytes],
                 system: str | None) -> None:
        self.store = store
        self.model = model
        self.vocab = vocab
        self.system = system
        self.conversation_id: int | None = None
        self.parent_id: int | None = None  # the last saved answer (or the system prompt)

    def start_answer(self, question: str, sampler: dict[str, Any]) -> StreamingWriter:
        """Save the question and open its answer (called once the answer's first token is there)."""
        if self.conversation_id is None:
            self.conversation_id = self.store.create_conversation(question[:TITLE_CHARS])
            if self.system:
                self.parent_id = self.store.add_message(self.conversation_id, "system", self.system)
        question_id = self.store.add_message(self.conversation_id, "user", question, self.parent_id)
        return self.store.start_answer(self.conversation_id, question_id, self.model, self.vocab, sampler)

    def answered(self, writer: StreamingWriter) -> None:
        self.parent_id = writer.message_id  # the next question follows this answer


class _AnswerSaver:
    """The saving side of one turn: the question and its answer are saved once the first token is there.
    A failure to save is reported once and the chat goes on unsaved (what is on the screen stays)."""

    def __init__(self, chat: TerminalChat, question: str, sampler: dict[str, Any],
                 client: EngineClient | None) -> None:
        self.chat, self.question, self.sampler, self.client = chat, question, sampler, client
        self.writer: StreamingWriter | None = None

    def on_step(self, step: StepRecord) -> None:
        """A step as it comes: shown, then saved."""
        try:
            sys.stdout.write(("bot> " if step.i == 0 else "") + step.text)
            sys.stdout.flush()
        except OSError:  # the terminal is gone: stop the engine, then report
            if self.client is not None:
                self.client.cancel()
            raise
        self.step(step)

    @contextmanager
    def _saving(self) -> Iterator[ChatRecorder | None]:
        try:
            yield self.chat.recorder
        except (StoreError, sqlite3.Error) as exc:
            self.chat.stop_saving(exc)

    def _writer(self, recorder: ChatRecorder) -> StreamingWriter:
        if self.writer is None:
            self.writer = recorder.start_answer(self.question, self.sampler)
        return self.writer

    def step(self, step: StepRecord) -> None:
        with self._saving() as recorder:
            if recorder is not None:
                self._writer(recorder).append(step)

    def finish(self, result: GenerationResult) -> None:
        with self._saving() as recorder:
            if recorder is not None:
                writer = self._writer(recorder)
                writer.finish(result)
                recorder.answered(writer)
                self.chat.ended(writer)

    def fail(self, error: str) -> None:
        """The answer broke off: keep what was saved of it, marked as failed. A turn that failed before its
        first token saved nothing, and saves nothing now."""
        with self._saving() as recorder:
            if recorder is not None and self.writer is not None:
                self.writer.fail(error)
                self.chat.ended(self.writer)


class TerminalChat:
    """Questions from stdin, answers streamed to stdout, everything else (notes, errors) on stderr."""

    def __init__(self, model_path: Path, load: LoadSettings, system: str | None, temperature: float,
                 max_tokens: int, save: bool, steering: Steering | None = None,
                 decode: DecodeOptions | None = None) -> None:
        self.model_path = model_path
        self.steering = steering  # every answer's control vectors and LoRA adapters
        self.load = load
        self.system = system
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.decode = replace(decode or DecodeOptions(), max_tokens=max_tokens)   # max tokens, the thinking budget
        self.save = save
        self.recorder: ChatRecorder | None = None
        self.messages: list[ChatMessage] = []
        self.save_wait_s = BUSY_TIMEOUT_S  # how long an answer's last save waits for another writer's lock
        self.unsaved: list[StreamingWriter] = []  # ended answers whose last save was refused: tried again
        self.save_failure: str | None = None      # why saving stopped (the chat went on unsaved)
        self.asked = self.unanswered = 0          # messages sent, and those that got no answer (an error)

    def say(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    def stop_saving(self, exc: Exception) -> None:
        self.recorder = None
        self.save_failure = str(exc)
        self.say(f"warning: this chat is no longer being saved: {exc}")

    def saver(self, question: str, sampler: dict[str, Any], client: EngineClient | None = None) -> _AnswerSaver:
        """The saving side of one turn (`client`: the engine to stop when the terminal is gone)."""
        return _AnswerSaver(self, question, sampler, client)

    def ended(self, writer: StreamingWriter) -> None:
        """An answer ended (and was shown): its ending is saved now, waiting for another process's write if
        need be; refused, the user is told and it is tried again. Answers refused before go along."""
        self.unsaved = [w for w in self.unsaved if not w.flush()]
        if writer.saved or writer.flush(wait_s=self.save_wait_s):
            return
        self.unsaved.append(writer)
        self.say(f"warning: this answer is not saved whole yet ({writer.problem}); the chat tries again after "
                 "the next answer and when it ends")

    def finish_saving(self) -> None:
        """The last try for the answers not saved whole (each waits up to `save_wait_s`); StoreError when
        one still is not, or when saving had stopped: what was shown is not all in the history."""
        self.unsaved = [w for w in self.unsaved if not w.flush(wait_s=self.save_wait_s)]
        if self.unsaved:
            problem = self.unsaved[-1].problem
            if len(self.unsaved) == 1:
                raise StoreError("1 answer shown in this chat was not saved whole to the history ({problem}); "
                                 "the history keeps what was saved of it", problem=problem)
            raise StoreError("{n} answers shown in this chat were not saved whole to the history ({problem}); "
                             "the history keeps what was saved of them", n=len(self.unsaved), problem=problem)
        if self.save_failure is not None:
            raise StoreError("this chat was not saved whole to the history: {problem}", problem=self.save_failure)

    def run(self) -> int:
        SamplerSettings(temperature=self.temperature).validate()  # bad options: refused before anything starts
        self.decode.validate()
        store = HistoryStore() if self.save else None  # a data folder that cannot be used fails here, first
        try:
            self._chat(store)
        except BaseException:
            self._close_history(store, quiet=True)  # the error on its way says what happened; this, what was lost
            raise
        self._close_history(store, quiet=False)
        if self.unanswered:   # each said as it happened; the exit status tells a script
            self.say(f"error: {self.unanswered} of the {self.asked} messages were not answered (said above)")
            return 2
        return 0

    def _close_history(self, store: HistoryStore | None, quiet: bool) -> None:
        try:
            self.finish_saving()
        except StoreError as exc:
            if not quiet:
                raise
            self.say(f"warning: {exc}")
        finally:
            if store is not None:
                store.close()

    def _chat(self, store: HistoryStore | None) -> None:
        with EngineClient() as client:
            info = client.load(str(self.model_path), self.load)
            for notice in (store.notices if store else []) + info.notices:
                self.say(f"warning: {notice}")
            if store is not None:
                self.recorder = ChatRecorder(store, ModelIdentity.of_file(self.model_path), client.vocab(),
                                             self.system)
            saving = "saved to the history" if store else "not saved (--no-save)"
            # the file first: two quantizations of one model have the same name inside
            about = ", ".join(filter(None, (info.card.name, info.card.file_type, f"{info.n_ctx} tokens of context")))
            self.say(f"{self.model_path.name} ({about}); this chat is {saving}. {HELP}")
            while not terminated() and (question := self.read_question()) is not None:
                if question.lower() in QUIT_COMMANDS:
                    break
                if question.lower() in HELP_COMMANDS:   # not a question for the model
                    self.say(HELP)
                    continue
                self.turn(client, question)  # SIGTERM: this answer stops (and is saved), then the chat

    def read_question(self) -> str | None:
        """The next line (None: end of input, an empty line, Ctrl+C). Bytes that are not UTF-8 are kept
        as surrogates, so the request's validation names them (rather than a decoding traceback here)."""
        sys.stdout.write("\nyou> ")
        sys.stdout.flush()
        try:
            raw = sys.stdin.buffer.readline(MAX_LINE_BYTES + 1)
        except KeyboardInterrupt:
            return None
        if len(raw) > MAX_LINE_BYTES:
            raise InvalidSettingsError("a line of input is longer than {limit} MiB: not a message",
                                       limit=MAX_LINE_BYTES >> 20)
        return raw.decode("utf-8", "surrogateescape").strip() or None

    def turn(self, client: EngineClient, question: str) -> None:
        self.asked += 1
        settings = SamplerSettings(temperature=self.temperature)
        request = GenerateRequest(messages=[*self.messages, ChatMessage("user", question)], system=self.system,
                                  settings=settings, options=self.decode,
                                  steering=self.steering)
        saver = self.saver(question, settings.to_dict(), client)

        with stop_signals(lambda *_: client.cancel()):  # also while it saves: a SIGTERM ends the chat after it
            self._answer(client, request, question, saver)

    def _answer(self, client: EngineClient, request: GenerateRequest, question: str, saver: _AnswerSaver) -> None:
        try:
            result = client.generate(request, on_step=saver.on_step)
        except TURN_ERRORS as exc:
            self.say(f"error: {exc}")  # this turn is dropped; the conversation so far stays
            self.unanswered += 1
            return
        except CancelledError:
            saver.fail("stopped")
            return
        except BaseException as exc:
            saver.fail(str(exc) or type(exc).__name__)
            raise
        sys.stdout.write("\n")
        if result.finish_reason == "length":   # the window says "cut off" under such an answer
            self.say(f"(cut off at {result.timings.n_gen} tokens: --max-tokens)")
        self.messages += [ChatMessage("user", question), ChatMessage("assistant", result.text)]
        saver.finish(result)
        for notice in result.notices:
            self.say(f"(note: {notice})")
        if result.reasoning is not None:
            self.say(f"({reasoning_line(result.reasoning)})")
