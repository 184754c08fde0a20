"""Corpus scale on Ray (the optional ``cluster`` extra): indexing and evaluation spread over workers."""
