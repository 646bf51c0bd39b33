"""The ``morris`` command-line tool (click)."""
