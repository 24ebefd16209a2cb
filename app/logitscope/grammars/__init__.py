"""Ready-made GBNF grammars (json and list are llama.cpp's own, grammars/ in its source; MIT licence).

Plain text, readable in any process: the GUI offers them, the engine compiles them with llama.cpp.
"""

from __future__ import annotations

from importlib.resources import files

from logitscope.base.messages import Message

# file stem -> the name shown (translated in the window)
READY_GRAMMARS: dict[str, str] = {
    "json": Message("JSON object"),
    "list": Message("A list (\"- item\" lines)"),
    "yes_no": Message("Yes or no"),
}


def ready_grammar(stem: str) -> str:
    """The GBNF text of a ready grammar by its file stem (KeyError if there is none)."""
    if stem not in READY_GRAMMARS:
        raise KeyError(stem)
    return files(__package__).joinpath(f"{stem}.gbnf").read_text(encoding="utf-8")
