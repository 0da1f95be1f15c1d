# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

"""A PEP 517 build backend for the pure-Python `eredu` package, standard
library only, so that `pip install ./bindings/python` works without a package
index (pip's isolated build environment cannot see the system's setuptools).

It writes one `py3-none-any` wheel (PEP 427) holding the `eredu/` package and
its `.dist-info` (core metadata 2.1 from pyproject.toml's [project] table).
Editable installs and source distributions are not offered.
"""
import base64
import hashlib
import os
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "eredu"
# Fixed timestamp (1980-01-01, the earliest a zip can hold): the same tree
# builds the same wheel.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as file:
        return tomllib.load(file)["project"]


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        f"License: {project['license']['text']}",
    ]
    lines += [f"Author: {author['name']}" for author in project.get("authors", [])]
    lines.append(f"Keywords: {','.join(project.get('keywords', []))}")
    lines += [f"Classifier: {classifier}" for classifier in project.get("classifiers", [])]
    lines += [f"Project-URL: {name}, {url}" for name, url in project.get("urls", {}).items()]
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(ROOT, project["readme"]), encoding="utf-8") as readme:
        return "\n".join(lines) + "\n\n" + readme.read()


def _package_files():
    """(path inside the wheel, path on disk) of every module, sorted."""
    found = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                found.append((os.path.relpath(path, ROOT).replace(os.sep, "/"), path))
    return found


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"{name},sha256={digest.decode('ascii')},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def _read(path):
    with open(path, "rb") as handle:
        return handle.read()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = _project()
    name, version = project["name"], project["version"]
    dist_info = f"{name}-{version}.dist-info"
    wheel_name = f"{name}-{version}-py3-none-any.whl"
    entries = [(inside, _read(path)) for inside, path in _package_files()]
    entries.append((f"{dist_info}/METADATA", _metadata(project).encode("utf-8")))
    entries.append(
        (
            f"{dist_info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: eredu_wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
    )
    with open(os.path.join(ROOT, "..", "..", "LICENSE"), "rb") as license_file:
        entries.append((f"{dist_info}/LICENSE", license_file.read()))
    record = [_record_line(inside, data) for inside, data in entries]
    record.append(f"{dist_info}/RECORD,,")
    entries.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode("utf-8")))

    temporary = os.path.join(wheel_directory, wheel_name + ".part")
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as wheel:
        for inside, data in entries:
            info = zipfile.ZipInfo(inside, ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    os.replace(temporary, os.path.join(wheel_directory, wheel_name))
    return wheel_name
