"""GGUF files without llama.cpp: the header reader, the model card, the checks that say why llama.cpp
could not load a file, and the memory a model and its KV cache need."""
