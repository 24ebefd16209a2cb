"""The window's controllers: the conversation, the model, the diagnosis and the selected step on screen."""
