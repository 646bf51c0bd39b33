"""Nine Men's Morris toolkit: rules, perfect hashing, retrograde databases, lookup and play."""

__version__ = "0.1.0"
