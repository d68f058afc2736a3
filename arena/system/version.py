"""The arena's version, written once: the package's ``arena.__version__``, the version
pyproject.toml gives the distribution (setuptools reads it from here) and the one runs and
exported files record."""

VERSION = "0.1.0"
