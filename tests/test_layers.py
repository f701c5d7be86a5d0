"""The layers of ``nefertiti_core`` and ``widgets``, checked on the source with ``ast``.

engine < teaching < play < files < the package itself (``__init__``, ``cli``, ``__main__``)
< ``widgets``, and inside ``widgets``: theme < server < game < lesson < the two apps (sandbox,
classroom) < the top (``widgets/__init__``, the ``nefertiti serve`` command). A module imports
only its own layer and the ones below it, the rules core (``engine``) none of the others, the
two apps not each other, and no import cycle runs between modules (imports inside functions
count; ``if TYPE_CHECKING:`` imports, never run, count for the layers only).
"""

from __future__ import annotations

import ast
from pathlib import Path

from helpers_python import parse

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "nefertiti_core"
#: The layers from the bottom; a module may import its own layer and those below.
LAYERS = (
    "engine",
    "teaching",
    "play",
    "files",
    "top",
    "widgets.theme",
    "widgets.server",
    "widgets.game",
    "widgets.lesson",
    "widgets.apps",
    "widgets.top",
)
#: The served apps: one layer, and neither imports the other.
APPS = ("sandbox", "classroom")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "widgets":
        if len(parts) > 1 and f"widgets.{parts[1]}" in LAYERS:
            return f"widgets.{parts[1]}"
        if len(parts) > 1 and parts[1] in APPS:
            return "widgets.apps"
        return "widgets.top"
    if parts[0] != PACKAGE:
        return None
    if len(parts) > 1 and parts[1] in LAYERS[:4]:
        return parts[1]
    return "top"


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:``."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for child in node.body:
                    inside.update(id(n) for n in ast.walk(child))
    return inside


def imports_of(path: Path, modules: set[str], root: Path = ROOT) -> list[tuple[int, str, bool]]:
    """(line, imported module, runs) for each import of a project module in ``path``; ``runs`` is
    False for ``if TYPE_CHECKING:`` imports. ``from a import b`` counts as ``a.b`` when that is a
    module, else as ``a``."""
    tree = parse(path.read_text(encoding="utf-8"), filename=str(path))
    me = module_name(path, root)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    typing_only = _type_checking_nodes(tree)
    found = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            for alias in node.names:
                full = f"{stem}.{alias.name}"
                targets.append(full if full in modules else stem)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None))
            in {"import_module", "__import__"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            targets = [node.args[0].value]
        for target in targets:
            if target.split(".")[0] in (PACKAGE, "widgets"):
                found.append((node.lineno, target, id(node) not in typing_only))
    return found


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    files = [*(root / PACKAGE).rglob("*.py"), *(root / "widgets").rglob("*.py")]
    return {module_name(p, root): p for p in files}


def layer_violations(root: Path = ROOT) -> list[str]:
    modules = project_modules(root)
    bad = []
    for name, path in sorted(modules.items()):
        mine = layer_of(name)
        for line, target, _ in imports_of(path, set(modules), root):
            theirs = layer_of(target)
            if theirs is None or target == PACKAGE and mine == "top":
                continue
            if LAYERS.index(theirs) > LAYERS.index(mine):
                bad.append(f"{path.relative_to(root)}:{line} ({mine}) imports {target} ({theirs})")
            elif mine == theirs == "widgets.apps" and name.split(".")[1] != target.split(".")[1]:
                bad.append(f"{path.relative_to(root)}:{line} (one app) imports {target} (another)")
    return bad


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the project modules it imports when run (package ``__init__`` files excluded:
    importing a submodule runs its package's ``__init__``, which is no dependency of ours)."""
    modules = project_modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {
            target
            for _, target, runs in imports_of(path, set(modules), root)
            if runs
            and target in modules
            and target != name
            and modules[target].name != "__init__.py"
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_module_of_the_package_sits_in_a_layer():
    loose = [
        module_name(p)
        for p in (ROOT / PACKAGE).glob("*.py")
        if p.stem not in ("__init__", "__main__", "cli")
    ]
    assert not loose, f"modules outside the layers' folders: {loose}"
    for layer in LAYERS[:4]:
        assert (ROOT / PACKAGE / layer / "__init__.py").is_file(), layer


def test_no_module_imports_a_layer_above_its_own():
    bad = layer_violations()
    assert not bad, "imports against the layers " + " < ".join(LAYERS) + ":\n" + "\n".join(bad)


def test_no_import_cycle_between_modules():
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def _sample_tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for layer in LAYERS[:4]:
        (tmp_path / PACKAGE / layer).mkdir(parents=True, exist_ok=True)
        (tmp_path / PACKAGE / layer / "__init__.py").touch()
    (tmp_path / PACKAGE / "__init__.py").touch()
    (tmp_path / "widgets").mkdir(exist_ok=True)
    return tmp_path


def test_the_checks_catch_an_upward_import_and_a_cycle(tmp_path):
    root = _sample_tree(
        tmp_path,
        {
            # the rules core reaching up, inside a function and by a relative import
            "nefertiti_core/engine/state.py": "def f():\n    from ..teaching import words\n",
            "nefertiti_core/teaching/words.py": "from ..engine import rules\n",
            "nefertiti_core/engine/rules.py": "from nefertiti_core.engine import deck\n",
            # a cycle inside one layer, one side lazy
            "nefertiti_core/engine/deck.py": "def g():\n    from .rules import X\n",
            # a type-only import is no cycle, but still an upward import
            "nefertiti_core/engine/errors.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from nefertiti_core.play.bots import Bot\n"
            ),
            "nefertiti_core/play/bots.py": "from ..engine import errors\n",
        },
    )
    assert layer_violations(root) == [
        "nefertiti_core/engine/errors.py:3 (engine) imports nefertiti_core.play.bots (play)",
        "nefertiti_core/engine/state.py:2 (engine) imports nefertiti_core.teaching.words (teaching)",
    ]
    assert cycles(import_graph(root)) == [
        ["nefertiti_core.engine.deck", "nefertiti_core.engine.rules"]
    ]


#: At most this many reads of private names in the tests, each one justified on its line.
PRIVATE_READS_BUDGET = 20


def private_reads(root: Path = ROOT) -> list[tuple[str, int, str, bool]]:
    """(file, line, name, justified) for each read of a private name in ``tests/``: an
    attribute ``x._name`` (dunders aside) or ``from ... import _name`` of the project's modules;
    justified when its line, or the comment lines just above it, say ``# private: <why>``."""
    found = []
    for path in sorted((root / "tests").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(parse(text)):
            names = []
            if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                names = [node.attr]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in (
                PACKAGE,
                "widgets",
            ):
                names = [alias.name for alias in node.names]
            for name in names:
                if name.startswith("_") and not name.startswith("__"):
                    found.append(
                        (
                            str(path.relative_to(root)),
                            node.lineno,
                            name,
                            _justified(lines, node.lineno),
                        )
                    )
    return found


def _justified(lines: list[str], lineno: int) -> bool:
    if "# private:" in lines[lineno - 1]:
        return True
    above = lineno - 2
    while above >= 0 and lines[above].strip().startswith("#"):
        if lines[above].strip().startswith("# private:"):
            return True
        above -= 1
    return False


def test_the_tests_read_private_names_only_within_budget_and_each_with_a_reason():
    """Tests go through the public surface (what a user, a notebook or a page uses): a read of
    a private name is kept only where nothing public can show the thing (a framework's internals
    under a patch, a probe), with its reason on the line."""
    found = private_reads()
    unjustified = [f"{f}:{n} {name}" for f, n, name, ok in found if not ok]
    assert not unjustified, "private reads without a '# private: <why>' comment:\n" + "\n".join(
        unjustified
    )
    assert len(found) <= PRIVATE_READS_BUDGET, f"{len(found)} private reads in tests/"


def test_the_private_read_count_sees_attributes_and_imports(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "from widgets.game.board import _hidden\n"
        "from os import _exit\n"
        "board.__class__\n"
        "board._cells  # private: a reason\n"
        "# private: a reason\n# that goes on\nboard._figure\n"
        "# a comment, then code\nx = 1\nboard._source\n",
        encoding="utf-8",
    )
    assert private_reads(tmp_path) == [
        ("tests/test_x.py", 1, "_hidden", False),
        ("tests/test_x.py", 4, "_cells", True),
        ("tests/test_x.py", 7, "_figure", True),
        ("tests/test_x.py", 10, "_source", False),
    ]


#: Modules that hold no view: they import neither Panel, Bokeh nor param (the server's framework
#: patches and the pages' serving code aside), so a reader and a test find them plain Python.
NO_VIEWS = [
    "widgets.theme",
    "widgets.server.store",
    "widgets.server.upload",
    "widgets.server.limits",
    "widgets.server.state",
    "widgets.server.gc_pacing",
    "widgets.server.home_page",
    "widgets.server.addresses",
    "widgets.classroom.room",
    "widgets.classroom.poll",
    "widgets.classroom.room_store",
    "widgets.classroom.feed",
]


def view_imports(path: Path) -> list[str]:
    tree = parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        names = (
            [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
        found += [n for n in names if n.split(".")[0] in ("panel", "bokeh", "param")]
    return found


def test_the_modules_without_views_import_no_view_library():
    modules = project_modules()
    assert set(NO_VIEWS) <= set(modules), set(NO_VIEWS) - set(modules)
    bad = {name: view_imports(modules[name]) for name in NO_VIEWS}
    assert not any(bad.values()), {k: v for k, v in bad.items() if v}


def test_the_view_import_check_sees_a_panel_import(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def f():\n    from panel.io import state\nimport bokeh.models\n")
    assert sorted(view_imports(path)) == ["bokeh.models", "panel.io"]
