"""RAM and VRAM probing (real /proc/meminfo, a real executable standing in for nvidia-smi) and fit verdicts."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from logitscope.gguf.card import read_model_card
from logitscope.gguf.memory import estimate, format_bytes, value_cache_type
from logitscope.library.fit import (
    FITS_SHARE,
    VRAM_RESERVE,
    assess_fit,
    need_for_card,
    need_for_download,
)
from logitscope.system import machine as machine_mod
from logitscope.system.machine import GpuMemory, MachineMemory, parse_meminfo, probe_machine

GIB = 1 << 30
MEMINFO = "MemTotal:       16318112 kB\nMemFree:          901234 kB\nMemAvailable:    9876543 kB\nBuffers: 1 kB\n"


def executable(path: Path, script: str) -> str:
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.fixture(scope="module")
def card(demo_model):
    return read_model_card(demo_model)


def test_meminfo_is_parsed_in_bytes(tmp_path):
    assert parse_meminfo(MEMINFO) == (16318112 * 1024, 9876543 * 1024)
    (tmp_path / "meminfo").write_text(MEMINFO)
    m = probe_machine(tmp_path / "meminfo", nvidia_smi=None)
    assert (m.ram_total, m.ram_available, m.gpus, m.vram_free) == (16318112 * 1024, 9876543 * 1024, (), None)


def test_this_machine_has_plausible_ram():
    m = probe_machine(nvidia_smi=None)
    assert m.ram_total and m.ram_total > 256 << 20
    assert m.ram_available is not None and 0 < m.ram_available <= m.ram_total


def test_missing_meminfo_falls_back_to_sysconf(tmp_path):
    m = probe_machine(tmp_path / "nope", nvidia_smi=None)
    assert m.ram_total and m.ram_total > 256 << 20


def test_vram_from_nvidia_smi(tmp_path):
    smi = executable(tmp_path / "nvidia-smi", """
case "$*" in *"--query-gpu=name,memory.total,memory.free --format=csv,noheader,nounits"*) ;; *) exit 3;; esac
echo "NVIDIA H200, 143771, 140000"
echo "NVIDIA GeForce RTX 4090, 24564, 100"
""")
    m = probe_machine(nvidia_smi=smi)
    assert m.gpus == (GpuMemory("NVIDIA H200", 143771 << 20, 140000 << 20),
                      GpuMemory("NVIDIA GeForce RTX 4090", 24564 << 20, 100 << 20))
    assert (m.vram_total, m.vram_free) == ((143771 + 24564) << 20, (140000 + 100) << 20)


@pytest.mark.parametrize("script", ["exit 9", "echo 'No devices were found'", "echo 'GPU, [N/A], [N/A]'"])
def test_a_failing_nvidia_smi_means_unknown_vram(tmp_path, script):
    m = probe_machine(nvidia_smi=executable(tmp_path / "nvidia-smi", script))
    assert m.gpus == () and m.vram_free is None and m.ram_total


def test_a_hung_or_missing_nvidia_smi_means_unknown_vram(tmp_path, monkeypatch):
    monkeypatch.setattr(machine_mod, "NVIDIA_SMI_TIMEOUT_S", 0.3)
    assert probe_machine(nvidia_smi=executable(tmp_path / "nvidia-smi", "exec sleep 30")).gpus == ()
    assert probe_machine(nvidia_smi=str(tmp_path / "not-there")).gpus == ()


def test_fits_with_the_numbers(card):
    need = need_for_card(card, 4096)
    assert need.total_bytes == need.weights_bytes + need.kv_bytes + need.compute_bytes
    assert need.weights_bytes == card.weights_bytes and need.n_layer == card.n_layer == 30 and need.exact
    v = assess_fit(need, MachineMemory(16 * GIB, 8 * GIB))
    assert v.verdict == "fits" and v.ram_needed == need.total_bytes
    assert v.summary.startswith(f"fits: needs {format_bytes(need.total_bytes)} (weights ")
    assert "at 4096 tokens" in v.summary and "8.00 GiB free of 16.00 GiB" in v.summary
    assert "VRAM: unknown" in v.summary and v.gpu_layers is None


def test_more_context_needs_more_kv_cache(card):
    assert need_for_card(card, 8192).kv_bytes == 2 * need_for_card(card, 4096).kv_bytes


def test_the_verdict_counts_the_kv_cache_the_load_dialog_estimates(card):
    """A quantized K cache without flash attention keeps V at f16: the fit verdict counts that V cache, as the
    dialog's estimate does (it counted both at the quantized size)."""
    type_v = value_cache_type("q4_0", flash_attn=False)
    assert type_v == "f16"
    need = need_for_card(card, 4096, "q4_0", type_v)
    assert need.kv_bytes == estimate(card, 4096, "q4_0", "f16").kv_bytes
    assert need_for_card(card, 4096, "q4_0", "q4_0").kv_bytes < need.kv_bytes < need_for_card(card, 4096).kv_bytes


def test_tight_and_does_not_fit(card):
    need = need_for_card(card, 4096)
    total = need.total_bytes
    tight_free = assess_fit(need, MachineMemory(64 * GIB, int(total / 0.9)))        # < 20 % headroom
    assert tight_free.verdict == "tight" and total > FITS_SHARE * tight_free.ram_available
    busy = assess_fit(need, MachineMemory(2 * total, total // 2))                    # others hold the RAM
    assert busy.verdict == "tight" and "close other programs" in busy.summary
    small = assess_fit(need, MachineMemory(total, total // 2))
    assert small.verdict == "does not fit" and small.summary.startswith("does not fit: needs")
    assert assess_fit(need, MachineMemory(None, None)).verdict == "unknown"


def test_gpu_layers(card):
    need = need_for_card(card, 4096)
    per_layer = (need.weights_bytes + need.kv_bytes) / need.n_layer
    small_ram = MachineMemory(need.total_bytes // 2, need.total_bytes // 4)

    def gpu(free: float) -> MachineMemory:
        return MachineMemory(small_ram.ram_total, small_ram.ram_available, (GpuMemory("gpu", 80 * GIB, int(free)),))

    whole = assess_fit(need, gpu(need.total_bytes + VRAM_RESERVE))
    assert whole.all_on_gpu and whole.gpu_layers == 30 and whole.ram_needed == 0 and whole.verdict == "fits"
    assert "all 30 layers fit" in whole.summary
    part = assess_fit(need, gpu(VRAM_RESERVE + need.compute_bytes + 10.5 * per_layer))
    assert part.gpu_layers == 10 and not part.all_on_gpu
    assert "10 of 30 layers fit" in part.summary
    assert part.ram_needed == need.total_bytes - round(10 * per_layer) - need.compute_bytes
    none = assess_fit(need, gpu(VRAM_RESERVE // 2))
    assert none.gpu_layers == 0 and none.ram_needed == need.total_bytes and none.verdict == "does not fit"
    cpu_build = assess_fit(need, gpu(need.total_bytes + VRAM_RESERVE), use_gpu=False)
    assert cpu_build.gpu_layers == 30 and cpu_build.ram_needed == need.total_bytes
    assert cpu_build.verdict == "does not fit"


def test_hub_files_get_an_estimate_from_their_size():
    need = need_for_download(4 * GIB, 4096)
    assert not need.exact and need.n_layer is None and need.weights_bytes == 4 * GIB
    assert abs(need_for_download(4 * GIB, 8192).kv_bytes - 2 * need.kv_bytes) <= 1
    v = assess_fit(need, MachineMemory(32 * GIB, 24 * GIB, (GpuMemory("gpu", 8 * GIB, 2 * GIB),)))
    assert v.verdict == "fits" and "estimated from the file size" in v.summary
    assert v.gpu_layers is None and "does not fit whole in 2.00 GiB free VRAM" in v.summary
    assert assess_fit(need, MachineMemory(4 * GIB, 3 * GIB)).verdict == "does not fit"
