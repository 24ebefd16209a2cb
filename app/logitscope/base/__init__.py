"""What every layer uses, on the standard library only: errors meant for the user, translatable messages,
the data folder, machine failures (no memory, a full disk), UTF-8 text."""
