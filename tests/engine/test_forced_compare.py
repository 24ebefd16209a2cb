"""One answer read by two engines (engine/forced_compare.py): A's distributions saved in llama.cpp's quantized rows,
B's compared with them token by token."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.api import ChatMessage, LoadSettings
from logitscope.protocol.forced_compare import ForcedKl, summarize
from logitscope.protocol.kld import row_width

pytestmark = pytest.mark.model

ANSWER = " The capital of France is Paris. It is known for the Eiffel Tower, good food and long walks by the Seine."


def _tokens(engine) -> tuple[list[int], int]:  # noqa: ANN001 - engine.core.Engine
    prompt = engine.chat_tokens(engine.render_chat([ChatMessage("user", "What is the capital of France?")]))
    return prompt + engine.tokenize(ANSWER), len(prompt)


def _log_probs(engine, tokens: list[int], first: int) -> np.ndarray:  # noqa: ANN001
    """Every row's log-softmax in float64, straight from the model's logits (no quantization)."""
    out = np.zeros((len(tokens) - first, engine.runtime.n_vocab))
    wanted = np.zeros(len(tokens), dtype=bool)
    wanted[first - 1:-1] = True

    def on_rows(positions: np.ndarray, logits: np.ndarray) -> None:
        x = logits.astype(np.float64)
        x -= x.max(axis=1, keepdims=True)
        out[positions - (first - 1)] = x - np.log(np.exp(x).sum(axis=1, keepdims=True))

    engine._scorer().evaluate_steered(tokens, wanted, None, on_rows, lambda: False)
    return out


@pytest.fixture(scope="module")
def q8_engine(demo_model: Path, tmp_path_factory: pytest.TempPathFactory):
    from logitscope.engine.core import Engine
    from logitscope.host.quantize_job import quantize_model
    from logitscope.protocol.quantize import QuantizeRequest

    target = tmp_path_factory.mktemp("q8") / "demo-Q8_0.gguf"
    quantize_model(QuantizeRequest(str(demo_model), str(target), "Q8_0", allow_requantize=True))
    eng = Engine()
    eng.load(target, LoadSettings(n_ctx=2048))
    yield eng
    eng.unload()


def test_the_same_model_against_itself_differs_by_the_rows_rounding_only(engine, tmp_path):
    tokens, first = _tokens(engine)
    path = str(tmp_path / "a.npy")
    assert engine.save_distributions(tokens, first, path) == len(tokens) - first
    rows = np.load(path)
    assert rows.shape == (len(tokens) - first, row_width(engine.runtime.n_vocab)) and rows.dtype == np.uint16
    kl = engine.compare_distributions(tokens, first, path)
    assert isinstance(kl, ForcedKl) and kl.scored.all()
    # A's rows are log-probabilities in 16 bits over 16 nats (llama.cpp's format): a step of 2.4e-4 nats, so the
    # same logits give a KLD of rounding noise, ~1e-6 on average, not 0
    assert np.all(np.abs(kl.kld) < 1e-4) and abs(kl.kld.mean()) < 1e-5
    assert kl.same_top.all() and np.abs(kl.p_diff).max() < 1e-4
    assert (kl.top_ids[:, 0] == kl.base_top_ids[:, 0]).all()
    np.testing.assert_allclose(kl.top_logprobs[:, 0], kl.base_top_logprobs[:, 0], atol=1e-3)
    summary = summarize(kl)
    assert summary.first_divergence == -1 and summary.same_top == 1.0 and summary.n == len(tokens) - first


def test_a_q8_0_quantization_is_close_and_its_kld_is_the_direct_one(engine, q8_engine, tmp_path):
    tokens, first = _tokens(engine)
    path = str(tmp_path / "a.npy")
    engine.save_distributions(tokens, first, path)
    kl = q8_engine.compare_distributions(tokens, first, path)
    assert 0 < kl.kld.mean() < 0.05 and kl.same_top.mean() >= 0.85
    a, b = _log_probs(engine, tokens, first), _log_probs(q8_engine, tokens, first)
    direct = (np.exp(a) * (a - b)).sum(axis=1)
    np.testing.assert_allclose(kl.kld, direct, atol=1e-3)
    np.testing.assert_allclose(kl.nll, -b[np.arange(len(b)), tokens[first:]], atol=1e-4)
    np.testing.assert_array_equal(kl.same_top, a.argmax(axis=1) == b.argmax(axis=1))
    np.testing.assert_array_equal(kl.top_ids[:, 0], b.argmax(axis=1))


def test_rows_of_another_vocabulary_are_refused_with_one_clear_error(engine, tmp_path):
    tokens, first = _tokens(engine)
    path = tmp_path / "other.npy"
    np.save(path, np.zeros((len(tokens) - first, row_width(engine.runtime.n_vocab) + 2), dtype=np.uint16))
    with pytest.raises(InvalidSettingsError, match="another vocabulary"):
        engine.compare_distributions(tokens, first, str(path))
    with pytest.raises(InvalidSettingsError, match="at least one token before"):
        engine.save_distributions(tokens, 0, str(tmp_path / "x.npy"))


def test_both_calls_cross_the_engine_process(client, engine, tmp_path):
    tokens, first = _tokens(engine)
    path = str(tmp_path / "a.npy")
    assert client.save_distributions(tokens, first, path) == len(tokens) - first
    kl = client.compare_distributions(tokens, first, path)
    assert isinstance(kl, ForcedKl) and kl.same_top.all() and abs(kl.kld.mean()) < 1e-5


def test_threads_can_be_shared_on_a_live_engine(client):
    # the load chose no count: the threads were tuned (0), a count holds them, 0 gives them back to the tuner
    assert client.set_threads(1) == 0 and client.set_threads(0) == 1 and client.set_threads(0) == 0
