"""`generate`'s options for every sampler setting, run as a user runs them, on the real demo model: recorded in
the trace's settings, applied in the order given, and every bad value one `error:` line with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logitscope.protocol.sampler_settings import SamplerSettings
from tests.helpers.cli import assert_clean_error, run


def generate_json(*args: str) -> tuple[list[dict], dict]:
    proc = run("generate", "--max-tokens", "4", "--json", *args)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    return lines[:-1], lines[-1]


@pytest.mark.model
def test_samplers_set_the_chain_and_its_order(demo_model):
    steps, done = generate_json("--prompt", "The capital of France is", "--samplers", "min-p,top_k;temp",
                                "--temperature", "0")
    assert done["settings"]["samplers"] == ["min_p", "top_k", "temperature"]
    assert [s["name"] for s in steps[0]["stages"]] == ["min_p", "top_k", "temperature"]
    for stage in steps[0]["stages"]:  # schema 2: every stage says what it removed (ids + text, best first)
        assert isinstance(stage["info"], dict) and isinstance(stage["removed"], list)
        assert all({"token", "text"} == set(r) for r in stage["removed"])
    min_p, top_k, _ = steps[0]["stages"]
    assert min_p["n_in"] == 49152 and top_k["n_in"] == min_p["n_out"] < 40  # min-p ran first


@pytest.mark.model
def test_every_new_setting_is_recorded(demo_model):
    """Settings that leave their stage off (so any engine runs them) still go into the trace as given."""
    _, done = generate_json("--prompt", "Hi", "--temperature", "0", "--min-keep", "2", "--dry-base", "2.5",
                            "--dry-allowed-length", "3", "--dry-penalty-last-n", "32", "--dry-sequence-breaker", "\n",
                            "--dry-sequence-breaker", ";", "--xtc-threshold", "0.7", "--typical-p", "1",
                            "--top-n-sigma", "-2", "--dynatemp-exp", "1.5", "--mirostat-lr", "0.3",
                            "--mirostat-ent", "3.5")
    recorded = done["settings"]
    expected = {"min_keep": 2, "dry_base": 2.5, "dry_allowed_length": 3, "dry_penalty_last_n": 32,
                "dry_sequence_breakers": ["\n", ";"], "xtc_threshold": 0.7, "top_n_sigma": -2.0,
                "dynatemp_exponent": 1.5, "mirostat_eta": 0.3, "mirostat_tau": 3.5}
    assert {k: recorded[k] for k in expected} == expected
    assert set(SamplerSettings().to_dict()) <= set(recorded)
    assert "order" not in recorded


@pytest.mark.model
def test_grammar_file_constrains_the_answer(demo_model, tmp_path: Path):
    grammar = tmp_path / "yes_no.gbnf"
    grammar.write_text('root ::= "yes" | "no"\n', encoding="utf-8")
    steps, done = generate_json("--chat", "Is the sky blue?", "--grammar-file", str(grammar), "--max-tokens", "8")
    assert done["text"] in ("yes", "no")
    assert done["settings"]["grammar"] == 'root ::= "yes" | "no"\n'
    assert steps[0]["stages"][0]["name"] == "grammar" and steps[0]["stages"][0]["info"]["allowed"] >= 1


@pytest.mark.model
def test_logit_bias_bans_a_token_and_a_text(demo_model):
    steps, _ = generate_json("--prompt", "The capital of France is", "--temperature", "0", "--max-tokens", "1")
    best = steps[0]["token"]
    steps, done = generate_json("--prompt", "The capital of France is", "--temperature", "0", "--max-tokens", "1",
                                "--logit-bias", f"{best}-inf")
    assert steps[0]["token"] != best and done["settings"]["logit_bias"] == [[best, "-inf"]]


@pytest.mark.model
def test_a_token_outside_the_vocabulary_is_refused(demo_model):
    assert_clean_error(run("generate", "--prompt", "hi", "--logit-bias", "999999+1"), "999999")


@pytest.mark.model
@pytest.mark.parametrize("grammar", ["root ::= (", "root ::= undefined-rule", "nothing here"])
def test_a_grammar_that_does_not_parse_is_refused(demo_model, grammar):
    assert_clean_error(run("generate", "--prompt", "hi", "--max-tokens", "2", "--grammar", grammar), "grammar")


@pytest.mark.model
def test_a_schema_that_is_not_json_is_refused(demo_model):
    assert_clean_error(run("generate", "--prompt", "hi", "--max-tokens", "2", "--json-schema", "{not json"), "schema")


@pytest.mark.parametrize("args,phrase", [
    (["--samplers", "top_k;nucleus;warp"], "unknown sampler 'warp'"),
    (["--samplers", "top_k,top-k"], "twice"),
    (["--dry-multiplier", "-1"], "--dry-multiplier must be >= 0"),
    (["--dry-base", "0.5"], "--dry-base must be >= 1"),
    (["--dry-allowed-length", "-1"], "--dry-allowed-length must be between 0 and 65536"),
    (["--dry-penalty-last-n", "-2"], "--dry-penalty-last-n must be >= -1"),
    (["--xtc-probability", "1.5"], "--xtc-probability must be in [0, 1]"),
    (["--xtc-threshold", "-0.1"], "--xtc-threshold must be"),
    (["--typical", "0"], "--typical-p must be in (0, 1]"),
    (["--top-n-sigma", "nan"], "--top-n-sigma must be a number, not nan"),
    (["--dynatemp-range", "-1"], "--dynatemp-range must be >= 0"),
    (["--dynatemp-exp", "0"], "--dynatemp-exp must be > 0"),
    (["--mirostat", "3"], "--mirostat must be 0"),
    (["--mirostat-tau", "0"], "--mirostat-ent must be > 0"),
    (["--mirostat-lr", "-1"], "--mirostat-lr must be > 0"),
    (["--min-keep", "-1"], "--min-keep must be between 0 and 1048576"),
    (["--logit-bias", "15043"], "TOKEN_ID+BIAS"),
    (["--logit-bias", "15043+much"], "not a number"),
    (["--logit-bias", "hello=inf"], "-inf"),
    (["--logit-bias", "=1"], "TEXT=BIAS"),
    (["--grammar", 'root ::= "a"', "--json-schema", "{}"], "not both"),
    (["--grammar", 'root ::= "a"', "--grammar-file", "g.gbnf"], "not allowed with"),
    (["--mirostat", "two"], "invalid int"),
    (["--min-keep", "99999999"], "--min-keep must be between 0 and 1048576"),
    (["--temp", "nan"], "--temperature must be a number, not nan"),
    (["--top-p", "inf"], "--top-p must be a finite number, not inf"),
    (["--repeat-penalty", "NaN"], "--repeat-penalty must be a number"),
    (["--n-ctx", "-5"], "--n-ctx must be between 0"),
    (["--n-gpu-layers", "-2"], "--n-gpu-layers must be -1 (all)"),
    (["--max-tokens", "0"], "--max-tokens must be >= 1"),
])
def test_bad_sampler_options(args, phrase):
    assert_clean_error(run("generate", "--prompt", "hi", *args), phrase)


def test_bad_grammar_and_schema_files(tmp_path: Path):
    binary = tmp_path / "latin1.gbnf"
    binary.write_bytes('root ::= "café"'.encode("latin-1"))
    for flag in ("--grammar-file", "--json-schema-file"):
        assert_clean_error(run("generate", "--prompt", "hi", flag, str(tmp_path / "missing.gbnf")), "does not exist")
        assert_clean_error(run("generate", "--prompt", "hi", flag, str(tmp_path)), "not a file")
        assert_clean_error(run("generate", "--prompt", "hi", flag, str(binary)), "not UTF-8")
