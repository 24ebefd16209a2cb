"""The Score dialog: how surprising every token of a text is to the loaded model, and comparing two models."""
