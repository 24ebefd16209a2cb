"""Failures of the machine rather than of the input: no memory, a full disk, an output that is gone.

The command line turns them into one `error:` line instead of a traceback. Kept light (no third-party
imports): it must work when memory is too short to import the rest of the app.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Iterator

# SQLite's primary result codes (sqlite3.SQLITE_FULL, ...), without importing sqlite3 here
_SQLITE_MESSAGES = {13: "the disk is full", 10: "a disk read or write failed",
                    8: "the database is read-only", 14: "the database file cannot be opened"}
_DISK_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)

# Below this address-space limit an unexpected error while starting is reported as running out of memory.
TIGHT_ADDRESS_SPACE = 1 << 30

# Address space the window needs to start (Qt, pyqtgraph, numpy: VmPeak 287 MiB measured on Linux x86-64).
# Under a tighter `ulimit -v` Qt's bootstrap may abort natively rather than raise, so check before.
WINDOW_ADDRESS_SPACE = 512 << 20

# Address space the command line needs to import its modules (`logitscope info`: VmPeak 253 MiB measured; it
# fails below 250 MiB). Under a tighter limit CPython's import machinery can spin forever on a MemoryError
# (seen in importlib's `finally: spec._initializing = False`) instead of raising, so check before importing.
COMMAND_LINE_ADDRESS_SPACE = 288 << 20


def describe(exc: BaseException) -> str | None:
    """One line for a failure of the environment; None for anything else (a bug: let it show)."""
    if isinstance(exc, MemoryError):
        return "out of memory" + (f" ({exc})" if str(exc) else "") + f"; {_memory_hint()}"
    if isinstance(exc, ImportError):
        if _mentions_memory(exc) or _address_space_limit() is not None:
            what = f"the module {exc.name}" if exc.name else f"a library ({exc})"
            return f"not enough memory to load {what}; {_memory_hint()}"
        return f"a part of Logitscope could not be loaded: {exc}"
    limit = _address_space_limit()
    if not isinstance(exc, OSError) and limit is not None and limit < TIGHT_ADDRESS_SPACE:
        # Under a tight `ulimit -v`, Python's own machinery fails in odd ways when an allocation does
        # (SystemError, or a ValueError from the compiler while importing a module): say what it most likely is.
        return f"out of memory while starting (Python: {type(exc).__name__}: {exc}); {_memory_hint()}"
    if isinstance(exc, OSError) and exc.errno == errno.ENOMEM:
        return f"out of memory ({exc.strerror}); {_memory_hint()}"
    if isinstance(exc, OSError):
        if exc.errno in _DISK_FULL:  # no file name: standard output (a file name is given for files)
            where = exc.filename or "the output"
            return f"could not write {where}: {exc.strerror} (the disk is full or a size limit was reached)"
        return f"{exc.strerror or exc}: {exc.filename}" if exc.filename else f"{exc.strerror or exc}"
    code = getattr(exc, "sqlite_errorcode", None)  # extended codes keep the primary one in the low byte
    if type(exc).__module__ == "sqlite3" and isinstance(code, int) and code & 0xFF in _SQLITE_MESSAGES:
        return f"{_SQLITE_MESSAGES[code & 0xFF]} (SQLite: {exc}); what was being saved was not saved"
    return None


def require_address_space(needed: int, what: str) -> None:
    """Raise MemoryError (which main() turns into one line) when `ulimit -v` is below what `what` needs."""
    limit = _address_space_limit()
    if limit is not None and limit < needed:
        raise MemoryError(f"{what} needs about {needed >> 20} MiB of address space")


def _mentions_memory(exc: BaseException) -> bool:
    """Whether the error or one it came from says the loader ran out of memory (dlopen's wording)."""
    seen: BaseException | None = exc
    for _ in range(10):  # the chain of causes is short; bounded anyway
        if seen is None:
            return False
        text = str(seen).lower()
        if "failed to map segment" in text or "cannot allocate memory" in text:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _memory_hint() -> str:
    limit = _address_space_limit()
    if limit is not None:
        return f"the address-space limit ('ulimit -v') is {limit >> 20} MiB"
    return "close other programs or raise the memory limit"


def _address_space_limit() -> int | None:
    """The soft RLIMIT_AS in bytes ('ulimit -v'), None when unlimited or unknown. Read from /proc where
    it can be: the `resource` module is a shared library, which may be what failed to load."""
    try:
        with open("/proc/self/limits", "rb") as fh:   # bytes: decoding text may import a codec, and fail
            for line in fh:
                if line.startswith(b"Max address space"):
                    soft = line.split()[3]
                    return int(soft) if soft.isdigit() else None
    except OSError:
        pass
    try:
        import resource

        limit, _hard = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError, AttributeError):
        return None
    return None if limit == resource.RLIM_INFINITY else limit


def release_stdout() -> None:
    """Flush what is still buffered for stdout; if stdout cannot take it (a full disk, a closed pipe),
    point it at /dev/null, so that Python's own flush at exit does not add 'Exception ignored ...'."""
    try:
        sys.stdout.flush()
        return
    except (OSError, ValueError):
        pass
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


@contextlib.contextmanager
def quiet_on_failure() -> Iterator[None]:
    """Hold what is printed to stderr while importing a big native library (Qt): shiboken prints its own
    traceback when memory runs out during its bootstrap, before the ImportError/MemoryError reaches us.
    On success the held text is printed after all; on failure it is dropped (our one line replaces it)."""
    held, real = io.StringIO(), sys.stderr
    sys.stderr = held
    try:
        yield
    except SystemExit as exc:  # shiboken's bootstrap calls sys.exit(-1) after printing its traceback
        sys.stderr = real
        cause = next((line for line in reversed(held.getvalue().splitlines()) if "Error" in line), "")
        if "MemoryError" in cause:
            raise MemoryError() from exc
        raise ImportError(cause or f"the library exited while loading ({exc.code})") from exc
    except BaseException:
        sys.stderr = real
        raise
    sys.stderr = real
    if held.getvalue():
        real.write(held.getvalue())
