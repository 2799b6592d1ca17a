"""A real headless Chromium (Debian's chromium and chromium-driver, driven by selenium) for browser tests."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="the selenium package is not installed")
CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output"


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and DRIVER):
        pytest.skip("no headless browser: install Debian's chromium and chromium-driver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,700",
                     "--disable-background-networking", "--disable-component-update", "--no-first-run"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()
