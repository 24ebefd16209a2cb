"""A KL divergence comparison, caller's side, as `llama-perplexity --kl-divergence-base` then
`--kl-divergence` run it (protocol/kld.py): the base model scores the text in llama.cpp's chunks and writes its
distributions to a temporary file, then the other model (another GGUF file with the same vocabulary, or the
base model in another configuration) scores the file's tokens against them. The window's Score dialog runs it
in an engine process of its own (never the chat's), one model after the other, so only one is in memory at a
time (each load starts a fresh process: the first model's memory is returned); the temporary file is deleted at the end, whatever happened (a cancel, a crash, an error).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from logitscope.base.errors import InvalidSettingsError
from logitscope.gguf.memory import format_bytes
from logitscope.host.client import EngineClient
from logitscope.host.score_compare import load_for_scoring
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.kld import kld_file_bytes
from logitscope.protocol.score import SCORE_TOP_N, ScoreRequest, ScoreResult

# the four steps, in order, as on_progress names them
LOAD_BASE, SCORE_BASE, LOAD_OTHER, SCORE_OTHER = "load_base", "score_base", "load_other", "score_other"
PHASES = (LOAD_BASE, SCORE_BASE, LOAD_OTHER, SCORE_OTHER)
TEMP_PREFIX = "logitscope-kld-"


def other_configuration(settings: LoadSettings, kv_type: str | None = None,
                        flash_attn: bool | None = None) -> LoadSettings:
    """The base model's settings with its K and V caches of `kv_type`, or flash attention on or off (the
    CLI's --compare-kv-type / --compare-flash-attn); refused as LoadSettings refuses it (a quantized V cache
    needs flash attention)."""
    other = settings
    if kv_type is not None:
        other = replace(other, type_k=kv_type, type_v=kv_type)
    if flash_attn is not None:
        other = replace(other, flash_attn=flash_attn)
    other.validate()
    return other


@dataclass(frozen=True)
class KlJob:
    text: str
    n_ctx: int
    base: str                     # the base model's GGUF file (the original)
    base_settings: LoadSettings
    other: str                    # the compared one's (the base's own for another configuration)
    other_settings: LoadSettings
    top: int = SCORE_TOP_N        # alternatives kept per token (the compared model's top list)

    def base_request(self, base_file: str) -> ScoreRequest:
        return ScoreRequest(text=self.text, n_ctx=self.n_ctx, mode="chunks", top=self.top,
                            flash_attn=self.base_settings.flash_attn, save_logits=base_file)

    def other_request(self, base_file: str) -> ScoreRequest:
        return ScoreRequest(mode="chunks", top=self.top, flash_attn=self.other_settings.flash_attn, kl_base=base_file)

    def validate(self) -> None:
        """What can be refused before an engine process starts: the text, the context, the settings."""
        self.base_request("base.kld").validate()
        self.base_settings.validate()
        self.other_settings.validate()


@dataclass
class KlOutcome:
    base: ScoreResult     # the base model's scores of the whole text
    other: ScoreResult    # the compared model's of the chunks' tokens; .kl holds the per-token numbers
    vocab: list[bytes]    # both models' (the same)
    base_file_bytes: int  # what the temporary file of the base's distributions took


def check_temp_space(folder: Path, need: int) -> None:
    free = shutil.disk_usage(folder).free
    if need > free:
        raise InvalidSettingsError("the base model's distributions of this text need {need} of temporary disk "
                                   "and {folder} has {free} free: score a shorter text", need=format_bytes(need),
                                   folder=str(folder), free=format_bytes(free))


def run_kl_job(client: EngineClient, job: KlJob, on_progress: Callable[[str, float], None] | None = None,
               on_size: Callable[[int], None] | None = None, folder: str | None = None) -> KlOutcome:
    """Both runs in `client`'s engine process (loading each model in turn). `on_progress(phase, fraction)` for
    each of PHASES; `on_size(bytes)` once the base file's size is known, before the text is evaluated. The
    temporary file lives in a folder of its own under `folder` (the system's temporary folder by default)."""
    job.validate()

    def report(phase: str) -> Callable[[float], None]:
        return lambda fraction: on_progress(phase, fraction) if on_progress is not None else None

    temp = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX, dir=folder))
    base_file = str(temp / "base.kld")
    try:
        if client.alive and client.last_load == (job.base, job.base_settings):
            vocab = client.vocab()   # loaded already (the last comparison's base): no second load
            report(LOAD_BASE)(1.0)
        else:
            _info, vocab = load_for_scoring(client, Path(job.base), job.base_settings, on_progress=report(LOAD_BASE))
        n_tokens = len(client.tokenize(job.text, True, False))   # as the engine tokenizes it for chunks
        need = kld_file_bytes(job.n_ctx, len(vocab), n_tokens // job.n_ctx)
        check_temp_space(temp.parent, need)
        if on_size is not None:
            on_size(need)
        base = client.score(job.base_request(base_file), on_progress=report(SCORE_BASE))
        size = Path(base_file).stat().st_size
        load_for_scoring(client, Path(job.other), job.other_settings, vocab, on_progress=report(LOAD_OTHER))
        other = client.score(job.other_request(base_file), on_progress=report(SCORE_OTHER))
        return KlOutcome(base, other, vocab, size)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
