"""Plain helpers that tests of every layer import (fixtures and hooks live in conftest.py)."""
