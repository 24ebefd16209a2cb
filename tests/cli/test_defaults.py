"""The CLI's option choices and defaults come from the engine's constants: one source of truth."""

from __future__ import annotations

import argparse
import dataclasses
import math
from dataclasses import replace

import pytest

from logitscope.cli import common
from logitscope.cli.main import build_parser
from logitscope.cli.sampler_options import parse_logit_bias, settings_from_args
from logitscope.gguf import memory
from logitscope.protocol import sampler_settings as sampler
from logitscope.protocol.api import DecodeOptions, LoadSettings
from logitscope.protocol.sampler_settings import SamplerSettings


def _action(parser: argparse.ArgumentParser, *path: str) -> dict[str, argparse.Action]:
    """The options of the subcommand at `path` (e.g. "generate"), by their flag."""
    for name in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    return {flag: a for a in parser._actions for flag in a.option_strings}


# Where llama.cpp's option name differs from the field's (the field's own name is an alias, except these).
LLAMA_CPP_FLAGS = {"dry_sequence_breakers": "--dry-sequence-breaker"}


def _sampler_flags() -> dict[str, str]:
    """SamplerSettings field -> its `generate` option."""
    return {f.name: LLAMA_CPP_FLAGS.get(f.name, "--" + f.name.replace("_", "-")) for f in dataclasses.fields(SamplerSettings)}


def test_generate_defaults_are_the_engines():
    args = build_parser().parse_args(["generate", "--prompt", "x"])
    assert settings_from_args(args) == SamplerSettings()
    assert args.max_tokens == DecodeOptions().max_tokens
    assert common.load_settings(args) == LoadSettings()


def test_chat_temperature_is_the_engines_default():
    args = build_parser().parse_args(["chat"])
    assert args.temperature == SamplerSettings().temperature
    assert common.load_settings(args) == LoadSettings()


def test_every_sampler_setting_has_a_generate_option():
    options = _action(build_parser(), "generate")
    assert set(_sampler_flags().values()) <= set(options)


def test_every_option_reaches_its_setting():
    """Each option changes its own field and only that one (a mistyped dest would leave the default)."""
    changed = {"--temperature": ("0.5", "temperature", 0.5), "--samplers": ("top_k;temp", "samplers", ("top_k", "temperature")),
               "--min-keep": ("2", "min_keep", 2), "--dry-multiplier": ("0.8", "dry_multiplier", 0.8),
               "--dry-base": ("2", "dry_base", 2.0), "--dry-allowed-length": ("3", "dry_allowed_length", 3),
               "--dry-penalty-last-n": ("64", "dry_penalty_last_n", 64),
               "--dry-sequence-breaker": ("none", "dry_sequence_breakers", ()),
               "--xtc-probability": ("0.5", "xtc_probability", 0.5), "--xtc-threshold": ("0.2", "xtc_threshold", 0.2),
               "--typical": ("0.9", "typical_p", 0.9), "--top-nsigma": ("1.5", "top_n_sigma", 1.5),
               "--dynatemp-range": ("0.3", "dynatemp_range", 0.3), "--dynatemp-exp": ("2", "dynatemp_exponent", 2.0),
               "--mirostat": ("2", "mirostat", 2), "--mirostat-lr": ("0.2", "mirostat_eta", 0.2),
               "--mirostat-ent": ("4", "mirostat_tau", 4.0), "--logit-bias": ("15043-inf", "logit_bias", ((15043, -math.inf),)),
               "--grammar": ('root ::= "yes"', "grammar", 'root ::= "yes"'),
               "--json-schema": ('{"type": "object"}', "json_schema", '{"type": "object"}')}
    for flag, (value, name, expected) in changed.items():
        settings = settings_from_args(build_parser().parse_args(["generate", "--prompt", "x", flag, value]))
        assert settings == replace(SamplerSettings(), **{name: expected}), flag


@pytest.mark.parametrize("text, bias", [
    ("15043+1", (15043, 1.0)), ("15043-1.5", (15043, -1.5)), ("15043-inf", (15043, -math.inf)),
    ("15043+1e1", (15043, 10.0)), (" Paris=-inf", (" Paris", -math.inf)), ("a=b=2", ("a=b", 2.0)),
    ("12+3=1", ("12+3", 1.0)), ("你好=-3", ("你好", -3.0)),
])
def test_logit_bias_forms(text: str, bias: tuple):
    assert parse_logit_bias(text) == bias


def test_choices_follow_the_engines_constants(monkeypatch: pytest.MonkeyPatch):
    """A KV cache type or a sampler stage added to the engine is offered by the CLI without touching it."""
    monkeypatch.setitem(memory.KV_CACHE_TYPES, "q5_1", (7, 24 / 32))
    parser = build_parser()
    for command in ("generate", "chat"):
        assert _action(parser, command)["--kv-type"].choices == list(memory.KV_CACHE_TYPES)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    generate_help = sub.choices["generate"].format_help()
    assert "q5_1" in generate_help and ";".join(sampler.DEFAULT_SAMPLERS) in "".join(generate_help.split())
    assert f"default: {SamplerSettings().temperature}" in generate_help
