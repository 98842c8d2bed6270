"""The loading line on a slow phone: the bar follows the runtime's bytes as they arrive, then says Python starts."""

from __future__ import annotations

# Every change a player could see of the loading line, from its first paint: [ms since navigation, value, label].
# An init script (run before the page's own, outside its Content-Security-Policy) watches for the bar and its label.
RECORD_LOADING_LINE = """(() => {
    const seen = (self.loadingLine = []);
    const record = () => seen.push([performance.now(), document.getElementById('load-progress').value,
        document.getElementById('load-label').textContent]);
    const found = new MutationObserver(() => {
        if (!document.getElementById('load-progress') || !document.getElementById('load-label')) return;
        found.disconnect();
        record();
        const changed = new MutationObserver(record);
        changed.observe(document.getElementById('load-progress'), { attributes: true });
        changed.observe(document.getElementById('load-label'), { childList: true, characterData: true, subtree: true });
    });
    found.observe(document, { childList: true, subtree: true });
})();"""

SLOW_PHONE_BYTES_PER_S = 4e6 / 8  # 4 Mbps
SLOW_PHONE_CPU = 4  # times slower
DOWNLOADS_END = 0.8  # the bar's share for the bytes of the wasm and the snapshot (static/engine/worker.js)


def test_the_loading_bar_moves_with_the_downloads_on_a_slow_phone(page, await_ready):
    """At 4 Mbps and 4× CPU the bar moves from the start of the downloads (its first step is a small one, not a jump
    at their end), rises at least five times, three of them while bytes arrive, says "Starting Python…", then the
    rules are ready. (When, in ms, is a benchmark's question: docs/contributing.md#no-timings-in-assertions; the line
    is printed on failure.)"""
    page.context.add_init_script(RECORD_LOADING_LINE)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": 20,
            "downloadThroughput": SLOW_PHONE_BYTES_PER_S,
            "uploadThroughput": SLOW_PHONE_BYTES_PER_S,
        },
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOW_PHONE_CPU})
    page.goto("/", timeout=60_000)
    await_ready(page, 120_000)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    line = page.evaluate("self.loadingLine")
    before_ready = [(ms, value, label) for ms, value, label in line if value < 1]
    shown = "\n".join(f"{ms:7.0f} ms  {value:.3f}  {label}" for ms, value, label in line)
    assert before_ready and before_ready[0][1] == 0, shown  # the line was watched from the start
    first_step = next(value for _, value, _ in line if value > 0)
    assert first_step <= 0.1, shown  # the bar moved while the downloads had barely begun
    rises = [b for a, b in zip(before_ready, before_ready[1:]) if b[1] > a[1]]
    assert len(rises) >= 5, shown
    by_bytes = [r for r in rises if first_step < r[1] < DOWNLOADS_END]
    assert len(by_bytes) >= 3, shown  # it follows the bytes as they arrive, not only the steps around them
    assert "Starting Python…" in [label for _, _, label in before_ready], shown
    assert line[-1][1] == 1 and all(a[1] <= b[1] for a, b in zip(line, line[1:])), shown
