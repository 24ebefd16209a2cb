"""A remote reasoning model: llama-server (--reasoning-format deepseek, its default) and vLLM stream the
thinking apart, as `reasoning_content` deltas. A local server that speaks that protocol: the thinking comes back
into the answer between the tags (stored, shown and split as a local model's), its steps are marked, and the
done line's `reasoning` says how many tokens it took and whether it ended."""

from __future__ import annotations

from logitscope.host.remote import RemoteEngine
from logitscope.protocol.api import ChatMessage, GenerateRequest
from logitscope.protocol.reasoning import BY_MODEL, UNCLOSED, split_thinking
from logitscope.protocol.trace import result_to_json, step_to_json
from tests.helpers.fake_server import FakeServer, chat_chunk, chat_logprob, chat_routes, data

CHAT = GenerateRequest(messages=[ChatMessage("user", "What is six times seven?")])
END = [data(chat_chunk(None, None, "stop")), "data: [DONE]\n\n"]


def thought(text: str, key: str = "reasoning_content") -> str:
    chunk = chat_chunk(None, [chat_logprob(text, -0.3, {text: -0.3})])
    chunk["choices"][0]["delta"] = {key: text}
    return data(chunk)


def answer(text: str) -> str:
    return data(chat_chunk(text, [chat_logprob(text, -0.1, {text: -0.1})]))


def _run(chunks: list[str]):
    with FakeServer(chat_routes(chunks)) as server, RemoteEngine(server.url) as engine:
        steps = []
        result = engine.generate(CHAT, on_step=steps.append)
    return steps, result


def test_the_servers_thinking_is_shown_apart_like_a_local_models() -> None:
    steps, result = _run([thought("Six"), thought(" sevens"), thought(" are 42.", key="reasoning"),
                          answer("42"), answer("."), *END])
    assert [s.thinking for s in steps] == [True, True, True, False, False]
    assert result.text == "".join(s.text for s in steps)
    split = split_thinking(result.text)
    assert split == split_thinking("<think>\nSix sevens are 42.\n</think>\n\n42.")
    assert split.thinking == "Six sevens are 42." and split.answer == "42." and split.closed
    assert result.reasoning == {"format": "server", "budget": -1, "opened_by_prompt": False, "n_thinking": 3,
                                "ended": BY_MODEL, "forced": None}
    assert step_to_json(steps[0], [])["thinking"] is True and result_to_json(result)["reasoning"]["n_thinking"] == 3
    assert steps[0].p_raw > 0   # the thinking's probabilities are kept as the answer's are


def test_thinking_that_never_ends_is_said_to_and_an_answer_without_any_is_unchanged() -> None:
    steps, result = _run([thought("Hmm"), thought("..."), *END])
    assert result.reasoning is not None and result.reasoning["ended"] == UNCLOSED
    assert not split_thinking(result.text).closed and split_thinking(result.text).thinking == "Hmm..."
    steps, result = _run([answer("42"), *END])
    assert result.reasoning is None and result.text == "42" and not steps[0].thinking


def test_a_thinking_budget_a_server_does_not_take_is_said_not_applied() -> None:
    from logitscope.protocol.api import DecodeOptions

    request = GenerateRequest(messages=CHAT.messages, options=DecodeOptions(reasoning_budget=16))
    with FakeServer(chat_routes([answer("42"), *END])) as server, RemoteEngine(server.url) as engine:
        result = engine.generate(request)
    assert result.text == "42"   # answered all the same
    assert any("thinking budget (16) was not applied" in str(n) for n in result.notices), result.notices
