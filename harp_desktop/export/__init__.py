"""Exports: PDF/Markdown rationale reports, transcripts (TXT/SRT/VTT/JSON/PDF), and their audit trail."""
