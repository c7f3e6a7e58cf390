"""The v1 API, kept for old users."""
