"""The Steering dock: llama.cpp control vectors and LoRA adapters for the next requests, built or loaded."""
