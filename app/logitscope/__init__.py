"""Logitscope: chat with a local LLM and see inside it."""

__version__ = "0.1.0"
TRACE_SCHEMA_VERSION = 3  # 2: samplers, new settings, stage info/removed; 3: speculative drafts (docs/trace_schema.md)
