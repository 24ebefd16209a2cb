"""The sampler controls alone: every SamplerSettings field round-trips, the chain reorders by keyboard and
by drag and drop, Mirostat greys the chain, logit bias and DRY's breakers parse, unsupported settings grey."""

from __future__ import annotations

import math
import random
from dataclasses import fields

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtTest import QTest

from logitscope.base.errors import InvalidSettingsError
from logitscope.grammars import READY_GRAMMARS, ready_grammar
from logitscope.protocol.sampler_settings import CHAIN_STAGES, DEFAULT_SAMPLERS, PRESETS, SamplerSettings
from logitscope.ui.inspector.bias_table import parse_token, token_cell
from logitscope.ui.inspector.sampler_fields import FIELDS, breakers_text, parse_breakers


@pytest.fixture
def panel(qtbot):
    from logitscope.ui.inspector.sampler_controls import SamplerPanel

    p = SamplerPanel()
    qtbot.addWidget(p)
    return p


def random_settings(rng: random.Random) -> SamplerSettings:
    """Every field away from its default, on the controls' grid."""
    values: dict[str, object] = {}
    for name, (lo, hi, step, decimals) in FIELDS.items():
        steps = int(round((hi - lo) / step))
        value = lo + step * rng.randint(0, steps)
        values[name] = round(value, decimals) if decimals else int(round(value))
    samplers = list(CHAIN_STAGES)
    rng.shuffle(samplers)
    values["samplers"] = tuple(samplers[: rng.randint(1, len(samplers))])
    values["mirostat"] = rng.choice((0, 1, 2))
    values["dry_sequence_breakers"] = rng.choice((("\n", ":"), (",", " and ", "\\"), ()))
    values["logit_bias"] = ((rng.randint(0, 49_151), -math.inf), ("hello", round(rng.uniform(-5, 5), 2)),
                            ("42", 1.5), (" spaced", -2.0))
    values["seed"] = rng.randint(0, 2**31 - 1)
    grammar = rng.choice(["", ready_grammar("list"), 'root ::= "a" | "b"', "schema"])
    if grammar == "schema":
        values["json_schema"] = '{"type": "object", "properties": {"n": {"type": "integer"}}}'
    else:
        values["grammar"] = grammar
    return SamplerSettings(**values)  # type: ignore[arg-type]


def test_every_field_round_trips_for_presets_and_random_settings(panel):
    for preset in PRESETS.values():
        panel.set_settings(preset)
        assert panel.settings() == preset
    rng = random.Random(14)
    for _ in range(12):
        settings = random_settings(rng)
        settings.validate()
        panel.set_settings(settings)
        got = panel.settings()
        assert got == settings, [(f.name, getattr(got, f.name), getattr(settings, f.name))
                                 for f in fields(settings) if getattr(got, f.name) != getattr(settings, f.name)]
    # every field has a control: none left at its default by the random settings goes unseen
    assert {f.name for f in fields(SamplerSettings)} == set(FIELDS) | {
        "samplers", "mirostat", "dry_sequence_breakers", "logit_bias", "grammar", "json_schema", "seed"}


def test_each_preset_is_named_in_the_preset_box(panel):
    assert [panel.presets.itemData(i) for i in range(len(PRESETS))] == list(PRESETS)
    panel.select_preset("XTC creative")
    assert panel.settings() == PRESETS["XTC creative"] and "— on" in panel.sections["xtc"].header.text()
    panel.select_preset("JSON")
    assert panel.settings().grammar == ready_grammar("json")
    assert panel.constraint.current_mode() == "json" and panel.constraint.text.isReadOnly()


def test_alt_up_and_down_move_a_stage(qtbot, panel):
    chain = panel.chain
    chain.setCurrentRow(chain.names().index("temperature"))
    with qtbot.waitSignal(panel.settingsChanged) as emitted:
        QTest.keyClick(chain, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert emitted.args[0].samplers == ("penalties", "dry", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p",
                                        "temperature", "xtc")
    for _ in range(20):   # to the top, and no further
        QTest.keyClick(chain, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert panel.settings().samplers[0] == "temperature" and chain.currentRow() == 0
    QTest.keyClick(chain, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert panel.settings().samplers[:2] == ("penalties", "temperature")


def test_dropping_a_dragged_stage_reorders_the_chain(qtbot, panel):
    chain = panel.chain
    panel.show()
    qtbot.waitExposed(panel)
    source = chain.names().index("min_p")
    chain.setCurrentRow(source)
    mime = chain.model().mimeData([chain.model().index(source, 0)])
    target = chain.visualItemRect(chain.item(0)).center() - QPoint(0, chain.visualItemRect(chain.item(0)).height() // 3)
    drop = QDropEvent(target.toPointF(), Qt.DropAction.MoveAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(panel.settingsChanged) as emitted:
        chain.dropEvent(drop)
    assert emitted.args[0].samplers[0] == "min_p"
    assert sorted(emitted.args[0].samplers) == sorted(DEFAULT_SAMPLERS)
    assert isinstance(mime, QMimeData)


def test_unchecking_a_stage_leaves_it_out_and_reset_brings_llama_cpp_order(panel):
    item = panel.chain.item(panel.chain.names().index("top_k"))
    item.setCheckState(Qt.CheckState.Unchecked)
    assert "top_k" not in panel.settings().samplers
    panel.chain.setCurrentRow(panel.chain.names().index("xtc"))
    panel.chain.move_current(-3)
    panel.reset_order.click()
    assert panel.settings().samplers == DEFAULT_SAMPLERS


def test_mirostat_greys_the_chain_and_says_it_replaces_it(panel):
    panel.show()
    assert panel.chain.isEnabled() and not panel.mirostat_note.isVisible()
    panel.mirostat.setCurrentIndex(panel.mirostat.findData(2))
    assert panel.settings().mirostat == 2 and panel.settings().chain() == ("temperature", "mirostat_v2")
    assert not panel.chain.isEnabled() and panel.mirostat_note.isVisible()
    assert "replaces" in panel.mirostat_note.text()


def test_what_a_remote_engine_cannot_apply_is_greyed_with_its_reason(panel):
    panel.set_capabilities({"unsupported_settings": {"dry_multiplier": "vLLM has no DRY", "samplers": "no order",
                                                     "grammar": "no GBNF here", "logit_bias": "no bias"},
                            "samplers": ["top_k", "top_p", "min_p", "temperature"]})
    assert not panel.rows["dry_multiplier"].isEnabled() and panel.rows["dry_multiplier"].toolTip() == "vLLM has no DRY"
    assert not panel.chain.isEnabled() and not panel.bias.isEnabled()
    model = panel.constraint.mode.model()
    json_row = panel.constraint.mode.findData("json")
    assert not model.item(json_row).isEnabled() and model.item(json_row).toolTip() == "no GBNF here"
    assert model.item(panel.constraint.mode.findData("schema")).isEnabled()
    assert "dry" not in panel.settings().samplers   # a stage this engine does not apply is not asked for
    panel.set_capabilities({"unsupported_settings": {}})
    assert panel.rows["dry_multiplier"].isEnabled() and panel.chain.isEnabled() and panel.bias.isEnabled()
    assert panel.settings().samplers == DEFAULT_SAMPLERS   # back on an engine that applies every stage
    assert panel.rows["dry_multiplier"].toolTip().startswith("DRY")


def test_logit_bias_rows_ban_and_a_bad_bias_is_refused(panel):
    panel.sections["bias"].expand()
    panel.bias.add_row(17, 2.0)
    panel.bias.table.setCurrentCell(0, 0)
    panel.bias.ban_button.click()
    assert panel.settings().logit_bias == ((17, -math.inf),)
    panel.bias.add_row("world", 0.0)
    panel.bias.table.item(1, 1).setText("lots")
    assert panel.settings().logit_bias == ((17, -math.inf),)
    assert "Row 2" in panel.bias.problem.text() and not panel.bias.problem.isHidden()
    with pytest.raises(InvalidSettingsError, match="logit bias"):
        panel.settings_to_send()
    panel.bias.table.item(1, 1).setText("ban")
    assert panel.settings_to_send().logit_bias == ((17, -math.inf), ("world", -math.inf))
    assert panel.bias.problem.isHidden()


@pytest.mark.parametrize("token", [0, 42, "42", "hello", " hello", '"quoted"', "  "])
def test_a_bias_token_cell_reads_back_as_written(token):
    assert parse_token(token_cell(token)) == token


@pytest.mark.parametrize("breakers", [("\n", ":", "\"", "*"), (",", "\\", " ", " x y "), ("\t\n",), ()])
def test_dry_breakers_text_round_trips(breakers):
    assert parse_breakers(breakers_text(breakers)) == breakers


def test_every_ready_grammar_and_custom_text_come_back(panel):
    for stem in READY_GRAMMARS:
        panel.set_settings(SamplerSettings(grammar=ready_grammar(stem)))
        assert panel.constraint.current_mode() == stem
    panel.constraint.mode.setCurrentIndex(panel.constraint.mode.findData("custom"))
    panel.constraint.text.setPlainText('root ::= "x"')
    panel.constraint.mode.setCurrentIndex(panel.constraint.mode.findData("schema"))
    panel.constraint.text.setPlainText('{"type": "string"}')
    assert panel.settings().json_schema == '{"type": "string"}' and panel.settings().grammar == ""
    panel.constraint.mode.setCurrentIndex(panel.constraint.mode.findData("custom"))   # typed text kept per mode
    assert panel.settings().grammar == 'root ::= "x"' and panel.settings().json_schema == ""
    panel.constraint.mode.setCurrentIndex(panel.constraint.mode.findData(""))
    assert panel.settings().grammar == "" and not panel.constraint.text.isVisible()


def test_every_control_says_what_it_does(panel):
    for name, row in panel.rows.items():
        assert row.toolTip() and row.spin.toolTip() == row.toolTip(), name
    for widget in (panel.mirostat, panel.breakers, panel.chain, panel.reset_order, panel.constraint.mode,
                   panel.bias.table, panel.bias.ban_button, panel.fixed_seed, panel.max_tokens, panel.stops):
        assert widget.toolTip(), widget
    for i, name in enumerate(panel.chain.names()):
        assert panel.chain.item(i).toolTip(), name


def test_stop_sequences_round_trip_through_the_field(panel):
    """A fix (the diagnosis) writes stop sequences into the field: commas, newlines and non-ASCII survive."""
    stops = ("User:", "a, b", "line\nbreak", "结束", "<|im_end|>")
    panel.set_stop_sequences(stops)
    assert panel.stop_sequences() == stops
    panel.stops.setText(r"one, two\, three, \n")
    assert panel.stop_sequences() == ("one", "two, three", "\n")
