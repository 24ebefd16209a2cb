"""A REAL OpenAI-compatible server for the remote-engine tests: llama-cpp-python's own server
(`python -m llama_cpp.server`, its [server] extra) with the real demo model, on 127.0.0.1, with an API key
(so 401 is the real server's answer), always stopped: terminate, then kill. Every wait is bounded."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx2

from logitscope.protocol.sampler_settings import SamplerSettings

API_KEY = "logitscope-test-key"
READY_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 5.0


@dataclass
class RealServer:
    url: str
    proc: subprocess.Popen[bytes]
    log: Path
    api_key: str | None

    def log_tail(self, n: int = 20) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def llama_cpp_server(model: Path, log: Path, api_key: str | None = API_KEY) -> Iterator[RealServer]:
    port = free_port()
    # `python -m llama_cpp.server`, loading the model as the engine does (see apply_amx_workaround)
    launch = ("from logitscope.engine.handles import apply_amx_workaround; apply_amx_workaround(); "
              "import runpy; runpy.run_module('llama_cpp.server', run_name='__main__')")
    cmd = [sys.executable, "-c", launch, "--model", str(model), "--host", "127.0.0.1",
           "--port", str(port), "--n_ctx", "1024"]
    if api_key:
        cmd += ["--api_key", api_key]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = RealServer(f"http://127.0.0.1:{port}", proc, log, api_key)
    try:
        _wait_ready(server)
        yield server
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(STOP_TIMEOUT_S)


def _wait_ready(server: RealServer) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited ({server.proc.returncode}):\n{server.log_tail()}")
        try:
            if httpx2.get(f"{server.url}/v1/models", timeout=1.0).status_code in (200, 401):
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"llama_cpp.server did not answer within {READY_TIMEOUT_S:g} s:\n{server.log_tail()}")


GREEDY = SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0, repeat_penalty=1.0)
