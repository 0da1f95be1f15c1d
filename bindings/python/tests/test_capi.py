"""The ctypes declarations (eredu/_capi.py) against include/eredu/*.h: every
EREDU_API function declared once with the right arity and C types, nothing
extra; every transparent struct with the header's fields, in order, with
the right types and the size its _init function reports."""
import ctypes
import os
import re
import unittest

from eredu import _capi
from eredu._library import lib

import cheader

_SCALARS = {
    "uint8_t": ctypes.c_uint8,
    "uint32_t": ctypes.c_uint32,
    "int32_t": ctypes.c_int32,
    "uint64_t": ctypes.c_uint64,
    "size_t": ctypes.c_size_t,
    "bool": ctypes.c_bool,
}


def _typedefs():
    """{eredu typedef: ctypes scalar} from eredu/types.h."""
    with open(os.path.join(cheader.INCLUDE, "types.h"), encoding="utf-8") as handle:
        pairs = re.findall(r"typedef\s+(\w+)\s+(eredu_\w+)\s*;", handle.read())
    return {alias: _SCALARS[base] for base, alias in pairs}


_TYPEDEFS = _typedefs()


def expected_ctype(ctype):
    """The ctypes type the table must use for a C type (see _capi's doc)."""
    if ctype.depth == 0:
        return _SCALARS.get(ctype.base) or _TYPEDEFS[ctype.base]
    if ctype.base == "char":
        if ctype.depth == 1:
            return ctypes.c_char_p if ctype.const_pointee else ctypes.POINTER(ctypes.c_char)
        if ctype.depth == 2:
            return (ctypes.POINTER(ctypes.c_char_p) if ctype.const_pointee
                    else ctypes.POINTER(ctypes.c_void_p))
    if ctype.base == "void" and ctype.depth == 1:
        return ctypes.c_void_p
    pointee = (_SCALARS.get(ctype.base) or _TYPEDEFS.get(ctype.base)
               or getattr(_capi, ctype.base))
    for _ in range(ctype.depth):
        pointee = ctypes.POINTER(pointee)
    return pointee


class FunctionTable(unittest.TestCase):
    def test_every_header_function_is_declared_and_nothing_else(self):
        declared = set(_capi.FUNCTIONS)
        headers = set(cheader.functions())
        self.assertEqual(sorted(headers - declared), [], "declared nowhere in _capi")
        self.assertEqual(sorted(declared - headers), [], "declared but not in any header")
        self.assertGreater(len(headers), 150)

    def test_arity_and_types_match_the_headers(self):
        for name, (ret, params) in cheader.functions().items():
            with self.subTest(function=name):
                restype, argtypes = _capi.FUNCTIONS[name]
                self.assertEqual(len(argtypes), len(params), "arity")
                self.assertIs(restype, None if ret is None else expected_ctype(ret), "restype")
                for index, ((ctype, param), actual) in enumerate(zip(params, argtypes)):
                    self.assertIs(actual, expected_ctype(ctype), f"parameter {index} {param}")

    def test_the_loaded_library_exports_every_declared_function(self):
        world = {name for name, _ in _functions_of("world.h")}
        if lib.missing and set(lib.missing) <= world:
            self.skipTest(f"library predates eredu/world.h (missing {lib.missing}): "
                          "rebuild build/ to run this check")
        self.assertEqual(lib.missing, [])


def _functions_of(header):
    text = cheader._text(os.path.join(cheader.INCLUDE, header))
    return [(match.group("name"), match) for match in cheader._FUNCTION.finditer(text)]


class Structs(unittest.TestCase):
    def test_every_header_struct_is_declared_with_its_fields(self):
        structs = cheader.structs()
        self.assertEqual(len(structs), 24)
        for name, fields in structs.items():
            with self.subTest(struct=name):
                declared = getattr(_capi, name)._fields_
                self.assertEqual([field for field, _ in declared], [field for _, field in fields])
                for (field, actual), (ctype, _) in zip(declared, fields):
                    self.assertIs(actual, expected_ctype(ctype), field)

    def test_sizes_match_what_the_init_functions_report(self):
        for name in cheader.structs():
            if name + "_init" in lib.missing:
                continue  # reported by test_the_loaded_library_exports_every_declared_function
            with self.subTest(struct=name):
                struct = getattr(_capi, name)()
                init = getattr(lib, name + "_init")
                self.assertEqual(init(ctypes.byref(struct), None), 0)
                self.assertEqual(struct.struct_size, ctypes.sizeof(struct))

    def test_opaque_handle_types_are_those_of_types_h(self):
        with open(os.path.join(cheader.INCLUDE, "types.h"), encoding="utf-8") as handle:
            text = handle.read()
        opaque = re.findall(r"typedef struct (eredu_\w+) \1;", text)
        structs = set(cheader.structs())
        for name in opaque:
            if name not in structs:
                self.assertTrue(issubclass(getattr(_capi, name), ctypes.Structure), name)
                self.assertFalse(hasattr(getattr(_capi, name), "_fields_"), name)


if __name__ == "__main__":
    unittest.main()
