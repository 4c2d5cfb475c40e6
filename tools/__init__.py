"""Stdlib-only helpers for build.py (pins, wheels, the Pyodide lock file, the dev server)."""
