"""Byte streams: the pipe between two pipeline stages, and the readers and writers a command
sees as its standard input, output and error.

A pipe is a bounded queue with one writer and one reader, so the stages of a pipeline run
concurrently and memory stays bounded: a writer waits while the pipe is full; a reader waits
while it is empty. When the reader is gone (`head -n 3` has its lines) the writer's next
write raises BrokenPipe, which ends the producer as SIGPIPE ends it in bash (status 141).
"""
from __future__ import annotations

import asyncio
from collections import deque
from typing import Awaitable, Callable

# Every wait on a pipe is a turn of the event loop, which in Pyodide is a JavaScript task
# (milliseconds, not microseconds): big chunks keep those turns few. Memory stays bounded by
# the capacity of each pipe, whatever the size of the data.
PIPE_CAPACITY = 4 << 20
CHUNK = 1 << 20
SIGPIPE_STATUS = 141


class BrokenPipe(Exception):
    """The reader of this stream is gone: stop producing."""


class StreamLimit(Exception):
    """A stream collected more bytes than its limit allows (the run's output cap)."""


# ---------------------------------------------------------------- readers


class Reader:
    """A byte source with push-back, so `read` can take one line and leave the rest of the
    chunk for the next command that reads the same input (`{ read a; cat; } < f`)."""

    # A file can be read again from where a command stopped (GNU head seeks back); bytes
    # taken from a pipe are gone.
    seekable = True
    # A regular file's size when the input is one (`< file`), as fstat tells a program
    # (`wc < f` sizes its columns from it); None for pipes, here-documents, terminals.
    file_size: int | None = None

    def __init__(self) -> None:
        self._pending: deque[bytes] = deque()

    async def _next(self) -> bytes:
        """The next chunk from the source, b"" at the end."""
        return b""

    async def read(self) -> bytes:
        """The next chunk of bytes, b"" at end of input."""
        if self._pending:
            return self._pending.popleft()
        return await self._next()

    def unread(self, data: bytes) -> None:
        if data:
            self._pending.appendleft(data)

    async def read_all(self, limit: int | None = None) -> bytes:
        """Everything up to the end of input; StreamLimit past `limit` bytes."""
        parts = bytearray()
        while chunk := await self.read():
            parts += chunk
            if limit is not None and len(parts) > limit:
                raise StreamLimit(f"input is larger than {limit} bytes")
        return bytes(parts)

    async def read_until(self, delimiter: bytes, limit: int | None = None) -> tuple[bytes, bool]:
        """Bytes up to and without `delimiter` (one byte); the bool is False at end of input
        before a delimiter was seen."""
        parts = bytearray()
        while True:
            chunk = await self.read()
            if not chunk:
                return bytes(parts), False
            end = chunk.find(delimiter)
            if end >= 0:
                parts += chunk[:end]
                self.unread(chunk[end + 1:])
                return bytes(parts), True
            parts += chunk
            if limit is not None and len(parts) > limit:
                raise StreamLimit(f"line is longer than {limit} bytes")

    async def lines(self):
        """Complete lines with their newline (the last may lack one), as they arrive."""
        rest = b""
        while chunk := await self.read():
            data = rest + chunk
            end = data.rfind(b"\n")
            if end < 0:
                rest = data
                continue
            rest = data[end + 1:]
            for line in data[:end + 1].splitlines(keepends=True):
                yield line
        if rest:
            yield rest

    def close(self) -> None:
        """The reader is done: a writer feeding it gets BrokenPipe."""


class BytesReader(Reader):
    """Input that is already in memory: a file, a here-document, a here-string."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self._data = memoryview(data)
        self._offset = 0

    async def _next(self) -> bytes:
        chunk = bytes(self._data[self._offset:self._offset + CHUNK])
        self._offset += len(chunk)
        return chunk


class EmptyReader(Reader):
    """No input (a command run outside any pipe reads end of file at once)."""


class Pipe(Reader):
    """A bounded byte queue between two concurrent stages. The reader side is this object;
    `writer()` gives the writing side."""

    seekable = False

    def __init__(self, capacity: int = PIPE_CAPACITY) -> None:
        super().__init__()
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self._capacity = capacity
        self._writer_closed = False
        self._reader_closed = False
        self._readable = asyncio.Event()
        self._writable = asyncio.Event()

    def writer(self) -> "PipeWriter":
        return PipeWriter(self)

    async def _next(self) -> bytes:
        while not self._chunks:
            if self._writer_closed:
                return b""
            self._readable.clear()
            await self._readable.wait()
        chunk = self._chunks.popleft()
        self._size -= len(chunk)
        self._writable.set()
        return chunk

    async def put(self, data: bytes) -> None:
        if self._reader_closed:
            raise BrokenPipe()
        while self._size >= self._capacity:
            self._writable.clear()
            await self._writable.wait()
            if self._reader_closed:
                raise BrokenPipe()
        self._chunks.append(data)
        self._size += len(data)
        self._readable.set()

    def close_writer(self) -> None:
        self._writer_closed = True
        self._readable.set()

    @property
    def reader_closed(self) -> bool:
        return self._reader_closed

    def close(self) -> None:
        self._reader_closed = True
        self._chunks.clear()
        self._pending.clear()
        self._size = 0
        self._writable.set()


# ---------------------------------------------------------------- writers


class Writer:
    """A byte sink. `close` flushes (a file redirect writes its file then)."""

    async def write(self, data: bytes) -> None:
        raise NotImplementedError

    @property
    def reader_gone(self) -> bool:
        """True once nobody reads what is written (a pipe whose reader stopped): a command
        that only produces output may stop early."""
        return False

    async def close(self) -> None:
        pass


class PipeWriter(Writer):
    def __init__(self, pipe: Pipe) -> None:
        self._pipe = pipe

    async def write(self, data: bytes) -> None:
        # Big writes go in pieces so the reader starts on the first while the rest waits.
        for start in range(0, len(data), CHUNK):
            await self._pipe.put(data[start:start + CHUNK] if len(data) > CHUNK else data)

    async def close(self) -> None:
        self._pipe.close_writer()

    @property
    def reader_gone(self) -> bool:
        return self._pipe.reader_closed


class BufferWriter(Writer):
    """Collects bytes in memory (the run's stdout and stderr, `$(...)`), up to a limit."""

    def __init__(self, limit: int | None = None, what: str = "output") -> None:
        self.data = bytearray()
        self._limit = limit
        self._what = what

    async def write(self, data: bytes) -> None:
        self.data += data
        if self._limit is not None and len(self.data) > self._limit:
            del self.data[self._limit:]
            raise StreamLimit(f"{self._what} is larger than {self._limit} bytes")


class NullWriter(Writer):
    """/dev/null."""

    async def write(self, data: bytes) -> None:
        pass


class FileWriter(BufferWriter):
    """A redirect into a file: the bytes are collected and written through `flush` (the
    VFS write, behind the policy) when the command is done. Opening already truncated the
    file, as `>` does before the command runs."""

    def __init__(self, flush: Callable[[bytes], Awaitable[None]], limit: int | None) -> None:
        super().__init__(limit, "output redirected to a file")
        self._flush = flush
        self._closed = False

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._flush(bytes(self.data))


class SharedWriter(Writer):
    """A second name for a writer (`2>&1`): closing it leaves the target open."""

    def __init__(self, target: Writer) -> None:
        self.target = target

    async def write(self, data: bytes) -> None:
        await self.target.write(data)

    @property
    def reader_gone(self) -> bool:
        return self.target.reader_gone


async def yield_now() -> None:
    """Let the other stages of a pipeline run (a long loop that never waits would starve them)."""
    await asyncio.sleep(0)


class CountingReader(Reader):
    """Passes another reader through, counting the bytes a command consumed (traces)."""

    def __init__(self, source: Reader) -> None:
        super().__init__()
        self.source = source
        self.count = 0
        self.seekable = source.seekable
        self.file_size = source.file_size

    async def read(self) -> bytes:
        chunk = await self.source.read()
        self.count += len(chunk)
        return chunk

    def unread(self, data: bytes) -> None:
        self.count -= len(data)
        self.source.unread(data)

    def close(self) -> None:
        self.source.close()


class CountingWriter(Writer):
    """Passes bytes to another writer, counting them and keeping the first `keep` (traces)."""

    def __init__(self, target: Writer, keep: int = 0) -> None:
        self.target = target
        self.count = 0
        self.kept = bytearray()
        self._keep = keep

    async def write(self, data: bytes) -> None:
        self.count += len(data)
        if len(self.kept) < self._keep:
            self.kept += data[:self._keep - len(self.kept)]
        await self.target.write(data)

    @property
    def reader_gone(self) -> bool:
        return self.target.reader_gone
