"""Headless Chromium for `walkmesh view` pages: Debian's chromium driven by selenium through
Debian's chromedriver (no browser is downloaded), WebGL through Chromium's software renderer.

One set-up for the view peer check (.ci/peers/view_check.py) and the page-ready benchmark
(scripts/bench_view_ready.py), so both measure and check the same browser. Needs selenium
(`pip install selenium`) and the Debian packages chromium and chromium-driver.
"""

import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ARGUMENTS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--window-size=1280,900",
    "--force-device-scale-factor=1",
    # WebGL in a headless browser without a GPU: Chromium's software renderer.
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
]


def browser():
    """A new headless Chromium session (the caller quits it)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ARGUMENTS:
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def load_until_ready(driver, page, timeout_s=60.0, poll_s=0.01):
    """Navigates to the page file `page` and waits for `walkmeshView.ready`: the seconds from
    navigation to ready, or None when it was not ready within `timeout_s`."""
    start = time.monotonic()
    driver.get(page.resolve().as_uri())
    while not driver.execute_script("return !!(window.walkmeshView && walkmeshView.ready)"):
        if time.monotonic() - start > timeout_s:
            return None
        time.sleep(poll_s)
    return time.monotonic() - start
