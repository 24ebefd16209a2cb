"""llama.cpp's own tools, built from the same llama.cpp as the engine's, for the benchmarks that run them side by
side (`bench --score`: llama-perplexity, `bench --cvector`: llama-cvector-generator).

They are found in $LLAMA_TOOLS_DIR or ~/.cache/llama-tools-0.3.36 (built by the development checkout's
../shared/tools/build-llama-tools) and run with that folder as their library path; without them a benchmark
prints only our figures and says how to build them (`not_built`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from logitscope.engine.handles import amx_kernels_built


def tools_dir() -> Path:
    return Path(os.environ.get("LLAMA_TOOLS_DIR", Path.home() / ".cache" / "llama-tools-0.3.36"))


def tool(name: str) -> Path:
    return tools_dir() / name


def tool_built(name: str) -> bool:
    return tool(name).exists()


def tool_env() -> dict[str, str]:
    """The environment a tool runs in: its own folder's libraries first."""
    return dict(os.environ, LD_LIBRARY_PATH=str(tools_dir()))


def common_args(model: Path, threads: int) -> list[str]:
    """The arguments every tool run here takes: the model, the threads, and --no-repack where this llama.cpp
    build has the AMX kernels (they die here with an illegal instruction: FACTS.md), as the engine loads."""
    args = ["-m", str(model), "-t", str(threads)]
    if amx_kernels_built():
        args.append("--no-repack")
    return args


def line_buffered(command: list[str]) -> list[str]:
    """`command` with its stdout line-buffered where coreutils' stdbuf exists (a tool's printf lines then
    arrive as they are written, so a reader can time its phases), else as it is."""
    stdbuf = shutil.which("stdbuf")
    return [stdbuf, "-oL", "-eL", *command] if stdbuf else command


def not_built(name: str) -> str:
    """What to say when a tool is missing."""
    return (f"{name}: not built (looked in {tools_dir()}); build llama.cpp's tools from the same llama.cpp "
            "(the development checkout's ../shared/tools/build-llama-tools) or set $LLAMA_TOOLS_DIR to their folder")
