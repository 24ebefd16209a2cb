"""The diagnosis of a REAL remote-engine trace (llama-cpp-python's server with the demo model): what the
server reports is read, what it does not is skipped and said."""

from __future__ import annotations

import math

from logitscope.diagnosis import diagnose
from logitscope.host.remote import RemoteEngine
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.trace import StepRecord
from tests.helpers.real_server import GREEDY


def test_remote_greedy_loop_is_diagnosed(real_server):
    request = GenerateRequest(messages=[ChatMessage("user", "What is the capital of France?")], settings=GREEDY,
                              options=DecodeOptions(max_tokens=64))
    steps: list[StepRecord] = []
    with RemoteEngine(real_server.url, api_key=real_server.api_key) as client:
        result = client.generate(request, on_step=steps.append)
    d = diagnose(steps, result, None)   # no vocabulary: a remote step carries its candidates' bytes
    kinds = [f.kind for f in d.findings]
    assert kinds[0] == "loop" and "cut_off" not in kinds   # the loop runs to max tokens: it is the cause
    (start, end), = d.findings[0].spans
    assert end == len(steps) and end - start >= 24
    unknown = sum(not (math.isfinite(s.p_raw) and math.isfinite(s.entropy_raw)) for s in steps)
    assert unknown > 0   # this server reports no whole-vocabulary entropy: those checks skip the steps ...
    assert any(f"no raw probability or entropy for {unknown} of {len(steps)} tokens" in s for s in d.skipped)  # ... and say so
