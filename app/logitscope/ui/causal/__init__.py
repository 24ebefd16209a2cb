"""Causal tracing in the window: knock out heads and blocks, scan every head, patch activations."""
