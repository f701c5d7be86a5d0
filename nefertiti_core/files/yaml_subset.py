"""A small, safe reader and writer for the YAML that scenario files use.

The engine is standard-library only, and a teacher's file must never run code, so this module
reads a plain subset of YAML into dicts, lists, strings, integers, booleans and None:

- block mappings (``key: value``) and block sequences (``- item``), nested by indentation
  (spaces only);
- flow sequences ``[a, b]`` and flow mappings ``{a: 1, b: [x, y]}``;
- scalars: integers, ``true``/``false``, ``null``/``~``, plain, 'single' or "double" quoted
  strings; ``|`` and ``>`` block strings for teaching text; ``#`` comments.

Anything else (anchors, aliases, tags, several documents) is refused with the line number.
Every value's line is remembered (:class:`Document`), so that a later check can say
"line 12: markets.gizeh.servants: square 9 does not exist".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..engine.limits import BOM, MAX_DEPTH, MAX_INT_DIGITS, echo
from ..engine.said import said


class YamlError(ValueError):
    """A syntax error: ``problem`` is what is wrong (a :class:`~..engine.said.Said`, so that a
    file's error can say it in the reader's language), ``line`` where; ``str()`` is the English
    ``line N: problem``."""

    def __init__(self, problem: str, line: int | None = None):
        self.line, self.problem = line, problem
        super().__init__(f"line {line}: {problem}" if line else problem)


@dataclass
class Document:
    data: object
    lines: dict[tuple, int] = field(default_factory=dict)  # path (tuple of keys) -> line

    def line_of(self, path: tuple) -> int | None:
        """The line of ``path`` or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())


_INT = re.compile(r"^[-+]?\d+$")
_KEY = re.compile(
    r"^(?P<key>\"[^\"]*\"|'[^']*'|[^\s\"'#\[\]{},:][^#:]*?)\s*:(?:\s+|$)(?P<rest>.*)$"
)


def _strip_comment(text: str) -> str:
    """Remove a trailing ``# comment`` that is not inside quotes."""
    quote = None
    escaped = False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\" and quote == '"':
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
    return text.rstrip()


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "/": "/", "0": "\0"}


def _unescape(body: str, line: int) -> str:
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            nxt = body[i + 1 : i + 2]
            if nxt not in _ESCAPES:
                raise YamlError(said("yaml.unknown_escape", escape=nxt), line)
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _scalar(text: str, line: int):
    text = text.strip()
    if text == "" or text in ("null", "~", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if _INT.match(text):
        digits = len(text.lstrip("+-"))
        if digits > MAX_INT_DIGITS:
            raise YamlError(
                said("yaml.long_number", digits=str(digits), most=str(MAX_INT_DIGITS)), line
            )
        return int(text)
    if text[0] in "&*!":
        raise YamlError(said("yaml.anchor", text=echo(text)), line)
    if text[0] == '"':
        if len(text) < 2 or not text.endswith('"'):
            raise YamlError(said("yaml.unclosed_double", text=echo(text)), line)
        return _unescape(text[1:-1], line)
    if text[0] == "'":
        if len(text) < 2 or not text.endswith("'"):
            raise YamlError(said("yaml.unclosed_single", text=echo(text)), line)
        return text[1:-1].replace("''", "'")
    return text


class _Flow:
    """A parser for one flow collection (``[...]`` or ``{...}``) on a single line."""

    def __init__(self, text: str, line: int):
        self.text, self.pos, self.line, self.depth = text, 0, line, 0

    def error(self, message_key: str, **params):
        """Raise the catalogue's ``message_key`` (``yaml_errors.json``), said of this collection."""
        problem = said(message_key, **params)
        raise YamlError(said("yaml.in_flow", problem=problem, text=echo(self.text)), self.line)

    def enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise YamlError(said("yaml.brackets_deep", most=str(MAX_DEPTH)), self.line)

    def skip(self):
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def value(self):
        self.skip()
        if self.pos >= len(self.text):
            self.error("yaml.value_missing")
        ch = self.text[self.pos]
        if ch == "[":
            return self.sequence()
        if ch == "{":
            return self.mapping()
        if ch in "'\"":
            end = self.pos + 1
            while True:
                if end >= len(self.text):
                    self.error("yaml.unclosed_quote")
                c = self.text[end]
                if ch == '"' and c == "\\":
                    end += 2
                    continue
                if c == ch:
                    if ch == "'" and self.text[end + 1 : end + 2] == "'":
                        end += 2  # '' is a quote inside single quotes
                        continue
                    break
                end += 1
            token = self.text[self.pos : end + 1]
            self.pos = end + 1
            return _scalar(token, self.line)
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in ",]}:":
            self.pos += 1
        return _scalar(self.text[start : self.pos], self.line)

    def sequence(self):
        self.enter()
        self.pos += 1
        out = []
        self.skip()
        if self.text[self.pos : self.pos + 1] == "]":
            self.pos += 1
            self.depth -= 1
            return out
        while True:
            out.append(self.value())
            self.skip()
            ch = self.text[self.pos : self.pos + 1]
            self.pos += 1
            if ch == "]":
                self.depth -= 1
                return out
            if ch != ",":
                self.error("yaml.expected_comma", closing="]")

    def mapping(self):
        self.enter()
        self.pos += 1
        out = {}
        self.skip()
        if self.text[self.pos : self.pos + 1] == "}":
            self.pos += 1
            self.depth -= 1
            return out
        while True:
            key = self.value()
            if isinstance(key, (list, dict)):
                self.error("yaml.flow_key")
            self.skip()
            if self.text[self.pos : self.pos + 1] != ":":
                self.error("yaml.expected_colon")
            self.pos += 1
            if key in out:
                self.error("yaml.key_twice", name=echo(key))
            out[key] = self.value()
            self.skip()
            ch = self.text[self.pos : self.pos + 1]
            self.pos += 1
            if ch == "}":
                self.depth -= 1
                return out
            if ch != ",":
                self.error("yaml.expected_comma", closing="}")


def _flow_or_scalar(text: str, line: int):
    text = text.strip()
    if text[:1] in "[{":
        flow = _Flow(text, line)
        value = flow.value()
        flow.skip()
        if flow.pos != len(text):
            flow.error("yaml.after_bracket")
        return value
    return _scalar(text, line)


def loads(text: str) -> Document:
    """Read YAML text (the subset above) into plain data, remembering each value's line."""
    if text.startswith(BOM):  # Windows Notepad writes one
        text = text[1:]
    raw_lines = text.splitlines()
    rows = []  # (line number, indent, content)
    i = 0
    block_strings: dict[int, str] = {}
    while i < len(raw_lines):
        raw = raw_lines[i]
        number = i + 1
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise YamlError(said("yaml.tabs"), number)
        content = _strip_comment(raw)
        if not content.strip():
            i += 1
            continue
        stripped = content.strip()
        if stripped in ("---", "..."):
            if rows:
                raise YamlError(said("yaml.one_document"), number)
            i += 1
            continue
        indent = len(content) - len(content.lstrip(" "))
        rows.append((number, indent, stripped))
        # A block string (``key: |`` or ``- |``) takes the more-indented lines that follow.
        if re.search(r"(^|:\s|^-\s)[|>][-+]?$", stripped) or stripped in ("|", ">", "- |", "- >"):
            folded = stripped.rstrip("-+").endswith(">")
            # the block belongs to the key it follows: in ``- key: |`` that key stands after the
            # dash, and a line at the key's column is the item's next key, not the block's
            owner, rest = indent, stripped
            while (dash := re.match(r"-\s+", rest)) and ":" in rest:
                owner, rest = owner + dash.end(), rest[dash.end() :]
            body = []
            j = i + 1
            while j < len(raw_lines):
                nxt = raw_lines[j]
                if nxt.strip() and len(nxt) - len(nxt.lstrip(" ")) <= owner:
                    break
                body.append(nxt)
                j += 1
            while body and not body[-1].strip():
                body.pop()
            cut = min((len(b) - len(b.lstrip(" ")) for b in body if b.strip()), default=0)
            lines = [b[cut:] for b in body]
            joined = " ".join(x.strip() for x in lines) if folded else "\n".join(lines)
            block_strings[number] = joined + ("\n" if joined else "")
            i = j
            continue
        i += 1
    doc = Document(None)
    if not rows:
        doc.data = None
        return doc
    pos, value = _parse_block(rows, 0, rows[0][1], (), doc, block_strings)
    if pos != len(rows):
        number = rows[pos][0]
        raise YamlError(said("yaml.dedent"), number)
    doc.data = value
    doc.lines.setdefault((), rows[0][0])
    return doc


def _inline(rest: str, number: int, block_strings: dict[int, str]):
    if rest.strip() in ("|", ">", "|-", ">-", "|+", ">+"):
        return block_strings.get(number, "")
    return _flow_or_scalar(rest, number)


def _parse_block(rows, pos, indent, path, doc, block_strings):
    number, ind, content = rows[pos]
    if len(path) >= MAX_DEPTH:
        raise YamlError(said("yaml.blocks_deep", most=str(MAX_DEPTH)), number)
    if content.startswith("- ") or content == "-":
        return _parse_sequence(rows, pos, indent, path, doc, block_strings)
    if _KEY.match(content):
        return _parse_mapping(rows, pos, indent, path, doc, block_strings)
    if pos + 1 < len(rows) and rows[pos + 1][1] >= indent and rows[pos + 1][0] != number:
        raise YamlError(said("yaml.expected_key_or_item", text=echo(content)), number)
    doc.lines[path] = number
    return pos + 1, _inline(content, number, block_strings)


def _parse_mapping(rows, pos, indent, path, doc, block_strings):
    if len(path) >= MAX_DEPTH:
        raise YamlError(said("yaml.blocks_deep", most=str(MAX_DEPTH)), rows[pos][0])
    out: dict = {}
    doc.lines.setdefault(path, rows[pos][0])
    while pos < len(rows):
        number, ind, content = rows[pos]
        if ind < indent:
            break
        if ind > indent:
            raise YamlError(said("yaml.indentation"), number)
        match = _KEY.match(content)
        if not match:
            if content.startswith("-"):
                raise YamlError(said("yaml.item_not_key"), number)
            raise YamlError(said("yaml.expected_key", text=echo(content)), number)
        key = _scalar(match.group("key"), number)
        if isinstance(key, str) is False and not isinstance(key, int):
            raise YamlError(said("yaml.key_kind", text=echo(match.group("key"))), number)
        if key in out:
            raise YamlError(said("yaml.key_twice", name=echo(key)), number)
        rest = match.group("rest")
        child = path + (key,)
        doc.lines[child] = number
        if rest.strip():
            out[key] = _inline(rest, number, block_strings)
            pos += 1
        else:
            pos += 1
            if pos < len(rows) and rows[pos][1] > indent:
                pos, out[key] = _parse_block(rows, pos, rows[pos][1], child, doc, block_strings)
            elif pos < len(rows) and rows[pos][1] == indent and rows[pos][2].startswith("- "):
                # YAML allows a list at the same indent as its key.
                pos, out[key] = _parse_sequence(rows, pos, indent, child, doc, block_strings)
            else:
                out[key] = None
    return pos, out


def _parse_sequence(rows, pos, indent, path, doc, block_strings):
    if len(path) >= MAX_DEPTH:
        raise YamlError(said("yaml.blocks_deep", most=str(MAX_DEPTH)), rows[pos][0])
    out: list = []
    doc.lines.setdefault(path, rows[pos][0])
    while pos < len(rows):
        number, ind, content = rows[pos]
        if ind < indent or not (content.startswith("- ") or content == "-"):
            if ind > indent:
                raise YamlError(said("yaml.indentation"), number)
            break
        if ind > indent:
            raise YamlError(said("yaml.indentation"), number)
        child = path + (len(out),)
        doc.lines[child] = number
        rest = content[1:].strip()
        if not rest:
            pos += 1
            if pos < len(rows) and rows[pos][1] > indent:
                pos, item = _parse_block(rows, pos, rows[pos][1], child, doc, block_strings)
            else:
                item = None
            out.append(item)
            continue
        if _KEY.match(rest) and not rest.startswith(("[", "{")):  # a quoted key too: - "no": 1
            # "- key: value" starts a mapping whose keys line up after "- ".
            sub_indent = ind + (len(content) - len(rest))
            rows[pos] = (number, sub_indent, rest)
            pos, item = _parse_mapping(rows, pos, sub_indent, child, doc, block_strings)
            out.append(item)
            continue
        out.append(_inline(rest, number, block_strings))
        pos += 1
    return pos, out


# ---------------------------------------------------------------------------------------- writing
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_.#+\-/ ]*$")
_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "~"}


def _dump_scalar(value) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if (
        _PLAIN.fullmatch(text)
        and text.lower() not in _RESERVED
        and not text.endswith(" ")
        and " #" not in text
    ):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _block_ok(text: str) -> bool:
    """Whether a ``|`` block keeps this text exactly (else it is written double-quoted)."""
    lines = text[:-1].split("\n")
    return (
        "\n" in text[:-1]
        and text.endswith("\n")
        and not text.endswith("\n\n")
        and not text.startswith((" ", "\n"))
        and all(line == line.rstrip() and line.isprintable() for line in lines)
    )


def _flow(value) -> str | None:
    """A short one-line form for small lists and mappings of scalars, or None."""
    if isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
        text = "[" + ", ".join(_dump_scalar(v) for v in value) + "]"
    elif isinstance(value, dict) and all(not isinstance(v, (list, dict)) for v in value.values()):
        text = "{" + ", ".join(f"{_dump_scalar(k)}: {_dump_scalar(v)}" for k, v in value.items())
        text += "}"
    else:
        return None
    return text if len(text) <= 80 else None


def dumps(data, indent: int = 0) -> str:
    """Write plain data as YAML that :func:`loads` reads back to the same data."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            head = f"{pad}{_dump_scalar(key)}:"
            if isinstance(value, str) and _block_ok(value):
                lines.append(f"{head} |")
                lines.extend(f"{pad}  {ln}" if ln else "" for ln in value.rstrip("\n").split("\n"))
                continue
            flow = _flow(value) if isinstance(value, (list, dict)) else None
            if isinstance(value, (list, dict)) and value and flow is None:
                lines.append(head)
                lines.append(dumps(value, indent + 2).rstrip("\n"))
            elif isinstance(value, (list, dict)):
                lines.append(f"{head} {flow}")
            else:
                lines.append(f"{head} {_dump_scalar(value)}")
    elif isinstance(data, list):
        for value in data:
            if isinstance(value, dict) and value:
                inner = dumps(value, indent + 2).rstrip("\n").split("\n")
                inner[0] = f"{pad}- " + inner[0][indent + 2 :]
                lines.extend(inner)
            elif isinstance(value, list) and value and _flow(value) is None:
                lines.append(f"{pad}-")
                lines.append(dumps(value, indent + 2).rstrip("\n"))
            elif isinstance(value, (list, dict)):
                lines.append(f"{pad}- {_flow(value)}")
            else:
                lines.append(f"{pad}- {_dump_scalar(value)}")
    else:
        lines.append(pad + _dump_scalar(data))
    return "\n".join(lines) + "\n"
