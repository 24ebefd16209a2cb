"""The engine's notices that other parts read back (the diagnosis matches them in stored answers): one
definition each, used by the code that writes them. No llama.cpp here (the window imports it)."""

from __future__ import annotations

from logitscope.base.messages import Message

FALLBACK_NOTICE = Message("this model has no chat template: using a plain 'User:' / 'Assistant:' format")
# templates: rendered with Message(TEMPLATE, **params) where they happen
TRIMMED_NOTICE = Message("the conversation was longer than the context ({n_ctx} tokens): "
                         "the {trimmed} oldest message(s) were left out of the prompt")
CONTEXT_FULL_NOTICE = Message("the context window is full ({n_ctx} tokens): generation stopped")
