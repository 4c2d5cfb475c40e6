"""What the page supplies, reached from Python in the worker: the search and fetch
adapters, the consent function (approve, decline, edit), operations defined in JavaScript,
and an OpenAPI provider whose HTTP goes through the page's fetch.

One instance for the module. The page records every call it receives (window.log), and
the consent function answers from window.answers (in order), so tests script the human.
"""
import json
import re

import pytest

FOOTER = re.compile(r"\n\n\[exit:(\d+) \| [0-9.]+m?s\]$")

OPENAPI = {
    "openapi": "3.0.0",
    "info": {"title": "Weather", "version": "1"},
    "servers": [{"url": "https://weather.invalid/v1"}],
    "paths": {"/forecast/{city}": {"get": {
        "operationId": "getForecast", "summary": "Forecast for a city",
        "parameters": [{"name": "city", "in": "path", "required": True, "schema": {"type": "string"}},
                       {"name": "days", "in": "query", "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ok"}}}}},
}

SETUP = """
window.log = [];
window.answers = [];
window.items = [{name: "apple", price: 1}];
"""

OPTIONS = """{
  storage: {kind: "memory"},
  files: {"/notes.txt": "one\\ntwo\\n"},
  adapters: {
    search: async (query, limit) => {
      log.push(["search", query, limit]);
      return [{title: "Cats", snippet: `about ${query}`, source: "kb://cats"}, {title: "<b>Dogs</b>", snippet: "loyal"}];
    },
    fetch: async (resource) => {
      log.push(["fetch", resource]);
      if (resource === "kb://json") return {contentType: "application/json", payload: {ok: true, n: null}};
      if (resource === "kb://bytes") return {contentType: "image/png", payload: new Uint8Array([137, 80, 78, 71, 0, 1])};
      if (resource === "kb://down") throw new Error("upstream is down");
      return {contentType: "text/plain", payload: `text of ${resource}`};
    },
  },
  policy: {confirm: ["fs:rm"]},
  confirm: async (request) => {
    log.push(["confirm", request]);
    if (request.ref === "fs:write") return "approved";
    const answer = answers.length ? answers.shift() : "declined";
    if (answer === "throw") throw new Error("the dialog crashed");
    return answer;
  },
  providers: [
    {namespace: "shop", summary: "A tiny shop", operations: [
      {name: "listItems", summary: "List items",
       inputSchema: {type: "object", properties: {max: {type: "integer"}}},
       handler: async ({max}) => { log.push(["listItems", max ?? null]); return items.slice(0, max ?? items.length); }},
      {name: "addItem", summary: "Add an item", kind: "write",
       inputSchema: {type: "object", properties: {name: {type: "string"}, price: {type: "number"}}, required: ["name"]},
       handler: async (input) => { log.push(["addItem", input]); items.push(input); return {added: input}; }},
      {name: "getBroken", summary: "Always fails", handler: async () => { throw new Error("shop is closed"); }},
    ]},
    {namespace: "weather", openapi: "/fake-api/openapi.json",
     fetch: async (url, init) => {
       log.push(["http", init?.method ?? "GET", String(url)]);
       if (String(url).endsWith("openapi.json")) return new Response(JSON.stringify(OPENAPI_DOC), {headers: {"content-type": "application/json"}});
       return new Response(JSON.stringify({city: "Oslo", tempC: 3}), {headers: {"content-type": "application/json"}});
     }},
  ],
}"""


@pytest.fixture(scope="module")
def booted(onetool_page_factory, onetool_site_url, harness):
    page = onetool_page_factory(onetool_site_url)
    harness.open(page, onetool_site_url)
    page.evaluate(f"() => {{ {SETUP} window.OPENAPI_DOC = {json.dumps(OPENAPI)}; }}")
    harness.create(page, OPTIONS)
    yield page
    problems = page.watch.take()
    page.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def page(booted):
    booted.evaluate("() => { log.length = 0; answers.length = 0; }")
    yield booted
    booted.watch.assert_clean()


def run(page, line):
    text = page.evaluate("line => tool.run(line)", line)
    match = FOOTER.search(text)
    return text[:match.start()], int(match.group(1))


def log(page):
    return page.evaluate("() => log")


def test_search_adapter(page):
    assert run(page, "search cats") == (
        "1. Cats\n   source: kb://cats\n   about cats\n\n2. <b>Dogs</b>\n   loyal", 0)
    assert log(page) == [["search", "cats", 10]]


def test_fetch_adapter_json_text_bytes_and_errors(page):
    assert run(page, "fetch kb://json | json get ok") == ("true", 0)
    assert run(page, "fetch kb://page") == ("text of kb://page", 0)
    text, code = run(page, "fetch kb://bytes")
    assert code == 0 and "/.system/cmd-output/" in text and "binary" in text.lower()
    assert run(page, "fetch kb://down") == ("[error] fetch: adapter error: upstream is down", 1)
    assert [entry[1] for entry in log(page)] == ["kb://json", "kb://page", "kb://bytes", "kb://down"]


def test_js_operations_reached_from_python(page):
    assert run(page, "shop listItems max=1") == ('[\n  {\n    "name": "apple",\n    "price": 1\n  }\n]', 0)
    assert run(page, "api call shop:listItems | json get 0.name") == ("apple", 0)
    assert run(page, "shop getBroken") == ("[error] shop: shop:getBroken failed: shop is closed", 1)
    text, code = run(page, "api call shop:addItem price=2")
    assert code == 1 and text.startswith("[error] api: invalid input for shop:addItem (1 problem):")
    assert [entry[0] for entry in log(page)] == ["listItems", "listItems"]  # the invalid call never ran


def test_consent_approve(page):
    page.evaluate("() => answers.push('approved')")
    assert run(page, "shop addItem name=pen price=2") == (
        '{\n  "added": {\n    "name": "pen",\n    "price": 2\n  }\n}', 0)
    (kind, request), (ran, value) = log(page)
    assert kind == "confirm" and ran == "addItem" and value == {"name": "pen", "price": 2}
    assert request == {"ref": "shop:addItem", "namespace": "shop", "operation": "addItem", "kind": "write",
                       "reason": "write operation", "summary": "Add an item", "input": {"name": "pen", "price": 2},
                       "inputSchema": {"type": "object", "properties": {"name": {"type": "string"},
                                                                      "price": {"type": "number"}},
                                       "required": ["name"]},
                       "commandLine": None}


def test_consent_decline(page):
    page.evaluate("() => answers.push('declined')")
    assert run(page, "shop addItem name=ghost") == (
        "[error] shop: shop:addItem was declined by the user; nothing was run", 1)
    assert [entry[0] for entry in log(page)] == ["confirm"]
    assert page.evaluate("() => items.some(i => i.name === 'ghost')") is False


def test_consent_edit(page):
    page.evaluate("() => answers.push({approved: true, input: {name: 'pencil', price: 1}})")
    assert run(page, "shop addItem name=pen") == ('{\n  "added": {\n    "name": "pencil",\n    "price": 1\n  }\n}', 0)
    assert log(page)[1] == ["addItem", {"name": "pencil", "price": 1}]


def test_consent_for_a_builtin_command(page):
    page.evaluate("() => answers.push('declined', 'approved')")
    assert run(page, "rm /notes.txt") == ("[error] rm: fs:rm was declined by the user; nothing was run", 1)
    # Approved, and silent as GNU rm: the block is the footer alone.
    assert page.evaluate("tool.run('rm /notes.txt')").startswith("[exit:0 | ")
    requests = [entry[1] for entry in log(page) if entry[0] == "confirm"]
    assert [(r["ref"], r["commandLine"], r["input"]) for r in requests] == [
        ("fs:rm", "rm /notes.txt", {"args": ["/notes.txt"]})] * 2


def test_a_failing_or_absent_human(page):
    page.evaluate("() => answers.push('throw', null)")
    assert run(page, "shop addItem name=nobody") == (
        "[error] shop: shop:addItem was declined by the user (confirm failed (PageError)); nothing was run", 1)
    assert run(page, "shop addItem name=nobody") == (
        "[error] shop: shop:addItem needs confirmation (write operation) but no one could confirm it; nothing was run", 1)
    assert page.evaluate("() => items.some(i => i.name === 'nobody')") is False


def test_openapi_provider_through_the_page_fetch(page):
    assert run(page, "weather getForecast city=Oslo days=2") == ('{\n  "city": "Oslo",\n  "tempC": 3\n}', 0)
    assert log(page) == [["http", "GET", "https://weather.invalid/v1/forecast/Oslo?days=2"]]
    text, code = run(page, "api describe weather:getForecast")
    assert code == 0 and "Forecast for a city" in text
