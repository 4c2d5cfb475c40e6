"""Operations behind the one tool: providers, the typed tool catalog, the call gate."""
from .binding import (BoundCatalog, CancelSignal, Invocation, ToolCancelledError, ToolContext, ToolDeniedError,
                      ToolError, ToolEvent, ToolExecutionError, ToolInputError, ToolOutputError, ToolResult,
                      ToolTimeoutError, UnknownToolError)
from .layouts import LAYOUTS, LayoutTool, OperationTools, ToolCallResult
from .mcp_http import McpHttpProvider, connect_mcp_http
from .mcp_provider import McpProvider, McpUnavailable
from .openapi import OpenApiProvider
from .operations import FunctionProvider, InvalidInput, Operation, OperationDenied, OperationError, Provider
from .services import LookupFailed, OperationCatalog
from .tools import ToolCatalog, ToolDefinition, define_tool
from .transport import Transport, UnavailableTransport, UrllibTransport

__all__ = [
    "BoundCatalog", "CancelSignal", "FunctionProvider", "InvalidInput", "Invocation", "LAYOUTS", "LayoutTool",
    "LookupFailed", "McpHttpProvider", "McpProvider", "McpUnavailable", "OperationTools", "ToolCallResult",
    "OpenApiProvider", "Operation", "OperationCatalog", "OperationDenied", "OperationError", "Provider",
    "ToolCancelledError", "ToolCatalog", "ToolContext", "ToolDefinition", "ToolDeniedError", "ToolError",
    "ToolEvent", "ToolExecutionError", "ToolInputError", "ToolOutputError", "ToolResult", "ToolTimeoutError",
    "Transport", "UnavailableTransport", "UrllibTransport", "UnknownToolError", "connect_mcp_http", "define_tool",
]
