"""host/kl_job.py without a model: the two runs in order (the base writes its distributions, the other reads
them), the base's load skipped when it is loaded already, the temporary file deleted whatever happens (done,
an error, a refusal for want of disk), and the other configuration refused as the CLI refuses it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.host.kl_job import PHASES, KlJob, check_temp_space, other_configuration, run_kl_job
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.kld import kld_file_bytes
from logitscope.protocol.score import ScoreRequest
from tests.helpers.kl_results import VOCAB, kl_outcome

SETTINGS = LoadSettings(n_ctx=256)


class FakeClient:
    """EngineClient's calls that run_kl_job makes, recorded; score() writes or reads the base file."""

    def __init__(self, fail_other: BaseException | None = None) -> None:
        self.calls: list[tuple] = []
        self.last_load: tuple[str, LoadSettings] | None = None
        self.alive = False
        self.fail_other = fail_other
        self.seen_files: list[Path] = []

    def load(self, path: str, settings: LoadSettings, on_progress=None):  # noqa: ANN001
        self.calls.append(("load", path, settings))
        self.last_load, self.alive = (path, settings), True
        on_progress(1.0)

    def vocab(self) -> list[bytes]:
        return list(VOCAB)

    def tokenize(self, text: str, add_special: bool, parse_special: bool) -> list[int]:
        return [1] * 52

    def score(self, request: ScoreRequest, on_progress=None):  # noqa: ANN001
        self.calls.append(("score", request))
        outcome = kl_outcome()
        if request.save_logits is not None:
            Path(request.save_logits).write_bytes(b"x" * 1000)
            self.seen_files.append(Path(request.save_logits))
            on_progress(1.0)
            return outcome.base
        assert request.kl_base is not None and Path(request.kl_base).is_file()
        if self.fail_other is not None:
            raise self.fail_other
        on_progress(1.0)
        return outcome.other


def _job(**changes) -> KlJob:  # noqa: ANN003
    fields = dict(text="some text " * 20, n_ctx=16, base="/m/base.gguf", base_settings=SETTINGS,
                  other="/m/q8.gguf", other_settings=SETTINGS)
    return KlJob(**(fields | changes))


def test_the_base_then_the_other_and_the_temporary_file_goes(tmp_path: Path) -> None:
    client = FakeClient()
    phases: list[str] = []
    sizes: list[int] = []
    outcome = run_kl_job(client, _job(), lambda phase, f: phases.append(phase), sizes.append, folder=str(tmp_path))
    assert [c[0] for c in client.calls] == ["load", "score", "load", "score"]
    assert client.calls[0][1] == "/m/base.gguf" and client.calls[2][1] == "/m/q8.gguf"
    base_request, other_request = client.calls[1][1], client.calls[3][1]
    assert base_request.mode == other_request.mode == "chunks" and base_request.n_ctx == 16
    assert base_request.save_logits == other_request.kl_base and other_request.text is None
    assert list(dict.fromkeys(phases)) == list(PHASES)
    assert sizes == [kld_file_bytes(16, len(VOCAB), 52 // 16)]
    assert outcome.base_file_bytes == 1000 and outcome.other.kl is not None and outcome.vocab == VOCAB
    assert client.seen_files and not client.seen_files[0].exists() and not list(tmp_path.iterdir())


def test_a_loaded_base_is_not_loaded_again(tmp_path: Path) -> None:
    client = FakeClient()
    client.last_load, client.alive = ("/m/base.gguf", SETTINGS), True
    run_kl_job(client, _job(), folder=str(tmp_path))
    assert [c[0] for c in client.calls] == ["score", "load", "score"]


def test_an_error_on_the_way_leaves_no_file(tmp_path: Path) -> None:
    client = FakeClient(fail_other=InvalidSettingsError("boom"))
    with pytest.raises(InvalidSettingsError, match="boom"):
        run_kl_job(client, _job(), folder=str(tmp_path))
    assert client.seen_files and not list(tmp_path.iterdir())


def test_a_full_disk_is_refused_before_the_text_is_evaluated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: shutil._ntuple_diskusage(10, 10, 10))  # type: ignore[attr-defined]
    client = FakeClient()
    with pytest.raises(InvalidSettingsError, match="need .* of temporary disk and .* has 10 B free: score a shorter text"):
        run_kl_job(client, _job(), folder=str(tmp_path))
    assert [c[0] for c in client.calls] == ["load"] and not list(tmp_path.iterdir())
    with pytest.raises(InvalidSettingsError, match=f"and {tmp_path} has"):   # the folder people know, not ours
        run_kl_job(FakeClient(), _job(), folder=str(tmp_path))
    check_temp_space(tmp_path, 5)   # what fits passes


def test_the_other_configuration_is_the_clis() -> None:
    flash = LoadSettings(flash_attn=True)
    assert other_configuration(flash, kv_type="q8_0") == LoadSettings(flash_attn=True, type_k="q8_0", type_v="q8_0")
    assert other_configuration(flash, flash_attn=False) == LoadSettings(flash_attn=False)
    with pytest.raises(InvalidSettingsError, match="a quantized V cache needs flash attention on"):
        other_configuration(LoadSettings(), kv_type="q4_0")
    with pytest.raises(InvalidSettingsError, match="the text to score is empty"):
        _job(text="  ").validate()
