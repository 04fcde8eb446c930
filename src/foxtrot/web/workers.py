"""The server's worker processes (the expert, the coach, the review), which die with the server.

A search runs in a process of its own, so that it neither blocks the event loop
nor holds the interpreter lock.  Those workers are spawned (not forked: the
server has threads), and each one waits for work on a pipe whose writing end it
holds itself, so it never sees the end of the file: after ``kill -9`` of the
server it would wait for ever, and multiprocessing's resource tracker (another
child, which exits once every holder of its pipe has closed it, the workers
included) would wait with it.

So every worker watches its parent: a thread of the worker checks
``os.getppid()`` every ``PARENT_CHECK`` seconds and ends the worker once the
parent is gone (the worker then belongs to another process).  The resource
tracker follows by itself when the last worker exits.  ``PR_SET_PDEATHSIG`` is
not used: Linux sends that signal when the *thread* that spawned the worker
ends, and a pool is shared by the whole server, whichever thread first used it
(a test client's event loop thread ends with each client).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Final

#: How often a worker checks that the server that started it is still its parent (seconds).
PARENT_CHECK: Final = 0.25


def process_pool(max_workers: int = 1) -> ProcessPoolExecutor:
    """A pool of spawned workers that end when this process ends, however it ends."""
    return ProcessPoolExecutor(
        max_workers=max_workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


def die_with_parent(parent: int) -> None:
    """In a worker: end it as soon as ``parent`` is no longer its parent (the server died)."""
    if os.getppid() != parent:  # died while this worker was starting
        os._exit(0)
    watcher = threading.Thread(
        target=_watch, args=(parent,), name="foxtrot-parent-watch", daemon=True
    )
    watcher.start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)  # nothing to clean up: a worker holds no state of its own


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool``'s workers now, abandoning the work in progress (never waiting for it).

    ``shutdown`` alone would wait for a running search, at exit too.  Python 3.14 has
    ``terminate_workers``; before it, the pool's processes are terminated.
    """
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
