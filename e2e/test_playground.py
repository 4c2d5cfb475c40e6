"""The playground (web/index.html) driven like a person would: type, click, read what is shown.

Fixtures from e2e/conftest.py: `onetool_site_url` (dist/site served with COOP/COEP), `page` (a fresh
page that fails the test on page errors, console errors or requests leaving the origin) and
`onetool_page_factory` (the same, for the module-scoped page here). Most tests share one booted
demo world (`playground`), reset to its seed files before each test, so their order does not
matter; tests that switch worlds or reload get a page of their own.
"""
import re

import pytest
from playwright.sync_api import expect

expect.set_options(timeout=30_000)
BOOT_MS = 180_000
FOOTER = r"\n\n\[exit:(\d+) \| [0-9.]+m?s\]$"


def open_playground(page, onetool_site_url, world="demo"):
    page.goto(f"{onetool_site_url.rstrip('/')}/index.html?world={world}")
    wait_ready(page)
    reset_world(page)
    return page


def wait_ready(page):
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_MS)


def reset_world(page):
    """Back to the world's seed files (the store may hold files from an earlier test)."""
    notes = page.locator("#term-output .note")
    before = notes.count()
    page.click("#world-reset")
    expect(notes).to_have_count(before + 1)
    expect(notes.last).to_have_text("world reset: its files were seeded again")
    expect(page.locator("#world-reset")).to_be_enabled()


def run_line(page, line):
    """Type a line, press Enter, return the text block shown for it."""
    entries = page.locator("#term-output .entry:not(.note)")
    before = entries.count()
    page.fill("#term-input", line)
    page.press("#term-input", "Enter")
    entry = entries.nth(before)
    expect(entry.locator(".line")).to_have_text(line)
    output = entry.locator(".out")
    expect(output).to_have_count(1, timeout=60_000)
    return output.text_content()


@pytest.fixture(scope="module")
def playground(onetool_page_factory, onetool_site_url):
    page = onetool_page_factory(onetool_site_url)
    page.goto(f"{onetool_site_url.rstrip('/')}/index.html?world=demo")
    wait_ready(page)
    yield page
    problems = page.watch.take()
    page.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def demo(playground):
    """The shared demo page, reset; the test fails on any page problem it caused."""
    reset_world(playground)
    yield playground
    playground.watch.assert_clean()


def body_and_exit(text):
    match = re.search(FOOTER, text)
    assert match, f"no footer in {text!r}"
    return text[: match.start()], int(match.group(1))


def tree_paths(page):
    return page.locator("#file-tree li").evaluate_all("items => items.map(item => item.dataset.path)")


def test_boot_sets_ready_and_exposes_the_instance(demo):
    page = demo
    assert page.locator("#boot").is_hidden()
    assert page.evaluate("document.querySelector('#boot-progress').value") == 1
    assert page.locator("#term-input").is_enabled()
    text = page.evaluate("window.onetool.run('echo hi')")
    assert body_and_exit(text) == ("hi", 0)


def test_pipeline_typed_into_the_terminal(demo):
    page = demo
    assert body_and_exit(run_line(page, "cat /logs/app.log | grep ERROR | wc -l")) == ("3", 0)
    body, code = body_and_exit(run_line(page, "cat /nope.txt"))
    assert (body, code) == ("[error] cat: /nope.txt: No such file or directory", 1)
    expect(page.locator("#term-output .out").last).to_have_class(re.compile(r"\bfailed\b"))


def test_arrow_keys_walk_the_history(demo):
    page = demo
    run_line(page, "echo one")
    run_line(page, "echo two")
    box = page.locator("#term-input")
    box.fill("draft")
    box.press("ArrowUp")
    expect(box).to_have_value("echo two")
    box.press("ArrowUp")
    expect(box).to_have_value("echo one")
    box.press("ArrowDown")
    expect(box).to_have_value("echo two")
    box.press("ArrowDown")
    expect(box).to_have_value("draft")
    box.fill("")
    box.press("ArrowUp")
    box.press("Enter")
    expect(page.locator("#term-output .entry .line").last).to_have_text("echo two")


def test_a_line_entered_while_a_command_runs_waits_its_turn(demo):
    page = demo
    entries = page.locator("#term-output .entry:not(.note)")
    before = entries.count()
    box = page.locator("#term-input")
    box.fill("sleep 0.5; echo first")
    box.press("Enter")
    expect(page.locator("#term-stop")).to_be_visible()  # running
    box.fill("echo second")
    box.press("Enter")
    expect(box).to_have_value("")
    expect(entries.nth(before + 1).locator(".out")).to_have_count(1)
    assert entries.locator(".line").all_text_contents()[before:] == ["sleep 0.5; echo first", "echo second"]
    outputs = entries.locator(".out").all_text_contents()[before:]
    assert [body_and_exit(text) for text in outputs] == [("first", 0), ("second", 0)]
    expect(page.locator("#term-stop")).to_be_hidden()


def test_stop_ends_the_command_and_drops_the_lines_typed_ahead(demo):
    page = demo
    entries = page.locator("#term-output .entry:not(.note)")
    before = entries.count()
    box = page.locator("#term-input")
    box.fill("sleep 30")
    box.press("Enter")
    expect(page.locator("#term-stop")).to_be_visible()
    box.fill("echo later")
    box.press("Enter")
    page.click("#term-stop")
    expect(page.locator("#term-output .note").last).to_have_text(re.compile(r"^interrupt: .+; 1 waiting line dropped$"))
    expect(entries.nth(before).locator(".out")).to_have_count(1)
    expect(page.locator("#term-stop")).to_be_hidden()
    assert entries.locator(".line").all_text_contents()[before:] == ["sleep 30"]


def test_file_tree_refreshes_after_each_command(demo):
    page = demo
    expect(page.locator('#file-tree li[data-path="/notes/todo.txt"]')).to_be_visible()
    assert "/reports/summary.txt" not in tree_paths(page)
    run_line(page, "mkdir /reports && write /reports/summary.txt 'three errors'")
    new_file = page.locator('#file-tree li[data-path="/reports/summary.txt"]')
    expect(new_file).to_be_visible()
    expect(new_file).to_have_class(re.compile(r"\bfresh\b"))
    run_line(page, "cp /reports/summary.txt /reports/copy.txt")
    expect(page.locator('#file-tree li[data-path="/reports/copy.txt"]')).to_be_visible()
    # A click on a file runs `cat` on it.
    new_file.locator("button").click()
    expect(page.locator("#term-output .entry .line").last).to_have_text("cat /reports/summary.txt")
    expect(page.locator("#term-output .out").last).to_have_text(re.compile(r"^three errors\n\n\[exit:0"))


def test_consent_approve_runs_the_command(demo):
    page = demo
    page.fill("#term-input", "rm /notes/todo.txt")
    page.press("#term-input", "Enter")
    dialog = page.locator("#consent")
    expect(dialog).to_be_visible()
    expect(page.locator("#consent-title")).to_have_text("Allow fs:rm (write)?")
    expect(page.locator("#consent-reason")).to_have_text('matches confirm pattern "fs:rm"')
    expect(page.locator("#consent-command")).to_have_text("rm /notes/todo.txt")
    page.click("#consent-approve")
    expect(dialog).to_be_hidden()
    expect(page.locator("#term-output .out").last).to_have_text(re.compile(r"^\[exit:0 \| "))  # rm is silent
    expect(page.locator('#file-tree li[data-path="/notes/todo.txt"]')).to_have_count(0)


def test_consent_decline_runs_nothing(demo):
    page = demo
    page.fill("#term-input", "rm /notes/todo.txt")
    page.press("#term-input", "Enter")
    page.click("#consent-decline")
    expected = "[error] rm: fs:rm was declined by the user; nothing was run"
    expect(page.locator("#term-output .out").last).to_have_text(re.compile("^" + re.escape(expected) + FOOTER))
    body, code = body_and_exit(run_line(page, "cat /notes/todo.txt"))
    assert code == 0 and body.startswith("1. Review refund incident timeline")


def test_overwriting_a_file_asks_first_and_a_new_file_does_not(demo):
    page = demo
    body, code = body_and_exit(run_line(page, "write /notes/new.txt fresh"))
    assert code == 0 and body == "wrote 5B to /notes/new.txt"
    page.fill("#term-input", "echo replaced > /notes/todo.txt")
    page.press("#term-input", "Enter")
    expect(page.locator("#consent")).to_be_visible()
    expect(page.locator("#consent-title")).to_have_text("Allow fs:write (write)?")
    expect(page.locator("#consent-reason")).to_have_text("overwrites /notes/todo.txt")
    page.click("#consent-decline")
    body, code = body_and_exit(run_line(page, "head -n 1 /notes/todo.txt"))
    assert code == 0 and body == "1. Review refund incident timeline"


def test_consent_edit_changes_what_runs(demo):
    page = demo
    page.fill("#term-input", "rm /notes/todo.txt")
    page.press("#term-input", "Enter")
    field = page.get_by_label("args[0]")
    expect(field).to_have_value("/notes/todo.txt")
    field.fill("/drafts/qbr.md")
    field.press("Enter")  # must not submit the dialog (Enter would pick the first button)
    expect(page.locator("#consent")).to_be_visible()
    page.click("#consent-approve")
    expect(page.locator("#term-output .out").last).to_have_text(re.compile(r"^\[exit:0 \| "))
    paths = tree_paths(page)
    assert "/notes/todo.txt" in paths and "/drafts/qbr.md" not in paths


def test_html_in_output_is_shown_as_text_and_never_runs(demo):
    page = demo
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    payload = "<img src=x onerror=alert(1)>"
    assert body_and_exit(run_line(page, f"echo '{payload}'")) == (payload, 0)
    script = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
    run_line(page, f"write /page.html '{script}'")
    assert body_and_exit(run_line(page, "cat /page.html")) == (script, 0)
    run_line(page, "write '/<b onmouseover=alert(3)>.txt' x")
    expect(page.locator('#file-tree li[data-path="/<b onmouseover=alert(3)>.txt"] button')).to_have_text(
        "<b onmouseover=alert(3)>.txt")
    assert page.locator("#term-output img, #term-output script, #file-tree b, #trace-view img").count() == 0
    assert page.evaluate("window.__pwned") is None
    page.wait_for_timeout(300)  # an onerror handler would have fired by now
    assert dialogs == []


def test_trace_view_shows_every_pipeline_and_command(demo):
    page = demo
    page.click("#tab-trace")
    run_line(page, "cat /logs/app.log | grep ERROR | wc -l && ls /nope || echo fallback; echo skipped || echo never")
    trace = page.locator("#trace-view")
    expect(trace).to_be_visible()
    pipelines = trace.locator(".pipeline")
    expect(pipelines).to_have_count(5)
    first = pipelines.nth(0)
    expect(first.locator(".argv")).to_have_text(["cat /logs/app.log", "grep ERROR", "wc -l"])
    expect(first.locator(".bytes")).to_have_text(
        ["stdin 0 B → stdout 293 B", "stdin 293 B → stdout 157 B", "stdin 157 B → stdout 2 B"])
    expect(pipelines.nth(1).locator(".stderr")).to_have_text("ls: cannot access '/nope': No such file or directory")
    expect(pipelines.nth(1).locator(".pipeline-head .exit")).to_have_text("exit 2")  # GNU ls
    expect(pipelines.nth(2).locator(".pipeline-head")).to_contain_text("|| pipeline 3")
    expect(pipelines.nth(4)).to_have_class(re.compile(r"\bskipped\b"))
    expect(pipelines.nth(4).locator(".pipeline-head")).to_contain_text("skipped (previous_succeeded)")
    expect(trace.locator(".summary dd").first).to_have_text(
        "cat /logs/app.log | grep ERROR | wc -l && ls /nope || echo fallback; echo skipped || echo never")


def test_tool_definition_switches_format(demo):
    page = demo
    page.click("#tab-tooldef")
    output = page.locator("#tooldef-output")
    expect(output).to_contain_text('"type": "function"')
    assert '"name": "run"' in output.text_content()
    page.select_option("#tooldef-format", "anthropic")
    expect(output).to_contain_text('"input_schema"')
    page.select_option("#tooldef-format", "mcp")
    expect(output).to_contain_text('"inputSchema"')
    assert "Available commands:" in output.text_content()


def test_example_world_loads(onetool_watched_page, onetool_site_url):
    page = onetool_watched_page
    open_playground(page, onetool_site_url)
    page.select_option("#world-select", "logs")
    page.click("#world-load")
    wait_ready(page)
    reset_world(page)
    expect(page.locator('#file-tree li[data-path="/logs/access.log"]')).to_be_visible()
    assert "/notes/todo.txt" not in tree_paths(page)
    expect(page.locator("#world-description")).to_contain_text("access log")
    page.get_by_role("button", name="grep -c 'payment timeout' /logs/app.log").click()
    expect(page.locator("#term-output .out").last).to_have_text(re.compile(r"^1\n\n\[exit:0"))
    # The choice is remembered: a reload comes back to the same world.
    page.goto(f"{onetool_site_url.rstrip('/')}/index.html")
    wait_ready(page)
    expect(page.locator("#world-select")).to_have_value("logs")


def test_pet_store_world_calls_the_javascript_provider(onetool_watched_page, onetool_site_url):
    page = onetool_watched_page
    open_playground(page, onetool_site_url, world="petstore")
    assert body_and_exit(run_line(page, "petstore listPets status=sold | json get [0].name")) == ("Rex", 0)
    page.fill("#term-input", "petstore createPet name=Tom species=cat")
    page.press("#term-input", "Enter")
    expect(page.locator("#consent-title")).to_have_text("Allow petstore:createPet (write)?")
    page.get_by_label("name", exact=True).fill("Tim")
    page.click("#consent-approve")
    expect(page.locator("#term-output .out").last).to_contain_text('"name": "Tim"')
    body, code = body_and_exit(run_line(page, "petstore listPets species=cat | json get [2].name"))
    assert (body, code) == ("Tim", 0)


def test_search_and_fetch_adapters_answer_from_the_page(demo):
    page = demo
    body, code = body_and_exit(run_line(page, 'search "refund timeout" | head -n 1'))
    assert (body, code) == ("1. Refund timeout incident retro", 0)
    assert body_and_exit(run_line(page, "fetch order:123 | json get customer.email")) == ("buyer@acme.example", 0)


def test_the_demo_world_file_is_the_python_demo_world():
    """web/worlds/demo.json carries onetool_wasm.testing.demo_world() plus page-only keys."""
    import json
    from pathlib import Path

    from onetool_wasm.testing import demo_world

    page_world = json.loads((Path(__file__).resolve().parents[1] / "web" / "worlds" / "demo.json").read_text())
    assert {key: page_world[key] for key in demo_world()} == demo_world()
    assert set(page_world) - set(demo_world()) == {"title", "description", "examples"}
