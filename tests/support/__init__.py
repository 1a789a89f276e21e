"""Helpers shared by the test modules (not collected by pytest): ``from support.twins import ...``."""
