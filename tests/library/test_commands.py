"""`logitscope models ...` through a real argparse parser: in-process, and once in a fresh process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from logitscope.base.errors import HubError, LibraryError
from logitscope.base.paths import models_dir
from logitscope.cli.main import build_parser

MAIN = """
import sys
from logitscope.cli.main import main
sys.exit(main(["models", *sys.argv[1:]]))
"""


def run(*argv: str) -> int:
    """`logitscope models ARGV` in this process; errors raise (the CLI would print them)."""
    args = build_parser().parse_args(["models", *argv])
    return int(args.run(args))


@pytest.fixture
def models(sealed, demo_model, gguf_files):
    (models_dir() / demo_model.name).symlink_to(demo_model)
    (models_dir() / "junk.gguf").write_bytes(b"GGUF" + b"\xff" * 40)
    extra = sealed / "extra"
    extra.mkdir()
    shutil.copyfile(gguf_files["tiny-q8"], extra / "tiny-Q8_0.gguf")
    return extra


def test_list_json(models, capsys):
    assert run("list", "--json", "--n-ctx", "2048", "--folder", str(models)) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n_ctx"] == 2048 and data["machine"]["ram_total"] > 0
    entries = {m["name"]: m for m in data["models"]}
    assert set(entries) == {"SmolLM2-135M-Instruct.Q4_1.gguf", "junk.gguf", "tiny-Q8_0.gguf"}
    demo = entries["SmolLM2-135M-Instruct.Q4_1.gguf"]
    assert demo["card"]["file_type"] == "Q4_1" and demo["fit"]["need"]["n_ctx"] == 2048 and demo["removable"]
    assert entries["tiny-Q8_0.gguf"]["source"] == "folder" and not entries["tiny-Q8_0.gguf"]["removable"]
    assert "unsupported GGUF version" in entries["junk.gguf"]["error"] and entries["junk.gguf"]["fit"] is None


def test_list_text(models, capsys):
    assert run("list") == 0
    out = capsys.readouterr().out
    assert "SmolLM2-135M-Instruct.Q4_1.gguf  [app]" in out and "Q4_1 5.74 bpw" in out
    assert "    fits: needs" in out or "    tight: needs" in out
    assert "junk.gguf  [app]" in out and "unsupported GGUF version" in out


def test_search_and_files(hub, gguf_files, capsys):
    assert run("search", "gguf", "--sort", "likes", "--json") == 0
    assert [r["repo_id"] for r in json.loads(capsys.readouterr().out)][:2] == ["test-org/Split-GGUF",
                                                                               "test-org/Tiny-GGUF"]
    assert run("search", "gated") == 0
    assert "test-org/Gated-GGUF" in (out := capsys.readouterr().out) and "gated" in out
    assert run("files", "test-org/Split-GGUF", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert {m["name"]: m["size_bytes"] for m in data["models"]} == {
        "big-F32.gguf": gguf_files["tiny-q8"].stat().st_size,
        "Q8_0/big-Q8_0-00001-of-00003.gguf": sum(gguf_files[f"split-{i}"].stat().st_size for i in (1, 2, 3))}
    assert run("files", "test-org/Split-GGUF") == 0
    out = capsys.readouterr().out
    assert "Q8_0/big-Q8_0-00001-of-00003.gguf" in out and "(3 parts)" in out and "Q8_0" in out


def test_pull_and_rm(hub, capsys):
    assert run("pull", "test-org/Tiny-GGUF", "tiny-Q4_K_M.gguf") == 0
    captured = capsys.readouterr()
    path = models_dir() / "test-org" / "Tiny-GGUF" / "tiny-Q4_K_M.gguf"
    assert captured.out.strip() == str(path) and path.is_file()
    assert "\rtiny-Q4_K_M.gguf  " in captured.err and "verified (SHA-256)" in captured.err
    assert run("rm", "test-org/Tiny-GGUF/tiny-Q4_K_M.gguf") == 0
    assert f"removed {path}" in capsys.readouterr().out and not path.exists()
    with pytest.raises(HubError, match="is gated"):
        run("pull", "test-org/Gated-GGUF", "tiny-Q4_K_M.gguf")


def test_rm_refuses_other_tools_files(models):
    lms = models.parent / "user" / ".lmstudio" / "models" / "pub" / "repo"
    lms.mkdir(parents=True)
    shutil.copyfile(models / "tiny-Q8_0.gguf", lms / "mine.gguf")
    with pytest.raises(LibraryError, match="never deletes other tools' files"):
        run("rm", "pub/repo/mine.gguf")
    assert (lms / "mine.gguf").exists()


def test_recommended_and_token(sealed, capsys):
    assert run("recommended") == 0
    out = capsys.readouterr().out
    assert "logitscope models pull Qwen/Qwen2.5-0.5B-Instruct-GGUF qwen2.5-0.5b-instruct-q4_k_m.gguf" in out
    assert "approximate" in out
    assert run("token", "status") == 0 and "no token set" in capsys.readouterr().out
    assert run("token", "set", "hf_abcdefgh12345678") == 0 and "token stored in" in capsys.readouterr().out
    assert run("token", "status") == 0 and "hf_...5678" in capsys.readouterr().out
    assert run("token", "clear") == 0 and run("token", "status") == 0
    assert capsys.readouterr().out.endswith("no token set\n")


def test_a_fresh_process_reads_hf_endpoint_at_import(hub, sealed):
    """HF_ENDPOINT set before huggingface_hub is imported, as a user would set it; exit codes and stderr."""
    env = dict(os.environ, HF_HOME=str(sealed / "hf-home"))
    cmd = [sys.executable, "-c", MAIN, "pull", "test-org/Tiny-GGUF", "tiny-Q8_0.gguf"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert Path(proc.stdout.strip()) == models_dir() / "test-org" / "Tiny-GGUF" / "tiny-Q8_0.gguf"
    assert "tiny-Q8_0.gguf" in proc.stderr and "verified" in proc.stderr
    proc = subprocess.run(cmd[:3] + ["pull", "test-org/Gated-GGUF", "tiny-Q4_K_M.gguf"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 2 and proc.stderr.splitlines()[0].startswith(   # one line, no blank line first
        "error: test-org/Gated-GGUF is gated: accept its licence on") and len(proc.stderr.splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_list_and_rm_use_the_folders_added_in_the_settings(models, capsys):
    """The window's Settings ▸ models folders are searched by the CLI too (no --folder needed)."""
    from logitscope.store.settings import SettingsStore

    SettingsStore().update_app(models_folders=[str(models)])
    assert run("list", "--json") == 0
    entries = {m["name"]: m for m in json.loads(capsys.readouterr().out)["models"]}
    assert entries["tiny-Q8_0.gguf"]["source"] == "folder"
    with pytest.raises(LibraryError, match="never deletes other tools' files"):  # found, and not deleted
        run("rm", "tiny-Q8_0.gguf")
    assert (models / "tiny-Q8_0.gguf").exists()


def test_list_prints_problems_in_the_settings_as_warnings(models, capsys):
    from logitscope.base.paths import data_dir

    (data_dir() / "settings.json").write_text(json.dumps(
        {"schema": 1, "app": {"theme": "purple", "models_folders": [str(models)]}}))
    assert run("list") == 0
    captured = capsys.readouterr()
    assert "tiny-Q8_0.gguf  [folder]" in captured.out
    assert captured.err.splitlines() == ["warning: settings: theme = 'purple' is invalid "
                                         "(not one of system, light, dark); using 'system'"]
    assert not list(data_dir().glob("settings.json.bak-*"))   # listing models does not rewrite the settings
