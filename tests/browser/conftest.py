"""A real headless Chromium (Debian's chromium and chromium-driver, driven by selenium) for browser tests."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.api.conftest import FAST, serve
from tests.workers.conftest import export_dir, store  # noqa: F401  (fixtures for the replay tests)

webdriver = pytest.importorskip("selenium.webdriver", reason="the selenium package is not installed")
WebDriverWait = pytest.importorskip("selenium.webdriver.support.ui").WebDriverWait
CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output"


def open_browser(width: int = 1100, height: int = 700):
    if not (CHROMIUM and DRIVER):
        pytest.skip("no headless browser: install Debian's chromium and chromium-driver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}",
                     "--disable-background-networking", "--disable-component-update", "--no-first-run"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


@pytest.fixture(scope="module")
def browser():
    driver = open_browser()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def second_browser():
    """Another browser session, for a second player at the same table."""
    driver = open_browser()
    yield driver
    driver.quit()


def wait(driver, seconds: float) -> WebDriverWait:
    """A wait that looks every 50 ms: the default half second would be most of a move's time at the table."""
    return WebDriverWait(driver, seconds, poll_frequency=0.05)


def console_errors(driver) -> list[dict]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def screenshot(driver, name: str) -> Path:
    """The whole page, however tall, as test-output/<name>."""
    SCREENSHOTS.mkdir(exist_ok=True)
    width = driver.get_window_size()["width"]
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max(height + 120, 700), 6000))
    path = SCREENSHOTS / name
    driver.save_screenshot(str(path))
    return path


@pytest.fixture
def table_api(redis_server, redis_client, tmp_path):
    """The API the table pages play on. Streams end after 2 s of quiet, so the pages must open them again to
    keep following."""
    yield from serve({"REDIS_URL": redis_server.url, "DATA_DIR": str(tmp_path), **FAST, "STREAM_IDLE_SECONDS": 2.0})


def dataset(driver, name: str) -> str:
    """One of the ``data-`` values the table page keeps on its body (its version, status, sending)."""
    value: str = driver.execute_script(f"return document.body.dataset.{name} || ''")
    return value
