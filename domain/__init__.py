"""Cairn's rules engines: pure Python, no I/O, one package per game."""
