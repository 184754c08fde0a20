"""HARP Desktop: offline hybrid agentic retrieval over long audio recordings."""

__version__ = "0.1.0"

# Before anything imports huggingface_hub & co.: the app never touches the network.
from harp_desktop import offline as _offline  # noqa: E402

_offline.apply()
