"""The main window's docks, in the order the View menu lists them: key, title, panel, where each starts."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QWidget

RIGHT, BOTTOM = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
STARTS_RIGHT = ("distribution", "sampler", "steering")


def dock_specs(panels: Mapping[str, QWidget]) -> list[tuple[str, str, QWidget, Qt.DockWidgetArea]]:
    """`panels`: each dock's panel by key (the step panels as pages with their "nothing selected" state)."""
    titles = {
        "distribution": QCoreApplication.translate("MainWindow", "Next-token distribution"),
        "waterfall": QCoreApplication.translate("MainWindow", "Waterfall"),
        "sampler": QCoreApplication.translate("MainWindow", "Sampler controls"),
        "timeline": QCoreApplication.translate("MainWindow", "Timeline"),
        "memory": QCoreApplication.translate("MainWindow", "Memory"),
        "model_card": QCoreApplication.translate("MainWindow", "Model card"),
        "tokenizer": QCoreApplication.translate("MainWindow", "Tokenizer"),
        "layers": QCoreApplication.translate("MainWindow", "Layers"),
        "attention": QCoreApplication.translate("MainWindow", "Attention"),
        "diagnosis": QCoreApplication.translate("MainWindow", "Diagnosis"),
        "steering": QCoreApplication.translate("MainWindow", "Steering"),
    }
    return [(key, title, panels[key], RIGHT if key in STARTS_RIGHT else BOTTOM) for key, title in titles.items()]
