"""What the Score dialog's KL divergence comparison compares (picked with "KL divergence with…" or given by
ScoreDialog.start_kl_comparison): the base (the loaded model, or a file: the original of a quantization) and
the other — another GGUF file with the same vocabulary, or the base itself with its KV cache quantized or flash
attention toggled (the CLI's --compare-kv-type / --compare-flash-attn)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from logitscope.host.kl_job import other_configuration
from logitscope.protocol.api import LoadSettings

KL_KV_TYPES = ("q8_0", "q4_0")   # the KV caches offered against the base's (f16 unless loaded otherwise)


@dataclass(frozen=True)
class KlTarget:
    other: str | None = None         # another GGUF file; None: the base itself in another configuration
    kv_type: str | None = None       # the base with its K and V caches of this type
    flash_attn: bool | None = None   # the base with flash attention on / off
    base: str | None = None          # the base's file; None: the model loaded in the window

    def other_path(self, base_path: str) -> str:
        return self.other or base_path

    def other_settings(self, base: LoadSettings) -> LoadSettings:
        """How the other one loads: as the base, or in the configuration asked for (refused as the CLI refuses
        it: a quantized V cache needs flash attention)."""
        if self.other is not None:
            return base
        return other_configuration(base, self.kv_type, self.flash_attn)

    def names(self, base_path: str) -> tuple[str, str]:
        """A and B as the dialog names them."""
        base = Path(base_path).name
        if self.other is not None:
            return base, Path(self.other).name
        if self.kv_type is not None:
            return base, QCoreApplication.translate("KlTarget", "{0}, KV cache {1}").format(base, self.kv_type)
        state = (QCoreApplication.translate("KlTarget", "on") if self.flash_attn
                 else QCoreApplication.translate("KlTarget", "off"))
        return base, QCoreApplication.translate("KlTarget", "{0}, flash attention {1}").format(base, state)

    def label(self) -> str:
        """The picker's line."""
        if self.other is not None:
            if self.base is not None:
                return QCoreApplication.translate("KlTarget", "KL divergence of {0} from {1}").format(
                    Path(self.other).name, Path(self.base).name)
            return QCoreApplication.translate("KlTarget", "KL divergence of {0} from this model").format(
                Path(self.other).name)
        if self.kv_type is not None:
            return QCoreApplication.translate("KlTarget", "KL divergence of this model with a {0} KV cache").format(
                self.kv_type)
        if self.flash_attn:
            return QCoreApplication.translate("KlTarget", "KL divergence of this model with flash attention on")
        return QCoreApplication.translate("KlTarget", "KL divergence of this model with flash attention off")
