"""The benchmarks that need the window (Qt): streaming into the real window, the replay, the chat view."""
