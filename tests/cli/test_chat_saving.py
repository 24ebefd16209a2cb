"""`logitscope chat` while another process writes the history (a big `history import`): every answer the
user saw is stored whole, or the chat says so and exits non-zero. Real answers from the real engine (the
demo model); the other writer is a real process (a real import, or one holding SQLite's write lock)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from logitscope.base.errors import StoreError
from logitscope.protocol.api import LoadSettings
from logitscope.store.exchange import export_json
from logitscope.store.history import HistoryStore
from tests.helpers.cli import CLI
from tests.helpers.store import WriteLockHolder, child_env, save_answer

pytestmark = pytest.mark.model

QUESTIONS = ["Tell me a story about a cat.", "Name three fruits.", "What is rain?",
             "Tell me a story about a dog.", "How do plants grow?", "Why is the sea salty?"]


@pytest.fixture(scope="module")
def generated(engine, demo_model: Path):
    """Two real answers (24 tokens each) to store by hand, as the chat does."""
    from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
    from logitscope.protocol.sampler_settings import SamplerSettings
    from logitscope.protocol.trace import GenerationResult
    from logitscope.store.records import ModelIdentity
    from tests.helpers.store import Answer, Generated

    answers = []
    for n, prompt in enumerate(["Why is the sky blue?", "请用中文介绍一下你自己。"]):
        request = GenerateRequest(messages=[ChatMessage("user", prompt)],
                                  settings=SamplerSettings(temperature=0.8, seed=7 + n),
                                  options=DecodeOptions(max_tokens=24))
        *steps, result = list(engine.generate(request))
        assert isinstance(result, GenerationResult)
        answers.append(Answer(prompt, steps, result))
    return Generated(ModelIdentity.of_file(demo_model), engine.vocab(), answers)


def _chat(store: HistoryStore, generated, demo_model: Path, wait_s: float):
    from logitscope.cli.terminal_chat import ChatRecorder, TerminalChat

    chat = TerminalChat(demo_model, LoadSettings(), None, 0.8, 24, save=True)
    chat.save_wait_s = wait_s
    chat.recorder = ChatRecorder(store, generated.model, generated.vocab, None)
    return chat


def _answer(chat, answer) -> int:
    """One turn's saving, as TerminalChat.turn does it: the steps as they stream, then the ending."""
    saver = chat.saver(answer.prompt, answer.result.settings)
    for step in answer.steps:
        saver.step(step)
    saver.finish(answer.result)
    assert saver.writer is not None
    return saver.writer.message_id


def _status(path: Path, message_id: int) -> tuple[str, str, int]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as reader:
        status, content = reader.execute("SELECT status, content FROM messages WHERE id = ?", (message_id,)).fetchone()
        n = reader.execute("SELECT count(*) FROM trace_steps WHERE message_id = ?", (message_id,)).fetchone()[0]
    return status, content, n


def test_an_answer_that_ends_while_another_process_writes_waits_for_its_turn(tmp_path: Path, generated, demo_model):
    """The import held the lock when the answer ended: its last save was refused once and never tried
    again, and the answer stayed `streaming` with the steps of its last successful save."""
    answer = generated.answers[0]
    with HistoryStore(tmp_path / "history.sqlite3") as store:
        chat = _chat(store, generated, demo_model, wait_s=30)
        saver = chat.saver(answer.prompt, answer.result.settings)
        for step in answer.steps[:5]:
            saver.step(step)
        assert saver.writer is not None and saver.writer.flush()
        with WriteLockHolder(store.path) as holder:
            for step in answer.steps[5:]:
                saver.step(step)
            threading.Timer(1.0, holder.release).start()  # the other writer lets go a while after the end
            saver.finish(answer.result)
        assert _status(store.path, saver.writer.message_id) == ("done", answer.result.text, len(answer.steps))
        chat.finish_saving()


def test_an_answer_that_cannot_be_saved_is_reported_and_retried_later(tmp_path: Path, generated, demo_model, capsys):
    first, second = generated.answers
    with HistoryStore(tmp_path / "history.sqlite3") as store:
        chat = _chat(store, generated, demo_model, wait_s=0.3)
        saver = chat.saver(first.prompt, first.result.settings)
        saver.step(first.steps[0])  # the question and the answer's row are saved
        assert saver.writer is not None
        with WriteLockHolder(store.path):
            for step in first.steps[1:]:
                saver.step(step)
            saver.finish(first.result)
            err = capsys.readouterr().err
            assert err.count("warning:") == 1 and "not saved whole yet" in err and "locked" in err, err
            assert _status(store.path, saver.writer.message_id)[0] == "streaming"
        second_id = _answer(chat, second)  # the lock is free again: the next answer takes the first along
        assert _status(store.path, saver.writer.message_id) == ("done", first.result.text, len(first.steps))
        assert _status(store.path, second_id) == ("done", second.result.text, len(second.steps))
        chat.finish_saving()
        assert capsys.readouterr().err == ""


def test_a_chat_whose_answers_stay_unsaved_ends_with_an_error(tmp_path: Path, generated, demo_model, capsys):
    answer = generated.answers[0]
    with HistoryStore(tmp_path / "history.sqlite3") as store:
        chat = _chat(store, generated, demo_model, wait_s=0.3)
        saver = chat.saver(answer.prompt, answer.result.settings)
        saver.step(answer.steps[0])  # the question and the answer's row are saved
        with WriteLockHolder(store.path):
            for step in answer.steps[1:]:
                saver.step(step)
            saver.finish(answer.result)
            with pytest.raises(StoreError, match=r"1 answer shown in this chat was not saved whole .*locked"):
                chat.finish_saving()
        assert "Traceback" not in capsys.readouterr().err


def test_a_chat_answers_are_stored_whole_while_another_process_imports(isolated_home: Path, tmp_path: Path,
                                                                       generated, demo_model):
    """Two processes: `chat` answering six questions while `history import` runs again and again beside it.
    (Before: 2 of 8 answers stayed `streaming`, cut short, while the terminal showed them whole.)"""
    source = tmp_path / "source.sqlite3"
    with HistoryStore(source) as store:
        for answer in generated.answers:
            save_answer(store, generated, answer)
        document = export_json(store)
    document["conversations"] *= 150                      # 300 conversations, a few seconds to import
    big = tmp_path / "big.json"
    big.write_text(json.dumps(document))
    env = child_env(LOGITSCOPE_HOME=str(isolated_home))
    questions = tmp_path / "questions.txt"
    questions.write_text("".join(q + "\n" for q in QUESTIONS))
    with questions.open("rb") as stdin:
        chat = subprocess.Popen([*CLI, "chat", "--model", str(demo_model), "--n-ctx", "2048", "--max-tokens", "120",
                                 "--temperature", "0.8", "--threads", "1"], stdin=stdin,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert chat.stdout is not None
    head = os.read(chat.stdout.fileno(), 20)              # (unbuffered: communicate() reads the fd itself)
    assert head                                           # loaded, answering
    imports = 0
    started = time.monotonic()
    while chat.poll() is None and time.monotonic() - started < 120:
        proc = subprocess.run([*CLI, "history", "import", str(big)], env=env, capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, proc.stderr
        imports += 1
    out, err = chat.communicate(timeout=60)
    print(f"{imports} imports of 300 conversations while the chat answered")
    assert chat.returncode == 0 and "Traceback" not in err.decode(), err.decode()
    assert imports >= 1
    with HistoryStore(isolated_home / "history.sqlite3", read_only=True) as store:
        (conversation,) = [c for c in store.list_conversations() if c.title == QUESTIONS[0]]
        answers = [m for m in store.active_path(conversation.id) if m.role == "assistant"]
        assert len(answers) == len(QUESTIONS)
        printed = (head + out).decode()
        for m in answers:
            assert (m.status, m.finish_reason) in {("done", "length"), ("done", "stop")}, (m.id, m.status)
            steps, _ = store.load_trace(m.id)
            assert m.content == "".join(s.text for s in steps) and m.content in printed

