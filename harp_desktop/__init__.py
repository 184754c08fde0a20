"""HARP Desktop: offline hybrid agentic retrieval over long audio recordings."""

__version__ = "0.1.0"
