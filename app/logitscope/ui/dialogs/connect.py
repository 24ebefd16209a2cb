"""Connect to a remote engine: llama-server, vLLM, LM Studio, Ollama or any OpenAI-compatible server, with
how long to wait for each token before an answer is given up (Stop ends the wait at any moment)."""

from __future__ import annotations

import html

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import LogitscopeError
from logitscope.host.remote import DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S, RemoteEngine
from logitscope.ui.common.background import Background
from logitscope.ui.common.messages import translate_sentence
from logitscope.ui.common.spin_boxes import SpinBox


class ConnectDialog(QDialog):
    def __init__(self, url: str = "http://127.0.0.1:8080", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Connect to a server"))
        self.background = Background(self, workers=1)
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr("Chat with and inspect a model served by llama-server, vLLM, LM Studio, Ollama or "
                               "any OpenAI-compatible server. The server decides what can be shown: usually the "
                               "top alternatives of each token, but no sampler stages and no KV cache figures."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.url = QLineEdit(url)
        form.addRow(self.tr("Server URL"), self.url)
        self.api_key = QLineEdit()
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText(self.tr("only if the server asks for one"))
        form.addRow(self.tr("API key"), self.api_key)
        model_row = QHBoxLayout()
        self.model = QComboBox()
        self.model.setEditable(True)
        self.list_button = QPushButton(self.tr("List models"))
        self.list_button.clicked.connect(self.list_models)
        model_row.addWidget(self.model, 1)
        model_row.addWidget(self.list_button)
        form.addRow(self.tr("Model"), model_row)
        self.timeout = SpinBox()
        self.timeout.setRange(1, int(MAX_TIMEOUT_S))
        self.timeout.setValue(int(DEFAULT_TIMEOUT_S))
        self.timeout.setSuffix(self.tr(" s"))
        self.timeout.setToolTip(self.tr("An answer is given up when the server sends no token for this long "
                                        "(a long prompt takes a while); Stop ends the wait at any moment."))
        form.addRow(self.tr("Wait for each token"), self.timeout)
        self.insecure = QCheckBox(self.tr("Do not verify the TLS certificate (only for servers you trust)"))
        form.addRow("", self.insecure)
        self.post_sampling = QCheckBox(self.tr("Ask llama-server for post-sampling probabilities instead of raw ones"))
        form.addRow("", self.post_sampling)
        layout.addLayout(form)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Connect"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def engine(self) -> RemoteEngine:
        """The engine for what the form says; InvalidSettingsError for an address that cannot be one."""
        return RemoteEngine(self.url.text().strip(), api_key=self.api_key.text().strip() or None,
                            model=self.model.currentText().strip() or None, verify_tls=not self.insecure.isChecked(),
                            post_sampling_probs=self.post_sampling.isChecked(), timeout=self.timeout.value())

    def accept(self) -> None:
        try:  # a bad address is reported here, and the dialog stays open to correct it
            self.engine().close()
        except LogitscopeError as exc:
            self.show_failure(str(exc))
            return
        super().accept()

    def show_failure(self, message: str) -> None:
        self.status.setText(f"<span style='color:#c62828'>{html.escape(translate_sentence(message))}</span>")

    def list_models(self) -> None:
        try:
            engine = self.engine()
        except LogitscopeError as exc:
            self.show_failure(str(exc))
            return
        self.status.setText(self.tr("Asking the server…"))

        def shown(models: list[str]) -> None:
            self.model.clear()
            self.model.addItems(models)
            self.status.setText(self.tr("{0} model(s) on this server.").format(len(models)))

        def ask() -> list[str]:
            with engine:
                return engine.list_models()

        self.background.run(ask, shown, self.show_failure)
