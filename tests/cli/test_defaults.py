"""The CLI's option choices and defaults come from the engine's constants: one source of truth."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from logitscope import cli
from logitscope.engine import memory, sampler
from logitscope.engine.api import DecodeOptions, LoadSettings
from logitscope.engine.sampler import LEGACY_ORDERS, SamplerSettings


def _action(parser: argparse.ArgumentParser, *path: str) -> dict[str, argparse.Action]:
    """The options of the subcommand at `path` (e.g. "generate"), by their flag."""
    for name in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    return {flag: a for a in parser._actions for flag in a.option_strings}


def _sampler_flags() -> dict[str, str]:
    """SamplerSettings field -> its `generate` option."""
    return {f.name: "--" + f.name.replace("_", "-") for f in dataclasses.fields(SamplerSettings)}


def test_generate_defaults_are_the_engines():
    args = cli.build_parser().parse_args(["generate", "--prompt", "x"])
    settings = SamplerSettings(**{name: getattr(args, name) for name in _sampler_flags()})
    assert settings == SamplerSettings()
    assert args.max_tokens == DecodeOptions().max_tokens
    assert cli.load_settings(args) == LoadSettings()


def test_chat_temperature_is_the_engines_default():
    args = cli.build_parser().parse_args(["chat"])
    assert args.temperature == SamplerSettings().temperature
    assert cli.load_settings(args) == LoadSettings()


def test_every_sampler_setting_has_a_generate_option():
    options = _action(cli.build_parser(), "generate")
    assert set(_sampler_flags().values()) <= set(options)


def test_choices_follow_the_engines_constants(monkeypatch: pytest.MonkeyPatch):
    """A KV cache type or a stage order added to the engine is offered by the CLI without touching it."""
    monkeypatch.setitem(memory.KV_CACHE_TYPES, "q5_1", (7, 24 / 32))
    monkeypatch.setitem(sampler.LEGACY_ORDERS, "min_p_first", ("min_p", "penalties", "top_k", "top_p", "temperature"))
    parser = cli.build_parser()
    for command in ("generate", "chat"):
        assert _action(parser, command)["--kv-type"].choices == list(memory.KV_CACHE_TYPES)
    assert _action(parser, "generate")["--order"].choices == list(LEGACY_ORDERS)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    generate_help = sub.choices["generate"].format_help()
    assert "q5_1" in generate_help and "min_p_first" in generate_help
    assert f"default: {SamplerSettings().temperature}" in generate_help

