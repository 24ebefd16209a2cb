"""The command line's option for each setting: one table that both the parsers' flags and the error messages
read, so an error names what the user typed (`--n-ctx must be between ...`, not `n_ctx`)."""

from __future__ import annotations

# SamplerSettings field -> its flags, llama.cpp's spelling first (the one errors name), then aliases
SAMPLER_FLAGS: dict[str, tuple[str, ...]] = {
    "temperature": ("--temperature", "--temp"), "top_k": ("--top-k",), "top_p": ("--top-p",),
    "min_p": ("--min-p",), "repeat_penalty": ("--repeat-penalty",), "repeat_last_n": ("--repeat-last-n",),
    "frequency_penalty": ("--frequency-penalty",), "presence_penalty": ("--presence-penalty",),
    "seed": ("--seed",), "min_keep": ("--min-keep",), "dry_multiplier": ("--dry-multiplier",),
    "dry_base": ("--dry-base",), "dry_allowed_length": ("--dry-allowed-length",),
    "dry_penalty_last_n": ("--dry-penalty-last-n",), "xtc_probability": ("--xtc-probability",),
    "xtc_threshold": ("--xtc-threshold",), "typical_p": ("--typical-p", "--typical"),
    "top_n_sigma": ("--top-n-sigma", "--top-nsigma"), "dynatemp_range": ("--dynatemp-range",),
    "dynatemp_exponent": ("--dynatemp-exp", "--dynatemp-exponent"), "mirostat": ("--mirostat",),
    "mirostat_eta": ("--mirostat-lr", "--mirostat-eta"), "mirostat_tau": ("--mirostat-ent", "--mirostat-tau"),
}
# LoadSettings field -> its flag (generate, chat, score, cvector, inspect, bench...)
LOAD_FLAGS: dict[str, str] = {"n_ctx": "--n-ctx", "n_gpu_layers": "--n-gpu-layers", "n_threads": "--threads",
                              "type_k": "--kv-type", "flash_attn": "--flash-attn"}

# DecodeOptions field -> its flag (generate, chat)
DECODE_FLAGS: dict[str, str] = {"max_tokens": "--max-tokens", "draft_max": "--draft-max"}

SAMPLER_NAMES = {name: flags[0] for name, flags in SAMPLER_FLAGS.items()}   # validate(names=...)
