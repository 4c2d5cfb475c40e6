"""Everything build.py fetches from a registry, pinned by version and by hash.

Pyodide comes from the npm package `pyodide`; its tarball must match the npm
`integrity` string (sha512, base64) recorded here.  The wheels come from PyPI as
pure-Python `py3-none-any` wheels (so they install in Pyodide too) and must match
their sha256.  To move a pin: change the file name, download it once
(`pip download --no-deps --only-binary=:all: NAME==VERSION`), put its sha256 here.
"""

PYODIDE_VERSION = "314.0.7"
PYODIDE_INTEGRITY = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)

# The files of the npm package the site needs at run time (a module worker imports pyodide.mjs).
PYODIDE_RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "package.json",
)

# Runtime dependencies of onetool-wasm (jsonschema 4.26 and what it needs in Pyodide).
# rpds-py has no WebAssembly wheel: see RPDS_SHIM below.
SITE_WHEELS = {
    "attrs-26.1.0-py3-none-any.whl":
        "c647aa4a12dfbad9333ca4e71fe62ddc36f4e63b2d260a37a8b83d2f043ac309",
    "jsonschema-4.26.0-py3-none-any.whl":
        "d489f15263b8d200f8387e64b4c3a75f06629559fb73deb8fdfb525f2dab50ce",
    "jsonschema_specifications-2025.9.1-py3-none-any.whl":
        "98802fee3a11ee76ecaca44429fda8a41bff98b00a0f2838151b113f210cc6fe",
    "referencing-0.37.0-py3-none-any.whl":
        "381329a9f99628c9069361716891d34ad94af76e461dcb0335825aecc7692231",
    "pyrsistent_as_rpds_py-2.1.0-py3-none-any.whl":
        "f16935a819b1fc52ca2f545cf30004f94a737012153d72f107b4836c8a1ad144",
    "pyrsistent-0.19.3-py3-none-any.whl":
        "ccf0d6bd208f8111179f0c26fdf84ed7c3891982f2edaeae7422575f47e66b64",
}

# What the test suite needs inside Pyodide (pytest, hypothesis and their dependencies).
# hypothesis 6.155.7 is the last release with a pure-Python wheel.
TEST_WHEELS = {
    "pytest-9.2.0-py3-none-any.whl":
        "07acdcf88ec174f907dc01af70bf52d49b014bbab03faeeade31c96b18c2e588",
    "pluggy-1.7.0-py3-none-any.whl":
        "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec",
    "iniconfig-2.3.1-py3-none-any.whl":
        "9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7",
    "packaging-26.4-py3-none-any.whl":
        "81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2",
    "pygments-2.21.0-py3-none-any.whl":
        "2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9",
    "hypothesis-6.155.7-py3-none-any.whl":
        "9f634bdb1f9e9b8ab6ba09431cf2deedb750c96978125a6fb3c5a0f6c6db4131",
    "sortedcontainers-2.4.0-py2.py3-none-any.whl":
        "a163dcaede0f1c021485e957a39245190e74249897e2ae4b2aa38595db237ee0",
}

# The shim wheel built here: distribution `rpds-py`, module `rpds`, re-exporting the
# pure-Python implementation of pyrsistent-as-rpds-py.  The version satisfies
# jsonschema (rpds-py>=0.25) and referencing (rpds-py>=0.7); no "+local" label, as some static
# hosts read "+" in a URL path as a space.
RPDS_SHIM_VERSION = "0.30.0.post1"
RPDS_SHIM_REQUIRES = ("pyrsistent-as-rpds-py", "pyrsistent")

# The build backend (and what its editable installs need), installed into the venv once so
# that wheels and the editable install build without build isolation.
BUILD_TOOLS = ("hatchling==1.33.0", "editables==0.6")
