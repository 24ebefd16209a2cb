"""Whether an answer generated under a grammar or a JSON schema is what was asked for (no Qt).

- A JSON schema: the text must parse as JSON and validate against the schema (the `jsonschema` package).
- The ready JSON grammar: the text must parse as JSON.
- Any other grammar: llama.cpp's grammar sampler allowed every token, so the text fits it as far as it
  goes; it is complete only when the grammar let the answer end (finish "stop"), not when max tokens or
  the user cut it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import jsonschema

from logitscope.grammars import ready_grammar

JSON_GRAMMAR = ready_grammar("json")


@dataclass(frozen=True)
class Verdict:
    kind: str        # "valid_json", "valid_schema", "complete", "invalid_json", "invalid_schema", "bad_schema", "cut"
    detail: str = ""  # the parser's or validator's words (English, from the library), or ""

    @property
    def ok(self) -> bool:
        return self.kind in ("valid_json", "valid_schema", "complete")


def check_output(settings: dict[str, object], text: str, finish_reason: str) -> Verdict | None:
    """The verdict for an answer generated with `settings` (its recorded dict); None without a constraint."""
    grammar, schema_text = str(settings.get("grammar") or ""), str(settings.get("json_schema") or "")
    if not grammar and not schema_text:
        return None
    if schema_text or grammar == JSON_GRAMMAR:
        try:
            value = json.loads(text)
        except ValueError as exc:
            return Verdict("cut" if finish_reason != "stop" else "invalid_json", str(exc))
        if not schema_text:
            return Verdict("valid_json")
        try:
            schema = json.loads(schema_text)
            jsonschema.validate(value, schema)
        except jsonschema.ValidationError as exc:
            return Verdict("invalid_schema", exc.message)
        except (ValueError, jsonschema.SchemaError) as exc:
            return Verdict("bad_schema", str(exc).splitlines()[0])
        return Verdict("valid_schema")
    return Verdict("complete" if finish_reason == "stop" else "cut")
