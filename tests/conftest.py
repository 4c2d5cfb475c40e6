"""Suite-wide settings. The same suite runs on CPython and inside Pyodide (ONETOOL_RUNTIME=pyodide)."""
from __future__ import annotations

import os

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # hypothesis is a test dependency; without it the property tests skip themselves
    settings = None

if settings is not None:
    # No per-example deadline: CI machines are loaded and WebAssembly is slower; examples stay
    # small. Inside Pyodide fewer examples keep the run inside its time budget.
    in_pyodide = os.environ.get("ONETOOL_RUNTIME") == "pyodide"
    settings.register_profile("onetool", deadline=None, max_examples=25 if in_pyodide else 100,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("onetool")
