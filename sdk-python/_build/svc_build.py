"""A PEP 517 build backend on the standard library: builds the wheel and the sdist of this
project from ``pyproject.toml`` with no download (pip's isolated build environment stays empty).

It supports what this project needs: one pure-Python package under ``src/``, metadata from
``[project]``, no dependencies, no entry points.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import ast
import re
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Reproducible archives: a fixed date (SOURCE_DATE_EPOCH when set).
EPOCH = int(os.environ.get("SOURCE_DATE_EPOCH", "1767225600"))  # 2026-01-01
ZIP_DATE = time.gmtime(max(EPOCH, 315532800))[:6]


def _read_toml(text: str) -> dict[str, Any]:
    """The subset of TOML this project's pyproject.toml uses, for Python 3.10 (no tomllib):
    tables, and keys whose values are booleans, strings, lists of strings, or inline tables of strings."""
    result: dict[str, Any] = {}
    table = result
    pending = ""
    for raw in text.splitlines():
        line = raw.split(" #")[0].strip() if not pending else raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending:
            pending += " " + line
            if not line.startswith("]"):
                continue
            line, pending = pending, ""
        elif line.startswith("["):
            table = result
            for part in line.strip("[]").split("."):
                table = table.setdefault(part.strip(), {})
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if value == "[" or (value.startswith("[") and not value.endswith("]")):
            pending = line
            continue
        if value.startswith("{"):
            value = "{" + re.sub(r"(\w[\w-]*)\s*=", r'"\1":', value[1:-1]) + "}"
        if value in ("true", "false"):
            table[key.strip()] = value == "true"
            continue
        table[key.strip().strip('"')] = ast.literal_eval(value)
    return result


def _config() -> dict[str, Any]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:  # Python 3.10
        return _read_toml(text)
    return tomllib.loads(text)


def _names() -> tuple[str, str, str]:
    project = _config()["project"]
    name = project["name"]
    dist = name.replace("-", "_")
    return name, dist, project["version"]


def _metadata() -> str:
    config = _config()
    project = config["project"]
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project.get('description', '')}",
        f"Requires-Python: {project.get('requires-python', '>=3.10')}",
    ]
    licence = project.get("license", {})
    if isinstance(licence, dict) and "text" in licence:
        lines.append(f"License: {licence['text']}")
    for classifier in project.get("classifiers", []):
        lines.append(f"Classifier: {classifier}")
    for requirement in project.get("dependencies", []):
        lines.append(f"Requires-Dist: {requirement}")
    readme = project.get("readme")
    text = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        text = (ROOT / readme).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + text


def _package_files() -> list[tuple[Path, str]]:
    """(file on disk, path in the wheel) for every file of the package, sorted."""
    build = _config()["tool"]["svc-build"]
    source = ROOT / build["source"]
    package = source / build["package"]
    files = []
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            files.append((path, path.relative_to(source).as_posix()))
    return files


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"sha256={digest}"


def _zip_write(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


# ---------------------------------------------------------------- PEP 517 hooks


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []


def _dist_info(dist: str, version: str) -> dict[str, bytes]:
    return {
        f"{dist}-{version}.dist-info/METADATA": _metadata().encode("utf-8"),
        f"{dist}-{version}.dist-info/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: svc_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ).encode("ascii"),
        f"{dist}-{version}.dist-info/top_level.txt": (_config()["tool"]["svc-build"]["package"] + "\n").encode("ascii"),
    }


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    _, dist, version = _names()
    for name, data in _dist_info(dist, version).items():
        target = Path(metadata_directory) / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return f"{dist}-{version}.dist-info"


def _build_wheel(wheel_directory: str, entries: list[tuple[str, bytes]]) -> str:
    _, dist, version = _names()
    filename = f"{dist}-{version}-py3-none-any.whl"
    meta = _dist_info(dist, version)
    record_name = f"{dist}-{version}.dist-info/RECORD"
    records = []
    with zipfile.ZipFile(Path(wheel_directory) / filename, "w") as archive:
        for name, data in [*entries, *meta.items()]:
            _zip_write(archive, name, data)
            records.append(f"{name},{_record_hash(data)},{len(data)}")
        records.append(f"{record_name},,")
        _zip_write(archive, record_name, ("\n".join(records) + "\n").encode("utf-8"))
    return filename


def build_wheel(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    return _build_wheel(wheel_directory, [(arcname, path.read_bytes()) for path, arcname in _package_files()])


def build_editable(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    # A .pth file pointing at src/: edits show without reinstalling.
    _, dist, _ = _names()
    source = (ROOT / _config()["tool"]["svc-build"]["source"]).resolve()
    return _build_wheel(wheel_directory, [(f"_{dist}_editable.pth", f"{source}\n".encode("utf-8"))])


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    name, dist, version = _names()
    base = f"{dist}-{version}"
    filename = f"{base}.tar.gz"
    members: list[tuple[str, bytes]] = []
    for relative in ["pyproject.toml", "README.md", "_build/svc_build.py"]:
        members.append((relative, (ROOT / relative).read_bytes()))
    source = _config()["tool"]["svc-build"]["source"]
    for path, arcname in _package_files():
        members.append((f"{source}/{arcname}", path.read_bytes()))
    pkg_info = _metadata().encode("utf-8")
    members.append(("PKG-INFO", pkg_info))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        for relative, data in sorted(members):
            info = tarfile.TarInfo(f"{base}/{relative}")
            info.size = len(data)
            info.mtime = EPOCH
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(data))
    (Path(sdist_directory) / filename).write_bytes(buffer.getvalue())
    return filename
