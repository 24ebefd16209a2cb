"""The sampler chain as a list the user reorders: drag and drop, or Alt+Up / Alt+Down on the current
stage; a checked stage is applied, an unchecked one is left out of `samplers`."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDropEvent, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget

from logitscope.protocol.sampler_settings import CHAIN_STAGES, DEFAULT_SAMPLERS

NAME = Qt.ItemDataRole.UserRole   # an item's stage name (llama-server's)


class ChainList(QListWidget):
    changed = Signal()

    def __init__(self, labels: dict[str, str], tips: dict[str, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.labels, self.tips = labels, tips
        self.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformItemSizes(True)
        self._quiet = False
        self._unavailable: dict[str, str] = {}   # stage -> why this engine cannot apply it
        self.set_samplers(DEFAULT_SAMPLERS)
        self.itemChanged.connect(lambda _item: self._emit())

    def _fit_height(self) -> None:
        rows = max(1, self.count())
        self.setFixedHeight(self.sizeHintForRow(0) * rows + 2 * self.frameWidth() + 4)

    def set_samplers(self, samplers: tuple[str, ...]) -> None:
        """The applied stages in their order, then the others (unchecked) in llama.cpp's order."""
        self._quiet = True
        current = self.current_name()
        self.clear()
        for name in tuple(samplers) + tuple(n for n in CHAIN_STAGES if n not in samplers):
            item = QListWidgetItem(self.labels.get(name, name))
            item.setData(NAME, name)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable
                          | Qt.ItemFlag.ItemIsDragEnabled)
            item.setCheckState(Qt.CheckState.Checked if name in samplers else Qt.CheckState.Unchecked)
            self.addItem(item)
        self._mark_unavailable()
        if current is not None:
            self.setCurrentRow(self.names().index(current))
        self._fit_height()
        self._quiet = False

    def names(self) -> list[str]:
        return [str(self.item(i).data(NAME)) for i in range(self.count())]

    def samplers(self) -> tuple[str, ...]:
        """The checked stages in order, less those this engine cannot apply (kept checked for another engine)."""
        return tuple(name for i, name in enumerate(self.names())
                     if self.item(i).checkState() == Qt.CheckState.Checked and name not in self._unavailable)

    def current_name(self) -> str | None:
        item = self.currentItem()
        return str(item.data(NAME)) if item is not None else None

    def move_current(self, delta: int) -> bool:
        """Move the current stage `delta` places (-1: one up); False when it cannot go there."""
        row = self.currentRow()
        target = row + delta
        if row < 0 or delta == 0 or not 0 <= target < self.count():
            return False
        self._quiet = True
        item = self.takeItem(row)
        self.insertItem(target, item)
        self.setCurrentRow(target)
        self._quiet = False
        self._emit()
        return True

    def reset_order(self) -> None:
        """llama.cpp's order, every stage applied (a stage whose setting is off still changes nothing)."""
        self.set_samplers(DEFAULT_SAMPLERS)
        self._emit()

    def set_unavailable(self, reasons: dict[str, str]) -> None:
        """Stages this engine cannot apply: greyed, left out of `samplers`, the reason as their tooltip."""
        applied = tuple(str(self.item(i).data(NAME)) for i in range(self.count())
                        if self.item(i).checkState() == Qt.CheckState.Checked)
        self._unavailable = dict(reasons)
        self.set_samplers(applied)

    def _mark_unavailable(self) -> None:
        for i in range(self.count()):
            item = self.item(i)
            name = str(item.data(NAME))
            why = self._unavailable.get(name)
            item.setToolTip(why or self.tips.get(name, ""))
            if why is not None:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt's name
        """The dragged stage (the current one) goes where it is dropped: above or below the row under the
        pointer. Done here rather than by Qt's model drop, so one move path serves drag and keyboard."""
        row = self.currentRow()
        if row < 0 or event.source() not in (self, None):
            event.ignore()
            return
        pos = event.position().toPoint()
        target = self.indexAt(pos)
        to = self.count() if not target.isValid() else (
            target.row() + (1 if pos.y() > self.visualRect(target).center().y() else 0))
        # Accepted as a copy: Qt removes the dragged row after a *move* it did not make itself.
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        self.move_current((to - 1 if to > row else to) - row)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.modifiers() & Qt.KeyboardModifier.AltModifier and event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.move_current(-1 if event.key() == Qt.Key.Key_Up else 1)
            event.accept()
            return
        super().keyPressEvent(event)

    def _emit(self) -> None:
        if not self._quiet:
            self.changed.emit()
