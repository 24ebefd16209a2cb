"""The command line: main.py builds the parser from one module per command (each has register(sub)),
common.py holds what they share."""
