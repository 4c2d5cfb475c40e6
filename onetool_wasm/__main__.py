"""Command line: `python -m onetool_wasm run|repl|mcp|tool-definition`."""
from __future__ import annotations

import argparse
import asyncio
import json
import sys

from .runtime import GRAMMARS, AgentCLI, create_agent_cli
from .tooldef import FORMATS, VARIANTS, build_tool_definition
from .vfs import DirectoryVFS, MemoryVFS


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="onetool-wasm", description="One `run` tool for AI agents.")
    parser.add_argument("--root", help="a directory to work in (default: an empty in-memory file system)")
    parser.add_argument("--grammar", choices=GRAMMARS, default="bash",
                        help="the command language: bash (default) or strict (the upstream one-tool grammar)")
    parser.add_argument("--session", action="store_true",
                        help="keep shell variables, functions and the cwd from one command line to the next "
                             "(repl and mcp)")
    sub = parser.add_subparsers(dest="action", required=True)
    run = sub.add_parser("run", help="run one command line and print the text block a model would see")
    run.add_argument("command_line")
    sub.add_parser("repl", help="type command lines interactively")
    sub.add_parser("mcp", help="serve the run tool over MCP on stdio")
    tool = sub.add_parser("tool-definition", help="print the tool definition as JSON")
    tool.add_argument("--format", choices=FORMATS, default="openai")
    tool.add_argument("--variant", choices=VARIANTS, default="full-tool-description")
    return parser.parse_args(argv)


async def make_runtime(root: str | None, grammar: str = "bash", session: bool = False) -> AgentCLI:
    return await create_agent_cli(vfs=DirectoryVFS(root) if root else MemoryVFS(), grammar=grammar,
                                  shell_session=session)


async def repl(runtime: AgentCLI) -> None:
    loop = asyncio.get_running_loop()
    while True:
        try:
            line = await loop.run_in_executor(None, input, "run> ")
        except EOFError:
            return
        if line.strip():
            print(await runtime.run(line), flush=True)


async def main_async(args: argparse.Namespace) -> int:
    runtime = await make_runtime(args.root, args.grammar, args.session)
    if args.action == "run":
        execution = await runtime.run_detailed(args.command_line)
        print(execution.presentation.text)
        return execution.exit_code
    if args.action == "repl":
        await repl(runtime)
    elif args.action == "mcp":
        from .mcp import serve_stdio
        await serve_stdio(runtime)
    else:
        print(json.dumps(build_tool_definition(runtime, description_variant=args.variant, format=args.format),
                         indent=2, ensure_ascii=False))
    return 0


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(main_async(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
