"""The version of the toolkit (recorded in every database file it writes)."""

__version__ = "0.1.0"
