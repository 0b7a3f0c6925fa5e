"""Debian's chromium for the browser tests: where it is, how to launch it, and the one skip
message when it is missing (no browser is ever downloaded)."""

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")


def require_chromium() -> None:
    if not CHROMIUM.exists():
        pytest.skip(
            "Browser tests need Debian's chromium at /usr/bin/chromium (apt install chromium)"
        )


def launch(playwright):
    """A headless chromium; root needs --no-sandbox."""
    args = ["--disable-gpu", "--disable-background-networking"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.insert(0, "--no-sandbox")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=args)
