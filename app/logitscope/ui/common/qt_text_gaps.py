"""Qt's own strings that its Chinese catalogue (qtbase_zh_CN, shipped with PySide6) misses for this Qt: it has the
file dialog's older "Look in:" and "Files of type:", while Qt 6 asks for "&Look in:" and "Files of &type:", so a
Chinese file dialog said both in English. A translator that answers those and nothing else."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTranslator

ZH_CN = {
    ("QFileDialog", "&Look in:"): "查找范围(&L)：",
    ("QFileDialog", "Files of &type:"): "文件类型(&T)：",
}


class QtTextGaps(QTranslator):
    def __init__(self, texts: dict[tuple[str, str], str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.texts = texts

    def translate(self, context: str, source: str, disambiguation: str | None = None,
                  n: int = -1) -> str | None:
        return self.texts.get((context, source))   # None (a null string, not ""): not ours, Qt asks the next one

    def isEmpty(self) -> bool:  # noqa: N802 - Qt's name
        return False
