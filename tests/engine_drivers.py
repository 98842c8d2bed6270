"""One small interface over the three ways the tests drive a browser engine: Playwright (Chromium), Selenium with
WebKitWebDriver (WebKitGTK's MiniBrowser, the engine of every iPhone browser, under Xvfb) and Marionette (Firefox
ESR, headless). The steps in tests/steps.py are written once against it and run in all three."""

from __future__ import annotations

import gc
import glob
import os
import shutil
import socket
import subprocess
import time
import warnings
from pathlib import Path

KEYS = {"Home": "\ue011", "ArrowRight": "\ue014", "Enter": "\ue007", "Tab": "\ue004"}  # WebDriver's key codes

# The page's own record of its uncaught errors and unhandled rejections (static/boot.js).
PAGE_ERRORS = "() => (self.arbiterErrors || []).splice(0)"

# WebDriver's execute_async_script: run a JS function (its result may be a promise) on the page with one argument.
ASYNC_CALL = """const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (%s)(arguments[0])).then(
  (value) => done({ ok: value === undefined ? null : value }),
  (error) => done({ error: `${error}${error && error.stack ? `\n${error.stack}` : ''}` }));"""


# Before a WebDriver click: note, once, that a click event reached an element matching `css` (or inside one); the
# note's token. Matched when the event comes, so an element the page has redrawn meanwhile counts too.
ARM_CLICK = """(css) => { const token = String(Math.random());
  const seen = (e) => { if (e.target.closest && e.target.closest(css)) {
    self.__arbiterClicked = token; removeEventListener('click', seen, true); } };
  addEventListener('click', seen, true); return token; }"""
CLICK_WAIT_S = 5


class ScriptError(Exception):
    """A script run on the page threw or rejected."""


class Navigated(ScriptError):
    """The page navigated while a script ran, so it gave no answer."""


class Driver:
    """A page in one engine. `errors` collects the page's uncaught errors, read before every navigation."""

    name = "?"

    def __init__(self):
        self.errors: list[str] = []

    # what each engine implements
    def run(self, fn: str, arg=None):
        """The value of the JS function `fn` (source text) called with `arg` on the page, awaited if a promise."""
        raise NotImplementedError

    def _navigate(self, url: str) -> None:
        raise NotImplementedError

    def click(self, css: str) -> None:
        raise NotImplementedError

    def fill(self, css: str, value) -> None:
        raise NotImplementedError

    def select(self, css: str, value: str) -> None:
        raise NotImplementedError

    def press(self, css: str, *keys: str) -> None:
        """Focus the element and press `keys` (names from KEYS) as the keyboard would."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # shared
    def goto(self, url: str) -> None:
        """Load `url`, afresh even if it is the page already shown (a hash alone would not reload it)."""
        self.collect_errors()
        self._navigate("about:blank")
        self._navigate(url)

    def collect_errors(self) -> list[str]:
        """Move the page's recorded errors into `self.errors` (nothing if no page of ours is open)."""
        try:
            found = self.run(PAGE_ERRORS) or []
        except ScriptError:
            found = []
        self.errors += [str(e) for e in found]
        return self.errors


class PlaywrightDriver(Driver):
    name = "chromium"

    def __init__(self, page):
        super().__init__()
        self.page = page
        page.on("pageerror", lambda error: self.errors.append(f"uncaught error: {error}"))
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"console error: {m.text}"))

    def run(self, fn, arg=None):
        from playwright.sync_api import Error

        try:
            return self.page.evaluate(fn, arg)
        except Error as exc:
            raise ScriptError(exc.message) from None

    def _navigate(self, url):
        self.page.goto(url)

    def click(self, css):
        self.page.click(css)

    def fill(self, css, value):
        self.page.fill(css, str(value))

    def select(self, css, value):
        self.page.select_option(css, value)

    def press(self, css, *keys):
        self.page.focus(css)
        for key in keys:
            self.page.keyboard.press(key)

    def close(self):
        self.page.context.close()


class _WebDriver(Driver):
    """Selenium and Marionette speak the same WebDriver commands under different method names."""

    def _element(self, css):
        raise NotImplementedError

    def _call(self, script, arg):
        raise NotImplementedError

    def run(self, fn, arg=None):
        answer = self._call(ASYNC_CALL % fn, arg)
        if answer is None:  # the document went away under the script (a navigation): no answer
            raise Navigated(f"{self.name}: the page navigated while a script ran")
        if not isinstance(answer, dict) or "error" in answer:
            raise ScriptError(answer.get("error") if isinstance(answer, dict) else repr(answer))
        return answer["ok"]

    def _shown(self, css):
        """The element, scrolled into view first: WebKit finds an element of a `content-visibility: auto` part that
        is still off screen (the Table) not interactable, and WebDriver's own scrolling does not reach it."""
        self.run("(css) => document.querySelector(css).scrollIntoView({ block: 'center' })", css)
        return self._element(css)

    def click(self, css):
        """A WebDriver click the page is seen to receive. WebKitWebDriver, on a loaded machine, now and then reports a
        click done (on Roll's sticky bar, on the Table's Create) that never reached the page: no click event at all,
        and afterwards the element is in view, enabled and topmost at its centre. So the page notes each click's
        arrival, and a click that has not arrived after CLICK_WAIT_S is made again (twice at most), with a warning."""
        token = self.run(ARM_CLICK, css)
        for attempt in range(3):
            if attempt:
                warnings.warn(f"{self.name}: clicked {css} again: the page got no click event in {CLICK_WAIT_S} s")
            self._shown(css).click()
            if self._arrived(token):
                return
        raise AssertionError(f"{self.name}: three clicks on {css} and the page got none")

    def _arrived(self, token: str) -> bool:
        deadline = time.monotonic() + CLICK_WAIT_S
        while time.monotonic() < deadline:
            try:
                if self.run("(token) => self.__arbiterClicked === token", token):
                    return True
            except Navigated:
                return True  # the click led to another page
            time.sleep(0.05)
        return False

    def fill(self, css, value):
        """Type `value` into the field; typed again (twice at most, with a warning) if the field does not then hold
        it, as a lost click can be lost keys."""
        for attempt in range(3):
            if attempt:
                warnings.warn(f"{self.name}: typed into {css} again: it did not hold {value!r}")
            element = self._shown(css)
            element.clear()
            element.send_keys(str(value))
            if self.run("([css, value]) => document.querySelector(css).value === value", [css, str(value)]):
                return
        raise AssertionError(f"{self.name}: {css} does not hold {value!r} after three tries")

    def select(self, css, value):
        # WebKitWebDriver finds an <option> not interactable; choose it as the select's own keyboard would, by
        # setting the value and firing the events a choice fires.
        self.run(
            """([css, value]) => { const s = document.querySelector(css);
            if (s.value !== value) { s.value = value; s.dispatchEvent(new Event('input', { bubbles: true }));
                                     s.dispatchEvent(new Event('change', { bubbles: true })); } }""",
            [css, value],
        )

    def press(self, css, *keys):
        self._shown(css).send_keys("".join(KEYS[k] for k in keys))


class WebKitDriver(_WebDriver):
    name = "webkit"

    def __init__(self, driver, xvfb):
        super().__init__()
        self.driver, self.xvfb = driver, xvfb
        driver.set_script_timeout(90)

    def _element(self, css):
        return self.driver.find_element("css selector", css)

    def _call(self, script, arg):
        return self.driver.execute_async_script(script, arg)

    def _navigate(self, url):
        self.driver.get(url)

    def close(self):
        try:
            self.driver.quit()
        finally:
            self.xvfb.terminate()
            self.xvfb.wait(10)


class FirefoxDriver(_WebDriver):
    name = "firefox"

    def __init__(self, client):
        super().__init__()
        self.client = client
        client.timeout.script = 90

    def _element(self, css):
        return self.client.find_element("css selector", css)

    def _call(self, script, arg):
        # sandbox=None: in the page's own scope, so `window.arbiter` is the page's object, not an X-ray wrapper
        return self.client.execute_async_script(script, script_args=[arg], sandbox=None)

    def _navigate(self, url):
        self.client.navigate(url)

    def close(self):
        try:
            self.client.delete_session()
        finally:
            self.client.cleanup()
            # Drop the temporary profile now: left to interpreter shutdown, its __del__ fails noisily.
            self.client.instance = None
            gc.collect()


# --- finding and starting the engines --------------------------------------------------------------------------


def minibrowser() -> str | None:
    """WebKitGTK's MiniBrowser (Debian's libwebkit2gtk ships it outside PATH)."""
    found = sorted(
        glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser") + glob.glob("/usr/libexec/webkit2gtk-4.*/MiniBrowser")
    )
    return found[-1] if found else None


def firefox() -> str | None:
    for candidate in (os.environ.get("ARBITER_FIREFOX"), shutil.which("firefox-esr"), shutil.which("firefox")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _importable(module: str) -> bool:
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def missing(engine: str, python_checked: bool = True) -> str | None:
    """Why `engine` cannot run here, in words that say what to install; None when it can. `python_checked=False`
    looks at the machine's programs only (build.py asks before the test venv is in use)."""
    if engine == "webkit":
        parts = {
            "WebKitWebDriver": shutil.which("WebKitWebDriver"),
            "MiniBrowser": minibrowser(),
            "Xvfb": shutil.which("Xvfb"),
        }
        lack = [k for k, v in parts.items() if not v]
        if python_checked and not _importable("selenium"):
            lack.append("selenium (PyPI)")
        if lack:
            return (
                f"WebKitGTK cannot run here: {', '.join(lack)} not found "
                "(Debian: apt-get install webkit2gtk-driver xvfb xauth; `python3 build.py test` does it as root)"
            )
    if engine == "firefox":
        lack = [] if firefox() else ["firefox-esr"]
        if python_checked and not _importable("marionette_driver"):
            lack.append("marionette-driver (PyPI)")
        if lack:
            return (
                f"Firefox cannot run here: {', '.join(lack)} not found "
                "(Debian: apt-get install firefox-esr; `python3 build.py test` does it as root)"
            )
    return None


def start_xvfb() -> tuple[subprocess.Popen, str]:
    """A virtual screen on a free display number (Xvfb picks it and writes it to the pipe)."""
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        proc.kill()
        raise RuntimeError("Xvfb did not start")
    return proc, f":{number}"


def start_webkit(settings: tuple[str, ...] = ()) -> WebKitDriver:
    """MiniBrowser under WebKitWebDriver on a virtual screen; `settings` are MiniBrowser's own options besides ours
    (a live table's test turns WebRTC on: `--enable-webrtc=true`)."""
    from selenium import webdriver

    xvfb, display = start_xvfb()
    os.environ["DISPLAY"] = display  # WebKitWebDriver starts MiniBrowser with our environment
    options = webdriver.WebKitGTKOptions()
    options.binary_location = minibrowser()
    options.add_argument("--automation")
    for setting in settings:
        options.add_argument(setting)
    service = webdriver.WebKitGTKService(executable_path=shutil.which("WebKitWebDriver"))
    try:
        return WebKitDriver(webdriver.WebKitGTK(options=options, service=service), xvfb)
    except Exception:
        xvfb.terminate()
        raise


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_firefox(log_dir: Path, prefs: dict | None = None) -> FirefoxDriver:
    """Firefox ESR, headless, under Marionette; `prefs` set besides ours (a live table's test turns its mDNS
    hiding off)."""
    from marionette_driver.marionette import Marionette

    client = Marionette(
        bin=firefox(),
        port=free_port(),  # not Marionette's fixed 2828: another worker's or run's Firefox may hold it
        headless=True,
        gecko_log=str(log_dir / "gecko.log"),
        prefs={"browser.shell.checkDefaultBrowser": False, **(prefs or {})},
        startup_timeout=300,
    )  # a loaded 2-core machine can take minutes to start it
    client.start_session()
    return FirefoxDriver(client)
