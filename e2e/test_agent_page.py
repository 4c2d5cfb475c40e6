"""The agent page (web/agent.html) against a fake OpenAI-compatible endpoint.

The endpoint is a same-origin URL answered by Playwright's route interception, so no request
leaves the origin: the fake model asks for one `run` call, then answers from its output.
"""
import json
import re

import pytest
from playwright.sync_api import expect

BOOT_MS = 180_000
ENDPOINT_PATH = "/fake-openai/v1"


class FakeModel:
    """Scripted replies: a tool call first, then a final answer quoting the tool output."""

    def __init__(self, command):
        self.command = command
        self.requests = []

    def handle(self, route, request):
        body = request.post_data_json
        self.requests.append({"body": body, "headers": request.headers})
        tool_results = [m for m in body["messages"] if m["role"] == "tool"]
        if not tool_results:
            message = {"role": "assistant", "content": "Let me count them.", "tool_calls": [{
                "id": "call_1", "type": "function",
                "function": {"name": "run", "arguments": json.dumps({"command": self.command})},
            }]}
        else:
            count = tool_results[-1]["content"].split("\n")[0]
            message = {"role": "assistant", "content": f"There are {count} ERROR lines."}
        route.fulfill(status=200, content_type="application/json",
                      body=json.dumps({"id": "fake", "object": "chat.completion",
                                       "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}))


@pytest.fixture(scope="module")
def agent_page(onetool_page_factory, onetool_site_url):
    page = onetool_page_factory(onetool_site_url)
    open_agent_page(page, onetool_site_url)
    yield page
    problems = page.watch.take()
    page.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def agent(agent_page):
    """The shared agent page with an empty transcript; routes set by a test end with it."""
    agent_page.click("#transcript-clear")
    yield agent_page
    agent_page.unroute_all()
    agent_page.watch.assert_clean()


def open_agent_page(page, onetool_site_url):
    page.goto(f"{onetool_site_url.rstrip('/')}/agent.html")
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_MS)


def fill_settings(page, onetool_site_url):
    page.fill("#endpoint", f"{onetool_site_url.rstrip('/')}{ENDPOINT_PATH}")
    page.fill("#model", "fake-model")
    page.fill("#apiKey", "sk-test-123")


def test_agent_loop_calls_run_through_the_fake_endpoint(agent, onetool_site_url):
    page = agent
    model = FakeModel("cat /logs/app.log | grep ERROR | wc -l")
    page.route(re.compile(re.escape(ENDPOINT_PATH) + "/chat/completions$"), model.handle)
    fill_settings(page, onetool_site_url)
    page.fill("#task", "How many ERROR lines are in /logs/app.log?")
    page.click("#task-run")
    transcript = page.locator("#transcript .turn")
    expect(transcript.last).to_have_text(re.compile("There are 3 ERROR lines."), timeout=60_000)
    kinds = transcript.evaluate_all("items => items.map(item => item.dataset.type)")
    assert kinds == ["user", "assistant", "call", "result", "assistant"]
    expect(transcript.nth(2).locator(".text")).to_have_text("$ cat /logs/app.log | grep ERROR | wc -l")
    expect(transcript.nth(3).locator(".text")).to_have_text(re.compile(r"^3\n\n\[exit:0 \| \d+ms\]$"))
    expect(page.locator("#agent-status")).to_have_text("Done in 2 turns.")

    first, second = model.requests
    assert first["headers"]["authorization"] == "Bearer sk-test-123"
    assert first["body"]["model"] == "fake-model"
    (tool,) = first["body"]["tools"]
    assert tool["type"] == "function" and tool["function"]["name"] == "run"
    assert tool["function"]["parameters"]["required"] == ["command"]
    assert [m["role"] for m in second["body"]["messages"]] == ["system", "user", "assistant", "tool"]
    assert second["body"]["messages"][3]["tool_call_id"] == "call_1"


def test_model_output_is_shown_as_text(agent, onetool_site_url):
    page = agent
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    model = FakeModel("echo '<img src=x onerror=alert(1)>'")
    page.route(re.compile(re.escape(ENDPOINT_PATH) + "/chat/completions$"), model.handle)
    fill_settings(page, onetool_site_url)
    page.click("#task-run")
    expect(page.locator("#transcript .turn.result .text")).to_have_text(
        re.compile(r"^<img src=x onerror=alert\(1\)>\n\n\[exit:0"), timeout=60_000)
    expect(page.locator("#transcript .turn").last).to_have_text(re.compile("There are <img"))
    assert page.locator("#transcript img").count() == 0
    page.wait_for_timeout(300)
    assert dialogs == []


def test_settings_stay_in_session_storage(onetool_watched_page, onetool_site_url):
    page = onetool_watched_page
    page.goto(f"{onetool_site_url.rstrip('/')}/agent.html")
    fill_settings(page, onetool_site_url)
    stored = json.loads(page.evaluate("sessionStorage.getItem('onetool-agent.settings')"))
    assert stored == {"endpoint": f"{onetool_site_url.rstrip('/')}{ENDPOINT_PATH}", "model": "fake-model",
                      "apiKey": "sk-test-123"}
    assert page.evaluate("localStorage.getItem('onetool-agent.settings')") is None
    page.reload()
    expect(page.locator("#apiKey")).to_have_value("sk-test-123")
    expect(page.locator("#endpoint")).to_have_value(f"{onetool_site_url.rstrip('/')}{ENDPOINT_PATH}")
    page.click("#settings-forget")
    expect(page.locator("#model")).to_have_value("")
    assert page.evaluate("sessionStorage.getItem('onetool-agent.settings')") is None


def test_endpoint_errors_are_reported(agent, onetool_site_url):
    page = agent
    page.watch.allow_console_error("status of 401")  # Chromium logs the failed response
    page.route(re.compile(re.escape(ENDPOINT_PATH) + "/chat/completions$"),
               lambda route, request: route.fulfill(status=401, body='{"error": "bad key"}'))
    fill_settings(page, onetool_site_url)
    page.click("#task-run")
    expect(page.locator("#transcript .turn.error .text")).to_have_text(
        re.compile(r'^the endpoint answered 401 .*\{"error": "bad key"\}$'), timeout=30_000)
    expect(page.locator("#task-run")).to_be_enabled()


def test_the_world_picker_is_locked_while_a_task_runs(agent, onetool_site_url):
    page = agent
    held = []  # the model's request, answered only after the check
    page.route(re.compile(re.escape(ENDPOINT_PATH) + "/chat/completions$"), lambda route, request: held.append(route))
    fill_settings(page, onetool_site_url)
    page.click("#task-run")
    expect(page.locator("#agent-world")).to_be_disabled()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    answer = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Done."}, "finish_reason": "stop"}]}
    held[0].fulfill(status=200, content_type="application/json", body=json.dumps(answer))
    expect(page.locator("#agent-status")).to_have_text("Done in 1 turn.")
    expect(page.locator("#agent-world")).to_be_enabled()


def endpoint_url(onetool_site_url):
    return f"{onetool_site_url.rstrip('/')}{ENDPOINT_PATH}/chat/completions"


def test_a_refused_connection_says_what_to_check(agent, onetool_site_url):
    page = agent
    page.watch.allow_console_error("net::ERR_CONNECTION_REFUSED")  # Chromium logs the failed request
    page.route(re.compile(re.escape(ENDPOINT_PATH) + "/chat/completions$"),
               lambda route, request: route.abort("connectionrefused"))
    fill_settings(page, onetool_site_url)
    page.click("#task-run")
    origin = onetool_site_url.rstrip("/")
    expect(page.locator("#transcript .turn.error .text")).to_have_text(
        f"could not reach the model endpoint {endpoint_url(onetool_site_url)}: the connection was refused, or the "
        f"endpoint does not allow requests from {origin} (CORS). Check that it runs and sends "
        "Access-Control-Allow-Origin", timeout=30_000)
    expect(page.locator("#agent-status")).to_have_text("Stopped.")
    expect(page.locator("#task-run")).to_be_enabled()


def test_an_answer_that_is_not_json_is_shown_as_the_endpoints(agent, onetool_site_url):
    page = agent
    body = "<!doctype html><html><body>" + "Sign in to continue. " * 20 + "</body></html>"
    page.route(re.compile(re.escape(ENDPOINT_PATH) + "/chat/completions$"),
               lambda route, request: route.fulfill(status=200, content_type="text/html; charset=utf-8", body=body))
    fill_settings(page, onetool_site_url)
    page.click("#task-run")
    expect(page.locator("#transcript .turn.error .text")).to_have_text(
        f"the model endpoint {endpoint_url(onetool_site_url)} answered with something that is not JSON "
        f"(status 200, content-type text/html; charset=utf-8): {body[:200]}", timeout=30_000)
    assert len(body) > 200
    expect(page.locator("#task-run")).to_be_enabled()
