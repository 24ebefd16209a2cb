"""The engine never waits for its caller: decoding goes on while nobody reads the socket."""

from __future__ import annotations

import pickle
import socket
import threading
from multiprocessing.connection import Connection

import pytest

from logitscope.host.server import EngineServer
from logitscope.protocol.api import DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import StepRecord, unpack_step

pytestmark = pytest.mark.model  # imports the engine process's module (it owns llama.cpp)

N_TOKENS = 400
_kept_open: list[Connection] = []  # closing the peer would make the server end this process (its caller is gone)


@pytest.fixture
def server_and_peer(demo_model):
    ours, theirs = socket.socketpair()
    server = EngineServer(Connection(ours.detach()))
    server.engine.load(demo_model, LoadSettings(n_ctx=1024, n_threads=1))
    peer = Connection(theirs.detach())
    yield server, peer
    server.engine.unload()
    _kept_open.append(peer)


def test_a_whole_answer_is_generated_while_the_caller_reads_nothing(server_and_peer):
    server, peer = server_and_peer
    request = GenerateRequest(prompt="1, 2, 3, 4, 5,", settings=PRESETS["Greedy"],
                              options=DecodeOptions(max_tokens=N_TOKENS))
    done = threading.Event()
    worker = threading.Thread(target=lambda: (server.do_generate(request), done.set()), daemon=True)
    worker.start()
    worker.join(60)
    assert done.is_set(), "the engine waited for a caller that did not read"
    steps: list[StepRecord] = []
    sent = 0
    while len(steps) < N_TOKENS and peer.poll(10):
        message = peer.recv()
        sent += len(pickle.dumps(message))
        kind, batch = message
        assert kind == "steps"
        steps.extend(unpack_step(data) for data in batch)
    assert [s.i for s in steps] == list(range(N_TOKENS))  # all of them, in order, once read
    assert sent > 2 * 212_992, "the answer must overflow the socket's buffers for this test to mean anything"
