"""The sampler's settings (llama.cpp's names and defaults) and the presets: what a request carries across
the process boundary. The pipeline that applies them is sampling/sampler.py."""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.grammars import ready_grammar

# llama-server's sampler names (its `samplers` list and llama.cpp's `--samplers`), and the aliases
# llama.cpp accepts for them (common/sampling.cpp, common_sampler_types_from_names).
CHAIN_STAGES = ("penalties", "dry", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p", "xtc", "temperature")
DEFAULT_SAMPLERS = CHAIN_STAGES   # llama.cpp's default order (common.h, common_params_sampling::samplers)
SAMPLER_ALIASES: dict[str, str] = {
    **{name.replace("_", "-"): name for name in CHAIN_STAGES if "_" in name},
    **{name.replace("_", ""): name for name in CHAIN_STAGES if "_" in name},
    "nucleus": "top_p", "typical-p": "typ_p", "typical": "typ_p", "typ-p": "typ_p", "typ": "typ_p",
    "min-p": "min_p", "temp": "temperature",
}
# The order a schema-1 trace or an old preset named with its `order` field.
LEGACY_ORDERS: dict[str, tuple[str, ...]] = {
    "temperature_last": DEFAULT_SAMPLERS,
    "temperature_first": ("penalties", "dry", "temperature", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p", "xtc"),
}
# Stages outside the orderable chain, where llama.cpp puts them: logit bias and the grammar before the
# chain; with Mirostat on, the chain is replaced by temperature then Mirostat (common_sampler_init).
FIXED_BEFORE = ("logit_bias", "grammar")
MIROSTAT_CHAIN = {1: ("temperature", "mirostat"), 2: ("temperature", "mirostat_v2")}
DRY_BREAKERS = ("\n", ":", "\"", "*")
MAX_MIN_KEEP = 1 << 20             # more candidates than any vocabulary: a larger value is a mistake
MAX_DRY_ALLOWED_LENGTH = 1 << 16
# How the window and the store name each numeric setting in a message (the CLI names its flags instead)
FIELD_NAMES: dict[str, str] = {
    "temperature": Message("temperature"), "top_k": Message("top-k"), "top_p": Message("top-p"),
    "min_p": Message("min-p"), "repeat_penalty": Message("repeat penalty"), "repeat_last_n": Message("repeat-last-n"),
    "frequency_penalty": Message("frequency penalty"), "presence_penalty": Message("presence penalty"),
    "seed": Message("seed"), "min_keep": Message("min-keep"), "dry_multiplier": Message("DRY multiplier"),
    "dry_base": Message("DRY base"), "dry_allowed_length": Message("DRY allowed length"),
    "dry_penalty_last_n": Message("DRY penalty-last-n"), "xtc_probability": Message("XTC probability"),
    "xtc_threshold": Message("XTC threshold"), "typical_p": Message("typical-p"),
    "top_n_sigma": Message("top-n-sigma"), "dynatemp_range": Message("dynamic temperature range"),
    "dynatemp_exponent": Message("dynamic temperature exponent"), "mirostat": Message("mirostat"),
    "mirostat_tau": Message("Mirostat tau"), "mirostat_eta": Message("Mirostat eta"),
}
# every stage the local engine applies (its capabilities' "samplers")
LOCAL_STAGES = FIXED_BEFORE + CHAIN_STAGES + ("mirostat", "mirostat_v2")


def sampler_name(name: str) -> str:
    """The canonical name of a sampler given by any of llama.cpp's spellings; InvalidSettingsError if none."""
    key = name.strip().lower()
    key = SAMPLER_ALIASES.get(key, key)
    if key not in CHAIN_STAGES:
        raise InvalidSettingsError("unknown sampler {name!r}: use {names}", name=name, names=", ".join(CHAIN_STAGES))
    return key


@dataclass(frozen=True)
class SamplerSettings:
    """Every setting of the sampler. Names and defaults are llama.cpp's (common_params_sampling); each
    stage is off at its default except temperature, top-k, top-p and min-p."""

    temperature: float = 0.8
    top_k: int = 40
    top_p: float = 0.95
    min_p: float = 0.05
    repeat_penalty: float = 1.0
    repeat_last_n: int = 64
    frequency_penalty: float = 0.0
    presence_penalty: float = 0.0
    seed: int | None = None       # None: a fresh random seed, recorded with the generation
    samplers: tuple[str, ...] = DEFAULT_SAMPLERS   # the chain's order; a stage left out is not applied
    min_keep: int = 0             # top-p, min-p, typical and XTC keep at least this many (0: llama.cpp's default)
    # DRY: penalty multiplier * base ^ (length of the repeated sequence - allowed length)
    dry_multiplier: float = 0.0   # 0 = off
    dry_base: float = 1.75
    dry_allowed_length: int = 2
    dry_penalty_last_n: int = 64  # tokens scanned (llama.cpp's default); -1 = the whole context, 0 = off
    dry_sequence_breakers: tuple[str, ...] = DRY_BREAKERS
    # XTC: with this probability, remove every token above the threshold except the least likely of them
    xtc_probability: float = 0.0  # 0 = off
    xtc_threshold: float = 0.1    # > 0.5 = off
    typical_p: float = 1.0        # locally typical sampling; 1 = off
    top_n_sigma: float = -1.0     # keep logits within n standard deviations of the best; <= 0 = off
    dynatemp_range: float = 0.0   # dynamic temperature: temperature +- range by entropy; 0 = off
    dynatemp_exponent: float = 1.0
    mirostat: int = 0             # 0 = off, 1 = Mirostat, 2 = Mirostat 2.0 (replaces the chain)
    mirostat_tau: float = 5.0     # target surprise (bits)
    mirostat_eta: float = 0.1     # learning rate
    # (token id or text, bias): a text biases every token of its tokenization (as llama-server);
    # -inf bans the token
    logit_bias: tuple[tuple[int | str, float], ...] = ()
    grammar: str = ""             # GBNF; "" = unconstrained
    json_schema: str = ""         # a JSON schema (text), converted to GBNF by the engine; exclusive with grammar

    def validate(self, names: Mapping[str, str] | None = None) -> None:
        """InvalidSettingsError naming the first bad value; `names`: how the caller's user calls each field
        (the CLI's flags, cli/option_names.py), else FIELD_NAMES."""
        name = {**FIELD_NAMES, **(names or {})}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, float) and math.isnan(value):
                raise InvalidSettingsError("{name} must be a number, not {value}", name=name[f.name], value=value)
            if isinstance(value, float) and not math.isfinite(value):
                raise InvalidSettingsError("{name} must be a finite number, not {value}", name=name[f.name], value=value)
        checks = [
            (self.temperature >= 0, Message("{name} must be >= 0 (0 = greedy)", name=name["temperature"])),
            (self.top_k >= 0, Message("{name} must be >= 0 (0 = off)", name=name["top_k"])),
            (0 < self.top_p <= 1, Message("{name} must be in (0, 1] (1 = off)", name=name["top_p"])),
            (0 <= self.min_p <= 1, Message("{name} must be in [0, 1] (0 = off)", name=name["min_p"])),
            (self.repeat_penalty > 0, Message("{name} must be > 0 (1 = off)", name=name["repeat_penalty"])),
            (self.repeat_last_n >= 0, Message("{name} must be >= 0 (0 = off)", name=name["repeat_last_n"])),
            (self.seed is None or 0 <= self.seed < 2**63,
             Message("{name} must be between 0 and 2^63 - 1", name=name["seed"])),
            (0 <= self.min_keep <= MAX_MIN_KEEP,
             Message("{name} must be between 0 and {limit}", name=name["min_keep"], limit=MAX_MIN_KEEP)),
            (self.dry_multiplier >= 0, Message("{name} must be >= 0 (0 = off)", name=name["dry_multiplier"])),
            (self.dry_base >= 1, Message("{name} must be >= 1", name=name["dry_base"])),
            (0 <= self.dry_allowed_length <= MAX_DRY_ALLOWED_LENGTH,
             Message("{name} must be between 0 and {limit}", name=name["dry_allowed_length"],
                     limit=MAX_DRY_ALLOWED_LENGTH)),
            (self.dry_penalty_last_n >= -1, Message("{name} must be >= -1 (-1 = the whole context, 0 = off)",
                                                    name=name["dry_penalty_last_n"])),
            (0 <= self.xtc_probability <= 1, Message("{name} must be in [0, 1] (0 = off)", name=name["xtc_probability"])),
            (0 <= self.xtc_threshold <= 1, Message("{name} must be in [0, 1] (> 0.5 = off)", name=name["xtc_threshold"])),
            (0 < self.typical_p <= 1, Message("{name} must be in (0, 1] (1 = off)", name=name["typical_p"])),
            (self.dynatemp_range >= 0, Message("{name} must be >= 0 (0 = off)", name=name["dynatemp_range"])),
            (self.dynatemp_exponent > 0, Message("{name} must be > 0", name=name["dynatemp_exponent"])),
            (self.mirostat in (0, 1, 2), Message("{name} must be 0 (off), 1 or 2", name=name["mirostat"])),
            (self.mirostat_tau > 0, Message("{name} must be > 0", name=name["mirostat_tau"])),
            (self.mirostat_eta > 0, Message("{name} must be > 0", name=name["mirostat_eta"])),
            (len(self.samplers) == len(set(self.samplers)) and all(n in CHAIN_STAGES for n in self.samplers),
             Message("samplers must be distinct names among {names}", names=", ".join(CHAIN_STAGES))),
            (all(b for b in self.dry_sequence_breakers), Message("a DRY sequence breaker cannot be empty")),
            (all(not math.isnan(b) and b != math.inf for _, b in self.logit_bias),
             Message("a logit bias must be a number or -inf (ban)")),
            (all((isinstance(t, int) and t >= 0) or (isinstance(t, str) and t) for t, _ in self.logit_bias),
             Message("a logit bias applies to a token id >= 0 or a non-empty text")),
            (not (self.grammar and self.json_schema), Message("give a grammar or a JSON schema, not both")),
        ]
        for ok, message in checks:
            if not ok:
                raise InvalidSettingsError(message)

    def with_seed(self) -> SamplerSettings:
        """The same settings with a concrete seed (drawn now if none was given)."""
        return self if self.seed is not None else replace(self, seed=secrets.randbits(63))

    @property
    def greedy(self) -> bool:
        """The pick is the best candidate (a dynamic temperature may still sample when it rises above 0)."""
        return self.temperature <= 0 and (self.dynatemp_range <= 0 or self.mirostat != 0)

    @property
    def dry_on(self) -> bool:
        return self.dry_multiplier > 0 and self.dry_penalty_last_n != 0

    def dry_window(self, n_ctx: int) -> int:
        """How many context tokens DRY scans (-1: the whole context)."""
        return n_ctx if self.dry_penalty_last_n < 0 else self.dry_penalty_last_n

    @property
    def grammar_text(self) -> str:
        """The GBNF applied ("" for none); a JSON schema is converted by the engine (engine/grammar.py)."""
        return self.grammar

    def chain(self) -> tuple[str, ...]:
        """Every stage applied, in order (STAGE_NAMES): logit bias and grammar first when set, then the
        orderable chain, or temperature + Mirostat when Mirostat is on."""
        before = tuple(n for n, on in (("logit_bias", bool(self.logit_bias)),
                                       ("grammar", bool(self.grammar or self.json_schema))) if on)
        return before + (MIROSTAT_CHAIN[self.mirostat] if self.mirostat else self.samplers)

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["samplers"] = list(self.samplers)
        d["dry_sequence_breakers"] = list(self.dry_sequence_breakers)
        d["logit_bias"] = [[t, b if math.isfinite(b) else "-inf"] for t, b in self.logit_bias]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> SamplerSettings:
        """The inverse of to_dict; also reads the schema-1 form (an `order` name instead of `samplers`).
        Unknown keys are ignored; wrong types raise InvalidSettingsError (then validate())."""
        d = dict(d)
        order = d.pop("order", None)
        if "samplers" not in d and isinstance(order, str) and order in LEGACY_ORDERS:
            d["samplers"] = LEGACY_ORDERS[order]
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in d.items() if k in known}
        try:
            if "samplers" in values:
                values["samplers"] = tuple(sampler_name(str(n)) for n in values["samplers"])  # type: ignore[attr-defined]
            if "dry_sequence_breakers" in values:
                values["dry_sequence_breakers"] = tuple(str(b) for b in values["dry_sequence_breakers"])  # type: ignore[attr-defined]
            if "logit_bias" in values:
                values["logit_bias"] = tuple(
                    (t if isinstance(t, str) else int(t), -math.inf if b == "-inf" else float(b))
                    for t, b in values["logit_bias"])  # type: ignore[attr-defined]
            settings = cls(**values)  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            raise InvalidSettingsError("sampler settings: {error}", error=str(exc)) from exc
        settings.validate()
        return settings


# keys are Messages (equal to and stored as the English name) so the window can show them translated
PRESETS: dict[str, SamplerSettings] = {
    Message("Greedy"): SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0),
    Message("Precise"): SamplerSettings(temperature=0.3, top_k=40, top_p=0.9, min_p=0.05, repeat_penalty=1.1),
    Message("Balanced"): SamplerSettings(),
    Message("Creative"): SamplerSettings(temperature=1.1, top_k=100, top_p=0.98, min_p=0.02, repeat_penalty=1.05),
    # the common recipe for stories: min-p alone for truncation, DRY against repeated passages
    Message("Creative writing (min-p + DRY)"): SamplerSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.05,
                                                               dry_multiplier=0.8),
    # XTC's authors' suggestion: drop the obvious choices half of the time
    Message("XTC creative"): SamplerSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.02,
                                             xtc_probability=0.5, xtc_threshold=0.1),
    Message("JSON"): SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0, grammar=ready_grammar("json")),
}


# Stages recorded even when their settings leave them without effect (the waterfall always shows these);
# every other stage is recorded only when on.
ALWAYS_RECORDED = ("penalties", "top_k", "top_p", "min_p", "temperature")


def is_on(name: str, s: SamplerSettings) -> bool:
    """Whether a stage changes anything under these settings (an if chain: this runs for every stage of
    every token)."""
    if name in ALWAYS_RECORDED or name.startswith("mirostat"):
        return True
    if name == "dry":
        return s.dry_on
    if name == "xtc":
        return s.xtc_probability > 0 and s.xtc_threshold <= 0.5
    if name == "typ_p":
        return s.typical_p < 1.0
    if name == "top_n_sigma":
        return s.top_n_sigma > 0
    if name == "logit_bias":
        return bool(s.logit_bias)
    if name == "grammar":
        return bool(s.grammar or s.json_schema)
    return True
