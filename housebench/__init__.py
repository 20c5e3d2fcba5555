"""housebench: an asset and benchmark factory for household mobile manipulation."""

__version__ = "0.1.0"
