"""The architecture's layers and homes, as the README's How it works draws them: what
tests/test_architecture.py holds the package to, and tests/test_types.py reads (strict typing outside the
window's homes)."""

# Bottom to top. A package imports only from its own layer's package and the layers below it; "" is the
# package root (the version), grammars the ready-made GBNF files the sampler settings name.
LAYERS = (
    ("", "base"),
    ("grammars", "gguf", "system"),
    ("protocol",),
    ("sampling",),
    ("engine", "host", "library", "store"),
    ("session", "diagnosis"),
    ("ui",),
    ("bench",),
    ("cli",),
    ("__main__",),
)
# The engine process's entry point serves the engine: the one import from host into engine.
SIDEWAYS = {("logitscope.host.server", "logitscope.engine.core")}
LLAMA = ("llama_cpp",)
LLAMA_HOMES = ("logitscope.engine", "logitscope.host.server", "logitscope.bench")
QT = ("PySide6", "pyqtgraph", "shiboken6")
QT_HOMES = ("logitscope.ui", "logitscope.bench.window")
MAX_MODULE_LINES = 600
MAX_MAIN_WINDOW_LINES = 400
