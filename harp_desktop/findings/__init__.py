"""Clinical findings: concepts with assertion status, speaker and role, and the moment said.

Data flow: segments + roles + sections (``roles.py``, ``sections.py``) -> ``extract.py``
(concepts from ``resources/clinical_concepts.json``, assertion status) -> stored rows
(``store.py``) -> the answer layer and the report read ``Finding`` objects.
"""
