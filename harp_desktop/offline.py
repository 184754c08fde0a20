"""Offline switches, set before any third-party library is imported.

HARP never needs the network: every weight file comes from a pinned package and is
verified locally. These variables make the libraries underneath agree, so a missing
file fails with a local error instead of a download attempt, and nothing reports usage.
"""

from __future__ import annotations

import os

# Forced, not defaulted: a user's HF_HUB_OFFLINE=0 must not re-enable downloads in this app.
OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",  # huggingface_hub (faster-whisper's model lookup): no Hub requests
    "TRANSFORMERS_OFFLINE": "1",  # transformers, if a dependency pulls it in
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "HF_HUB_DISABLE_IMPLICIT_TOKEN": "1",  # never send a stored token anywhere
    "HF_HUB_DISABLE_XET": "1",
    "DO_NOT_TRACK": "1",  # the cross-tool opt-out some libraries honour
    # onnxruntime 1.32 ships Microsoft 1DS telemetry on Linux too: without this it resolves
    # mobile.events.data.microsoft.com and stores a device id (found by tests/reliability/test_no_network.py).
    "ORT_DISABLE_TELEMETRY": "1",
}


def apply() -> None:
    """Set every offline / no-telemetry switch in this process (and its children)."""
    os.environ.update(OFFLINE_ENV)
