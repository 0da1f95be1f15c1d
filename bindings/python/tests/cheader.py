"""A small reader of the public C headers, for the tests that compare the
ctypes declarations with them: every `EREDU_API` function (name, return
type, parameters), every transparent struct (fields in order) and every
integer `#define`.

It only understands the header style of include/eredu (plain C99, one
declaration per `EREDU_API`, no function pointers), which is all it needs.
"""
import os
import re

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
INCLUDE = os.path.join(REPO, "include", "eredu")

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_FUNCTION = re.compile(
    r"EREDU_API\s+(?P<ret>[^;]*?)\b(?P<name>eredu_\w+)\s*\((?P<params>[^;]*)\)\s*;")
_STRUCT = re.compile(r"struct\s+(?P<name>eredu_\w+)\s*\{(?P<body>.*?)\}\s*;", re.S)
_DEFINE = re.compile(r"^#define\s+(EREDU_\w+)\s+(-?\d+)\s*$", re.M)


def header_paths():
    """Every public header, sorted by name."""
    return sorted(
        os.path.join(INCLUDE, name) for name in os.listdir(INCLUDE) if name.endswith(".h")
    )


def _text(path):
    with open(path, encoding="utf-8") as handle:
        return _COMMENT.sub(" ", handle.read())


class CType:
    """A C type as written: base name (without const) and pointer depth."""

    def __init__(self, text):
        words = text.replace("*", " * ").split()
        self.depth = words.count("*")
        base = [word for word in words if word not in ("*", "const", "struct")]
        if len(base) != 1:
            raise ValueError(f"unexpected C type {text!r}")
        self.base = base[0]
        # `const char *` (a string in) differs from `char *` (a buffer).
        first_star = words.index("*") if "*" in words else len(words)
        self.const_pointee = "const" in words[:first_star]

    def __repr__(self):
        return f"CType({self.base!r}, depth={self.depth}, const={self.const_pointee})"


def _split_declaration(text):
    """'const uint64_t **shape' -> (CType, 'shape')."""
    match = re.match(r"^(?P<type>.*?)(?P<name>\w+)\s*$", text.strip(), re.S)
    return CType(match.group("type")), match.group("name")


def functions():
    """{name: (return CType or None for void, [(CType, parameter name), ...])}."""
    result = {}
    for path in header_paths():
        for match in _FUNCTION.finditer(_text(path)):
            ret = match.group("ret").strip()
            params = " ".join(match.group("params").split())
            parsed = []
            if params != "void":
                parsed = [_split_declaration(part) for part in params.split(",")]
            result[match.group("name")] = (None if ret == "void" else CType(ret), parsed)
    return result


def structs():
    """{struct name: [(CType, field name), ...]} in declaration order."""
    result = {}
    for path in header_paths():
        for match in _STRUCT.finditer(_text(path)):
            fields = [part for part in match.group("body").split(";") if part.strip()]
            result[match.group("name")] = [_split_declaration(field) for field in fields]
    return result


def defines(path):
    """[(name, value)] of the integer #defines of one header, in order."""
    with open(path, encoding="utf-8") as handle:
        return [(name, int(value)) for name, value in _DEFINE.findall(handle.read())]
