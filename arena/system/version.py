"""The arena's version, written once: the package's ``arena.__version__``, the version
pyproject.toml gives the distribution (the same string, which tests/unit/test_packaging.py
holds them to) and the one runs and exported files record."""

VERSION = "0.1.0"
