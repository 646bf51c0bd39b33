"""Headless Chromium for the browser tests and the explorer screenshot (Debian's chromium and
chromium-driver, driven by selenium)."""

from __future__ import annotations

import shutil
import tempfile


def find_chromium():
    """(chromium, chromedriver) paths, or a reason why they are missing."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        return None, ("headless Chromium is not installed (apt-get install chromium chromium-driver; "
                      ".ci/run installs it)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return None, "selenium is not installed (pip install '.[test]')"
    return (chromium, driver), None


def start_browser(width=430, height=932):
    """A headless Chromium (a phone-sized window by default)."""
    from selenium import webdriver

    found, why = find_chromium()
    if found is None:
        raise RuntimeError(why)
    chromium, driver = found
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", f"--window-size={width},{height}",
                f"--user-data-dir={tempfile.mkdtemp(prefix='morris-chromium-')}"):
        opts.add_argument(arg)
    return webdriver.Chrome(service=webdriver.ChromeService(executable_path=driver), options=opts)
