"""Checks on the project itself: packaging metadata, the conda environment, and the rule that the
engine (``nefertiti_core``) never imports UI or notebook code."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import yaml
from helpers_python import parse

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "nefertiti_core"

# Top-level modules the engine must never import; any module whose name starts with "jupyter"
# (jupyter, jupyterlab, jupyter_server, jupyter_client, jupyter_core, jupyter_bokeh, ...) too.
FORBIDDEN_ROOTS = frozenset(
    {"panel", "bokeh", "ipywidgets", "param", "pyviz_comms", "holoviews", "ipykernel"}
)
FORBIDDEN_PREFIXES = ("jupyter",)
# The bots extra (#6): OpenSpiel and numpy, imported by the OpenSpiel adapter alone (the rest of
# the engine stays standard library only; bots.make_bot imports the adapter on demand).
OPENSPIEL_ROOTS = frozenset({"pyspiel", "open_spiel", "numpy"})
OPENSPIEL_ADAPTER = "openspiel.py"

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def normalise(spec: str) -> str:
    """``"Foo_Bar>=1.0"`` -> ``"foo-bar"``; also drops extras, markers and a conda channel."""
    spec = spec.strip().split("::")[-1]
    match = _NAME.match(spec)
    assert match, f"cannot read a package name from {spec!r}"
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def load_pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def conda_packages() -> set[str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    names: set[str] = set()
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            for pip_dep in dep.get("pip", []):
                if pip_dep.strip().startswith("-e"):
                    continue
                names.add(normalise(pip_dep))
        else:
            names.add(normalise(str(dep)))
    return names - {"python", "pip"}


def test_environment_yml_matches_optional_extras():
    extras = load_pyproject()["project"]["optional-dependencies"]
    from_extras = {normalise(req) for reqs in extras.values() for req in reqs}
    from_conda = conda_packages()
    assert from_conda == from_extras, (
        f"only in environment.yml: {sorted(from_conda - from_extras)}; "
        f"only in pyproject extras: {sorted(from_extras - from_conda)}"
    )


def test_environment_yml_installs_the_project_and_its_python():
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip_lists = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert any("-e ." in (s.strip() for s in lst) for lst in pip_lists)
    pythons = [d for d in env["dependencies"] if isinstance(d, str) and normalise(d) == "python"]
    assert pythons == ["python=3.11"]
    assert load_pyproject()["project"]["requires-python"] == ">=3.11"


def test_engine_has_no_runtime_dependencies():
    assert load_pyproject()["project"]["dependencies"] == []


def _is_forbidden(module: str) -> bool:
    root = module.split(".")[0]
    return root in FORBIDDEN_ROOTS or root.startswith(FORBIDDEN_PREFIXES)


def forbidden_imports(path: Path, is_forbidden=None) -> list[str]:
    """Each forbidden import in one file, as ``"path:line module"``."""
    is_forbidden = is_forbidden or _is_forbidden
    tree = parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args:
            # importlib.import_module("panel") / __import__("bokeh")
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            arg = node.args[0]
            if (
                name in {"import_module", "__import__"}
                and isinstance(arg, ast.Constant)
                and isinstance(arg.value, str)
            ):
                found.append((node.lineno, arg.value))
    return [f"{path}:{line} {mod}" for line, mod in found if is_forbidden(mod)]


def test_forbidden_import_detector_catches_each_form(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os, panel as pn\n"
        "from bokeh.models import ColumnDataSource\n"
        "from . import state\n"
        "def f():\n"
        "    import jupyter_client\n"
        "    __import__('param')\n"
        "    import importlib\n"
        "    return importlib.import_module('ipywidgets.widgets')\n",
        encoding="utf-8",
    )
    mods = sorted(hit.split(" ", 1)[1] for hit in forbidden_imports(sample))
    assert mods == ["bokeh.models", "ipywidgets.widgets", "jupyter_client", "panel", "param"]


def test_engine_never_imports_ui_or_notebook_code():
    files = sorted(ENGINE.rglob("*.py"))
    assert ENGINE / "engine" / "state.py" in files and ENGINE / "cli.py" in files
    hits = [hit for path in files for hit in forbidden_imports(path)]
    assert not hits, "the engine must not import UI or notebook code:\n" + "\n".join(hits)


def _is_openspiel(module: str) -> bool:
    return module.split(".")[0] in OPENSPIEL_ROOTS


def test_only_the_openspiel_adapter_imports_openspiel_or_numpy():
    files = sorted(p for p in ENGINE.rglob("*.py") if p.name != OPENSPIEL_ADAPTER)
    assert ENGINE / "engine" / "state.py" in files
    hits = [hit for path in files for hit in forbidden_imports(path, _is_openspiel)]
    assert not hits, "only nefertiti_core/play/openspiel.py may import OpenSpiel or numpy:\n" + (
        "\n".join(hits)
    )
    adapter = ENGINE / "play" / OPENSPIEL_ADAPTER
    assert forbidden_imports(adapter, _is_openspiel), "the detector finds the adapter's imports"


def test_no_two_test_modules_share_a_name():
    """pytest imports test modules by their file name (rootdir import mode): two files with one
    name in different folders stop the whole run at collection ("import file mismatch"), as a
    unit test and a browser journey of the projector once did."""
    seen: dict[str, Path] = {}
    clashes = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if path.name in seen:
            clashes.append((str(seen[path.name]), str(path)))
        seen[path.name] = path
    assert not clashes, clashes


def test_no_test_module_imports_the_tests_folder_as_a_package():
    """``tests/`` is not a package: pytest puts the test's own folder on the path, so ``from
    tests.x import y`` works only when the repository happens to be on ``sys.path`` too (an
    editor, ``python -m pytest``, another module's insert) and fails under ``make test``'s
    ``.venv/bin/pytest`` on a fresh clone. Import the helper module by its name."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(parse(path.read_text(encoding="utf-8"), str(path))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            if any(n == "tests" or n.startswith("tests.") for n in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, found
