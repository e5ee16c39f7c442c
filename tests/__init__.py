"""The test suite (pytest): one package per area, shared fixtures in conftest.py."""
