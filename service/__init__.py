"""Cairn's HTTP service: the Flask app, its schemas and the Redis event store."""
