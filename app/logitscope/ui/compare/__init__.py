"""Compare mode: one question to two engines side by side, and A's answer read by B token by token."""
