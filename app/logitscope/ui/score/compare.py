"""Comparing two models in the Score dialog: the second model, picked with "Compare with…",
runs in an engine process of its own (host/score_compare.py, the code `logitscope score --compare` uses), reads
exactly the token ids the first model read, and must share its vocabulary. It loads and scores on a worker
thread of its own (the window's engine stays free for the chat), reports its progress, and its process is ended
when the dialog closes (or the window does). A KL divergence comparison ("KL divergence with…", kl_target.py)
runs both of its models in that same process, one after the other (host/kl_job.py)."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QMenu, QPushButton, QWidget

from logitscope.base.errors import LogitscopeError
from logitscope.base.paths import models_dir
from logitscope.host.client import CancelledError, EngineClient
from logitscope.host.kl_job import KlJob, run_kl_job
from logitscope.host.score_compare import check_same_vocabulary, load_for_scoring, scoring_settings
from logitscope.library.discovery import scan_folder
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.score import ScoreRequest
from logitscope.ui.score.kl_target import KL_KV_TYPES, KlTarget
from logitscope.ui.window import file_folders


class CompareEngine(QObject):
    """The second model's engine process. Signals are emitted on its worker thread and delivered on the GUI
    thread (queued)."""

    loading = Signal(float)     # load progress, 0..1
    scoring = Signal(float)     # scoring progress, 0..1
    done = Signal(object)       # ScoreResult
    failed = Signal(str)        # one line
    kl_progress = Signal(str, float)   # a KL comparison's phase (host/kl_job.PHASES) and its progress, 0..1
    kl_size = Signal(int)              # bytes its temporary file of the base's distributions takes
    kl_done = Signal(object)           # KlOutcome

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.client: EngineClient | None = None   # made and used on the worker only
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="score-compare")
        # the cancel tokens of the comparisons not finished yet: a cancel sets them all, so it stops every
        # remaining call of a job (load, vocabulary, score), also one sent before the job ran or between calls
        self._jobs: set[threading.Event] = set()
        self._jobs_lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        """The second engine's process id while it runs (tests, and to say so)."""
        client = self.client
        return client.pid if client is not None else None

    def _submit(self, job: Callable[[], Any]) -> None:
        def run() -> None:
            try:
                job()
            except LogitscopeError as exc:
                self.failed.emit(str(exc))
            except Exception as exc:  # a bug: said plainly, the details in the log
                traceback.print_exc()
                self.failed.emit(f"internal error: {type(exc).__name__}: {exc}")

        self._pool.submit(run)

    def _token(self) -> threading.Event:
        cancelled = threading.Event()
        with self._jobs_lock:
            self._jobs.add(cancelled)
        return cancelled

    def _client(self, cancelled: threading.Event) -> EngineClient:
        """This engine's client, on the worker; a job cancelled before it ran starts no process."""
        if cancelled.is_set():
            raise CancelledError("cancelled")
        if self.client is None:
            self.client = EngineClient()
        return self.client

    def score(self, path: str, settings: LoadSettings, request: ScoreRequest, vocab: list[bytes]) -> None:
        """Load `path` (unless it is loaded already), refuse another vocabulary than `vocab`, score `request`."""
        cancelled = self._token()

        def job() -> None:
            try:
                client = self._client(cancelled)
                with client.cancel_token(cancelled.is_set):
                    if client.last_load != (path, settings) or not client.alive:
                        load_for_scoring(client, Path(path), settings, vocab, on_progress=self.loading.emit)
                    else:  # the window may have loaded another first model since
                        check_same_vocabulary(client.vocab(), vocab, Path(path))
                    result = client.score(request, on_progress=self.scoring.emit)
                self.done.emit(result)
            finally:
                with self._jobs_lock:
                    self._jobs.discard(cancelled)

        self._submit(job)

    def kl(self, kl_job: KlJob) -> None:
        """The base model, then the other, in this engine's process (host/kl_job.py): kl_progress for both,
        kl_done with both results, or failed (a cancel too)."""
        cancelled = self._token()

        def job() -> None:
            try:
                client = self._client(cancelled)
                with client.cancel_token(cancelled.is_set):
                    outcome = run_kl_job(client, kl_job, self.kl_progress.emit, self.kl_size.emit)
                self.kl_done.emit(outcome)
            finally:
                with self._jobs_lock:
                    self._jobs.discard(cancelled)

        self._submit(job)

    def cancel(self) -> None:
        """Stop its comparisons, queued or running, at any point (any thread; this engine serves only the
        dialog)."""
        with self._jobs_lock:
            for cancelled in self._jobs:
                cancelled.set()

    def close(self) -> None:
        """End the second engine process (after stopping what it does); it starts again on the next comparison."""
        self.cancel()

        def job() -> None:
            client, self.client = self.client, None
            if client is not None:
                client.close()

        self._pool.submit(job)


class ComparePicker(QWidget):
    """[Compare with ▾] [KL divergence with ▾] what is compared [No comparison]. The menus list the models in the
    app's models folder (read when one opens: a folder listing, no file is opened) and "Other GGUF file…"; the KL
    one also the loaded model in another configuration (its KV cache quantized, flash attention toggled). One
    comparison at a time: `path` (the surprisal of a second model) or `kl` (a KlTarget)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path: str | None = None
        self.kl: KlTarget | None = None
        self.base_flash = False        # the loaded model's flash attention: the KL menu offers the other state
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.pick_button = QPushButton(self.tr("Compare with…"))
        self.pick_button.setToolTip(self.tr(
            "Score the same tokens with a second model (a GGUF file with the same vocabulary), in an engine "
            "process of its own, and colour each token by the difference in surprisal."))
        self.menu = QMenu(self)
        self.menu.aboutToShow.connect(self.fill_menu)
        self.pick_button.setMenu(self.menu)
        self.kl_button = QPushButton(self.tr("KL divergence with…"))
        self.kl_button.setToolTip(self.tr(
            "How far another model's (or this model's in another configuration) next-token distributions are from "
            "this model's over the whole vocabulary, as llama.cpp's llama-perplexity --kl-divergence measures it: "
            "in its chunks, both models one after the other in an engine process of their own."))
        self.kl_menu = QMenu(self)
        self.kl_menu.setToolTipsVisible(True)
        self.kl_menu.aboutToShow.connect(self.fill_kl_menu)
        self.kl_button.setMenu(self.kl_menu)
        self.label = QLabel()
        self.clear_button = QPushButton(self.tr("No comparison"))
        self.clear_button.clicked.connect(lambda: self.set_path(None))
        for widget in (self.pick_button, self.kl_button, self.label, self.clear_button):
            row.addWidget(widget)
        row.addStretch(1)
        self.set_path(None)

    @property
    def name(self) -> str:
        return Path(self.path).name if self.path else ""

    def _models(self, menu: QMenu, chosen: Callable[[str], None]) -> None:
        for found in scan_folder(models_dir(), "app"):
            if found.problem is None:
                menu.addAction(found.name, partial(chosen, str(found.path)))
        if menu.actions():
            menu.addSeparator()
        menu.addAction(self.tr("Other GGUF file…"), lambda: self.pick(chosen))

    def fill_menu(self) -> None:
        self.menu.clear()
        self._models(self.menu, self.set_path)

    def fill_kl_menu(self) -> None:
        self.kl_menu.clear()
        self._models(self.kl_menu, lambda path: self.set_kl(KlTarget(other=path)))
        self.kl_menu.addSeparator()
        for kv in KL_KV_TYPES:
            action = self.kl_menu.addAction(self.tr("This model, KV cache {0}").format(kv),
                                            partial(self.set_kl, KlTarget(kv_type=kv)))
            if not self.base_flash:   # llama.cpp refuses a quantized V cache without it
                action.setEnabled(False)
                action.setToolTip(self.tr("A quantized V cache needs flash attention: load the model with flash "
                                          "attention on to compare its KV cache types."))
        flash = not self.base_flash
        self.kl_menu.addAction(self.tr("This model, flash attention on") if flash else
                               self.tr("This model, flash attention off"),
                               partial(self.set_kl, KlTarget(flash_attn=flash)))

    def pick(self, chosen: Callable[[str], None] | None = None) -> bool:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Compare with a second model"),
                                              file_folders.start(file_folders.MODEL),
                                              self.tr("GGUF models (*.gguf);;All files (*)"))
        file_folders.chosen(file_folders.MODEL, path)
        if path:
            (chosen or self.set_path)(path)
        return bool(path)

    def set_path(self, path: str | None) -> None:
        """Compare the surprisal with a second model (None: no comparison at all)."""
        self.path, self.kl = path, None
        self._show()

    def set_kl(self, target: KlTarget | None) -> None:
        self.path, self.kl = None, target
        self._show()

    def _show(self) -> None:
        if self.kl is not None:
            self.label.setText(self.kl.label())
        else:
            self.label.setText(self.tr("B: {0}").format(self.name) if self.path else self.tr("one model"))
        self.clear_button.setEnabled(self.path is not None or self.kl is not None)
        self.changed.emit()


def settings_like(load: LoadSettings) -> LoadSettings:
    """The second engine loads like the first (threads, GPU layers, flash attention, the KV cache's types: the
    scoring context takes them from the loaded model's settings): compare like with like."""
    return replace(scoring_settings(load.n_gpu_layers, load.n_threads, load.flash_attn),
                   type_k=load.type_k, type_v=load.type_v)
