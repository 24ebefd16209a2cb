"""The process boundary: the engine process (server.py) and the caller's side of it (client.py), and the
remote engines (OpenAI-compatible servers) that offer the same interface."""
