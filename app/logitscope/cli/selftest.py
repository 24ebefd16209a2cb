"""`logitscope --selftest [--model PATH] [--screenshot PNG]`: proof that an installed app works.

It does what a first start does, without a person: loads the model in the engine process, generates a
few tokens greedily and checks every step carries probabilities, then builds the real main window
offscreen, lets it answer one question and saves a screenshot. Exit 0 with a short report; any
failure is one `error:` line on stderr and exit code 2, never a traceback. Installers and the bundle
tests run it; a user can too, to check a machine. The window part (Qt) is ui/selftest_window.py.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from logitscope import __version__
from logitscope.base.errors import LogitscopeError
from logitscope.base.paths import HOME_ENV

if TYPE_CHECKING:
    from logitscope.host.client import EngineClient
    from logitscope.protocol.api import GenerateRequest, ModelInfo
    from logitscope.protocol.trace import GenerationResult, StepRecord

EXIT_FAILED = 2
PROMPT = "What is the capital of France?"
N_CTX = 512            # plenty for one short question; small so the self-test loads fast anywhere
LOAD_TIMEOUT_S = 120
ANSWER_TIMEOUT_S = 180


class SelftestError(LogitscopeError):
    """A check of the self-test failed; the message says which."""


@dataclass
class EngineReport:
    backend: str
    gpu_offload: bool
    info: ModelInfo
    steps: list[StepRecord]
    result: GenerationResult
    constrained: str     # the answer under a JSON schema


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, like every other error
        print(f"error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(EXIT_FAILED)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="logitscope --selftest",
                     description="Check that this installation can load a model, generate and draw its window.")
    parser.add_argument("--model", metavar="PATH", help="a GGUF file (default: the demo model)")
    parser.add_argument("--screenshot", metavar="PNG",
                        help="where to save the window's picture (default: logitscope-selftest.png in the temp folder)")
    parser.add_argument("--tokens", type=int, default=8, help="tokens to generate (default 8)")
    return parser


def resolve_model(arg: str | None) -> Path:
    """The given file, or the demo model (the user's copy or the one inside the app). Never downloads:
    a self-test that needs the network would test the network."""
    from logitscope.library.demo import demo_model_path, is_valid_demo

    if arg:
        return Path(arg).expanduser().resolve()
    path = demo_model_path()
    if not is_valid_demo(path):
        raise SelftestError(f"the demo model is missing or damaged at {path}; "
                            "run 'logitscope models fetch-demo' or pass --model PATH")
    return path


def greedy_request(n_tokens: int) -> GenerateRequest:
    from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
    from logitscope.protocol.sampler_settings import PRESETS

    return GenerateRequest(messages=[ChatMessage("user", PROMPT)], settings=PRESETS["Greedy"],
                           options=DecodeOptions(max_tokens=n_tokens))


def check_step(step: StepRecord) -> None:
    """Every step must carry a real distribution, and greedy must have taken the raw favourite."""
    raw = step.raw_probs
    finals = step.final_probs
    problems = []
    if raw.size == 0 or finals.size == 0:
        problems.append("no candidates recorded")
    elif not (all(math.isfinite(float(p)) for p in raw) and all(math.isfinite(float(p)) for p in finals)):
        problems.append("probabilities are not finite")
    elif not 0.0 < float(raw.sum()) <= 1.0 + 1e-3 or not 0.0 < float(finals.sum()) <= 1.0 + 1e-3:
        problems.append(f"probabilities sum to {float(raw.sum()):.4f} (raw) / {float(finals.sum()):.4f} (final)")
    if not (0.0 < step.p <= 1.0 + 1e-6 and 0.0 < step.p_raw <= 1.0 + 1e-6):
        problems.append(f"chosen token has p={step.p}, p_raw={step.p_raw}")
    if step.rank_raw != 0:
        problems.append(f"greedy chose the raw rank {step.rank_raw} token, not the most likely one")
    if problems:
        raise SelftestError(f"step {step.i} (token {step.token}): " + "; ".join(problems))


SCHEMA_CHECK = '{"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}'


def run_constraint_check(client: EngineClient) -> str:
    """The constrained-output path end to end: the ready JSON grammar (a data file inside the app) and a
    JSON schema compile in the engine, a short answer under the schema comes back as JSON, and the
    window's validity check (the `jsonschema` package) accepts it. Returns the answer."""
    from dataclasses import replace

    from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
    from logitscope.protocol.sampler_settings import PRESETS
    from logitscope.ui.chat.output_check import check_output

    client.check_settings(PRESETS["JSON"])
    settings = replace(PRESETS["Greedy"], json_schema=SCHEMA_CHECK)
    result = client.generate(GenerateRequest(messages=[ChatMessage("user", PROMPT)], settings=settings,
                                             options=DecodeOptions(max_tokens=48)))
    verdict = check_output(settings.to_dict(), result.text, result.finish_reason)
    if verdict is None or (not verdict.ok and verdict.kind != "cut"):
        raise SelftestError(f"an answer under a JSON schema came back as {result.text!r} "
                            f"({verdict.kind if verdict else 'not checked'}: {verdict.detail if verdict else ''})")
    return result.text


def run_engine_check(client: EngineClient, model: Path, n_tokens: int) -> EngineReport:
    from logitscope.gguf.card import read_model_card
    from logitscope.protocol.api import LoadSettings

    read_model_card(model)  # a bad file fails here with a clear message, before an engine starts
    caps = client.capabilities()
    info = client.load(str(model), LoadSettings(n_ctx=N_CTX))
    steps: list[StepRecord] = []
    result = client.generate(greedy_request(n_tokens), on_step=steps.append)
    if not steps:
        raise SelftestError(f"the model produced no token (finish reason: {result.finish_reason})")
    if len(steps) != result.timings.n_gen:
        raise SelftestError(f"{len(steps)} steps arrived but the engine reports {result.timings.n_gen} tokens")
    for step in steps:
        check_step(step)
    constrained = run_constraint_check(client)
    return EngineReport(str(caps.get("backend")), bool(caps.get("gpu_offload")), info, steps, result, constrained)


def ensure_display() -> str:
    """Offscreen unless a display is there (or the caller chose a platform)."""
    if not os.environ.get("QT_QPA_PLATFORM") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    return os.environ.get("QT_QPA_PLATFORM", "default")


@contextmanager
def private_data_folder(folder: Path) -> Iterator[None]:
    """The window keeps history and settings in the data folder: during the self-test that is a scratch
    folder, so the user's conversations never get a "What is the capital of France?"."""
    previous = os.environ.get(HOME_ENV)
    os.environ[HOME_ENV] = str(folder)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(HOME_ENV, None)
        else:
            os.environ[HOME_ENV] = previous


def run(model_arg: str | None, screenshot_arg: str | None, n_tokens: int) -> list[str]:
    """All checks; returns the report's lines. Raises LogitscopeError on the first failure."""
    from logitscope.host.client import EngineClient
    from logitscope.ui.selftest_window import WindowCheck, run_window_check

    if not 1 <= n_tokens <= 256:
        raise SelftestError("--tokens must be between 1 and 256")
    model = resolve_model(model_arg)
    screenshot = Path(screenshot_arg).expanduser().resolve() if screenshot_arg else \
        Path(tempfile.gettempdir()) / "logitscope-selftest.png"
    platform = ensure_display()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="logitscope-selftest-") as tmp, private_data_folder(Path(tmp)), \
            EngineClient() as client:
        engine = run_engine_check(client, model, n_tokens)
        check = WindowCheck(PROMPT, n_tokens, N_CTX, LOAD_TIMEOUT_S, ANSWER_TIMEOUT_S)
        window = run_window_check(client, model, check, screenshot, Path(tmp))
    if window.backend_shown != engine.backend:
        raise SelftestError(f"the window shows the backend as {window.backend_shown!r}, "
                            f"the engine reports {engine.backend!r}")
    timings = engine.result.timings
    where = f"frozen app in {Path(sys.executable).parent}" if getattr(sys, "frozen", False) else \
        f"from source, Python {sys.version.split()[0]}"
    return [
        f"logitscope {__version__} self-test: ok ({where})",
        f"  model:      {engine.info.card.name} ({model})",
        f"  backend:    {engine.backend} (GPU offload {'possible' if engine.gpu_offload else 'not built in'})",
        f"  tokens:     {len(engine.steps)} greedy, {engine.result.text!r}, probabilities checked at every step",
        f"  JSON:       {engine.constrained!r} under a JSON schema, grammar files and validator present",
        f"  speed:      {timings.gen_tps:.1f} tok/s (prompt {timings.n_prompt} tokens, load {engine.info.load_s:.2f} s)",
        f"  window:     {window.width}x{window.height} on '{platform}', backend shown as {window.backend_shown}, "
        f"screenshot {screenshot}",
        f"  total time: {time.perf_counter() - started:.1f} s",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        lines = run(args.model, args.screenshot, args.tokens)
    except LogitscopeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a self-test reports, it does not crash: one line, whatever broke
        print(f"error: the self-test failed unexpectedly: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print("\n".join(lines))
    return 0
