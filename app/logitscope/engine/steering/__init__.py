"""Steering the model inside llama.cpp's graph: control vectors and LoRA adapters applied to the generation
context (apply.py), and control vectors built from prompt pairs as llama-cvector-generator builds them
(cvector_build.py, directions.py)."""
