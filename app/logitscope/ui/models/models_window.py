"""The Models page: the GGUF files on this computer (with a fit verdict each) and the Hugging Face Hub
(search, a repository's files, downloads with progress, cancel and resume)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from logitscope.gguf.memory import format_bytes
from logitscope.library.catalog import LocalModel, list_local_models, remove_model
from logitscope.library.discovery import default_roots
from logitscope.library.download import Progress, PullResult, pull_model
from logitscope.library.hub import HubRepo, RemoteModel, list_repo_ggufs, search_models
from logitscope.library.hub_token import clear_token, get_token, set_token
from logitscope.library.recommended import RecommendedModel, load_recommended
from logitscope.ui.common.ask_text import ask_text
from logitscope.ui.common.background import Background
from logitscope.ui.common.messages import translate_message, translate_sentence
from logitscope.ui.window.theme import is_dark

VERDICT_COLORS = {"fits": "#2e7d32", "tight": "#b26a00", "does not fit": "#c62828", "unknown": "#666666"}
# the same on a dark palette, where those read at ~3:1
VERDICT_COLORS_DARK = {"fits": "#66bb6a", "tight": "#ffa726", "does not fit": "#ef5350", "unknown": "#9e9e9e"}


def _table(headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    return table


def _cell(text: str, tip: str = "", color: str | None = None) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if tip:
        item.setToolTip(tip)
    if color:
        item.setForeground(QColor(color))
    return item


class ModelsWindow(QDialog):
    loadRequested = Signal(str)          # a model path to open
    _progress = Signal(object)           # download Progress, from the download thread

    def __init__(self, models_folders: tuple[str, ...] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Models"))
        self.resize(980, 620)
        self.models_folders = models_folders
        self.background = Background(self)
        self.local: list[LocalModel] = []
        self.repos: list[HubRepo] = []
        self.remote: list[RemoteModel] = []
        self.recommended: list[RecommendedModel] = load_recommended()
        self.cancel_download = threading.Event()
        self.downloading = False
        self.last_error = ""
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs)
        self.tabs.addTab(self._build_local(), self.tr("On this computer"))
        self.tabs.addTab(self._build_hub(), self.tr("Hugging Face"))
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self._progress.connect(self._on_progress)
        self.refresh_local()

    # -- local ------------------------------------------------------------------------------------------
    def _build_local(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.local_table = _table([self.tr("Model"), self.tr("Quantization"), self.tr("Size"), self.tr("Parameters"),
                                   self.tr("Context"), self.tr("Chat template"), self.tr("Fits this machine?"),
                                   self.tr("Where")])
        self.local_table.itemDoubleClicked.connect(lambda _item: self.load_selected())
        self.local_table.itemSelectionChanged.connect(self._local_selected)
        layout.addWidget(self.local_table, 1)
        buttons = QHBoxLayout()
        self.load_button = QPushButton(self.tr("Load"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.load_button.clicked.connect(self.load_selected)
        self.remove_button.clicked.connect(lambda: self.remove_selected())
        self.refresh_button.clicked.connect(self.refresh_local)
        for b in (self.load_button, self.remove_button, self.refresh_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        return page

    def refresh_local(self) -> None:
        self.status.setText(self.tr("Looking for models…"))
        roots = default_roots(self.models_folders)
        self.background.run(lambda: list_local_models(roots), self._show_local, self._failed)

    def verdict_color(self, verdict: str) -> str:
        colors = VERDICT_COLORS_DARK if is_dark(self.palette()) else VERDICT_COLORS
        return colors.get(verdict, colors["unknown"])

    def _show_local(self, models: list[LocalModel]) -> None:
        self.local = models
        table = self.local_table
        table.setRowCount(len(models))
        for row, m in enumerate(models):
            where = f"{m.source}: {m.path}" + "".join(f"\n{a.source}: {a.path}" for a in m.also_at)
            table.setItem(row, 0, _cell(m.name, m.path))
            if m.card is None:
                label = self.tr("damaged") if m.damaged else self.tr("not usable")
                error = translate_sentence(m.error or "")
                table.setItem(row, 1, _cell(label, error, self.verdict_color("does not fit")))
                # the reason in the tooltip and, for the selected row, below the table: in the cell it widened the
                # column until "Where" was off-screen
                table.setItem(row, 6, _cell(self.tr("cannot load"), error, self.verdict_color("does not fit")))
                for col in (2, 3, 4, 5):
                    table.setItem(row, col, _cell("–"))
            else:
                c = m.card
                table.setItem(row, 1, _cell(f"{c.file_type} ({c.bits_per_weight:.2f} bpw)"))
                table.setItem(row, 2, _cell(format_bytes(m.size_bytes)))
                table.setItem(row, 3, _cell(f"{c.n_params / 1e6:,.0f} M"))
                table.setItem(row, 4, _cell(f"{c.n_ctx_train:,}"))
                table.setItem(row, 5, _cell(self.tr("yes") if c.has_chat_template else self.tr("no")))
                fit = m.fit
                table.setItem(row, 6, _cell(self.verdict_label(fit.verdict) if fit else "?", translate_sentence(fit.summary) if fit else "",
                                            self.verdict_color(fit.verdict if fit else "unknown")))
            table.setItem(row, 7, _cell(self.source_label(m.source), where))
        usable = sum(m.card is not None for m in models)
        self.status.setText(self.tr("{0} model file(s) found, {1} usable.").format(len(models), usable))

    def _local_selected(self) -> None:
        """A model that cannot load says why below the table when selected."""
        rows = {index.row() for index in self.local_table.selectedIndexes()}
        if len(rows) == 1 and (row := rows.pop()) < len(self.local) and self.local[row].card is None:
            self.status.setText(translate_sentence(self.local[row].error or ""))

    def source_label(self, source: str) -> str:
        """Where the file was found (library/discovery.py's SOURCES), in words."""
        return {"app": self.tr("Logitscope"), "folder": self.tr("your folder"), "lmstudio": self.tr("LM Studio"),
                "huggingface": self.tr("Hugging Face cache"), "ollama": self.tr("Ollama")}.get(source, source)

    def verdict_label(self, verdict: str) -> str:
        return {"fits": self.tr("fits"), "tight": self.tr("tight"), "does not fit": self.tr("does not fit"),
                "unknown": self.tr("unknown")}.get(verdict, verdict)

    def _selected_local(self) -> LocalModel | None:
        row = self.local_table.currentRow()
        return self.local[row] if 0 <= row < len(self.local) else None

    def load_selected(self) -> None:
        model = self._selected_local()
        if model is None:
            return
        if model.card is None:
            self._failed(self.tr("{0} cannot be loaded: {1}").format(model.name, translate_message(model.error or "")))
            return
        self.loadRequested.emit(model.path)

    def remove_selected(self, confirm: bool = True) -> None:
        model = self._selected_local()
        if model is None:
            return
        if not model.removable:
            self._failed(self.tr("{0} belongs to {1}; Logitscope only removes files in its own models folder.")
                         .format(model.name, model.source))
            return
        if confirm and QMessageBox.question(self, self.tr("Remove model"),
                                            self.tr("Delete {0} ({1}) from disk?").format(
                                                model.name, format_bytes(model.size_bytes))) \
                != QMessageBox.StandardButton.Yes:
            return
        self.background.run(lambda: remove_model(model.path, default_roots(self.models_folders)),
                            lambda _paths: self.refresh_local(), self._failed)

    # -- hub --------------------------------------------------------------------------------------------
    def _build_hub(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        row = QHBoxLayout()
        self.query = QLineEdit()
        self.query.setPlaceholderText(self.tr("Search GGUF models, e.g. qwen2.5 instruct"))
        self.query.returnPressed.connect(lambda: self.search())
        self.sort = QComboBox()
        for key, label in (("downloads", self.tr("most downloaded")), ("likes", self.tr("most liked")),
                           ("recent", self.tr("most recent"))):
            self.sort.addItem(label, key)
        self.search_button = QPushButton(self.tr("Search"))
        self.search_button.clicked.connect(lambda: self.search())
        self.token_button = QPushButton(self.tr("Access token…"))
        self.token_button.clicked.connect(self._ask_token)
        row.addWidget(self.query, 1)
        row.addWidget(self.sort)
        row.addWidget(self.search_button)
        row.addWidget(self.token_button)
        layout.addLayout(row)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.repo_table = _table(self._search_headers())
        self.repo_table.itemSelectionChanged.connect(self._repo_selected)
        self.file_table = _table([self.tr("File"), self.tr("Quantization"), self.tr("Size"), self.tr("Fits this machine?")])
        split.addWidget(self.repo_table)
        split.addWidget(self.file_table)
        # the repositories' four columns whole (their size and quantization were behind a scroll bar); a
        # repository's files need less: a name, three short columns
        split.setSizes([600, 380])
        layout.addWidget(split, 1)
        actions = QHBoxLayout()
        self.download_button = QPushButton(self.tr("Download"))
        self.download_button.clicked.connect(lambda: self.download_selected())
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel_download.set)
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setFormat("%p%")
        self.progress_label = QLabel()
        actions.addWidget(self.download_button)
        actions.addWidget(self.cancel_button)
        actions.addWidget(self.progress, 1)
        actions.addWidget(self.progress_label)
        layout.addLayout(actions)
        self._show_recommended()
        return page

    def _show_recommended(self) -> None:
        """Before any search: a short list of small instruct models for a first try."""
        self.repos = [HubRepo(r.repo_id, 0, 0, None, r.gated) for r in self.recommended]
        table = self.repo_table
        table.setHorizontalHeaderLabels([self.tr("Recommended"), self.tr("Parameters"), self.tr("Size"),
                                         self.tr("Quantization")])
        table.setRowCount(len(self.recommended))
        for row, r in enumerate(self.recommended):
            table.setItem(row, 0, _cell(r.repo_id, r.why))
            table.setItem(row, 1, _cell(r.params, r.why))
            table.setItem(row, 2, _cell(f"~{format_bytes(r.approx_size_bytes)}"))
            table.setItem(row, 3, _cell(r.quant))

    def _search_headers(self) -> list[str]:
        return [self.tr("Repository"), self.tr("Downloads"), self.tr("Likes"), self.tr("Updated")]

    def search(self, query: str | None = None) -> None:
        query = (query if query is not None else self.query.text()).strip()
        if not query:
            self._show_recommended()
            return
        sort = self.sort.currentData()
        self.status.setText(self.tr("Searching the Hub for “{0}”…").format(query))
        self.background.run(lambda: search_models(query, sort), self._show_repos, self._failed)

    def _show_repos(self, repos: list[HubRepo]) -> None:
        self.repos = repos
        table = self.repo_table
        table.setHorizontalHeaderLabels(self._search_headers())
        table.setRowCount(len(repos))
        for row, r in enumerate(repos):
            table.setItem(row, 0, _cell(r.repo_id + (" 🔒" if r.gated else "")))
            table.setItem(row, 1, _cell(f"{r.downloads:,}"))
            table.setItem(row, 2, _cell(f"{r.likes:,}"))
            table.setItem(row, 3, _cell((r.last_modified or "")[:10]))
        self.status.setText(self.tr("{0} repositories.").format(len(repos)))

    def _repo_selected(self) -> None:
        row = self.repo_table.currentRow()
        if 0 <= row < len(self.repos):
            self.show_files(self.repos[row].repo_id)

    def show_files(self, repo_id: str, done: Callable[[], None] | None = None) -> None:
        self.status.setText(self.tr("Listing {0}…").format(repo_id))
        self._show_listing_busy()

        def shown(listing: object) -> None:
            self._show_files(listing)
            if done:
                done()

        self.background.run(lambda: list_repo_ggufs(repo_id), shown, self._failed)

    def _show_listing_busy(self) -> None:
        """Where the files will appear: say they are coming (a listing can take seconds)."""
        self.remote = []
        table = self.file_table
        table.clearContents()
        table.setRowCount(1)
        table.setItem(0, 0, _cell(self.tr("Listing files…")))
        table.setSpan(0, 0, 1, table.columnCount())
        table.setCursor(Qt.CursorShape.BusyCursor)
        self.download_button.setEnabled(False)

    def _listing_done(self) -> None:
        self.file_table.clearSpans()
        self.file_table.unsetCursor()
        self.download_button.setEnabled(not self.downloading)

    def _show_files(self, listing: object) -> None:
        self._listing_done()
        self.current_repo = listing.repo_id  # type: ignore[attr-defined]
        self.remote = list(listing.models)  # type: ignore[attr-defined]
        table = self.file_table
        table.setRowCount(len(self.remote))
        for row, m in enumerate(self.remote):
            name = m.name + (self.tr(" ({0} parts)").format(len(m.parts)) if len(m.parts) > 1 else "")
            table.setItem(row, 0, _cell(name, "\n".join(m.parts)))
            table.setItem(row, 1, _cell(m.quant))
            table.setItem(row, 2, _cell(format_bytes(m.size_bytes)))
            table.setItem(row, 3, _cell(self.verdict_label(m.fit.verdict), translate_sentence(m.fit.summary),
                                        self.verdict_color(m.fit.verdict)))
        self.status.setText(self.tr("{0}: {1} GGUF model(s).").format(listing.repo_id, len(self.remote)))  # type: ignore[attr-defined]

    def download_selected(self, row: int | None = None) -> None:
        row = self.file_table.currentRow() if row is None else row
        if self.downloading or not (0 <= row < len(self.remote)):
            return
        model = self.remote[row]
        repo = self.current_repo
        self.cancel_download.clear()
        self.downloading = True
        self.download_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.status.setText(self.tr("Downloading {0}…").format(model.name))
        self.background.run(lambda: pull_model(repo, model.name, progress=self._progress.emit,
                                               cancel=self.cancel_download),
                            self._downloaded, self._download_failed)

    def _on_progress(self, p: Progress) -> None:
        if p.total_bytes:
            self.progress.setValue(int(100 * p.done_bytes / p.total_bytes))
        eta = self.tr(", {0:.0f} s left").format(p.eta_s) if p.eta_s is not None else ""
        self.progress_label.setText(self.tr("{0} of {1}, {2}/s{3}").format(
            format_bytes(p.done_bytes), format_bytes(p.total_bytes or 0), format_bytes(p.speed_bps), eta))

    def _download_done(self) -> None:
        self.downloading = False
        self.download_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _downloaded(self, result: PullResult) -> None:
        self._download_done()
        self.progress.setValue(100)
        self.progress_label.setText(self.tr("{0} is ready ({1}, SHA-256 verified).").format(
            result.name, format_bytes(result.size_bytes)))
        self.last_download = result
        self.refresh_local()

    def _download_failed(self, message: str) -> None:
        self._download_done()
        self._failed(translate_sentence(message) + ("" if "cancel" not in message.lower()
                                                   else " " + self.tr("Download again to resume where it stopped.")))

    def _ask_token(self) -> None:
        current = get_token()
        text, ok = ask_text(self, self.tr("Hugging Face access token"),
                                        self.tr("For gated or private repositories (empty to remove):"),
                                        QLineEdit.EchoMode.Password, "")
        if not ok:
            return
        if text.strip():
            set_token(text.strip())
            self.status.setText(self.tr("Token saved."))
        elif current:
            clear_token()
            self.status.setText(self.tr("Token removed."))

    def _failed(self, message: str) -> None:
        message = translate_sentence(message)
        self.last_error = message
        if self.file_table.rowSpan(0, 0) > 1 or self.file_table.columnSpan(0, 0) > 1:  # the listing failed
            self._listing_done()
            self.file_table.setRowCount(0)
        self.status.setText(f"<span style='color:#c62828'>{message}</span>")

    def closeEvent(self, event) -> None:  # noqa: ANN001 - Qt signature
        self.cancel_download.set()
        super().closeEvent(event)
