"""Quantizing a model file, caller's side, shared by `logitscope quantize` and the window's Model ▸ Quantize…:
llama.cpp quantizes in an engine process of its own (engine/quantize.py), after a dry run that says how much
disk the file needs, checked against the target folder's free space first. llama_model_quantize cannot be
stopped mid-way, so a cancel ends that process and deletes the half-written file: nothing is left."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable
from pathlib import Path

from logitscope.base.errors import InvalidSettingsError
from logitscope.gguf.memory import format_bytes
from logitscope.host.client import CancelledError, EngineClient
from logitscope.protocol.quantize import QuantizeRequest, QuantizeResult

POLL_S = 0.05


def check_disk(request: QuantizeRequest, need: int) -> None:
    folder = Path(request.target).parent
    replaced = Path(request.target).stat().st_size if request.overwrite and Path(request.target).is_file() else 0
    free = shutil.disk_usage(folder).free
    if need > free + replaced:
        raise InvalidSettingsError("the quantized model needs about {need} on disk and {folder} has {free} free",
                                   need=format_bytes(need), folder=str(folder), free=format_bytes(free))


def quantize_model(request: QuantizeRequest, on_progress: Callable[[float], None] | None = None,
                   should_cancel: Callable[[], bool] = lambda: False,
                   on_estimate: Callable[[int], None] | None = None) -> QuantizeResult:
    """Quantize as llama-quantize would; `on_estimate(bytes)` once the size is known, progress as tensors done.
    Raises CancelledError (nothing left behind) once `should_cancel()` is true."""
    request.validate()
    existed = Path(request.target).exists()
    with EngineClient() as client:
        need = client.quantize_estimate(request)
        check_disk(request, need)
        if on_estimate is not None:
            on_estimate(need)
        if should_cancel():
            raise CancelledError("cancelled")
        outcome: list[QuantizeResult | BaseException] = []

        def run() -> None:
            try:
                outcome.append(client.quantize(request, on_progress))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                outcome.append(exc)

        worker = threading.Thread(target=run, name="quantize", daemon=True)
        worker.start()
        cancelled = False
        while worker.is_alive():
            worker.join(POLL_S)
            if not cancelled and worker.is_alive() and should_cancel():
                cancelled = True
                client.kill()   # llama.cpp cannot be asked to stop: its process ends
        worker.join()
    if cancelled and not (outcome and isinstance(outcome[0], QuantizeResult)):
        request.part.unlink(missing_ok=True)
        if not existed:
            Path(request.target).unlink(missing_ok=True)   # renamed in the instant before the end
        raise CancelledError("cancelled")
    (result,) = outcome
    if isinstance(result, BaseException):
        request.part.unlink(missing_ok=True)   # an engine that crashed mid-way left it
        raise result
    return result
