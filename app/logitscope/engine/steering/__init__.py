"""Steering the model: building control vectors from prompt pairs, as llama.cpp's tools do."""
