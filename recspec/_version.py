"""The version of recspec, in a leaf module every layer may import."""

__version__ = "0.1.0"
