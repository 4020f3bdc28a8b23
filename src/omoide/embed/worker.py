"""The embedding worker process: ``python -m omoide.embed.worker``.

It speaks pickled messages over its standard input and output (the parent is
:class:`omoide.embed.process.WorkerProcessEmbedder`): first the parent's ``sys.path``, then
a picklable factory of the embedder, then lists of texts, each answered with a matrix.
Every answer is ``("ok", value)`` or ``("error", message)``; the worker never imports the
parent's main module, so a script without a ``__main__`` guard is safe to use it from.
It exits when its input closes.
"""

from __future__ import annotations

import pickle
import sys
from typing import IO, Any

import anyio


def _answer(stream: IO[bytes], status: str, value: object) -> None:
    pickle.dump((status, value), stream, protocol=pickle.HIGHEST_PROTOCOL)
    stream.flush()


def _serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    sys.path[:] = pickle.load(requests)
    try:
        embedder: Any = pickle.load(requests)()
        anyio.run(embedder.embed_documents, ["warm up"])
    except Exception as exc:  # reported to the parent, which raises BackendError
        _answer(answers, "error", f"{type(exc).__name__}: {exc}")
        return
    _answer(answers, "ok", embedder.model_name)
    while True:
        try:
            texts = pickle.load(requests)
        except EOFError:
            return
        try:
            matrix = anyio.run(embedder.embed_documents, texts)
        except Exception as exc:  # the parent raises it as a BackendError
            _answer(answers, "error", f"{type(exc).__name__}: {exc}")
        else:
            _answer(answers, "ok", matrix)


def main() -> None:
    answers = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but answers may reach the parent's pipe
    _serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
