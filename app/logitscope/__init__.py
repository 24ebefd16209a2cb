"""Logitscope: chat with a local LLM and see inside it."""

__version__ = "0.1.0"
TRACE_SCHEMA_VERSION = 2  # 2: samplers, the new sampler settings, stage info/removed (docs/trace_schema.md)
