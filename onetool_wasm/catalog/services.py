"""The services a runtime exposes: providers by namespace, operations by reference.

Looking up a name that does not exist yields candidates: first names equal after
normalising (case, `-`, `_`, spaces), then names that contain it or that it contains.
"""
from __future__ import annotations

from typing import Any, Iterable

from ..policy import normalize_name
from .operations import Operation, Provider

DEFAULT_MAX_RESULT_BYTES = 32 * 1024


class LookupFailed(Exception):
    """No such namespace or operation; the message names candidates or what to run."""


class OperationCatalog:
    def __init__(self, providers: Iterable[Any] = (), max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES) -> None:
        if isinstance(max_result_bytes, bool) or not isinstance(max_result_bytes, int) or max_result_bytes < 256:
            raise ValueError("max_result_bytes must be an integer of at least 256")
        self.max_result_bytes = max_result_bytes
        self._providers: dict[str, Provider] = {}
        for provider in providers:
            self.add(provider)

    @classmethod
    def coerce(cls, value: Any) -> "OperationCatalog | None":
        """None, an OperationCatalog, one provider, or a list of providers / tool catalogs.
        A provider as a dict: {"namespace", "summary", "operations", "secrets"}."""
        if value is None or isinstance(value, OperationCatalog):
            return value
        if isinstance(value, (Provider, dict)) or hasattr(value, "as_provider"):
            value = [value]
        return cls(value)

    def add(self, provider: Any) -> None:
        provider = _as_provider(provider)
        if provider.namespace in self._providers:
            raise ValueError(f"duplicate provider namespace: {provider.namespace}")
        self._providers[provider.namespace] = provider

    def providers(self) -> list[Provider]:
        return list(self._providers.values())

    def operations(self, namespace: str | None = None) -> list[Operation]:
        providers = [self.provider(namespace)] if namespace is not None else self.providers()
        return [op for provider in providers for op in provider.operations]

    def operation_count(self) -> int:
        return sum(len(p.operations) for p in self._providers.values())

    def secrets(self) -> list[str]:
        return [secret for provider in self._providers.values() for secret in provider.secrets]

    async def aclose(self) -> None:
        """Close the providers that hold something open (an McpProvider's server process)."""
        for provider in self.providers():
            closer = getattr(provider, "aclose", None)
            if closer is not None:
                await closer()
            elif callable(getattr(provider, "close", None)):
                provider.close()

    def close(self) -> None:
        """As aclose, from synchronous code."""
        for provider in self.providers():
            if callable(getattr(provider, "close", None)):
                provider.close()

    def provider(self, namespace: str) -> Provider:
        found = self._providers.get(namespace) or _unique_normalized(namespace, self._providers)
        if found is not None:
            return found
        raise LookupFailed(_unknown("namespace", namespace, list(self._providers), "api services"))

    def find(self, ref: str) -> Operation:
        """`petstore:getPet` (case and separators forgiven when unambiguous)."""
        namespace, colon, name = ref.partition(":")
        if not colon or not namespace or not name:
            raise LookupFailed(f"expected <namespace:operation>, got {ref!r}. Use: api operations")
        provider = self.provider(namespace)
        names = {op.name: op for op in provider.operations}
        found = names.get(name) or _unique_normalized(name, names)
        if found is not None:
            return found
        refs = [f"{provider.namespace}:{candidate}" for candidate in names]
        raise LookupFailed(_unknown("operation", f"{provider.namespace}:{name}", refs,
                                    f"api operations {provider.namespace}", needle=name))


def _as_provider(value: Any) -> Provider:
    if isinstance(value, Provider):
        return value
    if isinstance(value, dict):  # {"namespace", "summary", "operations"}: e.g. defined by a page
        from .operations import FunctionProvider
        return FunctionProvider(value["namespace"], value.get("operations", ()), value.get("summary", ""),
                                value.get("secrets") or ())
    namespace = getattr(value, "namespace", None)
    if hasattr(value, "as_provider") and namespace:
        return value.as_provider(namespace)
    raise TypeError(f"not a provider: {value!r} (use FunctionProvider, OpenApiProvider or catalog.as_provider(ns))")


def _unique_normalized(name: str, items: dict[str, Any]) -> Any:
    norm = normalize_name(name)
    matches = [value for key, value in items.items() if normalize_name(key) == norm]
    return matches[0] if len(matches) == 1 else None


def candidates(needle: str, names: list[str]) -> list[str]:
    """Names equal to `needle` after normalising, else names containing it (or contained in it)."""
    norm = normalize_name(needle)
    keyed = [(name, normalize_name(name.rpartition(":")[2])) for name in names]
    exact = [name for name, key in keyed if key == norm]
    if exact:
        return exact
    return [name for name, key in keyed if norm and (norm in key or key in norm)]


def _unknown(label: str, name: str, names: list[str], listing: str, needle: str | None = None) -> str:
    found = candidates(needle if needle is not None else name, names)[:5]
    hint = f" Did you mean: {', '.join(found)}?" if found else ""
    return f"unknown {label}: {name}.{hint} Use: {listing}"
