"""`logitscope generate --beams N [--length-penalty A]`, run as a user runs it, on the real demo model."""

from __future__ import annotations

import json

import pytest

from logitscope.base.errors import UnsupportedByServerError
from logitscope.host.remote import RemoteEngine
from logitscope.protocol.api import ChatMessage, GenerateRequest
from logitscope.protocol.beams import BeamRequest
from tests.helpers.cli import assert_clean_error, run


@pytest.mark.parametrize(("args", "phrase"), [
    (["--beams", "0"], "number of beams must be between 1 and 32"),
    (["--beams", "1000"], "number of beams must be between 1 and 32"),
    (["--beams", "-2"], "number of beams"),
    (["--beams", "4", "--length-penalty", "1e9"], "length penalty must be between 0 and 5"),
    (["--beams", "4", "--length-penalty", "-1"], "length penalty"),
    (["--beams", "4", "--length-penalty", "nan"], "length penalty"),
    (["--beams", "many"], "invalid int value"),
    (["--length-penalty", "1"], "--length-penalty needs --beams"),
    (["--beams", "2", "--stop", "x"], "do not apply to --beams"),
    (["--beams", "2", "--draft", "lookup"], "--draft does not apply to --beams"),
    # each was accepted, and the answer was the same without it (a grammar's answer broke the grammar)
    (["--beams", "2", "--grammar", 'root ::= "a"'], "--grammar, --json-schema and --logit-bias do not apply"),
    (["--beams", "2", "--json-schema", '{"type": "integer"}'], "do not apply to --beams"),
    (["--beams", "2", "--logit-bias", "5-inf"], "do not apply to --beams"),
    (["--beams", "2", "--explain"], "--explain does not apply to --beams"),
    (["--beams", "2", "--reasoning-budget", "0"], "--reasoning-budget does not apply to --beams"),
    (["--beams", "2", "--engine", "http://127.0.0.1:9"], "needs a local model"),
])
def test_bad_beam_options_one_clear_error(args: list[str], phrase: str) -> None:
    assert_clean_error(run("generate", "--chat", "hi", *args, timeout=60), phrase)


def test_a_remote_engine_says_it_cannot() -> None:
    remote = RemoteEngine("127.0.0.1:9")
    try:
        with pytest.raises(UnsupportedByServerError, match="not available on a remote engine"):
            remote.beam_search(BeamRequest(GenerateRequest(messages=[ChatMessage("user", "hi")])))
    finally:
        remote.close()


@pytest.mark.model
@pytest.mark.timeout(900)  # three engine processes on a machine that may be shared; seconds when idle
def test_one_beam_equals_greedy_and_the_tree_is_consistent(demo_model) -> None:
    question = ("--chat", "Name three colours.", "--max-tokens", "16")
    greedy = run("generate", *question, "--temperature", "0", "--json", timeout=400)
    assert greedy.returncode == 0, greedy.stderr
    done = json.loads(greedy.stdout.splitlines()[-1])
    one = run("generate", *question, "--beams", "1", timeout=400)  # the text mode: the winner on stdout
    assert one.returncode == 0, one.stderr
    assert one.stdout == done["text"] + "\n"
    assert "score" in one.stderr and "KV cells" in one.stderr and "Traceback" not in one.stderr

    four = run("generate", *question, "--beams", "4", "--length-penalty", "0.5", "--json", timeout=400)
    assert four.returncode == 0, four.stderr
    data = json.loads(four.stdout)
    assert data["n_beams"] == 4 and data["length_penalty"] == 0.5
    scores = [h["score"] for h in data["hypotheses"]]
    assert data["winner"] == data["hypotheses"][0] and data["winner"]["score"] == max(scores)
    nodes = data["nodes"]
    for node in nodes:
        if node["status"] in ("kept", "finished") and node["parent"] >= 0:
            parent = nodes[node["parent"]]
            assert parent["status"] == "kept" and parent["step"] == node["step"] - 1
    per_step = [sum(1 for n in nodes if n["step"] == s and n["status"] == "kept") for s in range(len(data["steps"]))]
    assert max(per_step) <= 4
    assert data["steps"][-1]["n_cells"] < data["steps"][-1]["n_cells_unshared"]  # the prompt is held once
    assert all(m["n_shared"] + m["n_own"] == m["n_cells"] for m in data["memory"])


@pytest.mark.model
@pytest.mark.timeout(600)
def test_a_terminal_sees_a_progress_line_per_step(demo_model) -> None:
    """stderr on a terminal (a pseudo-terminal here): one line per search step, rewritten in place and erased at
    the end; stdout (a pipe) holds the winner alone, as without a terminal. A pipe on stderr gets no progress."""
    import os
    import pty
    import subprocess
    import time

    from tests.helpers.cli import CLI

    question = ("generate", "--chat", "Name three colours.", "--max-tokens", "8", "--beams", "3")
    leader, follower = pty.openpty()
    proc = subprocess.Popen([*CLI, *question], stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    seen = bytearray()
    deadline = time.monotonic() + 500
    while time.monotonic() < deadline:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the program ended
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    stdout = proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 0, seen.decode(errors="replace")
    terminal = seen.decode(errors="replace")
    steps = [part for part in terminal.split("\r") if part.startswith("step ")]
    assert len(steps) > 1 and steps[0].startswith("step 1/8: ") and "beams kept" in steps[0], terminal
    assert "\x1b[K" in terminal and "score" in terminal  # erased, then the summary
    piped = run(*question, timeout=400)
    assert piped.returncode == 0 and "\rstep" not in piped.stderr and "step 1/8" not in piped.stderr
    assert stdout == piped.stdout and stdout.strip()  # the winner: the same with or without a terminal


@pytest.mark.model
@pytest.mark.timeout(600)
def test_a_prompt_that_leaves_less_room_than_max_tokens_says_so(demo_model) -> None:
    """The search shortened max tokens to what the context still holds and said nothing: 11 tokens ending by
    'length' when 30 were asked looked like a bug. Now one note says why."""
    prompt = " ".join(["word"] * 245)
    proc = run("generate", "--prompt", prompt, "--n-ctx", "256", "--beams", "2", "--max-tokens", "30", "--json",
               timeout=400)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout)
    n_prompt = len(result["prompt_tokens"])
    room = 256 - n_prompt
    assert 0 < room < 30 and max(h["length"] for h in result["hypotheses"]) <= room
    assert result["notices"] == [f"the context holds 256 tokens: after the prompt's {n_prompt} there is room for "
                                 f"{room} tokens of answer, not the 30 asked"]
