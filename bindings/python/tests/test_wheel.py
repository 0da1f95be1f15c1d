# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""The in-tree build backend (build_backend/eredu_wheel.py) that `pip install
./bindings/python` runs: the wheel holds every module of the package and a
RECORD whose hashes and sizes match, and two builds are byte-identical."""
import base64
import hashlib
import os
import sys
import tempfile
import unittest
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "build_backend"))
import eredu_wheel  # noqa: E402


class WheelTest(unittest.TestCase):
    def build(self, directory):
        name = eredu_wheel.build_wheel(directory)
        with open(os.path.join(directory, name), "rb") as file:
            return name, file.read()

    def test_wheel_holds_the_package_and_a_matching_record(self):
        self.assertEqual(eredu_wheel.get_requires_for_build_wheel(), [])
        with tempfile.TemporaryDirectory() as directory:
            name, _ = self.build(directory)
            self.assertEqual(name, "eredu-0.1.0-py3-none-any.whl")
            self.assertEqual(os.listdir(directory), [name])
            with zipfile.ZipFile(os.path.join(directory, name)) as wheel:
                names = wheel.namelist()
                modules = sorted(
                    f"eredu/{module}"
                    for module in os.listdir(os.path.join(ROOT, "eredu"))
                    if module.endswith(".py")
                )
                self.assertEqual(sorted(n for n in names if n.startswith("eredu/")), modules)
                self.assertIn("eredu/_capi_gen.py", names)
                metadata = wheel.read("eredu-0.1.0.dist-info/METADATA").decode("utf-8")
                self.assertIn("\nName: eredu\nVersion: 0.1.0\n", metadata)
                self.assertIn("License: Apache-2.0\n", metadata)
                self.assertIn("Tag: py3-none-any", wheel.read("eredu-0.1.0.dist-info/WHEEL").decode())
                record = wheel.read("eredu-0.1.0.dist-info/RECORD").decode("utf-8").splitlines()
                self.assertEqual(len(record), len(names))
                self.assertEqual(record[-1], "eredu-0.1.0.dist-info/RECORD,,")
                for line in record[:-1]:
                    path, digest, size = line.split(",")
                    data = wheel.read(path)
                    expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                    self.assertEqual(digest, "sha256=" + expected.decode("ascii"), path)
                    self.assertEqual(int(size), len(data), path)

    def test_builds_are_reproducible(self):
        with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
            self.assertEqual(self.build(first), self.build(second))


if __name__ == "__main__":
    unittest.main()
