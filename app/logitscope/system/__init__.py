"""The machine: RAM, GPU memory and CPUs, read without llama.cpp."""
