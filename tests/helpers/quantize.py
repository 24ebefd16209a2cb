"""Other quantizations of the demo model, made for real by llama.cpp's own quantizer (`llama_model_quantize`,
requantizing its Q4_1 weights; about 2 s each), in a child process so the test process never loads llama.cpp."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_SCRIPT = """
import ctypes, sys
import llama_cpp
params = llama_cpp.llama_model_quantize_default_params()
params.ftype = getattr(llama_cpp, "LLAMA_FTYPE_MOSTLY_" + sys.argv[3])
params.allow_requantize = True
params.nthread = 1
sys.exit(llama_cpp.llama_model_quantize(sys.argv[1].encode(), sys.argv[2].encode(), ctypes.byref(params)))
"""


def quantize(source: Path, folder: Path, file_type: str) -> Path:
    """`source` requantized to `file_type` (Q4_0, Q8_0...) as folder/<name>.<file_type>.gguf."""
    out = folder / source.name.replace(".Q4_1.", f".{file_type}.")
    assert out != source
    proc = subprocess.run([sys.executable, "-c", _SCRIPT, str(source), str(out), file_type], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and out.is_file(), proc.stderr[-2000:]
    return out
