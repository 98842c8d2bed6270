"""Each engine a player's phone runs, one browser per engine for the session: Chromium (Playwright), WebKitGTK
(Selenium + WebKitWebDriver, under Xvfb) and Firefox ESR (Marionette, headless). Select one with `-k webkit`.
An engine that is not installed is skipped with a message that says what to install; any uncaught error or
unhandled rejection on the page fails the test, in every engine."""

from __future__ import annotations

import pytest

import engine_drivers

ENGINES = ["chromium", "webkit", "firefox"]


@pytest.fixture(scope="session", params=ENGINES)
def engine_session(request, tmp_path_factory):
    """One browser of the engine, started once; closed at the end of the session."""
    name = request.param
    if name == "chromium":
        browser = request.getfixturevalue("browser")
        yield lambda: engine_drivers.PlaywrightDriver(browser.new_context().new_page())
        return
    why = engine_drivers.missing(name)
    if why:
        pytest.skip(why)
    driver = (
        engine_drivers.start_webkit()
        if name == "webkit"
        else engine_drivers.start_firefox(tmp_path_factory.mktemp("firefox"))
    )
    yield lambda: driver
    driver.close()


@pytest.fixture
def engine(engine_session):
    """The engine's page for one test; the test fails on any page error, read before every navigation and at the end."""
    driver = engine_session()
    driver.errors.clear()
    yield driver
    errors = driver.collect_errors()
    if driver.name == "chromium":
        driver.close()  # a fresh Chromium context per test; the WebDriver engines keep their one window
    if errors:
        pytest.fail(f"{driver.name}: the page reported errors:\n" + "\n".join(errors), pytrace=False)
