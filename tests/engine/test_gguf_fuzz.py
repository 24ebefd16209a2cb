"""Property: whatever the bytes, the GGUF header reader returns a card or raises its clear error, fast.

Random mutations (counts, lengths, types and offsets set to edge values, byte flips, truncation) of two
valid seeds: a small llama GGUF from the gguf package's writer, and the real demo model's header (followed
by a hole up to its size, so the tensor data "exists"). For each: `read_model_card_with_problems` / `read_model_card` give a
ModelCard (strict-JSON serialisable) or a ModelFileError, never another exception; `logitscope info` prints
and exits 0 or 2; no example takes long or allocates much more than the file (lengths are bounded by it).
"""

from __future__ import annotations

import contextlib
import io
import json
import resource
import struct
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

import pytest
from gguf import GGUFValueType
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logitscope.base.errors import ModelFileError
from logitscope.cli.main import main
from logitscope.gguf.card import ModelCard, read_model_card_with_problems
from tests.helpers import gguf_corpus
from tests.helpers.small_ggufs import tiny_gguf

WIDTHS = {GGUFValueType.UINT8: 1, GGUFValueType.INT8: 1, GGUFValueType.UINT16: 2, GGUFValueType.INT16: 2,
          GGUFValueType.UINT32: 4, GGUFValueType.INT32: 4, GGUFValueType.FLOAT32: 4, GGUFValueType.BOOL: 1,
          GGUFValueType.UINT64: 8, GGUFValueType.INT64: 8, GGUFValueType.FLOAT64: 8}
FLOAT_BITS = [0x7FC00000, 0x7F800000, 0xFF800000, 0x7FF8000000000000, 0x7FF0000000000000]  # NaN, infinities
EDGE_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 31, 32, 33, 63, 64, 65, 255, 256, 511, 512, 513, 4096,
               1 << 16, (1 << 31) - 1, 1 << 31, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, (1 << 64) - 1,
               *FLOAT_BITS]
MAX_SECONDS = 2.0          # per example; a real parse of the demo header takes ~0.02 s
MAX_EXTRA_BYTES = 32 << 20  # allocation beyond the file's own size


SAME_WIDTH = [[t for t, w in WIDTHS.items() if w == width] for width in (1, 2, 4, 8)]  # types to swap in place


@dataclass(frozen=True)
class Seed:
    head: bytes                     # the bytes that get mutated: the whole header
    size: int                       # the file size (the rest is a hole)
    fields: list[tuple[int, int]]   # (position, width) of every count, length, type, value and offset
    scalars: list[tuple[int, int]]  # (position of the type, width of the value) of every scalar metadata value

    def __repr__(self) -> str:  # a failing example prints the seeds: not 1.8 MB of them
        return f"Seed({len(self.head):,} header bytes, file of {self.size:,} bytes)"


def header_fields(data: bytes) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
    """Walk a valid GGUF header: where each structural field and scalar value is, and where the header ends."""
    fields = [(4, 4), (8, 8), (16, 8)]
    scalars = []
    n_tensors, n_kv = struct.unpack_from("<QQ", data, 8)
    pos = 24

    def field(width: int) -> int:
        nonlocal pos
        fields.append((pos, width))
        value = int.from_bytes(data[pos:pos + width], "little")
        pos += width
        return value

    def string(record: bool = True) -> None:
        nonlocal pos
        if record:
            fields.append((pos, 8))
        pos += 8 + int.from_bytes(data[pos:pos + 8], "little")

    for _ in range(n_kv):
        string()
        vtype = GGUFValueType(field(4))
        if vtype == GGUFValueType.ARRAY:
            item, count = GGUFValueType(field(4)), field(8)
            for i in range(count):
                if item == GGUFValueType.STRING:
                    string(record=i < 3)  # the first few items of a vocabulary are enough
                else:
                    pos += WIDTHS[item]
        elif vtype == GGUFValueType.STRING:
            string()
        else:
            scalars.append((pos - 4, WIDTHS[vtype]))
            field(WIDTHS[vtype])
    for _ in range(n_tensors):
        string()
        for _ in range(field(4)):
            field(8)
        field(4)
        field(8)
    return fields, scalars, pos


def make_seed(path: Path) -> Seed:
    with path.open("rb") as fh:
        head = fh.read(gguf_corpus.HEADER_BYTES)
    fields, scalars, header_end = header_fields(head)
    return Seed(head[:header_end], path.stat().st_size, fields, scalars)


@pytest.fixture(scope="module")
def seeds(tmp_path_factory, demo_model) -> dict[str, Seed]:
    folder = tmp_path_factory.mktemp("seeds")
    return {"tiny": make_seed(tiny_gguf(folder / "tiny.gguf", n_layer=2)), "demo-header": make_seed(demo_model)}


@pytest.fixture(scope="module")
def target(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "mutant.gguf"


VALUE = st.sampled_from(EDGE_VALUES) | st.integers(0, (1 << 64) - 1)
ANY = st.integers(0, 10**9)
MUTATION = st.one_of(
    st.tuples(st.just("field"), ANY, VALUE, st.just(0)),   # a count, length, type, dimension or offset
    st.tuples(st.just("retype"), ANY, st.sampled_from(FLOAT_BITS) | VALUE, ANY),  # a value: another type too
    st.tuples(st.just("byte"), ANY, st.integers(0, 255), st.just(0)),
    st.tuples(st.just("truncate"), ANY, st.just(0), st.just(0)),
)


def _put(data: bytearray, pos: int, width: int, value: int) -> None:
    data[pos:pos + width] = (value & ((1 << 8 * width) - 1)).to_bytes(width, "little")


def mutate(seed: Seed, mutations: list[tuple[str, int, int, int]], path: Path) -> None:
    data, size = bytearray(seed.head), seed.size
    for kind, where, value, choice in mutations:
        if kind == "field":
            pos, width = seed.fields[where % len(seed.fields)]
            _put(data, pos, width, value)
        elif kind == "retype":  # same width, so the rest of the header still parses: int <-> float <-> bool
            pos, width = seed.scalars[where % len(seed.scalars)]
            types = SAME_WIDTH[width.bit_length() - 1]
            _put(data, pos, 4, types[choice % len(types)])
            _put(data, pos + 4, width, value)
        elif kind == "byte":
            data[where % len(data)] = value
        else:
            size = min(size, where % (seed.size + 1))
    with path.open("wb") as fh:
        fh.write(data[:size])
        fh.truncate(size)  # past the header: a hole, as if the tensor data were there


def check(path: Path, trace_memory: bool) -> None:
    """tracemalloc slows the vocabulary walk tenfold: traced on the small seed; the demo header is held to the
    process's peak memory instead (it must not rise by more than the bound)."""
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    if trace_memory:
        tracemalloc.start()
    start = time.monotonic()
    try:
        card: ModelCard | None = read_model_card_with_problems(path)
    except ModelFileError as exc:
        assert str(exc) and "\n" not in str(exc)
        card = None
    finally:
        elapsed = time.monotonic() - start
        peak = tracemalloc.get_traced_memory()[1] if trace_memory else \
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - peak_before
        tracemalloc.stop()
    assert elapsed < MAX_SECONDS, f"{elapsed:.2f} s"
    assert peak < path.stat().st_size + MAX_EXTRA_BYTES, f"peak {peak:,} bytes"
    if card is not None:
        assert isinstance(card, ModelCard)
        json.dumps(card.to_dict(), allow_nan=False)  # `info --json` stays strict JSON
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["info", "--model", str(path)])  # the user's view: read_model_card's verdict, printed
    assert rc == (0 if card is not None and not card.problems else 2), err.getvalue()
    assert rc == 0 or err.getvalue().count("error:") == 1


FUZZ = {"deadline": None, "derandomize": True, "database": None,
        "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]}
MUTATIONS = st.lists(MUTATION, min_size=1, max_size=4)


@pytest.mark.parametrize("seed_name", ["tiny", "demo-header"])
def test_unmutated_seeds_give_clean_cards(seeds, target, seed_name):
    mutate(seeds[seed_name], [], target)
    assert read_model_card_with_problems(target).problems == []
    check(target, trace_memory=True)


@settings(max_examples=300, **FUZZ)  # ~10 ms each
@given(mutations=MUTATIONS)
def test_mutated_small_gguf_gives_a_card_or_a_clear_error(seeds, target, mutations):
    mutate(seeds["tiny"], mutations, target)
    check(target, trace_memory=True)


@settings(max_examples=50, **FUZZ)  # ~0.1 s each: a 49,152-token vocabulary and 272 tensors, read twice
@given(mutations=MUTATIONS)
def test_mutated_demo_header_gives_a_card_or_a_clear_error(seeds, target, mutations):
    mutate(seeds["demo-header"], mutations, target)
    check(target, trace_memory=False)
