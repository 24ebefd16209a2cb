"""The steering an answer was made with, as its trace records it (GenerationResult.steering, the done line's
`steering`: protocol.steering.steering_record), in words: one short line and a tooltip with every file."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from logitscope.protocol.steering import Steering, knockouts_from_record


def _files(entries: Any) -> list[dict[str, Any]]:
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def _layers(record: dict[str, Any]) -> tuple[object, object] | None:
    layers = record.get("layer_range")
    return (layers[0], layers[1]) if isinstance(layers, list) and len(layers) == 2 else None


class SteeringSummary:
    """An answer's steering in words, and the badge of the steering to come (this class names their
    translation context)."""

    @staticmethod
    def line(record: dict[str, Any] | None) -> str:
        """"steered: happy.gguf ×8 on layers 10–20; LoRA tune.gguf ×1" ("" for an unsteered answer)."""
        if not isinstance(record, dict):
            return ""
        parts = []
        vectors, loras, layers = _files(record.get("control_vectors")), _files(record.get("loras")), _layers(record)
        if vectors:
            files = ", ".join(f"{v.get('file', '?')} ×{_scale(v.get('scale'))}" for v in vectors)
            on_layers = QCoreApplication.translate("SteeringSummary", "{0} on layers {1}–{2}")
            parts.append(on_layers.format(files, *layers) if layers else files)
        if loras:
            files = ", ".join(f"{a.get('file', '?')} ×{_scale(a.get('scale'))}" for a in loras)
            parts.append(QCoreApplication.translate("SteeringSummary", "LoRA {0}").format(files))
        line = QCoreApplication.translate("SteeringSummary", "steered: {0}").format("; ".join(parts)) if parts else ""
        knocked = knockouts_from_record(record)
        if knocked:   # not steering, but also what the answer was made with (Causal tracing)
            out = QCoreApplication.translate("SteeringSummary", "knocked out {0}").format(", ".join(knocked))
            line = f"{line}; {out}" if line else out
        return line


    @staticmethod
    def tip(record: dict[str, Any] | None) -> str:
        """Every file with its path, scale and SHA-256, and the layer range, one per line."""
        if not isinstance(record, dict) or not SteeringSummary.line(record):
            return ""
        lines = [QCoreApplication.translate("SteeringSummary", "This answer was steered (as its trace records it):")]
        vector = QCoreApplication.translate("SteeringSummary", "control vector {0} at scale {1}: {2} (SHA-256 {3}…)")
        for v in _files(record.get("control_vectors")):
            lines.append(vector.format(v.get("file", "?"), _scale(v.get("scale")), v.get("path", "?"),
                                       str(v.get("sha256", "?"))[:16]))
        layers = _layers(record)
        if layers:
            lines.append(QCoreApplication.translate("SteeringSummary", "added to the output of layers {0} to {1}").format(
                *layers))
        adapter = QCoreApplication.translate("SteeringSummary", "LoRA adapter {0} at scale {1}: {2} (SHA-256 {3}…)")
        for a in _files(record.get("loras")):
            lines.append(adapter.format(a.get("file", "?"), _scale(a.get("scale")), a.get("path", "?"),
                                        str(a.get("sha256", "?"))[:16]))
        knocked = knockouts_from_record(record)
        if knocked:
            lines.append(QCoreApplication.translate(
                "SteeringSummary", "generated with these heads and blocks knocked out (zeroed at every position): "
                "{0}").format(", ".join(knocked)))
        return "\n".join(lines)


    @staticmethod
    def badge(steering: Steering | None) -> str:
        """The status line's badge while the next answers are steered ("" when they are not)."""
        if steering is None:
            return ""
        vectors, loras = len(steering.control_vectors), len(steering.loras)
        vector_text = (QCoreApplication.translate("SteeringSummary", "1 vector") if vectors == 1 else
                       QCoreApplication.translate("SteeringSummary", "{0} vectors").format(vectors))
        adapter_text = (QCoreApplication.translate("SteeringSummary", "1 adapter") if loras == 1 else
                        QCoreApplication.translate("SteeringSummary", "{0} adapters").format(loras))
        if vectors and loras:
            what = QCoreApplication.translate("SteeringSummary", "{0}, {1}").format(vector_text, adapter_text)
        else:
            what = vector_text if vectors else adapter_text
        return QCoreApplication.translate("SteeringSummary", "Steering on: {0} ✕").format(what)


def _scale(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else "?"
