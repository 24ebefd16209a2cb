"""host/kl_job.py on the real engine, as the Score dialog runs it: the demo model against itself with a q8_0 KV
cache, both in one engine process one after the other, gives llama-perplexity --kl-divergence's statistics block
line for line (the recorded figures of tests/data/kld, the command that regenerates them beside them); a cancel
between the runs leaves no temporary file."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from logitscope.base.errors import LoadCancelledError
from logitscope.host.client import CancelledError, EngineClient
from logitscope.host.kl_job import LOAD_OTHER, PHASES, TEMP_PREFIX, KlJob, other_configuration, run_kl_job
from logitscope.host.score_compare import scoring_settings
from logitscope.protocol.kld import KldStats
from tests.helpers.data import KLD_DATA, SCORE_TEXT_FILE
from tests.helpers.kernels import runs_the_recorded_kernels

REFERENCE = json.loads((KLD_DATA / "llama_perplexity_kld.json").read_text(encoding="utf-8"))
pytestmark = pytest.mark.model


def _job(demo_model: Path, chars: int | None = None) -> KlJob:
    base = scoring_settings(n_threads=2, flash_attn=True)
    return KlJob(SCORE_TEXT_FILE.read_text(encoding="utf-8")[:chars], REFERENCE["n_ctx"], str(demo_model), base,
                 str(demo_model), other_configuration(base, kv_type="q8_0"))


def test_the_dialogs_comparison_prints_llama_perplexitys_figures(demo_model: Path, tmp_path: Path) -> None:
    phases: list[str] = []
    sizes: list[int] = []
    with EngineClient() as client:
        outcome = run_kl_job(client, _job(demo_model), lambda phase, _f: phases.append(phase), sizes.append,
                             folder=str(tmp_path))
    assert [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p] == list(PHASES)
    assert sizes == [REFERENCE["base_file_bytes"]] == [outcome.base_file_bytes]
    kl = outcome.other.kl
    assert kl is not None
    block, recorded = KldStats.of(kl).statistics_block(), REFERENCE["pairs"]["kv_q8_0"]["statistics"]
    if runs_the_recorded_kernels():
        assert block == recorded
    else:  # other kernels give other figures (tests/helpers/kernels.py): the same lines
        assert [line.split(":")[0] for line in block] == [line.split(":")[0] for line in recorded]
    assert len(outcome.vocab) == 49152 and outcome.base.mode == "chunks"
    assert not list(tmp_path.iterdir())   # the temporary file of the base's distributions is gone


def test_a_cancel_after_the_base_run_leaves_no_temporary_file(demo_model: Path, tmp_path: Path) -> None:
    cancelled = threading.Event()

    def progress(phase: str, _fraction: float) -> None:
        if phase == LOAD_OTHER:
            cancelled.set()

    with EngineClient() as client, client.cancel_token(cancelled.is_set), pytest.raises((LoadCancelledError, CancelledError)):
        run_kl_job(client, _job(demo_model, chars=3000), progress, folder=str(tmp_path))   # a few chunks do
    assert not list(tmp_path.glob(TEMP_PREFIX + "*"))
