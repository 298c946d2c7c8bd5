"""The offline scoring runtime's files on this server (Pyodide, fetched by `make`): where they are
and whether they are all there. Below both the offline views and the templates' tags."""

from pathlib import Path

PYODIDE_VERSION = "0.29.5"  # scripts/fetch-pyodide pins the same version and its checksum
ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "static" / "offline" / "pyodide" / PYODIDE_VERSION


def runtime_ready():
    """True when `make` has fetched and verified the Pyodide runtime and compiled its standard
    library."""
    files = (".verified", "pyodide.asm.wasm", "python_stdlib_compiled.zip")
    return all((RUNTIME / name).is_file() for name in files)
