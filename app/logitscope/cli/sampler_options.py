"""`generate`'s sampler options: one per SamplerSettings field, under llama.cpp's names where it has them
(`llama-cli --help`, common/arg.cpp), and their reading into SamplerSettings.

llama.cpp's forms are taken as it takes them: `--samplers "penalties;dry;top_k"` (';' or ',' between
names, any of llama.cpp's aliases), `--dry-sequence-breaker` repeatable (the first replaces the default
breakers, "none" clears them), `--logit-bias 15043+1` / `15043-1` / `15043-inf` (a ban); Logitscope
adds `--logit-bias "TEXT=BIAS"` (every token of the text, as llama-server's logit_bias does with a string).
Every bad value is an InvalidSettingsError: one `error:` line, exit code 2.
"""

from __future__ import annotations

import argparse
import math
import re
from pathlib import Path

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.reading import NotAFileError, TooLargeError, read_bounded
from logitscope.cli.option_names import SAMPLER_FLAGS, SAMPLER_NAMES
from logitscope.protocol.sampler_settings import DRY_BREAKERS, SamplerSettings, sampler_name

_SHOWN = "default: %(default)s"
_TOKEN_BIAS = re.compile(r"(\d+)([+-])(\S+)")   # llama.cpp's TOKEN_ID+BIAS / TOKEN_ID-BIAS
MAX_GRAMMAR_BYTES = 1 << 20                     # a grammar or schema file bigger than this is a mistake


def add_sampler_arguments(p: argparse.ArgumentParser) -> None:
    """One option per SamplerSettings field, with its default (an alias under the field's own name where
    llama.cpp's differs)."""
    default = SamplerSettings()
    d = p.add_argument_group("sampler")
    d.add_argument(*SAMPLER_FLAGS["temperature"], dest="temperature", type=float, default=default.temperature, help=_SHOWN + " (0 = greedy)")
    d.add_argument(*SAMPLER_FLAGS["top_k"], dest="top_k", type=int, default=default.top_k, help=_SHOWN + " (0 = off)")
    d.add_argument(*SAMPLER_FLAGS["top_p"], dest="top_p", type=float, default=default.top_p, help=_SHOWN + " (1 = off)")
    d.add_argument(*SAMPLER_FLAGS["min_p"], dest="min_p", type=float, default=default.min_p, help=_SHOWN + " (0 = off)")
    d.add_argument(*SAMPLER_FLAGS["repeat_penalty"], dest="repeat_penalty", type=float, default=default.repeat_penalty, help=_SHOWN + " (1 = off)")
    d.add_argument(*SAMPLER_FLAGS["repeat_last_n"], dest="repeat_last_n", type=int, default=default.repeat_last_n, help=_SHOWN)
    d.add_argument(*SAMPLER_FLAGS["frequency_penalty"], dest="frequency_penalty", type=float, default=default.frequency_penalty, help=_SHOWN)
    d.add_argument(*SAMPLER_FLAGS["presence_penalty"], dest="presence_penalty", type=float, default=default.presence_penalty, help=_SHOWN)
    d.add_argument("--samplers", default=";".join(default.samplers), metavar="NAMES",
                   help="the chain, in order, separated by ';' or ',' (llama-server's names; a stage left out "
                        "is not applied); " + _SHOWN)
    d.add_argument(*SAMPLER_FLAGS["min_keep"], dest="min_keep", type=int, default=default.min_keep,
                   help="top-p, min-p, typical-p and XTC keep at least this many tokens; " + _SHOWN)
    d.add_argument(*SAMPLER_FLAGS["dry_multiplier"], dest="dry_multiplier", type=float, default=default.dry_multiplier, help="DRY; " + _SHOWN + " (0 = off)")
    d.add_argument(*SAMPLER_FLAGS["dry_base"], dest="dry_base", type=float, default=default.dry_base, help=_SHOWN)
    d.add_argument(*SAMPLER_FLAGS["dry_allowed_length"], dest="dry_allowed_length", type=int, default=default.dry_allowed_length, help=_SHOWN)
    d.add_argument(*SAMPLER_FLAGS["dry_penalty_last_n"], dest="dry_penalty_last_n", type=int, default=default.dry_penalty_last_n,
                   help=_SHOWN + " (-1 = the whole context, 0 = off)")
    d.add_argument("--dry-sequence-breaker", action="append", default=None, metavar="TEXT",
                   help="repeatable; replaces the default breakers (" + ", ".join(map(repr, DRY_BREAKERS))
                        + "); 'none' for no breakers")
    d.add_argument(*SAMPLER_FLAGS["xtc_probability"], dest="xtc_probability", type=float, default=default.xtc_probability, help=_SHOWN + " (0 = off)")
    d.add_argument(*SAMPLER_FLAGS["xtc_threshold"], dest="xtc_threshold", type=float, default=default.xtc_threshold, help=_SHOWN + " (> 0.5 = off)")
    d.add_argument(*SAMPLER_FLAGS["typical_p"], dest="typical_p", type=float, default=default.typical_p, help=_SHOWN + " (1 = off)")
    d.add_argument(*SAMPLER_FLAGS["top_n_sigma"], dest="top_n_sigma", type=float, default=default.top_n_sigma, help=_SHOWN + " (<= 0 = off)")
    d.add_argument(*SAMPLER_FLAGS["dynatemp_range"], dest="dynatemp_range", type=float, default=default.dynatemp_range,
                   help="dynamic temperature: temperature +- range by entropy; " + _SHOWN + " (0 = off)")
    d.add_argument(*SAMPLER_FLAGS["dynatemp_exponent"], dest="dynatemp_exponent", type=float,
                   default=default.dynatemp_exponent, help=_SHOWN)
    d.add_argument(*SAMPLER_FLAGS["mirostat"], dest="mirostat", type=int, default=default.mirostat, metavar="N",
                   help="0 = off, 1 = Mirostat, 2 = Mirostat 2.0 (replaces the chain); " + _SHOWN)
    d.add_argument(*SAMPLER_FLAGS["mirostat_eta"], dest="mirostat_eta", type=float, default=default.mirostat_eta,
                   help="Mirostat's learning rate (eta); " + _SHOWN)
    d.add_argument(*SAMPLER_FLAGS["mirostat_tau"], dest="mirostat_tau", type=float, default=default.mirostat_tau,
                   help="Mirostat's target entropy (tau); " + _SHOWN)
    d.add_argument("--logit-bias", action="append", default=[], metavar="BIAS",
                   help="repeatable: TOKEN_ID+BIAS, TOKEN_ID-BIAS, TOKEN_ID-inf (a ban), or TEXT=BIAS for every "
                        "token of a text")
    grammar = d.add_mutually_exclusive_group()
    grammar.add_argument("--grammar", default=default.grammar, metavar="GBNF", help="constrain the answer (GBNF)")
    grammar.add_argument("--grammar-file", metavar="FILE", help="the grammar from a file")
    schema = d.add_mutually_exclusive_group()
    schema.add_argument("--json-schema", default=default.json_schema, metavar="SCHEMA",
                        help="constrain the answer to JSON of this schema")
    schema.add_argument("--json-schema-file", metavar="FILE", help="the JSON schema from a file")
    d.add_argument(*SAMPLER_FLAGS["seed"], dest="seed", type=int, default=default.seed, help="fixed seed (default: random, printed in --json)")


def settings_from_args(args: argparse.Namespace) -> SamplerSettings:
    """The SamplerSettings the options give, validated (InvalidSettingsError otherwise). A grammar that does
    not parse or a logit-bias token outside the vocabulary is found by the engine (check_settings)."""
    breakers = args.dry_sequence_breaker
    settings = SamplerSettings(
        temperature=args.temperature, top_k=args.top_k, top_p=args.top_p, min_p=args.min_p,
        repeat_penalty=args.repeat_penalty, repeat_last_n=args.repeat_last_n,
        frequency_penalty=args.frequency_penalty, presence_penalty=args.presence_penalty, seed=args.seed,
        samplers=parse_samplers(args.samplers), min_keep=args.min_keep,
        dry_multiplier=args.dry_multiplier, dry_base=args.dry_base, dry_allowed_length=args.dry_allowed_length,
        dry_penalty_last_n=args.dry_penalty_last_n,
        dry_sequence_breakers=DRY_BREAKERS if breakers is None else tuple(b for b in breakers if b != "none"),
        xtc_probability=args.xtc_probability, xtc_threshold=args.xtc_threshold, typical_p=args.typical_p,
        top_n_sigma=args.top_n_sigma, dynatemp_range=args.dynatemp_range, dynatemp_exponent=args.dynatemp_exponent,
        mirostat=args.mirostat, mirostat_tau=args.mirostat_tau, mirostat_eta=args.mirostat_eta,
        logit_bias=tuple(parse_logit_bias(text) for text in args.logit_bias),
        grammar=read_text_file(args.grammar_file, "grammar") if args.grammar_file else args.grammar,
        json_schema=read_text_file(args.json_schema_file, "JSON schema") if args.json_schema_file else args.json_schema)
    settings.validate(SAMPLER_NAMES)
    return settings


def parse_samplers(text: str) -> tuple[str, ...]:
    """`--samplers`: names separated by ';' (llama.cpp) or ',', each under any of llama.cpp's spellings."""
    names = [name for name in re.split(r"[;,]", text) if name.strip()]
    chain = tuple(sampler_name(name) for name in names)
    if len(set(chain)) != len(chain):
        raise InvalidSettingsError("--samplers names a stage twice: {samplers}", samplers=text)
    return chain


def parse_logit_bias(text: str) -> tuple[int | str, float]:
    """One `--logit-bias`: TOKEN_ID+BIAS, TOKEN_ID-BIAS (llama.cpp; -inf bans the token) or TEXT=BIAS."""
    match = _TOKEN_BIAS.fullmatch(text.strip())
    if match is not None and "=" not in text:  # "12+3=1" is the text "12+3"
        sign = "-" if match.group(2) == "-" else ""
        return int(match.group(1)), _bias(sign + match.group(3), text)
    target, sep, value = text.rpartition("=")
    if not sep or not target:
        raise InvalidSettingsError("--logit-bias {text!r}: use TOKEN_ID+BIAS, TOKEN_ID-BIAS or TEXT=BIAS "
                                   "(e.g. 15043-inf bans token 15043)", text=text)
    return target, _bias(value.strip(), text)


def _bias(value: str, text: str) -> float:
    try:
        bias = float(value)
    except ValueError:
        raise InvalidSettingsError("--logit-bias {text!r}: {value!r} is not a number", text=text, value=value) from None
    if math.isnan(bias) or bias == math.inf:
        raise InvalidSettingsError("--logit-bias {text!r}: a bias is a number or -inf (a ban)", text=text)
    return bias


def read_text_file(path: str, what: str) -> str:
    """A grammar or schema file's text (UTF-8), or InvalidSettingsError saying why not (a pipe or a device
    is refused unread: base/reading.py)."""
    file = Path(path).expanduser()
    try:
        return read_bounded(file, MAX_GRAMMAR_BYTES).decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidSettingsError("the {what} file {path} is not UTF-8 text", what=what, path=path) from None
    except FileNotFoundError:
        raise InvalidSettingsError("the {what} file {path} does not exist", what=what, path=path) from None
    except NotAFileError as exc:
        raise InvalidSettingsError("the {what} file {path} is {kind}, not a file", what=what, path=path,
                                   kind=exc.kind) from None
    except TooLargeError:
        raise InvalidSettingsError("the {what} file {path} is larger than 1 MiB", what=what, path=path) from None
    except OSError as exc:
        raise InvalidSettingsError("cannot read the {what} file {path}: {reason}", what=what, path=path,
                                   reason=exc.strerror or exc) from None
