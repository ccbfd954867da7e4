"""Small text helpers shared by the parsers: reading an input file safely, TOML, and
splitting specs.

Every input file (config, script, tile file) is read through `read_input`, so each
kind of damage gets the same one-line InputError: unreadable, too large (a device
such as /dev/zero, or a file far beyond any real input), not UTF-8; `parse_toml` adds
nesting too deep for the parser.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from sim.errors import InputError, quote

MAX_INPUT_BYTES = 1 << 20  # 1 MiB: the largest shipped input is under 5 KB


def read_input(path: str | Path, what: str) -> str:
    """The text of the input file `path` (`what`: "config", "script", "tile file")."""
    if "\0" in str(path):  # no file system takes it (open() raises ValueError)
        raise InputError(f"{str(path)!r}: a NUL character in the name: expected the path of a {what}")
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
    except OSError as e:
        raise InputError(f"{path}: cannot read {what}: {e.strerror}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{path}: larger than {MAX_INPUT_BYTES // 1024} KiB: expected a {what}, "
                         f"not a device or a data file")
    return decode(data, str(path), what)


def decode(data: bytes, path: str, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise InputError(f"{path}:{line}: byte 0x{data[e.start]:02x} is not UTF-8: expected a "
                         f"UTF-8 text {what}") from None


def parse_toml(text: str, path: str) -> dict:
    """A TOML document; InputError naming `path` for bad syntax or absurd nesting."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path}: not valid TOML: {e}") from None
    except RecursionError:  # tomllib recurses per nesting level: [[[[…]]]] 20,000 deep
        raise InputError(f"{path}: not valid TOML: arrays or tables nested too deeply") from None


def split_top(text: str, sep: str) -> list[str]:
    """Split on `sep` outside parentheses: `a(b,c),d` -> [`a(b,c)`, `d`].

    Raises InputError for parentheses that do not pair up (`greedy(city=2.0,random`)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            break
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if depth != 0:
        raise InputError(f"{quote(text)}: unbalanced parentheses: expected <strategy>(<key>=<value>,…)")
    out.append(cur)
    return out


def text_list(table: dict, key: str, where: str, allowed: tuple | None) -> list[str]:
    """`table[key]` as a list of texts (one text, or a list of them; [] when missing),
    each one of `allowed` unless that is None. Raises InputError naming `where`."""
    v = table.get(key, [])
    items = [v] if isinstance(v, str) else v
    if not isinstance(items, list) or any(not isinstance(i, str) for i in items) \
            or (allowed and any(i not in allowed for i in items)):
        want = " or ".join(f'"{a}"' for a in allowed) if allowed else "text"
        raise InputError(f"{where}: {key} = {v!r}: expected {want}, or a list of them")
    return items
