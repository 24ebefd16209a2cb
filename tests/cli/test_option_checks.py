"""Options and inputs that are not what they claim, refused before any work with one clear `error:` line and
exit 2 (each was found accepted, or said wrongly, by a sweep of hostile inputs)."""

from __future__ import annotations

import os

import pytest

from tests.helpers.cli import assert_clean_error, run


def test_a_negative_seed_is_refused_before_any_prompt_is_evaluated(tmp_path):
    for name in ("pos.txt", "neg.txt"):
        (tmp_path / name).write_text("a prompt\n")
    (tmp_path / "model.gguf").write_bytes(b"GGUF" + bytes(60))
    proc = run("cvector", "--model", str(tmp_path / "model.gguf"), "--positive-file", str(tmp_path / "pos.txt"),
               "--negative-file", str(tmp_path / "neg.txt"), "-o", str(tmp_path / "out.gguf"), "--seed=-1")
    assert_clean_error(proc, "the seed must be 0 or more, not -1")


@pytest.mark.model   # (engine/grammar.py loads llama.cpp)
@pytest.mark.parametrize(("schema", "said"), [
    ("[]", "a JSON schema is an object, such as"), ('{"type": "nonsense"}', "Unrecognized schema")])
def test_a_schema_that_is_not_one_is_said_plainly(schema, said):
    from logitscope.base.errors import InvalidSettingsError
    from logitscope.engine.grammar import schema_to_gbnf

    with pytest.raises(InvalidSettingsError) as caught:
        schema_to_gbnf(schema)
    assert said in str(caught.value) and "Error" not in str(caught.value)


def test_a_device_or_a_pipe_given_as_a_model_or_a_control_vector_is_named_as_such(tmp_path):
    """/dev/zero read as "zero is empty (0 bytes)", and a named pipe as a control vector that "does not exist"."""
    from logitscope.base.errors import InvalidSettingsError, ModelFileError
    from logitscope.gguf.control_vector import read_control_vector
    from logitscope.gguf.header import read_header

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ModelFileError, match="/dev/zero is a character device, not a GGUF model file"):
        read_header("/dev/zero")
    with pytest.raises(ModelFileError, match="is a named pipe, not a GGUF model file"):
        read_header(fifo)
    with pytest.raises(InvalidSettingsError, match="is not a file"):
        read_control_vector(fifo)


@pytest.mark.parametrize(("args", "said"), [
    (("--n-ctx=-5",), "--n-ctx must be between 0"), (("--n-ctx", "999999999999"), "--n-ctx must be between 0"),
    (("--folder", "/no/such/folder"), "--folder /no/such/folder is not a folder")])
def test_models_list_refuses_a_context_or_a_folder_that_is_not_one(args, said, tmp_path, monkeypatch):
    """It printed "KV cache 0 B at -5 tokens", and skipped a mistyped folder without a word."""
    monkeypatch.setenv("LOGITSCOPE_HOME", str(tmp_path / "home"))
    assert_clean_error(run("models", "list", *args), said)


@pytest.mark.model
def test_a_quantized_kv_type_without_flash_attention_says_the_v_cache_stays_f16(demo_model):
    """Only the K cache is quantized then (llama.cpp needs flash attention for a quantized V cache): the
    memory saved was half what the flag suggests, without a word."""
    proc = run("generate", "--model", str(demo_model), "--prompt", "hi", "--max-tokens", "1", "--kv-type", "q8_0")
    assert proc.returncode == 0, proc.stderr
    assert "note: --kv-type q8_0 quantizes the K cache only; the V cache stays f16 without --flash-attn" in proc.stderr
    proc = run("generate", "--model", str(demo_model), "--prompt", "hi", "--max-tokens", "1", "--kv-type", "q8_0",
               "--flash-attn")
    assert proc.returncode == 0 and "K cache only" not in proc.stderr, proc.stderr


def test_a_damaged_string_array_is_reported_where_it_is(tmp_path):
    """A flipped length in a string array was reported "at byte 280375465087325", past the end of the file."""
    import re
    import struct

    from logitscope.base.errors import ModelFileError
    from logitscope.gguf.header import ARRAY_PREVIEW, read_header

    key = b"tokenizer.ggml.tokens"
    n = ARRAY_PREVIEW + 1   # (a longer array is skipped over, not read: the path that went wrong)
    array = struct.pack("<IQ", 8, n) + (struct.pack("<Q", 2) + b"ab") * (n - 1) + struct.pack("<Q", 0xFF00_0000_0000)
    data = (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", len(key)) + key + struct.pack("<I", 9)
            + array + b"cd" * (8 * n))
    path = tmp_path / "flipped.gguf"
    path.write_bytes(data)
    with pytest.raises(ModelFileError) as caught:
        read_header(path)
    assert "a string in an array claims" in str(caught.value)
    at = int(re.search(r"at byte (\d+)", str(caught.value)).group(1))
    assert at == data.index(struct.pack("<Q", 0xFF00_0000_0000)) < len(data)


@pytest.mark.parametrize("value, expected", [("-1e9", -1e9), ("-2.5E-1", -0.25), ("-1.", -1.0), ("-.5", -0.5)])
def test_a_negative_value_in_any_number_form_is_a_value_not_an_option(value, expected):
    """argparse took `--presence-penalty -1e9` for an unknown option '-1e9' (llama.cpp takes it as a number)."""
    from logitscope.cli.main import build_parser
    from logitscope.cli.sampler_options import settings_from_args

    args = build_parser().parse_args(["generate", "--prompt", "x", "--presence-penalty", value,
                                      "--frequency-penalty", value])
    settings = settings_from_args(args)
    assert settings.presence_penalty == settings.frequency_penalty == expected


def test_an_option_that_looks_like_a_number_is_still_no_value(capsys):
    from logitscope.cli.main import main

    with pytest.raises(SystemExit) as exit_:
        main(["generate", "--prompt", "x", "--presence-penalty", "-x1"])
    assert exit_.value.code == 2
    assert "--presence-penalty: expected one argument" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [["--api-key", "sk-1"], ["--api-key", "sk-1", "--beams", "2"],
                                   ["--remote-model", "m", "--beams", "2"]])
def test_a_remote_option_without_an_engine_is_refused_not_ignored(extra, capsys, monkeypatch):
    """`--api-key` without `--engine` ran the local model and ignored the key; with --beams every remote option
    was ignored. ($LOGITSCOPE_API_KEY, a default, is no option the user gave.)"""
    from logitscope.cli.main import main

    monkeypatch.setenv("LOGITSCOPE_API_KEY", "sk-env")
    assert main(["generate", "--prompt", "x", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --api-key, --remote-model, --engine-timeout, --insecure and --post-sampling-probs "
                          "need --engine URL") and err.count("\n") == 1
