"""Whether this CPU runs the llama.cpp kernels that the recorded figures came from.

Figures recorded from llama.cpp's tools (tests/data/kld, tests/data/cvector) and the engine's own recordings
(tests/data/scripted_engine.json.gz, thinking_trace.json.gz) were made on Xeons with AVX-512. Another CPU runs
other kernels (another order of the float sums in the quantized dot products): on an AMD EPYC with AVX2 only
(2026-12-06) the demo model's logits came out up to 2 % apart from the recorded ones (llama-perplexity's Mean
PPL 29.396 against 29.448 recorded, the greedy answers part after a few tokens). There a test compares what
does not depend on the kernels exactly, and the figures with the tolerance it states, or with the tool run
now where llama.cpp's tools are built (/work/shared/tools/build-llama-tools).
"""

from __future__ import annotations

from functools import cache

RECORDED_KERNELS = "AVX512 = 1"  # in llama_print_system_info() on the machines that recorded the figures
OTHER_KERNELS = ("the recorded figures come from llama.cpp's AVX-512 kernels and this CPU runs others "
                 "(tests/helpers/kernels.py)")


@cache
def runs_the_recorded_kernels() -> bool:
    import llama_cpp

    return RECORDED_KERNELS in llama_cpp.llama_print_system_info().decode(errors="replace")
