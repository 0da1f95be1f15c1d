# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""Loading liberedu: the search order, the ImportError naming what was
tried, and the major-version refusal right after loading (with a stand-in
version function, and end to end with a fake library when a C compiler is
available)."""
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import eredu
from eredu import _library

PACKAGE_PARENT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


class FakeVersion:
    """A stand-in for a ctypes function returning a fixed version number."""

    def __init__(self, number):
        self.number = number
        self.restype = None
        self.argtypes = None

    def __call__(self):
        return self.number


class OnlyVersion:
    """A loaded library whose only usable function is eredu_version_number:
    touching anything else fails the test (the check must come first)."""

    def __init__(self, number):
        self.eredu_version_number = FakeVersion(number)

    def __getattr__(self, name):
        raise AssertionError(f"{name} used before the version check")


class RealWithVersion:
    """The real library with its version function replaced."""

    def __init__(self, path, number):
        self._real = ctypes.CDLL(path)
        self.eredu_version_number = FakeVersion(number)

    def __getattr__(self, name):
        return getattr(self._real, name)


class VersionCheck(unittest.TestCase):
    def test_another_major_is_refused_naming_both_versions(self):
        with self.assertRaises(eredu.IncompatibleLibraryError) as caught:
            _library.load({"EREDU_LIBRARY": "/fake/liberedu.so.0"},
                          cdll=lambda path: OnlyVersion(10203))
        message = str(caught.exception)
        self.assertIn("/fake/liberedu.so.0", message)
        self.assertIn("liberedu 1.2.3", message)
        self.assertIn("eredu_version_number() = 10203", message)
        self.assertIn("written for liberedu 0.x", message)
        self.assertIsInstance(caught.exception, ImportError)

    def test_every_other_major_is_refused(self):
        for number in (10000, 20000, 4294967295):
            with self.assertRaises(eredu.IncompatibleLibraryError):
                _library.check_version(OnlyVersion(number), "fake")

    def test_any_0_x_library_is_accepted(self):
        for number in (0, 100, 9999):
            self.assertEqual(_library.check_version(OnlyVersion(number), "fake"), number)

    def test_the_checked_library_is_then_declared(self):
        loaded = _library.load({"EREDU_LIBRARY": eredu.library_path()},
                               cdll=lambda p: RealWithVersion(p, 9999))
        self.assertEqual(loaded.version_number, 9999)
        self.assertEqual(loaded.eredu_status_name(100), b"EREDU_E_INVALID_GROUP")

    def test_the_running_library_is_0_x_and_reports_its_version(self):
        number = eredu.version_number()
        self.assertEqual(number // 10000, eredu.SUPPORTED_MAJOR)
        self.assertEqual(eredu.version_string(), _library.format_version(number))


class SearchOrder(unittest.TestCase):
    def test_eredu_library_alone_when_set(self):
        self.assertEqual(_library.candidates({"EREDU_LIBRARY": "/x/liberedu.so.0"}),
                         [("EREDU_LIBRARY", "/x/liberedu.so.0")])

    def test_a_directory_in_eredu_library_means_the_file_in_it(self):
        with tempfile.TemporaryDirectory() as folder:
            self.assertEqual(_library.candidates({"EREDU_LIBRARY": folder}),
                             [("EREDU_LIBRARY", os.path.join(folder, "liberedu.so.0"))])

    def test_without_eredu_library_the_system_path_comes_last(self):
        found = _library.candidates({})
        self.assertEqual(found[-1], ("the system library path", "liberedu.so.0"))
        bundled = os.path.join(os.path.dirname(_library.__file__), "liberedu.so.0")
        expected_first = bundled if os.path.exists(bundled) else "liberedu.so.0"
        self.assertEqual(found[0][1], expected_first)

    def test_nothing_loadable_is_an_import_error_naming_each_attempt(self):
        with self.assertRaises(ImportError) as caught:
            _library.load({"EREDU_LIBRARY": "/nonexistent/liberedu.so.0"})
        message = str(caught.exception)
        self.assertIn("cannot load liberedu", message)
        self.assertIn("/nonexistent/liberedu.so.0 (from EREDU_LIBRARY)", message)
        self.assertIn("EREDU_LIBRARY", message)

    def test_importing_with_a_bad_path_fails_cleanly(self):
        result = _import_eredu("/nonexistent/liberedu.so.0")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("ImportError: eredu: cannot load liberedu; tried "
                      "/nonexistent/liberedu.so.0 (from EREDU_LIBRARY)", result.stderr)


    def test_a_bundled_copy_then_the_system_path(self):
        with tempfile.TemporaryDirectory() as folder:
            package = os.path.join(folder, "eredu")
            shutil.copytree(os.path.join(PACKAGE_PARENT, "eredu"), package,
                            ignore=shutil.ignore_patterns("__pycache__", "liberedu.so*"))
            system = os.path.join(folder, "system")
            os.mkdir(system)
            shutil.copy(eredu.library_path(), os.path.join(system, "liberedu.so.0"))
            printed = _import_eredu(None, folder, "print(eredu.library_path())",
                                    LD_LIBRARY_PATH=system)
            self.assertEqual(printed.stdout, "liberedu.so.0\n", printed.stderr)
            shutil.copy(eredu.library_path(), os.path.join(package, "liberedu.so.0"))
            printed = _import_eredu(None, folder, "print(eredu.library_path())")
            self.assertEqual(printed.stdout, os.path.join(package, "liberedu.so.0") + "\n",
                             printed.stderr)


def _import_eredu(library, cwd=PACKAGE_PARENT, code="", **variables):
    """Imports eredu in a fresh interpreter (EREDU_LIBRARY unset when
    `library` is None), then runs `code`."""
    environment = dict(os.environ, **variables)
    environment.pop("EREDU_LIBRARY", None)
    if library is not None:
        environment["EREDU_LIBRARY"] = library
    return subprocess.run([sys.executable, "-c", "import eredu\n" + code], cwd=cwd,
                          env=environment, capture_output=True, text=True, check=False)


@unittest.skipUnless(shutil.which("cc"), "no C compiler to build a fake library")
class FakeLibraryOfAnotherMajor(unittest.TestCase):
    def test_import_refuses_it(self):
        with tempfile.TemporaryDirectory() as folder:
            source = os.path.join(folder, "fake.c")
            with open(source, "w", encoding="utf-8") as handle:
                handle.write("unsigned eredu_version_number(void) { return 10000; }\n")
            library = os.path.join(folder, "liberedu.so.0")
            subprocess.run(["cc", "-shared", "-fPIC", "-o", library, source], check=True)
            result = _import_eredu(library)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("IncompatibleLibraryError", result.stderr)
        self.assertIn("is liberedu 1.0.0 (eredu_version_number() = 10000), but this eredu "
                      "Python package is written for liberedu 0.x", result.stderr)


if __name__ == "__main__":
    unittest.main()
