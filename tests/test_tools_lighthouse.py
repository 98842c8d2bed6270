"""py/tools/lighthouse.py: what a Lighthouse report says of a run (scores, blocking time, each long task by file, ours
or not), and when a run meets the goal."""

from __future__ import annotations

from tools.lighthouse import describe, met, summarize

ORIGIN = "http://127.0.0.1:8766/arbiter/"


def report(perf=1.0, a11y=1.0, bp=1.0, tasks=()):
    """A Lighthouse report as far as summarize reads it; `tasks`: (url, ms, {group: ms})."""
    urls = list(dict.fromkeys(url for url, _, _ in tasks))
    return {
        "categories": {
            "performance": {"score": perf},
            "accessibility": {"score": a11y},
            "best-practices": {"score": bp},
        },
        "audits": {
            "total-blocking-time": {"numericValue": 41.6},
            "long-tasks": {
                "details": {
                    "debugData": {
                        "urls": urls,
                        "tasks": [
                            {"urlIndex": urls.index(url), "startTime": 100.0 + i, "duration": ms, **groups}
                            for i, (url, ms, groups) in enumerate(tasks)
                        ],
                    }
                }
            },
        },
    }


def test_a_run_with_no_long_task_of_ours_meets_the_goal():
    """Scores in whole points, tasks longest first, a task of another origin or none named not ours."""
    run = summarize(report(0.97, tasks=[("Unattributable", 60.0, {"other": 60.0})]), ORIGIN)
    assert run["scores"] == {"performance": 97, "accessibility": 100, "best-practices": 100} and run["tbt"] == 42
    assert [(t["url"], t["ours"]) for t in run["tasks"]] == [("Unattributable", False)]
    assert met(run)


def test_a_long_task_from_our_files_or_a_low_score_fails_the_goal():
    """The page itself (its URL) and its scripts are ours; Performance under 95 or any other score under 100 fails."""
    ours = summarize(
        report(
            tasks=[
                (ORIGIN, 51.0, {"parseHTML": 40.0, "other": 11.0}),
                (ORIGIN + "static/main.js", 77.0, {"scriptEvaluation": 70.0}),
            ]
        ),
        ORIGIN,
    )
    assert [(t["url"], t["ms"], t["ours"]) for t in ours["tasks"]] == [("static/main.js", 77.0, True), ("", 51.0, True)]
    assert ours["tasks"][1]["groups"] == {"parse": 40.0, "other": 11.0}
    assert not met(ours)
    assert "(the page)" in describe(1, ours) and "static/main.js" in describe(1, ours)
    assert not met(summarize(report(perf=0.94), ORIGIN)) and not met(summarize(report(bp=0.96), ORIGIN))
    assert met(summarize(report(perf=0.95), ORIGIN))
