"""``python -m benchmarks.disclosure``: train the disclosure model for each embedder named,
write it into the package, and report it with its evaluation on the companion suite."""

from __future__ import annotations

from benchmarks.disclosure.evaluate import companion_evaluation, render_report
from benchmarks.disclosure.shipping import ModelJob, main
from benchmarks.disclosure.train import DATA

JOB = ModelJob(
    name="disclosure",
    data=DATA,
    positive="disclosure",
    evaluate=companion_evaluation,
    render=render_report,
)

if __name__ == "__main__":
    main(JOB, __doc__)
