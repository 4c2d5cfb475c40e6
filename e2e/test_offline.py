"""Offline use (web/sw.js, web/js/offline.js): after one online visit the pages boot and run
with the network off, from the service worker's cache, with and without COOP/COEP."""
import pytest
from playwright.sync_api import expect

BOOT_MS = 180_000
SW_READY_JS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const manifest = await (await fetch("./onetool-manifest.json")).json();
  // the install step has cached every file of the manifest by the time the worker is active
  return {active: registration.active.state, script: registration.active.scriptURL,
          siteHash: manifest.siteHash, caches: await caches.keys(),
          controlled: navigator.serviceWorker.controller !== null};
}"""


def wait_for_service_worker(page):
    state = page.evaluate(SW_READY_JS)
    assert state["active"] == "activated"
    assert state["script"].endswith(f"/sw.js?v={state['siteHash']}")
    assert state["caches"] == [f"onetool-site-{state['siteHash']}"]
    return state


def open_playground(page, url):
    page.goto(url + "index.html?world=demo")
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_MS)


@pytest.mark.parametrize("isolated", [True, False], ids=["coop-coep", "plain-host"])
def test_the_playground_boots_and_runs_offline_after_one_visit(onetool_page_factory, onetool_site_url, onetool_plain_site_url, isolated):
    url = onetool_site_url if isolated else onetool_plain_site_url
    page = onetool_page_factory(url)
    try:
        open_playground(page, url)
        wait_for_service_worker(page)
        online = page.evaluate("window.onetool.run('cat /logs/app.log | grep ERROR | wc -l')")

        page.context.set_offline(True)
        open_playground(page, url)
        # the network really is off: what the cache does not hold fails (and says so in the console)
        page.watch.allow_console_error("net::ERR_INTERNET_DISCONNECTED")
        assert page.evaluate("fetch('./not-in-the-cache.txt').then(() => 'online', () => 'offline')") == "offline"
        assert page.evaluate("navigator.serviceWorker.controller !== null") is True
        assert page.evaluate("crossOriginIsolated") is isolated
        offline = page.evaluate("window.onetool.run('cat /logs/app.log | grep ERROR | wc -l')")
        assert offline.split("\n\n[exit:")[0] == online.split("\n\n[exit:")[0] == "3"
        assert "\n\n[exit:0 | " in offline
        assert page.evaluate("window.onetool.info.crossOriginIsolated") is isolated
    finally:
        problems = page.watch.take()
        page.context.close()
    assert not problems, "\n".join(problems)


def test_the_embed_and_agent_pages_boot_offline(onetool_page_factory, onetool_site_url):
    page = onetool_page_factory(onetool_site_url)
    try:
        page.goto(onetool_site_url + "embed.html")
        wait_for_service_worker(page)
        page.context.set_offline(True)
        page.goto(onetool_site_url + "embed.html")
        page.wait_for_function(
            "[...document.querySelectorAll('onetool-sandbox')].every(box => box.hasAttribute('ready'))", timeout=BOOT_MS)
        box = page.locator("onetool-sandbox").first
        box.locator("input").fill("echo offline-ok")
        box.locator("input").press("Enter")
        expect(box.locator(".out").last).to_contain_text("offline-ok", timeout=60_000)

        page.goto(onetool_site_url + "agent.html")
        page.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_MS)
    finally:
        problems = page.watch.take()
        page.context.close()
    assert not problems, "\n".join(problems)
