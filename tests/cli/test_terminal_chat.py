"""`logitscope chat`, driven through its stdin as a user types: a turn that cannot be answered is
reported and the session goes on; the chat is saved to the history (as the window saves its own) unless
--no-save. Real subprocess, real engine, real demo model, a throw-away data folder."""

from __future__ import annotations

import subprocess

import pytest

from logitscope.session.conversation import Conversation
from logitscope.session.history import ChatHistory
from logitscope.store.history import HistoryStore
from tests.helpers.cli import CLI, assert_clean_error

CHAT = [*CLI, "chat", "--n-ctx", "256", "--max-tokens", "6", "--temperature", "0"]
TOO_LONG = "word " * 400  # about 400 tokens: more than a 256-token context


def chat(stdin: bytes, *extra: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*CHAT, *extra], input=stdin, capture_output=True, timeout=timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


@pytest.mark.model
def test_a_turn_that_cannot_be_answered_is_reported_and_the_chat_goes_on(isolated_home):
    stdin = b"Hi, who are you?\n" + TOO_LONG.encode() + b"\n\xff\xfe\nWhat is 2+2?\n"
    proc = chat(stdin)
    assert proc.returncode == 2, proc.stderr   # a script sees that not everything was answered (it was 0)
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 3, proc.stderr
    assert "the context holds 256" in errors[0]
    assert "the user message is not valid UTF-8 (byte 0xff" in errors[1]
    assert errors[2] == "error: 2 of the 4 messages were not answered (said above)"
    assert proc.stdout.count("bot> ") == 2, proc.stdout  # the first and the last question were answered
    assert proc.stderr.count("(cut off at 6 tokens: --max-tokens)") == 2, proc.stderr   # as the window marks them

    with HistoryStore() as store:  # saved, as the window saves: only the turns that were answered
        (conversation,) = store.list_conversations()
        assert conversation.title == "Hi, who are you?"
        path = store.active_path(conversation.id)
        assert [m.role for m in path] == ["user", "assistant", "user", "assistant"]
        assert [path[0].content, path[2].content] == ["Hi, who are you?", "What is 2+2?"]
        for answer in (path[1], path[3]):
            assert answer.status == "done" and answer.finish_reason == "length"
            steps, _ = store.load_trace(answer.id)
            assert len(steps) == 6
            assert answer.content and answer.content == "".join(s.text for s in steps)
            assert answer.content in proc.stdout


@pytest.mark.model
def test_a_line_longer_than_any_message_ends_the_chat_before_it_fills_the_memory(isolated_home):
    """`chat < /dev/zero` read one line without end, until memory ran out."""
    from logitscope.cli.terminal_chat import MAX_LINE_BYTES

    proc = chat(b"Hi\n" + b"\0" * (MAX_LINE_BYTES + 10))
    assert_clean_error(proc, f"a line of input is longer than {MAX_LINE_BYTES // 2**20} MiB")
    assert proc.stdout.count("bot> ") == 1


@pytest.mark.model
def test_the_saved_chat_opens_in_the_window(isolated_home):
    proc = chat(b"Name a colour.\nAnd another one?\n", "--system", "You answer in one word.")
    assert proc.returncode == 0, proc.stderr
    with HistoryStore() as store:
        history = ChatHistory(store)
        (conversation,) = history.conversations()
        history.fill(conversation)
        assert isinstance(conversation, Conversation)
        assert conversation.system == "You answer in one word."
        assert [t.user for t in conversation.turns] == ["Name a colour.", "And another one?"]
        for turn in conversation.turns:
            answer = turn.answer
            assert answer is not None and answer.status == "done" and len(answer.steps) == 6
            assert answer.text == "".join(s.text for s in answer.steps)
            assert answer.model_name == "SmolLM2-135M-Instruct.Q4_1.gguf"


@pytest.mark.model
def test_no_save_leaves_the_history_alone(isolated_home):
    proc = chat(b"Hi\n", "--no-save")
    assert proc.returncode == 0, proc.stderr
    assert "bot> " in proc.stdout and "not saved" in proc.stderr
    assert "SmolLM2-135M-Instruct.Q4_1.gguf (" in proc.stderr   # the model named by its file, then what is inside
    with HistoryStore() as store:
        assert store.list_conversations() == []


def test_bad_chat_options_are_refused_before_the_model_loads(isolated_home):
    assert_clean_error(chat(b"Hi\n", "--temperature", "-1"), "temperature")
    with HistoryStore() as store:
        assert store.list_conversations() == []


@pytest.mark.model
def test_a_thinking_budget_closes_each_answers_block_in_the_terminal_chat(isolated_home, tmp_path, demo_model):
    from tests.helpers.thinking_model import make_thinking_model

    model = make_thinking_model(demo_model, tmp_path / "thinking.gguf")
    proc = subprocess.run([*CLI, "chat", "--model", str(model), "--n-ctx", "512", "--max-tokens", "24",
                           "--temperature", "0", "--reasoning-budget", "8", "--no-save"],
                          input=b"Explain step by step why the sky is blue.\nAnd why is the sunset red?\n",
                          capture_output=True, timeout=180)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 0, err
    assert err.count("closed by the budget (8)") == 2, err
    assert proc.stdout.decode().count("</think>") == 2
    bad = subprocess.run([*CHAT, "--reasoning-format", "none", "--reasoning-budget", "8"], input="",
                         capture_output=True, text=True, timeout=60)
    assert_clean_error(bad, "deepseek")


@pytest.mark.model
def test_help_and_bye_are_commands_not_questions(isolated_home):
    proc = chat(b"/help\nHi\n/bye\nnot asked\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("/bye or Ctrl+D quits") == 2   # at the start, and for /help
    assert proc.stdout.count("bot> ") == 1, proc.stdout   # /help was not sent to the model; /bye ended the chat
    with HistoryStore() as store:
        (conversation,) = store.list_conversations()
        assert [m.content for m in store.active_path(conversation.id) if m.role == "user"] == ["Hi"]
