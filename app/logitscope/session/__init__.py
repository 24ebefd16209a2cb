"""The chat as the window sees it, without Qt: the conversation tree and its mapping to the history store."""
