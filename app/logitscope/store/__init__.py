"""Storage, no Qt: the chat history (SQLite) and the settings (JSON), both in the data folder.

- history.HistoryStore: conversations as message trees, answers with their traces, search, trash.
- streaming.StreamingWriter: saves an answer while it streams (HistoryStore.start_answer makes one).
- exchange: JSON export/import (lossless), Markdown, one trace as JSON Lines.
- settings.SettingsStore: app settings, per-model load settings, sampler presets.
(The `logitscope history` command is cli/history.py.)
"""

from logitscope.store.history import HistoryStore
from logitscope.store.records import Conversation, ModelIdentity, SearchHit, StoredMessage
from logitscope.store.streaming import StreamingWriter

__all__ = ["Conversation", "HistoryStore", "ModelIdentity", "SearchHit", "StoredMessage", "StreamingWriter"]
