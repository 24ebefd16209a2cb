"""Settings: typed defaults, tolerant reading, atomic saving, per-model load settings, sampler presets."""

from __future__ import annotations

import json
import math
import os
from dataclasses import fields
from pathlib import Path

import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.sampler_settings import LEGACY_ORDERS, PRESETS, SamplerSettings
from logitscope.store import settings as settings_module
from logitscope.store.settings import SETTINGS_SCHEMA, AppSettings, SettingsStore, describe


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "settings.json"


def write(path: Path, data: object) -> None:
    path.write_text(json.dumps(data), encoding="utf-8")


def test_defaults_without_a_file_and_every_field_described(path: Path):
    s = SettingsStore(path)
    assert s.app == AppSettings() and s.notices == [] and not path.exists()
    assert (s.app.theme, s.app.language, s.app.sampler_preset) == ("system", "system", "Balanced")
    descriptions = describe()
    assert set(descriptions) == {f.name for f in fields(AppSettings)}
    assert all(len(text) > 10 for text in descriptions.values())


def test_default_location_is_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("LOGITSCOPE_HOME", str(tmp_path / "home"))
    SettingsStore().update_app(theme="dark")
    assert json.loads((tmp_path / "home" / "settings.json").read_text())["app"]["theme"] == "dark"


def test_changes_are_saved_and_read_back(path: Path):
    s = SettingsStore(path)
    s.update_app(theme="dark", language="zh_CN", models_folders=["/models", "/more models"],
                 last_model_path="/models/a.gguf")
    again = SettingsStore(path)
    assert again.notices == []
    assert again.app == AppSettings("dark", "zh_CN", "Balanced", ("/models", "/more models"), "/models/a.gguf")
    data = json.loads(path.read_text())
    assert data["schema"] == SETTINGS_SCHEMA and data["app"]["models_folders"] == ["/models", "/more models"]


@pytest.mark.parametrize("changes, phrase", [
    ({"theme": "purple"}, "not one of system, light, dark"),
    ({"language": "fr"}, "not one of system, en, zh_CN"),
    ({"models_folders": "/models"}, "expected a list"),
    ({"last_model_path": 5}, "expected str"),
    ({"colour": "red"}, "no setting 'colour'"),
    ({"sampler_preset": "Nope"}, "no sampler preset 'Nope'"),
])
def test_bad_changes_are_refused_and_nothing_is_saved(path: Path, changes: dict, phrase: str):
    s = SettingsStore(path)
    with pytest.raises(InvalidSettingsError, match=phrase):
        s.update_app(**changes)
    assert s.app == AppSettings() and not path.exists()


def test_invalid_values_in_the_file_fall_back_to_defaults_with_notices(path: Path):
    write(path, {"schema": 1, "app": {"theme": "purple", "language": "en", "models_folders": ["/a", 3],
                                      "last_model_path": None, "sampler_preset": "Gone", "font": "Comic"}})
    s = SettingsStore(path)
    assert s.app == AppSettings(language="en")    # the valid value is kept
    text = "\n".join(s.notices)
    for phrase in ("theme = 'purple' is invalid", "models_folders", "unknown setting 'font'", "'Gone'"):
        assert phrase in text
    assert len(s.notices) == 4 and all("\n" not in n for n in s.notices)


@pytest.mark.parametrize("content, tag, phrase", [
    (b"{not json", "broken", "cannot be read"),
    (b"\xff\xfe garbage", "broken", "cannot be read"),
    (b"[1, 2, 3]", "broken", "not a JSON object"),
    (b'{"app": {}}', "broken", "no schema version"),
    (json.dumps({"schema": SETTINGS_SCHEMA + 1, "app": {"theme": "dark"}}).encode(), "newer", "newer Logitscope"),
])
def test_an_unreadable_file_is_kept_aside_and_the_defaults_used(path: Path, content: bytes, tag: str, phrase: str):
    path.write_bytes(content)
    s = SettingsStore(path)
    assert s.app == AppSettings()
    assert len(s.notices) == 1 and phrase in s.notices[0]
    (aside,) = path.parent.glob(f"settings.json.{tag}-*")
    assert aside.read_bytes() == content and aside.name in s.notices[0]
    s.update_app(theme="light")                    # saving does not overwrite what the user had
    assert aside.read_bytes() == content and SettingsStore(path).app.theme == "light"


@pytest.mark.parametrize("make, phrase", [
    (lambda p: p.symlink_to("/dev/zero"), "a character device, not a file"),
    (lambda p: os.mkfifo(p), "a named pipe, not a file"),
    (lambda p: p.write_bytes(b"[" * 100_000 + b"]" * 100_000), "nested too deeply"),
    (lambda p: p.write_bytes(b" " * (settings_module.MAX_SETTINGS_BYTES + 1)), "larger than"),
], ids=["link-to-dev-zero", "fifo", "deeply-nested", "too-large"])
def test_a_hostile_file_is_set_aside_without_hanging_and_the_defaults_used(path: Path, make, phrase: str):
    """A link to /dev/zero would be read without end, a pipe waited on forever: neither is read; both, like a
    JSON nested past Python's recursion limit, are set aside with one notice (the link itself is moved:
    /dev/zero is untouched)."""
    make(path)
    s = SettingsStore(path)
    assert s.app == AppSettings()
    assert len(s.notices) == 1 and phrase in s.notices[0] and "Errno" not in s.notices[0], s.notices
    (aside,) = path.parent.glob("settings.json.broken-*")
    assert aside.name in s.notices[0] and not os.path.lexists(path)
    s.update_app(theme="light")
    assert SettingsStore(path).app.theme == "light"


def test_saving_is_atomic(path: Path, monkeypatch: pytest.MonkeyPatch):
    s = SettingsStore(path)
    s.update_app(theme="dark")
    before = path.read_bytes()

    def crash(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)       # the process "dies" between writing and renaming
    with pytest.raises(OSError):
        s.update_app(theme="light")
    monkeypatch.undo()
    assert path.read_bytes() == before             # the old file, whole
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]  # no temporary file left
    assert SettingsStore(path).app.theme == "dark"


def test_load_settings_are_remembered_per_model_file(path: Path, tmp_path: Path):
    model = tmp_path / "models" / "a.gguf"
    s = SettingsStore(path)
    assert s.load_settings_for(model) is None
    chosen = LoadSettings(n_ctx=8192, n_gpu_layers=-1, type_k="q8_0", type_v="q8_0", flash_attn=True, n_threads=4)
    s.remember_load_settings(model, chosen)
    s.remember_load_settings(tmp_path / "b.gguf", LoadSettings(n_ctx=512))
    again = SettingsStore(path)
    assert again.load_settings_for(tmp_path / "models" / ".." / "models" / "a.gguf") == chosen  # same file
    assert again.load_settings_for(tmp_path / "b.gguf") == LoadSettings(n_ctx=512)
    with pytest.raises(InvalidSettingsError):
        s.remember_load_settings(model, LoadSettings(type_v="q8_0"))   # quantized V without flash attention


def test_invalid_load_settings_in_the_file(path: Path):
    good = LoadSettings(n_ctx=1024).to_dict()
    write(path, {"schema": 1, "load_settings": {
        "/m/good.gguf": good,
        "/m/typo.gguf": {**good, "n_ctx": "big", "turbo": True},     # bad field -> default, unknown ignored
        "/m/invalid.gguf": {**good, "type_v": "q8_0", "flash_attn": False},   # refused by validate()
        "/m/junk.gguf": [1, 2],
    }})
    s = SettingsStore(path)
    assert s.load_settings_for("/m/good.gguf") == LoadSettings(n_ctx=1024)
    assert s.load_settings_for("/m/typo.gguf") == LoadSettings()
    # only the field at fault goes back to its default: n_ctx stays
    assert s.load_settings_for("/m/invalid.gguf") == LoadSettings(n_ctx=1024)
    assert s.load_settings_for("/m/junk.gguf") is None
    assert len(s.notices) == 4 and "type_v = 'q8_0' is invalid (a quantized V cache needs flash attention on)" \
        in "\n".join(s.notices)


def test_sampler_presets(path: Path):
    s = SettingsStore(path)
    mine = SamplerSettings(temperature=0.5, top_k=20, seed=7)
    s.save_preset(" Mine ", mine)
    s.update_app(sampler_preset="Mine")
    again = SettingsStore(path)
    assert list(again.presets()) == [*PRESETS, "Mine"]
    assert again.preset("Mine") == mine and again.user_presets() == {"Mine": mine}
    assert again.app.sampler_preset == "Mine"
    with pytest.raises(InvalidSettingsError, match="built-in"):
        again.save_preset("Greedy", mine)
    with pytest.raises(InvalidSettingsError, match="built-in"):
        again.delete_preset("Balanced")
    with pytest.raises(InvalidSettingsError, match="must be >= 0"):
        again.save_preset("Bad", SamplerSettings(temperature=-1))
    again.delete_preset("Mine")
    assert again.app.sampler_preset == "Balanced"   # the default went with it
    assert SettingsStore(path).user_presets() == {} and SettingsStore(path).app.sampler_preset == "Balanced"
    with pytest.raises(InvalidSettingsError, match="no saved preset"):
        again.delete_preset("Mine")
    with pytest.raises(InvalidSettingsError, match="no sampler preset"):
        again.preset("Mine")


def test_invalid_presets_in_the_file(path: Path):
    write(path, {"schema": 1, "sampler_presets": {
        "Ok": {"temperature": 1, "top_k": 10},                 # an int where a float is expected is fine
        "Greedy": {"temperature": 0.5},                        # hides a built-in
        "Broken": {"temperature": -3},                         # refused by validate()
        "Weird": {"top_p": "high", "seed": 1.5},               # wrong types -> defaults
    }, "app": {"sampler_preset": "Ok"}})
    s = SettingsStore(path)
    assert s.preset("Ok") == SamplerSettings(temperature=1.0, top_k=10)
    assert s.preset("Greedy") == PRESETS["Greedy"]
    assert s.preset("Broken") == SamplerSettings() and s.preset("Weird") == SamplerSettings()
    assert s.app.sampler_preset == "Ok" and len(s.notices) == 4


def test_non_finite_numbers_are_invalid(path: Path):
    path.write_text('{"schema": 1, "sampler_presets": {"Inf": {"temperature": Infinity}}}')
    s = SettingsStore(path)
    assert s.preset("Inf") == SamplerSettings() and "expected a finite number" in s.notices[0]


def test_no_qt_and_no_llama_cpp_in_the_history_modules():
    import subprocess
    import sys
    code = ("import sys, logitscope.store, logitscope.cli.history; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'llama_cpp')]; sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
    assert settings_module.LoadSettings is LoadSettings  # settings does use the engine's own dataclass


def backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob("settings.json.bak-*"))


def test_a_preset_with_one_bad_value_keeps_the_others(path: Path):
    write(path, {"schema": 1, "sampler_presets": {"Mine": {"temperature": -3, "top_k": 10, "seed": 7,
                                                           "order": "backwards"}}})
    s = SettingsStore(path)
    assert s.preset("Mine") == SamplerSettings(top_k=10, seed=7)
    text = "\n".join(s.notices)
    assert "sampler preset 'Mine': temperature = -3.0 is invalid (temperature must be >= 0 (0 = greedy)); using 0.8" \
        in text and "order = 'backwards' is invalid" in text and len(s.notices) == 2


def test_a_preset_saved_with_an_order_reads_as_its_chain(path: Path):
    """Presets saved before the `samplers` chain named an order; read through the same migration."""
    write(path, {"schema": 1, "sampler_presets": {"First": {"temperature": 0.5, "order": "temperature_first"},
                                                  "Last": {"top_k": 5, "order": "temperature_last"},
                                                  "Aliases": {"samplers": ["top-k", "nucleus", "temp"]}}})
    s = SettingsStore(path)
    assert s.notices == []
    assert s.preset("First") == SamplerSettings(temperature=0.5, samplers=LEGACY_ORDERS["temperature_first"])
    assert s.preset("Last") == SamplerSettings(top_k=5)
    assert s.preset("Aliases").samplers == ("top_k", "top_p", "temperature")


def test_a_preset_with_every_new_setting_survives_saving_and_reading(path: Path):
    mine = SamplerSettings(samplers=("dry", "min_p", "xtc", "temperature"), min_keep=2, dry_multiplier=0.8,
                           dry_base=2.0, dry_sequence_breakers=("\n", "###"), xtc_probability=0.5, typical_p=0.9,
                           top_n_sigma=1.5, dynatemp_range=0.3, mirostat=2, mirostat_tau=4.0,
                           logit_bias=((15043, -math.inf), ("hello", 2.5)), grammar='root ::= "a"')
    SettingsStore(path).save_preset("Mine", mine)
    again = SettingsStore(path)
    assert again.notices == [] and again.preset("Mine") == mine
    assert json.loads(path.read_text())["sampler_presets"]["Mine"]["logit_bias"] == [[15043, "-inf"], ["hello", 2.5]]


@pytest.mark.parametrize("field, value, phrase", [
    ("logit_bias", [[15043]], "expected a list of 2"),
    ("logit_bias", [[1.5, 2]], "expected int or expected str"),
    ("logit_bias", [[3, "much"]], "expected float"),
    ("logit_bias", [[-3, 1.0]], "token id >= 0"),
    ("samplers", ["top_k", "warp"], "samplers must be distinct names"),
    ("dry_sequence_breakers", "\n", "expected a list"),
    ("mirostat", 3, "mirostat must be 0"),
])
def test_a_bad_new_setting_in_a_preset_keeps_the_others(path: Path, field: str, value: object, phrase: str):
    write(path, {"schema": 1, "sampler_presets": {"Mine": {"top_k": 10, field: value}}})
    s = SettingsStore(path)
    assert s.preset("Mine") == SamplerSettings(top_k=10)
    assert len(s.notices) == 1 and f"{field} = " in s.notices[0] and phrase in s.notices[0]


def test_a_file_with_ignored_parts_is_backed_up_before_a_change_rewrites_it(path: Path):
    original = {"schema": 1, "app": {"theme": "purple", "language": "en", "font": "Comic"},
                "sampler_presets": {"Mine": {"temperature": -3, "top_k": 10}}, "plugins": {"x": 1}}
    write(path, original)
    before = path.read_bytes()
    s = SettingsStore(path)
    assert not backups(path)                       # reading alone writes nothing
    s.update_app(theme="dark")
    (backup,) = backups(path)
    assert backup.read_bytes() == before           # what was ignored (the font, the bad value) is not lost
    assert f"kept as {backup.name}" in s.notices[-1]
    saved = json.loads(path.read_text())
    assert saved["app"]["language"] == "en" and saved["sampler_presets"]["Mine"]["top_k"] == 10
    s.update_app(theme="light")                    # later saves: the file is clean, no more backups
    assert backups(path) == [backup]


def test_repair_shows_the_notices_once_and_never_overwrites_an_earlier_backup(path: Path):
    write(path, {"schema": 1, "app": {"theme": "purple"}})
    first = SettingsStore(path)
    first.repair()
    assert len(backups(path)) == 1 and "kept as settings.json.bak-" in first.notices[-1]
    clean = SettingsStore(path)
    assert clean.notices == [] and clean.app == AppSettings()
    clean.repair()
    assert len(backups(path)) == 1                 # nothing to repair, nothing copied
    write(path, {"schema": 1, "app": {"theme": "orange"}})   # a second bad file within the same second
    SettingsStore(path).repair()
    olds = backups(path)
    assert len(olds) == 2 and [json.loads(p.read_text())["app"]["theme"] for p in olds] == ["purple", "orange"]


def test_repair_that_cannot_write_is_a_notice(path: Path, monkeypatch: pytest.MonkeyPatch):
    write(path, {"schema": 1, "app": {"theme": "purple"}})
    s = SettingsStore(path)

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(settings_module, "copy_aside", refuse)
    s.repair()
    assert "could not be repaired (Permission denied)" in s.notices[-1]
    assert json.loads(path.read_text())["app"]["theme"] == "purple"   # not rewritten without its backup
