"""llama.cpp itself, in the engine process only: the model and its contexts, the decoding loop, speculative
decoding, beams, scoring, the forward-pass inspection, grammars and chat templates. Nothing outside the
engine process imports it (host/server.py starts it there)."""
