"""Models on disk and on the Hub. No Qt here."""
