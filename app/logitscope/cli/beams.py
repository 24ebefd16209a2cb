"""`logitscope generate --beams N [--length-penalty A]`: beam search instead of sampling (engine/beams.py).

Prints the winning hypothesis on stdout and its score, the other hypotheses and the KV cells the beams share
on stderr; with --json one JSON object: the hypotheses, the whole tree (every candidate of every step, its
parent, cumulative log-probability and fate) and the memory per beam. While it searches, a terminal's stderr
shows one progress line per step (rewritten in place: the beams kept, the best one's log-probability and text),
erased at the end; stderr that is not a terminal gets none.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from dataclasses import asdict
from typing import Any, TextIO

from logitscope.base.errors import InvalidSettingsError, UnsupportedByServerError
from logitscope.protocol.api import GenerateRequest
from logitscope.protocol.beams import (
    DEFAULT_LENGTH_PENALTY,
    KEPT,
    MAX_BEAMS,
    MAX_LENGTH_PENALTY,
    BeamNode,
    BeamProgress,
    BeamRequest,
    BeamResult,
    node_path,
)
from logitscope.protocol.reasoning import UNLIMITED
from logitscope.protocol.trace import dumps

BEAMS_JSON_VERSION = 1
PROGRESS_TEXT_CHARS = 48   # of the best beam's text, its end: the line fits a terminal


class ProgressLine:
    """One line per search step on a terminal, each replacing the last (the tree so far gives the best text)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.nodes: list[BeamNode] = []
        self.shown = False

    def __call__(self, event: BeamProgress) -> None:
        del self.nodes[event.first_node:]
        self.nodes.extend(event.nodes)
        kept = [event.first_node + j for j, node in enumerate(event.nodes) if node.status == KEPT]
        line = f"step {event.step + 1}/{event.max_tokens}: {len(kept)} beams kept, {event.n_finished} finished"
        if kept:
            best = max(kept, key=lambda i: self.nodes[i].cum_logprob)
            text = "".join(self.nodes[i].text for i in node_path(self.nodes, best))
            line += f"; best {self.nodes[best].cum_logprob:.3f} {text[-PROGRESS_TEXT_CHARS:]!r}"
        self.out.write(f"\r{line}\x1b[K")
        self.out.flush()
        self.shown = True

    def erase(self) -> None:
        if self.shown:
            self.out.write("\r\x1b[K")
            self.out.flush()


def add_beam_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("beam search (instead of sampling: the sampler options are not used)")
    g.add_argument("--beams", type=int, metavar="N",
                   help=f"keep the N best hypotheses at every step (1-{MAX_BEAMS}; 1 = greedy)")
    g.add_argument("--length-penalty", type=float, default=None, metavar="A",
                   help=f"score = sum of log-probabilities / length^A (0-{MAX_LENGTH_PENALTY:g}; "
                        f"default {DEFAULT_LENGTH_PENALTY:g})")


def beam_result_to_json(result: BeamResult) -> dict[str, Any]:
    return {
        "schema": BEAMS_JSON_VERSION, "type": "beams", "n_beams": result.n_beams,
        "length_penalty": result.length_penalty, "score": "sum(logprob) / length ** length_penalty",
        "prompt_tokens": result.prompt_tokens, "winner": asdict(result.winner),
        "hypotheses": [asdict(h) for h in result.hypotheses],
        "nodes": [{"id": i, **asdict(n)} for i, n in enumerate(result.nodes)],
        "steps": [asdict(s) for s in result.steps],
        "memory": [{**asdict(m), "n_own": m.n_own} for m in result.memory],
        "cells": [asdict(c) for c in result.cells],
        "n_ctx": result.n_ctx, "bytes_per_cell": result.bytes_per_cell, "seconds": round(result.seconds, 4),
        "notices": [str(n) for n in result.notices], "steering": result.steering,
    }


def run_beams(args: argparse.Namespace, request: GenerateRequest) -> int:
    """cmd_generate with --beams (or --length-penalty): validated before any engine starts."""
    from logitscope.cli.common import EXIT_INTERRUPTED, CtrlC, load_settings, resolve_model, stop_signals
    from logitscope.cli.steering_options import steering_line
    from logitscope.gguf.card import read_model_card
    from logitscope.host.client import CancelledError, EngineClient

    if args.beams is None:
        raise InvalidSettingsError("--length-penalty needs --beams N")
    beam_request = BeamRequest(request, args.beams,
                               DEFAULT_LENGTH_PENALTY if args.length_penalty is None else args.length_penalty)
    beam_request.validate()
    if args.stop or args.top:
        raise InvalidSettingsError("--stop and --top do not apply to --beams (beams end at the end of the text)")
    if args.draft:
        raise InvalidSettingsError("--draft does not apply to --beams (beam search verifies no drafts)")
    settings = request.settings
    if settings.grammar or settings.json_schema or settings.logit_bias:
        raise InvalidSettingsError("--grammar, --json-schema and --logit-bias do not apply to --beams (beams rank "
                                   "the model's own probabilities)")
    if args.explain:
        raise InvalidSettingsError("--explain does not apply to --beams (the diagnosis reads one sampled answer)")
    if request.options.reasoning_budget != UNLIMITED:
        raise InvalidSettingsError("--reasoning-budget does not apply to --beams (beams do not close a thinking "
                                   "block)")
    if args.engine is not None:
        raise UnsupportedByServerError("--beams needs a local model: a remote server cannot keep hypotheses "
                                       "in llama.cpp sequences")
    path = resolve_model(args.model)
    read_model_card(path)
    client = EngineClient()
    with contextlib.closing(client):
        info = client.load(str(path), load_settings(args))
        for notice in info.notices:
            print(f"warning: {notice}", file=sys.stderr)
        progress = ProgressLine(sys.stderr) if sys.stderr.isatty() else None
        try:
            with stop_signals(CtrlC(client)):
                result = client.beam_search(beam_request, on_progress=progress)
        except CancelledError:
            return EXIT_INTERRUPTED
        finally:
            if progress is not None:
                progress.erase()
    stopped = EXIT_INTERRUPTED if result.cancelled else 0  # Ctrl+C mid-search: the beams so far, but not an answer
    if args.json:
        sys.stdout.write(dumps(beam_result_to_json(result)) + "\n")   # strict JSON: a NaN is null
        return stopped
    win = result.winner
    sys.stdout.write(win.text + "\n")
    err = sys.stderr
    for notice in result.notices:
        print(f"note: {notice}", file=err)
    print(f"[{win.finish}] {result.n_beams} beams, length penalty {result.length_penalty:g}: score {win.score:.4f} "
          f"(log-prob {win.logprob:.3f} over {win.length} tokens); {len(result.steps)} steps in "
          f"{result.seconds:.2f} s", file=err)
    if result.steering is not None:
        print(steering_line(result.steering), file=err)
    for rank, h in enumerate(result.hypotheses):
        print(f"  {rank + 1:>2}. {h.score:9.4f} {h.logprob:9.3f} {h.length:>4} {h.finish:<9} {h.text!r}", file=err)
    last = result.steps[-1]
    mib = result.bytes_per_cell / (1 << 20)
    print(f"KV cells at the last step: {last.n_cells} shared ({last.n_cells * mib:.2f} MiB) instead of "
          f"{last.n_cells_unshared} with a copy per beam ({last.n_cells_unshared * mib:.2f} MiB)", file=err)
    for m in result.memory:
        print(f"  beam in seq {m.seq}: {m.n_cells} cells, {m.n_shared} shared, {m.n_own} its own "
              f"({m.n_own * mib:.2f} MiB)", file=err)
    return stopped
