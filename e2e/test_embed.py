"""The embed demo (web/embed.html): two <onetool-sandbox> elements, each its own runtime."""
import re

import pytest
from playwright.sync_api import expect

BOOT_MS = 180_000


def open_embed(page, onetool_site_url):
    page.goto(f"{onetool_site_url.rstrip('/')}/embed.html")
    page.wait_for_function(
        "[...document.querySelectorAll('onetool-sandbox')].every(box => box.hasAttribute('ready'))",
        timeout=BOOT_MS)


@pytest.fixture(scope="module")
def embed(onetool_page_factory, onetool_site_url):
    """One page with both sandboxes booted, shared by the tests (which only add files)."""
    page = onetool_page_factory(onetool_site_url)
    open_embed(page, onetool_site_url)
    yield page
    problems = page.watch.take()
    page.context.close()
    assert not problems, "\n".join(problems)


def run_in(page, sandbox, line):
    box = page.locator(sandbox)
    outputs = box.locator(".out")
    before = outputs.count()
    box.locator("input").fill(line)
    box.locator("input").press("Enter")
    expect(outputs).to_have_count(before + 1, timeout=60_000)
    return outputs.nth(before).text_content()


def test_each_sandbox_runs_its_autorun_over_its_own_files(embed):
    page = embed
    fruit = page.locator("#sandbox-fruit .out").first
    expect(fruit).to_have_text(re.compile(r"^      3 apple\n      2 banana\n      1 cherry\n\n\[exit:0"))
    config = page.locator("#sandbox-config .out").first
    expect(config).to_have_text(re.compile(r"^ops@example.com\n\n\[exit:0"))


def test_sandboxes_are_independent(embed):
    page = embed
    expect(page.locator("#sandbox-fruit .out")).to_have_count(1, timeout=60_000)
    expect(page.locator("#sandbox-config .out")).to_have_count(1, timeout=60_000)
    assert run_in(page, "#sandbox-fruit", "write /mine.txt hello").startswith("wrote ")
    assert run_in(page, "#sandbox-fruit", "cat /mine.txt").startswith("hello\n\n[exit:0")
    listing = run_in(page, "#sandbox-config", "ls /")
    assert "mine.txt" not in listing and "config" in listing
    assert "fruit.txt" not in listing
    # The second sandbox is read-only (preset attribute): no write command at all.
    assert run_in(page, "#sandbox-config", "write /x.txt y").startswith(
        "[error] bash: line 1: write: command not found")
    tools = page.evaluate("[...document.querySelectorAll('onetool-sandbox')].map(box => Boolean(box.tool))")
    assert tools == [True, True]
    assert page.evaluate("document.querySelector('#sandbox-fruit').tool !== document.querySelector('#sandbox-config').tool")


def test_a_moved_sandbox_keeps_its_runtime(embed):
    page = embed
    page.evaluate("() => { const box = document.querySelector('#sandbox-fruit'); box.parentNode.append(box); }")
    assert run_in(page, "#sandbox-fruit", "head -n 1 /fruit.txt").startswith("apple\n\n[exit:0")


def test_a_sandbox_removed_while_booting_ends_its_worker(embed):
    page = embed
    workers = len(page.workers)  # the two sandboxes of the page
    message = page.evaluate("""async () => {
        const box = document.createElement('onetool-sandbox');
        document.body.append(box);
        box.remove();
        return box.ready.then(() => 'ready', (error) => error.message);
    }""")
    assert message == "removed from the page before it was ready"
    for _ in range(50):  # the worker's end reaches Playwright a little later
        if len(page.workers) == workers:
            break
        page.wait_for_timeout(100)
    assert len(page.workers) == workers
