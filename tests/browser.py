"""Headless Chromium for the tests that look at pages (Debian's package; test tools
cannot download browsers here, so .ci/run installs it)."""

import os
import shutil
import subprocess

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None and os.environ.get("CI") != "true",
                                    reason="Debian's chromium is not installed (.ci/run installs it)")


def screenshot(url: str, png, profile, size: str = "1200,1800") -> list[str]:
    """Load `url`, save a screenshot to `png`, return the page's console lines."""
    assert CHROMIUM, "CI must have chromium (.ci/run installs it)"
    r = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                        "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
                        f"--window-size={size}", f"--screenshot={png}", "--enable-logging=stderr",
                        "--v=1", url], capture_output=True, text=True, timeout=120)
    return [line for line in r.stderr.splitlines() if ":CONSOLE" in line]


def console_errors(lines: list[str]) -> list[str]:
    return [line for line in lines if "Uncaught" in line or ":ERROR:" in line or ":WARNING:" in line]


def is_png(path, at_least: int = 20_000) -> bool:
    data = open(path, "rb").read()
    return data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > at_least
