"""Shared by the whole window: tokens shown, messages translated, background work, what can be seen."""
