# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""A small reader of the public C headers (include/eredu/*.h and
include/eredu/runtime/*.h), shared by the generators (generate_capi.py,
generate_status.py) and the tests: every
`EREDU_API` function (name, return type, parameters), every transparent
struct (fields in order; sized structs and the plain ones defined with their
typedef, `typedef struct eredu_x {...} eredu_x;`), the scalar and
function-pointer typedefs, the opaque handle types and every integer
`#define`.

It understands the header style of include/eredu (plain C99, one
declaration per `EREDU_API`, scalar typedefs, function-pointer typedefs of
the form `typedef R (*name)(...)`), and raises ValueError on a declaration
it cannot read rather than skipping it.
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
INCLUDE = os.path.join(REPO, "include", "eredu")

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DEPRECATED = re.compile(r'EREDU_DEPRECATED\s*\((?:[^()"]|"(?:[^"\\]|\\.)*")*\)')
_FUNCTION = re.compile(
    r"EREDU_API\s+(?P<ret>[^;]*?)\b(?P<name>eredu_\w+)\s*\((?P<params>[^;]*)\)\s*;")
_STRUCT = re.compile(
    r"\bstruct\s+(?P<name>eredu_\w+)\s*\{(?P<body>[^{}]*)\}\s*(?P<alias>eredu_\w+)?\s*;")
_SCALAR_TYPEDEF = re.compile(r"\btypedef\s+(?P<base>\w+)\s+(?P<name>eredu_\w+)\s*;")
_CALLBACK_TYPEDEF = re.compile(
    r"\btypedef\s+(?P<ret>[^;()]*?)\(\s*\*\s*(?P<name>eredu_\w+)\s*\)\s*\((?P<params>[^;]*)\)\s*;")
_STRUCT_TYPEDEF = re.compile(
    r"\btypedef\s+struct\s+(?P<tag>eredu_\w+)\s*(?:\{[^{}]*\}\s*)?(?P<name>eredu_\w+)\s*;")
_DEFINE = re.compile(r"^#define\s+(EREDU_\w+)\s+(-?\d+)\s*$", re.M)


def header_paths():
    """Every public header (include/eredu/*.h and include/eredu/runtime/*.h),
    sorted by its path under include/eredu."""
    return sorted(
        os.path.join(folder, name)
        for folder, _, names in os.walk(INCLUDE)
        for name in names
        if name.endswith(".h")
    )


def _text(path):
    """A header without comments and deprecation attributes."""
    with open(path, encoding="utf-8") as handle:
        return _DEPRECATED.sub(" ", _COMMENT.sub(" ", handle.read()))


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
    if match is None or not match.group("type").strip():
        raise ValueError(f"unexpected declaration {text!r}")
    return CType(match.group("type")), match.group("name")


def _parameters(text):
    params = " ".join(text.split())
    if params == "void":
        return []
    return [_split_declaration(part) for part in params.split(",")]


def functions(paths=None):
    """{name: (return CType or None for void, [(CType, parameter name), ...])}
    of `paths` (default: every header), in header order."""
    result = {}
    for path in header_paths() if paths is None else paths:
        for match in _FUNCTION.finditer(_text(path)):
            ret = match.group("ret").strip()
            result[match.group("name")] = (None if ret == "void" else CType(ret),
                                           _parameters(match.group("params")))
    return result


def structs(paths=None):
    """{struct name: [(CType, field name), ...]} in declaration order."""
    result = {}
    for path in header_paths() if paths is None else paths:
        for match in _STRUCT.finditer(_text(path)):
            if match.group("alias") not in (None, match.group("name")):
                raise ValueError(f"typedef struct {match.group('name')} {{...}} "
                                 f"{match.group('alias')}: the tag and the name differ")
            fields = [part for part in match.group("body").split(";") if part.strip()]
            result[match.group("name")] = [_split_declaration(field) for field in fields]
    return result


def scalar_typedefs():
    """{typedef name: C base type} of `typedef <scalar> eredu_x;`, in order."""
    result = {}
    for path in header_paths():
        for match in _SCALAR_TYPEDEF.finditer(_text(path)):
            result[match.group("name")] = match.group("base")
    return result


def callback_typedefs():
    """{typedef name: (return CType, [(CType, parameter name), ...])} of the
    function-pointer typedefs, in order."""
    result = {}
    for path in header_paths():
        for match in _CALLBACK_TYPEDEF.finditer(_text(path)):
            result[match.group("name")] = (CType(match.group("ret")),
                                           _parameters(match.group("params")))
    return result


def struct_typedefs():
    """[name] of every `typedef struct eredu_x eredu_x;` and `typedef struct
    eredu_x {...} eredu_x;`, in order: the opaque handles and the
    transparent structs."""
    names = []
    for path in header_paths():
        for match in _STRUCT_TYPEDEF.finditer(_text(path)):
            if match.group("tag") != match.group("name"):
                raise ValueError(f"typedef struct {match.group('tag')} {match.group('name')}: "
                                 "the tag and the name differ")
            names.append(match.group("name"))
    return names


def opaque_types():
    """[name] of the struct typedefs without a body in any header (handles)."""
    bodies = structs()
    return [name for name in struct_typedefs() if name not in bodies]


def defines_in(text):
    """[(name, value)] of the integer #defines of a header text, in order."""
    return [(name, int(value)) for name, value in _DEFINE.findall(text)]


def defines(path):
    """[(name, value)] of the integer #defines of one header, in order."""
    with open(path, encoding="utf-8") as handle:
        return defines_in(handle.read())
