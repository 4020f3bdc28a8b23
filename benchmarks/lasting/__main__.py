"""``python -m benchmarks.lasting``: train the lasting model for each embedder named, write
it into the package (``omoide/memory/extraction/lasting_models``) and report it.

Data: ``data.jsonl`` beside this file, first-person sentences written for this model (no
benchmark data) in Korean, Japanese, Chinese, English and mixed: ``lasting`` what a friend
would still know in a month, ``passing`` what they would not (today's minor happenings,
momentary states), written to look alike. Training is the disclosure model's
(:mod:`benchmarks.disclosure.train`: a class-balanced L2 logistic regression, leave one
language out for the report). The companion suite is read for the report only: the
probability the model gives the cases' target sentences and the other sentences the
viewers told about themselves, never used to train or to choose.

    python -m benchmarks.lasting --embedder use [--embedder e5]
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.disclosure.shipping import ModelJob, main
from benchmarks.lasting.report import companion_rows, render_report

JOB = ModelJob(
    name="lasting",
    data=(Path(__file__).resolve().parent / "data.jsonl",),
    positive="lasting",
    evaluate=companion_rows,
    render=render_report,
)

if __name__ == "__main__":
    main(JOB, __doc__)
