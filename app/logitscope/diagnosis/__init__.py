"""Why did it answer like that? A plain-language diagnosis of one answer from its trace.

`diagnose(steps, result)` returns the findings (repetition loop, cut off, guessing, sampling off course,
end of turn missed, context trimmed, slow), each with its evidence (step ranges) and a fix as setting
changes. Pure Python + numpy: no Qt, no llama.cpp (the CLI, the window and the tests share it).
"""

from __future__ import annotations

from logitscope.diagnosis.diagnose import diagnose
from logitscope.diagnosis.findings import KIND_TITLES, KINDS, SEVERITIES, Context, Diagnosis, Finding, Fix

__all__ = ["KINDS", "KIND_TITLES", "SEVERITIES", "Context", "Diagnosis", "Finding", "Fix", "diagnose"]
