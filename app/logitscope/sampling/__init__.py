"""The white-box sampler: every stage as a small numpy function with llama.cpp's semantics, DRY, the
state a generation carries, and the replay of a recorded step under other settings. Used by the
engine (to sample) and by the window (to preview), so it never imports llama.cpp."""
