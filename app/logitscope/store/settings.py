"""Settings: typed, described, versioned, in one JSON file in the data folder, saved atomically.

settings.json holds three sections:
- "app": AppSettings (theme, language, default sampler preset, models folders, last model);
- "load_settings": per model file (absolute path), the engine's LoadSettings as a dict;
- "sampler_presets": the user's own sampler presets by name (the built-ins are engine.sampler.PRESETS);
- "system_prompts": the user's own system prompt presets, name -> text (the built-ins are SYSTEM_PROMPTS).

Reading never fails and never loses what the user had:
- an invalid value falls back to its default with a notice; only that field: a saved preset or a
  model's load settings with one bad value keep their other values;
- an unknown key is ignored with a notice;
- a file that cannot be read at all (not JSON, nested too deeply, too large, a pipe or a device, a newer
  schema) is moved aside (settings.json.broken-<time>);
- before a file with ignored parts is rewritten (by `repair()`, which the window calls at start-up, or
  by the first change saved), it is copied to settings.json.bak-<time>, never over an earlier backup, and
  a notice names the copy.
`notices` holds one line for the user per problem: the CLI prints them as warnings, the window shows them
once (after its repair the file is clean). Every change is saved at once.
"""

from __future__ import annotations

import json
import math
import types
import typing
from dataclasses import MISSING, Field, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.base.paths import data_dir
from logitscope.base.reading import TooLargeError, read_bounded
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.sampler_settings import LEGACY_ORDERS, PRESETS, SamplerSettings, sampler_name
from logitscope.store.files import atomic_write_text, copy_aside, move_aside

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

SETTINGS_FILE = "settings.json"
BACKUP_TAG = "bak"       # settings.json.bak-<YYYYmmdd-HHMMSS>: the file as it was before a lossy rewrite
SETTINGS_SCHEMA = 1
MAX_SETTINGS_BYTES = 16 << 20   # presets, prompts and load settings: a larger file is not ours
# Built-in system prompt presets, kept few; keys are Messages (stored as the English name) so the window
# shows them translated. The texts stay English: they are what the model reads.
SYSTEM_PROMPTS: dict[str, str] = {
    Message("Helpful assistant"): "You are a helpful assistant.",
    Message("Concise"): "You are a helpful assistant. Answer briefly and to the point, without preamble.",
}

T = TypeVar("T", bound="DataclassInstance")


@dataclass(frozen=True)
class AppSettings:
    theme: str = field(default="system", metadata={
        "description": "Colour theme: follow the system, or always light or dark.",
        "choices": ("system", "light", "dark")})
    language: str = field(default="system", metadata={
        "description": "Language of the interface: follow the system, English or Simplified Chinese.",
        "choices": ("system", "en", "zh_CN")})
    sampler_preset: str = field(default="Balanced", metadata={
        "description": "Sampler preset for new conversations: a built-in one or one the user saved."})
    models_folders: tuple[str, ...] = field(default=(), metadata={
        "description": "Extra folders searched for GGUF models (the data folder's models/ always is)."})
    last_model_path: str | None = field(default=None, metadata={
        "description": "The model loaded last, loaded again at start-up."})
    draft_model_path: str | None = field(default=None, metadata={
        "description": "The draft model for speculative decoding chosen last in the window (offered there again)."})


def describe(cls: type = AppSettings) -> dict[str, str]:
    """Each field's description, by field name (for a settings dialog or documentation)."""
    return {f.name: f.metadata["description"] for f in fields(cls)}


class SettingsStore:
    """Open with `SettingsStore()` (the data folder's settings.json) or `SettingsStore(path)`.

    `app`: the AppSettings (frozen; change them with `update_app`). `notices`: one-line messages for the
    user about values that were ignored while reading."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else data_dir() / SETTINGS_FILE
        self.notices: list[str] = []
        raw = self._read_file()
        self.app = _typed(AppSettings, _section(raw, "app", self.notices), "settings", self.notices)
        self._load_settings: dict[str, LoadSettings] = {}
        for key, value in _section(raw, "load_settings", self.notices).items():
            settings = _checked(LoadSettings, value, f"load settings for {key}", self.notices)
            if settings is not None:
                self._load_settings[key] = settings
        self._presets: dict[str, SamplerSettings] = {}
        for name, value in _section(raw, "sampler_presets", self.notices).items():
            if name in PRESETS:
                self.notices.append(Message("settings: a saved preset named {name!r} hides a "
                                            "built-in one; ignored", name=name))
                continue
            where = f"sampler preset {name!r}"
            preset = _checked(SamplerSettings, _preset_values(value, where, self.notices), where, self.notices)
            if preset is not None:
                self._presets[name] = preset
        self._system_prompts = _system_prompts(_section(raw, "system_prompts", self.notices), self.notices)
        if self.app.sampler_preset not in self.presets():
            self.notices.append(Message("settings: there is no sampler preset "
                                        "{sampler_preset!r}; using 'Balanced'", sampler_preset=self.app.sampler_preset))
            self.app = replace(self.app, sampler_preset="Balanced")
        # Something in the file was ignored: keep a copy before the first rewrite drops it.
        self._backup_due = bool(self.notices) and self.path.exists()

    def _read_file(self) -> dict[str, Any]:
        if not self.path.exists():
            return {}
        try:  # bounded: a settings.json that is a link to /dev/zero or a pipe is set aside, not read
            raw = json.loads(read_bounded(self.path, MAX_SETTINGS_BYTES).decode("utf-8"))
            if not isinstance(raw, dict):
                raise ValueError("not a JSON object")
            schema = raw.get("schema")
            if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
                raise ValueError("no schema version")
        except TooLargeError:
            return self._set_aside("broken", f"it is larger than {MAX_SETTINGS_BYTES >> 20} MiB")
        except OSError as exc:
            return self._set_aside("broken", f"it cannot be read ({exc.strerror or exc})")
        except RecursionError:
            return self._set_aside("broken", "it is nested too deeply")
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            return self._set_aside("broken", f"it cannot be read ({exc})")
        if schema > SETTINGS_SCHEMA:
            return self._set_aside("newer", f"it was written by a newer Logitscope (schema {schema})")
        return raw

    def _set_aside(self, tag: str, reason: str) -> dict[str, Any]:
        try:
            aside = move_aside(self.path, tag)
            self.notices.append(Message("settings: {path_name} was not used because {reason}; it "
                                        "was kept as {aside_name} and the defaults are used", path_name=self.path.name, reason=reason, aside_name=aside.name))
        except OSError as exc:
            self.notices.append(Message("settings: {path_name} was not used because {reason} "
                                        "({exc}); the defaults are used", path_name=self.path.name, reason=reason, exc=exc))
        return {}

    def repair(self) -> None:
        """Rewrite a file that had ignored parts without them, after a backup (see the module's
        docstring), so that its notices are shown once. Nothing to do for a clean file. A failure is a
        notice, never an error: the settings in memory are usable anyway."""
        if not self._backup_due:
            return
        try:
            self.save()
        except OSError as exc:
            self.notices.append(Message("settings: {path_name} could not be repaired ({exc}); it "
                                        "is used as it is", path_name=self.path.name, exc=exc.strerror or exc))

    def save(self) -> None:
        if self._backup_due:  # never rewrite a file with ignored parts without a copy of it
            backup = copy_aside(self.path, BACKUP_TAG)
            self._backup_due = False
            self.notices.append(Message("settings: {path_name} was rewritten without what was "
                                        "ignored; the file as it was is kept as {backup_name}", path_name=self.path.name, backup_name=backup.name))
        data = {
            "schema": SETTINGS_SCHEMA,
            "app": {f.name: _plain(getattr(self.app, f.name)) for f in fields(AppSettings)},
            "load_settings": {key: s.to_dict() for key, s in sorted(self._load_settings.items())},
            "sampler_presets": {name: s.to_dict() for name, s in self._presets.items()},
            "system_prompts": dict(self._system_prompts),
        }
        atomic_write_text(self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    # -- app settings ------------------------------------------------------------------------------
    def update_app(self, **changes: Any) -> AppSettings:
        """Change some app settings (checked like the file: InvalidSettingsError on a bad value); saved."""
        known = {f.name: f for f in fields(AppSettings)}
        hints = typing.get_type_hints(AppSettings)
        checked = {}
        for name, value in changes.items():
            if name not in known:
                raise InvalidSettingsError("there is no setting {name!r}", name=name)
            try:
                checked[name] = _field_value(known[name], hints[name], value)
            except ValueError as exc:
                raise InvalidSettingsError("{name} cannot be {value!r}: {exc}", name=name, value=value, exc=exc) from None
        new = replace(self.app, **checked)
        if new.sampler_preset not in self.presets():
            raise InvalidSettingsError("there is no sampler preset {sampler_preset!r}", sampler_preset=new.sampler_preset)
        self.app = new
        self.save()
        return new

    # -- per-model load settings -------------------------------------------------------------------
    def load_settings_for(self, model_path: str | Path) -> LoadSettings | None:
        """The load settings last used with this model file, or None."""
        return self._load_settings.get(_model_key(model_path))

    def remember_load_settings(self, model_path: str | Path, settings: LoadSettings) -> None:
        settings.validate()
        self._load_settings[_model_key(model_path)] = settings
        self.save()

    # -- sampler presets ---------------------------------------------------------------------------
    def presets(self) -> dict[str, SamplerSettings]:
        """Built-in presets first, then the user's, in the order saved."""
        return {**PRESETS, **self._presets}

    def user_presets(self) -> dict[str, SamplerSettings]:
        return dict(self._presets)

    def preset(self, name: str) -> SamplerSettings:
        try:
            return self.presets()[name]
        except KeyError:
            raise InvalidSettingsError("there is no sampler preset {name!r}", name=name) from None

    def save_preset(self, name: str, settings: SamplerSettings) -> None:
        """Save (or replace) a user preset. Built-in names are taken."""
        name = name.strip()
        if not name:
            raise InvalidSettingsError("a preset needs a name")
        if name in PRESETS:
            raise InvalidSettingsError("{name!r} is a built-in preset; choose another name", name=name)
        settings.validate()
        self._presets[name] = settings
        self.save()

    def delete_preset(self, name: str) -> None:
        if name in PRESETS:
            raise InvalidSettingsError("{name!r} is a built-in preset and cannot be deleted", name=name)
        if name not in self._presets:
            raise InvalidSettingsError("there is no saved preset {name!r}", name=name)
        del self._presets[name]
        if self.app.sampler_preset == name:
            self.app = replace(self.app, sampler_preset="Balanced")
        self.save()


    # -- system prompt presets ---------------------------------------------------------------------
    def system_prompts(self) -> dict[str, str]:
        """Built-in system prompts first, then the user's, in the order saved: name -> text."""
        return {**SYSTEM_PROMPTS, **self._system_prompts}

    def user_system_prompts(self) -> dict[str, str]:
        return dict(self._system_prompts)

    def save_system_prompt(self, name: str, text: str) -> str:
        """Save (or replace) a system prompt of the user's; returns the name as saved (stripped)."""
        name = _own_name(name)
        self._system_prompts[name] = text
        self.save()
        return name

    def rename_system_prompt(self, old: str, new: str) -> str:
        """Rename a saved system prompt in place (its position in the list kept); returns the new name."""
        if old in SYSTEM_PROMPTS:
            raise InvalidSettingsError("{name!r} is a built-in preset and cannot be renamed", name=old)
        if old not in self._system_prompts:
            raise InvalidSettingsError("there is no saved preset {name!r}", name=old)
        new = _own_name(new)
        if new != old and new in self._system_prompts:
            raise InvalidSettingsError("a preset named {name!r} already exists", name=new)
        self._system_prompts = {new if key == old else key: text for key, text in self._system_prompts.items()}
        self.save()
        return new

    def delete_system_prompt(self, name: str) -> None:
        if name in SYSTEM_PROMPTS:
            raise InvalidSettingsError("{name!r} is a built-in preset and cannot be deleted", name=name)
        if name not in self._system_prompts:
            raise InvalidSettingsError("there is no saved preset {name!r}", name=name)
        del self._system_prompts[name]
        self.save()


def read_sampler_settings(values: Any, where: str, notices: list[str]) -> SamplerSettings | None:
    """Sampler settings kept elsewhere (a conversation's own), read as a saved preset is: a bad value falls
    back to its default, with a notice; None (with a notice) when nothing usable is there."""
    return _checked(SamplerSettings, _preset_values(values, where, notices), where, notices)


def _own_name(name: str) -> str:
    """A name for a preset of the user's: stripped, not empty, not a built-in one."""
    name = name.strip()
    if not name:
        raise InvalidSettingsError("a preset needs a name")
    if name in SYSTEM_PROMPTS:
        raise InvalidSettingsError("{name!r} is a built-in preset; choose another name", name=name)
    return name


def _system_prompts(section: dict[str, Any], notices: list[str]) -> dict[str, str]:
    """The user's system prompts as saved: each one that is not a named text is left out, with a notice."""
    prompts: dict[str, str] = {}
    for name, text in section.items():
        if not name.strip() or name in SYSTEM_PROMPTS:
            notices.append(Message("settings: a saved system prompt named {name!r} has no name of its own "
                                   "(empty, or a built-in one's); ignored", name=name))
        elif not isinstance(text, str):
            notices.append(Message("settings: the system prompt {name!r} is not a text; ignored", name=name))
        else:
            prompts[name.strip()] = text
    return prompts


# -- reading typed values --------------------------------------------------------------------------

def _model_key(model_path: str | Path) -> str:
    return str(Path(model_path).expanduser().resolve())


def _section(raw: dict[str, Any], name: str, notices: list[str]) -> dict[str, Any]:
    value = raw.get(name, {})
    if not isinstance(value, dict):
        notices.append(Message("settings: the {name!r} section is not an object; ignored", name=name))
        return {}
    return value


def _typed(cls: type[T], values: Any, where: str, notices: list[str]) -> T:
    """An instance of dataclass `cls` from `values`: each field that is missing, unknown or of the wrong
    type (or not among its "choices") keeps its default, with a notice."""
    if not isinstance(values, dict):
        notices.append(Message("{where}: not an object; the defaults are used", where=where))
        return cls()
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in fields(cls)}
    accepted: dict[str, Any] = {}
    for name, value in values.items():
        if name not in known:
            notices.append(Message("{where}: unknown setting {name!r} ignored", where=where, name=name))
            continue
        try:
            accepted[name] = _field_value(known[name], hints[name], value)
        except ValueError as exc:
            default = known[name].default if known[name].default is not MISSING else None
            notices.append(Message("{where}: {name} = {value!r} is invalid ({exc}); using "
                                   "{default!r}", where=where, name=name, value=value, exc=exc, default=default))
    return cls(**accepted)


def _field_value(f: Field[Any], hint: Any, value: Any) -> Any:
    value = _coerce(value, hint)
    choices = f.metadata.get("choices")
    if choices and value not in choices:
        raise ValueError(f"not one of {', '.join(choices)}")
    return value


def _checked(cls: type[T], values: Any, where: str, notices: list[str]) -> T | None:
    """Like `_typed`, then the class's own validate(). A field that validate() refuses on its own (with
    every other field at its default) goes back to its default, with a notice; the others are kept.
    None (with a notice) only if the values are valid one by one but not together."""
    if not isinstance(values, dict):
        notices.append(Message("settings: {where} is not an object; ignored", where=where))
        return None
    obj = _typed(cls, values, f"settings: {where}", notices)
    if _refusal(obj) is None:
        return obj
    default = cls()
    fixes = {}
    for f in fields(cls):
        value, fallback = getattr(obj, f.name), getattr(default, f.name)
        refused = _refusal(replace(default, **{f.name: value})) if value != fallback else None
        if refused is not None:
            fixes[f.name] = fallback
            notices.append(Message("settings: {where}: {f_name} = {value!r} is invalid "
                                   "({refused}); using {fallback!r}", where=where, f_name=f.name, value=value, refused=refused, fallback=fallback))
    obj = replace(obj, **fixes)
    refused = _refusal(obj)
    if refused is not None:
        notices.append(Message("settings: {where} ignored: {refused}", where=where, refused=refused))
        return None
    return obj


def _preset_values(values: Any, where: str, notices: list[str]) -> Any:
    """A saved preset in today's form: the `order` of a preset saved before the `samplers` chain becomes
    that chain (an unknown one is reported, and the default chain used); sampler names may be spelled
    as llama.cpp allows."""
    if not isinstance(values, dict):
        return values
    values = dict(values)
    order = values.pop("order", None)
    if order is not None and "samplers" not in values:
        if isinstance(order, str) and order in LEGACY_ORDERS:
            values["samplers"] = list(LEGACY_ORDERS[order])
        else:
            notices.append(Message("settings: {where}: {f_name} = {value!r} is invalid ({refused}); using "
                                   "{fallback!r}", where=where, f_name="order", value=order,
                                   refused=f"not one of {', '.join(LEGACY_ORDERS)}", fallback=next(iter(LEGACY_ORDERS))))
    samplers = values.get("samplers")
    if isinstance(samplers, list) and all(isinstance(n, str) for n in samplers):
        try:
            values["samplers"] = [sampler_name(n) for n in samplers]
        except InvalidSettingsError:
            pass  # validate() reports it
    return values


def _refusal(obj: Any) -> str | None:
    """Why obj.validate() refuses `obj`, or None if it accepts it."""
    try:
        obj.validate()
    except InvalidSettingsError as exc:
        return str(exc)
    return None


def _coerce(value: Any, hint: Any) -> Any:
    """`value` as type `hint` (str, int, float, bool, X | None, tuple[X, ...]), or ValueError."""
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        problems = []
        for option in (h for h in options if h is not type(None)):  # the first type that fits
            try:
                return _coerce(value, option)
            except ValueError as exc:
                problems.append(str(exc))
        raise ValueError(" or ".join(problems))
    if typing.get_origin(hint) is tuple:
        if not isinstance(value, list | tuple):
            raise ValueError("expected a list")
        items = typing.get_args(hint)
        if len(items) == 2 and items[1] is Ellipsis:
            return tuple(_coerce(item, items[0]) for item in value)
        if len(value) != len(items):  # a fixed-size tuple, e.g. a logit bias (token, bias)
            raise ValueError(f"expected a list of {len(items)}")
        return tuple(_coerce(item, h) for item, h in zip(value, items, strict=True))
    if hint is float and value == "-inf":  # to_dict's form of a banning logit bias: JSON has no infinity
        return -math.inf
    if hint is float and isinstance(value, int | float) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise ValueError("expected a finite number")
        return float(value)
    if hint in (str, int, bool) and isinstance(value, hint) and (hint is bool or not isinstance(value, bool)):
        return value
    raise ValueError(f"expected {getattr(hint, '__name__', hint)}")


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
