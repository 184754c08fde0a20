"""Named parts of a recording that only the turn structure reveals.

The logic moved to ``harp_desktop.findings.sections`` (which also classifies stretches as
consultation / phone call / unrelated); this module re-exports what the agent used.
"""

from harp_desktop.findings.sections import DIALOGUE, EDGE_S, MAX_GAP_S, MIN_CHANGES, dialogue_span

__all__ = ["DIALOGUE", "EDGE_S", "MAX_GAP_S", "MIN_CHANGES", "dialogue_span"]
