"""Menus as a keyboard user meets them: each entry's Alt letter (its `&x`)."""

from __future__ import annotations

import re
from collections import defaultdict

_MNEMONIC = re.compile(r"&([^&])")


def shared_alt_letters(menu_bar) -> list[str]:
    """'menu: letter -> entries' for every menu (and submenu) where two entries share an Alt letter."""
    found: list[str] = []

    def walk(title: str, menu) -> None:
        letters: dict[str, list[str]] = defaultdict(list)
        for action in menu.actions():
            if action.isSeparator():
                continue
            match = _MNEMONIC.search(action.text().replace("&&", ""))
            if match:
                letters[match.group(1).lower()].append(action.text())
            if action.menu() is not None:
                walk(action.text(), action.menu())
        found.extend(f"{title}: {letter} -> {texts}" for letter, texts in letters.items() if len(texts) > 1)

    for action in menu_bar.actions():
        if action.menu() is not None:
            walk(action.text(), action.menu())
    return found


def without_alt_letter(menu_bar) -> list[str]:
    """Entries of the menus that have no Alt letter at all (the window's dock toggles aside: Qt names those)."""
    missing: list[str] = []
    for top in menu_bar.actions():
        menu = top.menu()
        if menu is None:
            continue
        missing += [f"{top.text()}: {a.text()}" for a in menu.actions()
                    if not a.isSeparator() and not _MNEMONIC.search(a.text().replace("&&", ""))
                    and a.parent() is not None and a.parent().metaObject().className() != "QDockWidget"]
    return missing
