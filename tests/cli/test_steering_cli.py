"""`logitscope generate --control-vector[-scaled] --control-vector-layer-range --lora[-scaled]`: llama.cpp's flags
in llama.cpp's formats, a bad one as one `error:` line, and the steered answer as llama.cpp's own gives it."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from logitscope.bench.steering_files import lora_adapter, lora_for, random_vector
from logitscope.cli.steering_options import steering_from_args
from logitscope.protocol.steering import ScaledFile
from tests.helpers.cli import assert_clean_error, parse_command, run

TOOLS = Path(os.environ.get("LLAMA_TOOLS_DIR", Path.home() / ".cache" / "llama-tools-0.3.36"))
PROMPT = "The capital of France is"


def _abs(name: str) -> str:
    return str(Path(name).absolute())


def test_the_flags_parse_in_llama_cpps_formats_and_keep_their_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("a", "b", "c", "d", "e", "v"):
        random_vector(tmp_path / f"{name}.gguf", layers=range(1, 3), n_embd=8)
    for name in ("l", "m", "n"):
        lora_adapter(tmp_path / f"{name}.gguf", rank=2)   # checked against the model by llama.cpp, in the engine
    args = parse_command("generate", "--prompt", "x", "--control-vector", "a.gguf,b.gguf",
                         "--control-vector-scaled", "c.gguf:0.5,d.gguf:-2", "--control-vector", "e.gguf",
                         "--control-vector-layer-range", "10", "20",
                         "--lora", "l.gguf", "--lora-scaled", "m.gguf:2,n.gguf:1e-1")
    steering = steering_from_args(args)
    assert steering is not None
    assert steering.control_vectors == (ScaledFile(_abs("a.gguf")), ScaledFile(_abs("b.gguf")),
                                        ScaledFile(_abs("c.gguf"), 0.5), ScaledFile(_abs("d.gguf"), -2.0),
                                        ScaledFile(_abs("e.gguf")))
    assert (steering.layer_start, steering.layer_end) == (10, 20) and steering.layer_range(30) == (10, 20)
    assert steering.loras == (ScaledFile(_abs("l.gguf")), ScaledFile(_abs("m.gguf"), 2.0),
                              ScaledFile(_abs("n.gguf"), 0.1))
    assert steering_from_args(parse_command("generate", "--prompt", "x")) is None
    plain = steering_from_args(parse_command("generate", "--prompt", "x", "--control-vector", "v.gguf"))
    assert plain is not None and plain.layer_range(30) == (1, 29)  # every layer from 1 to the last (llama.cpp: 1 to 30)


@pytest.mark.parametrize(("flags", "phrase"), [
    (("--control-vector-scaled", "v.gguf"), "FNAME:SCALE"),
    (("--control-vector-scaled", "v.gguf:1:2"), "FNAME:SCALE"),
    (("--control-vector-scaled", "v.gguf:strong"), "must be a finite number"),
    (("--control-vector-scaled", "v.gguf:nan"), "must be a finite number"),
    (("--control-vector-scaled", "v.gguf:inf"), "must be a finite number"),
    (("--lora-scaled", "a.gguf:1,b.gguf"), "FNAME:SCALE"),
    (("--control-vector", "a.gguf,,b.gguf"), "FNAME[,FNAME...]"),
    (("--control-vector-layer-range", "10"), "expected 2 arguments"),
    (("--control-vector-layer-range", "ten", "20"), "invalid int"),
])
def test_a_bad_flag_is_one_error_line(flags, phrase):
    assert_clean_error(run("generate", "--prompt", "x", *flags), phrase)


def test_a_layer_range_without_a_vector_and_an_empty_range_are_clear_errors(tmp_path):
    assert_clean_error(run("generate", "--prompt", "x", "--control-vector-layer-range", "1", "2"), "goes with")
    assert_clean_error(run("generate", "--prompt", "x", "--control-vector", "v.gguf",
                           "--control-vector-layer-range", "20", "10"), "is empty")
    assert_clean_error(run("generate", "--prompt", "x", "--control-vector", str(tmp_path / "none.gguf")),
                       "does not exist")
    assert_clean_error(run("generate", "--prompt", "x", "--lora", str(tmp_path / "none.gguf")), "does not exist")
    # a file that is no adapter at all is said plainly before an engine starts (llama.cpp's own line was cut short)
    vector = random_vector(tmp_path / "v.gguf", layers=range(1, 3), n_embd=8)
    assert_clean_error(run("generate", "--prompt", "x", "--lora", str(vector)),
                       f"{vector} is not a LoRA adapter: it has no general.type (an adapter's is 'adapter')")
    assert_clean_error(run("generate", "--prompt", "x", "--control-vector", str(tmp_path)),
                       f"the control vector {tmp_path} is a folder, not a file")


def test_chat_takes_the_same_flags(tmp_path):
    vector = random_vector(tmp_path / "v.gguf", layers=range(1, 3), n_embd=8)
    steering = steering_from_args(parse_command("chat", "--control-vector-scaled", f"{vector}:0.5",
                                                "--control-vector-layer-range", "1", "2"))
    assert steering is not None and steering.control_vectors == (ScaledFile(str(vector), 0.5),)
    assert_clean_error(run("chat", "--lora-scaled", "a.gguf"), "FNAME:SCALE")


def _done(proc: subprocess.CompletedProcess[str]) -> dict:
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.mark.model
def test_generate_records_the_steering_in_its_trace_and_a_bad_vector_is_one_line(demo_model, tmp_path):
    vector = random_vector(tmp_path / "v.gguf", seed=1)
    common = ("generate", "--model", str(demo_model), "--prompt", PROMPT, "--temperature", "0", "--max-tokens", "12",
              "--json")
    plain = _done(run(*common))
    steered = _done(run(*common, "--control-vector-scaled", f"{vector}:12", "--control-vector-layer-range", "1", "29"))
    assert plain["steering"] is None and steered["tokens"] != plain["tokens"]
    record = steered["steering"]
    assert record["layer_range"] == [1, 29] and record["loras"] == []
    past = _done(run(*common, "--control-vector-scaled", f"{vector}:12", "--control-vector-layer-range", "1", "999"))
    assert past["steering"]["layer_range"] == [1, 29] and past["tokens"] == _done(run(
        *common, "--control-vector-scaled", f"{vector}:12"))["tokens"]   # the model's 30 layers: "1-999" was said
    assert record["control_vectors"][0]["file"] == "v.gguf" and record["control_vectors"][0]["scale"] == 12.0
    # a range past the model's layers would steer nothing while the trace said "steered"
    assert_clean_error(run(*common, "--control-vector", str(vector), "--control-vector-layer-range", "30", "2000"),
                       "the control vector layer range 30 2000 steers no layer: this model's layers 1 to 29 take a "
                       "control vector")
    narrow = random_vector(tmp_path / "narrow.gguf", n_embd=64)
    assert_clean_error(run(*common, "--control-vector", str(narrow)), "values per layer")


# llama-completion's greedy text for the cases below, recorded where the tools are built (the test compares
# with llama-completion itself when it is there, else with this recording; regenerate the recording with
# `LOGITSCOPE_RECORD_STEERING=1 ./scripts/test tests/cli/test_steering_cli.py -k llama_completion` after
# ../shared/tools/build-llama-tools)
REFERENCE = Path(__file__).resolve().parents[1] / "data" / "steering" / "llama_completion.json"
STEER_TOKENS = 16
VECTOR_SEED, LORA_SEED = 1, 1
CASES = {  # llama.cpp's flags, VECTOR and ADAPTER standing for the seeded files
    "vector": ("--control-vector-scaled", "VECTOR:8", "--control-vector-layer-range", "10", "20"),
    "lora": ("--lora-scaled", "ADAPTER:1"),
    "both": ("--lora-scaled", "ADAPTER:1", "--control-vector-scaled", "VECTOR:8", "--control-vector-layer-range",
             "10", "20"),
}


def steering_files(demo_model: Path, folder: Path) -> dict[str, Path]:
    return {"VECTOR": random_vector(folder / "v.gguf", seed=VECTOR_SEED),
            "ADAPTER": lora_for(demo_model, folder / "a.gguf", seed=LORA_SEED)}


def flags_with(case: str, files: dict[str, Path]) -> list[str]:
    out = []
    for flag in CASES[case]:
        for name, path in files.items():
            flag = flag.replace(name, str(path))
        out.append(flag)
    return out


def llama_completion_text(demo_model: Path, case: str, files: dict[str, Path]) -> str:
    tool = TOOLS / "llama-completion"
    if not tool.exists():
        recorded = json.loads(REFERENCE.read_text())
        assert recorded["vector_seed"] == VECTOR_SEED and recorded["lora_seed"] == LORA_SEED
        assert recorded["cases"][case]["flags"] == list(CASES[case]), "the recording is of another case"
        return str(recorded["cases"][case]["text"])
    command = [str(tool), "-m", str(demo_model), "-p", PROMPT, "-n", str(STEER_TOKENS), "--temp", "0", "-no-cnv",
               "-c", "2048", "-fa", "on", "-t", "2", "--no-repack", "--no-display-prompt", "--no-warmup",
               *flags_with(case, files)]
    theirs = subprocess.run(command, capture_output=True, text=True, timeout=300,
                            env=dict(os.environ, LD_LIBRARY_PATH=str(TOOLS)))
    assert theirs.returncode == 0, theirs.stderr[-2000:]
    if os.environ.get("LOGITSCOPE_RECORD_STEERING"):
        recorded = json.loads(REFERENCE.read_text()) if REFERENCE.exists() else {}
        if "cases" not in recorded:
            recorded = {"vector": "logitscope.bench.steering_files.random_vector(path, seed=1)",
                        "adapter": "logitscope.bench.steering_files.lora_for(demo_model, path, seed=1)",
                        "vector_seed": VECTOR_SEED, "lora_seed": LORA_SEED, "prompt": PROMPT, "cases": {}}
        recorded["cases"][case] = {
            "command": shlex.join(["llama-completion", *command[1:]]).replace(str(demo_model), "DEMO_MODEL")
                                                                    .replace(str(files["VECTOR"]), "VECTOR")
                                                                    .replace(str(files["ADAPTER"]), "ADAPTER"),
            "flags": list(CASES[case]), "text": theirs.stdout}
        REFERENCE.parent.mkdir(parents=True, exist_ok=True)
        REFERENCE.write_text(json.dumps(recorded, indent=2, ensure_ascii=False) + "\n")
    return theirs.stdout


@pytest.mark.model
@pytest.mark.parametrize("case", list(CASES))
def test_the_steered_greedy_text_equals_llama_completions(demo_model, tmp_path, case):
    """`generate` with llama.cpp's steering flags, greedy, gives llama-completion's text for the same files,
    scales, range, prompt and settings, token for token: a control vector, a LoRA adapter, and both."""
    files = steering_files(demo_model, tmp_path)
    common = ("generate", "--model", str(demo_model), "--prompt", PROMPT, "--temperature", "0",
              "--max-tokens", str(STEER_TOKENS), "--n-ctx", "2048", "--flash-attn", "--threads", "2", "--json")
    ours = _done(run(*common, *flags_with(case, files)))
    plain = _done(run(*common))
    assert ours["text"] != plain["text"], "the scale must visibly change the answer for the comparison to mean much"
    assert llama_completion_text(demo_model, case, files).strip() == ours["text"].strip()


@pytest.mark.model
def test_score_compares_a_text_with_and_without_an_adapter(demo_model, tmp_path):
    adapter = lora_for(demo_model, tmp_path / "a.gguf", seed=LORA_SEED)
    text = "The lighthouse keeper climbed the stairs every evening to light the lamp."
    proc = run("score", "--model", str(demo_model), "--text", text, "--json", "--compare-steering",
               "--lora-scaled", f"{adapter}:1")
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    summary, tokens = lines[-1], lines[:-1]
    assert summary["model"] == "unsteered" and summary["steering"] is None
    assert summary["compare"]["model"] == "steered"
    assert summary["compare"]["steering"]["loras"][0]["file"] == "a.gguf"
    assert summary["compare"]["perplexity"] != summary["perplexity"]
    diffs = [t["compare"]["bits_diff"] for t in tokens if t["compare"]["bits_diff"] is not None]
    assert len(diffs) == len(tokens) - 1 and any(abs(d) > 0.01 for d in diffs)
    steered = run("score", "--model", str(demo_model), "--text", text, "--json", "--lora-scaled", f"{adapter}:1")
    assert json.loads(steered.stdout.splitlines()[-1])["perplexity"] == summary["compare"]["perplexity"]
    assert_clean_error(run("score", "--model", str(demo_model), "--text", text, "--compare-steering"),
                       "needs a steering flag")


@pytest.mark.model
def test_inspect_and_beams_take_the_steering_flags(demo_model, tmp_path):
    vector = random_vector(tmp_path / "v.gguf", seed=VECTOR_SEED)
    steer = ("--control-vector-scaled", f"{vector}:12")
    inspect = ("inspect", "--model", str(demo_model), "--prompt", PROMPT, "--step", "1", "--layers", "--json")
    plain, steered = (json.loads(run(*inspect, *flags).stdout) for flags in ((), steer))
    assert plain["steering"] is None and steered["steering"]["control_vectors"][0]["scale"] == 12.0
    assert steered["lens"]["layers"][-1]["resid_norm"] != plain["lens"]["layers"][-1]["resid_norm"]
    beams = ("generate", "--model", str(demo_model), "--prompt", PROMPT, "--beams", "2", "--max-tokens", "8")
    proc = run(*beams, *steer)
    assert proc.returncode == 0 and "[steered] control vectors v.gguf:12 on layers 1-29" in proc.stderr
    assert proc.stdout != run(*beams).stdout
